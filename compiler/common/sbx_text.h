/* sbx_text.h - the one writer of policy (.sbx) text (docs/language.md):
 * quoted strings, paths as rule targets, and the statements tools propose.
 * sbc --dump-ast (compiler/front/ast.c), the denial trace's fixes and
 * --learn (runtime/common/denial_fix.c, denial_learn.c) write through it,
 * so what they print parses back to the same value (tests/unit/
 * test_sbx_text.c parses it again).  Nothing here prints a path that a
 * policy cannot hold: a control character has no spelling in .sbx, and
 * such a value is refused (NULL), never written.  */
#ifndef SB_SBX_TEXT_H
#define SB_SBX_TEXT_H

#include <stdbool.h>

/* Does `s` have a spelling in .sbx (no control character: strings end on
 * their line and have no escape for one)?  */
bool sbx_text_writable(const char *s);

/* Must `s` be quoted to be one word (a blank, ';', '#', '"', '\\')?  */
bool sbx_text_needs_quotes(const char *s);

/* `s` as a string literal: "..." with \\ and \" escaped (the only escapes
 * of the language).  NULL when it is not writable.  Caller frees.  */
char *sbx_text_quoted(const char *s);
/* The same quoting with a control character left as it is, for a message
 * that escapes it itself (runtime/common/textesc.h); never for a policy.  */
char *sbx_text_shown(const char *s);

/* An absolute path as a rule target: "~/rel" (or "~") inside `home` and
 * the path itself elsewhere, bare when every byte is in the portable set
 * (letters, digits, "._/+-@~"), else the absolute path quoted (a quoted
 * "~/..." would do, but the absolute form reads the same on every
 * machine).  `home` may be NULL.  NULL when not writable.  Caller frees.  */
char *sbx_text_target(const char *path, const char *home);

/* "allow VERB TARGET;" (VERB: "read", "read write", "read exactly", ...;
 * TARGET: a target as sbx_text_target writes it, or "home").  */
char *sbx_text_allow(const char *verb, const char *target);

/* `network allow "HOST";`.  NULL when not writable.  */
char *sbx_text_network_allow(const char *host);

#endif
