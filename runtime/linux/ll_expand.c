#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* ll_expand.c - complement expansion (grant_except) and bind-mount alias
 * detection from /proc/self/mountinfo (docs/linux.md, "Masks" and
 * "Remaining limits").
 * Landlock can only allow: a deny inside an allowed tree is built by
 * granting every sibling along the path to the denied subtree.  */
#include "runtime/linux/ll_internal.h"
#include "compiler/common/file.h"
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void sb_ll_rules_add(sb_ll_rules *r, const char *path, int fd, uint64_t rights, bool is_dir,
		     const char *origin)
{
	SB_GROW(r->v, r->n, r->cap, 32);
	r->v[r->n++] = (sb_ll_rule){ xstrdup(path), fd, rights, is_dir, origin };
}

void sb_ll_rules_note(sb_ll_rules *r, sb_ll_note_kind kind, const char *src_file, int src_line,
		      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = NULL;
	text = xvasprintf(fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < r->nnotes; i++)   /* one note per distinct fact */
		if (r->notes[i].kind == kind && r->notes[i].src_line == src_line &&
		    strcmp(r->notes[i].text, text) == 0) {
			free(text);
			return;
		}
	SB_GROW(r->notes, r->nnotes, r->notes_cap, 16);
	r->notes[r->nnotes++] = (sb_ll_note){ kind, text, src_file, src_line };
}

void sb_ll_rules_clear(sb_ll_rules *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].path);
		if (r->v[i].fd >= 0)
			close(r->v[i].fd);
	}
	for (size_t i = 0; i < r->nnotes; i++)
		free(r->notes[i].text);
	free(r->v);
	free(r->notes);
	memset(r, 0, sizeof *r);
}

/* Called for every entry of an expanded directory: plain copies, no
 * formatted printing (bench/analysis.md, planning).  */
static char *child_path(const char *dir, const char *name)
{
	size_t dl = strcmp(dir, "/") == 0 ? 0 : strlen(dir), nl = strlen(name);
	char *p = xmalloc(dl + nl + 2);
	memcpy(p, dir, dl);
	p[dl] = '/';
	memcpy(p + dl + 1, name, nl + 1);
	return p;
}

/* One entry of a directory to expand: its name and the type getdents
 * reported (DT_UNKNOWN when the file system or the caller gave none).  */
typedef struct entry {
	char *name;
	unsigned char type;
} entry;

static int cmp_entries(const void *a, const void *b)
{
	return strcmp(((const entry *)a)->name, ((const entry *)b)->name);
}

/* One node: `fd` is an O_PATH|O_NOFOLLOW fd (owned here).  */
typedef struct walk {
	sb_ll_rules *out;
	sb_ll_classify_fn fn;
	sb_ll_names_fn names;
	void *ctx;
} walk;

/* The sorted entries of a directory, or NULL when it cannot be listed
 * (errno set).  */
static entry *list_entries(int fd, size_t *count)
{
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!dir) {
		int e = errno;
		if (dfd >= 0)
			close(dfd);
		errno = e;
		return NULL;
	}
	/* Snapshot the names first, sorted: the rule list is deterministic
	 * and no fd stays open across the recursion.  */
	entry *v = xmalloc(sizeof *v);
	size_t n = 0, cap = 1;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		SB_GROW(v, n, cap, 1);
		v[n++] = (entry){ xstrdup(e->d_name), e->d_type };
	}
	closedir(dir);
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_entries);
	*count = n;
	return v;
}

/* The entries the classifier names (sb_ll_names_fn), types unknown.  */
static entry *named_entries(char **names, size_t n)
{
	entry *v = xcalloc(n ? n : 1, sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = (entry){ names[i], DT_UNKNOWN };
	free(names);
	return v;
}

/* The classifier's answer for a node, limited to what it can carry.  */
static void decide_node(const walk *w, const char *path, bool is_dir, uint64_t want,
			uint64_t *allow_all, uint64_t *mixed)
{
	uint64_t all = 0, mx = 0;
	w->fn(w->ctx, path, is_dir, want, &all, &mx);
	all &= want & ~SB_LL_NEVER;
	if (!is_dir) {
		all &= SB_LL_FILE_RIGHTS;
		mx = 0;
	}
	*allow_all = all;
	*mixed = mx & want & ~all;
}

/* What the caller decided before opening the node (expand_entry).  */
typedef struct predecided {
	bool is_dir;
	uint64_t allow_all, mixed;
} predecided;

static void expand_entry(const walk *w, int dfd, const char *path, const entry *e,
			 uint64_t want, int depth);

static void note_hardlink(sb_ll_rules *out, const char *path, nlink_t nlink)
{
	/* A rule on this inode would also open its other names, which may
	 * lie in a denied tree (~/.ssh/id_rsa).  */
	out->hardlink_skips++;
	sb_ll_rules_note(out, SB_LL_NOTE_NARROWER, NULL, 0,
			 "%s: hard link (%lu names) in an expanded directory gets no rule", path,
			 (unsigned long)nlink);
}

/* `pre`: the answer for the node as it was listed, or NULL.  The fd's own
 * fstat is what counts: a node replaced since it was listed is decided
 * again for what it is now.  */
static void expand_node(const walk *w, const char *path, int fd, uint64_t want,
			bool in_expanded, int depth, const predecided *pre)
{
	sb_ll_rules *out = w->out;
	struct stat st;
	if (!pre)
		out->nodes_visited++;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return;
	}
	if (S_ISLNK(st.st_mode)) {       /* never follow, never a rule on a link */
		out->symlink_skips++;
		close(fd);
		return;
	}
	bool is_dir = S_ISDIR(st.st_mode);
	if (!is_dir && in_expanded && st.st_nlink > 1) {
		note_hardlink(out, path, st.st_nlink);
		close(fd);
		return;
	}
	uint64_t allow_all, mixed;
	if (pre && pre->is_dir == is_dir) {
		allow_all = pre->allow_all;
		mixed = pre->mixed;
	} else {
		decide_node(w, path, is_dir, want, &allow_all, &mixed);
	}
	bool kept = false;
	if (allow_all) {
		sb_ll_rules_add(out, path, fd, allow_all, is_dir, "expand");
		kept = true;
	}
	if (mixed && is_dir && depth < 64) {
		sb_ll_rules_note(out, SB_LL_NOTE_NARROWER, NULL, 0,
				 "%s: expanded around a deny (%s): it gets no rule itself, each "
				 "entry gets its own", path,
				 (mixed & (SB_LL_READ_FILE | SB_LL_READ_DIR)) ? "listing it is denied"
									     : "writes");
		size_t n = 0;
		/* inside a hidden tree only the way to the paths bound back
		 * matters (the classifier gives every other entry no rule) */
		char **names = w->names ? w->names(w->ctx, path, &n) : NULL;
		entry *v = names ? named_entries(names, n) : list_entries(fd, &n);
		if (!v) {
			/* Cannot list it: its entries get no rule and stay denied.  */
			out->unreadable_skips++;
			sb_ll_rules_note(out, SB_LL_NOTE_NARROWER, NULL, 0,
					 "%s: cannot list (%s); its entries stay denied", path,
					 strerror(errno));
		} else {
			for (size_t i = 0; i < n; i++) {
				char *cp = child_path(path, v[i].name);
				expand_entry(w, fd, cp, &v[i], mixed, depth + 1);
				free(cp);
				free(v[i].name);
			}
			free(v);
		}
	}
	if (!kept)
		close(fd);
}

/* An entry of an expanded directory.  Most entries of a large directory
 * get no rule and are not descended into (the siblings of the home under
 * the masks): those are decided from getdents' type, plus one fstatat for
 * a file (its link count decides the hard-link note), without opening
 * them (bench/analysis.md, planning).  An entry that gets a rule or is
 * descended into is opened O_PATH and checked through its fd
 * (expand_node), which also sees a file's link count.  */
static void expand_entry(const walk *w, int dfd, const char *path, const entry *e,
			 uint64_t want, int depth)
{
	sb_ll_rules *out = w->out;
	unsigned char type = e->type;
	struct stat st;
	bool have_st = false;
	if (type == DT_UNKNOWN) {
		if (fstatat(dfd, e->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			return;   /* vanished since readdir: no rule, stays denied */
		type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK : DT_REG;
		have_st = true;
	}
	out->nodes_visited++;
	if (type == DT_LNK) {   /* never follow, never a rule on a link */
		out->symlink_skips++;
		return;
	}
	bool is_dir = type == DT_DIR;
	if (!is_dir && have_st && st.st_nlink > 1) {
		note_hardlink(out, path, st.st_nlink);
		return;
	}
	predecided pre = { .is_dir = is_dir };
	decide_node(w, path, is_dir, want, &pre.allow_all, &pre.mixed);
	if (!pre.allow_all && !(pre.mixed && is_dir && depth < 64)) {
		/* no rule, nothing below: nothing to open; a file's other
		 * names are still noted, as for one that would get a rule */
		if (!is_dir && !have_st && fstatat(dfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    !S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode) && st.st_nlink > 1)
			note_hardlink(out, path, st.st_nlink);
		return;
	}
	int fd = openat(dfd, e->name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		expand_node(w, path, fd, want, true, depth, &pre);
	/* vanished since readdir: no rule, stays denied */
}

int sb_ll_expand_names(sb_ll_rules *out, const char *root, uint64_t rights, sb_ll_classify_fn fn,
		       sb_ll_names_fn names, void *ctx)
{
	int fd = open(root, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	walk w = { out, fn, names, ctx };
	expand_node(&w, root, fd, rights, false, 0, NULL);
	return 0;
}

int sb_ll_expand(sb_ll_rules *out, const char *root, uint64_t rights, sb_ll_classify_fn fn,
		 void *ctx)
{
	return sb_ll_expand_names(out, root, rights, fn, NULL, ctx);
}

/* ---- mountinfo ---- */

/* Decode the octal escapes mountinfo uses for space, tab, newline, '\'.  */
static char *unescape(const char *s, size_t len)
{
	char *d = xmalloc(len + 1), *o = d;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\' && i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			*o++ = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return d;
}

int sb_mounts_parse(sb_mounts *m, const char *text)
{
	memset(m, 0, sizeof *m);
	size_t cap = 0;
	const char *line = text;
	while (*line) {
		const char *end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		/* fields: id parent major:minor root mountpoint ... */
		const char *f[5];
		size_t fl[5];
		const char *p = line;
		int k = 0;
		while (k < 5 && p < end) {
			while (p < end && *p == ' ')
				p++;
			const char *s = p;
			while (p < end && *p != ' ')
				p++;
			if (p > s) {
				f[k] = s;
				fl[k] = (size_t)(p - s);
				k++;
			}
		}
		unsigned maj, min;
		if (k == 5 && sscanf(f[2], "%u:%u", &maj, &min) == 2) {
			SB_GROW(m->v, m->n, cap, 32);
			/* the file-system type follows the " - " separator */
			const char *ft = p, *fe;
			size_t ftl = 0;
			for (; ft + 2 < end; ft++)
				if (ft[0] == ' ' && ft[1] == '-' && ft[2] == ' ') {
					ft += 3;
					for (fe = ft; fe < end && *fe != ' '; fe++)
						;
					ftl = (size_t)(fe - ft);
					break;
				}
			m->v[m->n++] = (sb_mount){ maj, min, unescape(f[3], fl[3]),
						   unescape(f[4], fl[4]),
						   unescape(ftl ? ft : "", ftl) };
		}
		line = *end ? end + 1 : end;
	}
	return 0;
}

int sb_mounts_read(sb_mounts *m, const char *file)
{
	size_t len;
	char *buf = sb_file_read(file, 0, &len);
	if (!buf)
		return -1;
	int rc = sb_mounts_parse(m, buf);
	free(buf);
	return rc;
}

void sb_mounts_clear(sb_mounts *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].root);
		free(m->v[i].mountpoint);
		free(m->v[i].fstype);
	}
	free(m->v);
	memset(m, 0, sizeof *m);
}

/* The remainder of p below root ("" when equal), without leading '/'.  */
static const char *rest_of(const char *p, const char *root)
{
	const char *r = p + (strcmp(root, "/") == 0 ? 0 : strlen(root));
	while (*r == '/')
		r++;
	return r;
}

size_t sb_mounts_aliases(const sb_mounts *m, const char *path, char ***out, size_t *nout,
			 bool **inode_alias)
{
	/* the arrays hold *nout already, exactly or more */
	size_t cap = *nout, cap_alias = *nout;
	ssize_t holder = -1;
	size_t best = 0;
	for (size_t i = 0; i < m->n; i++) {
		size_t l = strlen(m->v[i].mountpoint);
		if (sb_path_is_under(path, m->v[i].mountpoint) && (holder < 0 || l >= best)) {
			holder = (ssize_t)i;   /* longest; the last of equals wins */
			best = l;
		}
	}
	if (holder < 0)
		return 0;
	const sb_mount *h = &m->v[holder];
	char *fspath = child_path(h->root, rest_of(path, h->mountpoint));
	if (*rest_of(path, h->mountpoint) == '\0') {
		free(fspath);
		fspath = xstrdup(h->root);
	}
	size_t added = 0;
	for (size_t i = 0; i < m->n; i++) {
		const sb_mount *o = &m->v[i];
		if ((ssize_t)i == holder || o->major != h->major || o->minor != h->minor)
			continue;
		char *alias = NULL;
		bool same_inode = false;
		if (sb_path_is_under(fspath, o->root)) {
			const char *rest = rest_of(fspath, o->root);
			alias = *rest ? child_path(o->mountpoint, rest) : xstrdup(o->mountpoint);
			same_inode = true;
		} else if (sb_path_is_under(o->root, fspath)) {
			alias = xstrdup(o->mountpoint);
		}
		if (!alias)
			continue;
		if (strcmp(alias, path) == 0) {   /* the same place, mounted twice */
			free(alias);
			continue;
		}
		SB_GROW(*out, *nout, cap, 4);
		if (inode_alias)
			SB_GROW(*inode_alias, *nout, cap_alias, 4);
		(*out)[*nout] = alias;
		if (inode_alias)
			(*inode_alias)[*nout] = same_inode;
		(*nout)++;
		added++;
	}
	free(fspath);
	return added;
}
#endif /* __linux__ */
