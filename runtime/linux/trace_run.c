#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* trace_run.c - sbrun --trace / --learn on Linux: the supervising parent
 * (supervise.h) whose child runs the usual launch sequence with the trace
 * filter added last, and which serves the filter's listener
 * (trace_notify.h) until the child has exited.  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/notify_server.h"
#include "runtime/linux/supervise.h"
#include "runtime/linux/trace_notify.h"
#include "runtime/linux/tree.h"
#include "runtime/common/denial.h"
#include "runtime/common/proxy.h"
#include "runtime/common/status.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every request the egress proxy refused so far (proxy.h), as a denial.
 * Non-blocking: called when the socket is readable, and once more at the
 * end for what is still queued.  */
static void drain_events(int fd, sb_tracer *t)
{
	char msg[1700];
	for (;;) {
		ssize_t k = recv(fd, msg, sizeof msg - 1, MSG_DONTWAIT);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return;
		const char *host, *why;
		int port;
		if (sb_proxy_trace_parse(msg, (size_t)k, &host, &port, &why) < 0) {
			sb_tracer_lost(t, 1);
			continue;
		}
		sb_denial dn = { .access = SB_ACC_CONNECT, .path = host, .port = port,
				 .detail = why, .process = "egress proxy", .pid = 0 };
		sb_tracer_denied(t, &dn);
	}
}

static int serve_trace(void *ctx)
{
	return sb_trace_notifier_serve(ctx);
}

/* The refusals a kernel filter makes before any notification (issue 25:
 * the trace observes, it never decides), and the probes left out by
 * default, are named in the summary: an empty report must not read as
 * "nothing was refused".  docs/trace.md, "What the trace guarantees".  */
static void say_unobserved(sb_tracer *t, const sb_ll_plan *plan, const sb_linux_opts *o,
			   bool trunc_guard)
{
	if (plan->net_block)
		sb_tracer_unobserved(t, "socket() calls: the policy denies the network, and the "
					"kernel filter refuses them (EPERM) before the trace sees them");
	else if (plan->unix_block || o->egress)
		sb_tracer_unobserved(t, "UNIX-domain socket() calls: the kernel filter refuses "
					"them (EPERM) before the trace sees them");
	if (trunc_guard)
		sb_tracer_unobserved(t, "truncate(2) and O_TRUNC opens not for writing: below "
					"Landlock ABI 3 the kernel filter refuses them (EPERM)");
	bool hides = false;
	for (size_t i = 0; i < plan->masks.n && !hides; i++)
		hides = plan->masks.v[i].kind == SB_MASK_HIDE;
	if (hides && !o->trace_stat)
		sb_tracer_unobserved(t, "stat() of paths the masks hide (they look absent); "
					"--trace-stat or OMP_SANDBOX_TRACE_STAT=1 reports them");
}

int sb_linux_exec_traced(const sb_ll_plan *plan, const sb_linux_opts *o, const char *path,
			 char *const argv[], char *const envp[], sb_tracer *t,
			 int (*exit_status_of)(int), sb_diag *d)
{
	uint64_t handled = 0;
	bool trunc_guard = false;
	sb_ll_probe pr;
	sb_ll_probe_kernel(&pr);
	int min_abi = o->min_abi > 0 ? o->min_abi : SB_LL_MIN_ABI_DEFAULT;
	if (pr.kernel_abi > 0 && pr.eff_abi >= min_abi) {
		/* the same ABI and guard decision as the child's (linux_exec.c) */
		sb_ll_abi_info ai = sb_ll_abi_info_for(pr.eff_abi);
		handled = ai.fs_mask;
		trunc_guard = sb_seccomp_truncate_guard_needed(&ai);
	}
	say_unobserved(t, plan, o, trunc_guard);
	int sv[2], ev[2] = { -1, -1 };
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0 ||
	    (o->egress && socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, ev) < 0)) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "trace",
			       "cannot start the trace supervisor: socketpair: %s", strerror(errno));
		return SB_REFUSED;
	}
	sb_sup sup = { .end_tree = !o->keep_background };
	pid_t pid = sb_sup_fork(&sup);
	if (pid < 0) {
		int e = errno;
		close(sv[0]);
		close(sv[1]);
		if (ev[0] >= 0) {
			close(ev[0]);
			close(ev[1]);
		}
		sb_diag_report(d, SB_SEV_ERROR, NULL, "trace",
			       "cannot start the trace supervisor: fork: %s", strerror(e));
		return SB_REFUSED;
	}
	if (pid == 0) {
		close(sv[0]);
		if (ev[0] >= 0)
			close(ev[0]);
		sb_linux_opts co = *o;
		co.trace = true;
		co.trace_sock = sv[1];
		co.trace_events = ev[1];
		_exit(exit_status_of(sb_linux_exec(plan, &co, path, argv, envp, d)));
	}
	close(sv[1]);
	if (ev[1] >= 0)
		close(ev[1]);
	/* Blocks until the child sends the listener, or exits without one
	 * (it failed before confining itself; its status says why).  */
	int listener = sb_trace_recv_listener(sv[0]);
	int records = -1;   /* the write gate's supervisor reports here */
	if (listener == -2) {
		records = sv[0];
		listener = -1;
	} else {
		close(sv[0]);
	}
	sb_trace_notifier *n =
		listener >= 0 ? sb_trace_notifier_new(listener, plan, handled, trunc_guard, t) : NULL;
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	sb_notify_server srv = { .running = false };
	/* Without a thread (pthread_create failed) the listener is polled
	 * here, as before: slower, the same answers.  */
	if (n)
		sb_trace_notifier_set_lock(n, &lock);
	bool polled = n && !sb_notify_server_start(&srv, serve_trace, n);
	int wstatus = 0;
	bool done = false;
	while (!done) {
		/* the listener last: it is left out once every filtered
		 * process is gone */
		struct pollfd p[5] = { { .fd = sup.pidfd, .events = POLLIN },
				       { .fd = sup.sigfd, .events = POLLIN },
				       { .fd = ev[0], .events = POLLIN },
				       { .fd = records, .events = POLLIN },
				       { .fd = listener, .events = POLLIN } };
		int k = poll(p, polled && listener >= 0 ? 5 : 4, -1);
		if (k < 0 && errno != EINTR)
			break;
		if (k <= 0)
			continue;
		if (ev[0] >= 0 && (p[2].revents & POLLIN)) {
			pthread_mutex_lock(&lock);
			drain_events(ev[0], t);
			pthread_mutex_unlock(&lock);
		}
		if (records >= 0 && (p[3].revents & (POLLIN | POLLHUP | POLLERR))) {
			pthread_mutex_lock(&lock);
			int r;
			while ((r = sb_trace_record_recv(records, t)) > 0)
				;
			pthread_mutex_unlock(&lock);
			if (r < 0) {
				close(records);   /* the gate's supervisor is gone */
				records = -1;
			}
		}
		if (polled && listener >= 0 && (p[4].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    sb_trace_notifier_serve(n) < 0) {
			close(listener);   /* every filtered process is gone */
			listener = -1;
		}
		if (p[1].revents & POLLIN)
			sb_sup_handle(&sup, sup.sigfd, &wstatus);
		if (p[0].revents & POLLIN)
			done = sb_sup_handle(&sup, sup.pidfd, &wstatus);
	}
	if (!done)   /* poll failed: still wait, never leave the child */
		while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
			;
	if (sup.end_tree)
		sb_tree_end();   /* what the command left behind (tree.h) */
	sb_notify_server_stop(&srv);
	if (n)
		sb_trace_notifier_set_lock(n, NULL);
	if (listener >= 0)
		close(listener);
	if (ev[0] >= 0) {
		drain_events(ev[0], t);
		close(ev[0]);
	}
	if (records >= 0) {
		while (sb_trace_record_recv(records, t) > 0)
			;
		close(records);
	}
	sb_trace_notifier_free(n);
	close(sup.pidfd);
	close(sup.sigfd);
	sigprocmask(SIG_SETMASK, &sup.saved, NULL);
	/* the shell's view (128+N for signal N), returned instead of
	 * re-raising: the caller prints the trace summary and writes the
	 * learned policy after the command */
	return sb_wait_exit_code(wstatus);
}
#endif /* __linux__ */
