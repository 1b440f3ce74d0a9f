/* sbpl_load.h - load a policy or a profile for evaluation (sbc explain,
 * sbc diff) and bind its params with documented sample defaults.  */
#ifndef SB_SBPL_LOAD_H
#define SB_SBPL_LOAD_H

#include <stdbool.h>
#include <stdio.h>
#include "compiler/common/diag.h"
#include "compiler/ir/ir.h"

/* Sample values used for runtime params that -D does not bind, so a
 * profile can be explained without a Mac: HOME=/Users/me,
 * WORKSPACE=/Users/me/src/project, TMPDIR=/private/var/folders/zz/T;
 * list params (NAME*) are empty.  */
#define SB_SAMPLE_HOME "/Users/me"
#define SB_SAMPLE_WORKSPACE "/Users/me/src/project"
#define SB_SAMPLE_TMPDIR "/private/var/folders/zz/T"

/* FILE ending in ".sbx": parse, check (sb_check_all) and lower in memory
 * with `defs` as compile-time bindings; anything else: read as SBPL.
 * NULL on any error (reported to d).  */
sb_profile *sb_load_profile(const char *file, const sb_bindings *defs, sb_diag *d);

/* Parse, check (sb_check_all) and lower the policy FILE in memory, as sbc
 * compiles it, `defs` being the compile-time -D bindings.  With
 * `warn_unused`, a -D the policy never uses ($NAME) is warned about (sbrun
 * POLICY.sbx).  NULL on any error (reported to d).  */
sb_profile *sb_compile_policy(const char *file, const sb_bindings *defs, bool warn_unused,
			      sb_diag *d);

/* The bindings used to evaluate `p`: every -D value (a list param's value
 * is split at ':'), then the launch -D list the profile carries as data
 * (sb_profile.launch_params: what sbrun --print-profile writes), then the
 * sample defaults for HOME, WORKSPACE, TMPDIR and empty lists for what is
 * still unbound.  The names that got a sample value are added to *samples
 * (may be NULL).  */
void sb_eval_bindings(const sb_profile *p, const sb_bindings *defs, sb_bindings *out,
		      sb_bindings *samples);

/* A user-given query path: "~" or "$HOME", "$WORKSPACE", "$TMPDIR" (or any
 * bound name) at the start are replaced from `b`, then the path is
 * normalised lexically.  NULL (with *why) when it is not absolute or has
 * "..".  Caller frees.  */
char *sb_query_path(const char *arg, const sb_bindings *b, const char **why);

/* Parse a vnode type name (regular-file / file, directory / dir, symlink,
 * character-device, block-device, socket, fifo, tty); 0 when unknown.  */
unsigned sb_vnode_query_type(const char *name);

#endif
