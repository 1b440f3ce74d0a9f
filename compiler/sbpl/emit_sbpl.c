/* emit_sbpl.c - the one SBPL writer: profile IR -> SBPL text for sbc and
 * sbrun --print-profile (sb_emit_sbpl), and the one-line renderings of
 * rules, filters and strings that sbc explain and sbc diff show (format of
 * both in emit_sbpl.h).  */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compiler/sbpl/emit_sbpl.h"
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

/* PROFILE: text a sandbox will run, so a value that cannot be written
 * faithfully is refused.  LINE: a rendering for a person, on one line;
 * control characters are escaped and nothing is refused.  */
typedef enum { W_PROFILE, W_LINE } wmode;

/* Rule notes remembered as free of control characters (emit_rule).  */
enum { CLEAN_NOTES = 4 };

/* The text goes into one growing buffer with plain appends: a profile of
 * a large policy is millions of short tokens, and a stdio stream per token
 * was a seventh of a compile (bench/analysis.md, section 1).  */
typedef struct {
	char *buf;
	size_t len, cap;
	sb_diag *d;
	bool failed;
	wmode mode;
	/* the last rule's origin file when it has no control character: rules
	 * share one interned name, written without a scan */
	const char *clean_src;
	const char *clean_note[CLEAN_NOTES];   /* the same for rule notes */
	size_t nclean_note;
	/* the first refusal, for a stream that reports it at its end */
	sb_loc refused_at;
	bool refused_located;
	const char *refused_what;
} emitter;

static void out_room(emitter *e, size_t n)
{
	if (e->cap - e->len > n)
		return;
	SB_GROW(e->buf, e->len + n, e->cap, 256);
}

static void out_n(emitter *e, const char *s, size_t n)
{
	out_room(e, n);
	memcpy(e->buf + e->len, s, n);
	e->len += n;
}

static void out_c(emitter *e, char c)
{
	out_room(e, 1);
	e->buf[e->len++] = c;
}

static void out_s(emitter *e, const char *s)
{
	out_n(e, s, strlen(s));
}

/* A number in decimal, without formatting (several a rule of a large
 * profile: a line, a column, a record's number).  */
static void out_int(emitter *e, long v)
{
	char num[24], *q = num + sizeof num;
	unsigned long x = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
	do
		*--q = (char)('0' + x % 10);
	while (x /= 10);
	if (v < 0)
		*--q = '-';
	out_n(e, q, (size_t)(num + sizeof num - q));
}

static void out_f(emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_f(emitter *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *t = xvasprintf(fmt, ap);
	va_end(ap);
	out_s(e, t);
	free(t);
}

/* The text, NUL-terminated (an empty buffer is "").  */
static char *out_finish(emitter *e, size_t *len)
{
	out_room(e, 0);
	e->buf[e->len] = '\0';
	if (len)
		*len = e->len;
	return e->buf;
}

static void report_refusal(sb_diag *d, const sb_loc *loc, const char *what)
{
	sb_diag_report(d, SB_SEV_ERROR, loc, "emit",
		       "%s contains a control character and cannot go into a profile", what);
}

static void refuse(emitter *e, const sb_loc *loc, const char *what)
{
	if (!e->failed) {
		if (e->d)
			report_refusal(e->d, loc, what);
		e->refused_located = loc != NULL;
		if (loc)
			e->refused_at = *loc;
		e->refused_what = what;
	}
	e->failed = true;
}

/* A string literal with every control byte escaped for reading back
 * (backslash-n, backslash-x01): nothing can end the line.  */
static void line_quoted(emitter *f, const char *s)
{
	out_c(f, '"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '\\' || ch == '"') {
			out_c(f, '\\');
			out_c(f, (char)ch);
		} else if (ch == '\n')
			out_s(f, "\\n");
		else if (ch == '\t')
			out_s(f, "\\t");
		else if (ch == '\r')
			out_s(f, "\\r");
		else if (ch < 0x20 || ch == 0x7f)
			out_f(f, "\\x%02x", ch);
		else
			out_c(f, (char)ch);
	}
	out_c(f, '"');
}

static void emit_quoted(emitter *e, const char *s, const sb_loc *loc)
{
	if (e->mode == W_LINE) {
		line_quoted(e, s);
		return;
	}
	/* as sb_sbpl_escape (compiler/common/path.c), straight into the text */
	if (sb_path_bad_char(s) >= 0) {
		refuse(e, loc, "a string");
		return;
	}
	out_c(e, '"');
	for (;;) {
		size_t run = strcspn(s, "\\\"");
		out_n(e, s, run);
		s += run;
		if (!*s)
			break;
		out_c(e, '\\');
		out_c(e, *s++);
	}
	out_c(e, '"');
}

/* regex: the string is a regex argument in a LINE rendering, written as
 * #"..." where that reads back the same.  */
static void emit_str(emitter *e, const sb_str *s, const sb_loc *loc, bool regex)
{
	switch (s->kind) {
	case SB_STR_LIT:
		if (regex && !strchr(s->text, '"') && !strpbrk(s->text, "\n\r"))
			out_f(e, "#\"%s\"", s->text);
		else
			emit_quoted(e, s->text, loc);
		break;
	case SB_STR_PARAM: {
		/* a single param is spelled by its name: no copy (one per path) */
		bool own = s->param.kind != SB_PARAM_SINGLE || s->param.index;
		char *spelling = own ? sb_param_spelling(&s->param) : s->param.name;
		out_s(e, "(param ");
		emit_quoted(e, spelling, loc);
		out_c(e, ')');
		if (own)
			free(spelling);
		break;
	}
	case SB_STR_APPEND:
		out_s(e, "(string-append");
		for (size_t i = 0; i < s->nparts; i++) {
			out_c(e, ' ');
			emit_str(e, s->parts[i], loc, regex);
		}
		out_c(e, ')');
		break;
	}
}

static void emit_filter(emitter *e, const sb_filter *f)
{
	static const char *const path_kinds[] = {
		[SB_F_LITERAL] = "literal", [SB_F_SUBPATH] = "subpath", [SB_F_PREFIX] = "prefix",
	};
	static const char *const logic_kinds[] = {
		[SB_F_REQUIRE_ALL] = "require-all", [SB_F_REQUIRE_ANY] = "require-any",
		[SB_F_REQUIRE_NOT] = "require-not",
	};
	switch (f->kind) {
	case SB_F_LITERAL:
	case SB_F_SUBPATH:
	case SB_F_PREFIX:
		out_c(e, '(');
		out_s(e, path_kinds[f->kind]);
		out_c(e, ' ');
		emit_str(e, f->arg, &f->loc, false);
		out_c(e, ')');
		break;
	case SB_F_REGEX: {
		if (e->mode == W_LINE) {
			out_s(e, "(regex ");
			emit_str(e, f->arg, &f->loc, true);
			out_c(e, ')');
			break;
		}
		/* #"..." has no escape for '"'; refuse rather than guess */
		char *v = f->arg ? sb_str_value(f->arg) : NULL;
		if (!v || strchr(v, '"') || sb_path_bad_char(v) >= 0) {
			refuse(e, &f->loc, "a regex");
		} else {
			out_s(e, "(regex #\"");
			out_s(e, v);
			out_s(e, "\")");
		}
		free(v);
		break;
	}
	case SB_F_VNODE_TYPE:
		out_s(e, "(vnode-type");
		for (unsigned b = 0; b < SB_VNODE__COUNT; b++)
			if (f->vnode_mask & (1u << b)) {
				out_c(e, ' ');
				out_s(e, sb_vnode_name(b));
			}
		out_c(e, ')');
		break;
	case SB_F_REQUIRE_ALL:
	case SB_F_REQUIRE_ANY:
	case SB_F_REQUIRE_NOT:
		out_c(e, '(');
		out_s(e, logic_kinds[f->kind]);
		for (size_t i = 0; i < f->nkids; i++) {
			out_c(e, ' ');
			emit_filter(e, f->kids[i]);
		}
		out_c(e, ')');
		break;
	case SB_F_OPAQUE:
		if (e->mode == W_LINE)
			out_s(e, f->opaque ? f->opaque : "(?)");
		else if (!f->opaque || sb_path_bad_char(f->opaque) >= 0)
			refuse(e, &f->loc, "a filter");
		else
			out_s(e, f->opaque);
		break;
	}
}

/* Comment text: control characters become '?' so a name cannot end the
 * comment and start a rule.  */
static void emit_comment_text(emitter *e, const char *text)
{
	/* runs of printable bytes in one write; control characters as '?' */
	for (const unsigned char *s = (const unsigned char *)text; *s;) {
		size_t n = 0;
		while (s[n] && s[n] >= 0x20 && s[n] != 0x7f)
			n++;
		out_n(e, (const char *)s, n);
		s += n;
		if (*s) {
			out_c(e, '?');
			s++;
		}
	}
}

static void emit_comment(emitter *e, const char *text)
{
	out_s(e, "; ");
	emit_comment_text(e, text);
	out_c(e, '\n');
}

static const char *op_spelling(const sb_rule *r, size_t i)
{
	return r->ops[i] == SB_OP_OTHER && r->op_names && r->op_names[i] ? r->op_names[i]
									  : sb_op_name(r->ops[i]);
}

/* LINE: "(allow OP... FILTER... MODIFIER...)" without origin comments.  */
static void emit_rule_line(emitter *e, const sb_rule *r)
{
	out_s(e, r->action == SB_ALLOW ? "(allow" : "(deny");
	for (size_t i = 0; i < r->nops; i++) {
		out_c(e, ' ');
		out_s(e, op_spelling(r, i));
	}
	for (size_t i = 0; i < r->nfilters; i++) {
		out_c(e, ' ');
		emit_filter(e, r->filters[i]);
	}
	for (size_t i = 0; i < r->nmodifiers; i++) {
		out_c(e, ' ');
		out_s(e, r->modifiers[i]);
	}
	out_c(e, ')');
}

static void emit_rule(emitter *e, const sb_rule *r)
{
	if (r->origin) {
		/* "; FILE:LINE", as emit_comment would write it (once per rule of
		 * large policies: no formatting); for people only, the data form
		 * carries it (emit_origins) */
		const char *src = r->origin->file;
		char num[24], *q = num + sizeof num;
		long sl = r->origin->line;
		unsigned long line = sl < 0 ? (unsigned long)-sl : (unsigned long)sl;
		do
			*--q = (char)('0' + line % 10);
		while (line /= 10);
		out_s(e, "; ");
		if (src == e->clean_src) {
			out_s(e, src);
		} else {
			emit_comment_text(e, src);
			if (sb_path_bad_char(src) < 0)
				e->clean_src = src;
		}
		out_c(e, ':');
		if (sl < 0)
			out_c(e, '-');
		out_n(e, (const char *)q, (size_t)(num + sizeof num - q));
		out_c(e, '\n');
	}
	if (r->note) {
		/* the notes are a few static strings, each on many rules: one
		 * found clean before is written without its byte scan */
		size_t k = 0;
		while (k < CLEAN_NOTES && e->clean_note[k] != r->note)
			k++;
		if (k < CLEAN_NOTES) {
			out_s(e, "; ");
			out_s(e, r->note);
			out_c(e, '\n');
		} else {
			emit_comment(e, r->note);
			if (sb_path_bad_char(r->note) < 0)
				e->clean_note[e->nclean_note++ % CLEAN_NOTES] = r->note;
		}
	}
	out_s(e, r->action == SB_ALLOW ? "(allow" : "(deny");
	for (size_t i = 0; i < r->nops; i++) {
		const char *name = op_spelling(r, i);
		/* names from the operation table need no check */
		bool table = r->ops[i] != SB_OP_OTHER && (!r->op_names || !r->op_names[i]);
		if (!table && (!name || sb_path_bad_char(name) >= 0 || strpbrk(name, " ()\";"))) {
			refuse(e, &r->loc, "an operation name");
			return;
		}
		out_c(e, ' ');
		out_s(e, name);
	}
	for (size_t i = 0; i < r->nmodifiers; i++) {
		if (sb_path_bad_char(r->modifiers[i]) >= 0) {
			refuse(e, &r->loc, "a modifier");
			return;
		}
		out_c(e, ' ');
		out_s(e, r->modifiers[i]);
	}
	if (r->nfilters == 1) {
		out_c(e, ' ');
		emit_filter(e, r->filters[0]);
		out_s(e, ")\n");
	} else if (r->nfilters > 1) {
		for (size_t i = 0; i < r->nfilters; i++) {
			out_s(e, "\n    ");
			emit_filter(e, r->filters[i]);
		}
		out_s(e, "\n)\n");
	} else {
		out_s(e, ")\n");
	}
}

static void data_quoted(emitter *e, const char *s, size_t n);

/* The egress list as data: a definition Seatbelt evaluates and never uses,
 * which the SBPL reader turns back into the list (sbpl_read.c).  One entry
 * a line: ("network" "on"|"off" ORIGIN) or ("allow"|"deny" PATTERN ORIGIN).  */
static void emit_egress(emitter *e, const sb_egress *eg)
{
	emit_comment(e, "egress by host name, decided by the launcher's proxy (docs/egress.md)");
	out_s(e, "(define " SB_EGRESS_DEFINE " (list\n");
	for (size_t i = 0; i < eg->n; i++) {
		const sb_egress_rule *r = &eg->v[i];
		out_s(e, "    (list ");
		if (r->all) {
			out_f(e, "\"network\" \"%s\"", r->allow ? "on" : "off");
		} else {
			char *t = sb_host_pat_text(&r->pat);
			out_s(e, r->allow ? "\"allow\" " : "\"deny\" ");
			emit_quoted(e, t, NULL);
			free(t);
		}
		/* the origin as text too, as sbc wrote it before the origin
		 * table (emit_origins) */
		char *w = r->origin ? sb_origin_where(r->origin) : NULL;
		out_c(e, ' ');
		data_quoted(e, w ? w : "", w ? strlen(w) : 0);
		free(w);
		out_s(e, ")\n");
	}
	out_s(e, "))\n");
}

/* ---- the data form: what a profile carries for the tools, read back by
 * sbpl_read.c (emit_sbpl.h, "Data") ---- */

/* A string of data, every byte that could end the line escaped (\n, \t,
 * \r, \xHH, as sexp.c reads them), in pieces of at most DATA_PIECE bytes
 * cut between UTF-8 characters: a literal over 255 bytes may fail in
 * Seatbelt's reader (sexp.c warns, [sbpl-long-string]), so a long statement
 * is several strings the reader joins.  */
enum { DATA_PIECE = 120 };

static void data_quoted(emitter *e, const char *s, size_t n)
{
	out_c(e, '"');
	for (size_t i = 0; i < n; i++) {
		/* a run that needs no escape in one write: a statement's text is
		 * mostly such runs, and a large profile has one a statement */
		size_t run = i;
		while (run < n && (unsigned char)s[run] >= 0x20 && s[run] != 0x7f &&
		       s[run] != '\\' && s[run] != '"')
			run++;
		if (run > i) {
			out_n(e, s + i, run - i);
			i = run;
			if (i == n)
				break;
		}
		unsigned char ch = (unsigned char)s[i];
		if (ch == '\\' || ch == '"') {
			out_c(e, '\\');
			out_c(e, (char)ch);
		} else if (ch == '\n') {
			out_s(e, "\\n");
		} else if (ch == '\t') {
			out_s(e, "\\t");
		} else if (ch == '\r') {
			out_s(e, "\\r");
		} else if (ch < 0x20 || ch == 0x7f) {
			out_f(e, "\\x%02x", ch);
		} else {
			out_c(e, (char)ch);
		}
	}
	out_c(e, '"');
}

static void data_pieces(emitter *e, const char *s, size_t n)
{
	if (!n) {
		out_s(e, " \"\"");
		return;
	}
	while (n) {
		size_t k = n < DATA_PIECE ? n : DATA_PIECE;
		while (k < n && k > 1 && ((unsigned char)s[k] & 0xc0) == 0x80)
			k--;
		out_c(e, ' ');
		data_quoted(e, s, k);
		s += k;
		n -= k;
	}
}

/* The numbers of a map as strings of decimal numbers separated by a
 * blank, 16 a string (under the 255 bytes of a literal) and a line: few
 * values for the reader, where a number each cost a large profile's read
 * a fifth of its time.  Written without formatting: one a rule.  */
static void data_numbers(emitter *e, const uint32_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		out_s(e, i % 16 ? " " : i ? "\"\n    \"" : "\n    \"");
		out_int(e, (long)v[i]);
	}
	if (n)
		out_c(e, '"');
}

/* The origin table being gathered: each record once, in the order of
 * first use, and one number a use (a rule, then a host rule): its record,
 * 1-based, 0 for none.  Fed a rule at a time by a stream, whose rules are
 * gone by the end (sb_sbpl_stream_rule).  */
typedef struct {
	const sb_origin **recs;
	size_t nrecs, reccap;
	uint32_t *idx;
	size_t nidx, idxcap;
	/* the records seen, by address: open addressing, a slot is a record's
	 * number (0: empty); a profile of 100k statements has 100k records,
	 * which a strmap held in 8 MB of 32-byte slots */
	uint32_t *seen;
	size_t seencap;
	const sb_origin *last;
} origin_tab;

static size_t origin_hash(const sb_origin *o)
{
	uint64_t h = (uint64_t)(uintptr_t)o;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (size_t)h;
}

/* The slot of o: its record's, or the empty one where it would go.  */
static size_t seen_slot(const origin_tab *t, const sb_origin *o)
{
	size_t i = origin_hash(o) & (t->seencap - 1);
	while (t->seen[i] && t->recs[t->seen[i] - 1] != o)
		i = (i + 1) & (t->seencap - 1);
	return i;
}

static void origins_add(origin_tab *t, const sb_origin *o)
{
	SB_GROW(t->idx, t->nidx, t->idxcap, 64);
	uint32_t *at = &t->idx[t->nidx++];
	*at = 0;
	/* col 0 at a line: named by an origin comment or text, from a
	 * profile without the table; no comment becomes data */
	if (!o || (o->line > 0 && !o->col))
		return;
	if (o == t->last) {   /* a statement's rules mostly come together */
		*at = at[-1];
		return;
	}
	if ((t->nrecs + 1) * 2 > t->seencap) {   /* at most half full */
		size_t cap = t->seencap ? 2 * t->seencap : 64;
		uint32_t *old = t->seen;
		size_t oldcap = t->seencap;
		t->seen = xcalloc(cap, sizeof *t->seen);
		t->seencap = cap;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i])
				t->seen[seen_slot(t, t->recs[old[i] - 1])] = old[i];
		free(old);
	}
	size_t i = seen_slot(t, o);
	if (!t->seen[i]) {
		SB_GROW(t->recs, t->nrecs, t->reccap, 16);
		if (t->nrecs >= UINT32_MAX)
			abort();   /* 4G statements: no policy has them */
		t->recs[t->nrecs++] = o;
		t->seen[i] = (uint32_t)t->nrecs;
	}
	*at = t->seen[i];
	t->last = o;
}

static void origins_clear(origin_tab *t)
{
	free(t->seen);
	free(t->recs);
	free(t->idx);
	memset(t, 0, sizeof *t);
}

/* The table as (list FILE... LINE COL TEXT...) entries, then the rules'
 * and the host rules' numbers: the first `nrules` uses, then the rest.
 * Records the compiler or the launcher made; not those an older profile's
 * comments named (col 0), which stay comments.  */
static void origins_emit(emitter *e, const origin_tab *t, size_t nrules)
{
	if (!t->nrecs)
		return;
	emit_comment(e, "where each rule comes from, for sbrun --trace and sbc explain "
			"(docs/trace.md); data, never decided on");
	out_s(e, "(define " SB_SBPL_ORIGINS_DEFINE " (list\n");
	for (size_t i = 0; i < t->nrecs; i++) {
		const sb_origin *o = t->recs[i];
		out_s(e, "    (list");
		data_pieces(e, o->file, strlen(o->file));
		out_c(e, ' ');
		out_int(e, o->line);
		out_c(e, ' ');
		out_int(e, o->col);
		if (o->text)
			data_pieces(e, o->text, o->len);
		out_s(e, ")\n");
	}
	out_s(e, "))\n(define " SB_SBPL_RULE_ORIGINS_DEFINE " (list");
	data_numbers(e, t->idx, nrules);
	out_s(e, "))\n");
	if (t->nidx > nrules) {
		out_s(e, "(define " SB_SBPL_EGRESS_ORIGINS_DEFINE " (list");
		data_numbers(e, t->idx + nrules, t->nidx - nrules);
		out_s(e, "))\n");
	}
}

static void emit_origins(emitter *e, const sb_profile *p)
{
	origin_tab t = {0};
	for (size_t i = 0; i < p->nrules; i++)
		origins_add(&t, p->rules[i]->origin);
	for (size_t i = 0; i < p->egress.n; i++)
		origins_add(&t, p->egress.v[i].origin);
	origins_emit(e, &t, p->nrules);
	origins_clear(&t);
}

/* The header's data: the policy the profile was compiled from and the
 * launch's -D list (sbrun --print-profile), after the comments that show
 * them to people.  */
static void emit_header_data(emitter *e, const sb_profile *p)
{
	if (p->source_policy) {
		out_s(e, "(define " SB_SBPL_SOURCE_DEFINE);
		data_pieces(e, p->source_policy, strlen(p->source_policy));
		out_s(e, ")\n");
	}
	if (!p->launch_params.n)
		return;
	out_s(e, "(define " SB_SBPL_PARAMS_DEFINE " (list\n");
	for (size_t i = 0; i < p->launch_params.n; i++) {
		const sb_binding *b = &p->launch_params.v[i];
		const char *v = b->nvalues ? b->values[0] : "";
		out_s(e, "    (list");
		out_c(e, ' ');
		data_quoted(e, b->name, strlen(b->name));   /* a name: short */
		data_pieces(e, v, strlen(v));
		out_s(e, ")\n");
	}
	out_s(e, "))\n");
}

/* What comes before the rules.  */
static void emit_head(emitter *e, const sb_profile *p)
{
	if (p->launch_params.n)
		out_s(e, ";; " SB_SBPL_LAUNCH_PARAMS_TITLE "\n");
	for (size_t i = 0; i < p->launch_params.n; i++) {
		const sb_binding *b = &p->launch_params.v[i];
		out_f(e, ";;   -D %s=", b->name);
		emit_comment_text(e, b->nvalues ? b->values[0] : "");
		out_c(e, '\n');
	}
	if (p->source_policy) {
		out_s(e, "; " SB_SBPL_SOURCE_PREFIX);
		emit_comment_text(e, p->source_policy);
		out_s(e, SB_SBPL_SOURCE_SUFFIX "\n");
	}
	for (size_t i = 0; i < p->nheader; i++)
		emit_comment(e, p->header[i]);
	out_f(e, "(version %d)\n", p->version ? p->version : 1);
	emit_header_data(e, p);
	for (size_t i = 0; i < p->nimports; i++) {
		out_s(e, "(import ");
		emit_quoted(e, p->imports[i], NULL);
		out_s(e, ")\n");
	}
	for (size_t i = 0; i < p->nunmodelled; i++) {
		if (sb_path_bad_char(p->unmodelled[i].text) >= 0)
			refuse(e, &p->unmodelled[i].loc, "a form");
		else
			out_f(e, "%s\n", p->unmodelled[i].text);
	}
}

char *sb_emit_sbpl(const sb_profile *p, size_t *len, sb_diag *d)
{
	emitter e = {.d = d};
	emit_head(&e, p);
	for (size_t i = 0; i < p->nrules && !e.failed; i++)
		emit_rule(&e, p->rules[i]);
	if (p->egress.n && !e.failed)
		emit_egress(&e, &p->egress);
	if (!e.failed)
		emit_origins(&e, p);
	if (e.failed) {
		free(e.buf);
		return NULL;
	}
	return out_finish(&e, len);
}

/* ---- one-line renderings (LINE mode) ---- */

typedef enum { R_STR, R_FILTER, R_RULE } rendering;

static char *render_line(rendering what, const void *x)
{
	emitter e = {.mode = W_LINE};
	switch (what) {
	case R_STR:
		emit_str(&e, x, NULL, false);
		break;
	case R_FILTER:
		emit_filter(&e, x);
		break;
	case R_RULE:
		emit_rule_line(&e, x);
		break;
	}
	return out_finish(&e, NULL);
}

char *sb_sbpl_str_text(const sb_str *s) { return render_line(R_STR, s); }
char *sb_sbpl_filter_text(const sb_filter *f) { return render_line(R_FILTER, f); }
char *sb_sbpl_rule_text(const sb_rule *r) { return render_line(R_RULE, r); }

/* ---- writing: whole, or a stream of rules ---- */

/* What goes to the output, in order: bytes in memory, or (fd >= 0) the
 * first len bytes of a file.  */
typedef struct {
	const char *data;
	size_t len;
	int fd;
} piece;

static int write_all(int fd, const char *data, size_t len)
{
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}

/* len bytes of `in` from its start to `out`: in the kernel where it can
 * (copy_file_range: no copy through this process), else by reads.  */
static int copy_fd(int out, int in, size_t len)
{
	off_t off = 0;
#if defined(__linux__)
	while ((size_t)off < len) {
		ssize_t w = copy_file_range(in, &off, out, NULL, len - (size_t)off, 0);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;   /* not between these files (a pipe, another kind): by reads */
	}
#endif
	char buf[65536];
	while ((size_t)off < len) {
		size_t want = len - (size_t)off < sizeof buf ? len - (size_t)off : sizeof buf;
		ssize_t r = pread(in, buf, want, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = EIO;   /* the temporary file is shorter than written */
			return -1;
		}
		if (write_all(out, buf, (size_t)r) != 0)
			return -1;
		off += r;
	}
	return 0;
}

static int write_pieces(int fd, const piece *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((v[i].fd >= 0 ? copy_fd(fd, v[i].fd, v[i].len) : write_all(fd, v[i].data, v[i].len)) != 0)
			return -1;
	return 0;
}

static int write_atomic_pieces(const char *path, const piece *v, size_t n)
{
	if (!strcmp(path, "-")) {
		for (size_t i = 0; i < n; i++) {
			if (v[i].fd < 0) {
				if (fwrite(v[i].data, 1, v[i].len, stdout) != v[i].len)
					return -1;
			} else if (fflush(stdout) != 0 || copy_fd(fileno(stdout), v[i].fd, v[i].len) != 0) {
				return -1;
			}
		}
		return fflush(stdout) != 0 ? -1 : 0;
	}
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or FIFO (-o /dev/null, /dev/stdout): write through it.
		 * Renaming a temporary file over it would replace the device node
		 * (as root, /dev/null itself).  A directory fails in open().  */
		int dfd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (dfd < 0)
			return -1;
		if (write_pieces(dfd, v, n) != 0) {
			int saved = errno;
			close(dfd);
			errno = saved;
			return -1;
		}
		return close(dfd);
	}
	const char *slash = strrchr(path, '/');
	char *tmp = slash ? xasprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1)
			  : xasprintf(".%s.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	if (write_pieces(fd, v, n) != 0)
		goto fail;
	/* mkstemp makes 0600; a profile is not secret, make it 0644 */
	if (fchmod(fd, 0644) != 0 || fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	return 0;
fail: {
	int saved = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = saved;
	return -1;
}
}

int sb_write_atomic(const char *path, const char *data, size_t len)
{
	piece p = {data, len, -1};
	return write_atomic_pieces(path, &p, 1);
}

/* The rules of a stream go to a temporary file, unnamed, in the directory
 * of the output (where the output's own temporary file goes, so the copy
 * can stay in one file system) or, for stdout and devices, the caller's
 * temporary directory; the header, which needs every rule's params, is
 * written before them at the end.  Rules pass through the buffer in runs
 * of this size.  */
enum { STREAM_RUN = 256u << 10 };

struct sb_sbpl_stream {
	emitter e;          /* d NULL: a refusal is reported by finish */
	const char *path;   /* NULL: the text is not kept (sbc --check) */
	int body;           /* the temporary file, or -1: the rules stay in e.buf */
	size_t body_len;
	int body_errno;     /* a write to it failed: finish fails with this */
	origin_tab origins; /* the rules' origins, for the tail's table */
	size_t nrules;
};

static int body_open(const char *path, const char *tmpdir)
{
	struct stat st;
	char *dir;
	if (!strcmp(path, "-") || (stat(path, &st) == 0 && !S_ISREG(st.st_mode))) {
		dir = xstrdup(tmpdir && tmpdir[0] == '/' ? tmpdir : "/tmp");
	} else {
		const char *slash = strrchr(path, '/');
		dir = slash ? xasprintf("%.*s", (int)(slash - path + (slash == path)), path) : xstrdup(".");
	}
	int fd = -1;
#if defined(__linux__) && defined(O_TMPFILE)
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
	if (fd < 0) {
		char *tmp = xasprintf("%s/.sbc-rules.XXXXXX", dir);
		fd = mkstemp(tmp);
		if (fd >= 0)
			unlink(tmp);
		free(tmp);
	}
	free(dir);
	return fd;   /* -1: the rules stay in memory, as sb_emit_sbpl holds them */
}

sb_sbpl_stream *sb_sbpl_stream_new(const char *path, const char *tmpdir)
{
	sb_sbpl_stream *s = xcalloc(1, sizeof *s);
	s->path = path;
	s->body = path ? body_open(path, tmpdir) : -1;
	return s;
}

void sb_sbpl_stream_rule(sb_sbpl_stream *s, const sb_rule *r)
{
	if (s->e.failed)
		return;
	origins_add(&s->origins, r->origin);
	s->nrules++;
	emit_rule(&s->e, r);
	if (!s->path) {
		s->e.len = 0;   /* checked, not kept */
	} else if (s->body >= 0 && s->e.len >= STREAM_RUN && !s->body_errno) {
		if (write_all(s->body, s->e.buf, s->e.len) != 0)
			s->body_errno = errno ? errno : EIO;
		s->body_len += s->e.len;
		s->e.len = 0;
	}
}

int sb_sbpl_stream_finish(sb_sbpl_stream *s, const sb_profile *p, sb_diag *d)
{
	emitter head = {.d = NULL};
	emit_head(&head, p);
	emitter *e = &s->e;
	if (p->egress.n && !e->failed && !head.failed)
		emit_egress(e, &p->egress);
	if (!e->failed && !head.failed) {
		for (size_t i = 0; i < p->egress.n; i++)
			origins_add(&s->origins, p->egress.v[i].origin);
		origins_emit(e, &s->origins, s->nrules);
	}
	/* the head comes first in the text: its refusal is the one reported */
	const emitter *bad = head.failed ? &head : e->failed ? e : NULL;
	if (bad) {
		if (d)
			report_refusal(d, bad->refused_located ? &bad->refused_at : NULL, bad->refused_what);
		free(head.buf);
		return 1;
	}
	int rc = 0;
	if (s->body_errno) {
		errno = s->body_errno;
		rc = -1;
	} else if (s->path) {
		piece v[3] = {
			{head.buf, head.len, -1},
			{NULL, s->body_len, s->body},
			{e->buf, e->len, -1},
		};
		rc = s->body >= 0 ? write_atomic_pieces(s->path, v, 3)
				  : write_atomic_pieces(s->path, (piece[]){v[0], v[2]}, 2);
	}
	int saved = errno;
	free(head.buf);
	errno = saved;
	return rc;
}

void sb_sbpl_stream_free(sb_sbpl_stream *s)
{
	if (!s)
		return;
	if (s->body >= 0)
		close(s->body);
	origins_clear(&s->origins);
	free(s->e.buf);
	free(s);
}
