/* Unit tests for runtime/common/prep.c: home verification, workspace, temp dir and
 * extras (docs/omp-sandboxed.md, "The protections"; defects D3-D5 and the
 * other fixes of docs/migration.md).  Every test builds its own tree under a
 * fresh mkdtemp directory; the real home is never used.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/common/diag.h"
#include "compiler/common/xalloc.h"
#include "runtime/common/prep.h"

static char root[256], home[300];
static FILE *capf;
static char *captext;
static size_t caplen;
static sb_diag *d;

static void mk(const char *rel)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	cr_assert(eq(int, mkdir(p, 0700), 0), "mkdir %s", p);
}

static void setup(void)
{
	strcpy(root, "/tmp/sbx-prep-XXXXXX");
	cr_assert(not(eq(ptr, mkdtemp(root), NULL)));
	char *r = realpath(root, NULL);
	strcpy(root, r);
	free(r);
	snprintf(home, sizeof home, "%s/home", root);
	mk("home");
	mk("home/proj");
	mk("home/proj/sub");
	mk("home/.ssh");
	mk("ws");
	char p[512], t[512];
	snprintf(p, sizeof p, "%s/homelink", root);
	cr_assert(eq(int, symlink(home, p), 0));
	snprintf(p, sizeof p, "%s/ws/real.yml", root);
	FILE *f = fopen(p, "w");
	fputs("x\n", f);
	fclose(f);
	snprintf(t, sizeof t, "%s/home/proj/models.yml", root);
	cr_assert(eq(int, symlink(p, t), 0));
	capf = open_memstream(&captext, &caplen);
	d = sb_diag_new(capf, SB_FMT_TEXT);
	sb_diag_set_tool(d, "t");
}

static void teardown(void)
{
	sb_diag_free(d);
	fclose(capf);
	free(captext);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	cr_assert(eq(int, system(cmd), 0));
}

static const char *msgs(void)
{
	fflush(capf);
	return captext ? captext : "";
}

#define HAS(s) cr_assert(not(eq(ptr, strstr(msgs(), (s)), NULL)), "missing '%s' in: %s", (s), msgs())

/* An environment vector from "NAME=value" strings (static storage).  */
static char envbuf[8][600];
static char *envv[9];
static char **env(const char *a, const char *b, const char *c)
{
	const char *in[] = { a, b, c };
	size_t n = 0;
	for (size_t i = 0; i < 3; i++)
		if (in[i]) {
			snprintf(envbuf[n], sizeof envbuf[n], "%s", in[i]);
			envv[n] = envbuf[n];
			n++;
		}
	envv[n] = NULL;
	return envv;
}

static char *fmt(const char *f, const char *a)
{
	char *s;
	cr_assert(asprintf(&s, f, a) > 0);
	return s;
}

TestSuite(prep, .init = setup, .fini = teardown);

Test(prep, home_same_with_trailing_slash_and_symlink)
{
	char *h1 = fmt("HOME=%s/", home), *h2 = fmt("HOME=%s/homelink", root);
	char *out;
	sb_prep_in in = { .envp = env(h1, NULL, NULL), .pw_home = home };
	cr_assert(eq(int, sb_prep_home(&in, false, &out, d), 0));
	cr_assert(eq(str, out, home));
	free(out);
	in.envp = env(h2, NULL, NULL);
	cr_assert(eq(int, sb_prep_home(&in, false, &out, d), 0));
	cr_assert(eq(str, out, home));
	cr_assert(eq(str, (char *)msgs(), ""));
	free(out);
	free(h1);
	free(h2);
}

Test(prep, home_mismatch_refused)
{
	char *out;
	sb_prep_in in = { .envp = env("HOME=/tmp", NULL, NULL), .pw_home = home };
	cr_assert(eq(int, sb_prep_home(&in, false, &out, d), SB_REFUSED));
	cr_assert(eq(ptr, out, NULL));
	HAS("error: the inherited HOME '/tmp' differs from the real home");
	HAS("OMP_SANDBOX_SKIP_HOME_VERIFY=1");
}

Test(prep, home_mismatch_skip_warns_and_real_home_wins)
{
	char *out;
	sb_prep_in in = { .envp = env("HOME=/tmp", NULL, NULL), .pw_home = home };
	cr_assert(eq(int, sb_prep_home(&in, true, &out, d), 0));
	cr_assert(eq(str, out, home));
	HAS("warning: the inherited HOME '/tmp' differs");
	free(out);
}

Test(prep, home_missing_in_user_database_entry)
{
	char *out;
	char *gone = fmt("%s/gone", root);
	sb_prep_in in = { .envp = env(NULL, NULL, NULL), .pw_home = gone };
	cr_assert(eq(int, sb_prep_home(&in, true, &out, d), SB_REFUSED));
	HAS("which does not exist");
	free(gone);
}

Test(prep, home_lookup_failed)
{
	char *out, *h = fmt("HOME=%s", home);
	sb_prep_in in = { .envp = env(h, NULL, NULL), .pw_home = NULL };
	cr_assert(eq(int, sb_prep_home(&in, false, &out, d), SB_REFUSED));
	HAS("could not look up the home directory");
	cr_assert(eq(int, sb_prep_home(&in, true, &out, d), 0));
	cr_assert(eq(str, out, home));
	HAS("warning: could not verify the home directory");
	free(out);
	free(h);
}

Test(prep, home_unset_is_replaced)
{
	char *out;
	sb_prep_in in = { .envp = env("PATH=/bin", NULL, NULL), .pw_home = home };
	cr_assert(eq(int, sb_prep_home(&in, false, &out, d), 0));
	cr_assert(eq(str, out, home));
	free(out);
}

Test(prep, workspace_default_tilde_relative)
{
	char *ws, *cwd = fmt("%s/ws", root), *exp = fmt("%s/proj", home);
	sb_prep_in in = { .envp = env(NULL, NULL, NULL), .cwd = cwd };
	cr_assert(eq(int, sb_prep_workspace(&in, home, false, &ws, d), 0));
	cr_assert(eq(str, ws, cwd));
	free(ws);
	in.envp = env("OMP_SANDBOX_WORKSPACE=~/proj/", NULL, NULL);
	cr_assert(eq(int, sb_prep_workspace(&in, home, false, &ws, d), 0));
	cr_assert(eq(str, ws, exp));
	free(ws);
	in.envp = env("OMP_SANDBOX_WORKSPACE=../home/proj/sub/..", NULL, NULL);
	cr_assert(eq(int, sb_prep_workspace(&in, home, false, &ws, d), 0));
	cr_assert(eq(str, ws, exp));
	free(ws);
	free(cwd);
	free(exp);
}

Test(prep, workspace_missing)
{
	char *ws;
	sb_prep_in in = { .envp = env("OMP_SANDBOX_WORKSPACE=/nonexistent/sbx", NULL, NULL) };
	cr_assert(eq(int, sb_prep_workspace(&in, home, false, &ws, d), SB_REFUSED));
	HAS("workspace '/nonexistent/sbx' does not exist");
}

Test(prep, workspace_wide_refused)
{
	char *ws;
	const char *bad[] = { "OMP_SANDBOX_WORKSPACE=/", "OMP_SANDBOX_WORKSPACE=~",
			      "OMP_SANDBOX_WORKSPACE=~/.ssh", NULL };
	char *anc = fmt("OMP_SANDBOX_WORKSPACE=%s", root);
	bad[3] = anc;
	for (size_t i = 0; i < 4; i++) {
		sb_prep_in in = { .envp = env(bad[i], NULL, NULL) };
		cr_assert(eq(int, sb_prep_workspace(&in, home, false, &ws, d), SB_REFUSED), "%s", bad[i]);
		cr_assert(eq(int, sb_prep_workspace(&in, home, true, &ws, d), 0), "%s", bad[i]);
		free(ws);
	}
	HAS("grants very broad access; refusing");
	HAS("OMP_SANDBOX_CONFIRM_WIDE=1");
	HAS("an ancestor of the home directory");
	HAS("a sensitive home location");
	HAS("warning: workspace / is the root directory");
	free(anc);
}

Test(prep, workspace_tilde_user_refused)
{
	char *ws;
	sb_prep_in in = { .envp = env("OMP_SANDBOX_WORKSPACE=~bob/x", NULL, NULL) };
	cr_assert(eq(int, sb_prep_workspace(&in, home, false, &ws, d), SB_REFUSED));
	HAS("'~name'");
}

Test(prep, tmpdir_roots)
{
	cr_assert(sb_tmpdir_accepted(SB_PLAT_LINUX, "/tmp"));
	cr_assert(sb_tmpdir_accepted(SB_PLAT_LINUX, "/tmp/a/b"));
	cr_assert(not(sb_tmpdir_accepted(SB_PLAT_LINUX, "/tmpfoo")));
	cr_assert(not(sb_tmpdir_accepted(SB_PLAT_LINUX, "/home/a")));
	cr_assert(sb_tmpdir_accepted(SB_PLAT_MACOS, "/private/tmp"));
	cr_assert(sb_tmpdir_accepted(SB_PLAT_MACOS, "/private/tmp/x"));
	cr_assert(sb_tmpdir_accepted(SB_PLAT_MACOS, "/private/var/folders/ab/T"));
	cr_assert(not(sb_tmpdir_accepted(SB_PLAT_MACOS, "/private/var/folders")));
	cr_assert(not(sb_tmpdir_accepted(SB_PLAT_MACOS, "/private/tmpfoo")));
	cr_assert(not(sb_tmpdir_accepted(SB_PLAT_MACOS, "/Users/a")));
}

Test(prep, tmpdir_fallback_with_warning)
{
	sb_prep_in in = { .envp = env("TMPDIR=/nonexistent/t", NULL, NULL),
			  .platform = SB_PLAT_LINUX };
	char *t = sb_prep_tmpdir(&in, d);
	char *tmp = realpath("/tmp", NULL);
	cr_assert(eq(str, t, tmp));
	HAS("TMPDIR '/nonexistent/t' is not an existing directory; using /tmp");
	free(t);
	in.envp = env("TMPDIR=/usr", NULL, NULL);
	t = sb_prep_tmpdir(&in, d);
	cr_assert(eq(str, t, tmp));
	HAS("not a known scratch root");
	free(t);
	free(tmp);
}

Test(prep, tmpdir_accepted_below_tmp)
{
	char *e = fmt("TMPDIR=%s/ws/", root), *want = fmt("%s/ws", root);
	sb_prep_in in = { .envp = env(e, NULL, NULL), .platform = SB_PLAT_LINUX };
	char *t = sb_prep_tmpdir(&in, d);
	cr_assert(eq(str, t, want));
	cr_assert(eq(str, (char *)msgs(), ""));
	free(t);
	free(e);
	free(want);
}

static int extras(const char *list, bool confirm, char ***v, size_t *n)
{
	return sb_prep_extras("EXTRA_READ", list, home, confirm, v, n, d);
}

Test(prep, extras_canonical_dedup_and_symlinked_leaf)
{
	char **v;
	size_t n;
	char *list = fmt("~/proj/:%s/homelink/proj::~/proj/models.yml:~/proj/new-file:~/..foo", root);
	cr_assert(eq(int, extras(list, false, &v, &n), 0), "%s", msgs());
	cr_assert(eq(sz, n, 4));
	char *p = fmt("%s/proj", home), *f = fmt("%s/ws/real.yml", root),
	     *nf = fmt("%s/proj/new-file", home), *dd = fmt("%s/..foo", home);
	cr_assert(eq(str, v[0], p));
	cr_assert(eq(str, v[1], f));
	cr_assert(eq(str, v[2], nf));
	cr_assert(eq(str, v[3], dd));
	sb_strv_free(v, n);
	free(list);
	free(p);
	free(f);
	free(nf);
	free(dd);
}

Test(prep, extras_refusals)
{
	char **v;
	size_t n;
	cr_assert(eq(int, extras("rel/path", false, &v, &n), SB_REFUSED));
	HAS("error: OMP_SANDBOX_EXTRA_READ path 'rel/path' must be absolute");
	cr_assert(eq(int, extras("~/proj/../.ssh", false, &v, &n), SB_REFUSED));
	HAS("contains a '..' component");
	cr_assert(eq(int, extras("/nonexistent/a/b", false, &v, &n), SB_REFUSED));
	HAS("cannot be canonicalized");
	cr_assert(eq(int, extras("~bob/x", false, &v, &n), SB_REFUSED));
	HAS("'~name'");
	cr_assert(eq(int, extras("/tmp/a\tb", false, &v, &n), SB_REFUSED));
	HAS("control character (byte 0x09");
}

Test(prep, extras_sensitive_component_wise)
{
	char **v;
	size_t n;
	mk("home/.sshfoo");
	cr_assert(eq(int, extras("~/.sshfoo", false, &v, &n), 0), "%s", msgs());
	sb_strv_free(v, n);
	cr_assert(eq(int, extras("~/.ssh", false, &v, &n), SB_REFUSED));
	HAS("covers a sensitive home location");
	HAS("OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1");
	cr_assert(eq(int, extras("~", false, &v, &n), SB_REFUSED));
	cr_assert(eq(int, extras("~/.ssh/config", true, &v, &n), 0));
	HAS("warning: OMP_SANDBOX_EXTRA_READ path");
	sb_strv_free(v, n);
}

Test(prep, write_gate_is_separate)
{
	char **v;
	size_t n;
	cr_assert(eq(int, sb_prep_extras("EXTRA_WRITE", "~/.ssh", home, false, &v, &n, d), SB_REFUSED));
	HAS("OMP_SANDBOX_CONFIRM_SENSITIVE_WRITE=1");
}

Test(prep, run_all_steps_and_settings)
{
	char *h = fmt("HOME=%s", home);
	char *e[] = { h, "OMP_SANDBOX_WORKSPACE=~/proj", "OMP_SANDBOX_EXTRA_WRITE=~/proj/sub",
		      "OMP_SANDBOX_YOLO=true", "OMP_SANDBOX_CONFIRM_WIDE=1", "TMPDIR=/tmp", NULL };
	sb_prep_in in = { .envp = e, .pw_home = home, .platform = SB_PLAT_LINUX };
	sb_prep p;
	cr_assert(eq(int, sb_prep_run(&in, &p, d), 0), "%s", msgs());
	cr_assert(not(p.s.yolo));
	cr_assert(p.s.confirm_wide);
	cr_assert(eq(sz, p.nextra_write, 1));
	cr_assert(eq(sz, p.nextra_read, 0));
	/* The home lies under /tmp here: the temp-dir grant would cover it.  */
	HAS("lies inside the scratch root");
	sb_prep_clear(&p);
	free(h);
}
