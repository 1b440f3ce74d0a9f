/* json.h - the one JSON string writer (diagnostics, SARIF, sbc explain,
 * sbc diff).  Linux paths are bytes, not text, so a string may hold any
 * byte; the output is valid JSON (RFC 8259, UTF-8) whatever it holds:
 *   - valid UTF-8 is written as is; '"' and '\' are escaped, '\n' and '\t'
 *     as \n and \t, every other control byte (and DEL) as \u00XX;
 *   - every byte that is not part of a valid UTF-8 sequence (RFC 3629: no
 *     overlong forms, no surrogates, nothing above U+10FFFF) becomes
 *     U+FFFD, written \ufffd.
 * U+FFFD loses the byte, so where the exact bytes matter (a path) the
 * writer adds a lossless companion: sb_json_bytes_member() writes
 * "KEY": "<text>" and, only when the value is not valid UTF-8,
 * "KEY_escaped": "<escaped>", where <escaped> is the value with every
 * backslash doubled and every invalid byte written \xHH (two hex digits):
 * a reader recovers the bytes by undoing those two escapes.  SARIF's file
 * locations are URIs and carry the bytes percent-encoded instead
 * (sb_json_uri).  docs/architecture.md has the rule.  */
#ifndef SB_JSON_H
#define SB_JSON_H

#include <stdbool.h>
#include <stdio.h>

/* A JSON string literal (with the quotes) of s; NULL writes "".  */
void sb_json_string(FILE *f, const char *s);
/* True when s is valid UTF-8 (so sb_json_string loses nothing).  */
bool sb_json_is_utf8(const char *s);
/* The lossless escaped form of s, as a JSON string literal.  */
void sb_json_escaped_bytes(FILE *f, const char *s);
/* "KEY": value, then ", "KEY_escaped": ..." when s is not valid UTF-8.
 * `sep` is written between the key and the value (": " or ":").  */
void sb_json_bytes_member(FILE *f, const char *key, const char *sep, const char *s);
/* A JSON string holding s as a URI reference: file:// before an absolute
 * path, and bytes outside RFC 3986's unreserved set and '/' percent-encoded,
 * so any bytes survive.  */
void sb_json_uri(FILE *f, const char *s);

#endif
