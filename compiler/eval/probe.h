/* probe.h - the probe set of sbc diff: the paths at which two profiles are
 * compared, derived from the profiles themselves so that a change to any
 * rule shows at some probe.
 *
 * For every path a (bound) profile mentions: the path, its parent, a child,
 * a grandchild, a sibling, a prefix-sibling (/a/b -> /a/b-sbc, which a
 * subpath does not cover but a prefix does), and its /private alias forms.
 * Regexes contribute their literal leading path.  Plus a few system paths
 * and the bound param values with a child each.  */
#ifndef SB_PROBE_H
#define SB_PROBE_H

#include <stddef.h>
#include "compiler/ir/ir.h"

typedef struct sb_probes {
	char **paths;        /* unique; sorted after sb_probes_finish */
	size_t n, cap;
	struct sb_strmap *seen; /* the paths so far, until sb_probes_finish */
	unsigned vnode_masks; /* union of every vnode-type mask seen */
} sb_probes;

/* Every path mentioned by p's filters (p should be bound).  */
void sb_probes_add_profile(sb_probes *ps, const sb_profile *p);
/* One path and its neighbours (ignored unless absolute).  */
void sb_probes_add_path(sb_probes *ps, const char *path);
/* /, /usr/bin/env, /private/etc/hosts, /private/tmp/x, /dev/null, ... */
void sb_probes_add_system(sb_probes *ps);
/* The values of b (one path or a list) and their neighbours.  */
void sb_probes_add_bindings(sb_probes *ps, const sb_bindings *b);
void sb_probes_finish(sb_probes *ps);
void sb_probes_clear(sb_probes *ps);

/* The literal leading path of a regex ("^/a/b\\.c/[^/]+$" -> "/a/b.c/"),
 * or NULL when it does not start with "^/".  Caller frees.  */
char *sb_regex_literal_prefix(const char *re);

#endif
