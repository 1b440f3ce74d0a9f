/* trace_notify.h - the Linux denial trace (docs/linux.md, "Denial trace"):
 * a seccomp user-notification filter on the path-taking system calls, whose
 * listener the supervisor (the sbrun parent, outside the sandbox) serves.
 * Every notification is answered "continue": the kernel decides, the
 * supervisor only observes.  Two exceptions, each answered EPERM, the
 * answer the launch filters give when tracing is off: socket() calls the
 * profile denies, and below Landlock ABI 3 what the truncation guard
 * refuses (truncate(2), O_TRUNC on an open not for writing).  The supervisor reads the path from the caller's
 * memory, resolves it as the kernel will, and asks the Landlock plan
 * whether the access is granted; a refused one goes to the tracer
 * (runtime/common/denial.h), which names the policy line.
 *
 * Fail closed: when the listener is gone (the supervisor died), the
 * filtered calls fail with ENOSYS; they never run unconfined, and the
 * Landlock domain stays in force either way.  */
#ifndef SB_TRACE_NOTIFY_H
#define SB_TRACE_NOTIFY_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "runtime/common/denial.h"

struct sb_ll_plan;

/* Child side, after no_new_privs, the launch filter and restrict_self:
 * install the trace filter (socket() trapped as the plan says: AF_UNIX
 * when `deny_unix`, every other family when `deny_net`), send the
 * listener over `sock` and close both; `with_bind`: bind() too (the write
 * gate's, gate.h, which then serves this listener); `masks`: the access(2)
 * family too (only a mask refuses it), and with `stat_probes` the stat
 * family (a notification for every stat by name: the cost of seeing a
 * probe of a hidden path, docs/trace.md).  0, or -1 with errno.  */
int sb_trace_child_install(int sock, bool deny_unix, bool deny_net, bool with_bind, bool masks,
			   bool stat_probes);

/* Parent side: receive the listener from `sock` (blocks until the child
 * sends it or exits); -1 when none came; -2 when the write gate's
 * supervisor serves it, and denials come on `sock` as records
 * (sb_trace_record_recv).  */
int sb_trace_recv_listener(int sock);

typedef struct sb_trace_notifier sb_trace_notifier;

/* `handled`: the Landlock rights the effective ABI handles (the others are
 * never refused); 0 when running without Landlock.  `trunc_guard`: the
 * child's truncation guard left truncate(2) and the O_TRUNC opens to this
 * supervisor (seccomp_trunc.c), which answers them EPERM and reports them.
 * Borrows all.  */
sb_trace_notifier *sb_trace_notifier_new(int listener, const struct sb_ll_plan *plan,
					 uint64_t handled, bool trunc_guard, sb_tracer *t);
void sb_trace_notifier_free(sb_trace_notifier *n);
/* The tracer is shared with another thread (trace_run.c): `lock` is held
 * around every call into it, after the caller has been answered.  */
void sb_trace_notifier_set_lock(sb_trace_notifier *n, pthread_mutex_t *lock);
/* Serve one notification: blocks until one comes (a signal interrupts
 * it: 0).  -1 when the listener has hung up (every filtered process is
 * gone).  */
int sb_trace_notifier_serve(sb_trace_notifier *n);
/* Handle one notification another server received (the write gate's
 * supervisor hands over what is not a gated call): answer, classify,
 * report.  */
struct seccomp_notif;
void sb_trace_notifier_handle(sb_trace_notifier *n, const struct seccomp_notif *req);
/* Classify and report a call another server performs and answers itself
 * (the write gate: a write its view of the masks fails with ENOENT, which
 * the trace then names as hidden); the caller still waits.  */
void sb_trace_notifier_observe(sb_trace_notifier *n, const struct seccomp_notif *req);
/* One denial to the tracer, or as a record to the remote end.  */
void sb_trace_notifier_report(sb_trace_notifier *n, const sb_denial *d);
/* Send denials as records over `fd` (a SOCK_SEQPACKET socket) instead of
 * calling the tracer: the notifier runs in the gate's supervisor, inside
 * the sandbox, and the tracer in the launcher outside.  */
void sb_trace_notifier_set_remote(sb_trace_notifier *n, int fd);
/* The launcher's side: read one record from `fd` (non-blocking) into `t`.
 * 1 when one was read, 0 when none is waiting, -1 at the end.  */
int sb_trace_record_recv(int fd, sb_tracer *t);

#endif
