#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* Unit tests: complement expansion on a synthetic tree (temp dir), with a
 * denied set D: symlink skip, hard-link skip, file/dir masking.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/linux/ll_internal.h"

#define R (SB_LL_READ_FILE | SB_LL_READ_DIR | SB_LL_EXECUTE)

static char root[256];

/* grant_except semantics: D entries get nothing, their ancestors are mixed */
typedef struct dset {
	char paths[4][512];
	size_t n;
} dset;

static bool is_under(const char *p, const char *r)
{
	size_t n = strlen(r);
	return strncmp(p, r, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

static void classify_d(void *ctx, const char *path, bool is_dir, uint64_t want, uint64_t *all,
		       uint64_t *mixed)
{
	dset *d = ctx;
	*all = want;
	*mixed = 0;
	for (size_t i = 0; i < d->n; i++) {
		if (is_under(path, d->paths[i])) {
			*all = 0;
			*mixed = 0;
			return;
		}
		if (is_under(d->paths[i], path)) {
			*mixed = *all;
			*all = 0;
		}
	}
}

static void mk(const char *rel, const char *content)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	if (content) {
		FILE *f = fopen(p, "w");
		cr_assert_not_null(f);
		fputs(content, f);
		fclose(f);
	} else {
		cr_assert(eq(int, mkdir(p, 0700), 0));
	}
}

static void setup(void)
{
	snprintf(root, sizeof root, "/tmp/sb-ll-expand-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	mk("a", NULL);
	mk("a/secret", NULL);
	mk("a/secret/key", "k");
	mk("a/pub", NULL);
	mk("a/pub/x", "x");
	mk("b", NULL);
	mk("f", "f");
	char t[512], l[512];
	snprintf(t, sizeof t, "%s/a/secret", root);
	snprintf(l, sizeof l, "%s/a/link", root);
	cr_assert(eq(int, symlink(t, l), 0));
	snprintf(t, sizeof t, "%s/a/secret/key", root);
	snprintf(l, sizeof l, "%s/a/hl", root);
	cr_assert(eq(int, link(t, l), 0));
}

static void teardown(void)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	cr_assert(eq(int, system(cmd), 0));
}

static const sb_ll_rule *find(const sb_ll_rules *r, const char *rel)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].path, p) == 0)
			return &r->v[i];
	return NULL;
}

Test(ll_expand, grant_except_skips_denied_links_and_hardlinks, .init = setup, .fini = teardown)
{
	dset d = { .n = 1 };
	snprintf(d.paths[0], sizeof d.paths[0], "%s/a/secret", root);
	sb_ll_rules r = { 0 };
	cr_assert(eq(int, sb_ll_expand(&r, root, R, classify_d, &d), 0));
	cr_assert(eq(sz, r.n, 3), "rules: %zu", r.n);
	cr_assert_not_null(find(&r, "a/pub"));
	cr_assert_not_null(find(&r, "b"));
	const sb_ll_rule *f = find(&r, "f");
	cr_assert_not_null(f);
	cr_assert_not(f->is_dir);
	cr_assert(eq(u64, f->rights, SB_LL_READ_FILE | SB_LL_EXECUTE));   /* no read_dir on a file */
	cr_assert(eq(u64, find(&r, "a/pub")->rights, R));
	cr_assert_null(find(&r, ""));
	cr_assert_null(find(&r, "a"));
	cr_assert_null(find(&r, "a/secret"));
	cr_assert_null(find(&r, "a/link"));
	cr_assert_null(find(&r, "a/hl"));
	cr_assert(eq(sz, r.symlink_skips, 1));
	cr_assert(eq(sz, r.hardlink_skips, 1));
	for (size_t i = 0; i < r.n; i++)
		cr_assert(r.v[i].fd >= 0);
	sb_ll_rules_clear(&r);
}

Test(ll_expand, nothing_denied_is_one_rule, .init = setup, .fini = teardown)
{
	dset d = { .n = 0 };
	sb_ll_rules r = { 0 };
	cr_assert(eq(int, sb_ll_expand(&r, root, R, classify_d, &d), 0));
	cr_assert(eq(sz, r.n, 1));
	cr_assert(eq(str, r.v[0].path, root));
	sb_ll_rules_clear(&r);
}

Test(ll_expand, never_rights_are_stripped, .init = setup, .fini = teardown)
{
	dset d = { .n = 0 };
	sb_ll_rules r = { 0 };
	cr_assert(eq(int, sb_ll_expand(&r, root, R | SB_LL_NEVER | SB_LL_MAKE_REG, classify_d, &d), 0));
	cr_assert(eq(u64, r.v[0].rights & SB_LL_NEVER, 0));
	cr_assert(eq(u64, r.v[0].rights & SB_LL_MAKE_REG, SB_LL_MAKE_REG), "rights %llx n %zu", (unsigned long long)r.v[0].rights, r.n);
	sb_ll_rules_clear(&r);
}

/* A directory expanded around a deny can be empty: no entries, no rules,
 * and no qsort of an empty (NULL) listing (undefined behaviour that the
 * sanitizer build reports).  */
Test(ll_expand, empty_directory_around_a_deny, .init = setup, .fini = teardown)
{
	dset d = { .n = 1 };
	snprintf(d.paths[0], sizeof d.paths[0], "%s/b/never-created", root);
	sb_ll_rules r = { 0 };
	cr_assert(eq(int, sb_ll_expand(&r, root, R, classify_d, &d), 0));
	cr_assert_null(find(&r, "b"), "an expanded directory gets no rule of its own");
	cr_assert_null(find(&r, ""));
	cr_assert_not_null(find(&r, "a"));
	cr_assert_not_null(find(&r, "f"));
	cr_assert(eq(sz, r.n, 2), "rules: %zu", r.n);
	sb_ll_rules_clear(&r);
}

/* Entries that vanish between the listing and their visit get no rule
 * (they stay denied) and do not stop the walk.  */
typedef struct vanish_ctx {
	dset d;
	char trigger[512];
	char victims[2][512];
} vanish_ctx;

static void classify_vanish(void *ctx, const char *path, bool is_dir, uint64_t want,
			    uint64_t *all, uint64_t *mixed)
{
	vanish_ctx *v = ctx;
	if (strcmp(path, v->trigger) == 0) {
		cr_assert(eq(int, unlink(v->victims[0]), 0));
		cr_assert(eq(int, rmdir(v->victims[1]), 0));
	}
	classify_d(&v->d, path, is_dir, want, all, mixed);
}

Test(ll_expand, vanished_entries_get_no_rule, .init = setup, .fini = teardown)
{
	vanish_ctx v = { .d = { .n = 1 } };
	snprintf(v.d.paths[0], sizeof v.d.paths[0], "%s/a/secret", root);
	/* the root's entries are visited in order a, b, f: visiting a removes
	 * b and f, which the listing already holds */
	snprintf(v.trigger, sizeof v.trigger, "%s/a", root);
	snprintf(v.victims[0], sizeof v.victims[0], "%s/f", root);
	snprintf(v.victims[1], sizeof v.victims[1], "%s/b", root);
	sb_ll_rules r = { 0 };
	cr_assert(eq(int, sb_ll_expand(&r, root, R, classify_vanish, &v), 0));
	cr_assert_null(find(&r, "b"));
	cr_assert_null(find(&r, "f"));
	cr_assert_not_null(find(&r, "a/pub"));
	cr_assert(eq(sz, r.n, 1), "rules: %zu", r.n);
	sb_ll_rules_clear(&r);
}

Test(ll_expand, missing_root_fails)
{
	sb_ll_rules r = { 0 };
	cr_assert(eq(int, sb_ll_expand(&r, "/nonexistent/sb-ll", R, classify_d, &(dset){ 0 }), -1));
	sb_ll_rules_clear(&r);
}
/* A names hook: at `root/a` visit only "pub" (and a name that does not
 * exist); everywhere else list the directory.  */
static char **names_pub(void *ctx, const char *dir, size_t *n)
{
	(void)ctx;
	char a[512];
	snprintf(a, sizeof a, "%s/a", root);
	if (strcmp(dir, a) != 0)
		return NULL;
	char **v = malloc(2 * sizeof *v);
	v[0] = strdup("gone");
	v[1] = strdup("pub");
	*n = 2;
	return v;
}

Test(ll_expand, names_hook_visits_only_the_names_given, .init = setup, .fini = teardown)
{
	dset d = { .n = 1 };
	snprintf(d.paths[0], sizeof d.paths[0], "%s/a/secret", root);
	sb_ll_rules r = { 0 };
	cr_assert(eq(int, sb_ll_expand_names(&r, root, R, classify_d, names_pub, &d), 0));
	/* a/pub and b (listed at the root) and f; a/hl (a hard link) and
	 * a/link (a symlink) are never visited, so never counted */
	cr_assert(eq(sz, r.n, 3), "rules: %zu", r.n);
	cr_assert_not_null(find(&r, "a/pub"));
	cr_assert_not_null(find(&r, "b"));
	cr_assert_not_null(find(&r, "f"));
	cr_assert(eq(sz, r.hardlink_skips, 0));
	cr_assert(eq(sz, r.symlink_skips, 0));
	sb_ll_rules_clear(&r);
	/* without the hook the same walk lists a/ and meets both links */
	cr_assert(eq(int, sb_ll_expand(&r, root, R, classify_d, &d), 0));
	cr_assert(eq(sz, r.hardlink_skips, 1));
	cr_assert(eq(sz, r.symlink_skips, 1));
	sb_ll_rules_clear(&r);
}

#endif /* __linux__ */
