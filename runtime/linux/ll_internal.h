/* ll_internal.h - shared between the Landlock planner (ll_plan.c), the
 * complement expander (ll_expand.c), the launcher (linux_exec.c), seccomp.c
 * and the unit tests.  Not a public interface: runtime/linux/linux.h is.  */
#ifndef SB_LL_INTERNAL_H
#define SB_LL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "runtime/linux/landlock_sys.h"
#include "runtime/linux/linux.h"
#include "runtime/linux/gate.h"

/* One Landlock rule, opened at plan time (O_PATH|O_NOFOLLOW); the plan
 * owns the fd.  `rights` are the intended rights; the launcher masks them
 * with the handled set of the effective ABI.  */
typedef struct sb_ll_rule {
	char *path;
	int fd;
	uint64_t rights;
	bool is_dir;
	const char *origin;        /* "expand", "device" (static) */
} sb_ll_rule;

typedef enum {
	SB_LL_NOTE_INFO,
	SB_LL_NOTE_SKIPPED,        /* macOS-only or missing path */
	SB_LL_NOTE_NARROWER,       /* Linux denies more than the profile */
	SB_LL_NOTE_GAP,            /* documented platform gap (stat, chmod, ...) */
	SB_LL_NOTE_UNENFORCEABLE,  /* a deny the plan would lose */
} sb_ll_note_kind;

typedef struct sb_ll_note {
	sb_ll_note_kind kind;
	char *text;
	const char *src_file;      /* borrowed from the profile / diag */
	int src_line;
} sb_ll_note;

/* Classification of one node for the expander: per Landlock right, is the
 * whole subtree allowed (allow_all), or does it differ inside (mixed)?  */
typedef void (*sb_ll_classify_fn)(void *ctx, const char *path, bool is_dir, uint64_t want,
				  uint64_t *allow_all, uint64_t *mixed);

typedef struct sb_ll_rules {
	sb_ll_rule *v;
	size_t n, cap;
	sb_ll_note *notes;
	size_t nnotes, notes_cap;
	size_t hardlink_skips, symlink_skips, unreadable_skips, nodes_visited;
} sb_ll_rules;

void sb_ll_rules_add(sb_ll_rules *r, const char *path, int fd, uint64_t rights, bool is_dir,
		     const char *origin);
void sb_ll_rules_note(sb_ll_rules *r, sb_ll_note_kind kind, const char *src_file, int src_line,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void sb_ll_rules_clear(sb_ll_rules *r);

/* grant_except: walk from `root` (an existing absolute path), never
 * following symlinks, adding a rule for each node whose subtree is allowed
 * for some right, and descending into nodes that are mixed.  Non-directories
 * with a link count > 1 inside an expanded directory are skipped (hard-link
 * aliases of denied files).  Returns 0, or -1 with errno when `root`
 * cannot be opened.  */
int sb_ll_expand(sb_ll_rules *out, const char *root, uint64_t rights, sb_ll_classify_fn fn,
		 void *ctx);
/* Which entries of a mixed directory to visit: a sorted, owned list of
 * names (n may be 0), or NULL to list the directory.  */
typedef char **(*sb_ll_names_fn)(void *ctx, const char *dir, size_t *n);
/* sb_ll_expand, asking `names` (may be NULL) before listing a directory.  */
int sb_ll_expand_names(sb_ll_rules *out, const char *root, uint64_t rights, sb_ll_classify_fn fn,
		       sb_ll_names_fn names, void *ctx);

/* /proc/self/mountinfo, parsed.  */
typedef struct sb_mount {
	unsigned major, minor;
	char *root;                /* root of the mount within its file system */
	char *mountpoint;
	char *fstype;              /* after the " - " separator; "" when absent */
} sb_mount;

typedef struct sb_mounts {
	sb_mount *v;
	size_t n;
} sb_mounts;

/* Parse mountinfo text (octal escapes such as \040 decoded).  */
int sb_mounts_parse(sb_mounts *m, const char *text);
int sb_mounts_read(sb_mounts *m, const char *file);
void sb_mounts_clear(sb_mounts *m);
/* Paths elsewhere that show the file-system object at `path` or a part of
 * its subtree (docs/linux.md, "Two plan fixes that came with the masks"):
 * for each other mount of the same device whose root is an ancestor of
 * path's location, mountpoint + remainder (*inode_alias set: the same
 * inode); whose root lies inside it, the mountpoint.  Appends malloc'd
 * strings to *out; returns the count.  */
size_t sb_mounts_aliases(const sb_mounts *m, const char *path, char ***out, size_t *nout,
			 bool **inode_alias);

/* A mask: a mount made in the sandbox's private mount namespace that takes
 * rights away below a Landlock grant (docs/linux.md, "Masks").
 *  HIDE  a directory: an empty read-only tmpfs (mode 0000, or 0111 when
 *        re-allowed descendants are bound back in); a file: a read-only
 *        bind of an empty mode-0000 file.  Takes every right.
 *  BIND  a read-only (and/or noexec) recursive bind of the path itself.
 *  PIN   a plain recursive bind of the path on itself: a mount point cannot
 *        be renamed, removed or replaced (EBUSY).
 *  DEV   /dev: a read-only tmpfs holding binds of the allowlisted devices.
 *  GATE  no mount: a write deny the write gate enforces by name (gate.h),
 *        also where the path does not exist; needs no namespace.
 * Every mount mask is also a mount point, so the node itself cannot be
 * renamed, unlinked or replaced.  */
typedef enum { SB_MASK_HIDE, SB_MASK_BIND, SB_MASK_PIN, SB_MASK_DEV, SB_MASK_GATE } sb_mask_kind;

typedef struct sb_ll_expose {
	char *path;                /* absolute, strictly below the mask */
	bool is_dir;
	unsigned long dev, ino;    /* at plan time */
} sb_ll_expose;

typedef struct sb_ll_mask {
	char *path;
	sb_mask_kind kind;
	bool is_dir, rdonly, noexec;
	unsigned long dev, ino;    /* at plan time: the launch refuses a swapped path */
	uint64_t removed;          /* rights the mount takes away below the node */
	uint64_t removed_node;     /* ... and at the node itself */
	sb_ll_expose *expose;      /* HIDE/DEV: bound back in (re-allowed, devices) */
	size_t nexpose, cap_expose;
	bool private_shm;          /* DEV: a fresh tmpfs on /dev/shm (no --allow-shm) */
	char *why;
	const char *src_file;
	int src_line;
} sb_ll_mask;

typedef struct sb_ll_masks {
	sb_ll_mask *v;
	size_t n, cap;
} sb_ll_masks;

void sb_ll_masks_clear(sb_ll_masks *m);

/* The planner's stat cache (ll_stat.c), for one plan build only.  With a
 * NULL cache each call asks the kernel; with one, only st_mode, st_dev and
 * st_ino of the answer are filled in (the rest is zero).  */
struct stat;
typedef struct sb_ll_stats sb_ll_stats;
sb_ll_stats *sb_ll_stats_new(void);
void sb_ll_stats_free(sb_ll_stats *s);
int sb_ll_lstat(sb_ll_stats *s, const char *p, struct stat *st);
int sb_ll_stat(sb_ll_stats *s, const char *p, struct stat *st);
/* realpath(p) is p: p exists and is reached through no symlink.  */
bool sb_ll_canonical(sb_ll_stats *s, const char *p);

/* What ll_masks.c needs from the planner (ll_plan.c).  */
typedef struct sb_ll_mask_input {
	void *ctx;
	uint64_t (*allowed)(void *ctx, const char *point);      /* decide() at a point */
	uint64_t (*allowed_below)(void *ctx, const char *dir);  /* ... at a new name in dir */
	void (*missing)(void *ctx, const char *path);           /* a deny point that is absent */
	void (*src)(void *ctx, const char *path, const char **file, int *line);
	char *const *cand;                                      /* sorted */
	size_t ncand;
	char *const *forced;                                    /* forced denies */
	const uint64_t *forced_mask;
	const char *const *forced_why;
	bool *forced_masked;                                    /* out: a mask enforces it */
	size_t nforced;
	bool allow_shm;
	bool mounts;                                            /* mount masks may be planned */
	bool gate;                                              /* write denies go to the gate */
	const char *const *terminals;                           /* sb_linux_opts */
	size_t nterminals;
	sb_ll_stats *stats;                                     /* the plan's stat cache */
} sb_ll_mask_input;

/* A terminal of the launch (sb_linux_opts.terminals) that needs a device
 * rule and a place in the masked /dev of its own: a name directly in /dev
 * that the fixed device list does not hold.  */
bool sb_ll_extra_terminal(const char *path);

struct sb_ll_plan;
/* Plan the masks into plan->masks (sorted by path, parents first).  */
void sb_ll_masks_plan(struct sb_ll_plan *plan, const sb_ll_mask_input *in);
/* How many masks are mounts (every kind but GATE), and how many GATE.  */
size_t sb_ll_masks_mounts(const sb_ll_masks *m);
size_t sb_ll_masks_gated(const sb_ll_masks *m);
/* The protected existing files of the GATE masks that have other names
 * (a link count above 1), below gated directories too (at most `cap`
 * files visited): a write through another name is refused by inode.  */
void sb_ll_masks_gate_inodes(const sb_ll_masks *m, sb_gate_inode **out, size_t *n, size_t cap);
/* The rights the masks take away at `point`: decide() | this is what the
 * Landlock rules may grant there.  */
uint64_t sb_ll_masks_addback(const sb_ll_masks *ms, const char *point);
/* 0: `p` is not hidden; 1: hidden by a HIDE/DEV mask (at or below its
 * node, not bound back); 2: hidden, with a bound-back path below it.  */
int sb_ll_masks_hidden(const sb_ll_masks *ms, const char *p);
/* For the denial trace (trace_notify.c): the rights the masks take at `p`
 * (as sb_ll_masks_addback, the private /dev/shm excepted), and whether `p`
 * looks absent inside (below a hidden directory, not bound back: ENOENT).  */
uint64_t sb_ll_masks_taken(const sb_ll_masks *ms, const char *p);
bool sb_ll_masks_absent(const sb_ll_masks *ms, const char *p);
/* The names below `dir` that lead to a path bound back into a HIDE/DEV
 * mask: sorted, owned, deduplicated.  Inside a hidden tree every other
 * entry gets no rule, so the expander need not list it.  */
char **sb_ll_masks_names_below(const sb_ll_masks *ms, const char *dir, size_t *n);
const char *sb_ll_mask_kind_name(const sb_ll_mask *m);

/* namespaces.c: can this process create the namespaces masks need?  Tried
 * in a throwaway child (user + mount namespace when unprivileged, mount
 * namespace as root), including one tmpfs mount.  Returns true, or false
 * with a reason in `why`.  */
bool sb_ns_masks_available(bool *userns, char *why, size_t whylen);
/* unshare(flags) (CLONE_NEW* flags); with CLONE_NEWUSER, setgroups is denied
 * and the caller's effective uid and gid are mapped to themselves (files
 * keep their owners).  The one place that creates namespaces and writes id
 * maps (namespaces.c, used by the masks and by egress.c).  Returns 0 or -1
 * with errno and the failed step in *step.  */
int sb_ns_unshare(int flags, const char **step);
/* Enter a new mount namespace (inside a new user namespace when `userns`,
 * mapping the caller's uid and gid to themselves) with every mount private.
 * Returns 0 or -1 with errno and the failed step in *step.  */
int sb_ns_enter(bool userns, const char **step);
/* masks.c: make the masks in the current (private) mount namespace.
 * Returns 0 or -1 with errno, and the path and step that failed.  */
int sb_masks_apply(const sb_ll_masks *m, bool allow_shm, const char **what, const char **step);
/* A detached tmpfs (fsopen) that no Landlock rule can cover: the launcher
 * checks the ruleset is enforced by failing to list it.  -1 before 5.2.  */
int sb_masks_canary(void);

/* The plan (runtime/linux/linux.h's opaque sb_ll_plan).  */
typedef struct sb_ll_plan sb_ll_plan;
struct sb_ll_plan {
	sb_ll_rules r;
	sb_ll_masks masks;          /* empty: no namespace, direct launch */
	bool userns;                /* masks need a user namespace (not root) */
	bool allow_shm;
	const char *mechanism;      /* "masks" or "complement expansion" */
	char *fallback;             /* why masks are not used, when they would be */
	bool gate;                  /* GATE masks: the launch starts the write gate */
	char *gate_off;             /* why the gate is not used, when it would be */
	const struct sb_profile *bound;   /* borrowed: what the gate decides on */
	sb_gate_inode *gate_inodes; /* sb_ll_masks_gate_inodes */
	size_t ngate_inodes;
	char **warnings;            /* narrowings that break work, said at launch */
	size_t nwarnings, cap_warnings;
	sb_ll_probe probe;
	int plan_abi;               /* ABI the masks are shown for */
	bool unix_block;            /* seccomp AF_UNIX block (profile denies unix sockets) */
	bool net_block;             /* seccomp: every socket() refused (network denied) */
	bool egress;                /* host rules: netns + egress proxy (egress.c) */
	size_t unenforceable;
	double plan_ms;
	char *home;
};

/* ll_report.c: notes for deny rules Landlock cannot express as file rules
 * (platform gaps, network, signals); sets unix_block / unenforceable.  */
struct sb_linux_opts;
struct sb_profile;
void sb_ll_scan_other_ops(const struct sb_profile *orig, sb_ll_plan *plan,
			  const struct sb_linux_opts *o);

#define SB_LL_PROXY_ADDR "127.0.0.1:3128"   /* runtime/common/proxy.h */

/* gate_run.c: serve the write gate `g` and its listener (received on
 * `sock`) for the child of sb_sup_fork until it has exited; end as it ended.  Traced
 * (gt->sock >= 0): the listener carries the trace's calls too; a message
 * without a descriptor on gt->sock tells the launcher outside, and the
 * denials follow there as records (trace_notify.h).  */
typedef struct sb_gate_trace {
	int sock;             /* traced: the launcher's trace socket; -1 untraced */
	uint64_t handled;     /* the Landlock rights the effective ABI handles */
	bool trunc_guard;     /* below ABI 3 (seccomp_trunc.c) */
} sb_gate_trace;
struct sb_sup;
struct sb_gate;   /* made before the forks (gate.h), owned from here on */
void sb_gate_run(const sb_ll_plan *plan, struct sb_gate *g, int sock, struct sb_sup *sup,
		 const sb_gate_trace *gt) __attribute__((noreturn));

/* Accessors for the launcher.  */
const sb_ll_rules *sb_ll_plan_rules(const sb_ll_plan *plan);
bool sb_ll_plan_unix_block(const sb_ll_plan *plan);
bool sb_ll_plan_net_block(const sb_ll_plan *plan);

/* egress.c: fork; the parent serves the egress proxy until the child ends
 * and exits as it did (never returns); the child returns SB_OK inside its
 * new network namespace, or SB_REFUSED after reporting why not.  `tool`
 * (sb_linux_opts.tool) begins the proxy's log lines.  */
struct sb_diag;
struct sb_egress;
int sb_ll_egress_enter(const struct sb_egress *eg, int trace_fd, bool end_tree,
		       const char *tool, struct sb_diag *d);

/* seccomp.c: install the launch filter.  Returns 0 or -1 with errno.  */
int sb_seccomp_install(bool block_af_unix, bool block_all_sockets, bool namespaced_only);
/* A fresh, empty session keyring for the tree (keyctl(2)
 * KEYCTL_JOIN_SESSION_KEYRING): the inherited one is no longer possessed.
 * Best effort: a kernel without keys has nothing to hide.  */
void sb_keyring_fresh(void);
/* ll_abi.c: per feature, the mechanism at `abi` or what replaces or is
 * lost below the ABI that adds it (sbrun --doctor and --plan).  */
void sb_ll_abi_report(FILE *out, int abi, const char *prefix);
/* seccomp_trunc.c: below Landlock ABI 3, refuse truncate(2), O_TRUNC on an
 * open not for writing, and openat2 (ENOSYS), traced or not.  Returns 0 or
 * -1 with errno.  */
int sb_seccomp_install_truncate_guard(void);
/* Is the guard installed at this ABI (0: no sandbox)?  */
bool sb_seccomp_truncate_guard_needed(const sb_ll_abi_info *ai);
/* Does the guard refuse an open with these flags (O_TRUNC, not opened for
 * writing)?  The one rule for the filter and the trace supervisor.  */
bool sb_seccomp_trunc_refused(uint64_t open_flags);

#endif
