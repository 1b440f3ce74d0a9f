/* protect.c - the launch-time git discovery (protect.h).  */
#include "runtime/common/protect.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compiler/common/path.h"
#include "compiler/common/sensitive.h"
#include "compiler/common/xalloc.h"
#include "runtime/common/gitconfig.h"
#include "runtime/common/status.h"

typedef struct ctx {
	const sb_protect_in *in;
	sb_protect *out;
	sb_diag *d;
	int rc;
	char **done;          /* git dirs already protected */
	size_t ndone;
	sb_gitcfg_walk global;
} ctx;

/* The canonical form of p, existing or not: realpath of its deepest
 * existing ancestor, plus the rest.  */
static char *canon_any(const char *p)
{
	/* sb_path_real, not realpath(): one open and one readlink instead of a
	 * readlink per component, most of them failing (bench/analysis.md,
	 * launch) */
	char *lex = sb_gitcfg_lexical(p);
	char *r = sb_path_real(lex);
	if (r) {
		free(lex);
		return r;
	}
	size_t cut = strlen(lex);
	while (cut > 0) {
		while (cut > 0 && lex[cut] != '/')
			cut--;
		char *head = xstrndup(lex, cut ? cut : 1);
		char *rh = sb_path_real(head);
		free(head);
		if (rh) {
			char *j = xasprintf("%s%s", strcmp(rh, "/") ? rh : "", lex + cut);
			free(rh);
			free(lex);
			return j;
		}
		if (cut == 0)
			break;
		cut--;
	}
	return lex;
}

/* Add the canonical form and, when it differs, the spelled one (a
 * symlinked .git/hooks: the link itself must not be replaced either).  */
static void add(ctx *c, char ***v, size_t *n, const char *p)
{
	if (p[0] != '/')
		return;
	int off = sb_path_bad_char(p);
	if (off >= 0) {
		sb_diag_report(c->d, SB_SEV_ERROR, NULL, "protect",
			       "a file git reads has a control character in its path (byte 0x%02x "
			       "at offset %d) and cannot go into a profile, so it cannot be protected; "
			       "refusing to launch (rename it, or set OMP_SANDBOX_PROTECT=none)",
			       (unsigned char)p[off], off);
		c->rc = SB_REFUSED;
		return;
	}
	char *lex = sb_gitcfg_lexical(p);
	char *can = canon_any(p);
	sb_strv_push_unique(v, n, can);
	if (strcmp(lex, can) != 0)
		sb_strv_push_unique(v, n, lex);
	free(lex);
	free(can);
}

/* A hook that is a symlink (`ln -s ../../scripts/pre-commit
 * .git/hooks/`, a common set-up) runs its target: a writable file of the
 * tree unless it is protected too.  One level, as git looks for hooks.  */
static void deny_link_targets(ctx *c, const char *dir)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	struct dirent *e;
	while ((e = readdir(dh))) {
		struct stat st;
		if (fstatat(dirfd(dh), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISLNK(st.st_mode))
			continue;
		char *l = xasprintf("%s/%s", dir, e->d_name);
		char *t = realpath(l, NULL);
		if (t)
			add(c, &c->out->deny, &c->out->ndeny, t);
		free(t);
		free(l);
	}
	closedir(dh);
}

static void deny(ctx *c, const char *p)
{
	if (!c->in->git)
		return;
	add(c, &c->out->deny, &c->out->ndeny, p);
	struct stat st;
	if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
		deny_link_targets(c, p);
}

static void deny_in(ctx *c, const char *dir, const char *leaf)
{
	char *p = xasprintf("%s/%s", dir, leaf);
	deny(c, p);
	free(p);
}

static void node(ctx *c, const char *p)
{
	if (c->in->git)
		add(c, &c->out->nodes, &c->out->nnodes, p);
}

static bool exists(const char *p)
{
	struct stat st;
	return lstat(p, &st) == 0;
}

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The first line of a small file, trailing white space removed; NULL when
 * absent or unreadable.  */
static char *first_line(const char *p)
{
	FILE *f = fopen(p, "re");
	if (!f)
		return NULL;
	char buf[PATH_MAX + 16];
	char *r = NULL;
	if (fgets(buf, sizeof buf, f)) {
		size_t n = strlen(buf);
		while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
			buf[--n] = '\0';
		r = xstrdup(buf);
	}
	fclose(f);
	return r;
}

/* A path a git file names, relative to the directory `base`.  */
static char *relative_to(const char *base, const char *v)
{
	return v[0] == '/' ? xstrdup(v) : xasprintf("%s/%s", base, v);
}

/* A hooksPath or fsmonitor value: "~/" is expanded by the reader; a
 * relative one is relative to the work tree top (where git runs hooks),
 * or to the git dir of a bare repository.  */
static void deny_runpath(ctx *c, const char *v, const char *top, const char *gitdir)
{
	char *p = relative_to(top ? top : gitdir, v);
	deny(c, p);
	free(p);
}

/* An include target may be read when it is not a credential store: the
 * git entries of the sensitive list are git's own configuration.  */
static bool include_readable(ctx *c, const char *p)
{
	const sb_sensitive_entry *s = sb_sensitive_match(p, c->in->home, NULL, 0);
	const char *base = strrchr(p, '/');
	base = base ? base + 1 : p;
	bool gitcfg = s && (!strcmp(s->rel, ".gitconfig") || !strcmp(s->rel, ".config/git"));
	if (!s || (gitcfg && strcmp(base, "credentials") != 0))
		return true;
	sb_diag_report(c->d, SB_SEV_WARNING, NULL, "protect",
		       "your git configuration includes %s, a sensitive home location (~/%s: %s); "
		       "it stays unreadable in the sandbox, so git runs without it (grant it with "
		       "OMP_SANDBOX_EXTRA_READ and OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1)", p, s->rel,
		       s->why);
	return false;
}

/* Grant read of an included file under the home (the git preset's
 * GIT_INCLUDES): git skips an include it cannot read, silently.  */
static void grant_include(ctx *c, const char *f)
{
	struct stat st;
	if (!c->in->includes || stat(f, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	char *can = realpath(f, NULL);
	if (can && sb_path_is_strictly_under(can, c->in->home) && sb_path_bad_char(can) < 0 &&
	    include_readable(c, can))
		sb_strv_push_unique(&c->out->includes, &c->out->nincludes, can);
	free(can);
}

static void protect_gitdir(ctx *c, const char *gd, const char *top, int depth);

/* COMMON/modules: a submodule's git dir holds HEAD; a name with slashes is
 * a nested directory.  */
static void scan_modules(ctx *c, const char *dir, int depth)
{
	if (depth > 8)
		return;
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	struct dirent *e;
	while ((e = readdir(dh))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *s = xasprintf("%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(s, &st) == 0 && S_ISDIR(st.st_mode)) {
			char *head = xasprintf("%s/HEAD", s);
			if (exists(head))
				protect_gitdir(c, s, NULL, depth + 1);
			else
				scan_modules(c, s, depth + 1);
			free(head);
		}
		free(s);
	}
	closedir(dh);
}

static void protect_gitdir(ctx *c, const char *gd, const char *top, int depth)
{
	char *key = canon_any(gd);
	if (sb_strv_has(c->done, c->ndone, key)) {
		free(key);
		return;
	}
	sb_strv_push_unique(&c->done, &c->ndone, key);
	free(key);
	c->out->repos++;
	static const char *const own[] = { "config", "config.worktree", "commondir", "hooks" };
	for (size_t i = 0; i < sizeof own / sizeof *own; i++)
		deny_in(c, gd, own[i]);
	char *cdfile = xasprintf("%s/commondir", gd);
	char *cv = first_line(cdfile);
	free(cdfile);
	char *common = cv && *cv ? relative_to(gd, cv) : xstrdup(gd);
	free(cv);
	if (strcmp(common, gd) != 0) {
		node(c, common);
		deny_in(c, common, "config");
		deny_in(c, common, "config.worktree");
		deny_in(c, common, "hooks");
	}
	/* linked worktrees: the files that tie each to its directories */
	char *wt = xasprintf("%s/worktrees", common);
	DIR *dh = opendir(wt);
	if (dh) {
		struct dirent *e;
		while ((e = readdir(dh))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char *w = xasprintf("%s/%s", wt, e->d_name);
			if (is_dir(w)) {
				deny_in(c, w, "commondir");
				deny_in(c, w, "config.worktree");
				deny_in(c, w, "gitdir");
			}
			free(w);
		}
		closedir(dh);
	}
	free(wt);
	char *mods = xasprintf("%s/modules", common);
	scan_modules(c, mods, depth);
	free(mods);
	/* the configuration: includes, hooksPath, fsmonitor */
	sb_gitcfg_walk w = { 0 };
	char *cfg = xasprintf("%s/config", common);
	sb_gitcfg_walk_file(cfg, c->in->home, &w, c->d);
	free(cfg);
	char *cw = xasprintf("%s/config.worktree", gd);
	sb_gitcfg_walk_file(cw, c->in->home, &w, c->d);
	free(cw);
	for (size_t i = 0; i < w.nfiles; i++) {
		deny(c, w.files[i]);
		if (i > 0)   /* files the repository's config includes */
			grant_include(c, w.files[i]);
	}
	for (size_t i = 0; i < w.nhooks; i++)
		deny_runpath(c, w.hooks[i], top, gd);
	for (size_t i = 0; i < w.nfsmonitor; i++)
		deny_runpath(c, w.fsmonitor[i], top, gd);
	for (size_t i = 0; i < c->global.nhooks; i++)
		deny_runpath(c, c->global.hooks[i], top, gd);
	for (size_t i = 0; i < c->global.nfsmonitor; i++)
		deny_runpath(c, c->global.fsmonitor[i], top, gd);
	sb_gitcfg_walk_clear(&w);
	free(common);
}

/* DIR/.git: a directory, a gitfile ("gitdir: X") or a symlink to either.  */
static void repo_at(ctx *c, const char *dir)
{
	char *dotgit = xasprintf("%s/.git", dir);
	node(c, dotgit);
	struct stat st;
	char *gd = NULL;
	if (stat(dotgit, &st) == 0 && S_ISDIR(st.st_mode)) {
		gd = xstrdup(dotgit);
	} else if (stat(dotgit, &st) == 0 && S_ISREG(st.st_mode)) {
		char *l = first_line(dotgit);
		if (l && strncmp(l, "gitdir:", 7) == 0) {
			const char *v = l + 7;
			while (*v == ' ')
				v++;
			gd = relative_to(dir, v);
			node(c, gd);
		} else {
			sb_diag_report(c->d, SB_SEV_WARNING, NULL, "protect",
				       "%s is a file without a 'gitdir:' line; git refuses it too", dotgit);
		}
		free(l);
	}
	if (gd)
		protect_gitdir(c, gd, dir, 0);
	free(gd);
	free(dotgit);
}

/* A bare repository: HEAD, objects/ and refs/ (git's is_git_directory).  */
static bool is_bare(const char *d)
{
	char *h = xasprintf("%s/HEAD", d), *o = xasprintf("%s/objects", d),
	     *r = xasprintf("%s/refs", d);
	bool b = exists(h) && is_dir(o) && is_dir(r);
	free(h);
	free(o);
	free(r);
	return b;
}

/* The workspace's repository: the nearest directory at or above the
 * workspace holding `.git` (or being a bare repository).  */
static void workspace_repo(ctx *c)
{
	const char *ws = c->in->workspace;
	char *d = xstrdup(ws);
	for (;;) {
		char *g = xasprintf("%s/.git", strcmp(d, "/") ? d : "");
		bool has = exists(g);
		free(g);
		if (has) {
			repo_at(c, d);
			/* a `.git` created below the top, down to the workspace,
			 * makes git there use the agent's repository */
			size_t tl = strcmp(d, "/") ? strlen(d) : 0;
			for (const char *s = ws + tl; *s;) {
				const char *e = strchr(s + 1, '/');
				size_t n = e ? (size_t)(e - ws) : strlen(ws);
				char *p = xasprintf("%.*s/.git", (int)n, ws);
				node(c, p);
				free(p);
				if (!e)
					break;
				s = e;
			}
			break;
		}
		if (is_bare(d)) {
			protect_gitdir(c, d, NULL, 0);
			break;
		}
		if (strcmp(d, "/") == 0)
			break;
		char *p = sb_path_dirname(d);
		free(d);
		d = p;
	}
	free(d);
}

/* Repositories below the workspace.  */
static void scan_below(ctx *c)
{
	size_t max = c->in->scan_max ? c->in->scan_max : SB_PROTECT_SCAN_MAX;
	char **stack = NULL;
	size_t n = 0;
	sb_strv_push_unique(&stack, &n, c->in->workspace);
	while (n > 0) {
		char *dir = stack[--n];
		if (c->out->scanned >= max) {
			c->out->scan_cut = true;
			free(dir);
			continue;
		}
		c->out->scanned++;
		DIR *dh = opendir(dir);
		if (!dh) {
			free(dir);
			continue;
		}
		struct dirent *e;
		while ((e = readdir(dh))) {
			const char *nm = e->d_name;
			if (!strcmp(nm, ".") || !strcmp(nm, ".."))
				continue;
			if (!strcmp(nm, ".git")) {
				if (strcmp(dir, c->in->workspace) != 0)
					repo_at(c, dir);
				continue;
			}
			unsigned char t = e->d_type;
			if ((t != DT_DIR && t != DT_UNKNOWN) || strcmp(nm, "node_modules") == 0)
				continue;   /* files: no allocation, no stat */
			char *p = xasprintf("%s/%s", dir, nm);
			struct stat st;
			if (t == DT_UNKNOWN && (lstat(p, &st) != 0 || !S_ISDIR(st.st_mode))) {
				free(p);
				continue;
			}
			stack = xrealloc(stack, (n + 1) * sizeof *stack);
			stack[n++] = p;
		}
		closedir(dh);
		free(dir);
	}
	free(stack);
	if (c->out->scan_cut)
		sb_diag_report(c->d, SB_SEV_WARNING, NULL, "protect",
			       "the workspace %s has more than %zu directories: repositories in "
			       "the part not scanned have their git config and hooks WRITABLE "
			       "inside the sandbox (use a smaller workspace; see "
			       "docs/limitations.md)", c->in->workspace, max);
}

static void global_configs(ctx *c)
{
	const sb_protect_in *in = c->in;
	char *xdg = in->xdg_config_home && in->xdg_config_home[0] == '/'
			    ? xasprintf("%s/git/config", in->xdg_config_home)
			    : xasprintf("%s/.config/git/config", in->home);
	char *user = xasprintf("%s/.gitconfig", in->home);
	const char *roots[] = { in->system_config ? in->system_config : "/etc/gitconfig", xdg, user };
	size_t nroots = sizeof roots / sizeof *roots;
	for (size_t i = 0; i < nroots; i++)
		sb_gitcfg_walk_file(roots[i], in->home, &c->global, c->d);
	for (size_t i = 0; i < c->global.nfiles; i++) {
		const char *f = c->global.files[i];
		deny(c, f);
		bool root = false;
		for (size_t k = 0; k < nroots; k++)
			root = root || strcmp(f, roots[k]) == 0;
		if (!root)
			grant_include(c, f);
	}
	/* absolute hooksPath / fsmonitor of the user's configuration apply to
	 * every repository, found or not */
	for (size_t i = 0; i < c->global.nhooks; i++)
		if (c->global.hooks[i][0] == '/')
			deny(c, c->global.hooks[i]);
	for (size_t i = 0; i < c->global.nfsmonitor; i++)
		if (c->global.fsmonitor[i][0] == '/')
			deny(c, c->global.fsmonitor[i]);
	free(xdg);
	free(user);
}

int sb_protect_discover(const sb_protect_in *in, sb_protect *out, sb_diag *d)
{
	memset(out, 0, sizeof *out);
	if (!in->git && !in->includes)
		return 0;
	ctx c = { .in = in, .out = out, .d = d };
	global_configs(&c);
	if (in->git) {
		workspace_repo(&c);
		scan_below(&c);
	}
	sb_strv_free(c.done, c.ndone);
	sb_gitcfg_walk_clear(&c.global);
	return c.rc;
}

void sb_protect_clear(sb_protect *p)
{
	sb_strv_free(p->deny, p->ndeny);
	sb_strv_free(p->nodes, p->nnodes);
	sb_strv_free(p->includes, p->nincludes);
	memset(p, 0, sizeof *p);
}
