#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* Unit tests: the planner's stat cache (runtime/linux/ll_stat.c) answers
 * as lstat, stat and realpath do, on a tree with symlinks it builds, and
 * asks the kernel once per path (a change after the first question is
 * not seen: the cache lives for one plan build).  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/linux/ll_internal.h"
#include "compiler/common/xalloc.h"

static char root[PATH_MAX];

static char *at(const char *rel)
{
	return xasprintf("%s/%s", root, rel);
}

static void setup(void)
{
	char tmpl[] = "/tmp/sb-llstat-XXXXXX";
	cr_assert(mkdtemp(tmpl) != NULL);
	/* realpath of the root itself: /tmp may be a symlink somewhere */
	cr_assert(realpath(tmpl, root) != NULL);
	char *d = at("d"), *f = at("d/f"), *ld = at("ld"), *lf = at("lf"), *dang = at("dang");
	cr_assert(mkdir(d, 0755) == 0);
	FILE *fp = fopen(f, "w");
	cr_assert(fp != NULL);
	fclose(fp);
	cr_assert(symlink("d", ld) == 0);
	cr_assert(symlink("d/f", lf) == 0);
	cr_assert(symlink("nowhere", dang) == 0);
	free(d), free(f), free(ld), free(lf), free(dang);
}

static void teardown(void)
{
	const char *rel[] = { "d/f", "ld", "lf", "dang", "d/new" };
	for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
		char *p = at(rel[i]);
		unlink(p);
		free(p);
	}
	char *d = at("d");
	rmdir(d);
	free(d);
	rmdir(root);
}

/* The cache and the kernel agree on one path: lstat, stat, canonical.  */
static void agree(sb_ll_stats *s, const char *rel)
{
	char *p = at(rel);
	struct stat a, b;
	int ra = lstat(p, &a), ea = errno;
	int rb = sb_ll_lstat(s, p, &b), eb = errno;
	cr_assert(eq(int, ra, rb), "lstat %s", p);
	if (ra == 0)
		cr_assert(a.st_ino == b.st_ino && a.st_mode == b.st_mode, "lstat %s", p);
	else
		cr_assert(eq(int, ea, eb), "lstat errno %s", p);
	ra = stat(p, &a), ea = errno;
	rb = sb_ll_stat(s, p, &b), eb = errno;
	cr_assert(eq(int, ra, rb), "stat %s", p);
	if (ra == 0)
		cr_assert(a.st_ino == b.st_ino && a.st_mode == b.st_mode, "stat %s", p);
	else
		cr_assert(eq(int, ea, eb), "stat errno %s", p);
	char *r = realpath(p, NULL);
	bool canon = r && strcmp(r, p) == 0;
	free(r);
	cr_assert(eq(int, canon, sb_ll_canonical(s, p)), "canonical %s", p);
	free(p);
}

Test(ll_stat, agrees_with_the_kernel, .init = setup, .fini = teardown)
{
	sb_ll_stats *s = sb_ll_stats_new();
	const char *rel[] = { "d", "d/f", "ld", "ld/f", "lf", "dang", "missing", "missing/x",
			      "d/f/x", "d/../d", "d//f", "d/./f", "d/" };
	/* twice: the second answers come from the cache */
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
			agree(s, rel[i]);
	sb_ll_stats_free(s);
	/* without a cache every call asks the kernel */
	for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
		agree(NULL, rel[i]);
}

Test(ll_stat, asks_once_per_build, .init = setup, .fini = teardown)
{
	sb_ll_stats *s = sb_ll_stats_new();
	char *p = at("d/new");
	struct stat st;
	cr_assert(eq(int, sb_ll_lstat(s, p, &st), -1));
	cr_assert(eq(int, errno, ENOENT));
	FILE *fp = fopen(p, "w");
	cr_assert(fp != NULL);
	fclose(fp);
	/* the build that asked first keeps its answer ... */
	cr_assert(eq(int, sb_ll_lstat(s, p, &st), -1));
	sb_ll_stats_free(s);
	/* ... the next build sees the file */
	s = sb_ll_stats_new();
	cr_assert(eq(int, sb_ll_lstat(s, p, &st), 0));
	bool reg = S_ISREG(st.st_mode);
	cr_assert(reg);
	sb_ll_stats_free(s);
	free(p);
}
#endif /* __linux__ */
