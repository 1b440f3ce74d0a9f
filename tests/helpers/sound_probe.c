/* sound_probe.c - makes each call the untraced sandbox refuses and prints
 * its outcome, for tests/suite-trace-sound.sh and
 * tests/escape/50-own-seccomp-listener.sh.
 *
 *   sound_probe [--kill SIG] [--wait-gone] [--listen] RO_FILE GATED_FILE
 *
 * With --kill or --wait-gone the calls come from a detached grandchild.
 * Before the calls, optionally:
 *   --kill SIG    send SIG (KILL or STOP) to every ancestor named "sbrun" or
 *                 "omp-sandboxed" (the launcher, the trace's supervisor, the
 *                 write gate's serving parent) and print what each answered;
 *   --wait-gone   wait (20 s at most) until those ancestors have exited: a
 *                 process of the tree that outlives its supervisors;
 *   --listen      install a seccomp filter of its own with a listener, served
 *                 by a child that answers every notification CONTINUE, and
 *                 make the calls again under it.
 * Output: "NAME OUTCOME" a line, OUTCOME "ok" or the errno name ("TIMEOUT"
 * when a call did not return in 3 s: a stopped supervisor).  Each call runs
 * in a child of its own, so a hanging call is bounded and nothing leaks. */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#if defined(__x86_64__)
#define PROBE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define PROBE_ARCH AUDIT_ARCH_AARCH64
#else
#error "sound_probe: x86_64 and aarch64 only"
#endif

static const char *ro_file, *gated_file;

static const char *ename(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOSYS: return "ENOSYS";
	case EBUSY: return "EBUSY";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case ENOTTY: return "ENOTTY";
	case ENOKEY: return "ENOKEY";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EROFS: return "EROFS";
	case EEXIST: return "EEXIST";
	case ENOTDIR: return "ENOTDIR";
	default: return "EOTHER";
	}
}

/* One call; returns 0 (it succeeded) or the errno.  */
static int do_call(const char *name)
{
	long r = -1;
	if (!strcmp(name, "socket_inet")) {
		r = socket(AF_INET, SOCK_STREAM, 0);
	} else if (!strcmp(name, "socket_unix")) {
		r = socket(AF_UNIX, SOCK_STREAM, 0);
	} else if (!strcmp(name, "io_uring_setup")) {
		char params[120] = { 0 };   /* struct io_uring_params, zeroed */
		r = syscall(__NR_io_uring_setup, 1, params);
	} else if (!strcmp(name, "keyctl")) {
		r = syscall(__NR_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3 /* session */, 0);
	} else if (!strcmp(name, "add_key")) {
		r = syscall(__NR_add_key, "user", "sbx-sound", "x", 1, -2 /* process */);
	} else if (!strcmp(name, "request_key")) {
		r = syscall(__NR_request_key, "user", "sbx-sound-none", NULL, -2);
	} else if (!strcmp(name, "tiocsti")) {
		/* no terminal inside: an ioctl that gets through says ENOTTY */
		char c = ' ';
		r = ioctl(0, TIOCSTI, &c);
	} else if (!strcmp(name, "truncate")) {
		r = truncate(ro_file, 0);
	} else if (!strcmp(name, "open_trunc_rdonly")) {
		r = open(ro_file, O_RDONLY | O_TRUNC);
	} else if (!strcmp(name, "gate_write")) {
		r = open(gated_file, O_WRONLY | O_CREAT, 0644);
	}
	return r >= 0 ? 0 : errno;
}

static const char *const names[] = { "socket_inet", "socket_unix", "io_uring_setup", "keyctl",
				     "add_key", "request_key", "tiocsti", "truncate",
				     "open_trunc_rdonly", "gate_write" };

static void run_calls(const char *phase)
{
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		int p[2];
		if (pipe(p) < 0)
			return;
		pid_t c = fork();
		if (c == 0) {
			close(p[0]);
			alarm(3);
			int e = do_call(names[i]);
			(void)!write(p[1], &e, sizeof e);
			_exit(0);
		}
		close(p[1]);
		int e = -1;
		ssize_t k = c > 0 ? read(p[0], &e, sizeof e) : -1;
		close(p[0]);
		if (c > 0)
			waitpid(c, NULL, 0);
		printf("%s %s %s\n", phase, names[i],
		       k != (ssize_t)sizeof e ? "TIMEOUT" : e == 0 ? "ok" : ename(e));
		fflush(stdout);
	}
}

/* The ancestors that supervise: the launcher's names.  */
static int supervisors(pid_t *out, int cap)
{
	int n = 0;
	pid_t pid = getppid();
	while (pid > 1 && n < cap) {
		char path[64], comm[64] = "", line[256];
		snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
		FILE *f = fopen(path, "r");
		if (!f)
			break;
		if (!fgets(comm, sizeof comm, f))
			comm[0] = '\0';
		fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
		if (strcmp(comm, "sbrun") && strcmp(comm, "omp-sandboxed"))
			break;
		out[n++] = pid;
		snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
		f = fopen(path, "r");
		pid_t pp = 0;
		while (f && fgets(line, sizeof line, f))
			if (sscanf(line, "PPid: %d", &pp) == 1)
				break;
		if (f)
			fclose(f);
		pid = pp;
	}
	return n;
}

/* A filter of this process's own that sends every call above to a listener
 * answering CONTINUE: if the kernel let it be installed, the newest filter's
 * notification would win over an older one's (seccomp's equal actions go to
 * the newest), so a supervisor's refusal by notification would be bypassed. */
static void own_listener(void)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) {
		printf("listener socketpair-%s\n", ename(errno));
		return;
	}
	pid_t server = fork();
	if (server == 0) {
		close(sv[0]);
		char b;
		struct iovec iov = { &b, 1 };
		union { struct cmsghdr h; char buf[CMSG_SPACE(sizeof(int))]; } u;
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
				    .msg_controllen = sizeof u.buf };
		if (recvmsg(sv[1], &m, 0) <= 0 || !CMSG_FIRSTHDR(&m))
			_exit(0);
		int lfd;
		memcpy(&lfd, CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof lfd);
		alarm(60);
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;
		for (;;) {
			memset(&req, 0, sizeof req);
			if (ioctl(lfd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
				if (errno == EINTR)
					continue;
				_exit(0);
			}
			memset(&resp, 0, sizeof resp);
			resp.id = req.id;
			resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
			(void)ioctl(lfd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
		}
	}
	close(sv[1]);
	const unsigned nrs[] = { __NR_socket, __NR_io_uring_setup, __NR_keyctl, __NR_add_key,
				 __NR_request_key, __NR_ioctl, __NR_truncate, __NR_openat,
#ifdef __NR_open
				 __NR_open,
#endif
	};
	struct sock_filter f[4 + 2 * (sizeof nrs / sizeof *nrs) + 1];
	size_t n = 0;
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PROBE_ARCH, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (size_t i = 0; i < sizeof nrs / sizeof *nrs; i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nrs[i], 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
	}
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = (unsigned short)n, .filter = f };
	(void)prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	int lfd = (int)syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
			       SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	printf("listener %s\n", lfd >= 0 ? "ok" : ename(errno));
	fflush(stdout);
	if (lfd >= 0) {
		char b = 'L';
		struct iovec iov = { &b, 1 };
		union { struct cmsghdr h; char buf[CMSG_SPACE(sizeof(int))]; } u;
		memset(&u, 0, sizeof u);
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
				    .msg_controllen = sizeof u.buf };
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &lfd, sizeof lfd);
		(void)sendmsg(sv[0], &m, 0);
		close(lfd);
	}
	close(sv[0]);
	run_calls("listen");
	if (server > 0) {
		kill(server, SIGKILL);
		waitpid(server, NULL, 0);
	}
}

int main(int argc, char **argv)
{
	int sig = 0;
	bool wait_gone = false, listen = false;
	int i = 1;
	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--kill") && i + 1 < argc) {
			i++;
			sig = !strcmp(argv[i], "STOP") ? SIGSTOP : SIGKILL;
		} else if (!strcmp(argv[i], "--wait-gone")) {
			wait_gone = true;
		} else if (!strcmp(argv[i], "--listen")) {
			listen = true;
		} else {
			fprintf(stderr, "sound_probe: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (argc - i != 2) {
		fprintf(stderr, "usage: sound_probe [--kill KILL|STOP] [--wait-gone] [--listen] "
				"RO_FILE GATED_FILE\n");
		return 2;
	}
	ro_file = argv[i];
	gated_file = argv[i + 1];
	pid_t sup[8];
	int nsup = supervisors(sup, 8);
	int pfd[8];
	for (int k = 0; k < nsup; k++)
		pfd[k] = (int)syscall(__NR_pidfd_open, sup[k], 0);
	printf("supervisors %d\n", nsup);
	fflush(stdout);
	if (sig || wait_gone) {
		/* The calls come from a process of the tree that outlives the
		 * command: a double fork into a session of its own (the command's
		 * direct child dies with its supervisor: PR_SET_PDEATHSIG).  The
		 * command itself ends at once (--wait-gone), or waits to be
		 * ended with its supervisors (--kill).  */
		pid_t c = fork();
		if (c < 0)
			return 1;
		if (c > 0) {
			if (wait_gone)
				return 0;
			for (int s = 0; s < 30; s++)
				sleep(1);
			return 0;
		}
		setsid();
		if (fork() > 0)
			_exit(0);
	}
	if (sig)   /* the outermost first: an inner one's death ends the tree */
		for (int k = nsup - 1; k >= 0; k--)
			printf("signal %s %s\n", sig == SIGSTOP ? "STOP" : "KILL",
			       kill(sup[k], sig) == 0 ? "ok" : ename(errno));
	if (wait_gone || sig == SIGKILL) {
		int gone = 0;
		for (int k = 0; k < nsup; k++) {
			struct pollfd p = { .fd = pfd[k], .events = POLLIN };
			if (pfd[k] >= 0 && poll(&p, 1, 20000) == 1)
				gone++;
		}
		printf("gone %d of %d\n", gone, nsup);
	}
	fflush(stdout);
	run_calls("plain");
	if (listen)
		own_listener();
	if (sig == SIGSTOP)
		for (int k = 0; k < nsup; k++)
			kill(sup[k], SIGCONT);
	printf("done\n");
	return 0;
}
