/* Unit tests for the core: path rules, ops table, IR binding, diagnostics.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/common/diag.h"
#include "compiler/ir/ir.h"
#include "compiler/common/path.h"
#include "runtime/common/launch.h"

Test(path, normalize)
{
	const char *why;
	char *p = sb_path_normalize("//a/./b//c/", &why);
	cr_assert(eq(str, p, "/a/b/c"));
	free(p);
	p = sb_path_normalize("/", &why);
	cr_assert(eq(str, p, "/"));
	free(p);
	cr_assert_null(sb_path_normalize("/a/../b", &why));
	cr_assert(eq(str, (char *)why, "path contains a '..' component"));
	cr_assert_null(sb_path_normalize("a/b", &why));
	p = sb_path_normalize("/a/..b", &why);
	cr_assert(eq(str, p, "/a/..b"));
	free(p);
}

Test(path, is_normal)
{
	cr_assert(sb_path_is_normal("/"));
	cr_assert(sb_path_is_normal("/a/b"));
	cr_assert_not(sb_path_is_normal("/a/"));
	cr_assert_not(sb_path_is_normal("//a"));
	cr_assert_not(sb_path_is_normal("/a/./b"));
	cr_assert_not(sb_path_is_normal("/a/../b"));
	cr_assert_not(sb_path_is_normal("a"));
}

Test(path, under_is_component_wise)
{
	cr_assert(sb_path_is_under("/a/b", "/a/b"));
	cr_assert(sb_path_is_under("/a/b/c", "/a/b"));
	cr_assert_not(sb_path_is_under("/a/bc", "/a/b"));
	cr_assert_not(sb_path_is_strictly_under("/a/b", "/a/b"));
	cr_assert(sb_path_is_under("/x", "/"));
	cr_assert_not(sb_path_is_strictly_under("/", "/"));
	cr_assert(sb_path_is_under_fold("/Users/Me/.SSH/id", "/users/me/.ssh"));
	cr_assert_not(sb_path_is_under_fold("/users/me/.sshfoo", "/users/me/.ssh"));
}

Test(path, bad_chars_and_dotdot)
{
	cr_assert(eq(int, sb_path_bad_char("/a\nb"), 2));
	cr_assert(eq(int, sb_path_bad_char("/a\tb"), 2));
	cr_assert(eq(int, sb_path_bad_char("/a\x7f"), 2));
	cr_assert(eq(int, sb_path_bad_char("/é ü"), -1));
	cr_assert(sb_path_has_dotdot("/a/.."));
	cr_assert_not(sb_path_has_dotdot("/a/..b/c."));
}

Test(path, join_dirname_alias)
{
	char *s = sb_path_join("/", "a/b");
	cr_assert(eq(str, s, "/a/b"));
	free(s);
	s = sb_path_join("/h", "");
	cr_assert(eq(str, s, "/h"));
	free(s);
	s = sb_path_dirname("/a/b");
	cr_assert(eq(str, s, "/a"));
	free(s);
	s = sb_path_dirname("/a");
	cr_assert(eq(str, s, "/"));
	free(s);
	s = sb_path_private_alias("/tmp/x");
	cr_assert(eq(str, s, "/private/tmp/x"));
	free(s);
	s = sb_path_private_alias("/tmpfoo");
	cr_assert(eq(str, s, "/tmpfoo"));
	free(s);
	s = sb_path_private_alias("/etc");
	cr_assert(eq(str, s, "/private/etc"));
	free(s);
}

Test(path, escape)
{
	char *s = sb_sbpl_escape("a\"b\\c)(;");
	cr_assert(eq(str, s, "a\\\"b\\\\c)(;"));
	free(s);
	cr_assert_null(sb_sbpl_escape("a\nb"));
	cr_assert_null(sb_sbpl_escape("a\rb"));
}

/* sb_path_real answers as realpath() does, result and errno, on the cases
 * a launch meets: symlinks (leaf, inner, relative, dangling, a loop), a
 * trailing slash on a file and a directory, "." and "..", a missing path, a
 * relative name, /proc/self/exe.  */
Test(path, real_is_realpath)
{
	char tmpl[] = "/tmp/sbreal.XXXXXX";
	cr_assert_not_null(mkdtemp(tmpl));
	char b[4096], t[4096];
	snprintf(b, sizeof b, "%s/d", tmpl);
	cr_assert(eq(int, mkdir(b, 0700), 0));
	snprintf(b, sizeof b, "%s/d/e", tmpl);
	cr_assert(eq(int, mkdir(b, 0700), 0));
	snprintf(b, sizeof b, "%s/d/e/f", tmpl);
	FILE *f = fopen(b, "w");
	cr_assert_not_null(f);
	fclose(f);
	const char *links[][2] = {
		{"ld", "d"}, {"lf", "d/e/f"}, {"abs", NULL}, {"dangling", "nowhere"},
		{"loop1", "loop2"}, {"loop2", "loop1"},
	};
	for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
		snprintf(b, sizeof b, "%s/%s", tmpl, links[i][0]);
		if (links[i][1])
			snprintf(t, sizeof t, "%s", links[i][1]);
		else
			snprintf(t, sizeof t, "%s/d/e", tmpl);
		cr_assert(eq(int, symlink(t, b), 0));
	}
	const char *cases[] = {
		"", "d", "d/", "d/e/f", "d/e/f/", "ld/e/f", "lf", "abs/f", "abs/../e/./f",
		"d/../ld/e", "dangling", "loop1", "missing", "missing/", "d/e/f/x",
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(b, sizeof b, "%s/%s", tmpl, cases[i]);
		errno = 0;
		char *want = realpath(b, NULL);
		int want_errno = want ? 0 : errno;
		errno = 0;
		char *got = sb_path_real(b);
		int got_errno = got ? 0 : errno;
		cr_assert(eq(int, got_errno, want_errno), "%s: errno", b);
		if (want)
			cr_assert(eq(str, got, want), "%s", b);
		else
			cr_assert_null(got, "%s", b);
		free(want);
		free(got);
	}
	/* relative to the working directory */
	char cwd[4096];
	cr_assert_not_null(getcwd(cwd, sizeof cwd));
	cr_assert(eq(int, chdir(tmpl), 0));
	char *want = realpath("lf", NULL), *got = sb_path_real("lf");
	cr_assert(eq(str, got, want));
	free(want);
	free(got);
	cr_assert(eq(int, chdir(cwd), 0));
	want = realpath("/proc/self/exe", NULL);
	got = sb_path_real("/proc/self/exe");
	cr_assert(eq(str, got, want));
	free(want);
	free(got);
	snprintf(b, sizeof b, "rm -rf '%s'", tmpl);
	cr_assert(eq(int, system(b), 0));
}

Test(path, canon_missing_leaf_and_symlink)
{
	char tmpl[] = "/tmp/sbcore.XXXXXX";
	cr_assert_not_null(mkdtemp(tmpl));
	char *real = realpath(tmpl, NULL);
	char buf[4096];
	snprintf(buf, sizeof buf, "%s/target", tmpl);
	FILE *f = fopen(buf, "w");
	cr_assert_not_null(f);
	fclose(f);
	char link[4096];
	snprintf(link, sizeof link, "%s/link", tmpl);
	cr_assert(eq(int, symlink(buf, link), 0));
	char *c = sb_path_canon(link);
	char want[4096];
	snprintf(want, sizeof want, "%s/target", real);
	cr_assert(eq(str, c, want), "a symlinked leaf file is resolved (D5)");
	free(c);
	snprintf(buf, sizeof buf, "%s/missing", tmpl);
	c = sb_path_canon(buf);
	snprintf(want, sizeof want, "%s/missing", real);
	cr_assert(eq(str, c, want));
	free(c);
	snprintf(buf, sizeof buf, "%s/nodir/leaf", tmpl);
	cr_assert_null(sb_path_canon(buf), "parent missing -> NULL");
	snprintf(buf, sizeof buf, "%s/missingdir/", tmpl);
	cr_assert_null(sb_path_canon(buf), "a missing path with a trailing slash fails");
	unlink(link);
	snprintf(buf, sizeof buf, "%s/target", tmpl);
	unlink(buf);
	rmdir(tmpl);
	free(real);
}

Test(ops, lookup_aliases_parents)
{
	cr_assert(eq(int, sb_op_lookup("file-read*"), SB_OP_FILE_READ));
	cr_assert(eq(int, sb_op_lookup("file-unlink"), SB_OP_FILE_WRITE_UNLINK));
	cr_assert(eq(int, sb_op_lookup("process-exec"), SB_OP_PROCESS_EXEC));
	cr_assert(eq(int, sb_op_lookup("mach-lookup"), SB_OP_OTHER));
	cr_assert(eq(int, sb_op_lookup("ipc-posix-shm"), SB_OP_OTHER));
	cr_assert(eq(int, sb_op_lookup("user-preference-write"), SB_OP_OTHER));
	cr_assert(eq(int, sb_op_lookup("no-such-op"), -1));
	cr_assert(eq(int, sb_op_parent(SB_OP_FILE_READ_METADATA), SB_OP_FILE_READ));
	cr_assert(eq(int, sb_op_parent(SB_OP_FILE_READ), SB_OP_FILE_ALL));
	cr_assert(eq(int, sb_op_parent(SB_OP_FILE_ALL), SB_OP_DEFAULT));
	cr_assert(eq(int, sb_op_parent(SB_OP_FILE_LINK), SB_OP_DEFAULT), "file-link falls back to default");
	cr_assert(eq(int, sb_op_parent(SB_OP_NETWORK_BIND), SB_OP_NETWORK_INBOUND));
	cr_assert(sb_op_is_file(SB_OP_FILE_WRITE_CREATE));
	cr_assert(sb_op_is_file(SB_OP_FILE_LINK));
	cr_assert_not(sb_op_is_file(SB_OP_PROCESS_EXEC));
	for (int op = 0; op < SB_OP_OTHER; op++)
		cr_assert(eq(int, sb_op_lookup(sb_op_name(op)), op), "round trip of %s", sb_op_name(op));
}

static sb_loc noloc;

/* (allow file-read* (subpath (param "WORKSPACE")) (subpath (param "EXTRA_READ*")))  */
static sb_profile *list_profile(void)
{
	sb_profile *p = sb_profile_new();
	sb_rule *r = sb_rule_new(SB_ALLOW, noloc);
	sb_rule_add_op(r, SB_OP_FILE_READ, NULL);
	sb_rule_add_filter(r, sb_filter_path(SB_F_SUBPATH, sb_str_param_spelled("WORKSPACE"), noloc));
	sb_rule_add_filter(r, sb_filter_path(SB_F_SUBPATH, sb_str_param_spelled("EXTRA_READ*"), noloc));
	sb_profile_add_rule(p, r);
	/* A rule made only of a list: must vanish when the list is empty.  */
	r = sb_rule_new(SB_ALLOW, noloc);
	sb_rule_add_op(r, SB_OP_FILE_WRITE, NULL);
	sb_rule_add_filter(r, sb_filter_path(SB_F_SUBPATH, sb_str_param_spelled("EXTRA_WRITE*"), noloc));
	sb_profile_add_rule(p, r);
	/* (literal (param "HOME..WORKSPACE")) and a string-append.  */
	r = sb_rule_new(SB_ALLOW, noloc);
	sb_rule_add_op(r, SB_OP_FILE_READ_METADATA, NULL);
	sb_rule_add_filter(r, sb_filter_path(SB_F_LITERAL, sb_str_param_spelled("HOME..WORKSPACE"), noloc));
	sb_str *parts[2] = { sb_str_param_spelled("HOME"), sb_str_lit("/.omp") };
	sb_rule_add_filter(r, sb_filter_path(SB_F_SUBPATH, sb_str_append(parts, 2), noloc));
	sb_profile_add_rule(p, r);
	return p;
}

Test(ir, bind_expands_lists_and_ancestors)
{
	sb_profile *p = list_profile();
	sb_bindings b = { 0 };
	sb_bindings_set(&b, "HOME", "/Users/me");
	sb_bindings_set(&b, "WORKSPACE", "/Users/me/src/app");
	const char *extras[] = { "/Users/me/a", "/Users/me/b" };
	sb_bindings_set_list(&b, "EXTRA_READ", extras, 2);
	sb_bindings_set_list(&b, "EXTRA_WRITE", NULL, 0);
	char **unbound = NULL;
	size_t nunbound = 0;
	sb_profile *q = sb_profile_bind(p, &b, &unbound, &nunbound);
	cr_assert(eq(sz, nunbound, 0));
	cr_assert(eq(sz, q->nrules, 2), "the all-list rule with an empty list is dropped, not unfiltered");
	cr_assert(eq(sz, q->rules[0]->nfilters, 3));
	cr_assert(eq(str, q->rules[0]->filters[1]->arg->text, "/Users/me/a"));
	cr_assert(eq(str, q->rules[0]->filters[2]->arg->text, "/Users/me/b"));
	cr_assert(eq(sz, q->rules[1]->nfilters, 2), "one ancestor (src) + the append");
	cr_assert(eq(str, q->rules[1]->filters[0]->arg->text, "/Users/me/src"));
	cr_assert(eq(int, q->rules[1]->filters[1]->arg->kind, SB_STR_LIT));
	cr_assert(eq(str, q->rules[1]->filters[1]->arg->text, "/Users/me/.omp"));
	sb_profile_free(q);
	free(unbound);
	sb_bindings_clear(&b);
	sb_profile_free(p);
}

Test(ir, bind_reports_unbound)
{
	sb_profile *p = list_profile();
	sb_bindings b = { 0 };
	char **unbound = NULL;
	size_t n = 0;
	sb_profile *q = sb_profile_bind(p, &b, &unbound, &n);
	cr_assert(ge(sz, n, 3));
	cr_assert(eq(sz, q->nrules, 3), "unbound lists are kept, never dropped");
	for (size_t i = 0; i < n; i++)
		free(unbound[i]);
	free(unbound);
	sb_profile_free(q);
	sb_profile_free(p);
}

Test(ir, expand_lists_macos_form)
{
	sb_profile *p = list_profile();
	sb_bindings b = { 0 }, defs = { 0 };
	sb_bindings_set(&b, "HOME", "/Users/me");
	sb_bindings_set(&b, "WORKSPACE", "/Users/me/x/y/z");
	const char *extras[] = { "/opt/one" };
	sb_bindings_set_list(&b, "EXTRA_READ", extras, 1);
	sb_bindings_set_list(&b, "EXTRA_WRITE", NULL, 0);
	char *missing = NULL;
	sb_profile *q = sb_launch_expand_lists(p, &b, &defs, &missing);
	cr_assert_not_null(q);
	const sb_param *w = &q->rules[0]->filters[0]->arg->param;
	cr_assert(eq(int, w->kind, SB_PARAM_SINGLE));
	cr_assert(eq(str, w->name, "WORKSPACE"));
	const sb_param *e1 = &q->rules[0]->filters[1]->arg->param;
	cr_assert(eq(int, e1->kind, SB_PARAM_LIST));
	cr_assert(eq(str, e1->name, "EXTRA_READ"));
	cr_assert(eq(sz, e1->index, 1));
	const sb_param *a2 = &q->rules[1]->filters[1]->arg->param;
	cr_assert(eq(int, a2->kind, SB_PARAM_ANCESTORS));
	cr_assert(eq(sz, a2->index, 2));
	char *spelled = sb_param_spelling(&q->rules[1]->filters[0]->arg->param);
	cr_assert(eq(str, spelled, "HOME..WORKSPACE_1"));
	free(spelled);
	const sb_binding *d = sb_bindings_get(&defs, "HOME..WORKSPACE_2");
	cr_assert_not_null(d);
	cr_assert(eq(str, d->values[0], "/Users/me/x/y"));
	cr_assert_not_null(sb_bindings_get(&defs, "HOME"));
	cr_assert(eq(str, sb_bindings_get(&defs, "EXTRA_READ_1")->values[0], "/opt/one"));
	sb_profile_free(q);
	sb_bindings_clear(&defs);
	sb_bindings_clear(&b);
	sb_bindings_set(&b, "HOME", "/Users/me");
	q = sb_launch_expand_lists(p, &b, &defs, &missing);
	cr_assert_null(q, "an unbound param refuses the launch form");
	cr_assert_not_null(missing);
	free(missing);
	sb_bindings_clear(&defs);
	sb_bindings_clear(&b);
	sb_profile_free(p);
}

Test(ir, params_sorted_unique)
{
	sb_profile *p = list_profile();
	size_t n;
	sb_param *v = sb_profile_params(p, &n);
	cr_assert(eq(sz, n, 5));
	cr_assert(eq(int, v[0].kind, SB_PARAM_LIST));
	cr_assert(eq(str, v[0].name, "EXTRA_READ"));
	cr_assert(eq(int, v[2].kind, SB_PARAM_SINGLE));
	cr_assert(eq(str, v[2].name, "HOME"));
	cr_assert(eq(int, v[3].kind, SB_PARAM_ANCESTORS));
	cr_assert(eq(str, v[3].name, "HOME"));
	cr_assert(eq(str, v[3].leaf, "WORKSPACE"));
	cr_assert(not(v[3].leaf_list));
	sb_param_array_free(v, n);
	sb_profile_free(p);
}

Test(diag, text_with_caret_and_counts)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	sb_diag *d = sb_diag_new(out, SB_FMT_TEXT);
	const char *src = "line one;\nallow write /;\n";
	const char *f = sb_diag_intern(d, "p.sbx");
	sb_diag_add_source(d, f, src, strlen(src));
	sb_loc loc = { f, 2, 13, 2, 14 };
	sb_diag_report(d, SB_SEV_ERROR, &loc, "wide-root", "write grant on %s", "/");
	sb_diag_report(d, SB_SEV_WARNING, NULL, "x", "no location");
	cr_assert(eq(int, sb_diag_errors(d), 1));
	cr_assert(eq(int, sb_diag_warnings(d), 1));
	sb_diag_free(d);
	fclose(out);
	cr_assert(eq(str, buf,
		     "p.sbx:2:13: error: write grant on / [wide-root]\n"
		     "  allow write /;\n"
		     "              ^\n"
		     "sbc: warning: no location [x]\n"));
	free(buf);
}

Test(diag, json_escapes_and_werror)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	sb_diag *d = sb_diag_new(out, SB_FMT_JSON);
	sb_diag_set_werror(d, true);
	sb_loc loc = { sb_diag_intern(d, "a\"b.sbx"), 1, 2, 0, 0 };
	sb_diag_report(d, SB_SEV_WARNING, &loc, "dead-rule", "bad \x01 \xff byte");
	cr_assert(eq(int, sb_diag_errors(d), 1), "-Werror turns the warning into an error");
	sb_diag_flush(d);
	sb_diag_free(d);
	fclose(out);
	cr_assert_not_null(strstr(buf, "\"severity\": \"error\""));
	cr_assert_not_null(strstr(buf, "\"file\": \"a\\\"b.sbx\""));
	cr_assert_not_null(strstr(buf, "bad \\u0001 \\ufffd byte"));
	free(buf);
}

Test(diag, sarif_has_results_and_related)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	sb_diag *d = sb_diag_new(out, SB_FMT_SARIF);
	sb_loc a = { sb_diag_intern(d, "p.sbx"), 3, 1, 0, 0 }, b = { a.file, 7, 1, 0, 0 };
	sb_diag_report(d, SB_SEV_WARNING, &a, "dead-rule", "rule has no effect");
	sb_diag_note(d, &b, "overridden here");
	sb_diag_flush(d);
	sb_diag_free(d);
	fclose(out);
	cr_assert_not_null(strstr(buf, "\"version\": \"2.1.0\""));
	cr_assert_not_null(strstr(buf, "\"ruleId\": \"dead-rule\""));
	cr_assert_not_null(strstr(buf, "\"relatedLocations\""));
	cr_assert_not_null(strstr(buf, "\"startLine\": 7"));
	free(buf);
}
