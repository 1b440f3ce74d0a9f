/* launch.h - the launch computation, pure: from the prepared paths, the
 * child's environment, the command and a profile, compute exactly what will
 * be executed.  No file system access beyond what the caller already did,
 * no process state: tests compare the whole result.
 *
 * macOS form (unverified on macOS):
 *   exec_path = /usr/bin/sandbox-exec
 *   argv      = sandbox-exec -p <profile text> -D NAME=VALUE... <cmd> [--auto-approve] <args>
 *   envp      = the child's environment, cwd = the workspace
 * The profile text is the profile with list and ancestor params expanded to
 * indexed params (sb_launch_expand_lists), so it stays path-free; every
 * path goes in a -D value.  No temporary file.
 * Linux form:
 *   exec_path = <cmd>, argv = <cmd> [--auto-approve] <args>; the bound
 *   profile is what sb_ll_plan_build() translates.  */
#ifndef SB_LAUNCH_H
#define SB_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/common/diag.h"
#include "compiler/ir/ir.h"
#include "runtime/common/prep.h"

#define SB_SANDBOX_EXEC "/usr/bin/sandbox-exec"

/* Names the launcher binds from the prepared paths; -D may not set them.  */
bool sb_launch_reserved_param(const char *name);

/* HOME, WORKSPACE, TMPDIR, EXTRA_WRITE (list), EXTRA_READ (list), then the
 * user's -D bindings (may be NULL).  */
void sb_launch_bindings(const sb_prep *p, const sb_bindings *user, sb_bindings *out);

typedef struct sb_launch_in {
	sb_platform platform;
	const sb_profile *profile;    /* as read, params unbound */
	const sb_prep *prep;
	const sb_bindings *user;      /* -D NAME=VALUE (sbrun), may be NULL */
	char *const *env;             /* the child's environment (sb_env_build) */
	const char *sandbox_exec;     /* macOS: path of sandbox-exec (NULL: SB_SANDBOX_EXEC) */
	const char *cmd;              /* absolute path of the command */
	char *const *args;            /* its arguments after argv[0] */
	size_t nargs;
	bool auto_approve;            /* OMP_SANDBOX_YOLO=1: --auto-approve first */
	const char *egress_proxy;     /* macOS: "localhost:PORT" of the egress proxy, or NULL */
	/* macOS under the denial trace: every deny rule of the -p text gets
	 * (with message "omp-sandbox rule FILE:LINE TAG"), which Seatbelt puts
	 * at the end of the violation it logs (runtime/macos/macos_trace.h).
	 * NULL (always, untraced): the text is exactly what sbc emits.  */
	const char *trace_tag;
} sb_launch_in;

typedef struct sb_launch {
	char *exec_path;
	char **argv;                  /* NULL-terminated */
	size_t argc, argv_cap;
	char **envp;                  /* NULL-terminated copy */
	char *cwd;
	char *profile_text;           /* macOS: the -p text; Linux: the bound profile's text */
	sb_bindings defines;          /* macOS: the -D list, in order */
	sb_profile *bound;            /* every param bound: for decide() and the Linux plan */
} sb_launch;

/* Returns 0, or SB_REFUSED when the profile needs a param nobody binds
 * (the error names it and says to pass -D NAME=VALUE).  */
/* The macOS launch form: lists and A..B ancestor params are expanded into
 * indexed single params ("EXTRA_WRITE*" with 2 values -> "EXTRA_WRITE_1",
 * "EXTRA_WRITE_2"; "HOME..WORKSPACE" -> "HOME..WORKSPACE_1", ...), which are
 * appended to `defines` with their values (the -D NAME=VALUE arguments,
 * single params included), in a stable order.  The text stays path-free.
 * Returns NULL and names the param in *missing when one is unbound.  */
sb_profile *sb_launch_expand_lists(const sb_profile *p, const sb_bindings *b,
				   sb_bindings *defines, char **missing);
int sb_launch_compute(const sb_launch_in *in, sb_launch *out, sb_diag *d);
void sb_launch_clear(sb_launch *l);

/* Add the trace message (sb_launch_in.trace_tag) to every deny rule of
 * `p`, in place: the rule's policy origin, or "#N" (its index) when it has
 * none or the origin holds a control character.  */
void sb_launch_tag_denies(sb_profile *p, const char *tag);

/* SBPL text of a profile, as sbc emits it (compiler/sbpl/emit_sbpl.h).  */
char *sb_profile_text(const sb_profile *p);

/* Refuse (SB_REFUSED) when the bound profile denies reading the command
 * or its interpreter (e.g. omp or bun installed under $HOME): the program
 * could not start, so say which file and the variable that fixes it.  The
 * suggested directory is the install root right below `home` (~/.bun for
 * ~/.bun/bin/omp, whose packages live in ~/.bun/install), unless that is
 * sensitive; else the file's directory.  */
int sb_launch_check_readable(const sb_profile *bound, const char *home, const char *what,
			     const char *file, sb_diag *d);
/* Warn about each file (the launcher, the profile, the policy) the bound
 * profile lets the sandboxed program write: it could change what runs
 * unconfined next time.  Returns the number of warnings.  */
int sb_launch_check_tamper(const sb_profile *bound, const char *const *files, size_t n,
			   sb_diag *d);

/* Linux: warn (file:line of the rule) about each path an allow rule of the
 * unbound profile names that does not exist at launch, bound with `binds`:
 * Landlock can only grant what exists, so the grant does nothing (a
 * directory created later stays denied).  Presets' rules (optional files)
 * and the compiler's ancestor rules are not reported; macOS-only paths
 * neither.  Returns the number of warnings.  */
int sb_launch_warn_missing(const sb_profile *prof, const sb_bindings *binds, sb_diag *d);

#endif
