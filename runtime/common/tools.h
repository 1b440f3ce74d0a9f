/* tools.h - the tool presets at launch (docs/omp-sandboxed.md, "Tool
 * presets").  A preset is a policy fragment (examples/tools/NAME.sbx, which
 * starts with `preset "NAME";`); the compiler prefixes every path of its
 * rules with the list param TOOL_NAME* (ir.h), so the one profile compiled
 * at build time carries every preset and the launcher switches each on (the
 * list holds one empty string) or off (the list is empty: the rules vanish).
 *
 * OMP_SANDBOX_TOOLS selects them: unset or empty, every preset the profile
 * has; "none", none (the original wrapper's strict behaviour); otherwise a
 * comma-separated list of names.  The "cache" preset (the launcher-owned
 * cache root) is on whenever another preset is.
 *
 * The launcher owns one cache root per user, HOME/.cache/omp-sandbox,
 * created at launch: the tools' caches inside the sandbox go there, through
 * each tool's own setting in the child's environment (sb_tools_env), never
 * into the user's real caches, which stay unreadable and unwritable.  */
#ifndef SB_TOOLS_H
#define SB_TOOLS_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/common/diag.h"
#include "compiler/ir/ir.h"

#define SB_TOOLS_CACHE_REL ".cache/omp-sandbox"
/* Presets named "protect-GROUP" (examples/protect/ (one file per group)) are the default
 * protection of persistence files: the same gate mechanism, selected by
 * OMP_SANDBOX_PROTECT (group names without the prefix), never by
 * OMP_SANDBOX_TOOLS, so `OMP_SANDBOX_TOOLS=none` keeps them on.  */
#define SB_PROTECT_PREFIX "protect-"

typedef struct sb_tools {
	char **names;     /* the presets the profile has, lower case, sorted */
	bool *on;         /* selected, one per name */
	size_t n;
} sb_tools;

/* Fill *out from the profile's TOOL_* params, OMP_SANDBOX_TOOLS (`value`)
 * and OMP_SANDBOX_PROTECT (`protect`) (raw values, may be NULL).  An unknown
 * tool name is a warning with the closest known one (and is ignored: it can
 * only grant less); an unknown protection group likewise (the other groups
 * stay as selected).  */
void sb_tools_select(const char *value, const char *protect, const sb_profile *prof,
		     sb_tools *out, sb_diag *d);
/* Is `name` a protection group's preset ("protect-git")?  */
bool sb_tools_is_protect(const char *name);
bool sb_tools_is_on(const sb_tools *t, const char *name);
bool sb_tools_any_on(const sb_tools *t);
/* TOOL_NAME (list) for every preset: [""] when on, [] when off.  */
void sb_tools_bind(const sb_tools *t, sb_bindings *out);
/* "NAME=value" entries for the child's environment, in table order, for
 * the presets that are on: the cache settings (XDG_CACHE_HOME,
 * npm_config_cache, PIP_CACHE_DIR, ...) under the cache root.  Caller frees
 * the array and strings.  */
char **sb_tools_env(const sb_tools *t, const char *home, size_t *n);
/* Create the cache root (0700) and the tools' directories in it when the
 * cache preset is on.  Refuses a cache root that is a
 * symlink or not owned by the user (SB_REFUSED): the sandbox would write
 * elsewhere.  */
int sb_tools_prepare_cache(const sb_tools *t, const char *home, sb_diag *d);
/* Notes at launch when a setting the sandbox cannot read changes a tool's
 * behaviour (~/.npmrc: registry and tokens), naming the variable that
 * allows it.  */
void sb_tools_notes(const sb_tools *t, const char *home, const sb_profile *bound, sb_diag *d);
void sb_tools_clear(sb_tools *t);

#endif
