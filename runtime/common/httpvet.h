/* httpvet.h - the HTTP/1.x request stream of one proxy connection, framed
 * and checked request by request (docs/egress.md, "The proxy"): each request
 * head must name the host the connection was decided for, and the bodies are
 * framed (Content-Length, chunked) so that the next head is found where the
 * server will find it.  Heads are parsed strictly (CRLF only, no control
 * bytes, no obs-fold, no space before a colon, one Host, no Content-Length
 * beside Transfer-Encoding): what this parser and a lenient server could
 * read differently is refused, so a second request cannot hide inside the
 * first.  Used for plain HTTP inside a CONNECT tunnel, and for what follows
 * the one request of a plain proxy request.  */
#ifndef SB_HTTPVET_H
#define SB_HTTPVET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
	SB_HV_HEAD,         /* before a request head (leading CRLFs allowed) */
	SB_HV_BODY,         /* `left` bytes of a Content-Length body */
	SB_HV_CHUNK_SIZE,   /* a chunk-size line */
	SB_HV_CHUNK_DATA,   /* `left` bytes of chunk data */
	SB_HV_CHUNK_END,    /* the CRLF after chunk data */
	SB_HV_TRAILER,      /* trailer lines up to an empty one */
	SB_HV_UPGRADE,      /* after a request asking for an upgrade: held until
			     * the server's answer says whether it switched */
	SB_HV_OPAQUE,       /* the protocol was switched: bytes pass unparsed */
	SB_HV_DONE,         /* one_request: the request is complete; the rest
			     * is dropped */
} sb_hv_state;

typedef struct sb_hvet {
	sb_hv_state state;
	uint64_t left;
	unsigned requests;     /* heads accepted so far */
	bool one_request;      /* after the first request: SB_HV_DONE */
	const char *host;      /* the host the connection was decided for
				* ("[v6]" bracketed), borrowed */
	int port;
} sb_hvet;

void sb_hvet_init(sb_hvet *v, const char *host, int port, bool one_request);

/* The lines of a request head (request line to the empty line, CRLF
 * ended, `n` bytes, NUL-free) in strict form?  NULL, or why not.  */
const char *sb_hvet_lint(const char *head, size_t n);

/* A head accepted elsewhere (the proxy's own first request): set up the
 * framing of its body.  NULL, or why it is refused.  */
const char *sb_hvet_begin(sb_hvet *v, const char *head, size_t n);

/* Vet the bytes b[0..n) that follow what was vetted so far: returns how
 * many of them may be forwarded now (0: more bytes are needed), or -1 with
 * *why set.  A head is vetted only when it is complete in b.  Call again
 * with the rest while it returns > 0 and bytes remain.  */
long sb_hvet_feed(sb_hvet *v, const char *b, size_t n, const char **why);

/* SB_HV_UPGRADE: the first bytes of the server's answer (at least 12, or
 * all there were): a 101 switches to SB_HV_OPAQUE, anything else goes on
 * vetting requests.  */
void sb_hvet_answer(sb_hvet *v, const char *b, size_t n);

#endif
