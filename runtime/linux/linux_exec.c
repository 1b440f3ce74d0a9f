#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* linux_exec.c - the Linux launch sequence (docs/linux.md):
 * probe -> [namespaces + masks] -> ruleset -> CLOEXEC inherited fds -> drop
 * capabilities -> no_new_privs -> seccomp -> landlock_restrict_self -> execve.
 * Runs in the process that execs the command; it must be single-threaded
 * (before ABI 8 restrict_self restricts only the calling thread).  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/trace_notify.h"
#include "runtime/linux/tree.h"
#include "runtime/linux/fdpass.h"
#include "runtime/linux/supervise.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#endif
#ifndef PR_CAP_AMBIENT_CLEAR_ALL
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

static int fail(sb_diag *d, const char *step, int err)
{
	sb_diag_report(d, SB_SEV_ERROR, NULL, "landlock",
		       "could not apply the sandbox: %s failed: %s; refusing to run unconfined",
		       step, strerror(err));
	return SB_REFUSED;
}

static int threads_of_self(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	if (!f)
		return -1;
	char line[256];
	int n = -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	fclose(f);
	return n;
}

/* Mark every fd >= 3 close-on-exec: fds opened before restrict_self keep
 * their access (an inherited ~/.ssh/id_rsa fd would stay readable).  */
static int cloexec_inherited(void)
{
	if (syscall(__NR_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
		return 0;
	DIR *dir = opendir("/proc/self/fd");
	if (!dir)
		return -1;
	int self = dirfd(dir);
	struct dirent *e;
	while ((e = readdir(dir))) {
		int fd = atoi(e->d_name);
		if (fd < 3 || fd == self)
			continue;
		int fl = fcntl(fd, F_GETFD);
		if (fl >= 0 && fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0) {
			closedir(dir);
			return -1;
		}
	}
	closedir(dir);
	return 0;
}

/* The standard descriptors stay open in the tree.  A directory (or an
 * O_PATH descriptor of one, or of a symlink) is a handle on the tree
 * outside the mount namespace: openat(0, ".ssh/id_rsa") walks the
 * unmasked tree, and the complement's rules are on paths it does not
 * resolve; a block device reads the disk below every rule.  Terminals,
 * pipes, sockets, regular files and character devices are what commands
 * are run with, and reach nothing beyond themselves.  */
static int check_std_fds(sb_diag *d)
{
	for (int fd = 0; fd <= 2; fd++) {
		struct stat st;
		if (fstat(fd, &st) != 0)
			continue;   /* closed */
		const char *what = S_ISDIR(st.st_mode)   ? "a directory"
				   : S_ISBLK(st.st_mode) ? "a block device"
				   : S_ISLNK(st.st_mode) ? "a symbolic link (O_PATH)"
							 : NULL;
		if (!what)
			continue;
		sb_diag_report(d, SB_SEV_ERROR, NULL, "launch",
			       "standard %s (descriptor %d) is %s: the sandboxed command could reach "
			       "files through it that the sandbox denies; refusing to run",
			       fd == 0 ? "input" : fd == 1 ? "output" : "error", fd, what);
		sb_diag_note(d, NULL, "redirect it from or to a file, a pipe or /dev/null");
		return SB_REFUSED;
	}
	return 0;
}

static int cap_last(void)
{
	/* read(2), not stdio: this runs in a forked process, where a FILE's
	 * buffer is heap pages written after the fork */
	char buf[16];
	int n = 40;
	int fd = open("/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t r = read(fd, buf, sizeof buf - 1);
		close(fd);
		char *end;
		if (r > 0) {
			buf[r] = '\0';
			long v = strtol(buf, &end, 10);
			if (end != buf)
				n = (int)v;
		}
	}
	return n;
}

static bool holds_caps(struct __user_cap_data_struct data[2])
{
	for (int i = 0; i < 2; i++)
		if (data[i].effective || data[i].permitted || data[i].inheritable)
			return true;
	return false;
}

/* Root keeps module loading, bpf, perf and /proc/<pid>/environ of other
 * processes, none of which Landlock covers: drop every capability.  */
static int drop_caps(sb_diag *d)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof data);
	if (syscall(SYS_capget, &hdr, data) < 0)
		return fail(d, "capget", errno);
	if (geteuid() != 0 && !holds_caps(data))
		return 0;
	int last = cap_last();
	for (int c = 0; c <= last; c++)
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
			return fail(d, "dropping the capability bounding set", errno);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return fail(d, "clearing ambient capabilities", errno);
	memset(data, 0, sizeof data);
	if (syscall(SYS_capset, &hdr, data) < 0)
		return fail(d, "capset", errno);
	return 0;
}

/* The private tmpfs at `path` (masks.c): a directory, no symlink on the
 * way, and a tmpfs, else the launch is refused.  */
static int open_private_tmpfs(const char *path)
{
	int fd = open(path, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
	struct statfs sf;
	if (fd >= 0 && (fstatfs(fd, &sf) < 0 || sf.f_type != TMPFS_MAGIC)) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}

static int build_ruleset(const sb_ll_plan *plan, const sb_ll_abi_info *ai, int *out, sb_diag *d)
{
	struct sb_ll_ruleset_attr attr = { 0 };
	attr.handled_access_fs = ai->fs_mask;
	attr.scoped = ai->scoped_mask;
	int fd = sb_ll_create_ruleset(&attr, ai->attr_size, 0);
	if (fd < 0)
		return fail(d, "landlock_create_ruleset", errno);
	const sb_ll_rules *r = sb_ll_plan_rules(plan);
	for (size_t i = 0; i < r->n; i++) {
		uint64_t rights = r->v[i].rights & ai->fs_mask & ~SB_LL_NEVER;
		if (!r->v[i].is_dir)
			rights &= SB_LL_FILE_RIGHTS;
		if (!rights)
			continue;
		/* a rule made at plan time without a descriptor: the private
		 * /dev/shm the masks have just mounted (ll_plan.c) */
		int own = r->v[i].fd < 0 ? open_private_tmpfs(r->v[i].path) : -1;
		if (r->v[i].fd < 0 && own < 0) {
			int e = errno;
			sb_diag_report(d, SB_SEV_ERROR, NULL, "landlock", "rule on %s failed",
				       r->v[i].path);
			close(fd);
			return fail(d, "opening the private tmpfs", e);
		}
		struct sb_ll_path_beneath_attr pb = { .allowed_access = rights,
						      .parent_fd = own >= 0 ? own : r->v[i].fd };
		int added = sb_ll_add_rule(fd, SB_LL_RULE_PATH_BENEATH, &pb, 0);
		if (own >= 0) {
			int e = errno;
			close(own);
			errno = e;
		}
		if (added < 0) {
			if (errno == EBADFD)   /* pseudo file system: cannot carry rules */
				continue;
			int e = errno;
			sb_diag_report(d, SB_SEV_ERROR, NULL, "landlock", "rule on %s failed",
				       r->v[i].path);
			close(fd);
			return fail(d, "landlock_add_rule", e);
		}
	}
	*out = fd;
	return 0;
}

/* Does the plan grant listing "/"?  Then "/" cannot show that the ruleset
 * is enforced, and a detached tmpfs (no rule can cover it) does.  */
static bool root_listable(const sb_ll_plan *plan)
{
	const sb_ll_rules *r = sb_ll_plan_rules(plan);
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].path, "/") == 0 && (r->v[i].rights & SB_LL_READ_DIR))
			return true;
	return false;
}

/* Can the ruleset's enforcement be shown by a signal?  Under the signal
 * scope (ABI 6) a signal to a process outside the domain fails with EPERM,
 * and signal 0 sends nothing.  Only for init, which always exists, when
 * this process is not init itself and, as real and effective uid 0, may
 * signal it without any capability (drop_caps runs before the check): the
 * signal succeeds now, so a refusal afterwards is the domain's doing.  */
static bool scope_checkable(const sb_ll_abi_info *ai)
{
	if (!(ai->scoped_mask & SB_LL_SCOPE_SIGNAL) || getpid() == 1 || getuid() != 0 ||
	    geteuid() != 0)
		return false;
	return kill(1, 0) == 0;
}

/* The private mount namespace and its masks (namespaces.c, masks.c).  */
static int make_masks(const sb_ll_plan *plan, bool userns, sb_diag *d)
{
	const char *step = NULL, *what = NULL;
	/* The working directory is a (mount, dentry) pair taken before the
	 * masks: relative paths from it would walk the unmasked tree.  It is
	 * entered again by name, through the masks, afterwards.  */
	char cwd[4096];
	if (!getcwd(cwd, sizeof cwd)) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "masks",
			       "could not apply the sandbox: getcwd failed: %s; refusing to run",
			       strerror(errno));
		return SB_REFUSED;
	}
	if (sb_ns_enter(userns, &step) < 0) {
		int e = errno;
		sb_diag_report(d, SB_SEV_ERROR, NULL, "masks",
			       "could not apply the sandbox: %s for the masks failed: %s; "
			       "refusing to run", step, strerror(e));
		sb_diag_note(d, NULL, "--mechanism complement enforces the denies without "
				      "namespaces (narrower: see sbrun --plan)");
		return SB_REFUSED;
	}
	if (sb_masks_apply(&plan->masks, plan->allow_shm, &what, &step) < 0) {
		int e = errno;
		sb_diag_report(d, SB_SEV_ERROR, NULL, "masks",
			       "could not apply the sandbox: masking %s: %s failed: %s; refusing "
			       "to run", what ? what : "?", step ? step : "?", strerror(e));
		return SB_REFUSED;
	}
	if (chdir(cwd) < 0) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "masks",
			       "could not apply the sandbox: the working directory %s is not "
			       "reachable through the masks (%s); refusing to run", cwd,
			       strerror(errno));
		return SB_REFUSED;
	}
	return 0;
}

/* The write gate (gate.h): fork; this process becomes the supervisor and
 * never returns; the child returns 0 with the socket to send its
 * listener on (the filter is installed last, just before execve).  */
static int gate_fork(const sb_ll_plan *plan, sb_gate *g, const sb_gate_trace *gt, int *sock,
		     sb_diag *d)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return fail(d, "socketpair for the write gate", errno);
	/* the launch's own supervising parent ends the tree (tree.h) */
	sb_sup sup = { .end_tree = false };
	pid_t pid = sb_sup_fork(&sup);
	if (pid < 0) {
		int e = errno;
		close(sv[0]);
		close(sv[1]);
		return fail(d, "fork for the write gate", e);
	}
	if (pid == 0) {
		close(sv[0]);
		*sock = sv[1];
		return 0;
	}
	close(sv[1]);
	/* The gate opens files for the tree, /dev/tty among them: without a
	 * terminal on 0-2 it must have no controlling terminal either
	 * (tree.h; tests/escape/44-terminal-after-exit.sh).  */
	sb_tree_detach();
	sb_gate_run(plan, g, sv[0], &sup, gt);
}

static int exec_it(const char *path, char *const argv[], char *const envp[], sb_diag *d)
{
	execve(path, argv, envp);
	int e = errno;
	if (e == ENOENT) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "exec", "%s: command not found", path);
		return SB_CMD_NOT_FOUND;
	}
	sb_diag_report(d, SB_SEV_ERROR, NULL, "exec", "cannot execute %s: %s", path, strerror(e));
	if (e == EACCES)
		sb_diag_note(d, NULL,
			     "the sandbox may lack EXECUTE on the binary or on its ELF interpreter "
			     "(ld.so); see sbrun --plan");
	return SB_CMD_NOT_EXECUTABLE;
}

int sb_linux_exec(const sb_ll_plan *plan, const sb_linux_opts *o, const char *path,
		  char *const argv[], char *const envp[], sb_diag *d)
{
	sb_ll_probe pr;
	sb_ll_probe_kernel(&pr);
	int min_abi = o->min_abi > 0 ? o->min_abi : SB_LL_MIN_ABI_DEFAULT;
	bool sandbox = true;
	if (pr.kernel_abi < 0 || pr.eff_abi < min_abi) {
		if (!o->allow_unsandboxed) {
			if (pr.kernel_abi < 0)
				sb_diag_report(d, SB_SEV_ERROR, NULL, "landlock",
					       "Landlock is unavailable (%s): %s", strerror(pr.err),
					       sb_ll_unavailable_hint(pr.err));
			else
				sb_diag_report(d, SB_SEV_ERROR, NULL, "landlock",
					       "Landlock ABI %d is below the minimum %d: %s",
					       pr.eff_abi, min_abi, sb_ll_abi_losses(pr.eff_abi));
			sb_diag_note(d, NULL,
				     "refusing to run unconfined; --allow-unsandboxed runs "
				     "without the file sandbox (not recommended)");
			return SB_REFUSED;
		}
		sb_diag_report(d, SB_SEV_WARNING, NULL, "unsandboxed",
			       "RUNNING WITHOUT THE LANDLOCK SANDBOX (%s): the profile's file "
			       "rules are NOT enforced",
			       pr.kernel_abi < 0 ? strerror(pr.err) : "ABI below the minimum");
		sandbox = false;
	} else if (pr.kernel_abi > SB_LL_MAX_KNOWN_ABI) {
		sb_diag_report(d, SB_SEV_NOTE, NULL, "landlock",
			       "kernel Landlock ABI %d is newer than this build knows; using ABI %d",
			       pr.kernel_abi, SB_LL_MAX_KNOWN_ABI);
	}
	int nthreads = threads_of_self();
	if (nthreads != 1) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "landlock",
			       "the launcher must be single-threaded before restricting itself "
			       "(%d threads)", nthreads);
		return SB_REFUSED;
	}
	/* narrowings that break work: said once, before the command's output */
	for (size_t i = 0; i < plan->nwarnings; i++)
		sb_diag_report(d, SB_SEV_WARNING, NULL, "narrower", "%s", plan->warnings[i]);
	if (plan->nwarnings)
		sb_diag_note(d, NULL, "sbrun --plan lists every narrowing and its rule");
	int rfd = -1, rc, canary = -1;
	/* namespaces first: the ruleset and filters are made in the child */
	int events = o->trace ? o->trace_events : -1;
	if ((rc = check_std_fds(d)) != 0)
		return rc;
	/* The gate's state is made here, before the first fork: made in the
	 * supervisor, its allocations consolidate malloc's free chunks, a
	 * copy-on-write fault per page touched (about 60 a launch;
	 * bench/analysis.md, launch).  */
	sb_gate *gate = sandbox && plan->gate ? sb_gate_new(-1, plan->bound, plan->gate_inodes,
							    plan->ngate_inodes)
					      : NULL;
	if ((rc = sb_tree_guard(o, d)) != 0)   /* a supervising parent (tree.h) */
		goto out;
	if (o->egress && (rc = sb_ll_egress_enter(o->egress, events, !o->keep_background,
						     o->tool ? o->tool : "sbrun", d)) != 0)
		goto out;
	if (!o->egress && events >= 0)
		close(events);   /* no proxy: nobody reports to it */
	/* then the masks (a mount namespace; its own user namespace unless the
	 * egress step made one already, in which this process is privileged) */
	if (sandbox && sb_ll_masks_mounts(&plan->masks) &&
	    (rc = make_masks(plan, plan->userns && !o->egress, d)) != 0)
		goto out;
	sb_ll_abi_info ai = sb_ll_abi_info_for(sandbox ? pr.eff_abi : 0);
	/* With "/" granted, the check below needs a place no rule covers: a
	 * signal to init where the signal scope is enforced, else a detached
	 * tmpfs (whose close costs the kernel an RCU grace period, about a
	 * millisecond of every masked launch; bench/analysis.md, launch).  */
	bool signal_check = false;
	if (sandbox && root_listable(plan)) {
		signal_check = scope_checkable(&ai);
		if (!signal_check)
			canary = sb_masks_canary();
	}
	if (sandbox && (rc = build_ruleset(plan, &ai, &rfd, d)) != 0)
		goto out;
	if (cloexec_inherited() < 0) {
		rc = fail(d, "marking inherited descriptors close-on-exec", errno);
		goto out;
	}
	if ((rc = drop_caps(d)) != 0)
		goto out;
	int e;
#ifdef SB_TEST_HOOKS
	if (sb_ll_test_should_fail("prctl", &e)) {
		rc = fail(d, "prctl(PR_SET_NO_NEW_PRIVS)", e);
		goto out;
	}
#endif
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		rc = fail(d, "prctl(PR_SET_NO_NEW_PRIVS)", errno);
		goto out;
	}
	/* behind the egress proxy, a pathname UNIX socket could reach a daemon
	 * (or a proxy) outside the network namespace: refused at every ABI */
	bool unix_block = (sb_ll_plan_unix_block(plan) && ai.abi < 9) || o->egress;
	bool net_block = sb_ll_plan_net_block(plan);
	/* Traced as well: a refusal is the kernel's, never the supervisor's
	 * answer, which a process outliving the supervisor would not get
	 * (ENOSYS instead of EPERM); the trace does not see these calls
	 * (docs/trace.md, "What the trace guarantees").  */
	sb_keyring_fresh();   /* before the filter refuses keyctl */
	if (sb_seccomp_install(unix_block, net_block, o->egress != NULL) < 0) {
		rc = fail(d, "installing the seccomp filter", errno);
		goto out;
	}
	/* ABI 1-2 have no TRUNCATE right: close truncation with seccomp.  */
	bool trunc_guard = sandbox && sb_seccomp_truncate_guard_needed(&ai);
	if (trunc_guard && sb_seccomp_install_truncate_guard() < 0) {
		rc = fail(d, "installing the seccomp truncation guard", errno);
		goto out;
	}
	if (sandbox) {
		uint32_t flags = 0;
		if (o->debug_denials && ai.abi >= 7)
			flags |= SB_LL_RESTRICT_LOG_NEW_EXEC_ON;
		int r = 0;
#ifdef SB_TEST_HOOKS
		/* simulate a restrict_self that reports success but enforces nothing */
		if (!sb_ll_test_should_fail("restrict_noop", &e))
#endif
			r = sb_ll_restrict_self(rfd, flags);
		if (r < 0) {
			rc = fail(d, "landlock_restrict_self", errno);
			goto out;
		}
		close(rfd);
		rfd = -1;
		/* Verify: without masks "/" is always expanded (/dev is never
		 * granted whole), so listing it must now fail; with "/" granted,
		 * the detached tmpfs no rule covers must not list.  */
		if (signal_check && !(kill(1, 0) < 0 && errno == EPERM)) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "landlock",
				       "could not apply the sandbox: the Landlock ruleset is not "
				       "enforced (a signal to init still goes through); refusing "
				       "to run");
			rc = SB_REFUSED;
			goto out;
		}
		bool checkable = canary >= 0 || !root_listable(plan);
		int probe_fd = !checkable ? -1
			       : canary >= 0 ? openat(canary, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
					     : open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (checkable && (probe_fd >= 0 || errno != EACCES)) {
			if (probe_fd >= 0)
				close(probe_fd);
			sb_diag_report(d, SB_SEV_ERROR, NULL, "landlock",
				       "could not apply the sandbox: the Landlock ruleset is not "
				       "enforced (listing / still works); refusing to run");
			rc = SB_REFUSED;
			goto out;
		}
	}
	(void)e;
	int gate_sock = -1;
	sb_gate_trace gt = { .sock = o->trace ? o->trace_sock : -1, .handled = ai.fs_mask,
			     .trunc_guard = trunc_guard };
	if (gate && (rc = gate_fork(plan, gate, &gt, &gate_sock, d)) != 0)
		goto out;
	/* Last, so the launcher's own probe above is not reported.  Traced
	 * with a gate, one filter carries both, and its listener goes to the
	 * gate's supervisor, which reports to the launcher outside.  */
	if (o->trace) {
		int to = o->trace_sock;
		if (gate_sock >= 0) {
			close(o->trace_sock);
			to = gate_sock;
			gate_sock = -1;
		}
		if (sb_trace_child_install(to, false, false, to != o->trace_sock,
					   plan->masks.n > 0, o->trace_stat) < 0) {
			rc = fail(d, "installing the trace filter", errno);
			goto out;
		}
	}
	if (gate_sock >= 0 && sb_gate_child_install(gate_sock) < 0) {
		rc = fail(d, "installing the write gate's filter", errno);
		goto out;
	}
	if (canary >= 0) {
		close(canary);
		canary = -1;
	}
	sb_tree_detach();   /* no terminal: a session of its own (tree.h) */
	rc = exec_it(path, argv, envp, d);
out:
	if (rfd >= 0)
		close(rfd);
	if (canary >= 0)
		close(canary);
	sb_gate_free(gate);   /* a failed launch: the supervisor never took it */
	return rc;
}
#endif /* __linux__ */
