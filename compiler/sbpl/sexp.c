/* sexp.c - the S-expression reader behind the SBPL reader (see sexp.h).  */
#include "compiler/sbpl/sexp.h"
#include "compiler/common/arena.h"
#include "compiler/common/xalloc.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum { SX_MAX_DEPTH = 200, SX_STRING_LIMIT = 255 };

typedef struct reader {
	const char *s;
	size_t len, pos;
	int line, col;
	const char *file;
	sb_diag *d;
	int errors;
	int depth;
	sx_doc *doc;
	struct sx_node **stack;   /* kids of the lists being read (read_list) */
	size_t nstack, capstack;
} reader;

/* The doc's nodes live in an arena freed at once with it: a profile is
 * read at every launch, and one allocation and one free per node were a
 * third of the reading (bench/analysis.md, launch).  */
static void *arena_alloc(sx_doc *doc, size_t n)
{
	return sb_arena_alloc(doc->arena, n);
}

static char *arena_strndup(sx_doc *doc, const char *s, size_t n)
{
	return sb_arena_strndup(doc->arena, s, n);
}

static int peek_at(const reader *r, size_t ahead)
{
	return r->pos + ahead < r->len ? (unsigned char)r->s[r->pos + ahead] : -1;
}

static int peek(const reader *r) { return peek_at(r, 0); }

static void advance(reader *r)
{
	if (r->pos >= r->len)
		return;
	if (r->s[r->pos] == '\n') {
		r->line++;
		r->col = 1;
	} else {
		r->col++;
	}
	r->pos++;
}

static sb_loc here(const reader *r)
{
	sb_loc l = { r->file, r->line, r->col, r->line, r->col };
	return l;
}

static void error_at(reader *r, sb_loc loc, const char *msg, const char *arg)
{
	sb_diag_report(r->d, SB_SEV_ERROR, &loc, "sbpl-syntax", msg, arg ? arg : "");
	r->errors++;
}

static void warn_at(reader *r, sb_loc loc, const char *code, const char *msg, const char *arg)
{
	sb_diag_report(r->d, SB_SEV_WARNING, &loc, code, msg, arg ? arg : "");
}

static bool is_delim(int c)
{
	return c < 0 || isspace(c) || c < 0x20 || c == 0x7f || c == '(' || c == ')' || c == '"' || c == ';';
}

static void add_comment(reader *r, size_t from, size_t to, int line, bool alone)
{
	while (from < to && r->s[from] == ';')
		from++;
	while (from < to && (r->s[from] == ' ' || r->s[from] == '\t'))
		from++;
	/* Trailing blanks are kept: a header value may end in one.  */
	while (to > from && r->s[to - 1] == '\r')
		to--;
	sx_doc *doc = r->doc;
	SB_GROW(doc->comments, doc->ncomments, doc->capcomments, 8);
	sx_comment *v = doc->comments;
	v[doc->ncomments].text = xstrndup(r->s + from, to - from);
	v[doc->ncomments].line = line;
	v[doc->ncomments].alone = alone;
	doc->ncomments++;
}

static bool line_blank_before(const reader *r, size_t pos)
{
	while (pos > 0 && r->s[pos - 1] != '\n') {
		if (r->s[pos - 1] != ' ' && r->s[pos - 1] != '\t')
			return false;
		pos--;
	}
	return true;
}

static void skip_space(reader *r)
{
	for (;;) {
		int c = peek(r);
		if (c >= 0 && isspace(c)) {
			advance(r);
		} else if (c == ';' || (c == '#' && peek_at(r, 1) == '!')) {
			size_t from = r->pos;
			int line = r->line;
			bool alone = line_blank_before(r, r->pos);
			while (peek(r) >= 0 && peek(r) != '\n')
				advance(r);
			if (c == ';')
				add_comment(r, from, r->pos, line, alone);
		} else {
			return;
		}
	}
}

static sx_node *node_new(sx_kind kind, const reader *r, sb_loc start, size_t start_pos)
{
	sx_node *n = arena_alloc(r->doc, sizeof *n);
	n->kind = kind;
	n->start = start_pos;
	n->loc = start;
	return n;
}

static void node_finish(sx_node *n, const reader *r)
{
	n->end = r->pos;
	n->loc.end_line = r->line;
	n->loc.end_col = r->col;
}

static void push_kid(reader *r, sx_node *kid)
{
	SB_GROW(r->stack, r->nstack, r->capstack, 64);
	r->stack[r->nstack++] = kid;
}

/* The kids pushed since `base` become the list's, in the arena.  */
static void take_kids(reader *r, sx_node *list, size_t base)
{
	list->nkids = r->nstack - base;
	list->kids = arena_alloc(r->doc, (list->nkids ? list->nkids : 1) * sizeof *list->kids);
	if (list->nkids)   /* no stack yet before the first kid: memcpy(NULL) is undefined */
		memcpy(list->kids, r->stack + base, list->nkids * sizeof *list->kids);
	r->nstack = base;
}

/* A growable byte buffer for string bodies.  */
typedef struct buf {
	char *p;
	size_t n, cap;
} buf;

static void buf_put(buf *b, char c)
{
	SB_GROW(b->p, b->n + 1, b->cap, 64);   /* c and the NUL */
	b->p[b->n++] = c;
	b->p[b->n] = '\0';
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One escape after a backslash inside "...": appends the decoded byte.
 * Returns false on an error (already reported).  */
static bool read_escape(reader *r, buf *b)
{
	sb_loc at = here(r);
	advance(r); /* the backslash */
	int c = peek(r);
	if (c < 0)
		return true; /* the caller reports the unterminated string */
	int val = -1;
	switch (c) {
	case 'n': val = '\n'; advance(r); break;
	case 't': val = '\t'; advance(r); break;
	case 'r': val = '\r'; advance(r); break;
	case '\\': val = '\\'; advance(r); break;
	case '"': val = '"'; advance(r); break;
	case 'x':
		if (hexval(peek_at(r, 1)) >= 0 && hexval(peek_at(r, 2)) >= 0) {
			val = hexval(peek_at(r, 1)) * 16 + hexval(peek_at(r, 2));
			advance(r); advance(r); advance(r);
		}
		break;
	default:
		if (c >= '0' && c <= '7') {
			val = 0;
			for (int i = 0; i < 3 && peek(r) >= '0' && peek(r) <= '7'; i++) {
				val = val * 8 + (peek(r) - '0');
				advance(r);
			}
			if (val > 255) {
				error_at(r, at, "octal escape out of range%s", NULL);
				return false;
			}
		}
		break;
	}
	if (val == 0) {
		error_at(r, at, "NUL byte in a string%s", NULL);
		return false;
	}
	if (val < 0) {
		/* TinyScheme: an unknown escape drops the backslash. */
		char what[8] = { (char)c, 0 };
		warn_at(r, at, "sbpl-escape",
			"unknown escape '\\%s' reads as the plain character (in a regex use #\"...\" or \\\\)",
			what);
		val = c;
		advance(r);
	}
	buf_put(b, (char)val);
	return true;
}

static sx_node *read_string(reader *r, bool raw, sb_loc start, size_t start_pos)
{
	buf b = { 0 };
	buf_put(&b, 0);
	b.n = 0;
	advance(r); /* opening quote */
	for (;;) {
		int c = peek(r);
		if (c < 0) {
			error_at(r, start, "unterminated string%s", NULL);
			free(b.p);
			return NULL;
		}
		if (c == '"') {
			advance(r);
			break;
		}
		if (raw && c == '\\' && peek_at(r, 1) == '"') {
			warn_at(r, here(r), "sbpl-portability",
				"\\\" inside #\"...\" is not portable (readers disagree)%s", NULL);
			buf_put(&b, '\\');
			buf_put(&b, '"');
			advance(r);
			advance(r);
			continue;
		}
		if (!raw && c == '\\') {
			if (!read_escape(r, &b)) {
				free(b.p);
				return NULL;
			}
			continue;
		}
		if (c == 0) {
			error_at(r, here(r), "NUL byte in a string%s", NULL);
			free(b.p);
			return NULL;
		}
		buf_put(&b, (char)c);
		advance(r);
	}
	sx_node *n = node_new(SX_STRING, r, start, start_pos);
	n->text = arena_strndup(r->doc, b.p, b.n);
	n->len = b.n;
	free(b.p);
	n->raw = raw;
	node_finish(n, r);
	if (n->len > SX_STRING_LIMIT) {
		char num[32];
		snprintf(num, sizeof num, "%zu", n->len);
		warn_at(r, start, "sbpl-long-string",
			"string of %s bytes: TinyScheme's reader stops at 255 (Apple's limit is unknown)", num);
	}
	return n;
}

/* Parse a number spelling; radix 10 accepts a sign and a fraction.  */
static bool parse_number(const char *s, int radix, long long *out)
{
	if (!*s)
		return false;
	char *end;
	if (radix == 10) {
		if (!(isdigit((unsigned char)s[0]) ||
		      ((s[0] == '-' || s[0] == '+') && isdigit((unsigned char)s[1]))))
			return false;
		double v = strtod(s, &end);
		if (*end)
			return false;
		/* Clamp: converting an out-of-range double is undefined
		 * (found by fuzz/fuzz_sbpl.c; tests/malformed/s26-*).  */
		if (v >= 9.2e18)
			*out = LLONG_MAX;
		else if (v <= -9.2e18)
			*out = LLONG_MIN;
		else
			*out = (long long)v;
		return true;
	}
	long long v = strtoll(s, &end, radix);
	if (*end || s[0] == '-' || s[0] == '+')
		return false;
	*out = v;
	return true;
}

/* In the doc's arena: most atoms become a node's text as they are.  */
static char *read_atom_text(reader *r)
{
	size_t from = r->pos;
	while (!is_delim(peek(r)))
		advance(r);
	return arena_strndup(r->doc, r->s + from, r->pos - from);
}

static sx_node *read_form(reader *r);

static sx_node *make_quote(reader *r, const char *name, sb_loc start, size_t start_pos)
{
	sx_node *q = read_form(r);
	if (!q)
		return NULL;
	sx_node *n = node_new(SX_LIST, r, start, start_pos);
	sx_node *sym = node_new(SX_SYMBOL, r, start, start_pos);
	sym->text = arena_strndup(r->doc, name, strlen(name));
	node_finish(sym, r);
	n->kids = arena_alloc(r->doc, 2 * sizeof *n->kids);
	n->kids[0] = sym;
	n->kids[1] = q;
	n->nkids = 2;
	node_finish(n, r);
	return n;
}

static const char *const cpp_words[] = {
	"if", "ifdef", "ifndef", "include", "define", "else", "elif", "endif", "undef", "pragma", "import",
};

static sx_node *read_hash(reader *r, sb_loc start, size_t start_pos)
{
	int c = peek_at(r, 1);
	if (c == '"') {
		advance(r); /* '#'; read_string skips the quote */
		return read_string(r, true, start, start_pos);
	}
	advance(r); /* '#' */
	char *word = read_atom_text(r);
	for (char *p = word; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	sx_node *n = NULL;
	long long v;
	if (!strcmp(word, "t") || !strcmp(word, "true") || !strcmp(word, "f") || !strcmp(word, "false")) {
		n = node_new(SX_BOOL, r, start, start_pos);
		n->num = word[0] == 't';
	} else if ((word[0] == 'o' || word[0] == 'x' || word[0] == 'b' || word[0] == 'd') &&
		   parse_number(word + 1, word[0] == 'o' ? 8 : word[0] == 'x' ? 16 : word[0] == 'b' ? 2 : 10, &v)) {
		n = node_new(SX_NUMBER, r, start, start_pos);
		n->num = v;
		n->text = arena_alloc(r->doc, strlen(word) + 2);
		sprintf(n->text, "#%s", word);
	} else if (word[0] == '\\') {
		/* A character literal: kept as an opaque symbol. */
		n = node_new(SX_SYMBOL, r, start, start_pos);
		n->text = arena_alloc(r->doc, strlen(word) + 2);
		sprintf(n->text, "#%s", word);
	} else {
		bool cpp = false;
		for (size_t i = 0; i < sizeof cpp_words / sizeof *cpp_words; i++)
			if (!strcmp(word, cpp_words[i]))
				cpp = true;
		if (cpp)
			error_at(r, start, "'#%s' needs the C preprocessor: run cpp first (WebKit *.sb.in style)", word);
		else if (!*word)
			error_at(r, start, "unsupported '#' syntax%s", NULL);
		else
			error_at(r, start, "unsupported '#%s' syntax", word);
		return NULL;
	}
	node_finish(n, r);
	return n;
}

static sx_node *read_list(reader *r, sb_loc start, size_t start_pos)
{
	if (++r->depth > SX_MAX_DEPTH) {
		error_at(r, start, "lists nested deeper than 200 levels%s", NULL);
		return NULL;
	}
	advance(r); /* '(' */
	sx_node *n = node_new(SX_LIST, r, start, start_pos);
	size_t base = r->nstack;
	for (;;) {
		skip_space(r);
		int c = peek(r);
		if (c < 0) {
			error_at(r, start, "unterminated list: '(' without a matching ')'%s", NULL);
			r->nstack = base;
			return NULL;
		}
		if (c == ')') {
			advance(r);
			break;
		}
		sx_node *kid = read_form(r);
		if (!kid) {
			r->nstack = base;
			return NULL;
		}
		push_kid(r, kid);
	}
	take_kids(r, n, base);
	r->depth--;
	node_finish(n, r);
	return n;
}

static sx_node *read_form(reader *r)
{
	skip_space(r);
	sb_loc start = here(r);
	size_t start_pos = r->pos;
	int c = peek(r);
	switch (c) {
	case -1:
		error_at(r, start, "unexpected end of input%s", NULL);
		return NULL;
	case '(':
		return read_list(r, start, start_pos);
	case ')':
		error_at(r, start, "unexpected ')'%s", NULL);
		return NULL;
	case '"':
		return read_string(r, false, start, start_pos);
	case '#':
		return read_hash(r, start, start_pos);
	case '\'':
		advance(r);
		return make_quote(r, "quote", start, start_pos);
	case '`':
		advance(r);
		return make_quote(r, "quasiquote", start, start_pos);
	case ',':
		advance(r);
		if (peek(r) == '@') {
			advance(r);
			return make_quote(r, "unquote-splicing", start, start_pos);
		}
		return make_quote(r, "unquote", start, start_pos);
	default:
		break;
	}
	if (c == '[' || c == ']' || c == '{' || c == '}') {
		char what[2] = { (char)c, 0 };
		error_at(r, start, "unexpected '%s'", what);
		advance(r);
		return NULL;
	}
	if (c == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
		/* Control bytes (NUL included) are never part of a symbol.  */
		char hex[8];
		snprintf(hex, sizeof hex, "0x%02x", (unsigned)c);
		error_at(r, start, "control byte %s outside a string", hex);
		advance(r);
		return NULL;
	}
	char *word = read_atom_text(r);
	long long v;
	sx_node *n;
	if (parse_number(word, 10, &v)) {
		n = node_new(SX_NUMBER, r, start, start_pos);
		n->num = v;
		n->text = word;
	} else {
		n = node_new(SX_SYMBOL, r, start, start_pos);
		for (char *p = word; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		n->text = word;
	}
	node_finish(n, r);
	return n;
}

/* Nix wraps profiles in a C++ raw string: R"X( ... )X".  Blank the wrapper
 * (keeping newlines) so offsets, lines and columns stay those of the file.  */
static void strip_cxx_raw_string(char *s, size_t len)
{
	size_t i = 0;
	while (i < len && isspace((unsigned char)s[i]))
		i++;
	if (i + 2 > len || s[i] != 'R' || s[i + 1] != '"')
		return;
	size_t open = i + 2;
	while (open < len && open - (i + 2) <= 16 && s[open] != '(' && !isspace((unsigned char)s[open]))
		open++;
	if (open >= len || s[open] != '(')
		return;
	size_t dlen = open - (i + 2);
	char close[24];
	close[0] = ')';
	memcpy(close + 1, s + i + 2, dlen);
	close[dlen + 1] = '"';
	size_t clen = dlen + 2;
	size_t end = len;
	while (end >= clen && memcmp(s + end - clen, close, clen) != 0)
		end--;
	if (end < clen || end - clen <= open)
		return;
	for (size_t k = 0; k <= open; k++)
		if (s[k] != '\n')
			s[k] = ' ';
	for (size_t k = end - clen; k < len; k++)
		if (s[k] != '\n')
			s[k] = ' ';
}

sx_doc *sx_read(const char *file, const char *text, size_t len, sb_diag *d)
{
	sx_doc *doc = xcalloc(1, sizeof *doc);
	doc->arena = xcalloc(1, sizeof *doc->arena);
	doc->file = sb_diag_intern(d, file);
	doc->text = xmalloc(len + 1);
	memcpy(doc->text, text, len);
	doc->text[len] = '\0';
	doc->len = len;
	strip_cxx_raw_string(doc->text, len);
	sb_diag_add_source(d, doc->file, text, len);

	reader r = { doc->text, len, 0, 1, 1, doc->file, d, 0, 0, doc, NULL, 0, 0 };
	for (;;) {
		skip_space(&r);
		if (peek(&r) < 0)
			break;
		sx_node *n = read_form(&r);
		if (!n)
			break;
		SB_GROW(doc->forms, doc->nforms, doc->capforms, 16);
		doc->forms[doc->nforms++] = n;
	}
	free(r.stack);
	if (r.errors) {
		sx_doc_free(doc);
		return NULL;
	}
	return doc;
}

void sx_doc_free(sx_doc *doc)
{
	if (!doc)
		return;
	if (doc->arena)
		sb_arena_clear(doc->arena);
	free(doc->arena);
	free(doc->forms);
	for (size_t i = 0; i < doc->ncomments; i++)
		free(doc->comments[i].text);
	free(doc->comments);
	free(doc->text);
	free(doc);
}

const char *sx_head(const sx_node *n)
{
	if (!n || n->kind != SX_LIST || n->nkids == 0 || n->kids[0]->kind != SX_SYMBOL)
		return NULL;
	return n->kids[0]->text;
}

bool sx_is_symbol(const sx_node *n, const char *name)
{
	return n && n->kind == SX_SYMBOL && !strcmp(n->text, name);
}

static void print_string(FILE *f, const sx_node *n)
{
	if (n->raw) {
		fprintf(f, "#\"%s\"", n->text);
		return;
	}
	fputc('"', f);
	for (size_t i = 0; i < n->len; i++) {
		unsigned char c = (unsigned char)n->text[i];
		switch (c) {
		case '\\': fputs("\\\\", f); break;
		case '"': fputs("\\\"", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\x%02x", c);
			else
				fputc(c, f);
		}
	}
	fputc('"', f);
}

static void print_node(FILE *f, const sx_node *n)
{
	switch (n->kind) {
	case SX_LIST:
		fputc('(', f);
		for (size_t i = 0; i < n->nkids; i++) {
			if (i)
				fputc(' ', f);
			print_node(f, n->kids[i]);
		}
		fputc(')', f);
		break;
	case SX_SYMBOL:
	case SX_NUMBER:
	case SX_OPAQUE:
		fputs(n->text, f);
		break;
	case SX_STRING:
		print_string(f, n);
		break;
	case SX_BOOL:
		fputs(n->num ? "#t" : "#f", f);
		break;
	}
}

char *sx_print(const sx_node *n)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = xopen_memstream(&out, &len);
	print_node(f, n);
	fclose(f);
	return out;
}
