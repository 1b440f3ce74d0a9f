/* parse.c - the parse driver: reads policy files, runs the generated
 * scanner and parser (grammar/policy.[ly]), splices includes in place and
 * builds the sbx_policy.  Grammar actions land in the sbx_ctx_* functions.  */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compiler/front/ast.h"
#include "compiler/front/parse_ctx.h"
#include "compiler/common/file.h"
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"
#include "policy_parser.h"
#include "policy_lexer.h"

enum {
	SBX_MAX_INCLUDE_DEPTH = 16,
	/* room for generated policies of 100k+ rules; refuse anything huge */
	SBX_MAX_FILE_BYTES = 64 << 20,
};

/* State shared by the top file and all its includes.  */
struct sbx_shared {
	sbx_policy *pol;
	size_t cap;
	char **lists;                /* declared list names (EXTRA_* predeclared) */
	size_t nlists, listcap;
	/* identities of the files being parsed, outermost first (cycle check) */
	struct { dev_t dev; ino_t ino; } stack[SBX_MAX_INCLUDE_DEPTH + 2];
	int nstack;
};

void sbx_ctx_error(sbx_pctx *c, const sb_loc *loc, const char *code, const char *fmt, ...)
{
	c->nerrors++;
	if (c->gave_up)
		return;   /* counted, not printed: the rest is noise */
	va_list ap;
	va_start(ap, fmt);
	sb_diag_vreport(c->d, SB_SEV_ERROR, loc, code, fmt, ap);
	va_end(ap);
	if (c->nerrors >= SBX_MAX_ERRORS_PER_FILE) {
		sb_diag_report(c->d, SB_SEV_ERROR, loc, code,
			       "too many errors in '%s'; giving up on the rest of it", c->file);
		c->gave_up = true;
	}
}

void sbx_ctx_lex_error(sbx_pctx *c, const sb_loc *loc, const char *fmt, ...)
{
	if (c->lex_error)
		return;
	c->lex_error = true;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	sbx_ctx_error(c, loc, "syntax", "%s", buf);
}

/* ---- targets ---- */

void sbx_target_clear(sbx_target *t)
{
	if (!t)
		return;
	free(t->name);
	free(t->rel);
	t->name = t->rel = NULL;
}

void sbx_target_free(sbx_target *t)
{
	sbx_target_clear(t);
	free(t);
}

sbx_tvec *sbx_tvec_add(sbx_tvec *v, sbx_target *t)
{
	if (!v)
		v = xcalloc(1, sizeof *v);
	SB_GROW(v->v, v->n, v->cap, 1);   /* most statements name one target: 10^5 of them are kept */
	v->v[v->n++] = *t;
	free(t);
	return v;
}

void sbx_tvec_free(sbx_tvec *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++)
		sbx_target_clear(&v->v[i]);
	free(v->v);
	free(v);
}

sbx_ack *sbx_ack_new(unsigned kinds, char *reason, sb_loc loc)
{
	sbx_ack *a = xmalloc(sizeof *a);
	a->kinds = kinds;
	a->reason = reason;
	a->loc = loc;
	return a;
}

void sbx_ack_free(sbx_ack *a)
{
	if (!a)
		return;
	free(a->reason);
	free(a);
}

static bool list_declared(const struct sbx_shared *sh, const char *name)
{
	for (size_t i = 0; i < sh->nlists; i++)
		if (!strcmp(sh->lists[i], name))
			return true;
	return false;
}

/* Normalise a relative suffix ("a//b/./c/" -> "a/b/c").  NULL on "..".  */
static char *normal_rel(sbx_pctx *c, const char *rel, const char *whole, const sb_loc *loc)
{
	size_t rn = strlen(rel);
	char *abs = xmalloc(rn + 2);   /* "/" rel: one per path, not formatted */
	abs[0] = '/';
	memcpy(abs + 1, rel, rn + 1);
	const char *why = NULL;
	char *n = sb_path_normalize(abs, &why);
	free(abs);
	if (!n) {
		sbx_ctx_error(c, loc, "path", "invalid path '%s': %s", whole,
			      why ? why : "not a normal path");
		return NULL;
	}
	memmove(n, n + 1, strlen(n));   /* drop the leading '/'; "/" -> "" */
	return n;
}

static const struct {
	const char *word;
	sbx_base base;
} sbx_roots[] = {
	{"home", SBX_BASE_HOME},
	{"workspace", SBX_BASE_WORKSPACE},
	{"tmpdir", SBX_BASE_TMPDIR},
	{"HOME", SBX_BASE_HOME},
	{"WORKSPACE", SBX_BASE_WORKSPACE},
	{"TMPDIR", SBX_BASE_TMPDIR},
};

/* Split "word/rest" at the first '/'; *rest points after it or at "".  */
static char *split_head(const char *text, const char **rest)
{
	const char *slash = strchr(text, '/');
	size_t n = slash ? (size_t)(slash - text) : strlen(text);
	char *head = xmalloc(n + 1);
	memcpy(head, text, n);
	head[n] = '\0';
	*rest = slash ? slash + 1 : "";
	return head;
}

static bool root_base(const char *word, bool dollar, sbx_base *base)
{
	for (size_t i = 0; i < sizeof sbx_roots / sizeof sbx_roots[0]; i++)
		if (!strcmp(word, sbx_roots[i].word) && (dollar == (word[0] >= 'A' && word[0] <= 'Z'))) {
			*base = sbx_roots[i].base;
			return true;
		}
	return false;
}

sbx_target *sbx_ctx_target(sbx_pctx *c, sbx_path_token kind, char *text, sb_loc loc)
{
	sbx_target *t = xmalloc(sizeof *t);
	memset(t, 0, sizeof *t);
	t->loc = loc;
	t->base = SBX_BASE_ABS;
	int bad = sb_path_bad_char(text);
	if (bad >= 0) {
		sbx_ctx_error(c, &loc, "path", "control character 0x%02x in path",
			      (unsigned char)text[bad]);
		t->rel = xstrdup("/");
		free(text);
		return t;
	}
	if (kind == SBX_PT_QUOTED) {
		if (text[0] == '/')
			kind = SBX_PT_ABS;
		else if (text[0] == '~')
			kind = SBX_PT_TILDE;
		else {
			sbx_ctx_error(c, &loc, "path",
				      "quoted path '%s' must be absolute or start with '~/'", text);
			t->rel = xstrdup("/");
			free(text);
			return t;
		}
	}
	const char *rest = "";
	char *head = NULL;
	switch (kind) {
	case SBX_PT_ABS: {
		const char *why = NULL;
		char *n = sb_path_normalize(text, &why);
		if (!n) {
			sbx_ctx_error(c, &loc, "path", "invalid path '%s': %s", text,
				      why ? why : "not a normal path");
			n = xstrdup("/");
		}
		t->rel = n;
		break;
	}
	case SBX_PT_TILDE:
		t->base = SBX_BASE_HOME;
		if (text[1] != '\0' && text[1] != '/') {
			sbx_ctx_error(c, &loc, "path",
				      "'%s': ~user paths are not supported; write '~/...' for your own home or the absolute path",
				      text);
			t->rel = xstrdup("");
			break;
		}
		rest = text[1] ? text + 2 : "";
		t->rel = normal_rel(c, rest, text, &loc);
		break;
	case SBX_PT_ROOT:
		head = split_head(text, &rest);
		if (!root_base(head, false, &t->base))
			abort();   /* the lexer only returns the three root words */
		t->rel = normal_rel(c, rest, text, &loc);
		break;
	case SBX_PT_VAR:
		head = split_head(text, &rest);
		if (!root_base(head, true, &t->base)) {
			t->base = list_declared(c->sh, head) ? SBX_BASE_LIST : SBX_BASE_PARAM;
			t->name = xstrdup(head);
			if (t->base == SBX_BASE_LIST && rest[0]) {
				sbx_ctx_error(c, &loc, "path",
					      "list $%s cannot take a suffix ('/%s'): a list is a set of paths",
					      head, rest);
				rest = "";
			}
		}
		t->rel = normal_rel(c, rest, text, &loc);
		break;
	case SBX_PT_QUOTED:
		abort();
	}
	if (!t->rel)
		t->rel = xstrdup("");
	free(head);
	free(text);
	return t;
}

/* ---- statements ---- */

void sbx_ctx_span(sbx_pctx *c, sb_loc span)
{
	c->span = span;
}

/* The byte offset of (line, col) in c->src (columns count bytes from 1,
 * lines end at '\n', as the scanner counts them); SIZE_MAX past the end.  */
static size_t offset_of(sbx_pctx *c, int line, int col)
{
	if (line < c->at_line) {   /* never in source order; recount */
		c->at_line = 1;
		c->at_off = 0;
	}
	while (c->at_line < line) {
		const char *nl = memchr(c->src + c->at_off, '\n', c->src_len - c->at_off);
		if (!nl)
			return SIZE_MAX;
		c->at_off = (size_t)(nl - c->src) + 1;
		c->at_line++;
	}
	size_t off = c->at_off + (size_t)(col > 0 ? col - 1 : 0);
	return off <= c->src_len ? off : SIZE_MAX;
}

/* The statement's origin record (compiler/ir/origin.h): where the span the
 * grammar gave starts, and its text, pointing into the diag's copy of the
 * file (no copy a statement).  */
static const sb_origin *stmt_origin(sbx_pctx *c)
{
	const sb_loc *sp = &c->span;
	const char *text = NULL;
	size_t len = 0;
	if (c->src && sp->line > 0) {
		size_t a = offset_of(c, sp->line, sp->col);
		size_t b = a == SIZE_MAX ? SIZE_MAX : offset_of(c, sp->end_line, sp->end_col);
		if (b != SIZE_MAX && b > a) {
			text = c->src + a;
			len = b - a;
		}
	}
	return sb_origin_new(c->d, c->origin, sp->line, sp->col, text, len);
}

static sbx_stmt *new_stmt(sbx_pctx *c, sbx_stmt_kind kind, sb_loc loc)
{
	struct sbx_shared *sh = c->sh;
	sbx_policy *p = sh->pol;
	if (p->nstmts == sh->cap) {
		SB_GROW(p->stmts, p->nstmts, sh->cap, 16);
		sb_hint_huge(p->stmts, sh->cap * sizeof *p->stmts);   /* 13 MB for 10^5 statements */
	}
	sbx_stmt *s = &p->stmts[p->nstmts++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->loc = loc;
	s->origin = stmt_origin(c);
	s->include_depth = c->depth;
	return s;
}

/* Inside a preset only path rules may appear: a preset grants (or denies)
 * paths when the launcher selects it; it cannot change the default, the
 * network, declare lists or grant everywhere.  */
static bool refused_in_preset(sbx_pctx *c, const sb_loc *loc, const char *what)
{
	if (!c->preset)
		return false;
	sbx_ctx_error(c, loc, "preset", "%s cannot appear in preset \"%s\": a preset only "
		      "grants or denies named paths; move it out of the preset's file", what,
		      c->preset);
	sb_diag_note(c->d, &c->preset_loc, "the preset starts here");
	return true;
}

static bool preset_name_ok(const char *n)
{
	if (!(n[0] >= 'a' && n[0] <= 'z') || strlen(n) > 32)
		return false;
	for (const char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return false;
	return true;
}

void sbx_ctx_preset(sbx_pctx *c, char *name, sb_loc loc)
{
	if (c->preset) {
		sbx_ctx_error(c, &loc, "preset", "a second preset (\"%s\") inside preset \"%s\"; "
			      "presets do not nest: one preset per file, included from the policy",
			      name, c->preset);
		sb_diag_note(c->d, &c->preset_loc, "the preset \"%s\" starts here", c->preset);
	} else if (!preset_name_ok(name)) {
		sbx_ctx_error(c, &loc, "preset", "bad preset name \"%s\": use a-z, 0-9 and '-', "
			      "starting with a letter, at most 32 bytes (the launcher's "
			      "OMP_SANDBOX_TOOLS names it)", name);
	} else {
		c->preset = sb_diag_intern(c->d, name);
		c->preset_loc = loc;
	}
	free(name);
}

void sbx_ctx_default(sbx_pctx *c, sb_action action, sb_loc loc)
{
	if (refused_in_preset(c, &loc, "'default'"))
		return;
	new_stmt(c, SBX_STMT_DEFAULT, loc)->action = action;
}

void sbx_ctx_network(sbx_pctx *c, bool on, sb_loc loc)
{
	if (refused_in_preset(c, &loc, "'network'"))
		return;
	new_stmt(c, SBX_STMT_NETWORK, loc)->action = on ? SB_ALLOW : SB_DENY;
}

sbx_hvec *sbx_hvec_add(sbx_hvec *v, char *text, sb_loc loc)
{
	if (!v)
		v = xcalloc(1, sizeof *v);
	SB_GROW(v->v, v->n, v->cap, 4);
	SB_GROW(v->locs, v->n, v->lcap, 4);
	v->v[v->n] = text;
	v->locs[v->n++] = loc;
	return v;
}

void sbx_hvec_free(sbx_hvec *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i]);
	free(v->v);
	free(v->locs);
	free(v);
}

/* `network allow|deny "HOST"...;`: every pattern is checked here, each error
 * located at its string (column of the offending byte, after the quote).  */
void sbx_ctx_hosts(sbx_pctx *c, sb_action action, sbx_hvec *hosts, sb_loc loc)
{
	sb_host_pat *pats = xcalloc(hosts->n, sizeof *pats);
	bool bad = false;
	for (size_t i = 0; i < hosts->n; i++) {
		const char *why = NULL;
		size_t at = 0;
		if (sb_host_pat_parse(hosts->v[i], &pats[i], &why, &at) == 0)
			continue;
		sb_loc l = hosts->locs[i];
		if (l.line == l.end_line)
			l.col += 1 + (int)at;
		sbx_ctx_error(c, &l, "host", "invalid host pattern \"%s\": %s", hosts->v[i], why);
		bad = true;
	}
	if (bad) {
		for (size_t i = 0; i < hosts->n; i++)
			sb_host_pat_clear(&pats[i]);
		free(pats);
		sbx_hvec_free(hosts);
		return;
	}
	sbx_stmt *s = new_stmt(c, SBX_STMT_HOSTS, loc);
	s->action = action;
	s->hosts = pats;
	s->nhosts = hosts->n;
	s->host_locs = hosts->locs;
	hosts->locs = NULL;
	sbx_hvec_free(hosts);
}

void sbx_ctx_list(sbx_pctx *c, char *name, sb_loc loc)
{
	struct sbx_shared *sh = c->sh;
	sbx_base base;
	if (refused_in_preset(c, &loc, "'list'")) {
		free(name);
		return;
	}
	if (strchr(name, '/')) {
		sbx_ctx_error(c, &loc, "syntax", "a list name is a plain $NAME, not a path");
		free(name);
		return;
	}
	if (root_base(name, true, &base)) {
		sbx_ctx_error(c, &loc, "syntax", "$%s is a root, not a list", name);
		free(name);
		return;
	}
	if (!list_declared(sh, name)) {
		SB_GROW(sh->lists, sh->nlists, sh->listcap, 8);
		sh->lists[sh->nlists++] = xstrdup(name);
	}
	new_stmt(c, SBX_STMT_LIST, loc)->name = name;
}

void sbx_ctx_rule(sbx_pctx *c, sb_action action, unsigned access, sbx_tvec *targets,
		  sbx_ack *ack, sb_loc loc)
{
	sbx_stmt *s = new_stmt(c, SBX_STMT_RULE, loc);
	s->action = action;
	s->access = access;
	s->preset = c->preset;
	if (!targets)
		refused_in_preset(c, &loc, "a rule without targets (everywhere)");
	for (size_t i = 0; targets && i < targets->n; i++)
		if (targets->v[i].base == SBX_BASE_LIST)
			refused_in_preset(c, &targets->v[i].loc, "a list target");
	if (targets) {
		s->targets = targets->v;
		s->ntargets = targets->n;
		free(targets);
	}
	if (ack) {
		s->acks = ack->kinds;
		s->ack_reason = ack->reason;
		if (!ack->reason[0])
			sbx_ctx_error(c, &ack->loc, "syntax",
				      "the reason given with 'acknowledge' must not be empty");
		free(ack);
	}
}

/* ---- files ---- */

static char *read_file(sbx_pctx *c, const char *path, const sb_loc *at, size_t *len)
{
	/* sb_file_read opens with O_NONBLOCK (a FIFO never waits for a
	 * writer) and refuses anything but a regular file before a byte */
	char *buf = sb_file_read(path, SBX_MAX_FILE_BYTES, len);
	if (buf)
		return buf;
	if (errno == EINVAL)
		sbx_ctx_error(c, at, "io", "'%s' is not a regular file", path);
	else if (errno == EFBIG)
		sbx_ctx_error(c, at, "io", "'%s' is larger than %d bytes", path, SBX_MAX_FILE_BYTES);
	else
		sbx_ctx_error(c, at, "io", "cannot open '%s': %s", path, strerror(errno));
	return NULL;
}

/* Run scanner + parser over one text.  */
static void parse_text(sbx_pctx *c, const char *text, size_t len)
{
	yyscan_t scanner;
	if (sbx_yylex_init_extra(c, &scanner))
		sb_out_of_memory();   /* its only failure is ENOMEM */
	YY_BUFFER_STATE buf = sbx_yy_scan_bytes(text, (int)len, scanner);
	c->line = 1;
	c->col = 1;
	if (sbx_yyparse(scanner, c) != 0 && c->nerrors == 0)
		sbx_ctx_error(c, NULL, "syntax", "%s: the parser gave up (input too complex)", c->file);
	sbx_yy_delete_buffer(buf, scanner);
	sbx_yylex_destroy(scanner);
}

/* Directory part of a file name as written ("a/b.sbx" -> "a", "b.sbx" -> "").  */
static char *dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	if (!slash)
		return xstrdup("");
	if (slash == file)
		return xstrdup("/");
	size_t n = (size_t)(slash - file);
	char *d = xmalloc(n + 1);
	memcpy(d, file, n);
	d[n] = '\0';
	return d;
}

static char *join_name(const char *dir, const char *name)
{
	char *out;
	if (name[0] == '/' || !dir[0])
		return xstrdup(name);
	out = xasprintf("%s%s%s", dir, strcmp(dir, "/") ? "/" : "", name);
	return out;
}

/* Drop "./" components and collapse "//" in a relative or absolute name, so
 * comment names read cleanly ("./a.sbx" -> "a.sbx").  ".." is kept.  */
static char *tidy_name(const char *name)
{
	char *out = xmalloc(strlen(name) + 1);
	size_t k = 0;
	const char *s = name;
	if (*s == '/')
		out[k++] = '/';
	while (*s) {
		while (*s == '/')
			s++;
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n && !(n == 1 && s[0] == '.')) {
			if (k && out[k - 1] != '/')
				out[k++] = '/';
			memcpy(out + k, s, n);
			k += n;
		}
		s += n;
	}
	out[k] = '\0';
	return out;
}

static int parse_file(struct sbx_shared *sh, sb_diag *d, const char *file, const char *origin,
		      int depth, const char *text, size_t len, const sb_loc *at,
		      const sbx_pctx *parent);

void sbx_ctx_include(sbx_pctx *c, char *name, sb_loc loc)
{
	if (!name[0]) {
		sbx_ctx_error(c, &loc, "include", "empty include file name");
		free(name);
		return;
	}
	if (sb_path_bad_char(name) >= 0) {
		sbx_ctx_error(c, &loc, "include", "control character in include file name");
		free(name);
		return;
	}
	if (c->depth + 1 > SBX_MAX_INCLUDE_DEPTH) {
		sbx_ctx_error(c, &loc, "include", "includes nested deeper than %d levels",
			      SBX_MAX_INCLUDE_DEPTH);
		free(name);
		return;
	}
	char *dir = dir_of(c->file), *odir = dir_of(c->origin);
	char *raw = join_name(dir, name), *oraw = join_name(odir, name);
	char *file = tidy_name(raw), *origin = tidy_name(oraw);
	c->nerrors += parse_file(c->sh, c->d, file, origin, c->depth + 1, NULL, 0, &loc, c);
	free(dir);
	free(odir);
	free(raw);
	free(oraw);
	free(file);
	free(origin);
	free(name);
}

/* Parse one file (text given or read from disk); returns its error count
 * including those of its includes.  */
static int parse_file(struct sbx_shared *sh, sb_diag *d, const char *file, const char *origin,
		      int depth, const char *text, size_t len, const sb_loc *at,
		      const sbx_pctx *parent)
{
	sbx_pctx c = {
		.d = d,
		.sh = sh,
		.file = sb_diag_intern(d, file),
		.origin = sb_diag_intern(d, origin),
		.depth = depth,
		/* a file included from inside a preset belongs to that preset */
		.preset = parent ? parent->preset : NULL,
		.preset_loc = parent ? parent->preset_loc : (sb_loc){ 0 },
	};
	char *owned = NULL;
	bool pushed = false;
	if (!text) {
		struct stat st;
		if (stat(file, &st) == 0) {
			for (int i = 0; i < sh->nstack; i++)
				if (sh->stack[i].dev == st.st_dev && sh->stack[i].ino == st.st_ino) {
					sbx_ctx_error(&c, at, "include",
						      "include cycle: '%s' is already being read", file);
					return c.nerrors;
				}
			sh->stack[sh->nstack].dev = st.st_dev;
			sh->stack[sh->nstack].ino = st.st_ino;
			sh->nstack++;
			pushed = true;
		}
		owned = read_file(&c, file, at, &len);
		if (!owned) {
			if (pushed)
				sh->nstack--;
			return c.nerrors;
		}
		text = owned;
	}
	c.src = sb_diag_add_source(d, c.file, text, len);
	c.src_len = len;
	c.at_line = 1;
	parse_text(&c, text, len);
	if (pushed)
		sh->nstack--;
	free(owned);
	return c.nerrors;
}

/* Top file: diagnostics use the name as given; profile comments use its
 * basename, so the bytes do not depend on where sbc runs from.  */
sbx_policy *sbx_parse(const char *file, const char *text, size_t len, sb_diag *d)
{
	sbx_policy *p = xmalloc(sizeof *p);
	memset(p, 0, sizeof *p);
	struct sbx_shared sh = {.pol = p};
	/* the launcher's lists: EXTRA_* from OMP_SANDBOX_EXTRA_*, the others
	 * found at launch (runtime/common/protect.h), never from the environment */
	static const char *const predeclared[] = {"EXTRA_WRITE", "EXTRA_READ", "PROTECT_GIT",
						  "PROTECT_GIT_NODES", "GIT_INCLUDES"};
	size_t npre = sizeof predeclared / sizeof *predeclared;
	for (size_t i = 0; i < npre; i++) {
		SB_GROW(sh.lists, sh.nlists, sh.listcap, 8);
		sh.lists[sh.nlists++] = xstrdup(predeclared[i]);
	}
	char *dir = dir_of(file);
	const char *base = file + strlen(dir);
	while (*base == '/')
		base++;
	if (!*base)
		base = file;
	p->file = sb_diag_intern(d, file);
	int errors = parse_file(&sh, d, file, base, 0, text, len, NULL, NULL);
	free(dir);
	for (size_t i = 0; i < sh.nlists; i++)
		free(sh.lists[i]);
	free(sh.lists);
	if (errors) {
		sbx_policy_free(p);
		return NULL;
	}
	/* the array doubled while parsing; the AST lives through the checks
	 * and the lowering, when a compile's memory peaks: give back the
	 * unused part (a quarter of it on average, 4 MB at 10^5 statements) */
	if (p->nstmts && sh.cap > p->nstmts)
		p->stmts = xrealloc(p->stmts, p->nstmts * sizeof *p->stmts);
	return p;
}
