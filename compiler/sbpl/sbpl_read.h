/* sbpl_read.h - read SBPL text (what sbc emits, and real-world profiles)
 * into the profile IR of ir.h, and render IR rules back as SBPL text.
 *
 * Built on the S-expression reader of sexp.h and the evaluator of
 * sbpl_scheme.h: the document is first run as a program (defines,
 * procedures, conditions on params ...); this file maps the rule forms that
 * run produces to the IR.  Modelled: version, allow and
 * deny with any number of operations, filters and modifiers (nested
 * argument lists are flattened; several filters of a rule are ORed, and a
 * filter with several arguments becomes one filter per argument), literal /
 * path, subpath, prefix / path-prefix, regex / path-regex, vnode-type, tty,
 * require-all / -any / -not, param / getenv, string-append, (with ...),
 * import (listed, not followed), debug (a no-op).
 *
 * Kept but not modelled (sb_profile.unmodelled, reported with a reason):
 * trace, calls of procedures nobody defines, import, and the
 * (if COND ...) the evaluator hands back when COND cannot be decided (a
 * param nothing binds).  With SB_READ_CONDITIONALS, the allow/deny forms inside
 * if / when / unless / begin become rules; a rule under a condition gets
 * the condition as an opaque filter ANDed with each filter.  That is for
 * evaluation only (sbc explain, sbc diff): such rules do not emit back as
 * valid SBPL, so readers whose result is emitted again leave it off.  A filter that is not a path filter (global-name, target,
 * extension, file-mode, remote, a call of a profile-defined function ...)
 * becomes an SB_F_OPAQUE filter; decide() answers unknown when it matters.
 *
 * Origins: a comment alone on a line of the form "; FILE:LINE" (optionally
 * followed by more text) directly above a rule, as sbc emits, sets
 * sb_rule.src_file / src_line.  Comment lines before the first form become
 * the profile header.
 *
 * Diagnostics (all located, "file:line:col: ..."): syntax errors [sbpl-syntax],
 * structural errors [sbpl-form], and warnings for traps: trailing slash or
 * non-canonical path in literal/subpath [sbpl-path], /tmp /var /etc filter
 * strings that never match [sbpl-alias], unknown escapes [sbpl-escape],
 * strings over 255 bytes [sbpl-long-string], unknown operations [sbpl-op].  */
#ifndef SB_SBPL_READ_H
#define SB_SBPL_READ_H

#include <stddef.h>
#include "compiler/common/diag.h"
#include "compiler/ir/ir.h"

enum { SB_READ_CONDITIONALS = 1 << 0 };

/* Read a profile.  Returns NULL when any error was reported; warnings do
 * not fail the read.  `file` names the source in diagnostics and locations.  */
sb_profile *sb_sbpl_read(const char *file, const char *text, size_t len, sb_diag *d);
/* Same with SB_READ_* flags.  */
sb_profile *sb_sbpl_read_ex(const char *file, const char *text, size_t len, sb_diag *d, unsigned flags);
/* Same with params bound for the evaluation (sbpl_scheme.h): conditions on
 * them are decided; a param stays (param "NAME") in the rules either way,
 * for sb_profile_bind().  `params` may be NULL.  */
sb_profile *sb_sbpl_read_bound(const char *file, const char *text, size_t len, sb_diag *d,
			       unsigned flags, const sb_bindings *params);
/* Same, reading `file` from disk (an unreadable file is a located error).  */
sb_profile *sb_sbpl_read_file(const char *file, sb_diag *d);
sb_profile *sb_sbpl_read_file_ex(const char *file, sb_diag *d, unsigned flags);
sb_profile *sb_sbpl_read_file_bound(const char *file, sb_diag *d, unsigned flags, const sb_bindings *params);

/* Parse "FILE:LINE" at the start of a comment text (sbc's origin comments).
 * On success stores a malloc'd FILE in *file and returns the line, else 0.  */
int sb_sbpl_parse_origin(const char *comment, char **file);

/* One-line renderings of IR pieces: emit_sbpl.h (the one writer).  */
#include "compiler/sbpl/emit_sbpl.h"

#endif
