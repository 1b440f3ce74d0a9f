/* emit_sbpl.c - the one SBPL writer: profile IR -> SBPL text for sbc and
 * sbrun --print-profile (sb_emit_sbpl), and the one-line renderings of
 * rules, filters and strings that sbc explain and sbc diff show (format of
 * both in emit_sbpl.h).  */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <stdio_ext.h>
#endif
#include <sys/stat.h>
#include <unistd.h>
#include "compiler/sbpl/emit_sbpl.h"
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

/* PROFILE: text a sandbox will run, so a value that cannot be written
 * faithfully is refused.  LINE: a rendering for a person, on one line;
 * control characters are escaped and nothing is refused.  */
typedef enum { W_PROFILE, W_LINE } wmode;

typedef struct {
	FILE *out;
	sb_diag *d;
	bool failed;
	wmode mode;
} emitter;

static void refuse(emitter *e, const sb_loc *loc, const char *what)
{
	if (!e->failed && e->d)
		sb_diag_report(e->d, SB_SEV_ERROR, loc, "emit",
			       "%s contains a control character and cannot go into a profile", what);
	e->failed = true;
}

/* A string literal with every control byte escaped for reading back
 * (backslash-n, backslash-x01): nothing can end the line.  */
static void line_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '\\' || ch == '"')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch == '\r')
			fputs("\\r", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void emit_quoted(emitter *e, const char *s, const sb_loc *loc)
{
	if (e->mode == W_LINE) {
		line_quoted(e->out, s);
		return;
	}
	char *esc = sb_sbpl_escape(s);
	if (!esc) {
		refuse(e, loc, "a string");
		return;
	}
	fputc('"', e->out);
	fputs(esc, e->out);
	fputc('"', e->out);
	free(esc);
}

/* regex: the string is a regex argument in a LINE rendering, written as
 * #"..." where that reads back the same.  */
static void emit_str(emitter *e, const sb_str *s, const sb_loc *loc, bool regex)
{
	switch (s->kind) {
	case SB_STR_LIT:
		if (regex && !strchr(s->text, '"') && !strpbrk(s->text, "\n\r"))
			fprintf(e->out, "#\"%s\"", s->text);
		else
			emit_quoted(e, s->text, loc);
		break;
	case SB_STR_PARAM: {
		char *spelling = sb_param_spelling(&s->param);
		fputs("(param ", e->out);
		emit_quoted(e, spelling, loc);
		fputc(')', e->out);
		free(spelling);
		break;
	}
	case SB_STR_APPEND:
		fputs("(string-append", e->out);
		for (size_t i = 0; i < s->nparts; i++) {
			fputc(' ', e->out);
			emit_str(e, s->parts[i], loc, regex);
		}
		fputc(')', e->out);
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
		fputc('(', e->out);
		fputs(path_kinds[f->kind], e->out);
		fputc(' ', e->out);
		emit_str(e, f->arg, &f->loc, false);
		fputc(')', e->out);
		break;
	case SB_F_REGEX: {
		if (e->mode == W_LINE) {
			fputs("(regex ", e->out);
			emit_str(e, f->arg, &f->loc, true);
			fputc(')', e->out);
			break;
		}
		/* #"..." has no escape for '"'; refuse rather than guess */
		char *v = f->arg ? sb_str_value(f->arg) : NULL;
		if (!v || strchr(v, '"') || sb_path_bad_char(v) >= 0) {
			refuse(e, &f->loc, "a regex");
		} else {
			fputs("(regex #\"", e->out);
			fputs(v, e->out);
			fputs("\")", e->out);
		}
		free(v);
		break;
	}
	case SB_F_VNODE_TYPE:
		fputs("(vnode-type", e->out);
		for (unsigned b = 0; b < SB_VNODE__COUNT; b++)
			if (f->vnode_mask & (1u << b))
			{
				fputc(' ', e->out);
				fputs(sb_vnode_name(b), e->out);
			}
		fputc(')', e->out);
		break;
	case SB_F_REQUIRE_ALL:
	case SB_F_REQUIRE_ANY:
	case SB_F_REQUIRE_NOT:
		fputc('(', e->out);
		fputs(logic_kinds[f->kind], e->out);
		for (size_t i = 0; i < f->nkids; i++) {
			fputc(' ', e->out);
			emit_filter(e, f->kids[i]);
		}
		fputc(')', e->out);
		break;
	case SB_F_OPAQUE:
		if (e->mode == W_LINE)
			fputs(f->opaque ? f->opaque : "(?)", e->out);
		else if (!f->opaque || sb_path_bad_char(f->opaque) >= 0)
			refuse(e, &f->loc, "a filter");
		else
			fputs(f->opaque, e->out);
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
		fwrite(s, 1, n, e->out);
		s += n;
		if (*s) {
			fputc('?', e->out);
			s++;
		}
	}
}

static void emit_comment(emitter *e, const char *text)
{
	fputs("; ", e->out);
	emit_comment_text(e, text);
	fputc('\n', e->out);
}

static const char *op_spelling(const sb_rule *r, size_t i)
{
	return r->ops[i] == SB_OP_OTHER && r->op_names && r->op_names[i] ? r->op_names[i]
									  : sb_op_name(r->ops[i]);
}

/* LINE: "(allow OP... FILTER... MODIFIER...)" without origin comments.  */
static void emit_rule_line(emitter *e, const sb_rule *r)
{
	fputs(r->action == SB_ALLOW ? "(allow" : "(deny", e->out);
	for (size_t i = 0; i < r->nops; i++)
		fprintf(e->out, " %s", op_spelling(r, i));
	for (size_t i = 0; i < r->nfilters; i++) {
		fputc(' ', e->out);
		emit_filter(e, r->filters[i]);
	}
	for (size_t i = 0; i < r->nmodifiers; i++)
		fprintf(e->out, " %s", r->modifiers[i]);
	fputc(')', e->out);
}

static void emit_rule(emitter *e, const sb_rule *r)
{
	if (r->src_file) {
		/* "; FILE:LINE", as emit_comment would write it (once per rule of
		 * large policies: no formatting) */
		char num[24], *q = num + sizeof num;
		long sl = r->src_line;
		unsigned long line = sl < 0 ? (unsigned long)-sl : (unsigned long)sl;
		do
			*--q = (char)('0' + line % 10);
		while (line /= 10);
		fputs("; ", e->out);
		emit_comment_text(e, r->src_file);
		fputc(':', e->out);
		if (sl < 0)
			fputc('-', e->out);
		fwrite(q, 1, (size_t)(num + sizeof num - q), e->out);
		fputc('\n', e->out);
	}
	if (r->note)
		emit_comment(e, r->note);
	fputs(r->action == SB_ALLOW ? "(allow" : "(deny", e->out);
	for (size_t i = 0; i < r->nops; i++) {
		const char *name = op_spelling(r, i);
		if (!name || sb_path_bad_char(name) >= 0 || strpbrk(name, " ()\";")) {
			refuse(e, &r->loc, "an operation name");
			return;
		}
		fputc(' ', e->out);
		fputs(name, e->out);
	}
	for (size_t i = 0; i < r->nmodifiers; i++) {
		if (sb_path_bad_char(r->modifiers[i]) >= 0) {
			refuse(e, &r->loc, "a modifier");
			return;
		}
		fputc(' ', e->out);
		fputs(r->modifiers[i], e->out);
	}
	if (r->nfilters == 1) {
		fputc(' ', e->out);
		emit_filter(e, r->filters[0]);
		fputs(")\n", e->out);
	} else if (r->nfilters > 1) {
		for (size_t i = 0; i < r->nfilters; i++) {
			fputs("\n    ", e->out);
			emit_filter(e, r->filters[i]);
		}
		fputs("\n)\n", e->out);
	} else {
		fputs(")\n", e->out);
	}
}

/* The egress list as data: a definition Seatbelt evaluates and never uses,
 * which the SBPL reader turns back into the list (sbpl_read.c).  One entry
 * a line: ("network" "on"|"off" ORIGIN) or ("allow"|"deny" PATTERN ORIGIN).  */
static void emit_egress(emitter *e, const sb_egress *eg)
{
	emit_comment(e, "egress by host name, decided by the launcher's proxy (docs/egress.md)");
	fputs("(define " SB_EGRESS_DEFINE " (list\n", e->out);
	for (size_t i = 0; i < eg->n; i++) {
		const sb_egress_rule *r = &eg->v[i];
		fputs("    (list ", e->out);
		if (r->all) {
			fprintf(e->out, "\"network\" \"%s\"", r->allow ? "on" : "off");
		} else {
			char *t = sb_host_pat_text(&r->pat);
			fputs(r->allow ? "\"allow\" " : "\"deny\" ", e->out);
			emit_quoted(e, t, NULL);
			free(t);
		}
		fputc(' ', e->out);
		emit_quoted(e, r->origin ? r->origin : "", NULL);
		fputs(")\n", e->out);
	}
	fputs("))\n", e->out);
}

char *sb_emit_sbpl(const sb_profile *p, size_t *len, sb_diag *d)
{
	char *buf = NULL;
	size_t size = 0;
	emitter e = {.out = xopen_memstream(&buf, &size), .d = d};
#ifdef __GLIBC__
	/* the stream is private to this call: no locking per character */
	__fsetlocking(e.out, FSETLOCKING_BYCALLER);
#endif
	if (p->launch_params.n)
		fputs(";; " SB_SBPL_LAUNCH_PARAMS_TITLE "\n", e.out);
	for (size_t i = 0; i < p->launch_params.n; i++) {
		const sb_binding *b = &p->launch_params.v[i];
		fprintf(e.out, ";;   -D %s=", b->name);
		emit_comment_text(&e, b->nvalues ? b->values[0] : "");
		fputc('\n', e.out);
	}
	if (p->source_policy) {
		fputs("; " SB_SBPL_SOURCE_PREFIX, e.out);
		emit_comment_text(&e, p->source_policy);
		fputs(SB_SBPL_SOURCE_SUFFIX "\n", e.out);
	}
	for (size_t i = 0; i < p->nheader; i++)
		emit_comment(&e, p->header[i]);
	fprintf(e.out, "(version %d)\n", p->version ? p->version : 1);
	for (size_t i = 0; i < p->nimports; i++) {
		fputs("(import ", e.out);
		emit_quoted(&e, p->imports[i], NULL);
		fputs(")\n", e.out);
	}
	for (size_t i = 0; i < p->nunmodelled; i++) {
		if (sb_path_bad_char(p->unmodelled[i].text) >= 0)
			refuse(&e, &p->unmodelled[i].loc, "a form");
		else
			fprintf(e.out, "%s\n", p->unmodelled[i].text);
	}
	for (size_t i = 0; i < p->nrules && !e.failed; i++)
		emit_rule(&e, p->rules[i]);
	if (p->egress.n && !e.failed)
		emit_egress(&e, &p->egress);
	fclose(e.out);
	if (e.failed) {
		free(buf);
		return NULL;
	}
	if (len)
		*len = size;
	return buf;
}

/* ---- one-line renderings (LINE mode) ---- */

typedef enum { R_STR, R_FILTER, R_RULE } rendering;

static char *render_line(rendering what, const void *x)
{
	char *out = NULL;
	size_t len = 0;
	emitter e = {.out = xopen_memstream(&out, &len), .mode = W_LINE};
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
	fclose(e.out);
	return out;
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
