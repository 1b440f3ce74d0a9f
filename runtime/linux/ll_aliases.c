#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* ll_aliases.c - the planner's forced denies (ll_plan.c, step 3): paths
 * that reach a denied inode another way (bind-mount aliases, pseudo file
 * systems mounted elsewhere) are denied like it, and a rule whose inode is
 * reachable where its rights are denied loses them.  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/ll_plan_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

void sb_llp_add_forced(planner *pl, const char *path, uint64_t mask, const char *why)
{
	for (size_t i = 0; i < pl->nforced; i++)
		if (strcmp(pl->forced[i].path, path) == 0) {
			pl->forced[i].mask |= mask;
			return;
		}
	SB_GROW(pl->forced, pl->nforced, pl->cap_forced, 8);
	pl->forced[pl->nforced++] = (forced){ xstrdup(path), mask, xstrdup(why), false };
}

/* Deny points: existing candidates whose own or generic-child decision
 * denies some right.  Their bind-mount aliases become forced denies.  */
void sb_llp_add_aliases(planner *pl, const sb_mounts *m)
{
	size_t base = pl->nforced;
	for (size_t i = 0; i < pl->ncand + base; i++) {
		const char *c;
		uint64_t dm;
		if (i < pl->ncand) {
			c = pl->cand[i];
			struct stat st;
			if (sb_ll_stat(pl->stats, c, &st) < 0)
				continue;
			char *g = sb_llp_generic(c);
			dm = R_ALL & ~(sb_llp_allowed_at(pl, c) & sb_llp_allowed_at(pl, g));
			free(g);
		} else {
			c = pl->forced[i - pl->ncand].path;
			dm = pl->forced[i - pl->ncand].mask;
		}
		if (!dm)
			continue;
		char **al = NULL;
		bool *same = NULL;
		size_t nal = 0;
		sb_mounts_aliases(m, c, &al, &nal, &same);
		for (size_t k = 0; k < nal; k++) {
			struct stat st;
			/* Every mount of the root file system shows a part of "/":
			 * only a mount of "/" itself is an alias of it; a bind of
			 * /usr/share/doc on /tmp/x is not (it is what its path
			 * says, like any other directory there).  */
			bool unrelated = strcmp(c, "/") == 0 && !same[k];
			if (!unrelated && sb_ll_lstat(pl->stats, al[k], &st) == 0) {
				sb_llp_add_forced(pl, al[k], dm, "bind-mount alias of a denied path");
				sb_ll_rules_note(&pl->plan->r, SB_LL_NOTE_NARROWER, NULL, 0,
						 "%s: bind-mount alias of %s, denied like it", al[k], c);
			}
			free(al[k]);
		}
		free(al);
		free(same);
	}
}

/* A procfs, sysfs or devtmpfs mounted elsewhere (a chroot below /tmp) is
 * the same kernel interface as /proc, /sys or /dev: it gets no right the
 * canonical place does not have (writing /tmp/c/proc/self/comm must fail
 * as /proc/self/comm does).  */
void sb_llp_add_pseudo_fs(planner *pl, const sb_mounts *m)
{
	static const struct {
		const char *type, *home;
	} pseudo[] = { { "proc", "/proc" }, { "sysfs", "/sys" }, { "devtmpfs", "/dev" } };
	for (size_t i = 0; i < m->n; i++)
		for (size_t k = 0; k < sizeof pseudo / sizeof *pseudo; k++) {
			const sb_mount *mt = &m->v[i];
			if (!mt->fstype || strcmp(mt->fstype, pseudo[k].type) != 0 ||
			    sb_path_is_under(mt->mountpoint, pseudo[k].home))
				continue;
			uint64_t denied = R_ALL;
			if (strcmp(pseudo[k].home, "/dev") != 0) {
				char *g = sb_llp_generic(pseudo[k].home);
				denied = R_ALL & ~(sb_llp_allowed_at(pl, pseudo[k].home) & sb_llp_allowed_at(pl, g));
				free(g);
			}
			struct stat st;
			if (!denied || sb_ll_lstat(pl->stats, mt->mountpoint, &st) < 0)
				continue;
			sb_llp_add_forced(pl, mt->mountpoint, denied, "a pseudo file system");
			sb_ll_rules_note(&pl->plan->r, SB_LL_NOTE_NARROWER, NULL, 0,
					 "%s: a %s like %s, denied what %s is denied", mt->mountpoint,
					 mt->fstype, pseudo[k].home, pseudo[k].home);
		}
}

/* A rule lands on an inode: every other path to that inode gets it too.
 * Remove the rights an inode alias is not allowed to have.  */
void sb_llp_check_rule_aliases(planner *pl, const sb_mounts *m)
{
	sb_ll_rules *r = &pl->plan->r;
	for (size_t i = 0; i < r->n; i++) {
		char **al = NULL;
		bool *same = NULL;
		size_t nal = 0;
		sb_mounts_aliases(m, r->v[i].path, &al, &nal, &same);
		for (size_t k = 0; k < nal; k++) {
			/* a masked alias (a bind of $HOME hidden like $HOME) shows
			 * nothing: no right to withhold */
			if (same[k] && !(pl->use_masks &&
					 sb_ll_masks_hidden(&pl->plan->masks, al[k]))) {
				/* what decide() allows there (forced denies only
				 * narrow; they are not the question here) */
				uint64_t all, mx;
				llp_view v = { .forced = false, .masks = pl->use_masks };
				sb_llp_classify_at(pl, al[k], r->v[i].is_dir, r->v[i].rights, v, &all,
						   &mx);
				uint64_t lost = r->v[i].rights & ~all;
				if (lost) {
					char b[256];
					r->v[i].rights &= ~lost;
					sb_ll_rules_note(r, SB_LL_NOTE_NARROWER, NULL, 0,
							 "%s: rights %s withheld: the same inode is "
							 "reachable as %s, where they are denied",
							 r->v[i].path, sb_ll_rights_str(lost, b, sizeof b),
							 al[k]);
				}
			}
			free(al[k]);
		}
		free(al);
		free(same);
	}
	size_t w = 0;   /* drop emptied rules */
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].rights == 0) {
			free(r->v[i].path);
			close(r->v[i].fd);
		} else {
			r->v[w++] = r->v[i];
		}
	}
	r->n = w;
}
#endif /* __linux__ */
