/* Unit tests for runtime/common/cmdpath.c: PATH search without relative entries,
 * interpreter lines (defect D12 and the relative-entry fix, docs/migration.md).  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/common/cmdpath.h"

static char root[256];

static void put(const char *rel, const char *text, mode_t mode)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	FILE *f = fopen(p, "w");
	cr_assert(not(eq(ptr, f, NULL)), "%s", p);
	fputs(text, f);
	fclose(f);
	chmod(p, mode);
}

static char *at(const char *rel)
{
	char *s;
	cr_assert(asprintf(&s, "%s/%s", root, rel) > 0);
	return s;
}

static void setup(void)
{
	strcpy(root, "/tmp/sbx-cmd-XXXXXX");
	cr_assert(not(eq(ptr, mkdtemp(root), NULL)));
	char *a = at("a"), *b = at("b");
	mkdir(a, 0755);
	mkdir(b, 0755);
	free(a);
	free(b);
	put("a/tool", "#!/bin/sh\n", 0644);          /* not executable */
	put("b/tool", "#!/bin/sh\n", 0755);
	put("b/omp", "#!/usr/bin/env bun\nconsole.log(1)\n", 0755);
	put("b/envs", "#!/usr/bin/env -S FOO=1 bun --smol\n", 0755);
	put("b/bun", "\x7f" "ELF", 0755);
	put("b/direct", "#!/bin/sh -e\n", 0755);
	put("b/gone", "#!/nonexistent/interp\n", 0755);
	put("b/nobun", "#!/usr/bin/env sbx-no-such-interpreter\n", 0755);
}

static void teardown(void)
{
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	cr_assert(eq(int, system(cmd), 0));
}

TestSuite(cmdpath, .init = setup, .fini = teardown);

Test(cmdpath, absolute_entries_in_order_skipping_non_executables)
{
	char path[700];
	snprintf(path, sizeof path, "%s/a:%s/b", root, root);
	char *r = sb_cmd_resolve("tool", path, NULL), *want = at("b/tool");
	cr_assert(eq(str, r, want));
	free(r);
	free(want);
	cr_assert(eq(ptr, sb_cmd_resolve("missing", path, NULL), NULL));
	cr_assert(eq(ptr, sb_cmd_resolve("tool", NULL, NULL), NULL));
}

Test(cmdpath, relative_entries_ignored)
{
	char cwd[400];
	cr_assert(not(eq(ptr, getcwd(cwd, sizeof cwd), NULL)));
	char *b = at("b");
	cr_assert(eq(int, chdir(b), 0));
	cr_assert(eq(ptr, sb_cmd_resolve("tool", ".::b", NULL), NULL));
	cr_assert(eq(ptr, sb_cmd_resolve("tool", "", NULL), NULL));
	cr_assert(eq(int, chdir(cwd), 0));
	free(b);
}

Test(cmdpath, names_with_a_slash)
{
	char *want = at("b/tool");
	char *r = sb_cmd_resolve(want, "/nonexistent", NULL);
	cr_assert(eq(str, r, want));
	free(r);
	r = sb_cmd_resolve("b/tool", NULL, root);
	cr_assert(eq(str, r, want));
	free(r);
	free(want);
}

Test(cmdpath, interpreters)
{
	char path[400];
	snprintf(path, sizeof path, "%s/b", root);
	char *omp = at("b/omp"), *bun = at("b/bun"), *missing;
	char *r = sb_cmd_interpreter(omp, path, &missing);
	cr_assert(eq(str, r, bun));
	free(r);
	char *envs = at("b/envs");
	r = sb_cmd_interpreter(envs, path, &missing);
	cr_assert(eq(str, r, bun));
	free(r);
	char *direct = at("b/direct");
	r = sb_cmd_interpreter(direct, path, &missing);
	cr_assert(eq(str, r, "/bin/sh"));
	free(r);
	cr_assert(eq(ptr, sb_cmd_interpreter(bun, path, &missing), NULL));
	cr_assert(eq(ptr, missing, NULL));
	char *gone = at("b/gone"), *nobun = at("b/nobun");
	cr_assert(eq(ptr, sb_cmd_interpreter(gone, path, &missing), NULL));
	cr_assert(eq(str, missing, "/nonexistent/interp"));
	free(missing);
	cr_assert(eq(ptr, sb_cmd_interpreter(nobun, path, &missing), NULL));
	cr_assert(eq(str, missing, "sbx-no-such-interpreter"));
	free(missing);
	free(omp);
	free(bun);
	free(envs);
	free(direct);
	free(gone);
	free(nobun);
}
