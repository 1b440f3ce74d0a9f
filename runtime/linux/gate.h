/* gate.h - the Linux write gate (docs/linux.md, "The write gate"): a deny
 * on writes inside a writable tree (`deny write exactly workspace/.envrc`,
 * the default policy's protected files) enforced by name, exactly, for as
 * long as the session lasts, whatever happens to the path outside.
 *
 * The command's process installs a seccomp filter that sends the calls
 * that create, write, remove or rename by path (open/openat/creat for
 * writing, openat2, mkdir, mknod, symlink, link, unlink, rmdir, rename,
 * truncate, bind) to a listener; the supervisor (the launcher's process,
 * already confined by the same Landlock domain, mount namespace and
 * seccomp filters, and undumpable) resolves the path itself, pins the
 * parent directory by a descriptor, asks sb_eval_decide() about the
 * canonical name, and then *performs* the call on the pinned directory:
 * the answer is its result, or the descriptor it opened (ADDFD).  Nothing
 * the caller changes in its memory after the notification, and no rename
 * of a parent, can make the performed call differ from the checked one.
 *
 * Fail closed: when the supervisor is gone, the filtered calls fail with
 * ENOSYS; they never run unchecked.  */
#ifndef SB_GATE_H
#define SB_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "compiler/ir/ir.h"

/* Can this process start a gate?  Tried in a throwaway child: a filter
 * with a listener (refused with EBUSY inside another supervised sandbox:
 * seccomp allows one listener per process).  true, or false with `why`.  */
bool sb_gate_available(char *why, size_t whylen);

/* Child side, last step before execve (after no_new_privs, the launch
 * filters and landlock_restrict_self): install the gate filter, send its
 * listener over `sock`, close both.  0, or -1 with errno.  */
int sb_gate_child_install(int sock);

/* An existing file a gated deny names, by inode: a write through another
 * name (a hard link, a bind mount) is refused too.  */
typedef struct sb_gate_inode {
	unsigned long dev, ino;
} sb_gate_inode;

typedef struct sb_gate sb_gate;

/* Supervisor side.  `bound` (borrowed) decides; `inodes` (copied) are the
 * protected existing files.  `listener` -1: made before the launcher's
 * forks (its allocations then touch no copy-on-write page), the listener
 * set once received.  */
sb_gate *sb_gate_new(int listener, const sb_profile *bound, const sb_gate_inode *inodes,
		     size_t ninodes);
void sb_gate_set_listener(sb_gate *g, int listener);
void sb_gate_free(sb_gate *g);
/* Serve one notification.  0; -1 when the listener has hung up (every
 * filtered process is gone).  */
int sb_gate_serve(sb_gate *g);
/* Traced: the calls the gate does not perform (execve, reads, sockets)
 * are answered by `tn` (borrowed; its denials go where it is set to send
 * them), and the gate's refusals are reported through it.  `trunc_guard`:
 * below Landlock ABI 3 the trace answers truncate(2) and O_TRUNC read
 * opens itself (EPERM).  */
struct sb_trace_notifier;
void sb_gate_set_trace(sb_gate *g, struct sb_trace_notifier *tn, bool trunc_guard);
/* Counters for the tests and --plan: calls performed, refused.  */
void sb_gate_counts(const sb_gate *g, size_t *performed, size_t *refused);

#endif
