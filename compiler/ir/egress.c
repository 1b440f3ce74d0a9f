/* egress.c - host patterns, the egress rule list and its decision (see
 * egress.h).  Addresses are parsed with inet_pton: the platform's own
 * parser, so a literal means here what it means to the resolver.  */
#include "compiler/ir/egress.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/xalloc.h"

/* One DNS label: 1..63 of [a-z0-9_-], not starting or ending with '-'.  */
static bool label_ok(const char *s, size_t n)
{
	if (n == 0 || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			return false;
	return true;
}

static bool all_digits_and_dots(const char *s)
{
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && *s != '.')
			return false;
	return true;
}

/* Validate a lower-cased name; `why`/`at` on failure.  */
static int name_check(const char *s, size_t base, const char **why, size_t *at)
{
	size_t len = strlen(s);
	if (len == 0) {
		*why = "empty host name";
		*at = base;
		return -1;
	}
	if (len > 253) {
		*why = "host name longer than 253 bytes";
		*at = base;
		return -1;
	}
	if (all_digits_and_dots(s) || (len > 2 && s[0] == '0' && s[1] == 'x')) {
		*why = "not a valid IPv4 address (write four decimal numbers, e.g. 192.0.2.1)";
		*at = base;
		return -1;
	}
	const char *p = s;
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		if (n == 0) {
			*why = "empty label in host name (\"..\", or a leading dot)";
			*at = base + (size_t)(p - s);
			return -1;
		}
		for (size_t i = 0; i < n; i++)
			if (p[i] == '*') {
				*why = "'*' is allowed only as a whole first label (\"*.example.com\")";
				*at = base + (size_t)(p - s) + i;
				return -1;
			}
		if (!label_ok(p, n)) {
			*why = "invalid label in host name (letters, digits, '-' and '_'; at most 63 "
			       "bytes; no leading or trailing '-')";
			*at = base + (size_t)(p - s);
			return -1;
		}
		if (!dot)
			break;
		p = dot + 1;
	}
	return 0;
}

static int parse_port(const char *s, int *port)
{
	if (!*s || strlen(s) > 5)
		return -1;
	long v = 0;
	for (const char *p = s; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return -1;
		v = v * 10 + (*p - '0');
	}
	if (v < 1 || v > 65535)
		return -1;
	*port = (int)v;
	return 0;
}

static void mask_addr(unsigned char *a, int bytes, int prefix)
{
	for (int i = 0; i < bytes; i++) {
		int keep = prefix - i * 8;
		if (keep >= 8)
			continue;
		a[i] &= keep <= 0 ? 0 : (unsigned char)(0xff << (8 - keep));
	}
}

/* "ADDR" or "ADDR/LEN" (no brackets, no port).  */
static int ip_parse(const char *s, sb_host_pat *out, const char **why)
{
	char buf[64];
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	if (n >= sizeof buf) {
		*why = "not a valid IP address";
		return -1;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	int fam = strchr(buf, ':') ? 6 : 4;
	if (inet_pton(fam == 6 ? AF_INET6 : AF_INET, buf, out->addr) != 1) {
		*why = fam == 6 ? "not a valid IPv6 address" : "not a valid IPv4 address";
		return -1;
	}
	int max = fam == 6 ? 128 : 32, prefix = max;
	if (slash) {
		const char *p = slash + 1;
		if (!*p || strlen(p) > 3) {
			*why = "CIDR prefix length missing or out of range";
			return -1;
		}
		prefix = 0;
		for (; *p; p++) {
			if (!isdigit((unsigned char)*p)) {
				*why = "CIDR prefix length must be a number";
				return -1;
			}
			prefix = prefix * 10 + (*p - '0');
		}
		if (prefix > max) {
			*why = "CIDR prefix length out of range (IPv4: 0-32, IPv6: 0-128)";
			return -1;
		}
	}
	out->kind = SB_HOST_IP;
	out->family = fam;
	out->prefix = prefix;
	mask_addr(out->addr, fam == 6 ? 16 : 4, prefix);
	return 0;
}

int sb_host_pat_parse(const char *text, sb_host_pat *out, const char **why, size_t *at)
{
	memset(out, 0, sizeof *out);
	*at = 0;
	const char *scheme = strstr(text, "://");
	if (scheme) {
		*why = "a URL scheme is not part of a host pattern (write only the host, "
		       "e.g. \"api.example.com\" or \"api.example.com:443\")";
		return -1;
	}
	if (!*text) {
		*why = "empty host pattern";
		return -1;
	}
	for (const char *p = text; *p; p++)
		if (isspace((unsigned char)*p) || (unsigned char)*p < 0x20 || *p == '@' ||
		    *p == '?' || *p == '#') {
			*why = "invalid character in host pattern";
			*at = (size_t)(p - text);
			return -1;
		}
	char *s = xstrdup(text);
	for (char *p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	int rc = -1;
	char *host = s, *port = NULL;
	if (s[0] == '[') {
		char *close = strchr(s, ']');
		if (!close) {
			*why = "'[' without ']' in an IPv6 pattern";
			goto out;
		}
		*close = '\0';
		host = s + 1;
		if (close[1] == ':')
			port = close + 2;
		else if (close[1]) {
			*why = "unexpected text after ']' (write \"[ADDR]:PORT\")";
			*at = (size_t)(close - s) + 1;
			goto out;
		}
		if (!strchr(host, ':')) {
			*why = "brackets are only for IPv6 addresses";
			goto out;
		}
	} else {
		char *c1 = strchr(s, ':');
		if (c1 && strchr(c1 + 1, ':')) {
			host = s;   /* bare IPv6, no port */
		} else if (c1) {
			*c1 = '\0';
			port = c1 + 1;
		}
	}
	if (port && parse_port(port, &out->port) < 0) {
		*why = "port must be a number from 1 to 65535";
		*at = (size_t)(port - s);
		goto out;
	}
	bool ipv6 = strchr(host, ':') != NULL;
	char *slash = strchr(host, '/');
	bool cidr = slash && ipv6;
	if (slash && !ipv6) {
		/* "10.0.0.0/8" is a range; "example.com/path" a path */
		*slash = '\0';
		cidr = all_digits_and_dots(host);
		*slash = '/';
	}
	if (slash && !cidr) {
		*why = "a path is not part of a host pattern (write only the host)";
		*at = (size_t)(slash - s);
		goto out;
	}
	if (ipv6 || cidr || all_digits_and_dots(host)) {
		if (ip_parse(host, out, why) < 0)
			goto out;
		rc = 0;
		goto out;
	}
	if (strlen(host) > 1 && host[strlen(host) - 1] == '.')
		host[strlen(host) - 1] = '\0';
	if (!strcmp(host, "*")) {
		out->kind = SB_HOST_ANY;
		rc = 0;
		goto out;
	}
	size_t base = (size_t)(host - s);
	if (!strncmp(host, "*.", 2)) {
		if (name_check(host + 2, base + 2, why, at) < 0)
			goto out;
		out->kind = SB_HOST_SUFFIX;
		out->name = xstrdup(host + 2);
		rc = 0;
		goto out;
	}
	if (name_check(host, base, why, at) < 0)
		goto out;
	out->kind = SB_HOST_NAME;
	out->name = xstrdup(host);
	rc = 0;
out:
	free(s);
	if (rc < 0)
		sb_host_pat_clear(out);
	return rc;
}

void sb_host_pat_clear(sb_host_pat *p)
{
	free(p->name);
	memset(p, 0, sizeof *p);
}

char *sb_host_pat_text(const sb_host_pat *p)
{
	char host[SB_HOST_BUF];
	switch (p->kind) {
	case SB_HOST_ANY: snprintf(host, sizeof host, "*"); break;
	case SB_HOST_NAME: snprintf(host, sizeof host, "%s", p->name); break;
	case SB_HOST_SUFFIX: snprintf(host, sizeof host, "*.%s", p->name); break;
	case SB_HOST_IP: {
		char a[INET6_ADDRSTRLEN];
		inet_ntop(p->family == 6 ? AF_INET6 : AF_INET, p->addr, a, sizeof a);
		int max = p->family == 6 ? 128 : 32;
		bool br = p->family == 6 && p->port && p->prefix == max;
		if (p->prefix != max)
			snprintf(host, sizeof host, "%s/%d", a, p->prefix);
		else
			snprintf(host, sizeof host, br ? "[%s]" : "%s", a);
		break;
	}
	}
	return p->port ? xasprintf("%s:%d", host, p->port) : xstrdup(host);
}

void sb_egress_add(sb_egress *e, bool allow, bool all, sb_host_pat *pat, const sb_origin *origin)
{
	SB_GROW(e->v, e->n, e->cap, 8);
	sb_egress_rule *r = &e->v[e->n++];
	memset(r, 0, sizeof *r);
	r->allow = allow;
	r->all = all;
	if (pat && !all) {
		r->pat = *pat;
		memset(pat, 0, sizeof *pat);
	}
	r->origin = origin;
}

void sb_egress_copy(sb_egress *dst, const sb_egress *src)
{
	for (size_t i = 0; i < src->n; i++) {
		const sb_egress_rule *r = &src->v[i];
		sb_host_pat p = r->pat;
		if (p.name)
			p.name = xstrdup(p.name);
		sb_egress_add(dst, r->allow, r->all, &p, r->origin);
	}
}

void sb_egress_clear(sb_egress *e)
{
	for (size_t i = 0; i < e->n; i++) {
		sb_host_pat_clear(&e->v[i].pat);
	}
	free(e->v);
	e->v = NULL;
	e->n = e->cap = 0;
}

bool sb_egress_filtered(const sb_egress *e)
{
	for (size_t i = e->n; i-- > 0;) {
		if (e->v[i].all)
			return false;
		return true;
	}
	return false;
}

int sb_dest_parse(const char *host, int port, sb_dest *out, const char **why)
{
	memset(out, 0, sizeof *out);
	out->port = port;
	size_t n = strlen(host);
	if (n == 0 || n >= sizeof out->host) {
		*why = "missing or over-long host";
		return -1;
	}
	char buf[256];
	memcpy(buf, host, n + 1);
	char *h = buf;
	if (h[0] == '[' && h[n - 1] == ']') {
		h[n - 1] = '\0';
		h++;
		if (inet_pton(AF_INET6, h, out->addr) != 1) {
			*why = "not a valid IPv6 address";
			return -1;
		}
		out->is_ip = true;
		out->family = 6;
	} else if (strchr(h, ':')) {
		if (inet_pton(AF_INET6, h, out->addr) != 1) {
			*why = "not a valid IPv6 address";
			return -1;
		}
		out->is_ip = true;
		out->family = 6;
	} else if (inet_pton(AF_INET, h, out->addr) == 1) {
		out->is_ip = true;
		out->family = 4;
	}
	if (out->is_ip) {
		char a[INET6_ADDRSTRLEN];
		inet_ntop(out->family == 6 ? AF_INET6 : AF_INET, out->addr, a, sizeof a);
		snprintf(out->host, sizeof out->host, "%s", a);
		return 0;
	}
	for (char *p = h; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	size_t len = strlen(h);
	if (len > 1 && h[len - 1] == '.')
		h[len - 1] = '\0';
	size_t at;
	if (name_check(h, 0, why, &at) < 0)
		return -1;
	snprintf(out->host, sizeof out->host, "%s", h);
	return 0;
}

static bool prefix_match(const unsigned char *a, const unsigned char *net, int prefix)
{
	int full = prefix / 8, rest = prefix % 8;
	if (memcmp(a, net, (size_t)full) != 0)
		return false;
	if (!rest)
		return true;
	unsigned char m = (unsigned char)(0xff << (8 - rest));
	return (a[full] & m) == (net[full] & m);
}

/* An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address.  */
static void unmap(int *family, const unsigned char **addr, unsigned char v4[4])
{
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	if (*family == 6 && !memcmp(*addr, mapped, 12)) {
		memcpy(v4, *addr + 12, 4);
		*family = 4;
		*addr = v4;
	}
}

static bool ip_pat_match(const sb_host_pat *p, int family, const unsigned char *addr, int port)
{
	unsigned char v4[4];
	unmap(&family, &addr, v4);
	if (p->kind != SB_HOST_IP || p->family != family)
		return false;
	if (p->port && p->port != port)
		return false;
	return prefix_match(addr, p->addr, p->prefix);
}

static bool name_pat_match(const sb_host_pat *p, const char *host, int port)
{
	if (p->port && p->port != port)
		return false;
	switch (p->kind) {
	case SB_HOST_ANY:
		return true;
	case SB_HOST_NAME:
		return !strcmp(p->name, host);
	case SB_HOST_SUFFIX: {
		size_t hl = strlen(host), sl = strlen(p->name);
		return hl > sl + 1 && host[hl - sl - 1] == '.' && !strcmp(host + hl - sl, p->name);
	}
	case SB_HOST_IP:
		return false;
	}
	return false;
}

long sb_egress_decide(const sb_egress *e, const sb_dest *d, bool *allowed)
{
	for (size_t i = e->n; i-- > 0;) {
		const sb_egress_rule *r = &e->v[i];
		bool m = r->all || (d->is_ip ? ip_pat_match(&r->pat, d->family, d->addr, d->port)
					     : name_pat_match(&r->pat, d->host, d->port));
		if (m) {
			*allowed = r->allow;
			return (long)i;
		}
	}
	*allowed = false;
	return -1;
}

bool sb_addr_is_internal(int family, const unsigned char *a)
{
	unsigned char v4[4];
	unmap(&family, &a, v4);
	if (family == 4) {
		static const struct { unsigned char net[4]; int len; } r4[] = {
			{ { 0, 0, 0, 0 }, 8 },        /* "this network" */
			{ { 10, 0, 0, 0 }, 8 },
			{ { 100, 64, 0, 0 }, 10 },    /* shared address space (CGNAT) */
			{ { 127, 0, 0, 0 }, 8 },
			{ { 169, 254, 0, 0 }, 16 },   /* link-local, cloud metadata */
			{ { 172, 16, 0, 0 }, 12 },
			{ { 192, 0, 0, 0 }, 24 },     /* IETF protocol assignments */
			{ { 192, 168, 0, 0 }, 16 },
			{ { 224, 0, 0, 0 }, 4 },      /* multicast */
			{ { 240, 0, 0, 0 }, 4 },      /* reserved, broadcast */
		};
		for (size_t i = 0; i < sizeof r4 / sizeof r4[0]; i++)
			if (prefix_match(a, r4[i].net, r4[i].len))
				return true;
		return false;
	}
	static const unsigned char zero[16] = { 0 };
	static const unsigned char one[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	static const unsigned char ula[16] = { 0xfc }, ll[16] = { 0xfe, 0x80 },
				   sitelocal[16] = { 0xfe, 0xc0 }, mc[16] = { 0xff },
				   nat64[16] = { 0, 0x64, 0xff, 0x9b },
				   nat64_local[16] = { 0, 0x64, 0xff, 0x9b, 0, 1 },
				   siit[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff },
				   six_to_four[16] = { 0x20, 0x02 }, teredo[16] = { 0x20, 0x01 };
	if (!memcmp(a, zero, 16) || !memcmp(a, one, 16))
		return true;
	if (prefix_match(a, ula, 7) || prefix_match(a, ll, 10) || prefix_match(a, sitelocal, 10) ||
	    prefix_match(a, mc, 8))
		return true;
	/* Forms that carry an IPv4 address are classified by the address they
	 * carry (a gateway or the stack may deliver them to it): IPv4-compatible
	 * ::a.b.c.d (RFC 4291 2.5.5.1), SIIT ::ffff:0:a.b.c.d (RFC 2765), NAT64
	 * 64:ff9b::/96 (RFC 6052), 6to4 2002:AABB:CCDD::/16 (RFC 3056) and
	 * Teredo 2001:0::/32, whose server is bits 32-63 and whose client is the
	 * last 32 bits inverted (RFC 4380 4).  The local-use NAT64 prefix
	 * 64:ff9b:1::/48 (RFC 8215) places the address anywhere: internal.  */
	if (prefix_match(a, zero, 96) || prefix_match(a, siit, 96) || prefix_match(a, nat64, 96))
		return sb_addr_is_internal(4, a + 12);
	if (prefix_match(a, nat64_local, 48))
		return true;
	if (prefix_match(a, six_to_four, 16))
		return sb_addr_is_internal(4, a + 2);
	if (prefix_match(a, teredo, 32)) {
		unsigned char client[4];
		for (int i = 0; i < 4; i++)
			client[i] = (unsigned char)~a[12 + i];
		return sb_addr_is_internal(4, a + 4) || sb_addr_is_internal(4, client);
	}
	return false;
}

long sb_egress_check_addr(const sb_egress *e, int family, const unsigned char *addr, int port,
			  bool *allowed, bool *internal)
{
	*internal = sb_addr_is_internal(family, addr);
	for (size_t i = e->n; i-- > 0;) {
		const sb_egress_rule *r = &e->v[i];
		if (!r->all && ip_pat_match(&r->pat, family, addr, port)) {
			*allowed = r->allow;
			return (long)i;
		}
	}
	*allowed = !*internal;
	return -1;
}
