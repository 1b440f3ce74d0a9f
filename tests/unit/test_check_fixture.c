/* test_check_fixture.c - see test_check_fixture.h.  */
#include "test_check_fixture.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static char *dupn(const char *s, size_t n)
{
	char *r = strndup(s, n);
	cr_assert(r);
	return r;
}

void fx_init(fx *f, const char *file)
{
	fx_init_fmt(f, file, SB_FMT_TEXT);
}

void fx_init_fmt(fx *f, const char *file, sb_diag_format fmt)
{
	memset(f, 0, sizeof *f);
	f->out = open_memstream(&f->buf, &f->len);
	cr_assert(f->out);
	f->d = sb_diag_new(f->out, fmt);
	f->file = sb_diag_intern(f->d, file);
	f->p.file = f->file;
}

void fx_define(fx *f, const char *name, const char *value)
{
	sb_bindings_set(&f->defs, name, value);
}

static bool is_list(const fx *f, const char *name, size_t n)
{
	if ((n == 10 && strncmp(name, "EXTRA_READ", n) == 0) ||
	    (n == 11 && strncmp(name, "EXTRA_WRITE", n) == 0))
		return true;
	for (size_t i = 0; i < f->p.nstmts; i++) {
		const sbx_stmt *s = &f->p.stmts[i];
		if (s->kind == SBX_STMT_LIST && strlen(s->name) == n && strncmp(s->name, name, n) == 0)
			return true;
	}
	return false;
}

/* root[/rel] with the root spelled `word`: returns true and fills t.  */
static bool root_target(const char *tok, size_t n, const char *word, sbx_base base, sbx_target *t)
{
	size_t w = strlen(word);
	if (n < w || strncmp(tok, word, w) != 0 || (n > w && tok[w] != '/'))
		return false;
	t->base = base;
	t->rel = n > w ? dupn(tok + w + 1, n - w - 1) : dupn("", 0);
	return true;
}

static void parse_target(fx *f, const char *tok, size_t n, sbx_target *t)
{
	if (tok[0] == '/') {
		t->base = SBX_BASE_ABS;
		t->rel = dupn(tok, n);
		return;
	}
	if (root_target(tok, n, "~", SBX_BASE_HOME, t) || root_target(tok, n, "home", SBX_BASE_HOME, t) ||
	    root_target(tok, n, "$HOME", SBX_BASE_HOME, t) ||
	    root_target(tok, n, "workspace", SBX_BASE_WORKSPACE, t) ||
	    root_target(tok, n, "$WORKSPACE", SBX_BASE_WORKSPACE, t) ||
	    root_target(tok, n, "tmpdir", SBX_BASE_TMPDIR, t) ||
	    root_target(tok, n, "$TMPDIR", SBX_BASE_TMPDIR, t))
		return;
	cr_assert(tok[0] == '$', "fixture: bad target %.*s", (int)n, tok);
	const char *slash = memchr(tok, '/', n);
	size_t nn = slash ? (size_t)(slash - tok - 1) : n - 1;
	t->name = dupn(tok + 1, nn);
	t->base = is_list(f, tok + 1, nn) ? SBX_BASE_LIST : SBX_BASE_PARAM;
	t->rel = slash ? dupn(slash + 1, n - nn - 2) : dupn("", 0);
}

static bool tok_is(const char *tok, size_t n, const char *word)
{
	return strlen(word) == n && strncmp(tok, word, n) == 0;
}

sbx_stmt *fx_add_in(fx *f, const char *file, int line, const char *text)
{
	f->p.stmts = realloc(f->p.stmts, (f->p.nstmts + 1) * sizeof *f->p.stmts);
	cr_assert(f->p.stmts);
	sbx_stmt *s = &f->p.stmts[f->p.nstmts];
	memset(s, 0, sizeof *s);
	const char *fname = file ? sb_diag_intern(f->d, file) : f->file;
	s->loc = (sb_loc){ .file = fname, .line = line, .col = 1 };
	s->include_depth = file ? 1 : 0;
	s->kind = SBX_STMT_RULE;
	s->action = SB_ALLOW;
	bool exact = false;
	int word = 0;
	for (const char *p = text; *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		const char *tok = p;
		while (*p && *p != ' ')
			p++;
		size_t n = (size_t)(p - tok);
		int col = (int)(tok - text) + 1;
		if (word++ == 0 && tok_is(tok, n, "default")) {
			s->kind = SBX_STMT_DEFAULT;
		} else if (word == 1 && tok_is(tok, n, "network")) {
			s->kind = SBX_STMT_NETWORK;
		} else if (word == 1 && tok_is(tok, n, "list")) {
			s->kind = SBX_STMT_LIST;
		} else if (s->kind == SBX_STMT_LIST) {
			s->name = dupn(tok, n);
		} else if (tok_is(tok, n, "allow") || tok_is(tok, n, "on")) {
			s->action = SB_ALLOW;
		} else if (tok_is(tok, n, "deny") || tok_is(tok, n, "off")) {
			s->action = SB_DENY;
		} else if (tok_is(tok, n, "read")) {
			s->access |= SBX_ACC_READ;
		} else if (tok_is(tok, n, "write")) {
			s->access |= SBX_ACC_WRITE;
		} else if (tok_is(tok, n, "stat-only")) {
			s->access |= SBX_ACC_STAT;
		} else if (tok_is(tok, n, "exec")) {
			s->access |= SBX_ACC_EXEC;
		} else if (tok_is(tok, n, "exactly")) {
			exact = true;
		} else if (tok_is(tok, n, "ack=sensitive")) {
			s->acks |= SBX_ACK_SENSITIVE;
		} else if (tok_is(tok, n, "ack=wide")) {
			s->acks |= SBX_ACK_WIDE;
		} else if (n >= 4 && strncmp(tok, "why=", 4) == 0) {
			s->ack_reason = dupn(tok + 4, n - 4);
			for (char *c = s->ack_reason; *c; c++)
				if (*c == '_')
					*c = ' ';
		} else {
			s->targets = realloc(s->targets, (s->ntargets + 1) * sizeof *s->targets);
			cr_assert(s->targets);
			sbx_target *t = &s->targets[s->ntargets++];
			memset(t, 0, sizeof *t);
			parse_target(f, tok, n, t);
			t->exact = exact;
			t->loc = (sb_loc){ .file = fname, .line = line, .col = exact ? col - 8 : col };
			exact = false;
		}
	}
	f->p.nstmts++;
	return s;
}

sbx_stmt *fx_add(fx *f, int line, const char *text)
{
	return fx_add_in(f, NULL, line, text);
}

int fx_run(fx *f, int (*pass)(const sbx_policy *, const sbx_defines *, sb_diag *))
{
	int r = pass(&f->p, &f->defs, f->d);
	sb_diag_flush(f->d);
	fflush(f->out);
	return r;
}

void fx_clear(fx *f)
{
	for (size_t i = 0; i < f->p.nstmts; i++) {
		sbx_stmt *s = &f->p.stmts[i];
		for (size_t t = 0; t < s->ntargets; t++) {
			free(s->targets[t].name);
			free(s->targets[t].rel);
		}
		free(s->targets);
		free(s->ack_reason);
		free(s->name);
	}
	free(f->p.stmts);
	sb_bindings_clear(&f->defs);
	sb_diag_free(f->d);
	fclose(f->out);
	free(f->buf);
}
