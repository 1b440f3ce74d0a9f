/* notify_floor.c - the cost of one seccomp user notification on this host,
 * with a supervisor that does nothing but answer "continue": the floor
 * under any observer built on SECCOMP_RET_USER_NOTIF, such as the denial
 * trace (docs/linux.md, "Denial trace"; bench/run.sh, section 8).
 *
 *   notify_floor N    N directory opens three ways, printing µs per open:
 *                     plain, notified (answered by a thread blocked in
 *                     RECV, synchronous wake-up when the kernel has it, as
 *                     runtime/linux/trace_run.c serves), and the difference.
 *
 * Linux only; x86_64 and aarch64.  Needs no privilege (no_new_privs).  */
#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SET_FLAGS _IOW('!', 4, uint64_t)   /* linux/seccomp.h, 6.6 */

static double opens_us(long n)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++) {
		int fd = openat(AT_FDCWD, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	return ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / 1e3 /
	       (double)n;
}

static void *answer_all(void *arg)
{
	int fd = *(int *)arg;
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	for (;;) {
		memset(&req, 0, sizeof req);
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			return NULL;
		}
		memset(&resp, 0, sizeof resp);
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	if (n <= 0) {
		fprintf(stderr, "usage: notify_floor N\n");
		return 2;
	}
	int up[2], down[2];   /* child -> parent: the listener's number; back: "go" */
	if (pipe(up) < 0 || pipe(down) < 0)
		return 1;
	/* The child filters itself and measures; the parent serves.  The
	 * listener crosses by pidfd_getfd (5.6+), so no socket is needed.  */
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		double plain = opens_us(n);
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = sizeof f / sizeof *f, .filter = f };
		int lfd = -1;
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
			lfd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
					   SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		if (write(up[1], &lfd, sizeof lfd) != (ssize_t)sizeof lfd || lfd < 0)
			_exit(1);
		char go;
		if (read(down[0], &go, 1) != 1)   /* the parent serves from now on */
			_exit(1);
		double notified = opens_us(n);
		printf("plain %.2f\nnotified %.2f\nper_notification %.2f\n", plain, notified,
		       notified - plain);
		fflush(stdout);
		_exit(0);
	}
	int child_fd = -1;
	if (read(up[0], &child_fd, sizeof child_fd) != (ssize_t)sizeof child_fd || child_fd < 0) {
		fprintf(stderr, "notify_floor: the child could not install its filter\n");
		waitpid(pid, NULL, 0);
		return 1;
	}
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int lfd = pidfd >= 0 ? (int)syscall(SYS_pidfd_getfd, pidfd, child_fd, 0) : -1;
	if (lfd < 0) {
		perror("notify_floor: pidfd_getfd");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 1;
	}
	int sync_ok = ioctl(lfd, SET_FLAGS, (unsigned long)1) == 0;
	pthread_t t;
	if (pthread_create(&t, NULL, answer_all, &lfd) != 0)
		return 1;
	if (write(down[1], "g", 1) != 1)
		return 1;
	int st = 0;
	waitpid(pid, &st, 0);
	printf("sync_wake_up %s\n", sync_ok ? "yes" : "no");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
#else
#include <stdio.h>
int main(void)
{
	fprintf(stderr, "notify_floor: Linux only\n");
	return 1;
}
#endif
