/* macos.h - the sandbox-exec backend (unverified on macOS: no Mac in CI).
 * sandbox-exec is run by absolute path; the profile goes inline with -p
 * (no temporary file is left behind), paths as -D NAME=VALUE.  The launch
 * replaces the launcher, so the command's status comes back unchanged
 * through sandbox-exec.
 *
 * Test builds (SB_TEST_HOOKS) replace /usr/bin/sandbox-exec by the stand-in
 * build/test-bin/fake_sandbox_exec next to the test binary: a build-time
 * choice, never an environment switch in a release build.  */
#ifndef SB_MACOS_H
#define SB_MACOS_H

#include <stdbool.h>
#include "compiler/common/diag.h"
#include "compiler/ir/egress.h"
#include "runtime/common/launch.h"

/* The sandbox-exec to run: SB_SANDBOX_EXEC, or the test stand-in.
 * Caller frees.  */
char *sb_macos_sandbox_exec_path(void);

/* Refuse (SB_REFUSED) when sandbox-exec is missing ("requires macOS").  */
int sb_macos_check_available(const char *sandbox_exec, sb_diag *d);

/* An already-sandboxed parent: OMP_SANDBOX or PI_SANDBOX set in `envp`, or
 * (on macOS) a trivial profile that sandbox-exec cannot apply.  Nested
 * Seatbelt cannot work, so this refuses with SB_REFUSED and says
 * "already inside a sandbox".  */
int sb_macos_check_nested(char *const envp[], const char *sandbox_exec, sb_diag *d);

/* chdir to l->cwd and execve sandbox-exec.  Returns only on failure, with
 * a negative sb_status after reporting (status.h).  */
sb_status sb_macos_exec(const sb_launch *l, sb_diag *d);

/* Host rules (runtime/macos/macos_egress.c): a listening socket on a free
 * port of 127.0.0.1 for the egress proxy.  0 with *fd and *port, or
 * SB_REFUSED (reported).  */
int sb_macos_egress_listen(int *fd, int *port, sb_diag *d);
/* Fork: the child runs sandbox-exec (sb_macos_exec); this process serves
 * the proxy on `listen_fd` (taken over) by the rules of `eg` until the
 * sandboxed tree has exited, then returns SB_OK with the child's exit
 * status in *cmd_status (a child killed by a signal: the same signal is
 * raised here first).  SB_REFUSED when the child cannot be started; in
 * the child, returns only on failure, like sb_macos_exec; *cmd_status is
 * then untouched.  `tool` ("sbrun", "omp-sandboxed") begins the proxy's
 * log lines.  */
sb_status sb_macos_egress_exec(const sb_launch *l, const sb_egress *eg, int listen_fd,
			       const char *tool, int *cmd_status, sb_diag *d);

#endif
