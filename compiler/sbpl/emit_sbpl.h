/* emit_sbpl.h - the one SBPL writer: a profile (ir.h) as Apple SBPL text.
 *
 * Output (deterministic: the same IR gives the same bytes):
 *   ; <header line>                  one per sb_profile.header entry
 *   (version 1)
 *   ; <src_file>:<src_line>          before each rule that has an origin
 *   ; sbc: <note>                    when the compiler added or adjusted it
 *   (allow op... FILTER)             one filter: one line
 *   (deny op...                      several filters: one per line,
 *       FILTER                       indented four spaces, then ")"
 *       FILTER
 *   )
 * Strings are escaped with sb_sbpl_escape(); a string with a control
 * character is refused (reported, NULL returned), so no value can add,
 * remove or alter a rule.  */
#ifndef SB_EMIT_SBPL_H
#define SB_EMIT_SBPL_H

#include <stddef.h>
#include "compiler/common/diag.h"
#include "compiler/ir/ir.h"

/* The profile as SBPL text; caller frees.  *len (may be NULL) gets the
 * length.  NULL when a string cannot be emitted (reported to d, which may
 * be NULL).  */
char *sb_emit_sbpl(const sb_profile *p, size_t *len, sb_diag *d);

/* One-line renderings of IR pieces for a person (sbc explain, sbc diff),
 * by the same writer: "(allow OP... FILTER... MODIFIER...)" with no origin
 * comment, strings with control characters escaped ("\n", "\x01"), a
 * regex as #"..." where that reads back the same, nothing refused (an
 * opaque filter without text is "(?)").  Reading the text back gives the
 * same rule.  Caller frees.  */
char *sb_sbpl_str_text(const sb_str *s);
char *sb_sbpl_filter_text(const sb_filter *f);
char *sb_sbpl_rule_text(const sb_rule *r);

/* Write `len` bytes to `path` atomically: a temp file in the same directory,
 * fsync, rename.  On failure nothing is left behind and errno is set.
 * "-" writes to stdout.  Returns 0 or -1.  */
int sb_write_atomic(const char *path, const char *data, size_t len);

#endif
