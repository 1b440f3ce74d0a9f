/* Unit tests for runtime/common/launch.c: the whole launch computed exactly for
 * given inputs (the macOS form is unverified on macOS: there is no Mac here),
 * the Linux form, and the pre-launch checks on the bound profile.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/diag.h"
#include "runtime/common/launch.h"
#include "runtime/macos/macos.h"
#include "compiler/sbpl/sbpl_read.h"

static const char profile_src[] =
	"(version 1)\n"
	"(allow default)\n"
	"(deny file-write*)\n"
	"(allow file-write* (subpath (param \"WORKSPACE\")) (subpath (param \"TMPDIR\"))"
	" (subpath (string-append (param \"HOME\") \"/.omp\")) (subpath (param \"EXTRA_WRITE*\")))\n"
	"(deny file-read* (subpath (param \"HOME\")))\n"
	"(allow file-read* (subpath (param \"WORKSPACE\")) (subpath (param \"EXTRA_READ*\")))\n"
	"(allow file-read-metadata (literal (param \"HOME\")) (literal (param \"HOME..WORKSPACE\")))\n";

static sb_profile *prof;
static sb_diag *d;
static FILE *capf;
static char *captext;
static size_t caplen;

static char *ew[] = { "/Users/a/cache", "/Volumes/x \"q\"" };
static char *er[] = { "/Users/a/.config/omp" };
static sb_prep prep = {
	.home = "/Users/a", .workspace = "/Users/a/src/proj", .tmpdir = "/private/var/folders/ab/T",
	.extra_write = ew, .nextra_write = 2, .extra_read = er, .nextra_read = 1,
};
static char *child_env[] = { "HOME=/Users/a", "TMPDIR=/private/var/folders/ab/T",
			     "OMP_SANDBOX=seatbelt", "PI_SANDBOX=seatbelt", "PATH=/usr/bin", NULL };
static char *args[] = { "--model", "x y", NULL };

static void setup(void)
{
	capf = open_memstream(&captext, &caplen);
	d = sb_diag_new(capf, SB_FMT_TEXT);
	sb_diag_set_tool(d, "t");
	prof = sb_sbpl_read("t.sb", profile_src, strlen(profile_src), d);
	cr_assert(not(eq(ptr, prof, NULL)));
}

static void teardown(void)
{
	sb_profile_free(prof);
	sb_diag_free(d);
	fclose(capf);
	free(captext);
}

TestSuite(launch, .init = setup, .fini = teardown);

static char *join(char **v, size_t n)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(v[i]) + 3;
	char *s = calloc(1, len);
	for (size_t i = 0; i < n; i++) {
		strcat(s, "[");
		strcat(s, v[i]);
		strcat(s, "]");
	}
	return s;
}

Test(launch, macos_exact)
{
	sb_launch_in in = { .platform = SB_PLAT_MACOS, .profile = prof, .prep = &prep,
			    .env = child_env, .cmd = "/opt/homebrew/bin/omp", .args = args,
			    .nargs = 2, .auto_approve = true };
	sb_launch l;
	cr_assert(eq(int, sb_launch_compute(&in, &l, d), 0));
	const char *text =
		"(version 1)\n"
		"(allow default)\n"
		"(deny file-write*)\n"
		"(allow file-write*\n"
		"    (subpath (param \"WORKSPACE\"))\n"
		"    (subpath (param \"TMPDIR\"))\n"
		"    (subpath (string-append (param \"HOME\") \"/.omp\"))\n"
		"    (subpath (param \"EXTRA_WRITE_1\"))\n"
		"    (subpath (param \"EXTRA_WRITE_2\"))\n"
		")\n"
		"(deny file-read* (subpath (param \"HOME\")))\n"
		"(allow file-read*\n"
		"    (subpath (param \"WORKSPACE\"))\n"
		"    (subpath (param \"EXTRA_READ_1\"))\n"
		")\n"
		"(allow file-read-metadata\n"
		"    (literal (param \"HOME\"))\n"
		"    (literal (param \"HOME..WORKSPACE_1\"))\n"
		")\n";
	cr_assert(eq(str, l.profile_text, (char *)text));
	cr_assert(eq(str, l.exec_path, "/usr/bin/sandbox-exec"));
	char *a = join(l.argv, l.argc);
	char *want;
	cr_assert(asprintf(&want,
		"[/usr/bin/sandbox-exec][-p][%s]"
		"[-D][WORKSPACE=/Users/a/src/proj][-D][TMPDIR=/private/var/folders/ab/T]"
		"[-D][HOME=/Users/a][-D][EXTRA_WRITE_1=/Users/a/cache]"
		"[-D][EXTRA_WRITE_2=/Volumes/x \"q\"][-D][EXTRA_READ_1=/Users/a/.config/omp]"
		"[-D][HOME..WORKSPACE_1=/Users/a/src]"
		"[/opt/homebrew/bin/omp][--auto-approve][--model][x y]", text) > 0);
	cr_assert(eq(str, a, want));
	cr_assert(eq(ptr, l.argv[l.argc], NULL));
	char *e = join(l.envp, 5);
	cr_assert(eq(str, e, "[HOME=/Users/a][TMPDIR=/private/var/folders/ab/T]"
			     "[OMP_SANDBOX=seatbelt][PI_SANDBOX=seatbelt][PATH=/usr/bin]"));
	cr_assert(eq(ptr, l.envp[5], NULL));
	cr_assert(eq(str, l.cwd, "/Users/a/src/proj"));
	free(a);
	free(want);
	free(e);
	sb_launch_clear(&l);
}

Test(launch, macos_no_yolo_no_args)
{
	sb_launch_in in = { .platform = SB_PLAT_MACOS, .profile = prof, .prep = &prep,
			    .env = child_env, .sandbox_exec = "/x/fake", .cmd = "/bin/omp" };
	sb_launch l;
	cr_assert(eq(int, sb_launch_compute(&in, &l, d), 0));
	cr_assert(eq(str, l.exec_path, "/x/fake"));
	cr_assert(eq(str, l.argv[l.argc - 1], "/bin/omp"));
	cr_assert(eq(str, l.argv[l.argc - 2], "HOME..WORKSPACE_1=/Users/a/src"));
	sb_launch_clear(&l);
}

Test(launch, linux_form_and_bound_profile)
{
	sb_launch_in in = { .platform = SB_PLAT_LINUX, .profile = prof, .prep = &prep,
			    .env = child_env, .cmd = "/usr/bin/omp", .args = args, .nargs = 2 };
	sb_launch l;
	cr_assert(eq(int, sb_launch_compute(&in, &l, d), 0));
	char *a = join(l.argv, l.argc);
	cr_assert(eq(str, a, "[/usr/bin/omp][--model][x y]"));
	cr_assert(eq(str, l.exec_path, "/usr/bin/omp"));
	cr_assert(eq(sz, l.defines.n, 0));
	cr_assert(not(eq(ptr, strstr(l.profile_text, "(subpath \"/Users/a/cache\")"), NULL)),
		  "%s", l.profile_text);
	cr_assert(eq(ptr, strstr(l.profile_text, "param"), NULL), "%s", l.profile_text);
	free(a);
	sb_launch_clear(&l);
}

Test(launch, unbound_param_refused)
{
	const char *src = "(version 1)\n(allow default)\n(deny file-read* (subpath (param \"SECRET_DIR\")))\n";
	sb_profile *p = sb_sbpl_read("u.sb", src, strlen(src), d);
	sb_launch_in in = { .platform = SB_PLAT_MACOS, .profile = p, .prep = &prep,
			    .env = child_env, .cmd = "/bin/true" };
	sb_launch l;
	cr_assert(eq(int, sb_launch_compute(&in, &l, d), SB_REFUSED));
	fflush(capf);
	cr_assert(not(eq(ptr, strstr(captext, "-D SECRET_DIR=VALUE"), NULL)), "%s", captext);
	sb_launch_clear(&l);
	sb_bindings user = { 0 };
	sb_bindings_set(&user, "SECRET_DIR", "/srv/secret");
	in.user = &user;
	cr_assert(eq(int, sb_launch_compute(&in, &l, d), 0));
	cr_assert(eq(str, l.argv[l.argc - 2], "SECRET_DIR=/srv/secret"));
	sb_launch_clear(&l);
	sb_bindings_clear(&user);
	sb_profile_free(p);
}

Test(launch, reserved_params)
{
	cr_assert(sb_launch_reserved_param("HOME"));
	cr_assert(sb_launch_reserved_param("EXTRA_READ"));
	cr_assert(sb_launch_reserved_param("EXTRA_READ*"));
	cr_assert(sb_launch_reserved_param("HOME..WORKSPACE"));
	cr_assert(not(sb_launch_reserved_param("CACHE")));
	sb_bindings user = { 0 }, out = { 0 };
	sb_bindings_set(&user, "HOME", "/tmp");
	sb_bindings_set(&user, "CACHE", "/c");
	sb_launch_bindings(&prep, &user, &out);
	cr_assert(eq(str, sb_bindings_get(&out, "HOME")->values[0], "/Users/a"));
	cr_assert(eq(str, sb_bindings_get(&out, "CACHE")->values[0], "/c"));
	sb_bindings_clear(&user);
	sb_bindings_clear(&out);
}

Test(launch, command_under_denied_home_refused)
{
	sb_launch_in in = { .platform = SB_PLAT_LINUX, .profile = prof, .prep = &prep,
			    .env = child_env, .cmd = "/Users/a/.bun/bin/omp" };
	sb_launch l;
	cr_assert(eq(int, sb_launch_compute(&in, &l, d), 0));
	cr_assert(eq(int, sb_launch_check_readable(l.bound, "/Users/a", "the command", "/Users/a/.bun/bin/omp", d),
		     SB_REFUSED));
	fflush(capf);
	cr_assert(not(eq(ptr, strstr(captext, "OMP_SANDBOX_EXTRA_READ=/Users/a/.bun)"), NULL)),
		  "%s", captext);
	cr_assert(eq(int, sb_launch_check_readable(l.bound, "/Users/a", "the command", "/opt/homebrew/bin/omp", d),
		     0));
	cr_assert(eq(int, sb_launch_check_readable(l.bound, "/Users/a", "its interpreter",
						   "/Users/a/.config/omp/bun", d), 0));
	/* an install dir right below a sensitive location: its own directory */
	cr_assert(eq(int, sb_launch_check_readable(l.bound, "/Users/a", "the command",
						   "/Users/a/.ssh/bin/tool", d), SB_REFUSED));
	fflush(capf);
	cr_assert(not(eq(ptr, strstr(captext, "OMP_SANDBOX_EXTRA_READ=/Users/a/.ssh/bin)"), NULL)),
		  "%s", captext);
	sb_launch_clear(&l);
}

Test(launch, tamper_warning_for_writable_launcher)
{
	sb_launch_in in = { .platform = SB_PLAT_LINUX, .profile = prof, .prep = &prep,
			    .env = child_env, .cmd = "/bin/true" };
	sb_launch l;
	cr_assert(eq(int, sb_launch_compute(&in, &l, d), 0));
	const char *files[] = { "/Users/a/.omp/sandbox/omp-sandboxed", "/usr/local/bin/omp-sandboxed",
				"/Users/a/src/proj/omp.sb", NULL };
	cr_assert(eq(int, sb_launch_check_tamper(l.bound, files, 4, d), 2));
	fflush(capf);
	cr_assert(not(eq(ptr, strstr(captext, "/Users/a/.omp/sandbox/omp-sandboxed is writable"), NULL)),
		  "%s", captext);
	cr_assert(eq(ptr, strstr(captext, "/usr/local/bin/omp-sandboxed is writable"), NULL));
	sb_launch_clear(&l);
}

Test(launch, macos_nested_refused_in_plain_words)
{
	char *inside[] = { "PATH=/usr/bin", "OMP_SANDBOX=seatbelt", NULL };
	char *pi[] = { "PI_SANDBOX=seatbelt", NULL };
	char *outside[] = { "PATH=/usr/bin", "OMP_SANDBOX=", NULL };
	cr_assert(eq(int, sb_macos_check_nested(inside, "/usr/bin/sandbox-exec", d), SB_REFUSED));
	cr_assert(eq(int, sb_macos_check_nested(pi, "/usr/bin/sandbox-exec", d), SB_REFUSED));
	cr_assert(eq(int, sb_macos_check_nested(outside, "/usr/bin/sandbox-exec", d), 0));
	fflush(capf);
	cr_assert(not(eq(ptr, strstr(captext, "error: already inside a sandbox (OMP_SANDBOX=seatbelt is set)"),
			 NULL)), "%s", captext);
}

Test(launch, test_build_uses_the_stand_in)
{
	char *p = sb_macos_sandbox_exec_path();
	const char *base = strrchr(p, '/');
	cr_assert(eq(str, (char *)base, "/fake_sandbox_exec"));
	free(p);
	cr_assert(eq(int, sb_macos_check_available("/nonexistent/sandbox-exec", d), SB_REFUSED));
	fflush(capf);
	cr_assert(not(eq(ptr, strstr(captext, "requires macOS"), NULL)));
}

Test(launch, profile_text_keeps_header_and_origin_comments)
{
	const char *src = "; generated by sbc from omp.sbx\n; params: HOME\n(version 1)\n"
			  "; omp.sbx:13\n(allow default)\n";
	sb_profile *p = sb_sbpl_read("h.sb", src, strlen(src), d);
	cr_assert(not(eq(ptr, p, NULL)));
	char *t = sb_profile_text(p);
	cr_assert(eq(str, t, "; generated by sbc from omp.sbx\n; params: HOME\n(version 1)\n"
			     "; omp.sbx:13\n(allow default)\n"));
	free(t);
	sb_profile_free(p);
}
