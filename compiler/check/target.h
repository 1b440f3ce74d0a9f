/* target.h - symbolic reasoning about policy targets, shared by the check
 * passes (check_*.c) and the sensitive matcher.
 *
 * A target is resolved to a "place": a known absolute path, a path relative
 * to a runtime root that is not bound at compile time, a runtime list, or
 * everywhere.  Relations between places are three-valued: a check that must
 * be certain (a dead rule) asks for SBX_YES; a check that must fail closed
 * (a sensitive grant) treats SBX_MAYBE as a possible hit.  Different runtime
 * roots may nest (the workspace may lie inside home), so their relation is
 * always SBX_MAYBE; lists are opaque (could be anything, or nothing).  */
#ifndef SB_TARGET_H
#define SB_TARGET_H

#include <stdbool.h>
#include "compiler/common/path.h"
#include "compiler/front/ast.h"

typedef enum { SBX_NO, SBX_MAYBE, SBX_YES } sbx_tri;

typedef enum {
	SBX_PLACE_ANY,   /* no target: every path */
	SBX_PLACE_ABS,   /* an absolute path, written or from a root bound with -D */
	SBX_PLACE_ROOT,  /* below a runtime root unbound at compile time */
	SBX_PLACE_LIST   /* a runtime list ($EXTRA_READ): unknown, maybe empty */
} sbx_place_kind;

typedef struct sbx_place {
	sbx_place_kind kind;
	const char *root;  /* ROOT: "HOME", "WORKSPACE", "TMPDIR" or the param name;
			      LIST: the list name (borrowed from the target) */
	char *path;        /* ABS: normal absolute path; ROOT: suffix, "" = the
			      root itself (owned) */
	bool exact;        /* the node only, not its subtree */
	bool borrowed;     /* path is not owned: the target's own text, or a
			      literal "" (sbx_places_init) */
	char *spelled;     /* ABS from a root bound with -D: "~/.kube" (owned) */
	unsigned key;      /* hash of the case-folded first component of path,
			      0 when there is none: a quick "unrelated" test */
} sbx_place;

/* The single value a name is bound to with -D, or NULL.  */
const char *sbx_bound_value(const sbx_defines *defs, const char *name);
/* The root name of a base: "HOME", "WORKSPACE", "TMPDIR", the param or list
 * name; NULL for ABS.  */
const char *sbx_base_name(const sbx_target *t);

/* Resolve a target (NULL = no target, everywhere).  Roots and params bound
 * with -D to an absolute path become ABS.  Clear with sbx_place_clear.  */
void sbx_place_of(sbx_place *out, const sbx_target *t, const sbx_defines *defs);
void sbx_place_clear(sbx_place *pl);
/* Build a place relative to home ("" = home), resolved when HOME is bound.  */
void sbx_place_home(sbx_place *out, const char *rel, bool exact, const sbx_defines *defs);

/* The places of every rule statement, resolved once: places[i] holds
 * max(ntargets, 1) places for rule i (one ANY place when unfiltered) and
 * is NULL for other statements.  */
typedef struct sbx_places {
	sbx_place **of;    /* of[i]: statement i's places, in `all` (NULL: none) */
	size_t *count;     /* places in of[i] */
	size_t n;
	sbx_place *all;
} sbx_places;
void sbx_places_init(sbx_places *pp, const sbx_policy *p, const sbx_defines *defs);
void sbx_places_clear(sbx_places *pp);
/* Does some place of rule i certainly cover x (byte-exact)?  */
bool sbx_rule_covers(const sbx_places *pp, size_t i, const sbx_place *x);

/* Does every path of b lie in a?  Does some path lie in both?  */
sbx_tri sbx_place_covers(const sbx_place *a, const sbx_place *b, bool fold);
sbx_tri sbx_place_overlaps(const sbx_place *a, const sbx_place *b, bool fold);
/* Human spelling for messages ("~/.ssh", "workspace/src", "/usr",
 * "$EXTRA_READ", "everywhere", with "exactly " for nodes).  Caller frees.  */
char *sbx_place_str(const sbx_place *pl);

/* Where an absolute path stands relative to the home directory: `home` when
 * bound, else the conventional homes (/Users/NAME except Shared, /home/NAME,
 * /root, /var/root, /private/var/root).
 * INSIDE sets *rel to the part below the home ("" = the home itself).  */
typedef enum { SBX_HOME_OUTSIDE, SBX_HOME_ABOVE, SBX_HOME_INSIDE } sbx_home_pos;
sbx_home_pos sbx_abs_home_pos(const char *abs, const char *home, const char **rel);

/* Atomic accesses, so that `read` (data + metadata) and `stat-only`
 * (metadata) can be compared: a query for metadata is decided by the last
 * read or stat-only rule.  */
enum { SBX_ATOM_DATA = 1 << 0, SBX_ATOM_META = 1 << 1, SBX_ATOM_WRITE = 1 << 2,
       SBX_ATOM_EXEC = 1 << 3 };
unsigned sbx_atoms(unsigned access);
/* Human names of an access set ("read", "write stat-only") into buf.  */
const char *sbx_access_name(unsigned access, char *buf, size_t n);

/* Same base, name, suffix and exactness (spelling-insensitive: `~/x` and
 * `home/x` are the same target).  */
bool sbx_target_same(const sbx_target *a, const sbx_target *b);
/* Two rule statements with the same action, access set and target set.  */
bool sbx_rule_same(const sbx_stmt *a, const sbx_stmt *b);
/* The best location for target i of rule s (the target's own when known).  */
const sb_loc *sbx_target_loc(const sbx_stmt *s, size_t i);
/* The policy's default action: the last `default` statement, or `fallback`
 * when there is none.  */
sb_action sbx_default_action(const sbx_policy *p, sb_action fallback);

#endif
