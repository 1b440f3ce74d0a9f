#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* gate_run.c - the write gate's supervisor at launch (gate.h): after the
 * launcher has confined itself, it forks; the child installs the gate
 * filter last and execs the command; this process serves the listener
 * until the child has exited, forwarding signals, and ends as it ended.  */
#include "runtime/linux/gate.h"
#include "runtime/linux/fdpass.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/notify_server.h"
#include "runtime/linux/supervise.h"
#include "runtime/linux/trace_notify.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int serve_gate(void *ctx)
{
	return sb_gate_serve(ctx);
}

void sb_gate_run(const sb_ll_plan *plan, sb_gate *gate, int sock, sb_sup *sup,
		 const sb_gate_trace *gt)
{
	/* Undumpable: the sandboxed tree (same uid, same Landlock domain)
	 * can neither ptrace this process nor take its descriptors
	 * (pidfd_getfd) nor write its memory; it could make the calls that
	 * the gate refuses through it.  */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (gt->sock >= 0)   /* no listener comes: records will */
		while (send(gt->sock, "R", 1, MSG_NOSIGNAL) < 0 && errno == EINTR)
			;
	int listener = sb_fd_recv(sock);
	close(sock);
	sb_gate *g = NULL;
	if (listener >= 0) {
		g = gate;
		sb_gate_set_listener(g, listener);
	} else {
		sb_gate_free(gate);
	}
	sb_trace_notifier *tn = NULL;
	if (g && gt->sock >= 0) {
		tn = sb_trace_notifier_new(listener, plan, gt->handled, gt->trunc_guard, NULL);
		sb_trace_notifier_set_remote(tn, gt->sock);
		sb_gate_set_trace(g, tn, gt->trunc_guard);
	}
	int wstatus = 0;
	bool done = false;
	sb_notify_server srv = { .running = false };
	/* the listener in a thread of its own; polled here when none */
	bool polled = g && !sb_notify_server_start(&srv, serve_gate, g);
	while (!done) {
		struct pollfd p[3] = { { .fd = sup->pidfd, .events = POLLIN },
				       { .fd = sup->sigfd, .events = POLLIN },
				       { .fd = listener, .events = POLLIN } };
		int k = poll(p, polled && listener >= 0 ? 3 : 2, -1);
		if (k < 0 && errno != EINTR)
			break;
		if (k <= 0)
			continue;
		if (polled && listener >= 0 && (p[2].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    sb_gate_serve(g) < 0) {
			close(listener);   /* every filtered process is gone */
			listener = -1;
		}
		if (p[1].revents & POLLIN)
			sb_sup_handle(sup, sup->sigfd, &wstatus);
		if (p[0].revents & POLLIN)
			done = sb_sup_handle(sup, sup->pidfd, &wstatus);
	}
	if (!done)   /* poll failed: still wait, never leave the child */
		while (waitpid(sup->child, &wstatus, 0) < 0 && errno == EINTR)
			;
	sb_notify_server_stop(&srv);
	/* What is left of the tree now gets ENOSYS from the gated calls.  */
	if (listener >= 0)
		close(listener);
	sb_gate_free(g);
	sb_trace_notifier_free(tn);
	if (gt->sock >= 0)
		close(gt->sock);
	sb_sup_exit(sup, wstatus);
}
#endif /* __linux__ */
