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
#include "compiler/common/strmap.h"
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
} emitter;

static void out_room(emitter *e, size_t n)
{
	if (e->cap - e->len > n)
		return;
	size_t cap = e->cap ? e->cap : 256;
	while (cap - e->len <= n)
		cap *= 2;
	e->buf = xrealloc(e->buf, cap);
	e->cap = cap;
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

static void refuse(emitter *e, const sb_loc *loc, const char *what)
{
	if (!e->failed && e->d)
		sb_diag_report(e->d, SB_SEV_ERROR, loc, "emit",
			       "%s contains a control character and cannot go into a profile", what);
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
 * a fifth of its time.  */
static void data_numbers(emitter *e, const size_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		out_s(e, i % 16 ? " " : i ? "\"\n    \"" : "\n    \"");
		out_f(e, "%zu", v[i]);
	}
	if (n)
		out_c(e, '"');
}

/* The origin table: each record once, in the order of first use by the
 * rules then the host rules, as (list FILE... LINE COL TEXT...); then one
 * number a rule and one a host rule: its record (1-based), 0 for none.
 * Records the compiler or the launcher made; not those an older profile's
 * comments named (col 0), which stay comments.  */
static void emit_origins(emitter *e, const sb_profile *p)
{
	size_t nuse = p->nrules + p->egress.n;
	const sb_origin **recs = xcalloc(nuse ? nuse : 1, sizeof *recs);
	size_t *idx = xcalloc(nuse ? nuse : 1, sizeof *idx), nrecs = 0;
	sb_strmap *seen = sb_strmap_new();
	const sb_origin *last = NULL;
	for (size_t i = 0; i < nuse; i++) {
		const sb_origin *o = i < p->nrules ? p->rules[i]->origin
						   : p->egress.v[i - p->nrules].origin;
		/* col 0 at a line: named by an origin comment or text, from a
		 * profile without the table; no comment becomes data */
		if (!o || (o->line > 0 && !o->col))
			continue;
		if (o == last) {   /* a statement's rules mostly come together */
			idx[i] = idx[i - 1];
			continue;
		}
		void **slot = sb_strmap_slot(seen, &o, sizeof o, true);
		if (!*slot) {
			recs[nrecs++] = o;
			*slot = (void *)(uintptr_t)nrecs;
		}
		idx[i] = (size_t)(uintptr_t)*slot;
		last = o;
	}
	sb_strmap_free(seen);
	if (nrecs) {
		emit_comment(e, "where each rule comes from, for sbrun --trace and sbc explain "
				"(docs/trace.md); data, never decided on");
		out_s(e, "(define " SB_SBPL_ORIGINS_DEFINE " (list\n");
		for (size_t i = 0; i < nrecs; i++) {
			const sb_origin *o = recs[i];
			out_s(e, "    (list");
			data_pieces(e, o->file, strlen(o->file));
			out_f(e, " %d %d", o->line, o->col);
			if (o->text)
				data_pieces(e, o->text, o->len);
			out_s(e, ")\n");
		}
		out_s(e, "))\n(define " SB_SBPL_RULE_ORIGINS_DEFINE " (list");
		data_numbers(e, idx, p->nrules);
		out_s(e, "))\n");
		if (p->egress.n) {
			out_s(e, "(define " SB_SBPL_EGRESS_ORIGINS_DEFINE " (list");
			data_numbers(e, idx + p->nrules, p->egress.n);
			out_s(e, "))\n");
		}
	}
	free(recs);
	free(idx);
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

char *sb_emit_sbpl(const sb_profile *p, size_t *len, sb_diag *d)
{
	emitter e = {.d = d};
	if (p->launch_params.n)
		out_s(&e, ";; " SB_SBPL_LAUNCH_PARAMS_TITLE "\n");
	for (size_t i = 0; i < p->launch_params.n; i++) {
		const sb_binding *b = &p->launch_params.v[i];
		out_f(&e, ";;   -D %s=", b->name);
		emit_comment_text(&e, b->nvalues ? b->values[0] : "");
		out_c(&e, '\n');
	}
	if (p->source_policy) {
		out_s(&e, "; " SB_SBPL_SOURCE_PREFIX);
		emit_comment_text(&e, p->source_policy);
		out_s(&e, SB_SBPL_SOURCE_SUFFIX "\n");
	}
	for (size_t i = 0; i < p->nheader; i++)
		emit_comment(&e, p->header[i]);
	out_f(&e, "(version %d)\n", p->version ? p->version : 1);
	emit_header_data(&e, p);
	for (size_t i = 0; i < p->nimports; i++) {
		out_s(&e, "(import ");
		emit_quoted(&e, p->imports[i], NULL);
		out_s(&e, ")\n");
	}
	for (size_t i = 0; i < p->nunmodelled; i++) {
		if (sb_path_bad_char(p->unmodelled[i].text) >= 0)
			refuse(&e, &p->unmodelled[i].loc, "a form");
		else
			out_f(&e, "%s\n", p->unmodelled[i].text);
	}
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

int sb_write_atomic(const char *path, const char *data, size_t len)
{
	if (!strcmp(path, "-")) {
		if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
			return -1;
		return 0;
	}
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or FIFO (-o /dev/null, /dev/stdout): write through it.
		 * Renaming a temporary file over it would replace the device node
		 * (as root, /dev/null itself).  A directory fails in open().  */
		int dfd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (dfd < 0)
			return -1;
		size_t off = 0;
		while (off < len) {
			ssize_t w = write(dfd, data + off, len - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				int saved = errno;
				close(dfd);
				errno = saved;
				return -1;
			}
			off += (size_t)w;
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
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		done += (size_t)w;
	}
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
