/* sizes.h - the fixed buffer sizes that are right, each with its reason.
 * Anything of unbounded length (a path, a line of a file) is a dynamic
 * string instead; tools/check-layers.sh refuses a bare 4096 or 300.  */
#ifndef SB_SIZES_H
#define SB_SIZES_H

/* A host as a request or a rule names it: a DNS name is at most 253 bytes
 * (RFC 1035; compiler/ir/egress.c refuses longer ones), a bracketed IPv6
 * address less, then ":PORT" and the NUL; the rest is room to see a longer
 * one whole and refuse it rather than cut it.  */
#define SB_HOST_BUF 300

/* A TLS server name (RFC 6066: a DNS host name, so at most 253 bytes, and
 * a trailing dot) and the NUL: a longer one is refused as malformed
 * (runtime/common/proxy.c), never cut.  */
#define SB_SNI_BUF 256

/* A destination's host as sb_dest holds it (compiler/ir/egress.h): a DNS
 * name (at most 253 bytes, its trailing dot removed) or an IP literal, and
 * the NUL; sb_dest_parse refuses a longer one, never cuts it.  */
#define SB_DEST_HOST_BUF 256

#endif
