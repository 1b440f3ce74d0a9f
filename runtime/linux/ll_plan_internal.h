/* ll_plan_internal.h - the Landlock planner's parts, private to
 * runtime/linux/ (sb_ll_plan_build in ll_plan.c runs them in order):
 *   ll_linuxize.c   step 1: the profile Landlock can express, its decisions
 *   ll_cand.c       the candidate points of that profile
 *   ll_classify.c   step 2: what is allowed in all and in some of a subtree
 *   ll_mechanism.c  masks, the write gate or the complement expansion
 *   ll_devices.c    step 3: the device rules
 *   ll_aliases.c    step 3: forced denies and the inode-alias check
 * They share one stat cache per build (ll_stat.c, pl->stats).  */
#ifndef SB_LL_PLAN_INTERNAL_H
#define SB_LL_PLAN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/eval/eval.h"
#include "compiler/common/strmap.h"
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"

#define R_READ (SB_LL_READ_FILE | SB_LL_READ_DIR)
#define R_WRITE (SB_LL_WRITE_FILE | SB_LL_TRUNCATE)
#define R_CREATE (SB_LL_MAKE_REG | SB_LL_MAKE_DIR | SB_LL_MAKE_SYM | SB_LL_MAKE_FIFO | SB_LL_MAKE_SOCK)
#define R_UNLINK (SB_LL_REMOVE_FILE | SB_LL_REMOVE_DIR)
#define R_ALL (R_READ | SB_LL_EXECUTE | R_WRITE | R_CREATE | R_UNLINK | SB_LL_REFER)

/* The file operations whose decisions the plan enforces, by Q_*.  */
enum { Q_READ, Q_EXEC, Q_WRITE, Q_CREATE, Q_UNLINK, Q_N };
extern const sb_op sb_llp_queried_ops[Q_N];

/* A deny the plan adds on its own (/dev, the runtime dirs, aliases).  */
typedef struct forced {
	char *path;
	uint64_t mask;
	char *why;
	bool masked;               /* a mask enforces it (ll_masks.c) */
} forced;

/* The expansion's memo of plain entries (ll_classify.c): a directory's
 * entries come in a row, and with name-blind rules each plain one is
 * classified alike.  */
typedef struct llp_memo {
	char *dir;                  /* sb_llp_classify_points() of a plain entry of dir */
	bool set[2];                /* [is_dir] */
	uint64_t all[2], any[2];
	const char **mask_below;    /* mask points below dir (memo_enter_dir) */
	size_t nmask_below, cap_mask_below;
} llp_memo;

/* What the launch says breaks (build_warnings in ll_plan.c).  */
typedef struct llp_breaks {
	char **no_create, **no_list, **missing;
	size_t nno_create, nno_list, nmissing;
} llp_breaks;

typedef struct planner {
	const sb_profile *orig;
	sb_profile *lp;             /* linuxized profile (step 1) */
	sb_eval *ev;                /* decides for lp, made by sb_llp_decide() */
	sb_strmap *allowed_memo;    /* point -> sb_llp_allowed_at() + 1 */
	sb_strmap *deny_rule_memo;  /* point -> sb_llp_deny_rule_at(), when not NULL */
	bool unknown_noted;         /* the undecidable-rule note was made */
	char **cand;                /* Linux candidate points, sorted, unique */
	size_t ncand, cap_cand;
	bool name_blind;            /* no relevant rule looks at a name (plain_point) */
	forced *forced;
	size_t nforced, cap_forced;
	sb_ll_plan *plan;
	/* The plan has masks (set once, by sb_llp_plan_mechanism): a point's
	 * rights are what decide() allows plus what a mask takes away.  */
	bool use_masks;
	sb_diag *d;
	sb_ll_stats *stats;         /* lstat/stat of this build (ll_stat.c) */
	llp_memo memo;
	llp_breaks breaks;
} planner;

/* How a point is classified: what the one asking needs, said per call
 * (sb_llp_classify_at).  */
typedef struct llp_view {
	bool forced;     /* narrow by the forced denies */
	bool masks;      /* add back what the masks take; no rule in a hidden tree */
	bool expanding;  /* the expansion's walk: the memo, and what breaks */
} llp_view;

/* ll_linuxize.c */
bool sb_llp_rule_relevant(const sb_rule *r);
const char *sb_llp_rule_file(const sb_rule *r);
int sb_llp_rule_line(const sb_rule *r);
int sb_llp_linuxize(planner *pl, const sb_linux_opts *o);
sb_decision sb_llp_decide(planner *pl, sb_op op, const char *path);
sb_decision sb_llp_decide_indexed(planner *pl, sb_op op, const char *path);

/* ll_cand.c */
void sb_llp_add_cand(planner *pl, const char *p);
void sb_llp_sort_cand(planner *pl);
void sb_llp_collect_candidates(planner *pl);

/* ll_classify.c */
uint64_t sb_llp_allowed_at(planner *pl, const char *point);
const sb_rule *sb_llp_deny_rule_at(planner *pl, const char *point);
char *sb_llp_generic(const char *p);
void sb_llp_classify_points(planner *pl, const char *path, bool is_dir, llp_view v,
			    uint64_t *all, uint64_t *any);
void sb_llp_classify_at(planner *pl, const char *path, bool is_dir, uint64_t want, llp_view v,
			uint64_t *allow_all, uint64_t *mixed);
/* The expansion's callbacks (ll_expand.c): the expansion's view.  */
void sb_llp_classify(void *ctx, const char *path, bool is_dir, uint64_t want,
		     uint64_t *allow_all, uint64_t *mixed);
char **sb_llp_names_to_visit(void *ctx, const char *dir, size_t *n);

/* ll_mechanism.c: SB_REFUSED when masks were demanded and cannot be had.  */
int sb_llp_plan_mechanism(planner *pl, const sb_linux_opts *o);

/* ll_devices.c */
void sb_llp_add_devices(planner *pl, const sb_linux_opts *o);

/* ll_aliases.c */
void sb_llp_add_forced(planner *pl, const char *path, uint64_t mask, const char *why);
void sb_llp_add_aliases(planner *pl, const sb_mounts *m);
void sb_llp_add_pseudo_fs(planner *pl, const sb_mounts *m);
void sb_llp_check_rule_aliases(planner *pl, const sb_mounts *m);

#endif
