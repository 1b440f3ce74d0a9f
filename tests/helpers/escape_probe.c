/* escape_probe.c - system-call level escape attempts for tests/suite-escape.sh.
 * Each subcommand tries one technique and prints what it obtained: the data
 * it managed to read (so a canary token in the output is an escape), or
 * "<what>: <errno text>" when the kernel refused.  Exit status: 0 when the
 * attempt succeeded, 1 when it was refused, 2 on a usage error.  The
 * "listen" subcommand is the outside listener for the socket techniques.  */
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static int refused(const char *what)
{
	printf("%s: %s (errno %d)\n", what, strerror(errno), errno);
	fflush(stdout);
	return 1;
}

static int dump_fd(int fd, const char *what)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof buf);
	if (n < 0)
		return refused(what);
	printf("%s: read %zd bytes: ", what, n);
	fwrite(buf, 1, (size_t)n, stdout);
	printf("\n");
	fflush(stdout);
	return 0;
}

static int do_read(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return refused(path);
	int rc = dump_fd(fd, path);
	close(fd);
	return rc;
}

static int do_write(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return refused(path);
	ssize_t n = write(fd, "PWNED\n", 6);
	close(fd);
	if (n != 6)
		return refused(path);
	printf("%s: written\n", path);
	return 0;
}

/* open(O_RDONLY|O_TRUNC): empties a file with read access only on
 * Landlock ABI <= 2.  */
static int do_trunc_ro(const char *path)
{
	int fd = open(path, O_RDONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return refused("open(O_RDONLY|O_TRUNC)");
	close(fd);
	printf("open(%s, O_RDONLY|O_TRUNC): ok\n", path);
	return 0;
}

/* O_PATH on a directory, then openat() below it and the /proc/self/fd
 * re-open of the same.  */
static int do_opath(const char *dir, const char *rel)
{
	int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return refused("open O_PATH");
	printf("open(%s, O_PATH): ok\n", dir);
	int ok = 0;
	int fd = openat(dfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ok |= dump_fd(fd, "openat") == 0;
		close(fd);
	} else {
		refused("openat");
	}
	char p[256];
	snprintf(p, sizeof p, "/proc/self/fd/%d/%s", dfd, rel);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ok |= dump_fd(fd, p) == 0;
		close(fd);
	} else {
		refused(p);
	}
	int ffd = openat(dfd, rel, O_PATH | O_CLOEXEC);
	if (ffd >= 0) {
		snprintf(p, sizeof p, "/proc/self/fd/%d", ffd);
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			ok |= dump_fd(fd, "reopen of an O_PATH file fd") == 0;
			close(fd);
		} else {
			refused("reopen of an O_PATH file fd");
		}
		close(ffd);
	} else {
		refused("openat O_PATH");
	}
	close(dfd);
	return ok ? 0 : 1;
}

static int do_fdread(int n)
{
	char p[64];
	int ok = dump_fd(n, "read(inherited fd)") == 0;
	snprintf(p, sizeof p, "/proc/self/fd/%d", n);
	ok |= do_read(p) == 0;
	return ok ? 0 : 1;
}

static int do_fdwrite(int n)
{
	ssize_t w = write(n, "PWNED\n", 6);
	if (w != 6)
		return refused("write(inherited fd)");
	printf("write(inherited fd %d): written\n", n);
	return 0;
}

static int do_ptrace(pid_t pid)
{
	if (ptrace(PTRACE_ATTACH, pid, 0, 0) != 0)
		return refused("ptrace(PTRACE_ATTACH)");
	printf("ptrace(PTRACE_ATTACH, %d): attached\n", (int)pid);
	waitpid(pid, NULL, __WALL);
	ptrace(PTRACE_DETACH, pid, 0, 0);
	return 0;
}

static int do_kill(pid_t pid)
{
	if (kill(pid, SIGTERM) != 0)
		return refused("kill(SIGTERM)");
	printf("kill(%d, SIGTERM): delivered\n", (int)pid);
	return 0;
}

/* TIOCSTI on fd 0 with the plain command and with high bits set (the kernel
 * truncates cmd to 32 bits; a 64-bit compare in a filter can be bypassed).  */
static int do_tiocsti(void)
{
	int ok = 0;
	char c = '#';
	unsigned long cmds[] = {TIOCSTI, (unsigned long)TIOCSTI | 0x100000000UL};
	for (size_t i = 0; i < 2; i++) {
		long r = syscall(SYS_ioctl, 0, cmds[i], &c);
		if (r == 0) {
			printf("ioctl(0, %#lx): injected\n", cmds[i]);
			ok = 1;
		} else {
			char what[64];
			snprintf(what, sizeof what, "ioctl(0, %#lx)", cmds[i]);
			refused(what);
		}
	}
	return ok ? 0 : 1;
}

static int do_tioclinux(void)
{
	char sub[2] = {7, 0};  /* TIOCL_GETMOUSEREPORTING: harmless if allowed */
	unsigned long cmds[] = {TIOCLINUX, (unsigned long)TIOCLINUX | 0x100000000UL};
	int ok = 0;
	for (size_t i = 0; i < 2; i++) {
		long r = syscall(SYS_ioctl, 0, cmds[i], sub);
		char what[64];
		snprintf(what, sizeof what, "ioctl(0, %#lx)", cmds[i]);
		if (r == 0) {
			printf("%s: accepted\n", what);
			ok = 1;
		} else {
			refused(what);
		}
	}
	return ok ? 0 : 1;
}

static socklen_t unix_addr(struct sockaddr_un *a, const char *name)
{
	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	if (name[0] == '@') {   /* abstract */
		size_t n = strlen(name + 1);
		if (n > sizeof a->sun_path - 1)
			n = sizeof a->sun_path - 1;
		memcpy(a->sun_path + 1, name + 1, n);
		return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
	}
	snprintf(a->sun_path, sizeof a->sun_path, "%s", name);
	return (socklen_t)sizeof *a;
}

static int do_connect(const char *name)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return refused("socket(AF_UNIX)");
	struct sockaddr_un a;
	socklen_t len = unix_addr(&a, name);
	if (connect(s, (struct sockaddr *)&a, len) != 0)
		return refused("connect");
	printf("connect(%s): connected\n", name);
	int rc = dump_fd(s, "recv from listener");
	close(s);
	return rc;
}

/* Outside listener: answers every connection with TOKEN.  */
static int do_listen(const char *name, const char *token)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return refused("socket");
	struct sockaddr_un a;
	socklen_t len = unix_addr(&a, name);
	if (name[0] != '@')
		unlink(name);
	if (bind(s, (struct sockaddr *)&a, len) != 0 || listen(s, 8) != 0)
		return refused("bind/listen");
	if (name[0] != '@')
		chmod(name, 0777);
	printf("listening\n");
	fflush(stdout);
	for (;;) {
		int c = accept(s, NULL, NULL);
		if (c < 0)
			continue;
		ssize_t w = write(c, token, strlen(token));
		(void)w;
		close(c);
	}
}

/* Open and read PATH through io_uring (IORING_OP_OPENAT + IORING_OP_READ).  */
static int do_uring(const char *path)
{
	struct io_uring_params p;
	memset(&p, 0, sizeof p);
	int ring = (int)syscall(SYS_io_uring_setup, 4, &p);
	if (ring < 0)
		return refused("io_uring_setup");
	printf("io_uring_setup: ok\n");
	size_t sq_sz = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	size_t cq_sz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	char *sq = mmap(NULL, sq_sz, PROT_READ | PROT_WRITE, MAP_SHARED, ring, IORING_OFF_SQ_RING);
	char *cq = mmap(NULL, cq_sz, PROT_READ | PROT_WRITE, MAP_SHARED, ring, IORING_OFF_CQ_RING);
	struct io_uring_sqe *sqes = mmap(NULL, p.sq_entries * sizeof *sqes, PROT_READ | PROT_WRITE,
					 MAP_SHARED, ring, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED)
		return refused("mmap ring");
	unsigned *sq_tail = (unsigned *)(sq + p.sq_off.tail);
	unsigned *sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
	unsigned *sq_array = (unsigned *)(sq + p.sq_off.array);
	unsigned *cq_head = (unsigned *)(cq + p.cq_off.head);
	unsigned *cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
	struct io_uring_cqe *cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	static char buf[4096];
	int fd = -1;
	for (int step = 0; step < 2; step++) {
		unsigned tail = *sq_tail, idx = tail & *sq_mask;
		struct io_uring_sqe *e = &sqes[idx];
		memset(e, 0, sizeof *e);
		if (step == 0) {
			e->opcode = IORING_OP_OPENAT;
			e->fd = AT_FDCWD;
			e->addr = (uint64_t)(uintptr_t)path;
			e->open_flags = O_RDONLY;
		} else {
			e->opcode = IORING_OP_READ;
			e->fd = fd;
			e->addr = (uint64_t)(uintptr_t)buf;
			e->len = sizeof buf - 1;
		}
		sq_array[idx] = idx;
		__atomic_store_n(sq_tail, tail + 1, __ATOMIC_RELEASE);
		if (syscall(SYS_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
			return refused("io_uring_enter");
		unsigned head = __atomic_load_n(cq_head, __ATOMIC_ACQUIRE);
		int res = cqes[head & *cq_mask].res;
		__atomic_store_n(cq_head, head + 1, __ATOMIC_RELEASE);
		if (res < 0) {
			errno = -res;
			return refused(step == 0 ? "IORING_OP_OPENAT" : "IORING_OP_READ");
		}
		if (step == 0) {
			fd = res;
			printf("IORING_OP_OPENAT(%s): opened\n", path);
		} else {
			buf[res] = '\0';
			printf("IORING_OP_READ: %s\n", buf);
		}
	}
	return 0;
}

/* Copy /bin/cat into a memfd and fexecve it on PATH.  */
static int do_memfd_exec(const char *path)
{
	int mfd = (int)syscall(SYS_memfd_create, "cat", 0);
	if (mfd < 0)
		return refused("memfd_create");
	int src = open("/bin/cat", O_RDONLY | O_CLOEXEC);
	if (src < 0)
		return refused("open /bin/cat");
	char buf[65536];
	ssize_t n;
	while ((n = read(src, buf, sizeof buf)) > 0)
		if (write(mfd, buf, (size_t)n) != n)
			return refused("write memfd");
	close(src);
	printf("memfd ready, fexecve cat %s\n", path);
	fflush(stdout);
	char *argv[] = {"cat", (char *)path, NULL};
	extern char **environ;
	fexecve(mfd, argv, environ);
	return refused("fexecve");
}

static int do_mknod(const char *path, const char *type)
{
	mode_t m = type[0] == 'b' ? S_IFBLK : S_IFCHR;
	dev_t dev = type[0] == 'b' ? makedev(8, 0) : makedev(1, 3);
	if (mknod(path, m | 0666, dev) != 0)
		return refused("mknod");
	printf("mknod(%s, %s): created\n", path, type);
	return 0;
}

static int do_link(const char *a, const char *b)
{
	if (link(a, b) != 0)
		return refused("link");
	printf("link(%s, %s): linked\n", a, b);
	return do_read(b);
}

static int do_rename(const char *a, const char *b)
{
	if (rename(a, b) != 0)
		return refused("rename");
	printf("rename(%s, %s): renamed\n", a, b);
	return 0;
}

static int do_chroot(const char *dir, const char *inner)
{
	if (chroot(dir) != 0) {
		refused("chroot");
		/* try again in a new user namespace, where chroot is allowed */
		if (unshare(CLONE_NEWUSER) != 0)
			return refused("unshare(CLONE_NEWUSER)");
		printf("unshare(CLONE_NEWUSER): ok\n");
		if (chroot(dir) != 0)
			return refused("chroot in a user namespace");
	}
	printf("chroot(%s): ok\n", dir);
	if (chdir("/") != 0)
		return refused("chdir /");
	return do_read(inner);
}

/* New mount (and, when needed, user) namespace, then bind SRC onto DST and
 * read DST/REL.  */
static int do_bind(const char *src, const char *dst, const char *rel)
{
	if (unshare(CLONE_NEWNS) != 0) {
		refused("unshare(CLONE_NEWNS)");
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
			return refused("unshare(CLONE_NEWUSER|CLONE_NEWNS)");
		printf("REACHED: unshare(CLONE_NEWUSER|CLONE_NEWNS): ok\n");
	} else {
		printf("REACHED: unshare(CLONE_NEWNS): ok\n");
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		refused("mount --make-rprivate /");
	if (mount(src, dst, NULL, MS_BIND, NULL) != 0)
		return refused("mount --bind");
	printf("mount --bind %s %s: ok\n", src, dst);
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", dst, rel);
	return do_read(p);
}

/* The mask techniques (docs/linux.md, "Masks"): try to take the mask at
 * MASKED away, in this namespace and then in a new user + mount namespace
 * of our own, and read MASKED/REL.  how: umount | detach | move | pivot |
 * clone (open_tree(OPEN_TREE_CLONE) of the parent mount, no AT_RECURSIVE) |
 * clone-rec (with AT_RECURSIVE).  */
static int try_unmask(const char *how, const char *masked, const char *rel)
{
	char p[4096];
	if (!strcmp(how, "umount"))
		return umount2(masked, 0) == 0 ? 0 : -1;
	if (!strcmp(how, "detach"))
		return umount2(masked, MNT_DETACH) == 0 ? 0 : -1;
	if (!strcmp(how, "move")) {
		snprintf(p, sizeof p, "%s.moved", masked);
		(void)mkdir(p, 0700);
		return mount(masked, p, NULL, MS_MOVE, NULL) == 0 ? 0 : -1;
	}
	if (!strcmp(how, "pivot")) {
		/* pivot_root into the masked tree's parent mount */
		return (int)syscall(SYS_pivot_root, "/", "/") == 0 ? 0 : -1;
	}
	if (!strcmp(how, "clone") || !strcmp(how, "clone-rec")) {
		unsigned fl = 1 /* OPEN_TREE_CLONE */ | O_CLOEXEC |
			      (!strcmp(how, "clone-rec") ? 0x8000 /* AT_RECURSIVE */ : 0);
		char parent[4096];
		snprintf(parent, sizeof parent, "%s", masked);
		char *sl = strrchr(parent, '/');
		if (sl && sl != parent)
			*sl = '\0';
		int t = (int)syscall(428 /* open_tree */, AT_FDCWD, parent, fl);
		if (t < 0)
			return -1;
		printf("open_tree(%s): ok\n", how);
		const char *leaf = strrchr(masked, '/');
		snprintf(p, sizeof p, "%s/%s", leaf ? leaf + 1 : masked, rel);
		int fd = openat(t, p, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			close(t);
			return -1;
		}
		char buf[256];
		ssize_t n = read(fd, buf, sizeof buf - 1);
		close(fd);
		close(t);
		if (n < 0)
			return -1;
		buf[n] = '\0';
		printf("read through the clone: %s\n", buf);
		return 0;
	}
	errno = EINVAL;
	return -1;
}

static int do_unmask(const char *how, const char *masked, const char *rel)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", masked, rel);
	for (int round = 0; round < 2; round++) {
		if (round == 1) {
			/* a fresh user namespace: caps over a new copy of the mount
			 * namespace, where the masks are locked */
			if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
				return refused("unshare(CLONE_NEWUSER|CLONE_NEWNS)");
			printf("REACHED: unshare(CLONE_NEWUSER|CLONE_NEWNS): ok\n");
		}
		if (try_unmask(how, masked, rel) == 0) {
			printf("%s %s: ok (round %d)\n", how, masked, round);
			if (!strncmp(how, "clone", 5))
				return 0;
			return do_read(p);
		}
		refused(how);
	}
	return 1;
}

/* setns into the mount namespace of another process, then read PATH.  */
static int do_setns(int pid, const char *path)
{
	char p[64];
	snprintf(p, sizeof p, "/proc/%d/ns/mnt", pid);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return refused("open /proc/PID/ns/mnt");
	if (setns(fd, CLONE_NEWNS) != 0) {
		close(fd);
		return refused("setns");
	}
	close(fd);
	printf("setns: ok\n");
	return do_read(path);
}

/* ---- techniques 38-49 ---- */

/* A new user namespace without a uid_map (writing it is a file write
 * Landlock refuses): full capabilities there, over nothing outside.  */
static int enter_userns(int flags)
{
	if (unshare(CLONE_NEWUSER | flags) != 0)
		return refused("unshare(CLONE_NEWUSER)");
	char line[256] = "";
	FILE *f = fopen("/proc/self/status", "re");
	while (f && fgets(line, sizeof line, f))
		if (!strncmp(line, "CapEff:", 7))
			break;
	if (f)
		fclose(f);
	line[strcspn(line, "\n")] = '\0';
	printf("REACHED: in a new user namespace%s (%s)\n", flags & CLONE_NEWNS ? " and mount namespace" : "", line);
	return 0;
}

static int do_userns_read(const char *path)
{
	return enter_userns(0) ? 1 : do_read(path);
}

static int do_userns_mount(const char *target)
{
	if (enter_userns(CLONE_NEWNS))
		return 1;
	if (mount("sbx", target, "tmpfs", 0, NULL) != 0)
		return refused("mount tmpfs");
	printf("mount tmpfs on %s: ok\n", target);
	return 0;
}

static int do_userns_umount(const char *target, const char *rel)
{
	if (enter_userns(CLONE_NEWNS))
		return 1;
	if (umount2(target, MNT_DETACH) != 0)
		return refused("umount2(MNT_DETACH)");
	printf("umount %s: ok\n", target);
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", target, rel);
	return do_read(p);
}

/* Every address family but those a network namespace confines.  */
static int do_families(void)
{
	static const int types[] = { SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET, SOCK_RAW };
	int created = 0;
	for (int fam = 0; fam < 64; fam++) {
		if (fam == AF_UNIX || fam == AF_INET || fam == AF_INET6 || fam == AF_NETLINK)
			continue;
		for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
			int fd = socket(fam, types[t] | SOCK_CLOEXEC, 0);
			if (fd >= 0) {
				printf("family %d type %d: created\n", fam, types[t]);
				created++;
				close(fd);
			}
		}
	}
	printf("families: %d sockets created\n", created);
	return created ? 0 : 1;
}

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif
struct sbx_sockaddr_vm {
	unsigned short svm_family, svm_reserved1;
	unsigned int svm_port, svm_cid;
	unsigned char svm_zero[4];
};

static int do_vsock(void)
{
	int fd = socket(AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return refused("socket(AF_VSOCK)");
	struct sbx_sockaddr_vm a = { .svm_family = AF_VSOCK, .svm_port = 0xffffffffU,
				     .svm_cid = 0xffffffffU };
	if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(fd);
		return refused("bind(AF_VSOCK)");
	}
	printf("AF_VSOCK: socket created and bound\n");
	close(fd);
	return 0;
}

/* keyctl(2) by number: libkeyutils is not a dependency.  */
#define K_SESSION (-3)
#define K_USER (-4)
static long kc(int op, long a, long b, long c, long d)
{
	return syscall(SYS_keyctl, op, a, b, c, d);
}

static long key_read(long id, char *buf, size_t size)
{
	long n = kc(11 /* KEYCTL_READ */, id, (long)buf, (long)size - 1, 0);
	if (n >= 0)
		buf[n < (long)size - 1 ? n : (long)size - 1] = '\0';
	return n;
}

/* Outside: a key in a fresh session keyring and one in the user keyring,
 * then CMD with SBX_KEY_IDS naming them; the user keyring's key is removed
 * after CMD.  */
static int do_key_run(const char *desc, const char *payload, char **cmd)
{
	if (kc(1 /* KEYCTL_JOIN_SESSION_KEYRING */, 0, 0, 0, 0) < 0)
		return refused("keyctl(JOIN_SESSION_KEYRING)");
	/* as pam_keyinit does: the user keyring linked from the session's, so
	 * its keys are possessed */
	if (kc(8 /* KEYCTL_LINK */, K_USER, K_SESSION, 0, 0) < 0)
		return refused("keyctl(LINK @u into @s)");
	char udesc[256], sp[256], up[256];
	snprintf(udesc, sizeof udesc, "%s-u", desc);
	snprintf(sp, sizeof sp, "%s-session", payload);
	snprintf(up, sizeof up, "%s-user", payload);
	long s = syscall(SYS_add_key, "user", desc, sp, strlen(sp), K_SESSION);
	long u = syscall(SYS_add_key, "user", udesc, up, strlen(up), K_USER);
	if (s < 0 || u < 0)
		return refused("add_key");
	char buf[256];
	if (key_read(s, buf, sizeof buf) < 0 || key_read(u, buf, sizeof buf) < 0)
		return refused("control: keyctl(READ) outside");
	char ids[64];
	snprintf(ids, sizeof ids, "%ld %ld", s, u);
	setenv("SBX_KEY_IDS", ids, 1);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	kc(3 /* KEYCTL_REVOKE */, u, 0, 0, 0);
	kc(9 /* KEYCTL_UNLINK */, u, K_USER, 0, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/* Inside: read the keys by id, by search in the session and user keyrings,
 * and plant one in the user keyring.  0 when anything worked.  */
static int do_key_steal(const char *desc, const char *ids)
{
	int got = 0;
	char buf[256], udesc[256];
	snprintf(udesc, sizeof udesc, "%s-u", desc);
	long id[2] = { 0, 0 };
	if (sscanf(ids, "%ld %ld", &id[0], &id[1]) != 2)
		return refused("SBX_KEY_IDS");
	printf("REACHED: key ids %ld %ld known inside\n", id[0], id[1]);
	for (int i = 0; i < 2; i++) {
		if (key_read(id[i], buf, sizeof buf) >= 0) {
			printf("read key %ld: %s\n", id[i], buf);
			got++;
		} else {
			refused("keyctl(READ) by id");
		}
	}
	const char *descs[2] = { desc, udesc };
	const long rings[2] = { K_SESSION, K_USER };
	for (int i = 0; i < 2; i++)
		for (int r = 0; r < 2; r++) {
			long k = kc(10 /* KEYCTL_SEARCH */, rings[r], (long)"user", (long)descs[i], 0);
			if (k >= 0 && key_read(k, buf, sizeof buf) >= 0) {
				printf("found %s: %s\n", descs[i], buf);
				got++;
			} else if (k < 0) {
				refused("keyctl(SEARCH)");
			}
		}
	long planted = syscall(SYS_add_key, "user", "sbx-planted", "x", 1, K_USER);
	if (planted >= 0) {
		printf("add_key into the user keyring: %ld\n", planted);
		kc(9, planted, K_USER, 0, 0);
		got++;
	} else {
		refused("add_key(user keyring)");
	}
	return got ? 0 : 1;
}

/* A process left behind: it survives the command, ignores the job-control
 * and hang-up signals, and after a while tries to take the terminal.  */
static int do_tty_linger(const char *dir, const char *secs)
{
	signal(SIGTTOU, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	char p[4096];
	usleep((useconds_t)(atof(secs) * 1e6));
	snprintf(p, sizeof p, "%s/LINGER-ALIVE", dir);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	int t = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (t >= 0 && tcsetpgrp(t, getpgrp()) == 0) {
		snprintf(p, sizeof p, "%s/LINGER-STOLE-TTY", dir);
		fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
	}
	return 0;
}

static int do_tty_open(void)
{
	int t = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (t < 0)
		return refused("open /dev/tty");
	signal(SIGTTOU, SIG_IGN);
	int r = tcsetpgrp(t, getpgrp());
	printf("open /dev/tty: ok; tcsetpgrp: %s\n", r == 0 ? "ok" : strerror(errno));
	close(t);
	return 0;
}

/* openat(FD, REL): a descriptor inherited on a standard stream.  */
static int do_fdwalk(int fd, const char *rel)
{
	int f = openat(fd, rel, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return refused("openat(inherited fd)");
	int rc = dump_fd(f, rel);
	close(f);
	return rc;
}

static int usage(void)
{
	fprintf(stderr, "usage: escape_probe read|write|trunc-ro|opath|fdread|fdwrite|ptrace|kill|tiocsti|"
			"tioclinux|connect|listen|uring|memfd-exec|mknod|link|rename|chroot|bind|unmask|setns|"
			"userns-read|userns-mount|userns-umount|families|vsock|key-run|key-steal|tty-linger|"
			"tty-open|fdwalk ARGS\n");
	return 2;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		return usage();
	const char *c = argv[1];
#define NEED(n) do { if (argc < (n) + 2) return usage(); } while (0)
	if (!strcmp(c, "read")) { NEED(1); return do_read(argv[2]); }
	if (!strcmp(c, "trunc-ro")) { NEED(1); return do_trunc_ro(argv[2]); }
	if (!strcmp(c, "write")) { NEED(1); return do_write(argv[2]); }
	if (!strcmp(c, "opath")) { NEED(2); return do_opath(argv[2], argv[3]); }
	if (!strcmp(c, "fdread")) { NEED(1); return do_fdread(atoi(argv[2])); }
	if (!strcmp(c, "fdwrite")) { NEED(1); return do_fdwrite(atoi(argv[2])); }
	if (!strcmp(c, "ptrace")) { NEED(1); return do_ptrace(atoi(argv[2])); }
	if (!strcmp(c, "kill")) { NEED(1); return do_kill(atoi(argv[2])); }
	if (!strcmp(c, "tiocsti")) return do_tiocsti();
	if (!strcmp(c, "tioclinux")) return do_tioclinux();
	if (!strcmp(c, "connect")) { NEED(1); return do_connect(argv[2]); }
	if (!strcmp(c, "listen")) { NEED(2); return do_listen(argv[2], argv[3]); }
	if (!strcmp(c, "uring")) { NEED(1); return do_uring(argv[2]); }
	if (!strcmp(c, "memfd-exec")) { NEED(1); return do_memfd_exec(argv[2]); }
	if (!strcmp(c, "mknod")) { NEED(2); return do_mknod(argv[2], argv[3]); }
	if (!strcmp(c, "link")) { NEED(2); return do_link(argv[2], argv[3]); }
	if (!strcmp(c, "rename")) { NEED(2); return do_rename(argv[2], argv[3]); }
	if (!strcmp(c, "chroot")) { NEED(2); return do_chroot(argv[2], argv[3]); }
	if (!strcmp(c, "bind")) { NEED(3); return do_bind(argv[2], argv[3], argv[4]); }
	if (!strcmp(c, "unmask")) { NEED(3); return do_unmask(argv[2], argv[3], argv[4]); }
	if (!strcmp(c, "setns")) { NEED(2); return do_setns(atoi(argv[2]), argv[3]); }
	if (!strcmp(c, "userns-read")) { NEED(1); return do_userns_read(argv[2]); }
	if (!strcmp(c, "userns-mount")) { NEED(1); return do_userns_mount(argv[2]); }
	if (!strcmp(c, "userns-umount")) { NEED(2); return do_userns_umount(argv[2], argv[3]); }
	if (!strcmp(c, "families")) return do_families();
	if (!strcmp(c, "vsock")) return do_vsock();
	if (!strcmp(c, "key-run")) { NEED(3); return do_key_run(argv[2], argv[3], argv + 4); }
	if (!strcmp(c, "key-steal")) { NEED(2); return do_key_steal(argv[2], argv[3]); }
	if (!strcmp(c, "tty-linger")) { NEED(2); return do_tty_linger(argv[2], argv[3]); }
	if (!strcmp(c, "tty-open")) return do_tty_open();
	if (!strcmp(c, "fdwalk")) { NEED(2); return do_fdwalk(atoi(argv[2]), argv[3]); }
	return usage();
}
