#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* gate.c - the write gate (gate.h, docs/linux.md "The write gate").
 *
 * Each notification is handled in three steps:
 *  1. locate: the path is copied once from the caller's memory and
 *     resolved by the supervisor as the kernel would for the caller (its
 *     cwd or dirfd through /proc/PID, its /proc/self, symlinks one by one),
 *     to a directory pinned by an O_PATH descriptor and a last name;
 *  2. decide: sb_eval_decide() on the canonical name of that directory
 *     plus the name, for each write operation the call makes;
 *  3. perform: the call itself, relative to the pinned directory, with the
 *     caller's umask; an open's descriptor is handed over with ADDFD.
 * A symlink that appears at the last name between 1 and 3 makes the
 * performed call fail (O_NOFOLLOW, or the reopened descriptor of the
 * checked object), never reach another file.  */
#include "runtime/linux/gate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/eval/eval.h"
#include "compiler/common/xalloc.h"
#include "runtime/linux/caller.h"
#include "runtime/linux/fdpass.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/notify_server.h"
#include "runtime/linux/trace_notify.h"

#if defined(__x86_64__)
#define GATE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define GATE_ARCH AUDIT_ARCH_AARCH64
#else
#error "write gate: unsupported architecture (x86_64 and aarch64 only)"
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif
#ifndef SECCOMP_IOCTL_NOTIF_ADDFD
struct seccomp_notif_addfd {
	__u64 id;
	__u32 flags;
	__u32 srcfd;
	__u32 newfd;
	__u32 newfd_flags;
};
#define SECCOMP_IOCTL_NOTIF_ADDFD _IOW('!', 3, struct seccomp_notif_addfd)
#endif
#ifndef SECCOMP_ADDFD_FLAG_SEND
#define SECCOMP_ADDFD_FLAG_SEND (1UL << 1)
#endif
#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
#define GATE_IOCTL_NOTIF_SET_FLAGS _IOW('!', 4, uint64_t)   /* linux/seccomp.h, 6.6 */
#define GATE_NOTIF_FD_SYNC_WAKE_UP 1ULL
#define PROC_MAGIC 0x9fa0
#define MAX_HOPS 40

/* ---- the calls ---- */

typedef enum {
	G_OPEN,       /* dfd, path, flags (register) */
	G_OPEN2,      /* dfd, path, struct open_how */
	G_CREAT,
	G_MKDIR,
	G_MKNOD,
	G_SYMLINK,    /* target string, new name */
	G_LINK,       /* old, new, flags */
	G_UNLINK,     /* flags: AT_REMOVEDIR */
	G_RMDIR,
	G_RENAME,     /* old, new, flags */
	G_TRUNCATE,
	G_BIND,
} gkind;

typedef struct gcall {
	int nr;
	const char *name;
	gkind k;
	int dfd, path;        /* argument indexes; dfd -1: AT_FDCWD */
	int dfd2, path2;      /* the second name, -1 when none */
	int flags, mode;      /* argument indexes, -1 when none */
} gcall;

static const gcall gcalls[] = {
#ifdef __NR_open
	{ __NR_open, "open", G_OPEN, -1, 0, -1, -1, 1, 2 },
	{ __NR_creat, "creat", G_CREAT, -1, 0, -1, -1, -1, 1 },
	{ __NR_mkdir, "mkdir", G_MKDIR, -1, 0, -1, -1, -1, 1 },
	{ __NR_mknod, "mknod", G_MKNOD, -1, 0, -1, -1, -1, 1 },
	{ __NR_symlink, "symlink", G_SYMLINK, -1, 0, -1, 1, -1, -1 },
	{ __NR_link, "link", G_LINK, -1, 0, -1, 1, -1, -1 },
	{ __NR_unlink, "unlink", G_UNLINK, -1, 0, -1, -1, -1, -1 },
	{ __NR_rmdir, "rmdir", G_RMDIR, -1, 0, -1, -1, -1, -1 },
	{ __NR_rename, "rename", G_RENAME, -1, 0, -1, 1, -1, -1 },
#endif
	{ __NR_openat, "openat", G_OPEN, 0, 1, -1, -1, 2, 3 },
	{ __NR_openat2, "openat2", G_OPEN2, 0, 1, -1, -1, -1, -1 },
	{ __NR_mkdirat, "mkdirat", G_MKDIR, 0, 1, -1, -1, -1, 2 },
	{ __NR_mknodat, "mknodat", G_MKNOD, 0, 1, -1, -1, -1, 2 },
	{ __NR_symlinkat, "symlinkat", G_SYMLINK, -1, 0, 1, 2, -1, -1 },
	{ __NR_linkat, "linkat", G_LINK, 0, 1, 2, 3, 4, -1 },
	{ __NR_unlinkat, "unlinkat", G_UNLINK, 0, 1, -1, -1, 2, -1 },
#ifdef __NR_renameat
	{ __NR_renameat, "renameat", G_RENAME, 0, 1, 2, 3, -1, -1 },
#endif
	{ __NR_renameat2, "renameat2", G_RENAME, 0, 1, 2, 3, 4, -1 },
	{ __NR_truncate, "truncate", G_TRUNCATE, -1, 0, -1, -1, -1, -1 },
	{ __NR_bind, "bind", G_BIND, -1, -1, -1, -1, -1, -1 },
};
enum { NGCALLS = sizeof gcalls / sizeof *gcalls };

/* ---- the filter ---- */

#define OPEN_WRITES (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)

/* Opens that neither write nor create (the flags are a register: what the
 * filter tests is what the kernel uses) and O_PATH opens (which ignore
 * every other flag) go through; every other gated call is sent.  */
static int install_filter(unsigned flags)
{
	struct sock_filter f[8 + SB_BPF_NO_LISTENER_LEN + 6 * NGCALLS];
	size_t n = 0;
	f[n++] = (struct sock_filter)SB_BPF_LD(arch);
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, GATE_ARCH, 1, 0);
	f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_ALLOW);   /* the launch filter kills it */
	f[n++] = (struct sock_filter)SB_BPF_LD(nr);
	n += sb_bpf_no_listener(f + n);
	for (size_t i = 0; i < NGCALLS; i++) {
		if (gcalls[i].k == G_OPEN) {
			f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							      (unsigned)gcalls[i].nr, 0, 5);
			f[n++] = (struct sock_filter)SB_BPF_ARG_LO(gcalls[i].flags);
			f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_PATH, 1, 0);
			f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, OPEN_WRITES,
							      1, 0);
			f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_ALLOW);
			f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_USER_NOTIF);
			continue;
		}
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (unsigned)gcalls[i].nr, 0, 1);
		f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_USER_NOTIF);
	}
	f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = (unsigned short)n, .filter = f };
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER | flags, &prog);
}

static int install_filter_best(void)
{
	/* Linux 5.19+: once the supervisor has received a call, a signal to
	 * the caller does not withdraw it, so a call is never performed twice
	 * (a restarted mkdir would fail with EEXIST).  */
	int fd = install_filter(SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV);
	if (fd < 0 && errno == EINVAL)
		fd = install_filter(0);
	return fd;
}

int sb_gate_child_install(int sock)
{
	int lfd = install_filter_best();
	return lfd < 0 ? -1 : sb_fd_hand_over(sock, lfd);
}

/* The probe child: no_new_privs and a listener in a child of its own, so
 * this process keeps neither.  */
static int probe_child(void *arg)
{
	int *err = arg;
	*err = 0;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		*err = errno;
		return 0;
	}
	int fd = install_filter_best();
	if (fd < 0)
		*err = errno;
	else
		close(fd);
	return 0;
}

bool sb_gate_available(char *why, size_t whylen)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	volatile int err = -1;
	pid_t pid = clone(probe_child, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD,
			  (void *)&err);
	if (pid < 0) {
		snprintf(why, whylen, "clone: %s", strerror(errno));
		return false;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (err == 0)
		return true;
	if (err == EBUSY)
		snprintf(why, whylen, "a seccomp listener exists already (inside another "
				      "supervised sandbox?)");
	else
		snprintf(why, whylen, "seccomp user notification: %s",
			 strerror(err > 0 ? err : EINVAL));
	return false;
}

/* ---- the supervisor ---- */

enum { UMASK_CACHE = 16 };
typedef struct status_fd {
	pid_t pid;
	int fd;
} status_fd;


struct sb_gate {
	int fd;
	sb_eval *ev;
	sb_gate_inode *inodes;
	size_t ninodes;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	size_t req_size, resp_size;
	bool addfd_send;          /* the kernel takes SECCOMP_ADDFD_FLAG_SEND */
	size_t performed, refused;
	/* Traced (docs/trace.md): the notifier that answers the calls the gate
	 * does not perform, and reports what either refused.  */
	sb_trace_notifier *tn;
	bool trunc_guard;
	status_fd status[UMASK_CACHE];
	size_t status_next;
	mode_t cur_umask;
	/* What the current call was refused, for the report.  */
	bool denied;
	sb_access denied_acc;
	char denied_path[PATH_MAX + NAME_MAX + 2];
};

void sb_gate_set_trace(sb_gate *g, sb_trace_notifier *tn, bool trunc_guard)
{
	g->tn = tn;
	g->trunc_guard = trunc_guard;
}

/* The caller's umask (/proc/PID/status, Linux 4.7+); 077 when unreadable:
 * a file is never created more open than the caller asked.  The status
 * files of the last callers stay open: one pread each time (the umask
 * can change at any time, so it is read every time).  */
static mode_t caller_umask(sb_gate *g, pid_t pid)
{
	char buf[2048];
	ssize_t k = -1;
	for (size_t i = 0; i < UMASK_CACHE && k < 0; i++)
		if (g->status[i].fd >= 0 && g->status[i].pid == pid) {
			k = pread(g->status[i].fd, buf, sizeof buf - 1, 0);
			if (k < 0) {   /* that process is gone: its pid may be reused */
				close(g->status[i].fd);
				g->status[i].fd = -1;
			}
		}
	if (k < 0) {
		char f[64];
		snprintf(f, sizeof f, "/proc/%d/status", (int)pid);
		int fd = open(f, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return 077;
		k = pread(fd, buf, sizeof buf - 1, 0);
		status_fd *slot = &g->status[g->status_next++ % UMASK_CACHE];
		if (slot->fd >= 0)
			close(slot->fd);
		*slot = (status_fd){ pid, fd };
	}
	if (k <= 0)
		return 077;
	buf[k] = '\0';
	const char *u = strstr(buf, "\nUmask:");
	unsigned m;
	if (!u || sscanf(u + 7, "%o", &m) != 1)
		return 077;
	return (mode_t)(m & 0777);
}

/* Perform under the caller's umask: the supervisor's is switched only
 * when it differs from the last one's.  */
static void use_umask(sb_gate *g, pid_t pid)
{
	mode_t m = caller_umask(g, pid);
	if (m != g->cur_umask) {
		umask(m);
		g->cur_umask = m;
	}
}

/* The current call is refused: EACCES, remembered for the trace.  */
static int refuse(sb_gate *g, sb_access acc, const char *path)
{
	g->denied = true;
	g->denied_acc = acc;
	snprintf(g->denied_path, sizeof g->denied_path, "%s", path);
	return EACCES;
}

/* The performed call's result (0 or errno); EACCES and EPERM are the
 * kernel's refusal (Landlock in the supervisor, as for the caller).  */
static int performed(sb_gate *g, int r, sb_access acc, const char *path)
{
	if (r >= 0)
		return 0;
	int e = errno;
	if (e == EACCES || e == EPERM)
		refuse(g, acc, path);
	return e;
}

sb_gate *sb_gate_new(int listener, const sb_profile *bound, const sb_gate_inode *inodes,
		     size_t ninodes)
{
	sb_gate *g = xcalloc(1, sizeof *g);
	g->fd = -1;
	g->ev = sb_eval_new(bound, 0);
	if (ninodes) {
		g->inodes = xmalloc(ninodes * sizeof *inodes);
		memcpy(g->inodes, inodes, ninodes * sizeof *inodes);
		g->ninodes = ninodes;
	}
	if (listener >= 0)
		sb_gate_set_listener(g, listener);
	struct seccomp_notif_sizes sz = { 0 };
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sz) < 0) {
		sz.seccomp_notif = sizeof(struct seccomp_notif);
		sz.seccomp_notif_resp = sizeof(struct seccomp_notif_resp);
	}
	g->req_size = sz.seccomp_notif > sizeof *g->req ? sz.seccomp_notif : sizeof *g->req;
	g->resp_size = sz.seccomp_notif_resp > sizeof *g->resp ? sz.seccomp_notif_resp
							       : sizeof *g->resp;
	g->req = xcalloc(1, g->req_size);
	g->resp = xcalloc(1, g->resp_size);
	g->addfd_send = true;
	for (size_t i = 0; i < UMASK_CACHE; i++)
		g->status[i].fd = -1;
	g->cur_umask = umask(022);
	umask(g->cur_umask);
	return g;
}

void sb_gate_set_listener(sb_gate *g, int listener)
{
	g->fd = listener;
	(void)ioctl(listener, GATE_IOCTL_NOTIF_SET_FLAGS, (unsigned long)GATE_NOTIF_FD_SYNC_WAKE_UP);
}

void sb_gate_free(sb_gate *g)
{
	if (!g)
		return;
	sb_eval_free(g->ev);
	for (size_t i = 0; i < UMASK_CACHE; i++)
		if (g->status[i].fd >= 0)
			close(g->status[i].fd);
	free(g->inodes);
	free(g->req);
	free(g->resp);
	free(g);
}

void sb_gate_counts(const sb_gate *g, size_t *performed, size_t *refused)
{
	*performed = g->performed;
	*refused = g->refused;
}

static void send_resp(int listener, uint64_t id, int64_t val, int err)
{
	struct seccomp_notif_resp r = { .id = id, .val = err ? 0 : val, .error = err ? -err : 0 };
	/* ENOENT: the caller is gone; nothing to answer */
	while (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &r) < 0 && errno == EINTR)
		;
}

static void reply(sb_gate *g, uint64_t id, int64_t val, int err)
{
	send_resp(g->fd, id, val, err);
}

/* Hand `fd` (closed here) to the caller as the result of its open: ADDFD
 * with SEND answers in one call (Linux 5.14+); before, ADDFD, then the
 * answer with the number.  */
static void hand_fd(int listener, uint64_t id, int fd, bool cloexec, bool *send_ok)
{
	struct seccomp_notif_addfd a = { .id = id, .srcfd = (__u32)fd,
					 .newfd_flags = cloexec ? O_CLOEXEC : 0 };
	int r;
	if (*send_ok) {
		a.flags = SECCOMP_ADDFD_FLAG_SEND;
		r = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &a);
		if (r >= 0 || errno != EINVAL) {
			int e = errno;
			close(fd);
			if (r < 0 && e != ENOENT)   /* EMFILE and such: the caller's */
				send_resp(listener, id, 0, e);
			return;
		}
		*send_ok = false;
	}
	a.flags = 0;
	r = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &a);
	int e = errno;
	close(fd);
	send_resp(listener, id, r, r < 0 ? e : 0);
}

/* The directory a relative name starts from: the cwd, or the dirfd, as an
 * O_PATH descriptor of the supervisor's.  */
static int base_fd(pid_t pid, int dfd, int *out)
{
	char link[64];
	if (dfd == AT_FDCWD)
		snprintf(link, sizeof link, "/proc/%d/cwd", (int)pid);
	else if (dfd < 0)
		return EBADF;
	else
		snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)pid, dfd);
	int fd = open(link, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT && dfd != AT_FDCWD ? EBADF : errno;
	*out = fd;
	return 0;
}

static bool on_procfs(int fd)
{
	struct statfs s;
	return fstatfs(fd, &s) == 0 && (unsigned long)s.f_type == PROC_MAGIC;
}

/* The canonical name of a directory descriptor (its path in this mount
 * namespace).  ENOENT for a directory that was removed.  */
static int dir_name(int fd, char *out, size_t cap)
{
	char link[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t k = readlink(link, out, cap - 1);
	if (k <= 0 || k >= (ssize_t)cap - 1)
		return k >= (ssize_t)cap - 1 ? ENAMETOOLONG : errno;
	out[k] = '\0';
	if (out[0] != '/')
		return ENOENT;   /* not in the file system (pipe:, anon_inode:) */
	static const char deleted[] = " (deleted)";
	size_t dl = sizeof deleted - 1;
	if ((size_t)k > dl && strcmp(out + k - dl, deleted) == 0) {
		struct stat st;
		if (fstat(fd, &st) < 0 || st.st_nlink == 0)
			return ENOENT;
	}
	return 0;
}

/* A resolved name: the pinned directory it is in, and the last component.  */
typedef struct loc {
	int dir;                   /* O_PATH directory, owned; -1 */
	int obj;                   /* O_PATH of the object (a procfs magic link); -1 */
	char name[NAME_MAX + 2];   /* last component ("." for "/"), + "/" when slashed */
	char path[PATH_MAX + NAME_MAX + 2];   /* canonical name, for decide() */
	bool exists;
	bool stat_known;           /* exists and st are set */
	struct stat st;            /* when exists */
} loc;

static void loc_clear(loc *L)
{
	if (L->dir >= 0)
		close(L->dir);
	if (L->obj >= 0)
		close(L->obj);
	L->dir = L->obj = -1;
}

typedef struct walker {
	pid_t pid;
	int hops;
} walker;

static int walk(walker *w, int base, const char *path, bool follow, loc *L);

/* The directory part of a name, from `base` (absolute names from "/"),
 * symlinks followed one by one: /proc/self is the caller's, a procfs
 * magic link (/proc/PID/cwd, /proc/PID/fd/N) is opened, not read.  */
static int walk_dir(walker *w, int base, const char *dir, int *out)
{
	/* Most names have no symlink on the way: one openat2 proves it and
	 * pins the directory.  */
	struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
				.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
	int fd = (int)syscall(__NR_openat2, base, dir, &how, sizeof how);
	if (fd >= 0) {
		*out = fd;
		return 0;
	}
	if (errno != ELOOP && errno != ENOSYS)
		return errno;
	int cur = openat(dir[0] == '/' ? AT_FDCWD : base, dir[0] == '/' ? "/" : ".",
			 O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cur < 0)
		return errno;
	char *rest = xstrdup(dir);
	char *p = rest;
	int err = 0;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		char *end = p + strcspn(p, "/");
		char save = *end;
		*end = '\0';
		char comp[NAME_MAX + 1];
		if (strlen(p) > NAME_MAX) {
			err = ENAMETOOLONG;
			break;
		}
		strcpy(comp, p);
		*end = save;
		p = end;
		if (strcmp(comp, ".") == 0)
			continue;
		struct stat st;
		if (strcmp(comp, "..") != 0 && fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode)) {
			if (++w->hops > MAX_HOPS) {
				err = ELOOP;
				break;
			}
			int nfd = -1;
			if (on_procfs(cur)) {
				struct stat cs;
				bool root = fstat(cur, &cs) == 0 && cs.st_ino == 1;
				char sub[64];
				if (root && (strcmp(comp, "self") == 0 ||
					     strcmp(comp, "thread-self") == 0)) {
					/* the caller's, not the supervisor's */
					if (strcmp(comp, "self") == 0)
						snprintf(sub, sizeof sub, "%d", (int)w->pid);
					else
						snprintf(sub, sizeof sub, "%d/task/%d", (int)w->pid,
							 (int)w->pid);
					nfd = openat(cur, sub, O_PATH | O_DIRECTORY | O_CLOEXEC);
				} else {
					/* a magic link: the kernel jumps to the object */
					nfd = openat(cur, comp, O_PATH | O_DIRECTORY | O_CLOEXEC);
				}
				if (nfd < 0) {
					err = errno;
					break;
				}
			} else {
				char target[PATH_MAX];
				ssize_t k = readlinkat(cur, comp, target, sizeof target - 1);
				if (k < 0) {
					err = errno;
					break;
				}
				target[k] = '\0';
				err = walk_dir(w, cur, target, &nfd);
				if (err)
					break;
			}
			close(cur);
			cur = nfd;
			continue;
		}
		int nfd = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0) {
			err = errno;
			break;
		}
		close(cur);
		cur = nfd;
	}
	free(rest);
	if (err) {
		close(cur);
		return err;
	}
	*out = cur;
	return 0;
}

/* Resolve `path` from `base` as the kernel would for the caller: every
 * component but the last through symlinks, the last too when `follow`.  */
static int walk(walker *w, int base, const char *path, bool follow, loc *L)
{
	size_t len = strlen(path);
	if (len == 0)
		return ENOENT;
	if (len > PATH_MAX)
		return ENAMETOOLONG;
	char buf[PATH_MAX + 1];
	memcpy(buf, path, len + 1);
	bool slashed = false;
	while (len > 1 && buf[len - 1] == '/') {
		buf[--len] = '\0';
		slashed = true;
	}
	char *slash = strrchr(buf, '/');
	const char *last;
	const char *dir;
	if (!slash) {
		last = buf;
		dir = ".";
	} else if (slash == buf) {
		last = buf[1] ? buf + 1 : ".";
		dir = "/";
	} else {
		*slash = '\0';
		last = slash + 1;
		dir = buf;
	}
	if (strlen(last) > NAME_MAX)
		return ENAMETOOLONG;
	if (slashed)
		follow = true;   /* "name/" follows a symlink at name */
	int dfd;
	int err = walk_dir(w, base, dir, &dfd);
	if (err)
		return err;
	struct stat st;
	bool exists = fstatat(dfd, last, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (!exists && errno != ENOENT) {
		err = errno;
		close(dfd);
		return err;
	}
	if (exists && follow && S_ISLNK(st.st_mode)) {
		if (++w->hops > MAX_HOPS) {
			close(dfd);
			return ELOOP;
		}
		if (on_procfs(dfd)) {
			/* a magic link (/proc/PID/fd/N): the object itself */
			int o = openat(dfd, last, O_PATH | O_CLOEXEC);
			if (o < 0 || fstat(o, &st) < 0) {
				err = errno;
				if (o >= 0)
					close(o);
				close(dfd);
				return err;
			}
			char link[64];
			snprintf(link, sizeof link, "/proc/self/fd/%d", o);
			ssize_t k = readlink(link, L->path, sizeof L->path - 1);
			L->path[k > 0 ? k : 0] = '\0';
			close(dfd);
			L->dir = -1;
			L->obj = o;
			L->exists = true;
			L->st = st;
			snprintf(L->name, sizeof L->name, "%.*s", NAME_MAX, last);
			return 0;
		}
		char target[PATH_MAX + 2];
		ssize_t k = readlinkat(dfd, last, target, sizeof target - 2);
		if (k < 0) {
			err = errno;
			close(dfd);
			return err;
		}
		target[k] = '\0';
		if (slashed)
			strcat(target, "/");
		err = walk(w, dfd, target, true, L);
		close(dfd);
		return err;
	}
	err = dir_name(dfd, L->path, sizeof L->path - NAME_MAX - 2);
	if (err) {
		close(dfd);
		return err;
	}
	if (strcmp(last, ".") == 0 || strcmp(last, "..") == 0) {
		/* the directory itself (or its parent): decided by its name */
		int o = openat(dfd, last, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (o < 0 || dir_name(o, L->path, sizeof L->path) != 0) {
			err = o < 0 ? errno : ENOENT;
			if (o >= 0)
				close(o);
			close(dfd);
			return err;
		}
		close(o);
	} else {
		size_t pl = strlen(L->path);
		snprintf(L->path + pl, sizeof L->path - pl, "%s%s", pl > 1 ? "/" : "", last);
	}
	L->dir = dfd;
	L->obj = -1;
	L->exists = exists;
	L->stat_known = true;
	if (exists)
		L->st = st;
	snprintf(L->name, sizeof L->name, "%.*s%s", NAME_MAX, last, slashed ? "/" : "");
	return 0;
}

/* The common case, in three system calls: the caller's base by its name
 * (a readlink of /proc/PID/cwd or /proc/PID/fd/N), joined with the path;
 * when no component is "." or ".." and an openat2 that refuses every
 * symlink pins the directory, the joined name is the canonical one.  0,
 * an errno that is the call's answer, or -1: take the long way.  Without
 * `need_stat` the last name is not looked at (L->stat_known false).  */
static int join_fast(pid_t pid, int dfd, const char *path, char *joined, size_t cap)
{
	size_t n = 0;
	if (path[0] != '/') {
		char link[64];
		if (dfd == AT_FDCWD)
			snprintf(link, sizeof link, "/proc/%d/cwd", (int)pid);
		else if (dfd >= 0)
			snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)pid, dfd);
		else
			return -1;
		ssize_t k = readlink(link, joined, cap - 1);
		if (k <= 0 || joined[0] != '/' || k >= (ssize_t)cap - 1)
			return -1;
		joined[k] = '\0';
		if (k > 10 && strcmp(joined + k - 10, " (deleted)") == 0)
			return -1;
		n = (size_t)k;
		if (n == 1)
			n = 0;   /* "/" + "/x" */
	}
	/* append the components, refusing "." and ".." and trailing slashes */
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			return -1;   /* trailing slash */
		size_t cl = strcspn(p, "/");
		if ((cl == 1 && p[0] == '.') || (cl == 2 && p[0] == '.' && p[1] == '.') ||
		    cl > NAME_MAX || n + 1 + cl >= cap)
			return -1;
		joined[n++] = '/';
		memcpy(joined + n, p, cl);
		n += cl;
		p += cl;
	}
	if (n == 0)
		return -1;
	joined[n] = '\0';
	return (int)n;
}

static int locate_fast(pid_t pid, int dfd, const char *path, bool follow, bool need_stat, loc *L)
{
	char joined[PATH_MAX + 1];
	int jn = join_fast(pid, dfd, path, joined, sizeof joined);
	if (jn < 0)
		return -1;
	size_t n = (size_t)jn;
	char *slash = strrchr(joined, '/');
	const char *last = slash + 1;
	int fd;
	struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
				.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
	if (slash == joined) {
		fd = (int)syscall(__NR_openat2, AT_FDCWD, "/", &how, sizeof how);
	} else {
		*slash = '\0';
		fd = (int)syscall(__NR_openat2, AT_FDCWD, joined, &how, sizeof how);
		*slash = '/';
	}
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? errno : -1;
	L->dir = fd;
	L->obj = -1;
	L->exists = false;
	L->stat_known = false;
	memcpy(L->path, joined, n + 1);
	snprintf(L->name, sizeof L->name, "%.*s", NAME_MAX, last);
	if (need_stat) {
		L->exists = fstatat(fd, last, &L->st, AT_SYMLINK_NOFOLLOW) == 0;
		if ((!L->exists && errno != ENOENT) || (L->exists && follow && S_ISLNK(L->st.st_mode))) {
			loc_clear(L);
			return -1;
		}
		L->stat_known = true;
	}
	return 0;
}

/* Locate argument `pi` (with dirfd argument `di`) of the current call.  */
static int locate_stat(pid_t pid, const struct seccomp_data *d, int di, int pi, bool follow,
		       bool need_stat, loc *L)
{
	L->dir = L->obj = -1;
	L->exists = false;
	L->stat_known = true;
	char path[PATH_MAX + 1];
	int err = sb_caller_str(pid, d->args[pi], path, sizeof path);
	if (err)
		return err;
	int dfd = di < 0 ? AT_FDCWD : (int)d->args[di];
	if (path[0] == '\0')
		return ENOENT;
	err = locate_fast(pid, dfd, path, follow, need_stat, L);
	if (err >= 0)
		return err;
	L->stat_known = true;
	int base = -1;
	if (path[0] != '/' && (err = base_fd(pid, dfd, &base)) != 0)
		return err;
	walker w = { .pid = pid };
	err = walk(&w, base >= 0 ? base : AT_FDCWD, path, follow, L);
	if (base >= 0)
		close(base);
	if (err)
		loc_clear(L);
	return err;
}

static int locate(pid_t pid, const struct seccomp_data *d, int di, int pi, bool follow,
		  loc *L)
{
	return locate_stat(pid, d, di, pi, follow, true, L);
}

static bool allowed(sb_gate *g, sb_op op, const char *path)
{
	if (path[0] != '/')
		return true;   /* a pipe or socket: not a name in the file system */
	return sb_eval_decide_indexed(g->ev, op, path, 0).kind == SB_DEC_ALLOW;
}

static bool protected_inode(const sb_gate *g, const struct stat *st)
{
	for (size_t i = 0; i < g->ninodes; i++)
		if (g->inodes[i].dev == (unsigned long)st->st_dev &&
		    g->inodes[i].ino == (unsigned long)st->st_ino)
			return true;
	return false;
}

/* May the existing object at L be written (opened for writing,
 * truncated, linked elsewhere)?  */
static bool may_write(sb_gate *g, const loc *L)
{
	return allowed(g, SB_OP_FILE_WRITE_DATA, L->path) && !protected_inode(g, &L->st);
}

/* The performed call's result: 0 or an errno.  */
static int errno_of(int r)
{
	return r < 0 ? errno : 0;
}

/* ---- an open that may block (a FIFO without a reader) ---- */

typedef struct slow_open {
	int listener;
	uint64_t id;
	int obj;
	int flags;
	bool send_ok;
} slow_open;

static void *slow_open_run(void *arg)
{
	slow_open *s = arg;
	char link[64];
	snprintf(link, sizeof link, "/proc/self/fd/%d", s->obj);
	int fd = open(link, s->flags | O_CLOEXEC);
	int e = errno;
	close(s->obj);
	if (fd >= 0)
		hand_fd(s->listener, s->id, fd, (s->flags & O_CLOEXEC) != 0, &s->send_ok);
	else
		send_resp(s->listener, s->id, 0, e);
	free(s);
	return NULL;
}

/* ---- the calls ---- */

static int do_open(sb_gate *g, pid_t pid, const struct seccomp_data *d, const gcall *k,
		   uint64_t flags, mode_t mode, bool *answered)
{
	bool creat = flags & O_CREAT;
	bool excl = creat && (flags & O_EXCL);
	bool tmpfile = (flags & __O_TMPFILE) == __O_TMPFILE;
	bool follow = !(flags & O_NOFOLLOW) && !excl;
	int acc = (int)(flags & O_ACCMODE);
	bool writes = acc == O_WRONLY || acc == O_RDWR || (flags & O_TRUNC);
	loc L;
	int fd = -1, err;
	if (creat && !tmpfile && (flags & ~(uint64_t)0xffffffff) == 0) {
		/* O_CREAT (git checkout, npm install): when the name may be
		 * made and written, one openat2 that refuses every symlink
		 * creates or opens exactly the name decided on.  A symlink
		 * (ELOOP) takes the long way; an existing file opened is
		 * checked by inode.  */
		char path[PATH_MAX + 1], joined[PATH_MAX + 1];
		int dfd = k->dfd < 0 ? AT_FDCWD : (int)d->args[k->dfd];
		if ((err = sb_caller_str(pid, d->args[k->path], path, sizeof path)) != 0)
			return err;
		if (path[0] && join_fast(pid, dfd, path, joined, sizeof joined) > 0 &&
		    allowed(g, SB_OP_FILE_WRITE_CREATE, joined) &&
		    (!writes || allowed(g, SB_OP_FILE_WRITE_DATA, joined))) {
			use_umask(g, pid);
			struct open_how how = { .flags = (flags | O_CLOEXEC) & ~(uint64_t)O_NOFOLLOW,
						.mode = mode & 07777,
						.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
			fd = (int)syscall(__NR_openat2, AT_FDCWD, joined, &how, sizeof how);
			struct stat st;
			if (fd < 0 && (errno == ELOOP || errno == EXDEV || errno == EAGAIN || errno == ENOSYS)) {
				/* the long way below */
			} else if (fd >= 0 && !excl && g->ninodes && fstat(fd, &st) == 0 &&
				   protected_inode(g, &st)) {
				close(fd);
				g->refused++;
				return refuse(g, SB_ACC_WRITE, joined);
			} else {
				err = performed(g, fd, SB_ACC_CREATE, joined);
				if (fd < 0) {
					if (err == EACCES)
						g->refused++;
					return err;
				}
				g->performed++;
				hand_fd(g->fd, g->req->id, fd, (flags & O_CLOEXEC) != 0, &g->addfd_send);
				*answered = true;
				return 0;
			}
		}
	}
	err = locate(pid, d, k->dfd, k->path, follow && !tmpfile, &L);
	if (err)
		return err;
	if (tmpfile) {
		/* an unnamed file in a directory: a creation there; naming it
		 * later (linkat) is a creation of its own */
		char probe[sizeof L.path + 16];
		snprintf(probe, sizeof probe, "%s/.sb-any-name", L.path);
		if (!L.exists || !S_ISDIR(L.st.st_mode))
			err = L.exists ? ENOTDIR : ENOENT;
		else if (!allowed(g, SB_OP_FILE_WRITE_CREATE, probe))
			err = refuse(g, SB_ACC_CREATE, L.path);
		else {
			use_umask(g, pid);
			fd = openat(L.dir, L.name, (int)flags | O_CLOEXEC, mode);
			err = performed(g, fd, SB_ACC_CREATE, L.path);
		}
	} else if (L.exists && L.obj < 0 && S_ISLNK(L.st.st_mode)) {
		/* not followed: O_NOFOLLOW, or O_CREAT|O_EXCL */
		err = excl ? EEXIST : ELOOP;
	} else if (L.exists) {
		if (excl) {
			err = EEXIST;
		} else if (writes && !may_write(g, &L)) {
			err = refuse(g, SB_ACC_WRITE, L.path);
		} else {
			/* reopen the checked object, never the name again */
			int o = L.obj;
			if (o < 0) {
				o = openat(L.dir, L.name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
				struct stat now;
				if (o >= 0 && (fstat(o, &now) < 0 || now.st_ino != L.st.st_ino ||
					       now.st_dev != L.st.st_dev)) {
					close(o);
					o = -1;
					errno = EAGAIN;   /* replaced meanwhile: the caller retries */
				}
			} else {
				L.obj = -1;
			}
			if (o < 0) {
				err = errno;
			} else {
				int rflags = (int)(flags & ~(uint64_t)(O_CREAT | O_EXCL | O_NOFOLLOW));
				if (S_ISFIFO(L.st.st_mode) && !(flags & O_NONBLOCK)) {
					/* may wait for a reader: not on the serving thread */
					slow_open *s = xmalloc(sizeof *s);
					*s = (slow_open){ g->fd, g->req->id, o, rflags, g->addfd_send };
					pthread_t t;
					pthread_attr_t at;
					pthread_attr_init(&at);
					pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
					if (pthread_create(&t, &at, slow_open_run, s) == 0) {
						pthread_attr_destroy(&at);
						loc_clear(&L);
						g->performed++;
						*answered = true;
						return 0;
					}
					pthread_attr_destroy(&at);
					free(s);
				}
				char link[64];
				snprintf(link, sizeof link, "/proc/self/fd/%d", o);
				fd = open(link, rflags | O_CLOEXEC);
				bool dir = S_ISDIR(L.st.st_mode);
				err = performed(g, fd, writes ? SB_ACC_WRITE : dir ? SB_ACC_LIST
										: SB_ACC_READ, L.path);
				close(o);
			}
		}
	} else if (!creat) {
		err = ENOENT;
	} else if (L.name[strlen(L.name) - 1] == '/') {
		err = EISDIR;
	} else if (!allowed(g, SB_OP_FILE_WRITE_CREATE, L.path) ||
		   (writes && !allowed(g, SB_OP_FILE_WRITE_DATA, L.path))) {
		err = refuse(g, SB_ACC_CREATE, L.path);
	} else {
		use_umask(g, pid);
		fd = openat(L.dir, L.name, (int)flags | O_NOFOLLOW | O_CLOEXEC, mode);
		err = performed(g, fd, SB_ACC_CREATE, L.path);
	}
	loc_clear(&L);
	if (err == EACCES)
		g->refused++;
	if (fd < 0)
		return err;
	g->performed++;
	hand_fd(g->fd, g->req->id, fd, (flags & O_CLOEXEC) != 0, &g->addfd_send);
	*answered = true;
	return 0;
}

static int do_create(sb_gate *g, pid_t pid, const struct seccomp_data *d, const gcall *k)
{
	int pi = k->k == G_SYMLINK ? k->path2 : k->path;
	int di = k->k == G_SYMLINK ? k->dfd2 : k->dfd;
	loc L;
	int err = locate(pid, d, di, pi, false, &L);
	if (err)
		return err;
	char target[PATH_MAX + 1];
	if (L.exists) {
		err = EEXIST;
	} else if (k->k == G_SYMLINK && (err = sb_caller_str(pid, d->args[k->path], target,
							sizeof target)) != 0) {
		/* err set */
	} else if (!allowed(g, SB_OP_FILE_WRITE_CREATE, L.path)) {
		err = refuse(g, SB_ACC_CREATE, L.path);
	} else {
		use_umask(g, pid);
		mode_t mode = k->mode >= 0 ? (mode_t)d->args[k->mode] : 0;
		int r = k->k == G_MKDIR ? mkdirat(L.dir, L.name, mode)
			: k->k == G_MKNOD ? mknodat(L.dir, L.name, mode,
						    (dev_t)d->args[k->mode + 1])
					  : symlinkat(target, L.dir, L.name);
		err = performed(g, r, SB_ACC_CREATE, L.path);
	}
	loc_clear(&L);
	return err;
}

static int do_unlink(sb_gate *g, pid_t pid, const struct seccomp_data *d, const gcall *k)
{
	int flags = k->k == G_RMDIR ? AT_REMOVEDIR : k->flags >= 0 ? (int)d->args[k->flags] : 0;
	loc L;
	int err = locate(pid, d, k->dfd, k->path, false, &L);
	if (err)
		return err;
	if (!L.exists)
		err = ENOENT;
	else if (!allowed(g, SB_OP_FILE_WRITE_UNLINK, L.path))
		err = refuse(g, SB_ACC_DELETE, L.path);
	else
		err = performed(g, unlinkat(L.dir, L.name, flags), SB_ACC_DELETE, L.path);
	loc_clear(&L);
	return err;
}

static int do_rename(sb_gate *g, pid_t pid, const struct seccomp_data *d, const gcall *k)
{
	unsigned flags = k->flags >= 0 ? (unsigned)d->args[k->flags] : 0;
	loc a, b;
	int err = locate(pid, d, k->dfd, k->path, false, &a);
	if (err)
		return err;
	err = locate(pid, d, k->dfd2, k->path2, false, &b);
	if (err) {
		loc_clear(&a);
		return err;
	}
	bool exchange = flags & RENAME_EXCHANGE;
	if (!a.exists) {
		err = ENOENT;
	} else if (!allowed(g, SB_OP_FILE_WRITE_UNLINK, a.path) ||
		   (exchange && !allowed(g, SB_OP_FILE_WRITE_CREATE, a.path))) {
		err = refuse(g, SB_ACC_DELETE, a.path);
	} else if (!allowed(g, SB_OP_FILE_WRITE_CREATE, b.path) ||
		   (b.exists && !allowed(g, SB_OP_FILE_WRITE_UNLINK, b.path))) {
		err = refuse(g, SB_ACC_CREATE, b.path);
	} else {
		err = performed(g, (int)syscall(SYS_renameat2, a.dir, a.name, b.dir, b.name, flags),
				SB_ACC_CREATE, b.path);
	}
	loc_clear(&a);
	loc_clear(&b);
	return err;
}

static int do_link(sb_gate *g, pid_t pid, const struct seccomp_data *d, const gcall *k)
{
	int flags = k->flags >= 0 ? (int)d->args[k->flags] : 0;
	loc a, b;
	int err;
	char link[64];
	int src = -1;
	a.dir = a.obj = -1;
	if (flags & AT_EMPTY_PATH) {
		/* the source is the descriptor itself (O_TMPFILE's naming) */
		char p[8];
		if (sb_caller_str(pid, d->args[k->path], p, sizeof p) == 0 && p[0] == '\0') {
			int fd = -1;
			if ((err = base_fd(pid, (int)d->args[k->dfd], &fd)) != 0)
				return err;
			a.obj = fd;
			a.exists = fstat(fd, &a.st) == 0;
			snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
			ssize_t n = readlink(link, a.path, sizeof a.path - 1);
			a.path[n > 0 ? n : 0] = '\0';
			src = fd;
		}
	}
	if (src < 0 && (err = locate(pid, d, k->dfd, k->path, (flags & AT_SYMLINK_FOLLOW) != 0,
				     &a)) != 0)
		return err;
	if ((err = locate(pid, d, k->dfd2, k->path2, false, &b)) != 0) {
		loc_clear(&a);
		return err;
	}
	/* a new name of a file the policy keeps unwritten would be a way to
	 * write it */
	if (!a.exists)
		err = ENOENT;
	else if (b.exists)
		err = EEXIST;
	else if (!allowed(g, SB_OP_FILE_WRITE_CREATE, b.path))
		err = refuse(g, SB_ACC_CREATE, b.path);
	else if ((!S_ISDIR(a.st.st_mode) && a.path[0] == '/' && strstr(a.path, " (deleted)") == NULL &&
		  !may_write(g, &a)) ||
		 protected_inode(g, &a.st))
		err = refuse(g, SB_ACC_WRITE, a.path);
	else if (a.obj >= 0) {
		snprintf(link, sizeof link, "/proc/self/fd/%d", a.obj);
		err = performed(g, linkat(AT_FDCWD, link, b.dir, b.name, AT_SYMLINK_FOLLOW),
				SB_ACC_CREATE, b.path);
	} else {
		err = performed(g, linkat(a.dir, a.name, b.dir, b.name, 0), SB_ACC_CREATE, b.path);
	}
	loc_clear(&a);
	loc_clear(&b);
	return err;
}

static int do_truncate(sb_gate *g, pid_t pid, const struct seccomp_data *d, const gcall *k)
{
	loc L;
	int err = locate(pid, d, k->dfd, k->path, true, &L);
	if (err)
		return err;
	if (!L.exists) {
		err = ENOENT;
	} else if (!may_write(g, &L)) {
		err = refuse(g, SB_ACC_WRITE, L.path);
	} else {
		int o = L.obj >= 0 ? dup(L.obj) : openat(L.dir, L.name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (o < 0) {
			err = errno;
		} else {
			char link[64];
			snprintf(link, sizeof link, "/proc/self/fd/%d", o);
			err = performed(g, truncate(link, (off_t)d->args[1]), SB_ACC_WRITE, L.path);
			close(o);
		}
	}
	loc_clear(&L);
	return err;
}

/* openat2 with RESOLVE_* flags and no write: the supervisor's openat2 from
 * the caller's base, with the caller's flags (Landlock decides the read as
 * for the caller).  */
static int do_open2_read(sb_gate *g, pid_t pid, const struct seccomp_data *d,
			 const struct open_how *how, bool *answered)
{
	char path[PATH_MAX + 1];
	int err = sb_caller_str(pid, d->args[1], path, sizeof path);
	if (err)
		return err;
	int base = -1;
	if (path[0] != '/' && (err = base_fd(pid, (int)d->args[0], &base)) != 0)
		return err;
	struct open_how h = *how;
	h.flags |= O_CLOEXEC;
	int fd = (int)syscall(__NR_openat2, base >= 0 ? base : AT_FDCWD, path, &h, sizeof h);
	err = fd < 0 ? errno : 0;
	if (base >= 0)
		close(base);
	if (fd < 0)
		return err;
	g->performed++;
	hand_fd(g->fd, g->req->id, fd, (how->flags & O_CLOEXEC) != 0, &g->addfd_send);
	*answered = true;
	return 0;
}

/* bind(): a UNIX socket's name is created in the file system; other
 * families only bind.  Performed on the caller's own socket (pidfd_getfd),
 * with the name resolved like any other.  */
static int do_bind(sb_gate *g, pid_t pid, const struct seccomp_data *d)
{
	struct sockaddr_storage ss;
	socklen_t len = (socklen_t)d->args[2];
	if (len > sizeof ss)
		return EINVAL;
	memset(&ss, 0, sizeof ss);
	if (len && !sb_caller_mem(pid, d->args[1], &ss, len))
		return EFAULT;
	/* the thread group's pidfd: pidfd_open wants its leader */
	char f[64], buf[1024];
	snprintf(f, sizeof f, "/proc/%d/status", (int)pid);
	int sfd = open(f, O_RDONLY | O_CLOEXEC);
	ssize_t n = sfd >= 0 ? read(sfd, buf, sizeof buf - 1) : -1;
	if (sfd >= 0)
		close(sfd);
	int tgid = (int)pid;
	if (n > 0) {
		buf[n] = '\0';
		const char *t = strstr(buf, "\nTgid:");
		if (t)
			sscanf(t + 6, "%d", &tgid);
	}
	int pfd = (int)syscall(__NR_pidfd_open, tgid, 0);
	if (pfd < 0)
		return errno == ESRCH ? ESRCH : EPERM;
	int sock = (int)syscall(__NR_pidfd_getfd, pfd, (int)d->args[0], 0);
	int e = errno;
	close(pfd);
	if (sock < 0)
		return e == EBADF ? EBADF : e;
	int err;
	struct sockaddr_un *un = (struct sockaddr_un *)&ss;
	if (ss.ss_family == AF_UNIX && len > offsetof(struct sockaddr_un, sun_path) &&
	    un->sun_path[0] != '\0') {
		char name[sizeof un->sun_path + 1];
		size_t pl = len - offsetof(struct sockaddr_un, sun_path);
		memcpy(name, un->sun_path, pl);
		name[pl] = '\0';
		loc L = { .dir = -1, .obj = -1 };
		walker w = { .pid = pid };
		int base = -1;
		err = name[0] == '/' ? 0 : base_fd(pid, AT_FDCWD, &base);
		if (!err)
			err = walk(&w, base >= 0 ? base : AT_FDCWD, name, false, &L);
		if (base >= 0)
			close(base);
		if (!err && L.exists)
			err = EADDRINUSE;
		else if (!err && !allowed(g, SB_OP_FILE_WRITE_CREATE, L.path))
			err = refuse(g, SB_ACC_CREATE, L.path);
		else if (!err) {
			/* bind by the pinned directory: its name from here */
			struct sockaddr_un at = { .sun_family = AF_UNIX };
			int cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (strlen(L.name) >= sizeof at.sun_path || fchdir(L.dir) < 0) {
				err = strlen(L.name) >= sizeof at.sun_path ? ENAMETOOLONG : errno;
			} else {
				strcpy(at.sun_path, L.name);
				use_umask(g, pid);
				err = performed(g, bind(sock, (struct sockaddr *)&at, sizeof at),
						SB_ACC_CREATE, L.path);
			}
			if (cwd >= 0) {
				if (fchdir(cwd) < 0) { /* stays in L.dir: harmless, all names are absolute or pinned */ }
				close(cwd);
			}
		}
		loc_clear(&L);
	} else {
		err = errno_of(bind(sock, (struct sockaddr *)&ss, len));
	}
	close(sock);
	return err;
}

/* Traced, the one listener carries the trace's calls too: those the gate
 * does not perform go to the trace's notifier (answered "continue", or the
 * refusals it makes itself below Landlock ABI 3).  */
static bool to_trace(const sb_gate *g, const gcall *k, const struct seccomp_data *d)
{
	if (!k)
		return true;   /* execve, socket: the trace's alone */
	if (k->k == G_OPEN) {
		uint64_t fl = d->args[k->flags];
		if ((fl & O_PATH) || !(fl & OPEN_WRITES))
			return true;
		return g->trunc_guard && sb_seccomp_trunc_refused(fl);
	}
	return g->trunc_guard && k->k == G_TRUNCATE;
}

int sb_gate_serve(sb_gate *g)
{
	memset(g->req, 0, g->req_size);
	if (ioctl(g->fd, SECCOMP_IOCTL_NOTIF_RECV, g->req) < 0) {
		if (errno == EINTR || (errno == ENOENT && !sb_notify_hung_up(g->fd)))
			return 0;
		return -1;   /* hung up: every filtered process is gone */
	}
	const struct seccomp_data *d = &g->req->data;
	pid_t pid = (pid_t)g->req->pid;
	const gcall *k = NULL;
	for (size_t i = 0; i < NGCALLS && !k; i++)
		if (gcalls[i].nr == d->nr)
			k = &gcalls[i];
	if (g->tn && to_trace(g, k, d)) {
		sb_trace_notifier_handle(g->tn, g->req);
		return 0;
	}
	g->denied = false;
	int err = ENOSYS;
	bool answered = false;
	if (k) {
		switch (k->k) {
		case G_OPEN:
			err = do_open(g, pid, d, k, d->args[k->flags],
				      (mode_t)d->args[k->mode], &answered);
			break;
		case G_CREAT:
			err = do_open(g, pid, d, k, O_CREAT | O_WRONLY | O_TRUNC,
				      (mode_t)d->args[k->mode], &answered);
			break;
		case G_OPEN2: {
			struct open_how how = { 0 };
			size_t sz = (size_t)d->args[3];
			if (sz < sizeof how) {
				err = EINVAL;
				break;
			}
			if (!sb_caller_mem(pid, d->args[2], &how, sizeof how)) {
				err = EFAULT;
				break;
			}
			if (how.resolve && !(how.flags & OPEN_WRITES)) {
				/* a read: nothing to decide; performed as asked,
				 * from the caller's base */
				err = do_open2_read(g, pid, d, &how, &answered);
				break;
			}
			if (how.resolve) {
				/* resolution limits with a write are not modelled
				 * here (docs/linux.md, "The write gate", limits) */
				err = EXDEV;
				break;
			}
			err = do_open(g, pid, d, k, how.flags, (mode_t)how.mode, &answered);
			break;
		}
		case G_MKDIR:
		case G_MKNOD:
		case G_SYMLINK:
			err = do_create(g, pid, d, k);
			break;
		case G_UNLINK:
		case G_RMDIR:
			err = do_unlink(g, pid, d, k);
			break;
		case G_RENAME:
			err = do_rename(g, pid, d, k);
			break;
		case G_LINK:
			err = do_link(g, pid, d, k);
			break;
		case G_TRUNCATE:
			err = do_truncate(g, pid, d, k);
			break;
		case G_BIND:
			err = do_bind(g, pid, d);
			break;
		}
	}
	if (g->tn && g->denied) {
		char comm[32];
		sb_caller_comm(pid, comm, sizeof comm);
		sb_denial dn = { .access = g->denied_acc, .path = g->denied_path, .pid = (int)pid,
				 .process = comm[0] ? comm : NULL, .syscall = k ? k->name : NULL };
		sb_trace_notifier_report(g->tn, &dn);
	} else if (g->tn && err == ENOENT) {
		/* performed in the masked view: a name a mask hides is absent
		 * here; the trace names it (before the answer: whole lines) */
		sb_trace_notifier_observe(g->tn, g->req);
	}
	if (answered)
		return 0;
	if (k && k->k != G_OPEN && k->k != G_CREAT && k->k != G_OPEN2) {
		if (err == EACCES)
			g->refused++;
		else
			g->performed++;
	}
	reply(g, g->req->id, 0, err);
	return 0;
}
#endif /* __linux__ */
