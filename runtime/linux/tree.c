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

/* The walk runs in a supervisor forked from the launcher: every heap page
 * it writes is a copy-on-write fault, and malloc after fork consolidates
 * the launcher's free chunks (tens of pages).  So the sets start in place
 * and the directories are read with getdents64 into the stack: a walk of
 * a small tree touches no heap at all (bench/analysis.md, launch).  */
enum { PIDSET_INLINE = 64 };
typedef struct pidset {
	pid_t *v;
	size_t n, cap;
	pid_t inl[PIDSET_INLINE];
} pidset;

static void pidset_init(pidset *s)
{
	s->v = s->inl;
	s->n = 0;
	s->cap = PIDSET_INLINE;
}

static void pidset_clear(pidset *s)
{
	if (s->v != s->inl)
		free(s->v);
	pidset_init(s);
}

static void pidset_add(pidset *s, pid_t p)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == p)
			return;
	if (s->n == s->cap) {
		s->cap *= 2;
		if (s->v == s->inl) {
			s->v = xmalloc(s->cap * sizeof *s->v);
			memcpy(s->v, s->inl, sizeof s->inl);
		} else {
			s->v = xrealloc(s->v, s->cap * sizeof *s->v);
		}
	}
	s->v[s->n++] = p;
}

/* Call fn for each entry of the directory `path` but "." and "..".
 * Returns false when it cannot be opened.  */
static bool each_entry(const char *path, void (*fn)(const char *name, void *arg), void *arg)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return false;
	_Alignas(struct dirent64) char buf[4096];
	ssize_t n;
	while ((n = getdents64(fd, buf, sizeof buf)) > 0)
		for (ssize_t at = 0; at < n;) {
			const struct dirent64 *e = (const struct dirent64 *)(buf + at);
			at += e->d_reclen;
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				fn(e->d_name, arg);
		}
	close(fd);
	return true;
}

static pid_t parent_of(pid_t pid);

typedef struct walk_ctx {
	pid_t pid;
	pidset *out;
	bool listed;
} walk_ctx;

static void scan_one(const char *name, void *arg)
{
	walk_ctx *w = arg;
	char *end;
	long p = strtol(name, &end, 10);
	if (!*end && p > 0 && parent_of((pid_t)p) == w->pid)
		pidset_add(w->out, (pid_t)p);
}

/* The pids listed in /proc/PID/task/TID/children ("1 2 3 ").  */
static void task_children(const char *tid, void *arg)
{
	walk_ctx *w = arg;
	char cp[320], buf[4096];
	snprintf(cp, sizeof cp, "/proc/%d/task/%s/children", (int)w->pid, tid);
	int fd = open(cp, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	w->listed = true;
	/* read whole; a number cut at the end of the buffer is read again */
	size_t have = 0;
	for (;;) {
		ssize_t r = read(fd, buf + have, sizeof buf - 1 - have);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		have += (size_t)r;
		buf[have] = '\0';
		char *s = buf, *end;
		for (;;) {
			while (*s == ' ' || *s == '\n')
				s++;
			long c = strtol(s, &end, 10);
			if (end == s || !*end)   /* none, or maybe cut short */
				break;
			pidset_add(w->out, (pid_t)c);
			s = end;
		}
		have = strlen(s);
		memmove(buf, s, have);
	}
	close(fd);
	buf[have] = '\0';
	char *end;
	long c = strtol(buf, &end, 10);
	if (end != buf)
		pidset_add(w->out, (pid_t)c);
}

/* The children of every thread of `pid` into `out`; without
 * /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN), every process whose
 * parent is `pid`.  */
static void children_of(pid_t pid, pidset *out)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	walk_ctx w = { .pid = pid, .out = out, .listed = false };
	if (!each_entry(path, task_children, &w))
		return;
	if (!w.listed)
		each_entry("/proc", scan_one, &w);
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
	pidset tree, kids;
	pidset_init(&tree);
	pidset_init(&kids);
	pidset_add(&tree, getpid());
	int killed = 0;
	for (size_t i = 0; i < tree.n; i++) {
		pidset_clear(&kids);
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
	}
	pidset_clear(&kids);
	pidset_clear(&tree);
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
