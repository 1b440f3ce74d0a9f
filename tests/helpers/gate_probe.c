/* gate_probe.c - every route that creates, writes, removes or renames a
 * name, one system call each, for tests/suite-gate.sh (the write gate,
 * docs/linux.md).  `gate_probe ROUTE PATH [PATH2]` makes the call with the
 * raw system call (no libc fallback picks another one) and prints
 * "ROUTE: ok" or "ROUTE: <errno name>"; exit 0 when it succeeded, 1 when
 * refused with EACCES or EPERM, 3 on another error, 2 on a usage error.
 *
 * `gate_probe race PROTECTED ALLOWED N` races: a second thread flips the
 * path buffer between ALLOWED and PROTECTED while the main thread calls
 * open(O_CREAT) on it N times; prints how many opens succeeded and exits 4
 * when PROTECTED exists afterwards (the race won).
 * `gate_probe race-link LINK OK BAD N`: LINK is flipped between a symlink
 * to OK and a symlink to BAD while the main thread opens LINK for writing
 * with O_CREAT; exit 4 when BAD appeared.  */
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#endif

static const char *errname(int e)
{
	switch (e) {
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case EEXIST: return "EEXIST";
	case ENOENT: return "ENOENT";
	case EXDEV: return "EXDEV";
	case ENOSYS: return "ENOSYS";
	case EBUSY: return "EBUSY";
	case ELOOP: return "ELOOP";
	case EISDIR: return "EISDIR";
	case ENOTDIR: return "ENOTDIR";
	case EINVAL: return "EINVAL";
	case EROFS: return "EROFS";
	default: return strerror(e);
	}
}

static int report(const char *route, long r)
{
	if (r >= 0) {
		printf("%s: ok\n", route);
		return 0;
	}
	int e = errno;
	printf("%s: %s\n", route, errname(e));
	return e == EACCES || e == EPERM ? 1 : 3;
}

static int one(const char *route, const char *p, const char *q)
{
	long r = -1;
	if (!strcmp(route, "open-creat")) {
		r = syscall(SYS_openat, AT_FDCWD, p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	} else if (!strcmp(route, "open-write")) {
		r = syscall(SYS_openat, AT_FDCWD, p, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (r >= 0 && write((int)r, "gate\n", 5) != 5)
			r = -1;
	} else if (!strcmp(route, "open-trunc")) {
		r = syscall(SYS_openat, AT_FDCWD, p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	} else if (!strcmp(route, "open-excl")) {
		r = syscall(SYS_openat, AT_FDCWD, p, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
#ifdef SYS_open
	} else if (!strcmp(route, "open-legacy")) {
		r = syscall(SYS_open, p, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	} else if (!strcmp(route, "creat")) {
		r = syscall(SYS_creat, p, 0644);
	} else if (!strcmp(route, "mkdir-legacy")) {
		r = syscall(SYS_mkdir, p, 0755);
	} else if (!strcmp(route, "rename-legacy")) {
		r = q ? syscall(SYS_rename, p, q) : -1;
#endif
	} else if (!strcmp(route, "openat2-creat")) {
		struct open_how how = { .flags = O_CREAT | O_WRONLY | O_CLOEXEC, .mode = 0644 };
		r = syscall(SYS_openat2, AT_FDCWD, p, &how, sizeof how);
	} else if (!strcmp(route, "openat2-read")) {
		struct open_how how = { .flags = O_RDONLY | O_CLOEXEC };
		r = syscall(SYS_openat2, AT_FDCWD, p, &how, sizeof how);
	} else if (!strcmp(route, "tmpfile-link")) {
		/* an unnamed file in the directory of q, then named q */
		char dir[4096];
		snprintf(dir, sizeof dir, "%s", q ? q : p);
		char *s = strrchr(dir, '/');
		if (s)
			*s = s == dir ? (s[1] = '\0', '/') : '\0';
		else
			strcpy(dir, ".");
		int fd = (int)syscall(SYS_openat, AT_FDCWD, dir, O_TMPFILE | O_WRONLY, 0600);
		if (fd < 0)
			return report(route, -1);
		char fdp[64];
		snprintf(fdp, sizeof fdp, "/proc/self/fd/%d", fd);
		r = syscall(SYS_linkat, AT_FDCWD, fdp, AT_FDCWD, q ? q : p, AT_SYMLINK_FOLLOW);
	} else if (!strcmp(route, "mkdir")) {
		r = syscall(SYS_mkdirat, AT_FDCWD, p, 0755);
	} else if (!strcmp(route, "mknod-fifo")) {
		r = syscall(SYS_mknodat, AT_FDCWD, p, S_IFIFO | 0644, 0);
	} else if (!strcmp(route, "mknod-reg")) {
		r = syscall(SYS_mknodat, AT_FDCWD, p, S_IFREG | 0644, 0);
	} else if (!strcmp(route, "symlink")) {
		r = syscall(SYS_symlinkat, "/etc/hostname", AT_FDCWD, p);
	} else if (!strcmp(route, "link")) {
		r = q ? syscall(SYS_linkat, AT_FDCWD, p, AT_FDCWD, q, 0) : -1;
	} else if (!strcmp(route, "rename")) {
		r = q ? syscall(SYS_renameat2, AT_FDCWD, p, AT_FDCWD, q, 0) : -1;
	} else if (!strcmp(route, "rename-noreplace")) {
		r = q ? syscall(SYS_renameat2, AT_FDCWD, p, AT_FDCWD, q, RENAME_NOREPLACE) : -1;
	} else if (!strcmp(route, "rename-exchange")) {
		r = q ? syscall(SYS_renameat2, AT_FDCWD, p, AT_FDCWD, q, RENAME_EXCHANGE) : -1;
	} else if (!strcmp(route, "unlink")) {
		r = syscall(SYS_unlinkat, AT_FDCWD, p, 0);
	} else if (!strcmp(route, "rmdir")) {
		r = syscall(SYS_unlinkat, AT_FDCWD, p, AT_REMOVEDIR);
	} else if (!strcmp(route, "truncate")) {
		r = syscall(SYS_truncate, p, 0L);
	} else if (!strcmp(route, "bind-unix")) {
		int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		struct sockaddr_un a = { .sun_family = AF_UNIX };
		snprintf(a.sun_path, sizeof a.sun_path, "%s", p);
		r = s < 0 ? -1 : bind(s, (struct sockaddr *)&a, sizeof a);
	} else if (!strcmp(route, "io-uring")) {
		struct io_uring_params prm;
		memset(&prm, 0, sizeof prm);
		r = syscall(SYS_io_uring_setup, 4, &prm);
	} else {
		fprintf(stderr, "gate_probe: unknown route %s\n", route);
		return 2;
	}
	return report(route, r);
}

/* ---- races ---- */

static char buf[4096];
static const char *names[2];
static atomic_bool stop;

static void *flip_name(void *arg)
{
	(void)arg;
	size_t i = 0;
	while (!atomic_load(&stop)) {
		/* byte by byte is what a hostile thread does: any mix the
		 * supervisor could read half-way */
		strcpy(buf, names[i++ & 1]);
	}
	return NULL;
}

static const char *link_args[3];   /* link, ok target, bad target */

static void *flip_link(void *arg)
{
	(void)arg;
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", link_args[0]);
	size_t i = 0;
	while (!atomic_load(&stop)) {
		unlink(tmp);
		if (symlink(link_args[1 + (i++ & 1)], tmp) == 0)
			rename(tmp, link_args[0]);
	}
	return NULL;
}

/* Open `path` with O_CREAT `n` times while `flipper` runs on a thread of
 * its own; then report whether `protected_path` appeared (exit 4: the race
 * won).  */
static int hammer(const char *what, void *(*flipper)(void *), const char *path,
		  const char *protected_path, long n)
{
	pthread_t t;
	pthread_create(&t, NULL, flipper, NULL);
	long ok = 0;
	for (long i = 0; i < n; i++) {
		int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
		if (fd >= 0) {
			ok++;
			close(fd);
		}
	}
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	struct stat st;
	bool won = lstat(protected_path, &st) == 0;
	printf("%s: %ld of %ld opens succeeded; %s %s\n", what, ok, n, protected_path,
	       won ? "EXISTS" : "absent");
	return won ? 4 : 0;
}

static int race(const char *protected_path, const char *allowed, long n)
{
	names[0] = allowed;
	names[1] = protected_path;
	strcpy(buf, allowed);
	return hammer("race", flip_name, buf, protected_path, n);
}

static int race_link(const char *l, const char *ok_target, const char *bad, long n)
{
	link_args[0] = l;
	link_args[1] = ok_target;
	link_args[2] = bad;
	return hammer("race-link", flip_link, l, bad, n);
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "race"))
		return race(argv[2], argv[3], atol(argv[4]));
	if (argc >= 6 && !strcmp(argv[1], "race-link"))
		return race_link(argv[2], argv[3], argv[4], atol(argv[5]));
	if (argc < 3) {
		fprintf(stderr, "usage: gate_probe ROUTE PATH [PATH2] | race PROTECTED ALLOWED N | "
				"race-link LINK OK BAD N\n");
		return 2;
	}
	return one(argv[1], argv[2], argc > 3 ? argv[3] : NULL);
}
