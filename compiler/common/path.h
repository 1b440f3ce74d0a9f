/* path.h - one place for path rules, shared by the compiler's checks and the
 * launcher's checks of runtime paths (the same rule, one implementation).
 *
 * "Lexical" functions never touch the file system; sb_path_canon* do.  */
#ifndef SB_PATH_H
#define SB_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* Return the first byte that may not appear in a path that goes into a
 * profile (control characters 0x01-0x1f and 0x7f), or -1 when clean.  The
 * caller refuses the path and names the offset.  */
int sb_path_bad_char(const char *p);

/* True when `p` is absolute, has no empty, "." or ".." component, and no
 * trailing slash (except "/" itself): the only form emitters accept.  */
bool sb_path_is_normal(const char *p);

/* Lexically normalise an absolute path: collapse "//", drop "/./" and a
 * trailing "/".  ".." is NOT resolved (returns NULL and sets *why) because
 * resolving it lexically is wrong across symlinks.  Caller frees.  */
char *sb_path_normalize(const char *p, const char **why);

/* True when p has a ".." component.  "..foo" is not one.  */
bool sb_path_has_dotdot(const char *p);

/* Component-wise relations between normal absolute paths.  Case-sensitive
 * (Linux, and Seatbelt's byte matching).  */
bool sb_path_equal(const char *a, const char *b);
bool sb_path_is_under(const char *p, const char *root);      /* p == root or below */
bool sb_path_is_strictly_under(const char *p, const char *root);
/* Same relations with ASCII case folding, for checks that must assume a
 * case-insensitive file system (APFS default): errs towards "related".  */
bool sb_path_is_under_fold(const char *p, const char *root);
/* sb_path_is_under with the lengths known (p[0..plen), root[0..rlen)):
 * for a caller that has them (the evaluator's hot path).  */
bool sb_path_is_under_n(const char *p, size_t plen, const char *root, size_t rlen);

/* Join a normal absolute base with a relative suffix ("a/b" or "").
 * Caller frees.  */
char *sb_path_join(const char *base, const char *rel);

/* Parent directory of a normal absolute path ("/" for "/x" and "/").
 * Caller frees.  */
char *sb_path_dirname(const char *p);

/* The one table of the directories macOS reaches through /private:
 * /tmp, /var and /etc are symlinks to /private/tmp, /private/var,
 * /private/etc, and Seatbelt sees the resolved form.  */
/* True when p is /tmp, /var, /etc or lies under one of them.  */
bool sb_path_is_private_aliased(const char *p);
/* For p under /private/tmp, /private/var or /private/etc: the short form
 * inside p (p + strlen("/private")); else NULL.  */
const char *sb_path_strip_private(const char *p);
/* The /private form of p when sb_path_is_private_aliased(p), else a copy.
 * Caller frees.  */
char *sb_path_private_alias(const char *p);

/* realpath(p, NULL), with the same answers and errno.  On Linux in three
 * system calls (an O_PATH open, the readlink of its /proc/self/fd entry, a
 * close) where glibc's realpath() reads the link of every component (a
 * launch resolved a dozen paths of 4-6 components each); realpath() itself
 * where /proc does not answer.  Caller frees.  */
char *sb_path_real(const char *p);

/* Canonicalise through the file system: realpath() when the path exists
 * (a symlinked leaf file is resolved, D5); for a missing leaf, realpath of the
 * parent plus the leaf as typed.  Returns NULL with errno set when the
 * parent does not exist.  Caller frees.  */
char *sb_path_canon(const char *p);

/* Escape a string for an SBPL "..." literal: \ -> \\, " -> \".  Refuses
 * (returns NULL) when the string holds a control character.  Caller frees.  */
char *sb_sbpl_escape(const char *s);

/* The one path-component walker: the next component of *s, skipping empty
 * and "." components; false at the end.  *c and *n name the component inside
 * the string, *s moves past it.  */
bool sb_path_next_comp(const char **s, const char **c, size_t *n);
/* ASCII case folding (APFS compares names case-insensitively).  */
int sb_fold_char(int c);
/* Two components equal, byte-exact or ASCII-folded.  */
bool sb_path_comp_eq(const char *a, size_t na, const char *b, size_t nb, bool fold);

/* Component-wise relation of two paths, both absolute or both relative.
 * Empty and "." components are ignored (so "a//b/" is "a/b").  With `fold`
 * components compare ASCII case-insensitively (APFS).  */
typedef enum {
	SBX_PATH_UNRELATED,
	SBX_PATH_EQUAL,
	SBX_PATH_INSIDE,  /* p lies strictly inside q */
	SBX_PATH_ABOVE    /* p is a strict ancestor of q */
} sbx_path_rel;
sbx_path_rel sbx_path_relation(const char *p, const char *q, bool fold);
/* The part of p below root ("" when equal), pointing into p; NULL when p is
 * not under root.  */
const char *sbx_path_below(const char *p, const char *root, bool fold);

#endif
