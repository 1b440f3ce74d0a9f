/* sensitive.h - the sensitive home locations, shared by sbc's check pass and
 * the launcher's checks of runtime extras (one list, one matcher).
 * Entries are relative to the home directory; matching is by whole path
 * components, ASCII case-folded (APFS is usually case-insensitive, so
 * ~/.SSH is ~/.ssh there; folding errs towards refusing).  */
#ifndef SB_SENSITIVE_H
#define SB_SENSITIVE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sb_sensitive_entry {
	const char *rel;      /* relative to HOME, e.g. ".ssh" */
	const char *why;      /* short reason, e.g. "SSH keys" */
} sb_sensitive_entry;

const sb_sensitive_entry *sb_sensitive_list(size_t *n);

/* Is the absolute normal path `p` sensitive for home `home`: equal to an
 * entry, an ancestor of one (so "/", HOME and HOME/Library are), or inside
 * one?  Returns the matching entry or NULL.  Extra absolute files to treat
 * as sensitive (the policy, the profile, the launcher) may be given.  */
const sb_sensitive_entry *sb_sensitive_match(const char *p, const char *home,
					     const char *const *extra_abs, size_t nextra);

/* The same test for a path given relative to HOME ("" is HOME itself,
 * "Library/Keychains/x").  With `node_only` the path stands for a single
 * node (an `exactly` target), so being an ancestor of an entry does not
 * count.  A ".." component always matches (it hides where the path leads).  */
const sb_sensitive_entry *sb_sensitive_match_rel(const char *rel, bool node_only);

#endif
