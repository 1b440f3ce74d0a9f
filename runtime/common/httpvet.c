/* httpvet.c - request framing and host checks for the proxy (see
 * httpvet.h; RFC 9112 sections 2, 3, 6 and 7).  */
#include "runtime/common/httpvet.h"

#include <string.h>
#include <strings.h>

enum { LINE_MAX_CHUNK = 1024 };

void sb_hvet_init(sb_hvet *v, const char *host, int port, bool one_request)
{
	memset(v, 0, sizeof *v);
	v->state = SB_HV_HEAD;
	v->host = host;
	v->port = port;
	v->one_request = one_request;
}

static bool is_tchar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* The end of the line at p (its CR), or NULL.  */
static const char *line_end(const char *p, const char *end)
{
	for (const char *q = p; q + 1 < end; q++)
		if (q[0] == '\r' && q[1] == '\n')
			return q;
	return NULL;
}

const char *sb_hvet_lint(const char *head, size_t n)
{
	const char *end = head + n;
	if (n < 4 || memcmp(end - 4, "\r\n\r\n", 4) != 0)
		return "a request head must end with an empty line";
	for (const char *p = head; p < end; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '\r' && (p + 1 == end || p[1] != '\n'))
			return "a bare CR in the request head";
		if (c == '\n' && (p == head || p[-1] != '\r'))
			return "a bare LF in the request head";
		if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f)
			return "a control byte in the request head";
	}
	const char *p = line_end(head, end) + 2;   /* the request line's is there */
	while (p < end - 2) {
		const char *le = line_end(p, end);
		if (*p == ' ' || *p == '\t')
			return "a folded header line (obs-fold)";
		const char *q = p;
		while (q < le && is_tchar((unsigned char)*q))
			q++;
		if (q == p || q == le || *q != ':')
			return "a header line without NAME: (or space before the colon)";
		p = le + 2;
	}
	return NULL;
}

/* Header `name`: the number of such lines, the first one's trimmed value. */
static int header(const char *head, const char *end, const char *name, const char **val,
		  size_t *vlen)
{
	size_t nl = strlen(name);
	int count = 0;
	const char *p = line_end(head, end) + 2;
	while (p < end - 2) {
		const char *le = line_end(p, end);
		if ((size_t)(le - p) > nl && p[nl] == ':' && !strncasecmp(p, name, nl)) {
			const char *v = p + nl + 1, *ve = le;
			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			if (!count) {
				*val = v;
				*vlen = (size_t)(ve - v);
			}
			count++;
		}
		p = le + 2;
	}
	return count;
}

static const char *framing(sb_hvet *v, const char *head, size_t n)
{
	const char *end = head + n, *cl, *te;
	size_t cll = 0, tel = 0;
	int ncl = header(head, end, "content-length", &cl, &cll);
	int nte = header(head, end, "transfer-encoding", &te, &tel);
	if (nte) {
		if (ncl)
			return "Content-Length beside Transfer-Encoding";
		if (nte > 1 || tel != 7 || strncasecmp(te, "chunked", 7) != 0)
			return "a Transfer-Encoding other than chunked";
		v->state = SB_HV_CHUNK_SIZE;
		return NULL;
	}
	if (ncl > 1)
		return "more than one Content-Length";
	v->state = SB_HV_HEAD;
	v->left = 0;
	if (!ncl)
		return NULL;
	if (cll == 0 || cll > 18)
		return "an invalid Content-Length";
	uint64_t x = 0;
	for (size_t i = 0; i < cll; i++) {
		if (cl[i] < '0' || cl[i] > '9')
			return "an invalid Content-Length";
		x = x * 10 + (uint64_t)(cl[i] - '0');
	}
	if (x) {
		v->state = SB_HV_BODY;
		v->left = x;
	}
	return NULL;
}

/* "host[:port]" names the connection's host (and port, when given)?  */
static bool same_authority(const sb_hvet *v, const char *a, size_t n)
{
	size_t hl = strlen(v->host);
	if (n < hl || strncasecmp(a, v->host, hl) != 0)
		return false;
	if (n == hl)
		return true;
	if (a[hl] != ':' || n == hl + 1 || n - hl - 1 > 5)
		return false;
	int port = 0;
	for (size_t i = hl + 1; i < n; i++) {
		if (a[i] < '0' || a[i] > '9')
			return false;
		port = port * 10 + (a[i] - '0');
	}
	return port == v->port;
}

const char *sb_hvet_begin(sb_hvet *v, const char *head, size_t n)
{
	const char *why = framing(v, head, n);
	v->requests++;
	if (!why && v->one_request && v->state == SB_HV_HEAD)
		v->state = SB_HV_DONE;
	return why;
}

/* A request head inside a tunnel: it must ask the tunnel's host.  */
static const char *check_head(sb_hvet *v, const char *head, size_t n)
{
	const char *why = sb_hvet_lint(head, n);
	if (why)
		return why;
	const char *end = head + n, *le = line_end(head, end);
	const char *sp1 = memchr(head, ' ', (size_t)(le - head));
	const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(le - sp1 - 1)) : NULL;
	if (!sp1 || !sp2 || sp1 == head || sp2 == sp1 + 1 || memchr(sp2 + 1, ' ', (size_t)(le - sp2 - 1)) ||
	    le - sp2 - 1 != 8 || (memcmp(sp2 + 1, "HTTP/1.1", 8) && memcmp(sp2 + 1, "HTTP/1.0", 8)))
		return "not an HTTP/1.x request line";
	for (const char *q = head; q < sp1; q++)
		if (!is_tchar((unsigned char)*q))
			return "not an HTTP/1.x request line";
	if (sp1 - head == 7 && !memcmp(head, "CONNECT", 7))
		return "CONNECT inside a tunnel";
	const char *t = sp1 + 1;
	size_t tl = (size_t)(sp2 - t);
	if (tl > 7 && !strncasecmp(t, "http://", 7)) {
		size_t al = strcspn(t + 7, "/?# ");
		if (al > tl - 7 || !same_authority(v, t + 7, al))
			return "the request's URL names another host than the tunnel's";
	} else if (tl > 8 && !strncasecmp(t, "https://", 8)) {
		size_t al = strcspn(t + 8, "/?# ");
		if (al > tl - 8 || !same_authority(v, t + 8, al))
			return "the request's URL names another host than the tunnel's";
	} else if (*t != '/' && !(tl == 1 && *t == '*')) {
		return "not an HTTP/1.x request line";
	}
	const char *hv;
	size_t hvl = 0;
	int nhost = header(head, end, "host", &hv, &hvl);
	if (nhost != 1)
		return nhost ? "more than one Host header" : "no Host header";
	if (!same_authority(v, hv, hvl))
		return "the Host header names another host than the tunnel's";
	if ((why = framing(v, head, n)))
		return why;
	const char *up;
	size_t upl;
	if (header(head, end, "upgrade", &up, &upl)) {
		/* the answer says whether the rest is still HTTP: only for the
		 * first request, whose answer is the first the server sends */
		if (v->requests || v->state != SB_HV_HEAD)
			return "a protocol upgrade after other requests, or with a body";
		v->state = SB_HV_UPGRADE;
	}
	v->requests++;
	return NULL;
}

static long hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long sb_hvet_feed(sb_hvet *v, const char *b, size_t n, const char **why)
{
	const char *end = b + n;
	*why = NULL;
	if (!n)
		return 0;
	switch (v->state) {
	case SB_HV_OPAQUE:
	case SB_HV_DONE:
		return (long)n;
	case SB_HV_UPGRADE:
		return 0;
	case SB_HV_BODY:
	case SB_HV_CHUNK_DATA: {
		uint64_t k = v->left < n ? v->left : n;
		v->left -= k;
		if (!v->left)
			v->state = v->state == SB_HV_BODY
					   ? (v->one_request ? SB_HV_DONE : SB_HV_HEAD)
					   : SB_HV_CHUNK_END;
		return (long)k;
	}
	case SB_HV_CHUNK_END:
		if (n < 2)
			return 0;
		if (b[0] != '\r' || b[1] != '\n') {
			*why = "chunk data not followed by CRLF";
			return -1;
		}
		v->state = SB_HV_CHUNK_SIZE;
		return 2;
	case SB_HV_CHUNK_SIZE: {
		const char *le = line_end(b, end);
		if (!le) {
			if (n > LINE_MAX_CHUNK)
				*why = "a chunk-size line too long";
			return *why ? -1 : 0;
		}
		uint64_t x = 0;
		const char *q = b;
		for (; q < le && hexval(*q) >= 0; q++) {
			if (x >> 58) {
				*why = "a chunk size too large";
				return -1;
			}
			x = x * 16 + (uint64_t)hexval(*q);
		}
		if (q == b || (q < le && *q != ';')) {
			*why = "an invalid chunk-size line";
			return -1;
		}
		for (; q < le; q++)
			if ((unsigned char)*q < 0x20 && *q != '\t') {
				*why = "a control byte in a chunk extension";
				return -1;
			}
		v->left = x;
		v->state = x ? SB_HV_CHUNK_DATA : SB_HV_TRAILER;
		return le + 2 - b;
	}
	case SB_HV_TRAILER: {
		const char *le = line_end(b, end);
		if (!le) {
			if (n > LINE_MAX_CHUNK)
				*why = "a trailer line too long";
			return *why ? -1 : 0;
		}
		for (const char *q = b; q < le; q++)
			if (((unsigned char)*q < 0x20 && *q != '\t') || *q == '\n') {
				*why = "a control byte in a trailer";
				return -1;
			}
		if (le == b)
			v->state = v->one_request ? SB_HV_DONE : SB_HV_HEAD;
		return le + 2 - b;
	}
	case SB_HV_HEAD: {
		if (v->one_request) {
			v->state = SB_HV_DONE;
			return (long)n;
		}
		if (n >= 2 && b[0] == '\r' && b[1] == '\n')
			return 2;   /* an empty line before a request (RFC 9112 2.2) */
		if (b[0] == '\r' || b[0] == '\n') {
			if (n < 2)
				return 0;
			*why = "a bare CR or LF before a request";
			return -1;
		}
		const char *he = NULL;
		for (const char *q = b; q + 3 < end; q++)
			if (!memcmp(q, "\r\n\r\n", 4)) {
				he = q + 4;
				break;
			}
		if (memchr(b, '\0', he ? (size_t)(he - b) : n)) {
			*why = "a NUL byte in the request head";
			return -1;
		}
		if (!he)
			return 0;
		if ((*why = check_head(v, b, (size_t)(he - b))))
			return -1;
		return he - b;
	}
	}
	*why = "internal: unknown state";
	return -1;
}

void sb_hvet_answer(sb_hvet *v, const char *b, size_t n)
{
	if (v->state != SB_HV_UPGRADE)
		return;
	bool switched = n >= 12 && (!memcmp(b, "HTTP/1.1 101", 12) || !memcmp(b, "HTTP/1.0 101", 12));
	v->state = switched ? SB_HV_OPAQUE : SB_HV_HEAD;
}
