#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* ll_masks.c - which denies the plan enforces with masks (mounts in a
 * private mount namespace) instead of the complement expansion
 * (docs/linux.md, "Masks").
 *
 * A mask point is an existing path where the policy takes away rights that
 * the tree around it has ("deny read ~/.env" inside a readable workspace).
 * The mount there removes those rights (sb_ll_mask.removed); the planner
 * then adds the same rights back to what decide() allows inside the mask
 * before it places Landlock rules (sb_ll_masks_addback), so the tree
 * around the mask is uniform and gets one rule.  Sound by construction:
 * kernel = Landlock rules minus what the mount removes
 *        <= (decide | removed) - removed <= decide.  */
#include "runtime/linux/ll_internal.h"
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define R_READ (SB_LL_READ_FILE | SB_LL_READ_DIR)
#define R_WRITE (SB_LL_WRITE_FILE | SB_LL_TRUNCATE)
#define R_CREATE (SB_LL_MAKE_REG | SB_LL_MAKE_DIR | SB_LL_MAKE_SYM | SB_LL_MAKE_FIFO | SB_LL_MAKE_SOCK)
#define R_UNLINK (SB_LL_REMOVE_FILE | SB_LL_REMOVE_DIR)
#define R_ALL (R_READ | SB_LL_EXECUTE | R_WRITE | R_CREATE | R_UNLINK | SB_LL_REFER)
#define R_MODIFY (R_WRITE | R_CREATE | R_UNLINK | SB_LL_REFER)
/* a mount point cannot be renamed, removed or replaced (EBUSY) */
#define R_NODE (R_CREATE | R_UNLINK | SB_LL_REFER)

static char *parent_of(const char *p)
{
	char *d = xstrdup(p);
	char *s = strrchr(d, '/');
	if (s == d)
		s[1] = '\0';
	else if (s)
		*s = '\0';
	return d;
}

const char *sb_ll_mask_kind_name(const sb_ll_mask *m)
{
	switch (m->kind) {
	case SB_MASK_HIDE:
		return m->is_dir ? "hide-dir" : "hide-file";
	case SB_MASK_BIND:
		return m->rdonly ? (m->noexec ? "ro-noexec" : "read-only") : "noexec";
	case SB_MASK_PIN:
		return "pin";
	case SB_MASK_GATE:
		return "gate";
	default:
		return "dev";
	}
}

void sb_ll_masks_clear(sb_ll_masks *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].path);
		free(m->v[i].why);
		for (size_t k = 0; k < m->v[i].nexpose; k++)
			free(m->v[i].expose[k].path);
		free(m->v[i].expose);
	}
	free(m->v);
	memset(m, 0, sizeof *m);
}

/* Bound back in: a directory with its subtree, a file only itself (a
 * "child" of a file is a point that cannot exist).  */
static bool exposed(const sb_ll_mask *m, const char *p)
{
	for (size_t k = 0; k < m->nexpose; k++)
		if (m->expose[k].is_dir ? sb_path_is_under(p, m->expose[k].path)
					: strcmp(p, m->expose[k].path) == 0)
			return true;
	return false;
}

uint64_t sb_ll_masks_addback(const sb_ll_masks *ms, const char *point)
{
	uint64_t add = 0;
	for (size_t i = 0; i < ms->n; i++) {
		const sb_ll_mask *m = &ms->v[i];
		if (strcmp(point, m->path) == 0)
			add |= m->removed_node;
		else if (sb_path_is_strictly_under(point, m->path) && m->kind != SB_MASK_PIN &&
			 !exposed(m, point))
			add |= m->removed;
	}
	return add;
}

static bool in_private_shm(const sb_ll_mask *m, const char *p)
{
	return m->kind == SB_MASK_DEV && m->private_shm && sb_path_is_under(p, "/dev/shm");
}

uint64_t sb_ll_masks_taken(const sb_ll_masks *ms, const char *p)
{
	uint64_t t = 0;
	for (size_t i = 0; i < ms->n; i++) {
		const sb_ll_mask *m = &ms->v[i];
		if (in_private_shm(m, p))
			continue;   /* its own tmpfs: the Landlock rule decides */
		if (strcmp(p, m->path) == 0)
			t |= m->removed_node;
		else if (sb_path_is_strictly_under(p, m->path) && m->kind != SB_MASK_PIN && !exposed(m, p))
			t |= m->removed;
	}
	return t;
}

bool sb_ll_masks_absent(const sb_ll_masks *ms, const char *p)
{
	for (size_t i = 0; i < ms->n; i++) {
		const sb_ll_mask *m = &ms->v[i];
		if ((m->kind != SB_MASK_HIDE && m->kind != SB_MASK_DEV) || !m->is_dir ||
		    !sb_path_is_strictly_under(p, m->path) || exposed(m, p) || in_private_shm(m, p))
			continue;
		bool way = false;   /* a directory on the way to a path bound back */
		for (size_t k = 0; k < m->nexpose && !way; k++)
			way = sb_path_is_strictly_under(m->expose[k].path, p);
		if (!way)
			return true;
	}
	return false;
}

int sb_ll_masks_hidden(const sb_ll_masks *ms, const char *p)
{
	int h = 0;
	for (size_t i = 0; i < ms->n; i++) {
		const sb_ll_mask *m = &ms->v[i];
		if ((m->kind != SB_MASK_HIDE && m->kind != SB_MASK_DEV) || !sb_path_is_under(p, m->path) ||
		    exposed(m, p))
			continue;
		h = h ? h : 1;
		for (size_t k = 0; k < m->nexpose; k++)
			if (sb_path_is_strictly_under(m->expose[k].path, p))
				h = 2;
	}
	return h;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **sb_ll_masks_names_below(const sb_ll_masks *ms, const char *dir, size_t *n)
{
	char **names = NULL;
	size_t cap = 0;
	*n = 0;
	size_t skip = strcmp(dir, "/") == 0 ? 1 : strlen(dir) + 1;
	for (size_t i = 0; i < ms->n; i++) {
		const sb_ll_mask *m = &ms->v[i];
		if (m->kind != SB_MASK_HIDE && m->kind != SB_MASK_DEV)
			continue;
		for (size_t k = 0; k < m->nexpose; k++) {
			const char *e = m->expose[k].path;
			if (!sb_path_is_strictly_under(e, dir))
				continue;
			const char *first = e + skip;
			const char *slash = strchr(first, '/');
			size_t len = slash ? (size_t)(slash - first) : strlen(first);
			bool seen = false;
			for (size_t j = 0; j < *n && !seen; j++)
				seen = strlen(names[j]) == len && strncmp(names[j], first, len) == 0;
			if (seen)
				continue;
			SB_GROW(names, *n, cap, 8);
			names[(*n)++] = xstrndup(first, len);
		}
	}
	if (*n > 1)
		qsort(names, *n, sizeof *names, cmp_name);
	return names;
}

/* Is `p` hidden by a HIDE or DEV mask already planned (and not bound back)?  */
static const sb_ll_mask *hidden_by(const sb_ll_masks *ms, const char *p)
{
	for (size_t i = 0; i < ms->n; i++) {
		const sb_ll_mask *m = &ms->v[i];
		if ((m->kind == SB_MASK_HIDE || m->kind == SB_MASK_DEV) &&
		    sb_path_is_strictly_under(p, m->path) && !exposed(m, p))
			return m;
	}
	return NULL;
}

/* The path exists, is no symlink, and is reached through no symlink.  */
static bool maskable_path(sb_ll_stats *stats, const char *p, struct stat *st, const char **why)
{
	if (sb_ll_lstat(stats, p, st) < 0) {
		*why = "does not exist";
		return false;
	}
	if (S_ISLNK(st->st_mode)) {
		*why = "is a symlink";
		return false;
	}
	if (!sb_ll_canonical(stats, p)) {
		*why = "is reached through a symlink";
		return false;
	}
	if (!S_ISDIR(st->st_mode) && !S_ISREG(st->st_mode)) {
		*why = "is not a file or directory";
		return false;
	}
	return true;
}

static sb_ll_mask *add_mask(sb_ll_masks *ms, const char *path, sb_mask_kind kind,
			    const struct stat *st)
{
	SB_GROW(ms->v, ms->n, ms->cap, 8);
	sb_ll_mask *m = &ms->v[ms->n++];
	memset(m, 0, sizeof *m);
	m->path = xstrdup(path);
	m->kind = kind;
	m->is_dir = S_ISDIR(st->st_mode);
	m->dev = (unsigned long)st->st_dev;
	m->ino = (unsigned long)st->st_ino;
	return m;
}

static void add_expose(sb_ll_mask *m, const char *path, const struct stat *st)
{
	SB_GROW(m->expose, m->nexpose, m->cap_expose, 4);
	m->expose[m->nexpose++] = (sb_ll_expose){ xstrdup(path), S_ISDIR(st->st_mode),
						  (unsigned long)st->st_dev,
						  (unsigned long)st->st_ino };
}

/* Set kind, flags and removed rights from what is taken at the node and
 * below it; false when no mask expresses it (a literal directory whose
 * listing alone is denied).  */
static bool choose_kind(sb_ll_mask *m, uint64_t t_node, uint64_t t_sub)
{
	uint64_t t = m->is_dir ? t_sub : t_node;
	if (t & SB_LL_READ_FILE || (m->is_dir && (t & SB_LL_READ_DIR))) {
		m->kind = SB_MASK_HIDE;
		m->removed = R_ALL | SB_LL_IOCTL_DEV;
	} else if (t & (R_MODIFY | SB_LL_EXECUTE)) {
		m->kind = SB_MASK_BIND;
		m->rdonly = (t & R_MODIFY) != 0;
		m->noexec = (t & SB_LL_EXECUTE) != 0;
		m->removed = (m->rdonly ? R_MODIFY : 0) | (m->noexec ? SB_LL_EXECUTE : 0);
	} else if (m->is_dir && !(t_node & (R_READ | SB_LL_EXECUTE))) {
		m->kind = SB_MASK_PIN;     /* only the node: no rename, no replace */
		m->removed = 0;
		m->removed_node = R_NODE | R_WRITE;
		return true;
	} else {
		return false;
	}
	m->removed_node = m->removed | R_NODE;
	return true;
}

static void note(sb_ll_rules *r, const char *fmt, const char *a, const char *b)
{
	sb_ll_rules_note(r, SB_LL_NOTE_NARROWER, NULL, 0, fmt, a, b);
}

static int cmp_mask(const void *a, const void *b)
{
	return strcmp(((const sb_ll_mask *)a)->path, ((const sb_ll_mask *)b)->path);
}

static const char *const dev_allow[] = {
	"/dev/full", "/dev/null", "/dev/ptmx", "/dev/pts", "/dev/random", "/dev/shm",
	"/dev/tty", "/dev/urandom", "/dev/zero",
};

size_t sb_ll_masks_mounts(const sb_ll_masks *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++)
		n += m->v[i].kind != SB_MASK_GATE;
	return n;
}

size_t sb_ll_masks_gated(const sb_ll_masks *m)
{
	return m->n - sb_ll_masks_mounts(m);
}

static void push_inode(sb_gate_inode **out, size_t *n, size_t *cap, const struct stat *st)
{
	for (size_t i = 0; i < *n; i++)
		if ((*out)[i].dev == (unsigned long)st->st_dev &&
		    (*out)[i].ino == (unsigned long)st->st_ino)
			return;
	SB_GROW(*out, *n, *cap, 8);
	(*out)[(*n)++] = (sb_gate_inode){ (unsigned long)st->st_dev, (unsigned long)st->st_ino };
}

/* Files with other names below a gated directory (never following a
 * symlink), at most *budget entries.  */
static void inodes_below(int dir, sb_gate_inode **out, size_t *n, size_t *cap, size_t *budget)
{
	DIR *d = fdopendir(dir);
	if (!d) {
		close(dir);
		return;
	}
	struct dirent *e;
	while (*budget && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		(*budget)--;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISREG(st.st_mode) && st.st_nlink > 1)
			push_inode(out, n, cap, &st);
		else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				inodes_below(sub, out, n, cap, budget);
		}
	}
	closedir(d);
}

void sb_ll_masks_gate_inodes(const sb_ll_masks *m, sb_gate_inode **out, size_t *n, size_t cap)
{
	*out = NULL;
	*n = 0;
	size_t budget = cap, room = 0;
	for (size_t i = 0; i < m->n; i++) {
		const sb_ll_mask *g = &m->v[i];
		struct stat st;
		/* absent when planned (dev and ino 0, sb_ll_masks_plan): nothing
		 * of the sandbox runs yet to have made it since, and the gate
		 * refuses its creation by name */
		if (g->kind != SB_MASK_GATE || (!g->dev && !g->ino) || lstat(g->path, &st) < 0)
			continue;
		if (S_ISREG(st.st_mode) && st.st_nlink > 1)
			push_inode(out, n, &room, &st);
		else if (S_ISDIR(st.st_mode)) {
			int fd = open(g->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0)
				inodes_below(fd, out, n, &room, &budget);
		}
	}
}

void sb_ll_masks_plan(sb_ll_plan *plan, const sb_ll_mask_input *in)
{
	sb_ll_masks *ms = &plan->masks;
	/* forced denies first: a candidate below a hidden runtime dir is hidden */
	for (size_t j = 0; j < in->ncand + in->nforced; j++) {
		bool forced = j < in->nforced;
		size_t i = forced ? j + in->ncand : j - in->nforced;
		const char *c = forced ? in->forced[i - in->ncand] : in->cand[i];
		if (strcmp(c, "/") == 0 || (!forced && sb_path_is_under(c, "/dev")) || (forced && !in->mounts))
			continue;
		if (hidden_by(ms, c)) {
			if (forced)
				in->forced_masked[i - in->ncand] = true;
			continue;
		}
		char *par = parent_of(c);
		uint64_t up = in->allowed_below(in->ctx, par) & R_ALL;
		free(par);
		struct stat st;
		const char *why = NULL;
		if (forced && strcmp(c, "/dev") == 0) {
			if (!(up & R_READ) || sb_ll_lstat(in->stats, c, &st) < 0 || !S_ISDIR(st.st_mode))
				continue;
			sb_ll_mask *m = add_mask(ms, c, SB_MASK_DEV, &st);
			m->removed = R_ALL | SB_LL_IOCTL_DEV;
			m->removed_node = R_MODIFY | SB_LL_EXECUTE;
			m->why = xstrdup("devices: only the allowlist is bound in");
			/* POSIX shared memory (shm_open, Python's multiprocessing,
			 * Criterion) gets a tmpfs of its own: it works, and nothing
			 * in it is shared with processes outside (docs/linux.md) */
			m->private_shm = !in->allow_shm;
			for (size_t k = 0; k < sizeof dev_allow / sizeof *dev_allow; k++) {
				struct stat ds;
				if (strcmp(dev_allow[k], "/dev/shm") == 0 && !in->allow_shm)
					continue;
				if (sb_ll_lstat(in->stats, dev_allow[k], &ds) == 0 && !S_ISLNK(ds.st_mode))
					add_expose(m, dev_allow[k], &ds);
			}
			for (size_t k = 0; k < in->nterminals; k++) {
				struct stat ds;
				const char *t = in->terminals[k];
				if (sb_ll_extra_terminal(t) && sb_ll_lstat(in->stats, t, &ds) == 0 &&
				    S_ISCHR(ds.st_mode))
					add_expose(m, t, &ds);
			}
			in->forced_masked[i - in->ncand] = true;
			continue;
		}
		uint64_t t_node, t_sub;
		if (forced) {
			t_node = t_sub = up & in->forced_mask[i - in->ncand];
		} else {
			uint64_t an = in->allowed(in->ctx, c);
			uint64_t ag = in->allowed_below(in->ctx, c);
			t_node = up & ~an;
			t_sub = up & ~ag;
		}
		if (!(t_node | t_sub))
			continue;
		if (!forced && in->gate && !((t_node | t_sub) & ~R_MODIFY)) {
			/* writes only: the gate decides them by name, at every
			 * call, whatever the path is or becomes */
			bool there = sb_ll_lstat(in->stats, c, &st) == 0;
			if (!there)
				memset(&st, 0, sizeof st);
			sb_ll_mask *m = add_mask(ms, c, SB_MASK_GATE, &st);
			m->is_dir = there && S_ISDIR(st.st_mode);
			m->removed = m->removed_node = R_MODIFY;
			m->why = xstrdup(there ? "deny write" : "deny write; absent: its creation too");
			in->src(in->ctx, c, &m->src_file, &m->src_line);
			continue;
		}
		if (!in->mounts)
			continue;
		if (!maskable_path(in->stats, c, &st, &why)) {
			note(&plan->r, "%s: not masked (it %s): the complement expansion enforces "
				       "this deny", c, why);
			if (strcmp(why, "does not exist") == 0 && !forced)
				in->missing(in->ctx, c);
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			t_sub = t_node;
		sb_ll_mask probe = { .is_dir = S_ISDIR(st.st_mode) };
		if (!choose_kind(&probe, t_node, t_sub)) {
			note(&plan->r, "%s: not masked (%s): the complement expansion enforces it", c,
			     "a listing-only deny of a directory");
			continue;
		}
		sb_ll_mask *m = add_mask(ms, c, probe.kind, &st);
		m->rdonly = probe.rdonly;
		m->noexec = probe.noexec;
		m->removed = probe.removed;
		m->removed_node = probe.removed_node;
		if (forced) {
			m->why = xstrdup(in->forced_why ? in->forced_why[i - in->ncand] : "forced deny");
			in->forced_masked[i - in->ncand] = true;
		} else {
			m->why = xstrdup(t_sub & R_READ || t_node & SB_LL_READ_FILE ? "deny read"
					 : t_sub & R_MODIFY ? "deny write" : t_node & R_MODIFY
					 ? "deny rename/replace of the node" : "deny exec");
			in->src(in->ctx, c, &m->src_file, &m->src_line);
		}
		if ((m->kind != SB_MASK_HIDE && m->kind != SB_MASK_BIND) || !m->is_dir)
			continue;
		/* re-allowed descendants (the workspace inside a denied home, a
		 * writable cache inside a write-denied tree) are bound back in
		 * from the original mount, where the Landlock rules alone decide;
		 * only the topmost of nested ones.  */
		for (size_t k = 0; k < in->ncand; k++) {
			const char *q = in->cand[k];
			if (!sb_path_is_strictly_under(q, c) || exposed(m, q))
				continue;
			uint64_t aq = in->allowed(in->ctx, q);
			struct stat qs;
			const char *qwhy = NULL;
			if (m->kind == SB_MASK_HIDE ? !(aq & SB_LL_READ_FILE) : !(aq & m->removed))
				continue;
			if (!maskable_path(in->stats, q, &qs, &qwhy)) {
				if (strcmp(qwhy, "does not exist") != 0)
					note(&plan->r, "%s: re-allowed inside a hidden tree but it %s: "
						       "stays hidden", q, qwhy);
				continue;
			}
			add_expose(m, q, &qs);
		}
	}
	if (ms->n > 1)
		qsort(ms->v, ms->n, sizeof *ms->v, cmp_mask);   /* parents before children */
}
#endif /* __linux__ */
