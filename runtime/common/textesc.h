/* textesc.h - text from the sandboxed side (paths, process names, hosts,
 * request lines) made safe for a terminal: every byte or character that is
 * not printable is written as an escape, so nothing it contains can start
 * a line, move the cursor or send a terminal a command (C0 and C1 controls,
 * DEL, invalid UTF-8 such as a raw 0x9b CSI byte, the Unicode line and
 * paragraph separators and the bidirectional overrides).  Printable UTF-8
 * passes unchanged.  Used by the denial trace (runtime/common/denial.c) and
 * the egress proxy's messages (runtime/common/proxy.c).  */
#ifndef SB_TEXTESC_H
#define SB_TEXTESC_H

#include <stddef.h>
#include <stdio.h>

/* Write `s` escaped: a byte as \xNN, a character as \u{XXXX}, a backslash
 * as \\.  */
void sb_text_put(FILE *f, const char *s);
/* The same into out[size] (NUL-terminated, cut at a whole escape); `n`
 * bytes of `s`, which may hold NULs.  */
void sb_text_escape(char *out, size_t size, const char *s, size_t n);

#endif
