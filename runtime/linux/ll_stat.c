#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* ll_stat.c - the planner's stat cache: one lstat per path for one plan
 * build (sb_ll_plan_build in ll_plan.c makes and frees it).  The
 * candidates, the aliases and the masks planner asked the same paths
 * again and again (bench/analysis.md, section 2).  It is never kept past
 * the plan: what runs after planning (the masks' dev/ino check when they
 * are applied, ll_masks.c) asks the kernel itself.  */
#include "runtime/linux/ll_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/common/strmap.h"
#include "compiler/common/xalloc.h"

/* What the planner reads of a node (type, device, inode): a whole
 * struct stat per path, twice, cost the launch more page faults than the
 * calls it saved (bench/analysis.md, section 2).  */
typedef struct node {
	mode_t mode;
	dev_t dev;
	ino_t ino;
} node;

typedef struct entry {
	int lerr;          /* lstat's errno, 0 when it succeeded */
	int serr;          /* stat's, when have_s */
	bool have_s;
	node l, s;
} entry;

static node node_of(const struct stat *st)
{
	return (node){ st->st_mode, st->st_dev, st->st_ino };
}

static void fill(struct stat *st, const node *n)
{
	memset(st, 0, sizeof *st);
	st->st_mode = n->mode;
	st->st_dev = n->dev;
	st->st_ino = n->ino;
}

struct sb_ll_stats {
	sb_strmap *m;
};

sb_ll_stats *sb_ll_stats_new(void)
{
	sb_ll_stats *s = xcalloc(1, sizeof *s);
	s->m = sb_strmap_new();
	return s;
}

void sb_ll_stats_free(sb_ll_stats *s)
{
	if (!s)
		return;
	sb_strmap_each(s->m, free);
	sb_strmap_free(s->m);
	free(s);
}

static entry *get(sb_ll_stats *s, const char *p)
{
	void **slot = sb_strmap_slot(s->m, p, strlen(p), true);
	if (!*slot) {
		entry *e = xcalloc(1, sizeof *e);
		struct stat st;
		e->lerr = lstat(p, &st) < 0 ? errno : 0;
		if (!e->lerr)
			e->l = node_of(&st);
		*slot = e;
	}
	return *slot;
}

int sb_ll_lstat(sb_ll_stats *s, const char *p, struct stat *st)
{
	if (!s)
		return lstat(p, st);
	entry *e = get(s, p);
	if (e->lerr) {
		errno = e->lerr;
		return -1;
	}
	fill(st, &e->l);
	return 0;
}

int sb_ll_stat(sb_ll_stats *s, const char *p, struct stat *st)
{
	if (!s)
		return stat(p, st);
	entry *e = get(s, p);
	/* stat differs from lstat only at a symlink: where lstat fails, the
	 * same lookup fails for stat too */
	if (e->lerr || !S_ISLNK(e->l.mode))
		return sb_ll_lstat(s, p, st);
	if (!e->have_s) {
		struct stat sst;
		e->serr = stat(p, &sst) < 0 ? errno : 0;
		if (!e->serr)
			e->s = node_of(&sst);
		e->have_s = true;
	}
	if (e->serr) {
		errno = e->serr;
		return -1;
	}
	fill(st, &e->s);
	return 0;
}

/* p is absolute, with no empty, "." or ".." component and no trailing
 * slash: then realpath(p) is p exactly when no component is a symlink.  */
static bool plain_spelling(const char *p)
{
	if (p[0] != '/')
		return false;
	if (p[1] == '\0')
		return true;
	for (const char *c = p + 1;;) {
		const char *e = strchr(c, '/');
		size_t n = e ? (size_t)(e - c) : strlen(c);
		if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		if (!e)
			return true;
		c = e + 1;
	}
}

bool sb_ll_canonical(sb_ll_stats *s, const char *p)
{
	if (!s || !plain_spelling(p)) {
		char *r = realpath(p, NULL);
		bool same = r && strcmp(r, p) == 0;
		free(r);
		return same;
	}
	size_t n = strlen(p);
	char *buf = xmalloc(n + 1);
	memcpy(buf, p, n + 1);
	bool ok = true;
	/* every prefix ending before a '/' (the ancestors) and p itself */
	for (size_t i = 1; i <= n && ok; i++) {
		if (i < n && buf[i] != '/')
			continue;
		char c = buf[i];
		buf[i] = '\0';
		struct stat st;
		ok = sb_ll_lstat(s, buf, &st) == 0 && !S_ISLNK(st.st_mode);
		buf[i] = c;
	}
	free(buf);
	return ok;
}
#endif /* __linux__ */
