/* Unit tests for sbc diff (probe set, exit statuses) and sbc explain's
 * exit statuses, on small .sb files in a temporary directory.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/cli/cmds.h"
#include "compiler/ir/ir.h"
#include "compiler/eval/probe.h"
#include "compiler/sbpl/sbpl_read.h"

static char dir[64];

static void setup(void)
{
	strcpy(dir, "/tmp/sbc-diff-test.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	cr_redirect_stdout();
	cr_redirect_stderr();
}

static void teardown(void)
{
	char cmd[128];
	/* Only our own mkdtemp directory, by its exact name. */
	snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", dir);
	if (strncmp(dir, "/tmp/sbc-diff-test.", 19) == 0 && system(cmd) != 0)
		cr_log_warn("could not remove %s", dir);
}

static char *write_file(const char *name, const char *text)
{
	char *path = NULL;
	cr_assert(asprintf(&path, "%s/%s", dir, name) > 0);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static int diff(const char *old_text, const char *new_text)
{
	char *a = write_file("old.sb", old_text), *b = write_file("new.sb", new_text);
	/* the documented samples: this machine's values are tested by
	 * tests/suite-workloads.sh in a throwaway home */
	char *argv[] = { "diff", "--sample", a, b, NULL };
	int rc = sb_cmd_diff(4, argv);
	free(a);
	free(b);
	return rc;
}

static const char base[] =
	"(version 1)\n(allow default)\n"
	"; omp.sbx:3\n(deny file-write*)\n"
	"; omp.sbx:4\n(allow file-write* (subpath (param \"WORKSPACE\")) (subpath \"/private/tmp\"))\n"
	"; omp.sbx:5\n(deny file-read* (subpath (param \"HOME\")))\n"
	"; omp.sbx:6\n(allow file-read* (subpath (param \"WORKSPACE\")))\n"
	"; omp.sbx:7\n(allow file-read-metadata (literal (param \"HOME\")))\n";

TestSuite(diff, .init = setup, .fini = teardown);

Test(diff, identical_and_formatting_only)
{
	cr_expect(eq(int, diff(base, base), 0));
	cr_expect(eq(int, diff(base,
		"; another header\n(version 1)\n\n  (allow   default)\n(deny file-write*) ; same\n"
		"(allow file-write*\n  (subpath \"/private/tmp\")\n  (subpath (param \"WORKSPACE\")))\n"
		"(deny file-read* (subpath (param \"HOME\")))\n(allow file-read* (subpath (param \"WORKSPACE\")))\n"
		"(allow file-read-metadata (literal (param \"HOME\")))\n"), 0));
}

Test(diff, reorder_without_effect)
{
	/* The stat exception moved before the deny: same per-op decisions. */
	cr_expect(eq(int, diff(base,
		"(version 1)\n(allow default)\n(allow file-read-metadata (literal (param \"HOME\")))\n"
		"(deny file-read* (subpath (param \"HOME\")))\n(allow file-read* (subpath (param \"WORKSPACE\")))\n"
		"(deny file-write*)\n(allow file-write* (subpath (param \"WORKSPACE\")) (subpath \"/private/tmp\"))\n"), 0));
}

Test(diff, reorder_with_effect)
{
	/* The workspace re-allow moved before the home deny: now denied. */
	cr_expect(eq(int, diff(base,
		"(version 1)\n(allow default)\n(deny file-write*)\n"
		"(allow file-write* (subpath (param \"WORKSPACE\")) (subpath \"/private/tmp\"))\n"
		"(allow file-read* (subpath (param \"WORKSPACE\")))\n(deny file-read* (subpath (param \"HOME\")))\n"
		"(allow file-read-metadata (literal (param \"HOME\")))\n"), 1));
}

Test(diff, widening_and_narrowing)
{
	char wide[1024], narrow[1024];
	snprintf(wide, sizeof wide, "%s(allow file-write* (subpath (string-append (param \"HOME\") \"/Documents\")))\n", base);
	cr_expect(eq(int, diff(base, wide), 2));
	cr_expect(eq(int, diff(wide, base), 1));
	snprintf(narrow, sizeof narrow, "%s(deny file-read* (literal \"/private/etc/hosts\"))\n", base);
	cr_expect(eq(int, diff(base, narrow), 1));
	cr_expect(eq(int, diff(narrow, base), 2));
	/* Narrow one spot, widen another: widening wins. */
	snprintf(narrow, sizeof narrow, "%s(deny file-read* (literal \"/private/etc/hosts\"))\n"
		 "(allow file-read-data (literal (param \"HOME\")))\n", base);
	cr_expect(eq(int, diff(base, narrow), 2));
}

Test(diff, alias_and_boundaries)
{
	/* A rule on /tmp (never matches) vs /private/tmp: a real change. */
	cr_expect(eq(int, diff("(version 1)(deny default)(allow file-read* (subpath \"/tmp\"))",
			       "(version 1)(deny default)(allow file-read* (subpath \"/private/tmp\"))"), 2));
	/* subpath -> prefix widens to /a/b-sbc. */
	cr_expect(eq(int, diff("(version 1)(deny default)(allow file-read* (subpath \"/a/b\"))",
			       "(version 1)(deny default)(allow file-read* (prefix \"/a/b\"))"), 2));
	/* subpath -> literal narrows the children. */
	cr_expect(eq(int, diff("(version 1)(deny default)(allow file-read* (subpath \"/a/b\"))",
			       "(version 1)(deny default)(allow file-read* (literal \"/a/b\"))"), 1));
	/* A more specific op changes the answer regardless of order. */
	cr_expect(eq(int, diff("(version 1)(deny default)(allow file-read* (subpath \"/a\"))",
			       "(version 1)(deny default)(deny file-read-data (subpath \"/a\"))(allow file-read* (subpath \"/a\"))"), 1));
}

Test(diff, regex_and_vnode)
{
	cr_expect(eq(int, diff("(version 1)(deny default)(allow file-read* (regex #\"^/r/[^/]+$\"))",
			       "(version 1)(deny default)(allow file-read* (regex #\"^/r/\"))"), 2));
	cr_expect(eq(int, diff("(version 1)(deny default)(allow file-read* (require-all (subpath \"/a\") (vnode-type directory)))",
			       "(version 1)(deny default)(allow file-read* (subpath \"/a\"))"), 2));
}

Test(diff, unmodelled_parts)
{
	const char *m = "(version 1)(deny default)(allow mach-lookup (global-name \"com.apple.x\"))";
	cr_expect(eq(int, diff("(version 1)(deny default)", m), 2));
	cr_expect(eq(int, diff(m, "(version 1)(deny default)"), 1));
	cr_expect(eq(int, diff(m, m), 0));
	cr_expect(eq(int, diff("(version 1)(allow default)", "(version 1)(allow default)(import \"system.sb\")"), 2));
	/* Both import: every decision is unknown, yet rule changes still show. */
	cr_expect(eq(int, diff("(version 1)(import \"system.sb\")(deny default)",
			       "(version 1)(import \"system.sb\")(deny default)(allow file-write* (subpath \"/\"))"), 2));
	cr_expect(eq(int, diff("(version 1)(import \"system.sb\")(deny default)",
			       "(version 1)(import \"system.sb\")\n(deny default)"), 0));
}

Test(diff, errors)
{
	cr_expect(eq(int, diff("(version 1)(allow default)", "(version 1)(allow"), 3));
	char *argv[] = { "diff", "only-one.sb", NULL };
	cr_expect(eq(int, sb_cmd_diff(2, argv), 3));
	char *argv2[] = { "diff", "/nonexistent/a.sb", "/nonexistent/b.sb", NULL };
	cr_expect(eq(int, sb_cmd_diff(3, argv2), 3));
	char *argv3[] = { "diff", "--bogus", NULL };
	cr_expect(eq(int, sb_cmd_diff(2, argv3), 3));
}

static int explain(const char *text, const char *op, const char *path, const char *extra)
{
	char *f = write_file("p.sb", text);
	char *argv[9] = { "explain", "--sample", f, "--op", (char *)op, "--path", (char *)path, NULL, NULL };
	int argc = 7;
	if (extra)
		argv[argc++] = (char *)extra;
	int rc = sb_cmd_explain(argc, argv);
	free(f);
	return rc;
}

Test(diff, explain_exit_statuses)
{
	cr_expect(eq(int, explain(base, "write", "$WORKSPACE/x", NULL), 0));
	cr_expect(eq(int, explain(base, "read", "~/.ssh/id_rsa", NULL), 1));
	cr_expect(eq(int, explain(base, "stat", "~", NULL), 0));
	cr_expect(eq(int, explain(base, "list", "~", NULL), 1));
	cr_expect(eq(int, explain(base, "file-read-data", "/Users/other/x", "-DHOME=/Users/other"), 1));
	cr_expect(eq(int, explain(base, "file-read-data", "/Users/me/x", "-DHOME=/Users/other"), 0));
	cr_expect(eq(int, explain("(version 1)(allow default)(deny file-read* (extension \"x\"))", "read", "/x", NULL), 2));
	cr_expect(eq(int, explain(base, "read", "relative", NULL), 3));
	cr_expect(eq(int, explain(base, "bogus-op", "/x", NULL), 3));
	cr_expect(eq(int, explain(base, "mach-lookup", "/x", NULL), 3));
	cr_expect(eq(int, explain(base, "read", "/x", "--vnode=weird"), 3));
	cr_expect(eq(int, explain(base, "read", "/x", "--format=json"), 0));
}

/* sbrun --print-profile's "-D NAME=VALUE" header comments bind params;
 * the command line wins; an indexed ancestor param binds by its name.  */
Test(diff, explain_uses_printed_defines)
{
	/* the -D list is data (emit_sbpl.h, "Data"); the comments above it
	 * are for people */
	const char *printed = ";; sandbox-exec parameters (-D NAME=VALUE):\n"
			      ";;   -D HOME=/home/a b \n;;   -D HOME..WORKSPACE_1=/home/a b /src\n"
			      "(version 1)\n(define sbx-launch-params (list\n"
			      "    (list \"HOME\" \"/home/a b \")\n"
			      "    (list \"HOME..WORKSPACE_1\" \"/home/a b\" \" /src\")\n))\n"
			      "(allow default)(deny file-read* (subpath (param \"HOME\")))"
			      "(allow file-read-metadata (literal (param \"HOME..WORKSPACE_1\")))";
	cr_expect(eq(int, explain(printed, "read", "/home/a b /x", NULL), 1));
	cr_expect(eq(int, explain(printed, "read", "/home/a b/x", NULL), 0));
	cr_expect(eq(int, explain(printed, "stat", "/home/a b /src", NULL), 0));
	cr_expect(eq(int, explain(printed, "read", "/home/a b /x", "-DHOME=/elsewhere"), 0));
}

/* A profile with the -D list only in comments (an sbc before the data
 * form): nothing is decided from a comment, the sample HOME applies.  */
Test(diff, explain_ignores_define_comments)
{
	const char *printed = ";; sandbox-exec parameters (-D NAME=VALUE):\n"
			      ";;   -D HOME=/home/a b \n"
			      "(version 1)(allow default)(deny file-read* (subpath (param \"HOME\")))";
	cr_expect(eq(int, explain(printed, "read", "/home/a b /x", NULL), 0));
	cr_expect(eq(int, explain(printed, "read", "/Users/me/x", NULL), 1));
}

static bool has_probe(const sb_probes *ps, const char *p)
{
	for (size_t i = 0; i < ps->n; i++)
		if (!strcmp(ps->paths[i], p))
			return true;
	return false;
}

Test(probe, derived_paths)
{
	FILE *devnull = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT);
	const char *text = "(version 1)(allow file-read* (subpath \"/a/b\") (literal \"/private/tmp/x\")"
			   " (regex #\"^/r/s\\.t/[^/]+$\") (prefix \"/p/\") (require-all (subpath \"/q\") (vnode-type fifo)))";
	sb_profile *p = sb_sbpl_read("p.sb", text, strlen(text), d);
	cr_assert_not_null(p);
	sb_probes ps = { 0 };
	sb_probes_add_profile(&ps, p);
	sb_probes_finish(&ps);
	static const char *const want[] = {
		"/a/b", "/a", "/a/b/sbc-child", "/a/b/sbc-child/sbc-grandchild", "/a/sbc-sibling", "/a/b-sbc",
		"/private/tmp/x", "/tmp/x", "/private/tmp", "/r/s.t", "/r/s.t/sbc-child", "/p", "/p-sbc",
		"/p/sbc-child", "/q", "/q/sbc-child",
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		cr_expect(has_probe(&ps, want[i]), "missing probe %s", want[i]);
	cr_expect(eq(u32, ps.vnode_masks, SB_VNODE_FIFO));
	for (size_t i = 1; i < ps.n; i++)
		cr_expect(strcmp(ps.paths[i - 1], ps.paths[i]) < 0, "sorted and unique");
	sb_probes_clear(&ps);
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(devnull);
}

Test(probe, regex_literal_prefix)
{
	static const char *const cases[][2] = {
		{ "^/a/b\\.c/[^/]+$", "/a/b.c/" }, { "^/w(/|$)", "/w" }, { "^/x/ab*", "/x/a" },
		{ "^/x/y$", "/x/y" }, { "^/a\\/b", "/a/b" }, { "/no/anchor", NULL }, { "^relative", NULL },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *got = sb_regex_literal_prefix(cases[i][0]);
		if (!cases[i][1])
			cr_expect_null(got, "%s", cases[i][0]);
		else
			cr_expect(eq(str, got, (char *)cases[i][1]), "%s", cases[i][0]);
		free(got);
	}
}
