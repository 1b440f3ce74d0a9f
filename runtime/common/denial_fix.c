/* denial_fix.c - what the denial trace proposes for a denial (denial.h,
 * docs/trace.md, "Fixes"): the variable or the policy statement that would
 * allow it, the directory or unit a grant names, and what sbc --check will
 * say of that grant.  Statements are written by compiler/common/sbx_text.h.  */
#include "runtime/common/denial_internal.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "compiler/common/path.h"
#include "compiler/common/sbx_text.h"
#include "compiler/common/xalloc.h"

/* "~/rel" or "~" for paths in the home directory, else a copy.  */
char *sb_den_display_path(const sb_tracer *t, const char *p)
{
	const char *h = t->cfg.home;
	char *r = NULL;
	if (h && sb_path_is_under(p, h)) {
		const char *rest = p + strlen(h);
		r = xasprintf("~%s", rest);
	} else {
		r = xstrdup(p);
	}
	return r;
}

/* A policy target, as the .sbx writer spells it (compiler/common/
 * sbx_text.h).  A path with a control character has no spelling: it is
 * shown quoted as it is (only ever on a report line, which escapes it;
 * --learn leaves such paths out).  */
char *sb_den_target_text(const sb_tracer *t, const char *p)
{
	char *r = sbx_text_target(p, t->cfg.home);
	return r ? r : sbx_text_shown(p);
}

bool sb_den_is_wide(const sb_tracer *t, const char *p)
{
	return strcmp(p, "/") == 0 || (t->cfg.home && sb_path_is_under(t->cfg.home, p));
}

const sb_sensitive_entry *sb_den_sensitive(const sb_tracer *t, const char *p)
{
	return t->cfg.home ? sb_sensitive_match(p, t->cfg.home, NULL, 0) : NULL;
}

/* Was creating `path` (or something below it) denied in this session?  */
static bool denied_create(const sb_tracer *t, const char *path)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i]->access == SB_ACC_CREATE && sb_path_is_under(t->v[i]->path, path))
			return true;
	return false;
}

/* Does `dir` hold an entry this session was not denied creating?  Then a
 * grant on `dir` would open that entry too (~/.cache holds the real
 * ~/.cache/pip beside a new ~/.cache/mytool).  Unlistable: assume so.  */
static bool holds_others(const sb_tracer *t, const char *dir)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return true;
	bool other = false;
	struct dirent *de;
	while (!other && (de = readdir(dh))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *p = sb_path_join(dir, de->d_name);
		other = !denied_create(t, p);
		free(p);
	}
	closedir(dh);
	return other;
}

/* The grant for creating is the directory (Landlock checks the parent),
 * unless that would be wider than what was denied: a wide directory (the
 * home directory, /), or one that holds other entries.  Then it is the new
 * path itself, which must exist before the launch (a Landlock rule needs
 * an existing file).  */
bool sb_den_create_self(const sb_tracer *t, sb_access a, const char *path)
{
	if (a != SB_ACC_CREATE)
		return false;
	char *dir = sb_path_dirname(path);
	bool r = sb_den_is_wide(t, dir) || holds_others(t, dir);
	free(dir);
	return r;
}

char *sb_den_grant_target(const sb_tracer *t, sb_access a, const char *path)
{
	if ((a == SB_ACC_CREATE && !sb_den_create_self(t, a, path)) || a == SB_ACC_DELETE)
		return sb_path_dirname(path);
	return xstrdup(path);
}

bool sb_den_is_read(sb_access a)
{
	return a == SB_ACC_READ || a == SB_ACC_LIST;
}

bool sb_den_is_write(sb_access a)
{
	return a == SB_ACC_WRITE || a == SB_ACC_CREATE || a == SB_ACC_DELETE ||
	       a == SB_ACC_TRUNCATE;
}

/* The directory a tool walks as a whole, around `p`: a git repository (a
 * bare one: HEAD, objects and refs; or the worktree holding a `.git`), a
 * package or project (package.json, pyvenv.cfg, Cargo.toml, go.mod).  A
 * tool that fails on its first file fails one file per round, so a grant
 * of that file alone takes as many rounds as the tool has files to read
 * (nine for a clone); the whole unit takes one.  Only strictly inside the
 * home directory, never the home itself or a sensitive place.  NULL when
 * `p` is in no such unit.  */
static bool has(const char *dir, const char *name)
{
	char *q = sb_path_join(dir, name);
	struct stat st;
	bool r = lstat(q, &st) == 0;
	free(q);
	return r;
}

static char *walked_unit(const sb_tracer *t, const char *p)
{
	const char *h = t->cfg.home;
	if (!h || !sb_path_is_strictly_under(p, h))
		return NULL;
	char *dir = sb_path_dirname(p);
	while (dir && sb_path_is_strictly_under(dir, h)) {
		const char *base = strrchr(dir, '/') + 1;
		char *unit = NULL;
		if (!strcmp(base, ".git"))
			unit = sb_path_dirname(dir);
		else if ((has(dir, "HEAD") && has(dir, "objects") && has(dir, "refs")) ||
			 has(dir, ".git") || has(dir, "package.json") || has(dir, "pyvenv.cfg") ||
			 has(dir, "Cargo.toml") || has(dir, "go.mod"))
			unit = xstrdup(dir);
		if (unit) {
			free(dir);
			if (!sb_path_is_strictly_under(unit, h) || sb_den_sensitive(t, unit)) {
				free(unit);
				return NULL;
			}
			return unit;
		}
		char *up = sb_path_dirname(dir);
		free(dir);
		dir = up;
	}
	free(dir);
	return NULL;
}

/* The unit to grant instead of `target` (NULL: none): not for a sensitive
 * target, nor for a unit the profile opens already (the workspace), which
 * holds a deny of its own (.git/hooks) that is never widened.  */
char *sb_den_unit_for(const sb_tracer *t, bool write, const char *target)
{
	if (sb_den_sensitive(t, target))
		return NULL;
	char *u = walked_unit(t, target);
	sb_op op = write ? SB_OP_FILE_WRITE_DATA : SB_OP_FILE_READ_DATA;
	if (u && t->ev && sb_eval_decide(t->ev, op, u, SB_VNODE_DIRECTORY).kind == SB_DEC_ALLOW) {
		free(u);
		u = NULL;
	}
	return u;
}

char *sb_tracer_fix(const sb_tracer *t, sb_access a, const char *path)
{
	if (a == SB_ACC_CONNECT) {
		char *st = sbx_text_network_allow(path);
		if (!st) {   /* no spelling: shown for the report, which escapes it */
			char *q = sbx_text_shown(path);
			st = xasprintf("network allow %s;", q);
			free(q);
		}
		char *r = xasprintf("the policy statement `%s`%s%s", st,
				    t->cfg.allow_hosts_var ? " or OMP_SANDBOX_ALLOW_HOSTS=" : "",
				    t->cfg.allow_hosts_var ? path : "");
		free(st);
		return r;
	}
	if (a == SB_ACC_NETWORK)
		return xstrdup("the policy's `network on;` (or a host in the egress allowlist)");
	char *target = sb_den_grant_target(t, a, path);
	/* what the tool walks, as --learn grants it: one round, not one a file */
	char *unit = a != SB_ACC_LIST && a != SB_ACC_EXEC ? sb_den_unit_for(t, sb_den_is_write(a), target) : NULL;
	if (unit) {
		free(target);
		target = unit;
	}
	char *disp = sb_den_display_path(t, target);
	const sb_sensitive_entry *s = sb_den_sensitive(t, target);
	bool wide = sb_den_is_wide(t, target);
	char *r;
	if (a == SB_ACC_LIST && (wide || s)) {
		/* Listing names no content: `exactly` grants just the directory
		 * node, which is neither wide nor sensitive (docs/checks.md).  */
		char *tg = t->cfg.home && !strcmp(target, t->cfg.home) ? xstrdup("home")
									  : sb_den_target_text(t, target);
		char *st = sbx_text_allow("read exactly", tg);
		r = xasprintf("the policy statement `%s` (on macOS; on Linux a directory's "
			      "listing cannot be granted without its subtree)", st);
		free(st);
		free(tg);
	} else if (sb_den_is_read(a) && t->cfg.extra_read_var) {
		r = xasprintf("OMP_SANDBOX_EXTRA_READ=%s%s", disp,
			      s ? " (sensitive: also set OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1)" : "");
	} else if (sb_den_is_write(a) && t->cfg.extra_write_var && !wide) {
		bool first = !unit && sb_den_create_self(t, a, path);
		r = xasprintf("OMP_SANDBOX_EXTRA_WRITE=%s%s%s%s%s", disp,
			      s ? " (sensitive: also set OMP_SANDBOX_CONFIRM_SENSITIVE_WRITE=1)" : "",
			      first ? " (create it first, e.g. mkdir -p " : "", first ? disp : "",
			      first ? ", if it is a directory)" : "");
	} else {
		char *tg = sb_den_target_text(t, target);
		char *st = sbx_text_allow(sb_den_is_read(a) ? "read" : sb_den_is_write(a) ? "write"
											  : "exec",
					  tg);
		r = xasprintf("the policy statement `%s`%s%s", st,
			      s ? " (sensitive: it needs `acknowledge sensitive \"reason\"`)" : "",
			      wide && (sb_den_is_write(a) || sb_den_is_read(a))
				      ? " (wide: it needs `acknowledge wide \"reason\"`)" : "");
		free(st);
		free(tg);
	}
	free(disp);
	free(target);
	return r;
}

/* The default protection of persistence files decided (a rule of
 * examples/protect/GROUP.sbx, or a path of the launch-time git lists
 * $PROTECT_GIT of examples/omp.sbx): its group, or NULL.  */
static const char *protect_group(const sb_tracer *t, const entry *e, int *len)
{
	if (!sb_den_is_write(e->access))
		return NULL;
	const char *src = e->origin ? e->origin->file : "";
	const char *g = strstr(src, "protect/");
	if (g && (g == src || g[-1] == '/')) {
		g += strlen("protect/");
		*len = (int)strcspn(g, ".");
		return g;
	}
	bool git = false;
	for (size_t i = 0; i < t->cfg.nprotect_git && !git; i++)
		git = sb_path_is_under(e->path, t->cfg.protect_git[i]);
	for (size_t i = 0; i < t->cfg.nprotect_nodes && !git; i++)
		git = strcmp(e->path, t->cfg.protect_nodes[i]) == 0;
	if (!git || !e->origin)
		return NULL;
	*len = 3;
	return "git";
}

/* The fix for an entry: a protected file is lifted by its group, not by
 * a grant (a later grant is what the protection is there to refuse).  */
char *sb_den_entry_fix(const sb_tracer *t, const entry *e)
{
	int n;
	const char *g = protect_group(t, e, &n);
	if (!g)
		return sb_tracer_fix(t, e->access, e->path);
	char *tg = sb_den_target_text(t, e->path);
	char *st = sbx_text_allow("write", tg);
	char *r = xasprintf("OMP_SANDBOX_PROTECT without \"%.*s\" (OMP_SANDBOX_PROTECT=none lifts "
			    "every group), or the policy statement `%s` after the "
			    "protections; what is written there runs outside the sandbox later",
			    n, g, st);
	free(st);
	free(tg);
	return r;
}

const char *sb_den_verb_of(sb_access a)
{
	return a == SB_ACC_LIST ? "read exactly" : sb_den_is_read(a) ? "read" : sb_den_is_write(a) ? "write"
											: "exec";
}

/* What sbc --check's sensitive pass says of a grant: an `exactly` target
 * stands for one node, so an ancestor of a sensitive entry is fine.  */
const sb_sensitive_entry *sb_den_grant_sensitive(const sb_tracer *t, const char *verb,
						 const char *target)
{
	if (!strcmp(verb, "exec") || !t->cfg.home)
		return NULL;
	if (strcmp(verb, "read exactly"))
		return sb_den_sensitive(t, target);
	if (!sb_path_is_under(target, t->cfg.home))
		return NULL;
	const char *rel = target + strlen(t->cfg.home);
	while (*rel == '/')
		rel++;
	return sb_sensitive_match_rel(rel, true);
}
