/* protect.h - launch-time discovery of the files git reads to find its
 * configuration and hooks (docs/security-model.md, "Persistence files").
 * The static protections are policy (the files of examples/protect/, one
 * per group); what depends on the repositories at hand is found here and
 * bound to three lists of the default policy (examples/omp.sbx), never taken from the environment:
 *
 *   PROTECT_GIT        deny write (subpath): config files, hooks
 *                      directories, commondir, config.worktree, worktree
 *                      back-links, submodule git dirs' files, include
 *                      targets, core.hooksPath, core.fsmonitor programs
 *   PROTECT_GIT_NODES  deny write exactly: the `.git` name in every
 *                      directory from the repository top down to the
 *                      workspace, and git dirs reached through a gitfile
 *   GIT_INCLUDES       allow read exactly: the files the user's global git
 *                      configuration includes (the git tool preset)
 *
 * Absent paths are listed too: the policy denies creating them.
 *
 * Repositories: the workspace's (walking up from the workspace: `.git`
 * directory or gitfile, or the workspace being a bare repository), and
 * those below the workspace, found by a bounded scan that does not descend
 * into `.git`, `node_modules` or symlinks (SB_PROTECT_SCAN_MAX directories;
 * a warning when the bound is hit).  Each path is canonicalised like an
 * extra path (prep.c): the symlink-resolved form and, when it differs, the
 * spelled one.  */
#ifndef SB_PROTECT_H
#define SB_PROTECT_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/common/diag.h"

#define SB_PROTECT_SCAN_MAX 20000

typedef struct sb_protect {
	char **deny;       /* PROTECT_GIT */
	size_t ndeny;
	char **nodes;      /* PROTECT_GIT_NODES */
	size_t nnodes;
	char **includes;   /* GIT_INCLUDES */
	size_t nincludes;
	size_t repos;      /* repositories found */
	size_t scanned;    /* directories visited below the workspace */
	bool scan_cut;     /* the scan bound was hit */
} sb_protect;

typedef struct sb_protect_in {
	const char *home;            /* canonical */
	const char *workspace;       /* canonical */
	const char *xdg_config_home; /* XDG_CONFIG_HOME from the launch's envp, or NULL */
	const char *system_config;   /* NULL: /etc/gitconfig */
	bool git;                    /* the protect-git group is on: fill deny and nodes */
	bool includes;               /* the git tool preset is on: fill includes */
	size_t scan_max;             /* 0: SB_PROTECT_SCAN_MAX */
} sb_protect_in;

/* Returns 0, or SB_REFUSED after an error (a path that cannot go into a
 * profile: a control character in a name git would read).  *out is always
 * initialised; release it with sb_protect_clear.  */
int sb_protect_discover(const sb_protect_in *in, sb_protect *out, sb_diag *d);
void sb_protect_clear(sb_protect *p);

#endif
