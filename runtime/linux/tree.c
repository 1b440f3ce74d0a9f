#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* tree.c - ending the sandboxed tree with its command (see tree.h).
 *
 * Finding the tree without races: this process is a child subreaper
 * (PR_SET_CHILD_SUBREAPER), so a descendant whose parent exits becomes its
 * child, and every process of the tree is a descendant of it until it is
 * reaped here.  The descendants are found through /proc/PID/task/TID/
 * children, each pinned with a pidfd before it is checked to be still a
 * child of a process found so (a pid reused by an unrelated process is
 * never signalled), and killed with pidfd_send_signal.  A process forked
 * after the walk is the child of a tree process (found by the next walk) or
 * of this one; the walk repeats until waitpid reports no child left.
 * SIGKILL cannot be caught, and a killed process forks no more, so it ends.
 * A pid namespace would do this in one kill but needs privileges the
 * complement mechanism runs without; a cgroup needs a delegated hierarchy.  */
#include "runtime/linux/tree.h"
#include "runtime/linux/supervise.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "compiler/common/xalloc.h"

#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif

void sb_tree_reaper(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

typedef struct pidset {
	pid_t *v;
	size_t n, cap;
} pidset;

static void pidset_add(pidset *s, pid_t p)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == p)
			return;
	SB_GROW(s->v, s->n, s->cap, 64);
	s->v[s->n++] = p;
}

static pid_t parent_of(pid_t pid);

/* Without /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN): every
 * process whose parent is `pid`.  */
static void children_by_scan(pid_t pid, pidset *out)
{
	DIR *d = opendir("/proc");
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long p = strtol(e->d_name, &end, 10);
		if (*end || p <= 0)
			continue;
		if (parent_of((pid_t)p) == pid)
			pidset_add(out, (pid_t)p);
	}
	closedir(d);
}

/* The children of every thread of `pid` into `out`.  */
static void children_of(pid_t pid, pidset *out)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	bool listed = false;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char cp[320];
		snprintf(cp, sizeof cp, "/proc/%d/task/%s/children", (int)pid, e->d_name);
		FILE *f = fopen(cp, "re");
		if (!f)
			continue;
		listed = true;
		int c;
		while (fscanf(f, "%d", &c) == 1)
			pidset_add(out, (pid_t)c);
		fclose(f);
	}
	closedir(d);
	if (!listed)
		children_by_scan(pid, out);
}

/* The parent of `pid` (from /proc/PID/stat), or -1.  */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *rp = strrchr(buf, ')');   /* the name may hold spaces and ')' */
	int ppid;
	char st;
	if (!rp || sscanf(rp + 1, " %c %d", &st, &ppid) != 2)
		return -1;
	return (pid_t)ppid;
}

static bool in_set(const pidset *s, pid_t p)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == p)
			return true;
	return false;
}

/* One walk: kill every descendant found.  Returns how many.  */
static int kill_walk(void)
{
	pidset tree = { 0 };
	pidset_add(&tree, getpid());
	int killed = 0;
	for (size_t i = 0; i < tree.n; i++) {
		pidset kids = { 0 };
		children_of(tree.v[i], &kids);
		for (size_t k = 0; k < kids.n; k++) {
			pid_t c = kids.v[k];
			if (in_set(&tree, c))
				continue;
			int pfd = (int)syscall(__NR_pidfd_open, c, 0);
			if (pfd < 0)
				continue;   /* gone already */
			/* pinned: still the child of a tree process? */
			if (in_set(&tree, parent_of(c))) {
				pidset_add(&tree, c);
				if (syscall(__NR_pidfd_send_signal, pfd, SIGKILL, NULL, 0) == 0)
					killed++;
			}
			close(pfd);
		}
		free(kids.v);
	}
	free(tree.v);
	return killed;
}

int sb_tree_end(void)
{
	int killed = 0;
	for (;;) {
		killed += kill_walk();
		/* reap what died (our children, and orphans reparented to us) */
		pid_t r;
		int st;
		while ((r = waitpid(-1, &st, WNOHANG | __WALL)) > 0)
			;
		if (r < 0 && errno != EINTR)
			break;   /* ECHILD: nothing is left */
		/* children remain (dying, or reparented after the walk): walk
		 * again shortly */
		struct timespec ts = { 0, 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	return killed;
}

int sb_tree_guard(const sb_linux_opts *o, sb_diag *d)
{
	if (o->egress || o->trace)
		return 0;   /* their supervising parent ends the tree */
	if (o->keep_background)
		return 0;   /* nothing to end: the command is exec'd by this process */
	sb_sup s;
	s.end_tree = true;
	pid_t pid = sb_sup_fork(&s);
	if (pid < 0) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "launch",
			       "cannot fork the supervising parent: %s; refusing to run",
			       strerror(errno));
		return SB_REFUSED;
	}
	if (pid == 0)
		return 0;
	struct pollfd f[2] = { { .fd = s.pidfd, .events = POLLIN },
			       { .fd = s.sigfd, .events = POLLIN } };
	int wstatus = 0;
	for (;;) {
		if (poll(f, 2, -1) < 0 && errno != EINTR) {
			while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
				;
			break;
		}
		if ((f[1].revents & POLLIN))
			sb_sup_handle(&s, s.sigfd, &wstatus);
		if ((f[0].revents & POLLIN) && sb_sup_handle(&s, s.pidfd, &wstatus))
			break;
	}
	sb_sup_exit(&s, wstatus);
}

void sb_tree_detach(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (isatty(fd))
			return;
	/* not a process group leader here: a supervising parent forked us */
	setsid();
}
#endif /* __linux__ */
