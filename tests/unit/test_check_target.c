/* test_check_target.c - symbolic target relations (target.h) and the
 * combined pass runner.  */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/path.h"
#include "compiler/check/target.h"
#include "test_check_fixture.h"

static sbx_place place(sbx_base base, const char *name, const char *rel, bool exact,
		       const sbx_defines *defs)
{
	sbx_target t = { .base = base, .name = (char *)name, .rel = (char *)rel, .exact = exact };
	sbx_place p;
	sbx_place_of(&p, &t, defs);
	return p;
}

Test(check_target, path_relation)
{
	cr_expect_eq(sbx_path_relation("/a/b", "/a/b", false), SBX_PATH_EQUAL);
	cr_expect_eq(sbx_path_relation("/a/b/", "/a//b", false), SBX_PATH_EQUAL);
	cr_expect_eq(sbx_path_relation("/a/b/c", "/a/b", false), SBX_PATH_INSIDE);
	cr_expect_eq(sbx_path_relation("/a", "/a/b", false), SBX_PATH_ABOVE);
	cr_expect_eq(sbx_path_relation("/", "/a", false), SBX_PATH_ABOVE);
	cr_expect_eq(sbx_path_relation("/a/bc", "/a/b", false), SBX_PATH_UNRELATED);
	cr_expect_eq(sbx_path_relation("/A/b", "/a/b", false), SBX_PATH_UNRELATED);
	cr_expect_eq(sbx_path_relation("/A/b", "/a/b", true), SBX_PATH_EQUAL);
	cr_expect_eq(sbx_path_relation("", ".ssh", false), SBX_PATH_ABOVE);
	cr_expect_eq(sbx_path_relation("./x", "x", false), SBX_PATH_EQUAL);
	cr_expect_str_eq(sbx_path_below("/a/b/c/d", "/a/b", false), "c/d");
	cr_expect_str_eq(sbx_path_below("/a/b", "/a/b/", false), "");
	cr_expect_null(sbx_path_below("/a/bc", "/a/b", false));
	cr_expect(sb_path_has_dotdot("/a/../b"));
	cr_expect(sb_path_has_dotdot(".."));
	cr_expect_not(sb_path_has_dotdot("/a/..b/c.."));
}

Test(check_target, covers_and_overlaps_same_base)
{
	sbx_place home = place(SBX_BASE_HOME, NULL, "", false, NULL);
	sbx_place omp = place(SBX_BASE_HOME, NULL, ".omp", false, NULL);
	sbx_place home_node = place(SBX_BASE_HOME, NULL, "", true, NULL);
	sbx_place other = place(SBX_BASE_HOME, NULL, ".ompx", false, NULL);
	cr_expect_eq(sbx_place_covers(&home, &omp, false), SBX_YES);
	cr_expect_eq(sbx_place_covers(&omp, &home, false), SBX_NO);
	cr_expect_eq(sbx_place_overlaps(&omp, &home, false), SBX_YES);
	cr_expect_eq(sbx_place_covers(&home, &home_node, false), SBX_YES);
	cr_expect_eq(sbx_place_covers(&home_node, &home, false), SBX_NO);
	cr_expect_eq(sbx_place_overlaps(&home_node, &omp, false), SBX_NO);
	cr_expect_eq(sbx_place_overlaps(&other, &omp, false), SBX_NO);
	sbx_place_clear(&home);
	sbx_place_clear(&omp);
	sbx_place_clear(&home_node);
	sbx_place_clear(&other);
}

Test(check_target, different_bases_are_maybe)
{
	sbx_place home = place(SBX_BASE_HOME, NULL, "", false, NULL);
	sbx_place ws = place(SBX_BASE_WORKSPACE, NULL, "", false, NULL);
	sbx_place users = place(SBX_BASE_ABS, NULL, "/Users", false, NULL);
	sbx_place root = place(SBX_BASE_ABS, NULL, "/", false, NULL);
	sbx_place list = place(SBX_BASE_LIST, "EXTRA_READ", "", false, NULL);
	cr_expect_eq(sbx_place_overlaps(&home, &ws, false), SBX_MAYBE);
	cr_expect_eq(sbx_place_covers(&home, &ws, false), SBX_MAYBE);
	cr_expect_eq(sbx_place_covers(&users, &home, false), SBX_MAYBE);
	cr_expect_eq(sbx_place_covers(&root, &home, false), SBX_YES);
	cr_expect_eq(sbx_place_covers(&root, &list, false), SBX_YES);
	cr_expect_eq(sbx_place_covers(&list, &home, false), SBX_MAYBE);
	cr_expect_eq(sbx_place_overlaps(&list, &root, false), SBX_MAYBE);
	sbx_place_clear(&home);
	sbx_place_clear(&ws);
	sbx_place_clear(&users);
	sbx_place_clear(&root);
	sbx_place_clear(&list);
}

Test(check_target, defines_resolve_roots)
{
	sb_bindings b = { 0 };
	sb_bindings_set(&b, "HOME", "/Users/me/");
	sb_bindings_set(&b, "WORKSPACE", "relative/not/used");
	sbx_place h = place(SBX_BASE_HOME, NULL, ".ssh", false, &b);
	sbx_place w = place(SBX_BASE_WORKSPACE, NULL, "x", false, &b);
	cr_expect_eq(h.kind, SBX_PLACE_ABS);
	cr_expect_str_eq(h.path, "/Users/me/.ssh");
	cr_expect_eq(w.kind, SBX_PLACE_ROOT);
	char *s = sbx_place_str(&w);
	cr_expect_str_eq(s, "workspace/x");
	free(s);
	sbx_place_clear(&h);
	sbx_place_clear(&w);
	sb_bindings_clear(&b);
}

Test(check_target, place_spelling)
{
	sbx_place a = place(SBX_BASE_HOME, NULL, "", true, NULL);
	sbx_place b = place(SBX_BASE_PARAM, "P", "q", false, NULL);
	sbx_place c = place(SBX_BASE_LIST, "EXTRA_READ", "", false, NULL);
	sbx_place d;
	sbx_place_of(&d, NULL, NULL);
	char *sa = sbx_place_str(&a), *sb = sbx_place_str(&b), *sc = sbx_place_str(&c),
	     *sd = sbx_place_str(&d);
	cr_expect_str_eq(sa, "exactly ~");
	cr_expect_str_eq(sb, "$P/q");
	cr_expect_str_eq(sc, "$EXTRA_READ");
	cr_expect_str_eq(sd, "everywhere");
	free(sa), free(sb), free(sc), free(sd);
	sbx_place_clear(&a), sbx_place_clear(&b), sbx_place_clear(&c), sbx_place_clear(&d);
}

Test(check_target, conventional_homes)
{
	const char *rel = NULL;
	cr_expect_eq(sbx_abs_home_pos("/", NULL, &rel), SBX_HOME_ABOVE);
	cr_expect_eq(sbx_abs_home_pos("/Users", NULL, &rel), SBX_HOME_ABOVE);
	cr_expect_eq(sbx_abs_home_pos("/private", NULL, &rel), SBX_HOME_ABOVE);
	cr_expect_eq(sbx_abs_home_pos("/System", NULL, &rel), SBX_HOME_OUTSIDE);
	cr_expect_eq(sbx_abs_home_pos("/home/ann/.ssh/k", NULL, &rel), SBX_HOME_INSIDE);
	cr_expect_str_eq(rel, ".ssh/k");
	cr_expect_eq(sbx_abs_home_pos("/Users/ann", NULL, &rel), SBX_HOME_INSIDE);
	cr_expect_str_eq(rel, "");
	cr_expect_eq(sbx_abs_home_pos("/Users/Shared/x", NULL, &rel), SBX_HOME_OUTSIDE);
	cr_expect_eq(sbx_abs_home_pos("/var/root/.aws", NULL, &rel), SBX_HOME_INSIDE);
	cr_expect_eq(sbx_abs_home_pos("/usr/local", NULL, &rel), SBX_HOME_OUTSIDE);
	cr_expect_eq(sbx_abs_home_pos("/Users", "/srv/u", &rel), SBX_HOME_OUTSIDE);
	cr_expect_eq(sbx_abs_home_pos("/srv", "/srv/u", &rel), SBX_HOME_ABOVE);
}

Test(check_target, access_names_and_atoms)
{
	char buf[64];
	cr_expect_str_eq(sbx_access_name(SBX_ACC_READ, buf, sizeof buf), "read");
	cr_expect_str_eq(sbx_access_name(SBX_ACC_READ | SBX_ACC_WRITE, buf, sizeof buf), "read and write");
	cr_expect_str_eq(sbx_access_name(SBX_ACC_READ | SBX_ACC_WRITE | SBX_ACC_EXEC, buf, sizeof buf),
			 "read, write and exec");
	cr_expect_eq(sbx_atoms(SBX_ACC_READ), SBX_ATOM_DATA | SBX_ATOM_META);
	cr_expect_eq(sbx_atoms(SBX_ACC_STAT), SBX_ATOM_META);
}

Test(check_target, check_all_counts_errors_from_every_pass)
{
	fx f;
	fx_init(&f, "a.sbx");
	fx_add(&f, 1, "default deny");
	fx_add(&f, 2, "allow read ~/.ssh");            /* sensitive */
	fx_add(&f, 3, "allow write /");                /* wide (and sensitive) */
	fx_add(&f, 4, "allow read $NOPE");             /* undefined */
	fx_add(&f, 5, "allow read /usr ack=wide why=");/* empty reason; needless ack */
	int errors = fx_run(&f, sb_check_all);
	cr_expect_eq(errors, 5, "%s", f.buf);
	cr_expect(strstr(f.buf, "[undefined]") && strstr(f.buf, "[wide-root]") &&
		  strstr(f.buf, "[sensitive]") && strstr(f.buf, "[empty]"), "%s", f.buf);
	/* names first, then sensitive, wide, order */
	cr_expect_lt(strstr(f.buf, "[undefined]"), strstr(f.buf, "[sensitive]"));
	cr_expect_lt(strstr(f.buf, "[sensitive]"), strstr(f.buf, "[wide-root]"));
	fx_clear(&f);
}

Test(check_target, json_records_code_and_location)
{
	fx f;
	fx_init_fmt(&f, "j.sbx", SB_FMT_JSON);
	fx_add(&f, 1, "default allow");
	fx_add(&f, 2, "deny read write home");
	fx_add(&f, 3, "allow read ~/.omp");
	fx_add(&f, 4, "allow write ~/.aws");
	cr_expect_eq(fx_run(&f, sb_check_all), 1);
	cr_expect(strstr(f.buf, "\"severity\": \"error\", \"code\": \"sensitive\", \"message\": "
			  "\"write grant on ~/.aws reaches the sensitive location ~/.aws") != NULL, "%s", f.buf);
	cr_expect(strstr(f.buf, "\"file\": \"j.sbx\", \"line\": 4, \"column\": 13") != NULL, "%s", f.buf);
	cr_expect(strstr(f.buf, "\"file\": \"j.sbx\", \"line\": 3, \"column\": 1}") == NULL, "%s", f.buf);
	fx_clear(&f);
}
