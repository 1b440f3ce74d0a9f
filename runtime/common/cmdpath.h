/* cmdpath.h - find the command to run, without a shell.
 * Only absolute PATH entries are searched: a relative entry ("", ".", "bin")
 * would depend on the current directory, which the launcher changes to the
 * workspace.  */
#ifndef SB_CMDPATH_H
#define SB_CMDPATH_H

/* Resolve `name` to an absolute path of an executable regular file.
 * A name with a '/' is taken as is (relative to `cwd` when not absolute);
 * otherwise each absolute entry of `path_var` is tried in order.  The result
 * is not symlink-resolved (argv[0] stays as the user would see it).
 * Returns NULL when nothing is found.  Caller frees.  */
char *sb_cmd_resolve(const char *name, const char *path_var, const char *cwd);

/* The interpreter of a script: when `file` starts with "#!", its
 * interpreter, resolved to an absolute path; "#!/usr/bin/env NAME" (also with
 * -S) resolves NAME on `path_var` (e.g. omp's "#!/usr/bin/env bun" -> the bun
 * on PATH).  NULL for binaries and when nothing is found (*missing then
 * names what was looked for, caller frees; may be NULL).  Caller frees.  */
char *sb_cmd_interpreter(const char *file, const char *path_var, char **missing);

#endif
