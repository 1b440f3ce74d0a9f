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

/* /proc/self/mountinfo, parsed.  */
typedef struct sb_mount {
	unsigned major, minor;
	char *root;                /* root of the mount within its file system */
	char *mountpoint;
} sb_mount;

typedef struct sb_mounts {
	sb_mount *v;
	size_t n;
} sb_mounts;

/* Parse mountinfo text (octal escapes such as \040 decoded).  */
int sb_mounts_parse(sb_mounts *m, const char *text);
int sb_mounts_read(sb_mounts *m, const char *file);
void sb_mounts_free(sb_mounts *m);
/* Paths elsewhere that show the file-system object at `path` or a part of
 * its subtree (brief §3.4): for each other mount of the same device whose
 * root is an ancestor of path's location, mountpoint + remainder
 * (*inode_alias set: the same inode); whose root lies inside it, the
 * mountpoint.  Appends malloc'd strings to *out; returns the count.  */
size_t sb_mounts_aliases(const sb_mounts *m, const char *path, char ***out, size_t *nout,
			 bool **inode_alias);

/* The plan (runtime/linux/linux.h's opaque sb_ll_plan).  */
typedef struct sb_ll_plan sb_ll_plan;
struct sb_ll_plan {
	sb_ll_rules r;
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

/* Accessors for the launcher.  */
const sb_ll_rules *sb_ll_plan_rules(const sb_ll_plan *plan);
bool sb_ll_plan_unix_block(const sb_ll_plan *plan);
bool sb_ll_plan_net_block(const sb_ll_plan *plan);

/* egress.c: fork; the parent serves the egress proxy until the child ends
 * and exits as it did (never returns); the child returns SB_OK inside its
 * new network namespace, or SB_REFUSED after reporting why not.  */
struct sb_diag;
struct sb_egress;
int sb_ll_egress_enter(const struct sb_egress *eg, struct sb_diag *d);

/* seccomp.c: install the launch filter.  Returns 0 or -1 with errno.  */
int sb_seccomp_install(bool block_af_unix, bool block_all_sockets);
/* ll_abi.c: per feature, the mechanism at `abi` or what replaces or is
 * lost below the ABI that adds it (sbrun --doctor and --plan).  */
void sb_ll_abi_report(FILE *out, int abi, const char *prefix);
/* seccomp_trunc.c: below Landlock ABI 3, refuse truncate(2), O_TRUNC on an
 * open not for writing, and openat2 (ENOSYS).  Returns 0 or -1 with errno. */
int sb_seccomp_install_truncate_guard(void);

#endif
