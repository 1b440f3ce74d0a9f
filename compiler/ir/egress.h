/* egress.h - network egress by host name: the host patterns of
 * `network allow|deny "PATTERN"...;`, the ordered egress rule list a profile
 * carries, and the one decision every consumer uses (sbc explain/diff, the
 * egress proxy of sbrun).  Language: docs/language.md; enforcement:
 * docs/egress.md.
 *
 * Semantics: the LAST egress rule that matches a destination decides, as for
 * file rules; `network on|off` is a rule matching every destination; no match
 * denies.  A name pattern never matches an IP literal, an IP/CIDR pattern
 * never matches a name.  An address a name resolves to that lies in a
 * loopback, private, link-local, shared or multicast range is refused unless
 * an IP/CIDR rule written in the policy allows it.  */
#ifndef SB_EGRESS_H
#define SB_EGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/common/diag.h"
#include "compiler/common/sizes.h"
#include "compiler/ir/origin.h"

/* The name of the SBPL definition that carries the list (emit_sbpl.c,
 * sbpl_read.c).  */
#define SB_EGRESS_DEFINE "sbx-egress"

typedef enum {
	SB_HOST_ANY,      /* "*": every name (never an IP literal) */
	SB_HOST_NAME,     /* "api.example.com": that name only */
	SB_HOST_SUFFIX,   /* "*.example.com": names below, never the bare suffix */
	SB_HOST_IP,       /* "192.0.2.1", "10.0.0.0/8", "[::1]", "fd00::/8" */
} sb_host_kind;

typedef struct sb_host_pat {
	sb_host_kind kind;
	char *name;                /* NAME / SUFFIX (without "*."): lower case */
	int family;                /* IP: 4 or 6 */
	unsigned char addr[16];    /* IP: network address (host bits cleared) */
	int prefix;                /* IP: prefix length */
	int port;                  /* 0: any port */
} sb_host_pat;

/* Parse a pattern as written in a policy.  Returns 0, or -1 with a static
 * message in *why (and the byte offset it refers to in *at).  */
int sb_host_pat_parse(const char *text, sb_host_pat *out, const char **why, size_t *at);
void sb_host_pat_clear(sb_host_pat *p);
/* The canonical spelling ("*.example.com:443", "10.0.0.0/8"); caller frees.  */
char *sb_host_pat_text(const sb_host_pat *p);

typedef struct sb_egress_rule {
	bool allow;                /* allow, else deny */
	bool all;                  /* `network on|off`: every destination */
	sb_host_pat pat;           /* unless `all` */
	const sb_origin *origin;   /* its statement (origin.h), or NULL; shared */
} sb_egress_rule;

typedef struct sb_egress {
	sb_egress_rule *v;
	size_t n, cap;
} sb_egress;

/* Append a rule; `pat` is moved (the caller's copy must not be cleared).  */
void sb_egress_add(sb_egress *e, bool allow, bool all, sb_host_pat *pat,
		   const sb_origin *origin);
void sb_egress_copy(sb_egress *dst, const sb_egress *src);
void sb_egress_clear(sb_egress *e);
/* Host rules decide something: some host rule comes after the last
 * `network on|off` (else the network is simply open or off).  */
bool sb_egress_filtered(const sb_egress *e);

/* A destination as a client names it: a host name (lower-cased, trailing
 * dot removed) or an IP literal, and a port.  */
typedef struct sb_dest {
	char host[SB_DEST_HOST_BUF];
	bool is_ip;
	int family;                /* is_ip: 4 or 6 */
	unsigned char addr[16];
	int port;
} sb_dest;

/* Parse "name", "1.2.3.4", "[::1]" or "::1" (no port) into *out with `port`.
 * Refuses what is neither a valid name nor a canonical IP literal (numeric
 * forms such as "2130706433" that resolvers read as addresses).  Returns 0 or
 * -1 with a static message.  */
int sb_dest_parse(const char *host, int port, sb_dest *out, const char **why);

/* The decision for a destination: the index of the deciding rule, or -1
 * (nothing matches: denied).  *allowed receives the outcome.  */
long sb_egress_decide(const sb_egress *e, const sb_dest *d, bool *allowed);

/* Whether an address a name resolved to (or an IP literal) may be reached:
 * an internal address (loopback, RFC 1918, link-local, shared 100.64/10,
 * unspecified, multicast, broadcast, ULA, v4-mapped forms) only when the last
 * IP/CIDR rule matching it allows it; any address when the last matching
 * IP/CIDR rule denies it is refused.  Returns the deciding rule's index or
 * -1; *allowed receives the outcome and *internal whether the range is
 * internal.  */
long sb_egress_check_addr(const sb_egress *e, int family, const unsigned char *addr, int port,
			  bool *allowed, bool *internal);
bool sb_addr_is_internal(int family, const unsigned char *addr);

#endif
