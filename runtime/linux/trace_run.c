#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* trace_run.c - sbrun --trace / --learn on Linux: the supervisor
 * (supervise.h) whose child runs the usual launch sequence with the trace
 * filter added last, and whose parent serves the filter's listener
 * (trace_notify.h).  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/supervise.h"
#include "runtime/linux/trace_notify.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct traced {
	const sb_ll_plan *plan;
	sb_linux_opts o;
	const char *path;
	char *const *argv, *const *envp;
	sb_diag *d;
	int sv[2];                 /* [0] parent's end, [1] child's end */
	uint64_t handled;
	sb_tracer *t;
	int (*exit_status_of)(int);
	int listener;
	sb_trace_notifier *n;
} traced;

static int child(void *arg)
{
	traced *x = arg;
	close(x->sv[0]);
	x->o.trace = true;
	x->o.trace_sock = x->sv[1];
	return x->exit_status_of(sb_linux_exec(x->plan, &x->o, x->path, x->argv, x->envp, x->d));
}

static int start(void *arg, pid_t pid)
{
	(void)pid;
	traced *x = arg;
	close(x->sv[1]);
	x->sv[1] = -1;
	x->listener = sb_trace_recv_listener(x->sv[0]);
	close(x->sv[0]);
	x->sv[0] = -1;
	if (x->listener < 0)
		return -1;   /* the child failed before confining itself */
	x->n = sb_trace_notifier_new(x->listener, x->plan, x->handled, x->t);
	return x->listener;
}

static int ready(void *arg)
{
	traced *x = arg;
	return sb_trace_notifier_serve(x->n);
}

int sb_linux_exec_traced(const sb_ll_plan *plan, const sb_linux_opts *o, const char *path,
			 char *const argv[], char *const envp[], sb_tracer *t,
			 int (*exit_status_of)(int), sb_diag *d)
{
	traced x = { .plan = plan, .o = *o, .path = path, .argv = argv, .envp = envp, .d = d,
		     .t = t, .exit_status_of = exit_status_of, .listener = -1 };
	sb_ll_probe pr;
	sb_ll_probe_kernel(&pr);
	int min_abi = o->min_abi > 0 ? o->min_abi : SB_LL_MIN_ABI_DEFAULT;
	if (pr.kernel_abi > 0 && pr.eff_abi >= min_abi)
		x.handled = sb_ll_abi_info_for(pr.eff_abi).fs_mask;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, x.sv) < 0) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "trace",
			       "cannot start the trace supervisor: socketpair: %s", strerror(errno));
		return SB_REFUSED;
	}
	sb_supervise_ops ops = { .child = child, .child_arg = &x, .start = start,
				 .ready = ready, .arg = &x };
	int status = sb_supervise(&ops);
	int e = errno;
	for (int i = 0; i < 2; i++)
		if (x.sv[i] >= 0)
			close(x.sv[i]);
	if (x.listener >= 0)
		close(x.listener);
	sb_trace_notifier_free(x.n);
	if (status < 0) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "trace",
			       "cannot start the trace supervisor: fork: %s", strerror(e));
		return SB_REFUSED;
	}
	return status;
}
#endif /* __linux__ */
