#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* namespaces.c - new namespaces with the caller's ids mapped to themselves
 * (sb_ns_unshare, also used by egress.c for the network namespace), and
 * the private mount namespace the masks live in (docs/linux.md, "Masks").  Root gets a new mount namespace only; anyone
 * else gets a new user namespace that maps their own uid and gid to
 * themselves (files keep their owners, git sees no "dubious ownership"),
 * and a mount namespace owned by it.  Every mount is made private first,
 * so nothing made here propagates out and nothing mounted outside later
 * propagates in.  */
#include "runtime/linux/ll_internal.h"
#include "runtime/common/status.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = strlen(text);
	ssize_t w = write(fd, text, n);
	int e = errno;
	close(fd);
	if (w != (ssize_t)n) {
		errno = w < 0 ? e : EIO;
		return -1;
	}
	return 0;
}

/* The failed step names the namespaces asked for.  */
static const char *unshare_step(int flags)
{
	switch (flags & (CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET)) {
	case CLONE_NEWNS:
		return "unshare(CLONE_NEWNS)";
	case CLONE_NEWNET:
		return "unshare(CLONE_NEWNET)";
	case CLONE_NEWUSER | CLONE_NEWNS:
		return "unshare(CLONE_NEWUSER|CLONE_NEWNS)";
	case CLONE_NEWUSER | CLONE_NEWNET:
		return "unshare(CLONE_NEWUSER|CLONE_NEWNET)";
	default:
		return "unshare";
	}
}

int sb_ns_unshare(int flags, const char **step)
{
	/* The ids outside, read before unshare: inside they are the overflow
	 * id until the maps are written.  An unprivileged process may map only
	 * its own effective ids, one line each.  */
	uid_t uid = geteuid();
	gid_t gid = getegid();
	*step = unshare_step(flags);
	if (unshare(flags) < 0)
		return -1;
	if (!(flags & CLONE_NEWUSER))
		return 0;
	char map[64];
	/* An unprivileged gid map needs setgroups denied first (absent before
	 * Linux 3.19, hence ENOENT).  */
	*step = "writing /proc/self/setgroups";
	if (write_file("/proc/self/setgroups", "deny") < 0 && errno != ENOENT)
		return -1;
	*step = "writing /proc/self/uid_map";
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	if (write_file("/proc/self/uid_map", map) < 0)
		return -1;
	*step = "writing /proc/self/gid_map";
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	if (write_file("/proc/self/gid_map", map) < 0)
		return -1;
	return 0;
}

int sb_ns_enter(bool userns, const char **step)
{
	if (sb_ns_unshare(CLONE_NEWNS | (userns ? CLONE_NEWUSER : 0), step) < 0)
		return -1;
	/* Before any mount: a copied namespace keeps shared propagation, and a
	 * mask that propagated out would change the host.  */
	*step = "making every mount private";
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -1;
	return 0;
}

/* The probe's child: what it needs and where it says why it failed.  */
typedef struct probe_arg {
	bool userns;
	int fd;   /* write end of the pipe */
} probe_arg;

static int probe_child(void *p)
{
	const probe_arg *a = p;
	const char *step = "";
	char msg[200];
	int rc = sb_ns_enter(a->userns, &step);
	/* AppArmor's unprivileged-userns restriction lets unshare succeed
	 * and refuses the first mount: try one.  Only in this child's
	 * private namespace, after the propagation change above.  */
	if (rc == 0) {
		step = "mounting a tmpfs";
		rc = mount("tmpfs", "/", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			   "size=4k,nr_inodes=4,mode=0000");
	}
	/* Return, never _exit(): clone's own code ends the child with the exit
	 * system call, and a noreturn call on this small stack makes ASan warn
	 * on every launch of the sanitizer build (its stack is not the one
	 * ASan knows).  */
	if (rc < 0) {
		int n = snprintf(msg, sizeof msg, "%s: %s", step, strerror(errno));
		if (n > 0 && write(a->fd, msg, (size_t)n) < 0)
			return 2;
		return 1;
	}
	return 0;
}

/* The child shares this process's memory until it exits (CLONE_VM |
 * CLONE_VFORK, as posix_spawn does): a fork would write-protect every page
 * of the launcher, and each page it touched afterwards cost a copy-on-write
 * fault (about 80 in a launch of the omp profile; bench/analysis.md,
 * launch).  The child only makes namespaces and a mount on its own stack,
 * and this process waits while it runs.  */
bool sb_ns_masks_available(bool *userns, char *why, size_t whylen)
{
	*userns = geteuid() != 0;
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(why, whylen, "pipe: %s", strerror(errno));
		return false;
	}
	probe_arg a = { *userns, pfd[1] };
	_Alignas(16) char stack[65536];  /* room for the sanitizer build's frames */
	pid_t pid = clone(probe_child, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &a);
	if (pid < 0) {
		snprintf(why, whylen, "clone: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return false;
	}
	close(pfd[1]);
	char buf[200];
	ssize_t n = read(pfd[0], buf, sizeof buf - 1);
	close(pfd[0]);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (sb_wait_exit_code(st) == 0)
		return true;
	buf[n > 0 ? n : 0] = '\0';
	snprintf(why, whylen, "%s%s", *userns ? "user namespace: " : "mount namespace: ",
		 n > 0 ? buf : "the probe failed");
	return false;
}
#endif /* __linux__ */
