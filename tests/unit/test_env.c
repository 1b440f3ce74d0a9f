/* Unit tests for runtime/common/env.c: the clean allowlist, PASS_ENV, inherit
 * mode and the loader-injection variables (docs/omp-sandboxed.md, Environment; defect D6).  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/diag.h"
#include "runtime/common/env.h"

typedef struct cap {
	char *text;
	size_t len;
	FILE *f;
	sb_diag *d;
} cap;

static void cap_open(cap *c)
{
	memset(c, 0, sizeof *c);
	c->f = open_memstream(&c->text, &c->len);
	c->d = sb_diag_new(c->f, SB_FMT_TEXT);
	sb_diag_set_tool(c->d, "t");
}

static const char *cap_text(cap *c)
{
	fflush(c->f);
	return c->text;
}

static void cap_close(cap *c)
{
	sb_diag_free(c->d);
	fclose(c->f);
	free(c->text);
}

/* The vector joined with '|' for whole-vector comparisons.  */
static char *joined(const sb_envvec *e)
{
	size_t n = 1;
	for (size_t i = 0; i < e->n; i++)
		n += strlen(e->v[i]) + 1;
	char *s = calloc(1, n);
	for (size_t i = 0; i < e->n; i++) {
		if (i)
			strcat(s, "|");
		strcat(s, e->v[i]);
	}
	return s;
}

static char *parent[] = {
	"TERM=xterm", "OPENAI_API_KEY=sk-secret", "PATH=/usr/bin:/bin", "HOME=/elsewhere",
	"LD_PRELOAD=/tmp/evil.so", "NODE_OPTIONS=--require /tmp/x.js", "LANG=C.UTF-8",
	"LC_ALL=", "USER=alice", "SSH_AUTH_SOCK=/tmp/agent", "TMPDIR=/var/x",
	"OMP_SANDBOX=old", "EDITOR=vi", "BASH_FUNC_x%%=() { :; }", NULL,
};

Test(env, flag_exactly_one)
{
	cr_assert(sb_flag_on("1"));
	const char *off[] = { "true", "yes", " 1", "01", "1 ", "", "0", NULL };
	for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
		cr_assert(not(sb_flag_on(off[i])), "'%s' must be off", off[i] ? off[i] : "(null)");
}

Test(env, name_validation)
{
	cr_assert(sb_env_name_valid("A"));
	cr_assert(sb_env_name_valid("_x9"));
	cr_assert(sb_env_name_valid("OPENAI_API_KEY"));
	cr_assert(not(sb_env_name_valid("FOO-BAR")));
	cr_assert(not(sb_env_name_valid("A B")));
	cr_assert(not(sb_env_name_valid("9A")));
	cr_assert(not(sb_env_name_valid("")));
	cr_assert(not(sb_env_name_valid("A=B")));
}

Test(env, loader_variables)
{
	const char *yes[] = { "LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "BASH_ENV",
			      "ENV", "NODE_OPTIONS", "PERL5OPT", "PYTHONSTARTUP", "BASH_FUNC_x%%" };
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		cr_assert(sb_env_is_loader_var(yes[i]), "%s", yes[i]);
	const char *no[] = { "PATH", "HOME", "LANG", "ENVIRONMENT", "OLD_PWD", "TERM" };
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		cr_assert(not(sb_env_is_loader_var(no[i])), "%s", no[i]);
}

Test(env, clean_exact)
{
	cap c;
	cap_open(&c);
	sb_envvec e = { 0 };
	sb_env_in in = { .parent = parent, .home = "/home/a", .tmpdir = "/tmp",
			 .marker = "seatbelt" };
	cr_assert(eq(int, sb_env_build(&in, &e, c.d), 0));
	char *j = joined(&e);
	cr_assert(eq(str, j, "HOME=/home/a|TMPDIR=/tmp|OMP_SANDBOX=seatbelt|PI_SANDBOX=seatbelt|"
			     "PATH=/usr/bin:/bin|USER=alice|LANG=C.UTF-8|TERM=xterm"));
	cr_assert(eq(str, (char *)cap_text(&c), ""));
	free(j);
	sb_envvec_clear(&e);
	cap_close(&c);
}

Test(env, pass_env_in_order_with_warnings)
{
	cap c;
	cap_open(&c);
	sb_envvec e = { 0 };
	sb_env_in in = { .parent = parent, .home = "/h", .tmpdir = "/tmp", .marker = "landlock",
			 .pass_env = "EDITOR::OPENAI_API_KEY:MISSING:HOME:EDITOR:LD_PRELOAD" };
	cr_assert(eq(int, sb_env_build(&in, &e, c.d), 0));
	char *j = joined(&e);
	cr_assert(eq(str, j, "HOME=/h|TMPDIR=/tmp|OMP_SANDBOX=landlock|PI_SANDBOX=landlock|"
			     "PATH=/usr/bin:/bin|USER=alice|LANG=C.UTF-8|TERM=xterm|EDITOR=vi|"
			     "OPENAI_API_KEY=sk-secret|LD_PRELOAD=/tmp/evil.so"));
	const char *t = cap_text(&c);
	cr_assert(not(eq(ptr, strstr(t, "MISSING is not set or empty"), NULL)));
	cr_assert(not(eq(ptr, strstr(t, "HOME is set by the launcher"), NULL)));
	cr_assert(not(eq(ptr, strstr(t, "LD_PRELOAD can make programs"), NULL)));
	free(j);
	sb_envvec_clear(&e);
	cap_close(&c);
}

Test(env, pass_env_invalid_name_refused)
{
	cap c;
	cap_open(&c);
	sb_envvec e = { 0 };
	sb_env_in in = { .parent = parent, .home = "/h", .tmpdir = "/tmp", .marker = "seatbelt",
			 .pass_env = "EDITOR:FOO-BAR" };
	cr_assert(eq(int, sb_env_build(&in, &e, c.d), SB_REFUSED));
	cr_assert(eq(sz, e.n, 0));
	const char *t = cap_text(&c);
	cr_assert(not(eq(ptr, strstr(t, "error: OMP_SANDBOX_PASS_ENV: 'FOO-BAR' is not a valid"), NULL)),
		  "%s", t);
	sb_envvec_clear(&e);
	cap_close(&c);
}

Test(env, inherit_drops_loader_variables)
{
	cap c;
	cap_open(&c);
	sb_envvec e = { 0 };
	sb_env_in in = { .parent = parent, .home = "/h", .tmpdir = "/tmp", .marker = "seatbelt",
			 .inherit = true };
	cr_assert(eq(int, sb_env_build(&in, &e, c.d), 0));
	char *j = joined(&e);
	cr_assert(eq(str, j, "TERM=xterm|OPENAI_API_KEY=sk-secret|PATH=/usr/bin:/bin|HOME=/h|"
			     "LANG=C.UTF-8|LC_ALL=|USER=alice|SSH_AUTH_SOCK=/tmp/agent|TMPDIR=/tmp|"
			     "OMP_SANDBOX=seatbelt|EDITOR=vi|PI_SANDBOX=seatbelt"));
	cr_assert(not(eq(ptr, strstr(cap_text(&c), "insecure"), NULL)));
	free(j);
	sb_envvec_clear(&e);
	cap_close(&c);
}

Test(env, inherit_passes_named_loader_variable)
{
	cap c;
	cap_open(&c);
	sb_envvec e = { 0 };
	sb_env_in in = { .parent = parent, .home = "/h", .tmpdir = "/tmp", .marker = "seatbelt",
			 .inherit = true, .pass_env = "NODE_OPTIONS" };
	cr_assert(eq(int, sb_env_build(&in, &e, c.d), 0));
	cr_assert(eq(str, (char *)sb_envvec_get(&e, "NODE_OPTIONS"), "--require /tmp/x.js"));
	cr_assert(eq(ptr, (void *)sb_envvec_get(&e, "LD_PRELOAD"), NULL));
	sb_envvec_clear(&e);
	cap_close(&c);
}

Test(env, get_and_set)
{
	cr_assert(eq(str, (char *)sb_env_get(parent, "USER"), "alice"));
	cr_assert(eq(ptr, (void *)sb_env_get(parent, "USE"), NULL));
	sb_envvec e = { 0 };
	sb_envvec_set(&e, "A", "1");
	sb_envvec_set(&e, "B", "2");
	sb_envvec_set(&e, "A", "3");
	char *j = joined(&e);
	cr_assert(eq(str, j, "A=3|B=2"));
	cr_assert(eq(ptr, e.v[2], NULL));
	free(j);
	sb_envvec_clear(&e);
}
