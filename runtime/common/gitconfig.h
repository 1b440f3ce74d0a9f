/* gitconfig.h - a small reader of git's configuration files, for the
 * launcher: only the keys that make git read another file or run a program
 * from a path (docs/security-model.md, "Persistence files"):
 *   include.path, includeIf.<condition>.path   another config file
 *   core.hooksPath                             the hooks directory
 *   core.fsmonitor (not a boolean)             a hook program
 * The syntax is git's (git-config(1), "CONFIGURATION FILE"): sections
 * `[name]`, `[name "sub"]`, `[name.sub]`, `key = value`, a key alone (true),
 * quotes, the escapes \\ \" \n \t \b, a backslash at the end of a line
 * continuing it, comments after # or ;.  Names compare case-insensitively
 * (subsections exactly).
 *
 * git itself refuses a file this reader cannot parse ("bad config line"),
 * so a malformed file is a warning (FILE:LINE:COL) and the rest of the file
 * is skipped: git would not run with it.  A conditional include is taken as
 * possibly active, whatever its condition (gitdir:, gitdir/i:, onbranch:,
 * hasconfig:): what it may load must be protected either way.  */
#ifndef SB_GITCONFIG_H
#define SB_GITCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/common/diag.h"

/* A file larger than this is read up to here, with a warning: the rest of
 * it (its includes and hooksPath) is not seen.  */
#define SB_GITCFG_MAX_BYTES (16u << 20)
/* git's own limit (config.c, MAX_INCLUDE_DEPTH): deeper includes are an
 * error in git; the walk warns and stops there.  */
#define SB_GITCFG_MAX_DEPTH 10

typedef enum { SB_GITCFG_INCLUDE, SB_GITCFG_HOOKSPATH, SB_GITCFG_FSMONITOR } sb_gitcfg_kind;

typedef struct sb_gitcfg_ent {
	sb_gitcfg_kind kind;
	char *value;       /* as git reads it (unquoted, unescaped) */
	int line;
} sb_gitcfg_ent;

typedef struct sb_gitcfg {
	sb_gitcfg_ent *v;
	size_t n, cap;
} sb_gitcfg;

/* Parse the text of the config file `file` (for locations).  Returns the
 * number of warnings reported (0: the whole text was read).  */
int sb_gitcfg_parse(const char *file, const char *text, size_t len, sb_gitcfg *out, sb_diag *d);
/* Read and parse `file`.  Returns 0, 1 when it does not exist (or is not a
 * regular file: git skips it too), or -1 after a warning (unreadable).  */
int sb_gitcfg_read(const char *file, sb_gitcfg *out, sb_diag *d);
void sb_gitcfg_clear(sb_gitcfg *c);

/* The file an include value names, as git resolves it: "~/" is the home,
 * a relative path is relative to the directory of the including file.
 * Returns NULL (and *why) for a form git resolves at run time only
 * (%(prefix)/) or "~name".  Lexical: "..", "." stay.  Caller frees.  */
char *sb_gitcfg_include_target(const char *value, const char *from_file, const char *home,
			       const char **why);

/* Collapse "//", "." and ".." of an absolute path lexically (for paths
 * that do not exist, where no symlink can change what ".." means).
 * Caller frees.  */
char *sb_gitcfg_lexical(const char *p);

/* The result of following a set of config files and their includes.  */
typedef struct sb_gitcfg_walk {
	char **files;      /* every file named (the roots too), absolute, existing or not */
	size_t nfiles;
	char **hooks;      /* core.hooksPath values, "~/" expanded, maybe relative */
	size_t nhooks;
	char **fsmonitor;  /* core.fsmonitor values that name a program */
	size_t nfsmonitor;
} sb_gitcfg_walk;

/* Read `root` and, recursively, every file it includes (cycles and depth
 * beyond SB_GITCFG_MAX_DEPTH stop with a warning), adding to *w.  Never
 * fails: what cannot be read is a warning.  */
void sb_gitcfg_walk_file(const char *root, const char *home, sb_gitcfg_walk *w, sb_diag *d);
void sb_gitcfg_walk_clear(sb_gitcfg_walk *w);

#endif
