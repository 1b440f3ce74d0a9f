/* probe - do one file access and report the outcome, no shell:
 *   probe OP PATH [PATH2]     prints "OK" or the errno name; exit 0 when
 *                             allowed, 1 when denied (EACCES/EPERM), 2 else
 *   probe --batch             reads "OP PATH" lines on stdin, prints
 *                             "OP PATH RESULT" lines (for probe_tree)
 * OP: read write create mkdir list stat exec truncate unlink rename mknod
 *     trunc-ro (open O_RDONLY|O_TRUNC) trunc-acc3 (open access mode 3|O_TRUNC)
 *     trunc-openat2 (openat2 O_RDONLY|O_TRUNC) trunc-rw (open O_RDWR|O_TRUNC)
 *     tiocsti fdread(PATH = fd number) environ(PATH = pid) socket_unix socket_inet
 *     io_uring x32 (PATH ignored)
 * Non-destructive where possible: write opens without truncating, create
 * removes what it made.  */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static const char *ename(int e)
{
	switch (e) {
	case 0: return "OK";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EISDIR: return "EISDIR";
	case ENOTDIR: return "ENOTDIR";
	case EXDEV: return "EXDEV";
	case ETXTBSY: return "ETXTBSY";
	case EINVAL: return "EINVAL";
	case ENOTTY: return "ENOTTY";
	case EIO: return "EIO";
	case ENOTEMPTY: return "ENOTEMPTY";
	case EROFS: return "EROFS";
	case EBUSY: return "EBUSY";
	case ENOEXEC: return "ENOEXEC";
	case EBADF: return "EBADF";
	case ENOSYS: return "ENOSYS";
	default: return strerror(e);
	}
}

static int do_exec(const char *path)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return errno;
	pid_t pid = fork();
	if (pid == 0) {
		char *av[] = { (char *)path, NULL };
		char *ev[] = { NULL };
		int devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0) {
			dup2(devnull, 1);
			dup2(devnull, 2);
		}
		execve(path, av, ev);
		int e = errno;
		if (write(pfd[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	int e = 0;
	if (read(pfd[0], &e, sizeof e) != sizeof e)
		e = 0;   /* exec succeeded */
	close(pfd[0]);
	int st;
	waitpid(pid, &st, 0);
	return e;
}

static int probe(const char *op, const char *path, const char *path2)
{
	int fd;
	errno = 0;
	if (!strcmp(op, "read")) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		char c;
		struct stat st;
		int e = 0;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && read(fd, &c, 1) < 0)
			e = errno;
		close(fd);
		return e;
	}
	if (!strcmp(op, "write")) {
		fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	}
	if (!strcmp(op, "create")) {
		char p[4096];
		snprintf(p, sizeof p, "%s/.sbprobe-new-%d", path, (int)getpid());
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			return errno;
		close(fd);
		unlink(p);
		return 0;
	}
	if (!strcmp(op, "mkdir")) {
		char p[4096];
		snprintf(p, sizeof p, "%s/.sbprobe-dir-%d", path, (int)getpid());
		if (mkdir(p, 0700) < 0)
			return errno;
		rmdir(p);
		return 0;
	}
	if (!strcmp(op, "list")) {
		DIR *d = opendir(path);
		if (!d)
			return errno;
		errno = 0;
		while (readdir(d))
			;
		int e = errno;
		closedir(d);
		return e;
	}
	if (!strcmp(op, "stat")) {
		struct stat st;
		return stat(path, &st) < 0 ? errno : 0;
	}
	if (!strcmp(op, "exec"))
		return do_exec(path);
	if (!strcmp(op, "truncate"))
		return truncate(path, 0) < 0 ? errno : 0;
	if (!strncmp(op, "trunc-", 6)) {
		/* the ways to empty a file without truncate(2) */
		int flags = !strcmp(op, "trunc-rw") ? O_RDWR : !strcmp(op, "trunc-acc3") ? 3 : O_RDONLY;
		flags |= O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
		if (!strcmp(op, "trunc-openat2")) {
			struct { unsigned long long flags, mode, resolve; } how = { (unsigned)flags, 0, 0 };
			fd = (int)syscall(437 /* openat2 */, AT_FDCWD, path, &how, sizeof how);
		} else if (strcmp(op, "trunc-ro") && strcmp(op, "trunc-acc3") && strcmp(op, "trunc-rw")) {
			fprintf(stderr, "probe: unknown op %s\n", op);
			return EINVAL;
		} else {
			fd = open(path, flags);
		}
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	}
	if (!strcmp(op, "unlink"))
		return unlink(path) < 0 ? errno : 0;
	if (!strcmp(op, "rename"))
		return rename(path, path2) < 0 ? errno : 0;
	if (!strcmp(op, "link"))
		return link(path, path2) < 0 ? errno : 0;
	if (!strcmp(op, "mknod")) {
		char p[4096];
		snprintf(p, sizeof p, "%s/.sbprobe-node-%d", path, (int)getpid());
		if (mknod(p, S_IFCHR | 0600, makedev(1, 3)) < 0)
			return errno;
		unlink(p);
		return 0;
	}
	if (!strcmp(op, "tiocsti")) {
		char c = ' ';
		return ioctl(atoi(path), TIOCSTI, &c) < 0 ? errno : 0;
	}
	if (!strcmp(op, "fdread")) {
		char c;
		return read(atoi(path), &c, 1) < 0 ? errno : 0;
	}
	if (!strcmp(op, "environ")) {
		char p[64];
		snprintf(p, sizeof p, "/proc/%s/environ", path);
		return probe("read", p, NULL);
	}
	if (!strcmp(op, "socket_unix")) {
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	}
	if (!strcmp(op, "socket_inet")) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	}
	if (!strcmp(op, "io_uring")) {
		long params[30] = { 0 };   /* struct io_uring_params, zeroed */
		int r = (int)syscall(425 /* io_uring_setup */, 1, params);
		if (r < 0)
			return errno;
		close(r);
		return 0;
	}
#ifdef __x86_64__
	if (!strcmp(op, "x32"))    /* getpid through the x32 ABI: killed by seccomp */
		return syscall(0x40000000 | 39) < 0 ? errno : 0;
#endif
	fprintf(stderr, "probe: unknown op %s\n", op);
	return EINVAL;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--batch")) {
		char line[8192];
		while (fgets(line, sizeof line, stdin)) {
			line[strcspn(line, "\n")] = '\0';
			char *sp = strchr(line, ' ');
			if (!sp)
				continue;
			*sp = '\0';
			int e = probe(line, sp + 1, NULL);
			printf("%s %s %s\n", line, sp + 1, ename(e));
			fflush(stdout);
		}
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: probe OP PATH [PATH2] | probe --batch\n");
		return 2;
	}
	int e = probe(argv[1], argv[2], argc > 3 ? argv[3] : NULL);
	printf("%s\n", ename(e));
	return e == 0 ? 0 : (e == EACCES || e == EPERM) ? 1 : 2;
}
