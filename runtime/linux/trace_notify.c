#ifdef __linux__ /* Linux only */
/* trace_notify.c - the seccomp user-notification trace (trace_notify.h).  */
#include "runtime/linux/trace_notify.h"
#include "runtime/linux/caller.h"
#include "runtime/linux/fdpass.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/notify_server.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "compiler/common/path.h"
#include "compiler/common/strmap.h"
#include "compiler/common/xalloc.h"

#if defined(__x86_64__)
#define TN_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TN_ARCH AUDIT_ARCH_AARCH64
#else
#error "trace filter: unsupported architecture (x86_64 and aarch64 only)"
#endif
#define SB_IOCTL_NOTIF_SET_FLAGS _IOW('!', 4, uint64_t)   /* linux/seccomp.h, 6.6 */
#define SB_NOTIF_FD_SYNC_WAKE_UP 1ULL
#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_execveat
#define __NR_execveat 322
#endif
#ifdef __NR_lstat
#define SB_NR_LSTAT __NR_lstat
#else
#define SB_NR_LSTAT (-1)
#endif

/* ---- what each traced call does to the file system ---- */
typedef enum {
	K_OPEN,       /* path, flags */
	K_OPEN2,      /* openat2: flags in struct open_how */
	K_CREAT,
	K_EXEC,
	K_MKDIR,
	K_MKNOD,      /* mode tells the kind */
	K_UNLINK,     /* flags may say AT_REMOVEDIR */
	K_RMDIR,
	K_RENAME,     /* two paths */
	K_LINK,       /* new name created */
	K_SYMLINK,    /* link path created */
	K_TRUNCATE,
	K_SOCKET,
	K_ACCESS,     /* access(2) family: mode; with masks only (below) */
	K_STAT,       /* stat family: flags; with masks, when asked (below) */
} kind;

typedef struct call {
	int nr;
	const char *name;
	kind k;
	int dfd, path;        /* argument indexes; dfd -1: AT_FDCWD */
	int dfd2, path2;      /* second path (rename, link), -1 when none */
	int flags;            /* argument index of flags / mode, -1 when none */
} call;

static const call calls[] = {
#ifdef __NR_open
	{ __NR_open, "open", K_OPEN, -1, 0, -1, -1, 1 },
	{ __NR_creat, "creat", K_CREAT, -1, 0, -1, -1, -1 },
	{ __NR_mkdir, "mkdir", K_MKDIR, -1, 0, -1, -1, -1 },
	{ __NR_mknod, "mknod", K_MKNOD, -1, 0, -1, -1, 1 },
	{ __NR_unlink, "unlink", K_UNLINK, -1, 0, -1, -1, -1 },
	{ __NR_rmdir, "rmdir", K_RMDIR, -1, 0, -1, -1, -1 },
	{ __NR_rename, "rename", K_RENAME, -1, 0, -1, 1, -1 },
	{ __NR_link, "link", K_LINK, -1, 0, -1, 1, -1 },
	{ __NR_symlink, "symlink", K_SYMLINK, -1, -1, -1, 1, -1 },
	{ __NR_access, "access", K_ACCESS, -1, 0, -1, -1, 1 },
	{ __NR_stat, "stat", K_STAT, -1, 0, -1, -1, -1 },
	{ __NR_lstat, "lstat", K_STAT, -1, 0, -1, -1, -1 },
#endif
	{ __NR_openat, "openat", K_OPEN, 0, 1, -1, -1, 2 },
	{ __NR_openat2, "openat2", K_OPEN2, 0, 1, -1, -1, 2 },
	{ __NR_execve, "execve", K_EXEC, -1, 0, -1, -1, -1 },
	{ __NR_execveat, "execveat", K_EXEC, 0, 1, -1, -1, 4 },
	{ __NR_mkdirat, "mkdirat", K_MKDIR, 0, 1, -1, -1, -1 },
	{ __NR_mknodat, "mknodat", K_MKNOD, 0, 1, -1, -1, 2 },
	{ __NR_unlinkat, "unlinkat", K_UNLINK, 0, 1, -1, -1, 2 },
#ifdef __NR_renameat
	{ __NR_renameat, "renameat", K_RENAME, 0, 1, 2, 3, -1 },
#endif
	{ __NR_renameat2, "renameat2", K_RENAME, 0, 1, 2, 3, -1 },
	{ __NR_linkat, "linkat", K_LINK, 0, 1, 2, 3, -1 },
	{ __NR_symlinkat, "symlinkat", K_SYMLINK, -1, -1, 1, 2, -1 },
	{ __NR_truncate, "truncate", K_TRUNCATE, -1, 0, -1, -1, -1 },
	{ __NR_socket, "socket", K_SOCKET, -1, -1, -1, -1, 0 },
	{ __NR_faccessat, "faccessat", K_ACCESS, 0, 1, -1, -1, 2 },
	{ __NR_faccessat2, "faccessat2", K_ACCESS, 0, 1, -1, -1, 2 },
	{ __NR_newfstatat, "newfstatat", K_STAT, 0, 1, -1, -1, 3 },
	{ __NR_statx, "statx", K_STAT, 0, 1, -1, -1, 2 },
};
enum { NCALLS = sizeof calls / sizeof *calls };

/* ---- child side ---- */


static int install_filter(bool deny_unix, bool deny_net, bool with_bind, bool masks,
			  bool stat_probes)
{
	struct sock_filter f[10 + SB_BPF_NO_LISTENER_LEN + 6 * NCALLS];
	size_t n = 0;
	f[n++] = (struct sock_filter)SB_BPF_LD(arch);
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TN_ARCH, 1, 0);
	f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_ALLOW);   /* the launch filter kills it */
	f[n++] = (struct sock_filter)SB_BPF_LD(nr);
	n += sb_bpf_no_listener(f + n);
	/* Each path call: equal -> notify.  socket() last, by family.  */
	for (size_t i = 0; i < NCALLS; i++) {
		if (calls[i].k == K_SOCKET || (calls[i].k == K_ACCESS && !masks) ||
		    (calls[i].k == K_STAT && !(masks && stat_probes)))
			continue;   /* access(2), stat: only a mask can refuse them */
		if (calls[i].k == K_STAT && calls[i].flags >= 0) {
			/* fstat() is newfstatat(fd, "", AT_EMPTY_PATH) in glibc:
			 * through a descriptor, no name is looked up (a name
			 * given with the flag is, unobserved: a report lost,
			 * never an access).  Every path out returns.  */
			f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							      (unsigned)calls[i].nr, 0, 4);
			f[n++] = (struct sock_filter)SB_BPF_ARG_LO(calls[i].flags);
			f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
							      AT_EMPTY_PATH, 0, 1);
			f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_ALLOW);
			f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_USER_NOTIF);
			continue;
		}
		if (calls[i].k == K_OPEN) {
			/* An O_PATH open is checked by no LSM hook, so Landlock
			 * never denies it (classify_open skips it too): not sent,
			 * unless O_TRUNC is set as well (the truncation guard's
			 * rule looks at the flags alone).  Every path out of this
			 * block returns, so A may hold the flags.  */
			f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							      (unsigned)calls[i].nr, 0, 5);
			f[n++] = (struct sock_filter)SB_BPF_ARG_LO(calls[i].flags);
			f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_PATH, 0, 2);
			f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_TRUNC, 1, 0);
			f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_ALLOW);
			f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_USER_NOTIF);
			continue;
		}
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      (unsigned)calls[i].nr, 0, 1);
		f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_USER_NOTIF);
	}
	if (with_bind) {
		/* the write gate's: a UNIX socket's name is created by bind() */
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_bind, 0, 1);
		f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_USER_NOTIF);
	}
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 1, 0);
	f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)SB_BPF_ARG_LO(0);
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1);
	f[n++] = (struct sock_filter)SB_BPF_RET(deny_unix || deny_net ? SECCOMP_RET_USER_NOTIF
							      : SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)SB_BPF_RET(deny_net ? SECCOMP_RET_USER_NOTIF : SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = (unsigned short)n, .filter = f };
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
			    &prog);
}

int sb_trace_child_install(int sock, bool deny_unix, bool deny_net, bool with_bind, bool masks,
			   bool stat_probes)
{
	int lfd = install_filter(deny_unix, deny_net, with_bind, masks, stat_probes);
	return lfd < 0 ? -1 : sb_fd_hand_over(sock, lfd);
}

int sb_trace_recv_listener(int sock)
{
	char byte;
	int fd = sb_fd_recv_byte(sock, &byte);
	return fd < 0 && byte == 'R' ? -2 : fd;
}

/* ---- parent side ---- */

/* One path argument, as the kernel will see it: absolute, not yet
 * resolved.  */
typedef struct arg_path {
	char text[PATH_MAX + 8];
	char base[PATH_MAX + 8];
	bool ok;
	bool empty;           /* "" (AT_EMPTY_PATH: through a descriptor) */
} arg_path;

typedef struct grant {
	uint64_t dir_rights;      /* from rules on a directory: the subtree */
	uint64_t file_rights;     /* from rules on this file */
} grant;

struct sb_trace_notifier {
	int fd;
	uint64_t handled;
	bool trunc_guard;         /* truncate(2), O_TRUNC read opens: EPERM */
	sb_tracer *t;
	sb_strmap *grants;        /* path -> grant (owned, in `gv`) */
	grant *gv;
	const sb_ll_masks *masks; /* the plan's masks (borrowed), NULL: none */
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	size_t req_size, resp_size;
	arg_path *a, *b;          /* the two path arguments of the current call */
	pthread_mutex_t *lock;    /* held around the tracer's calls; NULL: none */
	int remote;               /* >= 0: denials go there as records, not to `t` */
	bool reads_free;          /* the rules grant read_file|read_dir on "/" */
	int nhid;                 /* -1: not yet looked for; else the count in `hid` */
	dev_t *hid;               /* devices of the HIDE and DEV masks' nodes */
};

static bool rule_granted(const sb_trace_notifier *n, const char *path, uint64_t right);

sb_trace_notifier *sb_trace_notifier_new(int listener, const struct sb_ll_plan *plan,
					 uint64_t handled, bool trunc_guard, sb_tracer *t)
{
	sb_trace_notifier *n = xcalloc(1, sizeof *n);
	n->fd = listener;
	n->handled = handled;
	n->trunc_guard = trunc_guard;
	n->t = t;
	n->remote = -1;
	n->grants = sb_strmap_new();
	n->masks = plan->masks.n ? &plan->masks : NULL;
	const sb_ll_rules *r = sb_ll_plan_rules(plan);
	n->gv = xcalloc(r->n ? r->n : 1, sizeof *n->gv);
	size_t used = 0;
	for (size_t i = 0; i < r->n; i++) {
		void **slot = sb_strmap_slot(n->grants, r->v[i].path, strlen(r->v[i].path), true);
		grant *g = *slot;
		if (!g)
			*slot = g = &n->gv[used++];
		if (r->v[i].is_dir)
			g->dir_rights |= r->v[i].rights & ~SB_LL_NEVER;
		else
			g->file_rights |= r->v[i].rights & SB_LL_FILE_RIGHTS;
	}
	/* Kernel 6.6+: switch to the supervisor and back on the same CPU, so a
	 * notification costs two context switches, not two wake-ups that wait
	 * for a free CPU (older kernels: EINVAL, ignored).  The flags are the
	 * ioctl's argument itself, not a pointer to them: a pointer is refused
	 * with EINVAL, which left this off until suite-trace checked it.  */
	(void)ioctl(listener, SB_IOCTL_NOTIF_SET_FLAGS, (unsigned long)SB_NOTIF_FD_SYNC_WAKE_UP);
	struct seccomp_notif_sizes sz = { 0 };
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sz) < 0) {
		sz.seccomp_notif = sizeof(struct seccomp_notif);
		sz.seccomp_notif_resp = sizeof(struct seccomp_notif_resp);
	}
	n->req_size = sz.seccomp_notif > sizeof *n->req ? sz.seccomp_notif : sizeof *n->req;
	n->resp_size = sz.seccomp_notif_resp > sizeof *n->resp ? sz.seccomp_notif_resp
							       : sizeof *n->resp;
	n->reads_free = rule_granted(n, "/", SB_LL_READ_FILE) && rule_granted(n, "/", SB_LL_READ_DIR);
	n->nhid = -1;
	n->a = xcalloc(1, sizeof *n->a);
	n->b = xcalloc(1, sizeof *n->b);
	n->req = xcalloc(1, n->req_size);
	n->resp = xcalloc(1, n->resp_size);
	return n;
}

void sb_trace_notifier_free(sb_trace_notifier *n)
{
	if (!n)
		return;
	sb_strmap_free(n->grants);
	free(n->gv);
	free(n->a);
	free(n->b);
	free(n->req);
	free(n->resp);
	free(n->hid);
	free(n);
}

void sb_trace_notifier_set_lock(sb_trace_notifier *n, pthread_mutex_t *lock)
{
	n->lock = lock;
}

/* Does the plan grant `right` on `path` (canonical)?  Landlock's rule: a
 * right on a directory covers its subtree; a rule on a file covers that
 * file.  Rights the effective ABI does not handle are never refused.  */
static bool rule_granted(const sb_trace_notifier *n, const char *path, uint64_t right)
{
	size_t len = strlen(path);
	for (;;) {
		void **slot = sb_strmap_slot(n->grants, path, len, false);
		if (slot && *slot) {
			const grant *g = *slot;
			if (g->dir_rights & right)
				return true;
			if (len == strlen(path) && (g->file_rights & right))
				return true;
		}
		if (len <= 1)
			return false;
		while (len > 1 && path[len - 1] != '/')
			len--;
		if (len > 1)
			len--;   /* drop the slash: "/a/b" -> "/a" */
	}
}

/* ... and with masks, what the mounts take away (ll_masks.c): a path in a
 * hidden tree is under the rule on "/", and denied by the mask.  */
static bool granted(const sb_trace_notifier *n, const char *path, uint64_t right)
{
	if (!(right & n->handled))
		return true;
	if (n->masks && (sb_ll_masks_taken(n->masks, path) & right))
		return false;
	return rule_granted(n, path, right);
}

/* The directory a relative path starts from: the cwd, or the dirfd.  */
static bool base_dir(pid_t pid, int dfd, char *out, size_t cap)
{
	char link[64];
	if (dfd == AT_FDCWD)
		snprintf(link, sizeof link, "/proc/%d/cwd", (int)pid);
	else
		snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)pid, dfd);
	ssize_t k = readlink(link, out, cap - 1);
	if (k <= 0 || out[0] != '/')
		return false;
	out[k] = '\0';
	return true;
}


static void fetch_path(pid_t pid, const struct seccomp_data *d, int dfd_i, int path_i,
		       arg_path *out, bool have_text)
{
	out->ok = false;
	out->empty = false;
	out->base[0] = '\0';
	if (path_i < 0)
		return;
	if (!have_text && sb_caller_str(pid, d->args[path_i], out->text, sizeof out->text) != 0) {
		out->text[0] = '\0';
		return;
	}
	if (out->text[0] == '\0') {
		out->empty = true;   /* AT_EMPTY_PATH: an access through a descriptor */
		return;
	}
	if (out->text[0] != '/') {
		int dfd = dfd_i < 0 ? AT_FDCWD : (int)d->args[dfd_i];
		if (!base_dir(pid, dfd, out->base, sizeof out->base))
			return;
	}
	out->ok = true;
}

/* The canonical name of `p` (O_PATH open, following a final symlink or
 * not), with its status: one open and a readlink of the descriptor instead
 * of realpath()'s lstat per component.  NULL when it does not exist.
 * Most paths have no symlink and no "..": for those, an open that refuses
 * every symlink (openat2 RESOLVE_NO_SYMLINKS, Linux 5.6+) proves the
 * lexical form is the canonical name, and the readlink is saved (one
 * system call of about nine per traced call: bench/analysis.md, 8).  A
 * symlink on the way (ELOOP), ".." or an older kernel take the long way. */
static char *canon(int dirfd, const char *p, bool follow, bool dir_only, struct stat *st)
{
	int oflags = O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW) | (dir_only ? O_DIRECTORY : 0);
	char *lexical = p[0] == '/' ? sb_path_normalize(p, NULL) : NULL;
	if (lexical) {
		struct open_how how = { .flags = (uint64_t)oflags, .resolve = RESOLVE_NO_SYMLINKS };
		int fd = (int)syscall(__NR_openat2, dirfd, p, &how, sizeof how);
		if (fd >= 0) {
			bool ok = !st || fstat(fd, st) == 0;
			close(fd);
			if (ok)
				return lexical;
		}
		int e = errno;
		free(lexical);
		/* a missing component before any symlink: missing either way */
		if (fd >= 0 || e == ENOENT || e == ENOTDIR)
			return NULL;
	}
	int fd = openat(dirfd, p, oflags);
	if (fd < 0)
		return NULL;
	char link[64], buf[PATH_MAX];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t k = readlink(link, buf, sizeof buf - 1);
	bool ok = k > 0 && buf[0] == '/' && (!st || fstat(fd, st) == 0);
	close(fd);
	if (!ok)
		return NULL;
	buf[k] = '\0';
	return xstrdup(buf);
}

/* A name of one component relative to the base (the cwd or a dirfd, whose
 * name the kernel gave canonical): only the last component can be a
 * symlink, and one lstat tells, with the status (no open, no close: the
 * file-heavy jobs' common case, `openat(dfd, name)` and relative names
 * under the cwd; bench/analysis.md, 8).  NULL when the name is a symlink
 * to follow or not of that form (the caller takes the long way).  */
static char *resolve_in_base(const arg_path *a, bool follow, bool *exists, struct stat *st)
{
	const char *t = a->text;
	size_t len = strlen(t);
	/* "name/" (git's directory walk): the kernel follows a symlink there
	 * and wants a directory */
	bool slashed = false;
	while (len > 1 && t[len - 1] == '/') {
		len--;
		slashed = true;
	}
	if (t[0] == '/' || !a->base[0] || memchr(t, '/', len) || (len == 1 && t[0] == '.') ||
	    (len == 2 && t[0] == '.' && t[1] == '.'))
		return NULL;
	char *name = xstrndup(t, len);
	char *r = sb_path_join(a->base, name);
	free(name);
	if (lstat(r, st) == 0) {
		if (!((follow || slashed) && S_ISLNK(st->st_mode)) && (!slashed || S_ISDIR(st->st_mode))) {
			*exists = true;
			return r;
		}
	} else if (errno == ENOENT) {
		*exists = false;
		return r;
	}
	free(r);
	return NULL;
}

/* Resolve as the kernel does: every component but the last through
 * symlinks; the last too when `follow`.  NULL when the parent does not
 * exist (the call fails with ENOENT, no denial).  Sets *exists, and *st
 * unless `st` is NULL and `follow` (then the status is not fetched).  */
static char *resolve_long(const arg_path *a, bool follow, bool *exists, struct stat *st)
{
	struct stat own;
	char *full = a->text[0] == '/' ? xstrdup(a->text) : sb_path_join(a->base, a->text);
	*exists = false;
	size_t len = strlen(full);
	while (len > 1 && full[len - 1] == '/')
		full[--len] = '\0';
	const char *slash = strrchr(full, '/');
	const char *last = slash ? slash + 1 : full;
	char *r = NULL;
	bool dots = !strcmp(last, ".") || !strcmp(last, "..");
	if (follow || dots) {
		r = canon(AT_FDCWD, full, true, false, st);
		if (r || dots) {
			*exists = r != NULL;
			free(full);
			return r;
		}
	}
	char *dir = xstrndup(full, slash && slash != full ? (size_t)(slash - full) : 1);
	char *rdir = canon(AT_FDCWD, dir, true, true, NULL);
	free(dir);
	if (rdir) {
		r = sb_path_join(rdir, last);
		free(rdir);
		if (!st)
			st = &own;
		*exists = lstat(r, st) == 0;
		if (*exists && follow && S_ISLNK(st->st_mode)) {
			/* a dangling symlink followed: the target's parent decides */
			free(r);
			r = NULL;
		}
	}
	free(full);
	return r;
}

/* Either way, with the status.  */
static char *resolve(const arg_path *a, bool follow, bool *exists, struct stat *st)
{
	char *r = resolve_in_base(a, follow, exists, st);
	return r ? r : resolve_long(a, follow, exists, st);
}

static uint64_t make_right(mode_t m)
{
	if (S_ISDIR(m))
		return SB_LL_MAKE_DIR;
	if (S_ISLNK(m))
		return SB_LL_MAKE_SYM;
	if (S_ISFIFO(m))
		return SB_LL_MAKE_FIFO;
	if (S_ISSOCK(m))
		return SB_LL_MAKE_SOCK;
	if (S_ISCHR(m))
		return SB_LL_MAKE_CHAR;
	if (S_ISBLK(m))
		return SB_LL_MAKE_BLOCK;
	return SB_LL_MAKE_REG;
}

typedef struct ctx {
	sb_trace_notifier *n;
	pid_t pid;
	char comm[32];            /* read at the first denial */
	const char *sys;
} ctx;

/* ---- where denials go: the tracer, or records to the process that
 * holds it (the write gate's supervisor serves the listener inside the
 * sandbox and sends what the tracer outside needs) ---- */

enum { REC_DENIED = 1, REC_LOST = 2, REC_NSTR = 5 };

/* A record's `verify`: the gate's supervisor sees the masked view, where
 * a hidden path is not there; the launcher outside reports it only if it
 * is there in the real view (the path itself, or for a creation its
 * parent), so a probe of a name that exists nowhere is no denial.  */
enum { VERIFY_NONE = 0, VERIFY_PATH = 1, VERIFY_PARENT = 2 };

typedef struct rec_head {
	uint8_t kind, access, platform_only, absent, verify;
	int32_t pid, port;
	uint32_t n;                     /* REC_LOST */
	uint16_t len[REC_NSTR];         /* path, process, syscall, detail, origin */
} rec_head;

static void send_record(int fd, const rec_head *h, const char *const str[REC_NSTR])
{
	char buf[sizeof *h + 5 * (PATH_MAX + 8)];
	size_t off = sizeof *h;
	rec_head hh = *h;
	for (int i = 0; i < REC_NSTR; i++) {
		size_t l = str && str[i] ? strlen(str[i]) : 0;
		if (l > PATH_MAX + 4)
			l = PATH_MAX + 4;
		hh.len[i] = (uint16_t)l;
		if (l)
			memcpy(buf + off, str[i], l);
		off += l;
	}
	memcpy(buf, &hh, sizeof hh);
	while (send(fd, buf, off, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

static void report_verified(sb_trace_notifier *n, const sb_denial *d, int verify)
{
	if (n->remote < 0) {
		sb_tracer_denied(n->t, d);
		return;
	}
	rec_head h = { .kind = REC_DENIED, .access = (uint8_t)d->access, .verify = (uint8_t)verify,
		       .platform_only = d->platform_only, .absent = d->absent, .pid = d->pid,
		       .port = d->port };
	const char *str[REC_NSTR] = { d->path, d->process, d->syscall, d->detail, d->origin };
	send_record(n->remote, &h, str);
	/* Whole lines: the caller is answered after the report is written,
	 * so wait for the launcher's one-byte receipt (sb_trace_record_recv).
	 * A launcher that does not read (a stalled terminal) delays this by
	 * a second at most; one that is gone, not at all.  */
	struct pollfd pf = { .fd = n->remote, .events = POLLIN };
	char ack;
	if (poll(&pf, 1, 1000) > 0 && (pf.revents & POLLIN))
		(void)recv(n->remote, &ack, 1, MSG_DONTWAIT);
}

void sb_trace_notifier_report(sb_trace_notifier *n, const sb_denial *d)
{
	report_verified(n, d, VERIFY_NONE);
}

static void report_lost(sb_trace_notifier *n)
{
	if (n->remote < 0) {
		sb_tracer_lost(n->t, 1);
		return;
	}
	rec_head h = { .kind = REC_LOST, .n = 1 };
	send_record(n->remote, &h, NULL);
}

void sb_trace_notifier_set_remote(sb_trace_notifier *n, int fd)
{
	n->remote = fd;
}

/* This side is outside the masks: is what the gate's supervisor could not
 * see there (rec_head's `verify`)?  A directory read is a listing.  */
static bool verified_outside(sb_denial *d, int verify)
{
	struct stat st;
	if (verify == VERIFY_PATH) {
		if (lstat(d->path, &st) < 0)
			return false;
		if (S_ISDIR(st.st_mode) && d->access == SB_ACC_READ)
			d->access = SB_ACC_LIST;
	} else if (verify == VERIFY_PARENT) {
		char *dir = sb_path_dirname(d->path);
		bool there = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
		free(dir);
		return there;
	}
	return true;
}

int sb_trace_record_recv(int fd, sb_tracer *t)
{
	char buf[sizeof(rec_head) + 5 * (PATH_MAX + 8) + 1];
	ssize_t k;
	do
		k = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT);
	while (k < 0 && errno == EINTR);
	if (k <= 0)
		return k == 0 ? -1 : (errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1);
	rec_head h;
	if ((size_t)k < sizeof h) {
		sb_tracer_lost(t, 1);
		return 1;
	}
	memcpy(&h, buf, sizeof h);
	char *str[REC_NSTR] = { NULL };
	size_t off = sizeof h;
	for (int i = 0; i < REC_NSTR; i++) {
		if (off + h.len[i] > (size_t)k) {
			sb_tracer_lost(t, 1);
			for (int j = 0; j < i; j++)
				free(str[j]);
			return 1;
		}
		str[i] = h.len[i] ? xstrndup(buf + off, h.len[i]) : NULL;
		off += h.len[i];
	}
	if (h.kind == REC_LOST) {
		sb_tracer_lost(t, h.n);
	} else if (h.kind == REC_DENIED && h.access < SB_ACC__COUNT && str[0]) {
		sb_denial d = { .access = (sb_access)h.access, .path = str[0], .pid = h.pid,
				.process = str[1], .syscall = str[2], .platform_only = h.platform_only,
				.port = h.port, .detail = str[3], .origin = str[4],
				.absent = h.absent };
		if (verified_outside(&d, h.verify))
			sb_tracer_denied(t, &d);
		/* the receipt the reporting side waits for (whole lines) */
		(void)send(fd, "k", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
	} else {
		sb_tracer_lost(t, 1);
	}
	for (int i = 0; i < REC_NSTR; i++)
		free(str[i]);
	return 1;
}

static void deny(ctx *c, sb_access acc, const char *path)
{
	if (!c->comm[0])
		sb_caller_comm(c->pid, c->comm, sizeof c->comm);
	sb_denial d = { .access = acc, .path = path, .pid = (int)c->pid,
			.process = c->comm[0] ? c->comm : NULL, .syscall = c->sys,
			.absent = c->n->masks && sb_ll_masks_absent(c->n->masks, path) };
	sb_trace_notifier_report(c->n, &d);
}

/* The name in a hidden tree that `path` (absolute, not found in the masked
 * view) leads to, or NULL.  Resolved a component at a time as the kernel
 * does, through symlinks and ".." as far as they exist here (`keys ->
 * ~/.ssh`, then `id_rsa`), so a link into a hidden tree names its target;
 * from the first hidden name on, the rest is taken lexically.  Called on
 * failed lookups only.  */
static char *hidden_name(const sb_ll_masks *ms, const char *path)
{
	char *done = xstrdup("/");
	char *rest = xstrdup(path);
	char *out = NULL;
	int hops = 0;
	size_t at = 0;
	for (;;) {
		while (rest[at] == '/')
			at++;
		if (!rest[at])
			break;
		size_t end = at;
		while (rest[end] && rest[end] != '/')
			end++;
		char *comp = xstrndup(rest + at, end - at);
		at = end;
		if (!strcmp(comp, ".")) {
			free(comp);
			continue;
		}
		if (!strcmp(comp, "..")) {
			char *up = sb_path_dirname(done);
			free(done);
			done = up;
			free(comp);
			continue;
		}
		char *next = sb_path_join(done, comp);
		free(comp);
		struct stat st;
		if (sb_ll_masks_absent(ms, next)) {
			/* hidden: the rest lexically ("..", "." and "//" folded) */
			char *tail = sb_path_join(next, rest[at] ? rest + at + 1 : "");
			free(next);
			next = tail;
			for (char *q; (q = strstr(next, "/..")) && (q[3] == '/' || !q[3]);) {
				char *head = xstrndup(next, (size_t)(q - next));
				char *up = sb_path_dirname(head[0] ? head : "/");
				char *joined = q[3] ? sb_path_join(up, q + 4) : xstrdup(up);
				free(head);
				free(up);
				free(next);
				next = joined;
			}
			out = sb_path_normalize(next, NULL);
			free(next);
			break;
		}
		if (lstat(next, &st) < 0) {
			free(next);
			break;   /* missing for a reason of its own */
		}
		if (S_ISLNK(st.st_mode) && ++hops <= 40) {
			char target[PATH_MAX];
			ssize_t k = readlink(next, target, sizeof target - 1);
			free(next);
			if (k <= 0)
				break;
			target[k] = '\0';
			/* the target, then what is left of the path */
			char *more = rest[at] ? sb_path_join(target[0] ? target : ".", rest + at + 1)
					      : xstrdup(target);
			if (target[0] == '/') {
				free(done);
				done = xstrdup("/");
			}
			free(rest);
			rest = more;
			at = 0;
			continue;
		}
		free(done);
		done = next;
	}
	free(done);
	free(rest);
	return out;
}

/* Served by the write gate, inside the masks: a name the caller meets as
 * absent may be one a mask hides.  Its lexical name (a mask is mounted in
 * place, so the masked view and the real one name a path alike) goes out
 * when the masks make it absent, for the launcher to check in the real
 * view (verified_outside).  Outside, the name is there and `granted`
 * sees the mask: nothing to do here.  */
static void hidden_probe(ctx *c, const arg_path *a, const char *resolved, bool follow,
			 sb_access acc)
{
	if (c->n->remote < 0 || !c->n->masks || !a->ok)
		return;
	char *p = NULL;
	if (resolved) {
		/* the parent resolved: the name is not behind a symlink */
		if (sb_ll_masks_absent(c->n->masks, resolved))
			p = xstrdup(resolved);
	} else {
		/* the common cases first: a name the masks hide as written, or
		 * one that is there (not hidden, unless a symlink leads on) */
		char *full = a->text[0] == '/' ? xstrdup(a->text) : sb_path_join(a->base, a->text);
		char *lexical = sb_path_normalize(full, NULL);
		struct stat st;
		if (lexical && sb_ll_masks_absent(c->n->masks, lexical))
			p = lexical, lexical = NULL;
		else if (!lexical || lstat(lexical, &st) < 0 || (follow && S_ISLNK(st.st_mode)))
			p = hidden_name(c->n->masks, full);
		free(lexical);
		free(full);
	}
	if (p) {
		if (!c->comm[0])
			sb_caller_comm(c->pid, c->comm, sizeof c->comm);
		sb_denial d = { .access = acc, .path = p, .pid = (int)c->pid,
				.process = c->comm[0] ? c->comm : NULL, .syscall = c->sys,
				.absent = true };
		report_verified(c->n, &d, acc == SB_ACC_CREATE ? VERIFY_PARENT : VERIFY_PATH);
	}
	free(p);
}

/* The parent of `p` must grant `right` (creating and removing).  */
static void check_parent(ctx *c, const char *p, uint64_t right, sb_access acc)
{
	char *dir = sb_path_dirname(p);
	if (!granted(c->n, dir, right))
		deny(c, acc, p);
	free(dir);
}

/* Does the plan grant every right of `rights` on `path`?  */
static bool granted_all(const sb_trace_notifier *n, const char *path, uint64_t rights)
{
	for (uint64_t bit = 1; bit && bit <= rights; bit <<= 1)
		if ((rights & bit) && !granted(n, path, bit))
			return false;
	return true;
}

static void classify_open(ctx *c, const arg_path *a, uint64_t flags)
{
	if (flags & O_PATH)
		return;   /* no access is checked for an O_PATH descriptor */
	bool creat = flags & O_CREAT;
	bool follow = !(flags & O_NOFOLLOW) && !(creat && (flags & O_EXCL));
	bool exists;
	struct stat st;
	/* A name in the base comes with its status (one lstat).  Otherwise,
	 * following the last component, the status is fetched only when the
	 * plan may refuse the open (some right it could need is not granted):
	 * an fstat less for most traced opens (bench/analysis.md, 8).  */
	bool typed = true;
	char *p = resolve_in_base(a, follow, &exists, &st);
	if (!p) {
		typed = !follow;
		p = resolve_long(a, follow, &exists, typed ? &st : NULL);
	}
	int acc = (int)(flags & O_ACCMODE);
	if (!p || (!exists && !creat)) {
		hidden_probe(c, a, p, true, creat ? SB_ACC_CREATE : acc == O_WRONLY ? SB_ACC_WRITE : SB_ACC_READ);
		free(p);
		return;
	}
	uint64_t may_need = (acc == O_RDONLY || acc == O_RDWR ? SB_LL_READ_FILE | SB_LL_READ_DIR : 0) |
			    (acc == O_WRONLY || acc == O_RDWR ? SB_LL_WRITE_FILE : 0) |
			    (flags & O_TRUNC ? SB_LL_TRUNCATE : 0);
	if (exists && !typed) {
		if (granted_all(c->n, p, may_need) || stat(p, &st) < 0) {
			free(p);
			return;
		}
	}
	if (!exists) {
		if (creat) {
			check_parent(c, p, SB_LL_MAKE_REG, SB_ACC_CREATE);
		}
	} else if (!(creat && (flags & O_EXCL)) && !S_ISLNK(st.st_mode)) {
		bool dir = S_ISDIR(st.st_mode);
		if ((acc == O_RDONLY || acc == O_RDWR) &&
		    !granted(c->n, p, dir ? SB_LL_READ_DIR : SB_LL_READ_FILE))
			deny(c, dir ? SB_ACC_LIST : SB_ACC_READ, p);
		else if ((acc == O_WRONLY || acc == O_RDWR) && !dir &&
			 !granted(c->n, p, SB_LL_WRITE_FILE))
			deny(c, SB_ACC_WRITE, p);
		else if ((flags & O_TRUNC) && !dir && S_ISREG(st.st_mode) &&
			 !granted(c->n, p, SB_LL_TRUNCATE))
			deny(c, SB_ACC_WRITE, p);
	}
	free(p);
}

static void classify(ctx *c, const call *k, const struct seccomp_data *d,
		     const arg_path *a, const arg_path *b, uint64_t open2_flags)
{
	bool exists;
	struct stat st;
	char *p = NULL;
	switch (k->k) {
	case K_OPEN:
		classify_open(c, a, d->args[k->flags]);
		return;
	case K_OPEN2:
		classify_open(c, a, open2_flags);
		return;
	case K_CREAT:
		classify_open(c, a, O_CREAT | O_WRONLY | O_TRUNC);
		return;
	case K_EXEC:
		p = resolve(a, true, &exists, &st);
		if (p && exists && S_ISREG(st.st_mode) && !granted(c->n, p, SB_LL_EXECUTE))
			deny(c, SB_ACC_EXEC, p);
		else if (!p || !exists)
			hidden_probe(c, a, p, true, SB_ACC_EXEC);
		break;
	case K_TRUNCATE:
		p = resolve(a, true, &exists, &st);
		if (p && exists && S_ISREG(st.st_mode) &&
		    !(granted(c->n, p, SB_LL_TRUNCATE) && granted(c->n, p, SB_LL_WRITE_FILE)))
			deny(c, SB_ACC_WRITE, p);
		break;
	case K_MKDIR:
		p = resolve(a, false, &exists, &st);
		if (p && !exists)
			check_parent(c, p, SB_LL_MAKE_DIR, SB_ACC_CREATE);
		break;
	case K_MKNOD:
		p = resolve(a, false, &exists, &st);
		if (p && !exists)
			check_parent(c, p, make_right((mode_t)d->args[k->flags]), SB_ACC_CREATE);
		break;
	case K_SYMLINK:
		p = resolve(b, false, &exists, &st);
		if (p && !exists)
			check_parent(c, p, SB_LL_MAKE_SYM, SB_ACC_CREATE);
		break;
	case K_UNLINK:
	case K_RMDIR:
		p = resolve(a, false, &exists, &st);
		if (p && exists) {
			bool dir = S_ISDIR(st.st_mode);
			check_parent(c, p, dir ? SB_LL_REMOVE_DIR : SB_LL_REMOVE_FILE,
				     SB_ACC_DELETE);
		}
		break;
	case K_LINK:
	case K_RENAME: {
		p = resolve(a, false, &exists, &st);
		if (!p || !exists)
			break;
		uint64_t mk = make_right(st.st_mode);
		if (k->k == K_RENAME)
			check_parent(c, p, S_ISDIR(st.st_mode) ? SB_LL_REMOVE_DIR
							       : SB_LL_REMOVE_FILE, SB_ACC_DELETE);
		free(p);
		p = resolve(b, false, &exists, &st);
		if (p)
			check_parent(c, p, mk, SB_ACC_CREATE);
		break;
	}
	case K_ACCESS:
		/* Landlock never refuses access(2) (docs/linux.md, L7), but a
		 * mask does: a hidden path looks absent.  Tools probe a file
		 * this way before they open it (git, its config and includes)
		 * and skip it silently when it is "missing": that is the
		 * denial to report.  */
		if (!c->n->masks)
			break;
		p = resolve(a, true, &exists, &st);
		if (!p || !exists)
			hidden_probe(c, a, p, true, (int)d->args[k->flags] & W_OK ? SB_ACC_WRITE : SB_ACC_READ);
		if (p && exists) {
			int mode = (int)d->args[k->flags];
			bool dir = S_ISDIR(st.st_mode);
			if (mode == F_OK && !sb_ll_masks_absent(c->n->masks, p))
				;   /* it is there (a hidden file shows, unreadable) */
			else if ((mode & W_OK) && !granted(c->n, p, SB_LL_WRITE_FILE))
				deny(c, SB_ACC_WRITE, p);
			else if (!granted(c->n, p, dir ? SB_LL_READ_DIR : SB_LL_READ_FILE))
				deny(c, dir ? SB_ACC_LIST : SB_ACC_READ, p);
		}
		break;
	case K_STAT: {
		/* Landlock never refuses a stat; a mask does (it looks absent),
		 * and tools probe a path so before they open it: a clone from a
		 * hidden repository only stats it.  */
		if (!c->n->masks)
			break;
		bool nofollow = k->nr == SB_NR_LSTAT ||
				(k->flags >= 0 && (d->args[k->flags] & AT_SYMLINK_NOFOLLOW));
		if (c->n->remote >= 0) {
			/* inside the masks a hidden name is absent: the lexical
			 * check and one lstat, no resolution (a stat is the
			 * commonest call) */
			hidden_probe(c, a, NULL, !nofollow, SB_ACC_READ);
			break;
		}
		p = resolve(a, !nofollow, &exists, &st);
		if (p && exists && sb_ll_masks_absent(c->n->masks, p))
			deny(c, S_ISDIR(st.st_mode) ? SB_ACC_LIST : SB_ACC_READ, p);
		else if (!p || !exists)
			hidden_probe(c, a, p, !nofollow, SB_ACC_READ);
		break;
	}
	case K_SOCKET:
		break;
	}
	free(p);
}

/* A call the truncation guard refused (seccomp_trunc.c): refused on this
 * kernel whatever the policy says.  */
static void deny_guarded(ctx *c, const arg_path *a)
{
	bool exists;
	struct stat st;
	char *p = a->ok ? resolve(a, true, &exists, &st) : NULL;
	if (!p && a->ok)
		p = a->text[0] == '/' ? xstrdup(a->text) : sb_path_join(a->base, a->text);
	if (!p)
		return;
	if (!c->comm[0])
		sb_caller_comm(c->pid, c->comm, sizeof c->comm);
	sb_denial d = { .access = SB_ACC_TRUNCATE, .path = p, .pid = (int)c->pid,
			.process = c->comm[0] ? c->comm : NULL, .syscall = c->sys,
			.platform_only = true,
			.detail = "below Landlock ABI 3 truncate(2) and O_TRUNC on an open not for "
				  "writing are refused on every path (docs/linux.md, \"Truncation "
				  "below ABI 3\"); ftruncate(2) or an open for writing works where "
				  "writing is allowed" };
	sb_trace_notifier_report(c->n, &d);
	free(p);
}

static const char *family_name(int fam)
{
	switch (fam) {
	case AF_UNIX: return "AF_UNIX";
	case AF_INET: return "AF_INET";
	case AF_INET6: return "AF_INET6";
	case AF_NETLINK: return "AF_NETLINK";
	case AF_PACKET: return "AF_PACKET";
	default: return "another address family";
	}
}

static void lock(sb_trace_notifier *n)
{
	if (n->lock)
		pthread_mutex_lock(n->lock);
}

static void unlock(sb_trace_notifier *n)
{
	if (n->lock)
		pthread_mutex_unlock(n->lock);
}

static void classify_answered(sb_trace_notifier *n, const call *k, const struct seccomp_data *d,
			      pid_t pid, bool guarded, bool readable, uint64_t open2_flags);

static void respond(sb_trace_notifier *n, uint64_t id, int error)
{
	memset(n->resp, 0, n->resp_size);
	n->resp->id = id;
	if (error) {
		n->resp->error = -error;
	} else {
		n->resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	}
	/* ENOENT: the caller was killed meanwhile; nothing to answer.  */
	while (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_SEND, n->resp) < 0 && errno == EINTR)
		;
}

int sb_trace_notifier_serve(sb_trace_notifier *n)
{
	memset(n->req, 0, n->req_size);
	if (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_RECV, n->req) < 0) {
		if (errno == EINTR || (errno == ENOENT && !sb_notify_hung_up(n->fd)))
			return 0;
		return -1;   /* hung up: every filtered process is gone */
	}
	sb_trace_notifier_handle(n, n->req);
	return 0;
}

/* The devices of the HIDE and DEV masks' nodes, as mounted here (the
 * write gate's supervisor runs inside the masks): an empty tmpfs of its
 * own for a hidden directory and for /dev, or the empty file bound over a
 * hidden file (ll_internal.h).  Found once, at the first use.  */
static void find_hidden_devs(sb_trace_notifier *n)
{
	n->nhid = 0;
	if (!n->masks)
		return;
	n->hid = xcalloc(n->masks->n ? n->masks->n : 1, sizeof *n->hid);
	for (size_t i = 0; i < n->masks->n; i++) {
		const sb_ll_mask *m = &n->masks->v[i];
		struct stat st;
		if (m->kind != SB_MASK_HIDE && m->kind != SB_MASK_DEV)
			continue;
		/* A node this process cannot reach (inside another hidden
		 * tree) no caller of the same credentials reaches either.  */
		if (lstat(m->path, &st) == 0)
			n->hid[n->nhid++] = st.st_dev;
	}
}

/* The common allowed call, decided with one lstat and no name (issue 25;
 * bench/analysis.md, 8): a read-only open or a read/exists access(2)
 * probe, served inside the masks, under rules that grant every read.
 * There only a HIDE or DEV mask refuses a read, at its node or below it,
 * and everything reachable there lies on the mask's own tmpfs (or its
 * empty file) or is bound back in, re-allowed.  So an object that exists,
 * is not a symlink (the kernel would follow it: the long way), and lies
 * on none of those devices is one the plan cannot refuse.  A relative
 * name is looked up through /proc/PID/cwd (or the dirfd's link): no
 * readlink of the base.  True when the call needs nothing more.  */
static bool read_allowed_fast(sb_trace_notifier *n, const call *k, const struct seccomp_data *d,
			      pid_t pid, arg_path *a, bool *have_text)
{
	if (n->remote < 0 || !n->masks || !n->reads_free || k->path < 0)
		return false;
	if (k->k == K_OPEN) {
		uint64_t fl = d->args[k->flags];
		/* O_TMPFILE holds O_DIRECTORY's bit: all of it is a tmpfile */
		if ((fl & (O_ACCMODE | O_CREAT | O_TRUNC | O_PATH)) || (fl & O_TMPFILE) == O_TMPFILE)
			return false;
	} else if (k->k != K_ACCESS || (d->args[k->flags] & W_OK)) {
		return false;
	}
	if (n->nhid < 0)
		find_hidden_devs(n);
	if (sb_caller_str(pid, d->args[k->path], a->text, sizeof a->text) != 0)
		return false;
	*have_text = true;   /* the long way does not read it again */
	if (!a->text[0])
		return false;
	char probe[PATH_MAX + 64];
	int dfd = k->dfd < 0 ? AT_FDCWD : (int)d->args[k->dfd];
	int w = a->text[0] == '/' ? snprintf(probe, sizeof probe, "%s", a->text)
		: dfd == AT_FDCWD ? snprintf(probe, sizeof probe, "/proc/%d/cwd/%s", (int)pid, a->text)
		: snprintf(probe, sizeof probe, "/proc/%d/fd/%d/%s", (int)pid, dfd, a->text);
	struct stat st;
	if (w < 0 || (size_t)w >= sizeof probe || lstat(probe, &st) < 0 || S_ISLNK(st.st_mode))
		return false;
	for (int i = 0; i < n->nhid; i++)
		if (n->hid[i] == st.st_dev)
			return false;
	return true;
}

static const call *call_of(int nr)
{
	for (size_t i = 0; i < NCALLS; i++)
		if (calls[i].nr == nr)
			return &calls[i];
	return NULL;
}

/* Read what lives in the caller (its memory, cwd, dirfds) while it waits
 * (its name is read at a denial only): the path arguments into n->a and
 * n->b, openat2's flags; false when those flags could not be read.  */
static bool fetch_args(sb_trace_notifier *n, const call *k, const struct seccomp_data *d,
		       pid_t pid, bool have_text, uint64_t *open2_flags)
{
	fetch_path(pid, d, k->dfd, k->path, n->a, have_text);
	fetch_path(pid, d, k->dfd2, k->path2, n->b, false);
	*open2_flags = 0;
	if (k->k == K_OPEN2) {
		struct { uint64_t flags, mode, resolve; } how;
		if (!sb_caller_mem(pid, d->args[2], &how, sizeof how))
			return false;
		*open2_flags = how.flags;
	}
	return true;
}

void sb_trace_notifier_observe(sb_trace_notifier *n, const struct seccomp_notif *req)
{
	const struct seccomp_data *d = &req->data;
	const call *k = call_of(d->nr);
	if (!k || k->k == K_SOCKET)
		return;
	uint64_t open2_flags;
	bool readable = fetch_args(n, k, d, (pid_t)req->pid, false, &open2_flags);
	lock(n);
	classify_answered(n, k, d, (pid_t)req->pid, false, readable, open2_flags);
	unlock(n);
}

void sb_trace_notifier_handle(sb_trace_notifier *n, const struct seccomp_notif *req)
{
	const struct seccomp_data *d = &req->data;
	pid_t pid = (pid_t)req->pid;
	const call *k = call_of(d->nr);
	if (k && k->k == K_SOCKET) {
		/* The one answer that is not "continue": the same refusal the
		 * launch filter gives when the trace is off.  */
		ctx c = { .n = n, .pid = pid, .sys = "socket" };
		lock(n);
		deny(&c, SB_ACC_NETWORK, family_name((int)d->args[0]));
		unlock(n);
		respond(n, req->id, EPERM);   /* after the report: whole lines */
		return;
	}
	uint64_t open2_flags = 0;
	bool readable = true;
	if (k) {
		bool have_text = false;
		if (k->k == K_OPEN || k->k == K_ACCESS) {
			if (!(n->trunc_guard && k->k == K_OPEN && sb_seccomp_trunc_refused(d->args[k->flags])) &&
			    read_allowed_fast(n, k, d, pid, n->a, &have_text)) {
				respond(n, req->id, 0);
				return;
			}
		}
		readable = fetch_args(n, k, d, pid, have_text, &open2_flags);
	}
	/* The truncation guard's rule, on the flags the kernel will use (a
	 * register, not the caller's memory): refused here, not continued.  */
	bool guarded = k && n->trunc_guard &&
		       (k->k == K_TRUNCATE ||
			(k->k == K_OPEN && sb_seccomp_trunc_refused(d->args[k->flags])));
	if (!k) {
		respond(n, req->id, 0);
		return;
	}
	/* Classified, and a denial reported, before the caller goes on: the
	 * report's line is out before the tool can start its own message
	 * about the failure, so it never lands inside one ("cat: " ... ": No
	 * such file") on a shared terminal (docs/trace.md).  Served by the
	 * write gate, the record is sent before the answer; the tracer
	 * outside writes it when it reads it.  */
	lock(n);
	classify_answered(n, k, d, pid, guarded, readable, open2_flags);
	unlock(n);
	respond(n, req->id, guarded ? EPERM : 0);
}

/* Before the answer: report what the plan refuses (the tracer's lock held). */
static void classify_answered(sb_trace_notifier *n, const call *k, const struct seccomp_data *d,
			      pid_t pid, bool guarded, bool readable, uint64_t open2_flags)
{
	const arg_path *a = n->a, *b = n->b;
	if (guarded) {
		ctx c = { .n = n, .pid = pid, .sys = k->name };
		if (!a->ok && !a->empty)
			report_lost(n);
		deny_guarded(&c, a);
		return;
	}
	/* an empty path (a descriptor) is not an event; an unreadable one is */
	bool lost = !readable || (k->path >= 0 && !a->ok && !a->empty) ||
		    (k->path2 >= 0 && !b->ok && !b->empty);
	if (lost)
		report_lost(n);
	if (lost || (k->path >= 0 && !a->ok) || (k->path2 >= 0 && !b->ok))
		return;
	ctx c = { .n = n, .pid = pid, .sys = k->name };
	classify(&c, k, d, a, b, open2_flags);
}
#endif /* __linux__ */
