#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* masks.c - make the plan's masks in the sandbox's private mount namespace
 * (namespaces.c made it), before the Landlock ruleset is applied: Landlock
 * grants whole trees and the masks take rights away below them
 * (docs/linux.md, "Masks").  Every target is re-opened here, without
 * following a symlink anywhere on its path, and must still be the inode the
 * plan saw: a path swapped between plan and launch refuses the launch.  */
#include "runtime/linux/ll_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#ifndef __NR_fsopen
#define __NR_fsopen 430
#define __NR_fsconfig 431
#define __NR_fsmount 432
#endif
#define SB_AT_RECURSIVE 0x8000
#define SB_MOUNT_ATTR_RDONLY 0x1
#define SB_MOUNT_ATTR_NOEXEC 0x8
#define SB_FSCONFIG_CMD_CREATE 6
#define SB_FSMOUNT_CLOEXEC 1
#define SB_FSOPEN_CLOEXEC 1

struct sb_mount_attr {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

/* The empty mode-0000 file that HIDE masks of files bind; it lives in the
 * tmpfs put on /dev, which DEV turns into the device directory.  */
static const char store_dir[] = "/dev";
static const char store_file[] = "/dev/.sbx-mask-empty";

typedef struct applier {
	const char **what, **step;
	const char *cur;
} applier;

static int failed(applier *a, const char *path, const char *step)
{
	*a->what = path;
	*a->step = step;
	return -1;
}

static char *fd_path(int fd, char *buf, size_t n)
{
	snprintf(buf, n, "/proc/self/fd/%d", fd);
	return buf;
}

/* Open `path` as O_PATH without following a symlink, and check that no
 * component was one: the resolved name must be the name asked for.  */
static int open_exact(const char *path)
{
	int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* readlink of a descriptor's name: the kernel gives at most PATH_MAX
	 * bytes (a longer name is ENAMETOOLONG below, refused) */
	char link[32], real[PATH_MAX];
	ssize_t n = readlink(fd_path(fd, link, sizeof link), real, sizeof real - 1);
	if (n < 0 || (size_t)n >= sizeof real - 1) {
		close(fd);
		errno = ENAMETOOLONG;
		return -1;
	}
	real[n] = '\0';
	if (strcmp(real, path) != 0) {
		close(fd);
		errno = ELOOP;
		return -1;
	}
	return fd;
}

/* open_exact + the inode the plan saw.  */
static int open_planned(const char *path, unsigned long dev, unsigned long ino)
{
	int fd = open_exact(path);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) < 0 || S_ISLNK(st.st_mode) || (unsigned long)st.st_dev != dev ||
	    (unsigned long)st.st_ino != ino) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

/* Keep the flags a user namespace may not clear (nosuid, nodev, noexec,
 * atime) when remounting a bind.  */
static unsigned long kept_flags(int fd)
{
	struct statvfs sv;
	unsigned long f = 0;
	if (fstatvfs(fd, &sv) < 0)
		return MS_NOSUID | MS_NODEV;
	if (sv.f_flag & ST_NOSUID)
		f |= MS_NOSUID;
	if (sv.f_flag & ST_NODEV)
		f |= MS_NODEV;
	if (sv.f_flag & ST_NOEXEC)
		f |= MS_NOEXEC;
	if (sv.f_flag & ST_RDONLY)
		f |= MS_RDONLY;
#ifdef ST_NOATIME
	if (sv.f_flag & ST_NOATIME)
		f |= MS_NOATIME;
	if (sv.f_flag & ST_NODIRATIME)
		f |= MS_NODIRATIME;
	if (sv.f_flag & ST_RELATIME)
		f |= MS_RELATIME;
#endif
	return f;
}

/* Does any mount lie strictly below `path` (now, in this namespace)?  */
static bool has_submounts(const char *path)
{
	sb_mounts m;
	if (sb_mounts_read(&m, "/proc/self/mountinfo") < 0)
		return true;
	bool any = false;
	for (size_t i = 0; i < m.n && !any; i++)
		any = sb_path_is_strictly_under(m.v[i].mountpoint, path);
	sb_mounts_clear(&m);
	return any;
}

/* Read-only and/or noexec on the mount now at `path` and every mount below
 * it (a tmpfs mounted inside a write-denied tree must not stay writable).  */
static int restrict_tree(applier *a, const char *path, bool rdonly, bool noexec)
{
	int fd = open_exact(path);
	if (fd < 0)
		return failed(a, path, "re-opening the new mount");
	struct sb_mount_attr at = { 0 };
	at.attr_set = (rdonly ? SB_MOUNT_ATTR_RDONLY : 0) | (noexec ? SB_MOUNT_ATTR_NOEXEC : 0);
	if (syscall(__NR_mount_setattr, fd, "", AT_EMPTY_PATH | SB_AT_RECURSIVE, &at,
		    sizeof at) == 0) {
		close(fd);
		return 0;
	}
	if (errno != ENOSYS) {
		close(fd);
		return failed(a, path, "mount_setattr");
	}
	/* before 5.12: remount the top mount; refuse when others lie below */
	char buf[32];
	unsigned long fl = MS_REMOUNT | MS_BIND | kept_flags(fd) | (rdonly ? MS_RDONLY : 0) |
			   (noexec ? MS_NOEXEC : 0);
	int rc = mount(NULL, fd_path(fd, buf, sizeof buf), NULL, fl, NULL);
	close(fd);
	if (rc < 0)
		return failed(a, path, "remounting the bind read-only");
	if (has_submounts(path)) {
		errno = ENOTSUP;
		return failed(a, path, "mounts below a write-denied tree (needs mount_setattr, "
				       "Linux 5.12)");
	}
	return 0;
}

static int bind_onto(applier *a, const char *src_path, int src_fd, int dst_fd, bool rec)
{
	char s[32], t[32];
	const char *src = src_fd >= 0 ? fd_path(src_fd, s, sizeof s) : src_path;
	if (mount(src, fd_path(dst_fd, t, sizeof t), NULL, MS_BIND | (rec ? MS_REC : 0), NULL) < 0)
		return failed(a, a->cur, "bind mount");
	return 0;
}

/* Create the mount point for an exposed path inside a fresh tmpfs whose
 * root is `root_fd`: directories 0111 (traversable, not listable) on the
 * way, then a directory or an empty file.  Returns an O_PATH fd of it.  */
static int make_point(int root_fd, const char *rel, bool is_dir)
{
	char *buf = xstrdup(rel);   /* cut at each '/' in turn */
	int dir = dup(root_fd);
	char *p = buf;
	while (dir >= 0) {
		char *slash = strchr(p, '/');
		if (slash)
			*slash = '\0';
		int nd;
		if (!slash && !is_dir) {
			nd = openat(dir, p, O_CREAT | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0000);
			if (nd >= 0) {
				close(nd);
				nd = openat(dir, p, O_PATH | O_NOFOLLOW | O_CLOEXEC);
			}
		} else {
			if (mkdirat(dir, p, 0111) < 0 && errno != EEXIST) {
				int e = errno;
				close(dir);
				free(buf);
				errno = e;
				return -1;
			}
			nd = openat(dir, p, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
		}
		close(dir);
		dir = nd;
		if (!slash)
			break;
		p = slash + 1;
	}
	int e = errno;
	free(buf);
	errno = e;
	return dir;
}

/* The exposed paths of a mask, opened (O_PATH, checked against the plan)
 * before a mount covers them; NULL after a reported failure.  */
static void close_exposed(const sb_ll_mask *m, int *efd)
{
	for (size_t i = 0; i < m->nexpose; i++)
		if (efd[i] >= 0)
			close(efd[i]);
	free(efd);
}

static int *open_exposed(applier *a, const sb_ll_mask *m)
{
	int *efd = xcalloc(m->nexpose + 1, sizeof *efd);
	for (size_t i = 0; i < m->nexpose; i++)
		efd[i] = -1;
	for (size_t i = 0; i < m->nexpose; i++) {
		const sb_ll_expose *e = &m->expose[i];
		efd[i] = open_planned(e->path, e->dev, e->ino);
		if (efd[i] < 0) {
			failed(a, e->path, "opening a path to bind back");
			close_exposed(m, efd);
			return NULL;
		}
	}
	return efd;
}

/* HIDE of a directory, DEV: a tmpfs, the exposed paths bound back in.  The
 * exposed paths are opened before the tmpfs covers them.  */
static int hide_dir(applier *a, const sb_ll_mask *m, int target)
{
	int *efd = open_exposed(a, m);
	if (!efd)
		return -1;
	int rc = -1;
	char t[32], opts[64];
	snprintf(opts, sizeof opts, "mode=%s,size=64k,nr_inodes=%zu", m->nexpose ? "0111" : "0000",
		 16 + 4 * m->nexpose);
	if (mount("tmpfs", fd_path(target, t, sizeof t), "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  opts) < 0) {
		failed(a, m->path, "mounting the empty tmpfs");
		goto out;
	}
	int root = open_exact(m->path);
	if (root < 0) {
		failed(a, m->path, "re-opening the tmpfs");
		goto out;
	}
	size_t plen = strlen(m->path);
	for (size_t i = 0; i < m->nexpose; i++) {
		if (efd[i] < 0)
			continue;
		const sb_ll_expose *e = &m->expose[i];
		a->cur = e->path;
		int pt = make_point(root, e->path + plen + 1, e->is_dir);
		if (pt < 0) {
			failed(a, e->path, "creating the mount point");
			close(root);
			goto out;
		}
		int r = bind_onto(a, NULL, efd[i], pt, true);
		close(pt);
		if (r < 0) {
			close(root);
			goto out;
		}
	}
	close(root);
	rc = 0;
out:
	close_exposed(m, efd);
	return rc;
}

/* BIND: the tree bound onto itself read-only and/or noexec, then the paths
 * the policy re-allows inside it bound back from the original mount (their
 * fds are opened before the bind covers them, so they name the original).  */
static int restrict_dir(applier *a, const sb_ll_mask *m, int target)
{
	int *efd = open_exposed(a, m);
	if (!efd)
		return -1;
	int rc = -1;
	if (bind_onto(a, NULL, target, target, true) < 0 ||
	    restrict_tree(a, m->path, m->rdonly, m->noexec) < 0)
		goto out;
	for (size_t i = 0; i < m->nexpose; i++) {
		const sb_ll_expose *e = &m->expose[i];
		a->cur = e->path;
		int pt = open_exact(e->path);
		if (pt < 0) {
			failed(a, e->path, "re-opening a path to bind back");
			goto out;
		}
		int r = bind_onto(a, NULL, efd[i], pt, true);
		close(pt);
		if (r < 0)
			goto out;
	}
	rc = 0;
out:
	close_exposed(m, efd);
	return rc;
}

/* Read-only: the whole tmpfs, or (`bind_only`) this mount of it: the /dev
 * store still holds the unlinked empty file that file masks show, and the
 * kernel refuses a read-only superblock with such an orphan (EBUSY).  */
static int remount_tmpfs_ro(applier *a, const char *path, bool bind_only)
{
	int fd = open_exact(path);
	char t[32];
	if (fd < 0)
		return failed(a, path, "re-opening the tmpfs");
	int rc = mount(NULL, fd_path(fd, t, sizeof t), NULL,
		       MS_REMOUNT | (bind_only ? MS_BIND : 0) | MS_RDONLY | MS_NOSUID | MS_NODEV |
			       MS_NOEXEC, NULL);
	close(fd);
	return rc < 0 ? failed(a, path, "remounting the tmpfs read-only") : 0;
}

/* DEV: the usual links (they grant nothing by themselves), mode 0755.  */
static int dev_links(applier *a)
{
	static const char *const links[][2] = {
		{ "fd", "/proc/self/fd" }, { "stdin", "/proc/self/fd/0" },
		{ "stdout", "/proc/self/fd/1" }, { "stderr", "/proc/self/fd/2" },
		{ "ptmx", "pts/ptmx" },
	};
	int root = open(store_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (root < 0)
		return failed(a, store_dir, "opening the device tmpfs");
	for (size_t i = 0; i < sizeof links / sizeof *links; i++)
		if (symlinkat(links[i][1], root, links[i][0]) < 0 && errno != EEXIST) {
			close(root);
			return failed(a, store_dir, "creating the /dev links");
		}
	close(root);
	return 0;
}

static int apply_one(applier *a, const sb_ll_mask *m)
{
	a->cur = m->path;
	if (m->kind == SB_MASK_GATE)
		return 0;   /* no mount: the write gate (gate.h) */
	if (m->kind == SB_MASK_DEV)
		return dev_links(a);
	int target = open_planned(m->path, m->dev, m->ino);
	if (target < 0)
		return failed(a, m->path, errno == ESTALE ? "the path changed since the plan"
							    : "opening the path to mask");
	int rc = 0;
	switch (m->kind) {
	case SB_MASK_HIDE:
		if (m->is_dir) {
			rc = hide_dir(a, m, target);
			if (rc == 0)
				rc = remount_tmpfs_ro(a, m->path, false);
		} else {
			rc = bind_onto(a, store_file, -1, target, false);
			if (rc == 0)
				rc = restrict_tree(a, m->path, true, true);
		}
		break;
	case SB_MASK_BIND:
		rc = restrict_dir(a, m, target);
		break;
	case SB_MASK_PIN:
		rc = bind_onto(a, NULL, target, target, true);
		break;
	default:
		break;
	}
	close(target);
	return rc;
}

/* DEV: /dev/shm as a fresh tmpfs (mode 1777, as the host's), a mount of
 * its own, so it stays writable when the device tmpfs turns read-only.
 * It lives and dies with the sandbox's mount namespace: shm_open() and
 * multiprocessing work, and no segment of a process outside is visible.
 * Its Landlock rule is placed on it at launch (linux_exec.c).  */
static int private_shm(applier *a, int root)
{
	a->cur = "/dev/shm";
	int pt = make_point(root, "shm", true);
	if (pt < 0)
		return failed(a, "/dev/shm", "creating the mount point of the private /dev/shm");
	char t[32];
	int rc = mount("tmpfs", fd_path(pt, t, sizeof t), "tmpfs", MS_NOSUID | MS_NODEV,
		       "mode=1777");
	close(pt);
	return rc < 0 ? failed(a, "/dev/shm", "mounting the private /dev/shm") : 0;
}

int sb_masks_apply(const sb_ll_masks *ms, bool allow_shm, const char **what, const char **step)
{
	applier a = { what, step, NULL };
	bool dev = false;
	for (size_t i = 0; i < ms->n; i++)
		dev = dev || ms->v[i].kind == SB_MASK_DEV;
	/* the store: a tmpfs on /dev (the DEV mask fills it with devices;
	 * without one it goes away again at the end).  The device binds are
	 * opened first, in hide_dir, from the real /dev under it: open them now.  */
	const sb_ll_mask *devm = NULL;
	for (size_t i = 0; i < ms->n; i++)
		if (ms->v[i].kind == SB_MASK_DEV)
			devm = &ms->v[i];
	int *devfd = NULL;
	if (devm) {
		devfd = xcalloc(devm->nexpose + 1, sizeof *devfd);
	}
	int rc = -1;
	if (devm)
		for (size_t i = 0; i < devm->nexpose; i++) {
			devfd[i] = -1;
			const sb_ll_expose *e = &devm->expose[i];
			if (strcmp(e->path, "/dev/shm") == 0 && !allow_shm)
				continue;
			devfd[i] = open_planned(e->path, e->dev, e->ino);
			if (devfd[i] < 0) {
				failed(&a, e->path, "opening a device to bind back");
				goto out;
			}
		}
	if (mount("tmpfs", store_dir, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "mode=0755,size=64k,nr_inodes=64") < 0) {
		failed(&a, store_dir, "mounting the mask store");
		goto out;
	}
	int sf = open(store_file, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0000);
	if (sf < 0) {
		failed(&a, store_file, "creating the empty mask file");
		goto out;
	}
	close(sf);
	int root = devm ? open_exact(store_dir) : -1;
	if (devm) {
		if (root < 0) {
			failed(&a, store_dir, "re-opening the device tmpfs");
			goto out;
		}
		for (size_t i = 0; i < devm->nexpose; i++) {
			if (devfd[i] < 0)
				continue;
			const sb_ll_expose *e = &devm->expose[i];
			a.cur = e->path;
			int pt = make_point(root, e->path + strlen("/dev/"), e->is_dir);
			if (pt < 0) {
				close(root);
				failed(&a, e->path, "creating the device mount point");
				goto out;
			}
			int r = bind_onto(&a, NULL, devfd[i], pt, true);
			close(pt);
			if (r < 0) {
				close(root);
				goto out;
			}
		}
		if (devm->private_shm && private_shm(&a, root) < 0) {
			close(root);
			goto out;
		}
		close(root);
	}
	for (size_t i = 0; i < ms->n; i++)
		if (apply_one(&a, &ms->v[i]) < 0)
			goto out;
	if (unlink(store_file) < 0) {
		failed(&a, store_file, "removing the empty mask file");
		goto out;
	}
	if (dev) {
		if (remount_tmpfs_ro(&a, store_dir, true) < 0)
			goto out;
	} else if (umount2(store_dir, MNT_DETACH) < 0) {
		failed(&a, store_dir, "unmounting the mask store");
		goto out;
	}
	rc = 0;
out:
	if (devm)
		for (size_t i = 0; i < devm->nexpose; i++)
			if (devfd[i] >= 0)
				close(devfd[i]);
	free(devfd);
	return rc;
}

/* A detached tmpfs no Landlock rule can cover: listing it must fail once
 * the ruleset is enforced (linux_exec.c's check when "/" is readable).
 * Returns an fd, or -1 when the kernel has no fsopen (before 5.2).  */
int sb_masks_canary(void)
{
	int fs = (int)syscall(__NR_fsopen, "tmpfs", SB_FSOPEN_CLOEXEC);
	if (fs < 0)
		return -1;
	if (syscall(__NR_fsconfig, fs, SB_FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		close(fs);
		return -1;
	}
	int mfd = (int)syscall(__NR_fsmount, fs, SB_FSMOUNT_CLOEXEC, 0);
	close(fs);
	return mfd;
}
#endif /* __linux__ */
