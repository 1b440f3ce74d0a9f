/* proxy.c - the egress proxy (see proxy.h).  Each client connection moves
 * through: HEAD (read the request head, at most 16 KiB) -> decided: refused
 * (a 403/400 answer is written, then closed) or CONNECTING (non-blocking
 * connect to each allowed address in turn) -> RELAY (bytes both ways,
 * half-closes passed on) -> closed.  Names are resolved with getaddrinfo(),
 * synchronously (docs/egress.md: a slow resolver stalls the other
 * connections for that time).  */
#include "runtime/common/proxy.h"
#include "runtime/common/httpvet.h"
#include "runtime/common/textesc.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

enum { HEAD_MAX = 16384, BUF_SIZE = 65536, MAX_ADDRS = 16, MAX_CONNS = 1024 };

typedef enum { C_HEAD, C_CONNECTING, C_RELAY, C_ANSWER } conn_state;

/* One direction of a relay: bytes read from `from` waiting for `to`, in
 * `data` or, once the direction is spliced (Linux), in a kernel pipe.  */
typedef struct pipe_buf {
	char *data;
	size_t off, len;
	bool eof;          /* the reader saw end of stream */
	bool shut;         /* shutdown(SHUT_WR) passed on */
	int pr, pw;        /* the splice pipe, or -1 */
	size_t inpipe;     /* bytes in it */
	bool no_pipe;      /* pipe2 failed once: copy through `data` */
} pipe_buf;

typedef struct conn {
	conn_state state;
	int cfd, ufd;                  /* client, upstream (-1) */
	char head[HEAD_MAX + 1];
	size_t hlen;
	pipe_buf up, down;             /* client->upstream, upstream->client */
	struct sockaddr_storage addrs[MAX_ADDRS];
	socklen_t addrlens[MAX_ADDRS];
	size_t naddrs, next_addr;
	bool is_connect;               /* CONNECT: answer 200 once connected */
	bool sni_pending;              /* CONNECT: first client bytes not checked yet */
	/* Plain HTTP is framed and checked request by request (httpvet.h):
	 * inside a tunnel, and after the one request of a proxy request.
	 * `vetted` bytes from up.off on may be written upstream.  */
	bool vet;
	sb_hvet hv;
	size_t vetted;
	size_t down_seen;              /* bytes read from upstream so far */
	int port;
	char host[300];                /* the host the request named */
	char what[300];                /* "CONNECT host:port" for messages */
} conn;

struct sb_proxy {
	sb_proxy_cfg cfg;
	conn **conns;
	size_t n, cap;
	struct pollfd *pfds;
	size_t pcap;
};

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		abort();   /* out of memory: the proxy cannot continue meaningfully */
	return p;
}

static void set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
}

sb_proxy *sb_proxy_new(const sb_proxy_cfg *cfg)
{
	sb_proxy *p = xcalloc(1, sizeof *p);
	p->cfg = *cfg;
	set_nonblock(cfg->listen_fd);
	return p;
}

static void conn_free(conn *c)
{
	if (c->cfd >= 0)
		close(c->cfd);
	if (c->ufd >= 0)
		close(c->ufd);
	pipe_buf *bs[] = { &c->up, &c->down };
	for (size_t i = 0; i < 2; i++) {
		if (bs[i]->pr >= 0)
			close(bs[i]->pr);
		if (bs[i]->pw >= 0)
			close(bs[i]->pw);
	}
	free(c->up.data);
	free(c->down.data);
	free(c);
}

void sb_proxy_free(sb_proxy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		conn_free(p->conns[i]);
	free(p->conns);
	free(p->pfds);
	if (p->cfg.listen_fd >= 0)
		close(p->cfg.listen_fd);
	free(p);
}

/* ---- answers ---- */

/* Queue an answer to the client and close once it is written.  */
static void answer(conn *c, int code, const char *reason, const char *body)
{
	free(c->down.data);
	c->down.data = NULL;
	if (asprintf(&c->down.data,
		     "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
		     "Connection: close\r\n\r\n%s",
		     code, reason, strlen(body), body) < 0)
		abort();
	c->down.off = 0;
	c->down.len = strlen(c->down.data);
	c->state = C_ANSWER;
	if (c->ufd >= 0) {
		close(c->ufd);
		c->ufd = -1;
	}
}

/* Refused after the tunnel was established: only the log can say why.  */
static void refuse_log(sb_proxy *p, conn *c, const char *why)
{
	if (p->cfg.log) {
		fprintf(p->cfg.log, "%s egress: %s refused: %s\n", p->cfg.tool, c->what, why);
		fflush(p->cfg.log);
	}
}

static void refuse(sb_proxy *p, conn *c, int code, const char *reason, const char *why)
{
	char body[1500];
	snprintf(body, sizeof body, "%s egress: %s refused: %s\n", p->cfg.tool, c->what, why);
	if (p->cfg.log) {
		fputs(body, p->cfg.log);
		fflush(p->cfg.log);
	}
	answer(c, code, reason, body);
}

/* A refusal by a host rule, for the denial trace (proxy.h).  */
static void trace_refusal(sb_proxy *p, const char *host, int port, const char *why)
{
	if (p->cfg.trace_fd < 0)
		return;
	char rec[1600];
	int n = snprintf(rec, sizeof rec, "%s\t%d\t%s", host, port, why);
	if (n > 0)
		(void)send(p->cfg.trace_fd, rec, (size_t)n < sizeof rec ? (size_t)n : sizeof rec - 1,
			   MSG_DONTWAIT | MSG_NOSIGNAL);
}

int sb_proxy_trace_parse(char *msg, size_t len, const char **host, int *port,
			 const char **why)
{
	if (len == 0 || memchr(msg, '\0', len))
		return -1;
	msg[len] = '\0';
	char *t1 = strchr(msg, '\t');
	char *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
	if (!t1 || !t2 || t1 == msg)
		return -1;
	*t1 = *t2 = '\0';
	char *end;
	long v = strtol(t1 + 1, &end, 10);
	if (end == t1 + 1 || *end || v < 0 || v > 65535)
		return -1;
	*host = msg;
	*port = (int)v;
	*why = t2 + 1;
	return 0;
}

/* "policy.sbx:3 (network off)" / "policy.sbx:4 (network deny "x")".  */
static void rule_text(const sb_egress *e, long i, char *buf, size_t size)
{
	if (i < 0) {
		snprintf(buf, size, "no network rule allows it");
		return;
	}
	const sb_egress_rule *r = &e->v[i];
	char *o = r->origin ? sb_origin_where(r->origin) : NULL;
	if (r->all) {
		snprintf(buf, size, "%s: network %s", o ? o : "the profile", r->allow ? "on" : "off");
		free(o);
		return;
	}
	char *t = sb_host_pat_text(&r->pat);
	snprintf(buf, size, "%s: network %s \"%s\"", o ? o : "the profile",
		 r->allow ? "allow" : "deny", t);
	free(t);
	free(o);
}

/* ---- request heads ---- */

static char *head_end(conn *c)
{
	c->head[c->hlen] = '\0';
	return memmem(c->head, c->hlen, "\r\n\r\n", 4);
}

/* Split "host:port" / "[v6]:port" / "host" (default_port).  */
static int split_authority(const char *a, size_t n, char *host, size_t hsize, int *port,
			   int default_port)
{
	char buf[300];
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, a, n);
	buf[n] = '\0';
	char *colon = NULL;
	if (buf[0] == '[') {
		char *close = strchr(buf, ']');
		if (!close)
			return -1;
		if (close[1] == ':')
			colon = close + 1;
		else if (close[1])
			return -1;
	} else {
		colon = strrchr(buf, ':');
		if (colon && strchr(buf, ':') != colon)
			return -1;   /* bare IPv6 needs brackets in a URL */
	}
	*port = default_port;
	if (colon) {
		*colon = '\0';
		char *end;
		long v = strtol(colon + 1, &end, 10);
		if (!colon[1] || *end || v < 1 || v > 65535)
			return -1;
		*port = (int)v;
	}
	if (strlen(buf) >= hsize || !buf[0])
		return -1;
	strcpy(host, buf);
	return 0;
}

/* The value of header `name` in the head (lines after the first), or NULL;
 * `*count` the number of such headers.  */
static const char *header_value(const char *head, const char *name, size_t *vlen, int *count)
{
	const char *line = strstr(head, "\r\n");
	const char *found = NULL;
	size_t nl = strlen(name);
	*count = 0;
	while (line && line[2] && !(line[2] == '\r' && line[3] == '\n')) {
		line += 2;
		const char *eol = strstr(line, "\r\n");
		if (!eol)
			break;
		if ((size_t)(eol - line) > nl && !strncasecmp(line, name, nl) && line[nl] == ':') {
			const char *v = line + nl + 1;
			while (*v == ' ' || *v == '\t')
				v++;
			const char *ve = eol;
			while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			if (!found) {
				found = v;
				*vlen = (size_t)(ve - v);
			}
			(*count)++;
		}
		line = eol;
	}
	return found;
}

static bool hop_by_hop(const char *line, size_t n)
{
	static const char *const names[] = { "connection", "proxy-connection", "keep-alive",
					     "proxy-authorization", "proxy-authenticate", "te",
					     "trailer", "upgrade" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		size_t k = strlen(names[i]);
		if (n > k && line[k] == ':' && !strncasecmp(line, names[i], k))
			return true;
	}
	return false;
}

/* Decide and resolve: fills c->addrs.  Returns 0, or -1 after refusing.  */
static int decide(sb_proxy *p, conn *c, const char *host, int port)
{
	const sb_egress *e = p->cfg.egress;
	sb_dest d;
	const char *why;
	char rt[400], msg[1024];
	if (sb_dest_parse(host, port, &d, &why) < 0) {
		snprintf(msg, sizeof msg, "invalid host: %s", why);
		refuse(p, c, 400, "Bad Request", msg);
		return -1;
	}
	bool ok;
	long i = sb_egress_decide(e, &d, &ok);
	if (!ok) {
		rule_text(e, i, rt, sizeof rt);
		snprintf(msg, sizeof msg, "denied by %s", rt);
		trace_refusal(p, d.host, port, msg);
		refuse(p, c, 403, "Forbidden", msg);
		return -1;
	}
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV };
	hints.ai_flags |= d.is_ip ? AI_NUMERICHOST : 0;
	char portstr[8];
	snprintf(portstr, sizeof portstr, "%d", port);
	struct addrinfo *res = NULL;
	int g = getaddrinfo(d.host, portstr, &hints, &res);
	if (g != 0) {
		snprintf(msg, sizeof msg, "cannot resolve %s: %s", d.host, gai_strerror(g));
		refuse(p, c, 502, "Bad Gateway", msg);
		return -1;
	}
	c->naddrs = 0;
	char refused_addr[INET6_ADDRSTRLEN] = "";
	long refused_rule = -1;
	bool refused_internal = false;
	for (struct addrinfo *a = res; a && c->naddrs < MAX_ADDRS; a = a->ai_next) {
		const unsigned char *raw;
		int fam;
		if (a->ai_family == AF_INET) {
			raw = (const unsigned char *)&((struct sockaddr_in *)a->ai_addr)->sin_addr;
			fam = 4;
		} else if (a->ai_family == AF_INET6) {
			raw = (const unsigned char *)&((struct sockaddr_in6 *)a->ai_addr)->sin6_addr;
			fam = 6;
		} else {
			continue;
		}
		bool allowed, internal;
		long r = sb_egress_check_addr(e, fam, raw, port, &allowed, &internal);
		if (!allowed) {
			inet_ntop(fam == 6 ? AF_INET6 : AF_INET, raw, refused_addr, sizeof refused_addr);
			refused_rule = r;
			refused_internal = internal;
			continue;
		}
		memcpy(&c->addrs[c->naddrs], a->ai_addr, a->ai_addrlen);
		c->addrlens[c->naddrs++] = a->ai_addrlen;
	}
	freeaddrinfo(res);
	if (!c->naddrs) {
		if (refused_rule >= 0) {
			rule_text(e, refused_rule, rt, sizeof rt);
			snprintf(msg, sizeof msg, "%s resolves to %s, denied by %s", d.host,
				 refused_addr, rt);
		} else if (refused_internal) {
			snprintf(msg, sizeof msg,
				 "%s resolves to %s, an internal address (loopback, private, "
				 "link-local or similar) that no IP/CIDR rule of the policy allows",
				 d.host, refused_addr);
		} else {
			snprintf(msg, sizeof msg, "%s has no usable address", d.host);
		}
		if (refused_rule >= 0 || refused_internal)
			trace_refusal(p, d.host, port, msg);
		refuse(p, c, 403, "Forbidden", msg);
		return -1;
	}
	return 0;
}

static void start_connect(sb_proxy *p, conn *c);

/* "CONNECT host:port" for messages: the target comes from the sandboxed
 * side, so it is escaped (textesc.h) and cut.  */
static void set_what(conn *c, const char *prefix, const char *target)
{
	char esc[260];
	sb_text_escape(esc, sizeof esc, target, strnlen(target, 250));
	snprintf(c->what, sizeof c->what, "%s%s", prefix, esc);
}

/* Parse a complete head.  */
static void on_head(sb_proxy *p, conn *c, char *end)
{
	char *eol = strstr(c->head, "\r\n");
	char method[32], target[8192], version[16];
	size_t llen = (size_t)(eol - c->head);
	snprintf(c->what, sizeof c->what, "request");
	if (llen >= sizeof target || sscanf(c->head, "%31s %8191s %15s", method, target, version) != 3 ||
	    strncmp(version, "HTTP/1.", 7) != 0) {
		refuse(p, c, 400, "Bad Request", "not an HTTP/1.x proxy request");
		return;
	}
	/* strict lines: what a lenient server would split differently (a
	 * bare LF, a folded line) could carry a second Host */
	const char *bad = sb_hvet_lint(c->head, (size_t)(end + 4 - c->head));
	if (bad) {
		refuse(p, c, 400, "Bad Request", bad);
		return;
	}
	char host[300];
	int port;
	size_t rest = c->hlen - (size_t)(end + 4 - c->head);
	if (!strcasecmp(method, "CONNECT")) {
		set_what(c, "CONNECT ", target);
		if (split_authority(target, strlen(target), host, sizeof host, &port, -1) < 0 ||
		    port < 0) {
			refuse(p, c, 400, "Bad Request", "CONNECT needs HOST:PORT");
			return;
		}
		if (decide(p, c, host, port) < 0)
			return;
		c->is_connect = true;
		c->sni_pending = true;
		c->port = port;
		snprintf(c->host, sizeof c->host, "%s", host);
		/* bytes sent before the 200 (an eager ClientHello) go upstream */
		c->up.len = rest;
		memcpy(c->up.data, end + 4, rest);
		start_connect(p, c);
		return;
	}
	char mtext[40];
	snprintf(mtext, sizeof mtext, "%.20s ", method);
	set_what(c, mtext, target);
	if (strncasecmp(target, "http://", 7) != 0) {
		refuse(p, c, 400, "Bad Request",
		       strncasecmp(target, "https://", 8) == 0
			       ? "https URLs go through CONNECT"
			       : "a proxy request names an absolute http:// URL");
		return;
	}
	const char *auth = target + 7;
	size_t alen = strcspn(auth, "/?#");
	if (memchr(auth, '@', alen)) {
		refuse(p, c, 400, "Bad Request", "credentials in the URL are not forwarded");
		return;
	}
	if (split_authority(auth, alen, host, sizeof host, &port, 80) < 0) {
		refuse(p, c, 400, "Bad Request", "invalid host in the URL");
		return;
	}
	/* The Host header must name the URL's host: a server behind the
	 * allowed address must not be asked for another one.  */
	size_t vlen = 0;
	int nhost = 0;
	const char *hv = header_value(c->head, "host", &vlen, &nhost);
	if (nhost > 1 || (hv && (vlen != alen || strncasecmp(hv, auth, alen) != 0))) {
		refuse(p, c, 400, "Bad Request", "the Host header does not match the URL's host");
		return;
	}
	if (decide(p, c, host, port) < 0)
		return;
	/* Rewrite the head: origin-form request line, hop-by-hop headers
	 * dropped, one request per connection.  The body follows unchanged.  */
	const char *path = auth + alen;
	char *out = NULL;
	size_t olen = 0;
	FILE *f = open_memstream(&out, &olen);
	if (!f)
		abort();
	fprintf(f, "%s %s%s %s\r\n", method, *path == '/' ? "" : "/", path, version);
	if (!hv)
		fprintf(f, "Host: %.*s\r\n", (int)alen, auth);
	for (char *line = eol + 2; line < end + 2;) {
		char *le = strstr(line, "\r\n");
		if (!hop_by_hop(line, (size_t)(le - line)))
			fwrite(line, 1, (size_t)(le - line) + 2, f);
		line = le + 2;
	}
	fputs("Connection: close\r\n\r\n", f);
	fwrite(end + 4, 1, rest, f);
	fclose(f);
	if (olen > BUF_SIZE) {
		free(out);
		refuse(p, c, 400, "Bad Request", "request head too large");
		return;
	}
	memcpy(c->up.data, out, olen);
	c->up.len = olen;
	free(out);
	/* One request per connection: its body is framed, and what follows
	 * it (a pipelined request, possibly for another host of the same
	 * server) is dropped, never sent.  */
	snprintf(c->host, sizeof c->host, "%s", host);
	c->port = port;
	sb_hvet_init(&c->hv, c->host, port, true);
	if ((bad = sb_hvet_begin(&c->hv, c->head, (size_t)(end + 4 - c->head)))) {
		refuse(p, c, 400, "Bad Request", bad);
		return;
	}
	c->vet = true;
	c->vetted = olen - rest;
	start_connect(p, c);
}

static void start_connect(sb_proxy *p, conn *c)
{
	while (c->next_addr < c->naddrs) {
		size_t k = c->next_addr++;
		struct sockaddr *sa = (struct sockaddr *)&c->addrs[k];
		int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0)
			continue;
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		if (connect(fd, sa, c->addrlens[k]) == 0 || errno == EINPROGRESS) {
			c->ufd = fd;
			c->state = C_CONNECTING;
			return;
		}
		close(fd);
	}
	refuse(p, c, 502, "Bad Gateway", "cannot connect to any address of the host");
}

static void on_connected(sb_proxy *p, conn *c)
{
	int err = 0;
	socklen_t el = sizeof err;
	if (getsockopt(c->ufd, SOL_SOCKET, SO_ERROR, &err, &el) < 0 || err) {
		close(c->ufd);
		c->ufd = -1;
		start_connect(p, c);
		return;
	}
	c->state = C_RELAY;
	if (c->is_connect) {
		static const char ok[] = "HTTP/1.1 200 Connection established\r\n\r\n";
		memcpy(c->down.data, ok, sizeof ok - 1);
		c->down.len = sizeof ok - 1;
	}
}

/* ---- the TLS server name ---- */

/* The server name of a TLS ClientHello at the start of `b` (RFC 8446 4.1.2,
 * RFC 6066 3): 1 with the name in `out`, 0 when there is none (or the bytes
 * are not TLS), -1 when more bytes are needed, -2 when malformed.  */
static int client_hello_sni(const unsigned char *b, size_t n, char *out, size_t size)
{
	if (n < 1)
		return -1;
	if (b[0] != 0x16)
		return 0;   /* not a TLS handshake: nothing to compare */
	if (n < 5)
		return -1;
	size_t rec = (size_t)b[3] << 8 | b[4];
	if (n < 5 + rec)
		return rec + 5 > BUF_SIZE ? -2 : -1;
	const unsigned char *p = b + 5, *end = b + 5 + rec;
	if (end - p < 4 || p[0] != 0x01)
		return -2;
	size_t hs = (size_t)p[1] << 16 | (size_t)p[2] << 8 | p[3];
	p += 4;
	if ((size_t)(end - p) < hs)
		return -2;   /* a ClientHello split over records: refused */
	end = p + hs;
#define NEED(k) do { if ((size_t)(end - p) < (size_t)(k)) return -2; } while (0)
	NEED(34);
	p += 34;                        /* version, random */
	NEED(1);
	p += 1 + p[0];                  /* session id */
	NEED(2);
	p += 2 + ((size_t)p[0] << 8 | p[1]);   /* cipher suites */
	NEED(1);
	p += 1 + p[0];                  /* compression methods */
	if (p == end)
		return 0;
	NEED(2);
	size_t extlen = (size_t)p[0] << 8 | p[1];
	p += 2;
	NEED(extlen);
	const unsigned char *xend = p + extlen;
	while (xend - p >= 4) {
		unsigned type = (unsigned)p[0] << 8 | p[1];
		size_t len = (size_t)p[2] << 8 | p[3];
		p += 4;
		if ((size_t)(xend - p) < len)
			return -2;
		if (type == 0) {        /* server_name */
			const unsigned char *q = p + 2, *qend = p + len;
			while (qend - q >= 3) {
				size_t nl = (size_t)q[1] << 8 | q[2];
				if ((size_t)(qend - q - 3) < nl)
					return -2;
				if (q[0] == 0) {   /* host_name */
					if (nl == 0 || nl >= size)
						return -2;
					memcpy(out, q + 3, nl);
					out[nl] = '\0';
					return 1;
				}
				q += 3 + nl;
			}
			return -2;
		}
		p += len;
	}
#undef NEED
	return 0;
}

/* Does CONNECT name an IP address (no name a server could tell apart)?  */
static bool host_is_ip(const char *host)
{
	unsigned char a[16];
	char buf[300];
	size_t n = strlen(host);
	if (host[0] == '[' && n > 2 && n < sizeof buf) {
		memcpy(buf, host + 1, n - 2);
		buf[n - 2] = '\0';
		return inet_pton(AF_INET6, buf, a) == 1;
	}
	return inet_pton(AF_INET, host, a) == 1;
}

static bool is_tchar(unsigned char ch)
{
	return isalnum(ch) || (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

/* Plain HTTP at the start of a tunnel?  1 yes, 0 no, -1 more bytes are
 * needed.  A first line (after empty ones) that reads as TOKEN SP ... and
 * holds "HTTP/" is HTTP; a control byte or a first byte that cannot start
 * a method says it is not.  */
static int looks_like_http(const unsigned char *b, size_t n, bool eof)
{
	size_t i = 0;
	while (i < n && (b[i] == '\r' || b[i] == '\n'))
		i++;
	if (i < n && !is_tchar(b[i]))
		return 0;
	size_t line = i;
	for (; i < n && b[i] != '\n'; i++)
		if ((b[i] < 0x20 && b[i] != '\r' && b[i] != '\t') || b[i] == 0x7f)
			return 0;
	if (i == n && !eof && n < BUF_SIZE)
		return -1;   /* the first line is not complete yet */
	for (size_t k = line; k + 5 <= i; k++)
		if (!strncasecmp((const char *)b + k, "HTTP/", 5))
			return 1;
	return 0;
}

/* The first bytes of a CONNECT tunnel decide how it is checked, so that a
 * server behind an allowed address cannot be asked for another name: a TLS
 * ClientHello must name the host CONNECT named (without a server name only
 * when CONNECT named an IP address); plain HTTP is framed and checked
 * request by request (httpvet.h); anything else is relayed unchanged.
 * True when relaying may go on.  */
static bool check_sni(sb_proxy *p, conn *c)
{
	const unsigned char *b = (const unsigned char *)c->up.data + c->up.off;
	size_t n = c->up.len - c->up.off;
	if (b[0] != 0x16) {
		int h = looks_like_http(b, n, c->up.eof);
		if (h < 0)
			return true;
		if (h > 0) {
			sb_hvet_init(&c->hv, c->host, c->port, false);
			c->vet = true;
			c->vetted = 0;
		}
		c->sni_pending = false;
		return true;
	}
	char sni[256];
	int r = client_hello_sni(b, n, sni, sizeof sni);
	if (r == -1 && !c->up.eof)
		return true;   /* wait for the rest of the ClientHello */
	if (r == -1 || r == -2) {
		refuse_log(p, c, "malformed or split TLS ClientHello");
		return false;
	}
	if (r == 0 && !host_is_ip(c->host)) {
		refuse_log(p, c, "a TLS ClientHello without a server name (SNI): the server could "
				 "answer for any of its names; allowed only when CONNECT names an IP "
				 "address");
		return false;
	}
	if (r == 1) {
		size_t sl = strlen(sni);
		if (sl && sni[sl - 1] == '.')
			sni[sl - 1] = '\0';
		if (strcasecmp(sni, c->host) != 0) {
			char msg[1400], esc[1100];
			sb_text_escape(esc, sizeof esc, sni, strlen(sni));
			snprintf(msg, sizeof msg, "TLS server name \"%s\" differs from the host CONNECT named",
				 esc);
			refuse_log(p, c, msg);
			return false;
		}
	}
	c->sni_pending = false;
	return true;
}

/* ---- relaying ---- */

/* Relayed bytes go through a kernel pipe with splice(2) on Linux: no copy
 * through the proxy's memory, and up to PIPE_CAP bytes per call instead of
 * BUF_SIZE (docs/benchmarks.md, section 9, measured both).  A direction is
 * spliced once its buffer is empty and nothing needs to look at the bytes
 * (the ClientHello check reads the first client bytes from `data`).  */
#ifdef __linux__
enum { PIPE_CAP = 1 << 20 };

static bool spliced(pipe_buf *b, bool may_splice)
{
	if (b->pr >= 0)
		return true;
	if (!may_splice || b->no_pipe || b->off != b->len)
		return false;
	int fds[2];
	if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) {
		b->no_pipe = true;   /* out of descriptors: copy instead */
		return false;
	}
	/* a larger pipe where allowed (fs.pipe-max-size); 64 KiB otherwise */
	fcntl(fds[1], F_SETPIPE_SZ, PIPE_CAP);
	b->pr = fds[0];
	b->pw = fds[1];
	return true;
}

static size_t pipe_room(const pipe_buf *b)
{
	return b->inpipe < PIPE_CAP ? PIPE_CAP - b->inpipe : 0;
}
#else
enum { PIPE_CAP = 0 };
static size_t pipe_room(const pipe_buf *b)
{
	(void)b;
	return 0;   /* no pipe without splice(2): pr stays -1 */
}
static bool spliced(pipe_buf *b, bool may_splice)
{
	(void)b;
	(void)may_splice;
	return false;
}
#endif

/* Bytes read and not yet written, and whether there is room to read.  */
static size_t pending(const pipe_buf *b)
{
	return b->len - b->off + b->inpipe;
}

static bool has_room(const pipe_buf *b)
{
	if (b->eof)
		return false;
	if (b->pr >= 0)
		return pipe_room(b) > 0;
	return b->len < BUF_SIZE || b->off == b->len;
}

/* Read into b from fd; false on a hard error.  */
static bool fill(pipe_buf *b, int fd, bool may_splice)
{
	if (b->off == b->len)
		b->off = b->len = 0;
	if (b->eof)
		return true;
#ifdef __linux__
	if (spliced(b, may_splice)) {
		size_t room = pipe_room(b);
		if (!room)
			return true;
		ssize_t n = splice(fd, NULL, b->pw, NULL, room, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n > 0)
			b->inpipe += (size_t)n;
		else if (n == 0)
			b->eof = true;
		else if (errno != EAGAIN && errno != EINTR)
			return false;
		return true;
	}
#else
	(void)spliced(b, may_splice);
#endif
	if (b->len == BUF_SIZE)
		return true;
	ssize_t n = read(fd, b->data + b->len, BUF_SIZE - b->len);
	if (n > 0)
		b->len += (size_t)n;
	else if (n == 0)
		b->eof = true;
	else if (errno != EAGAIN && errno != EINTR)
		return false;
	return true;
}

/* Write from b to fd; false on a hard error.  */
static bool drain(pipe_buf *b, int fd, size_t limit)
{
	if (b->off < b->len && limit) {
		size_t k = b->len - b->off < limit ? b->len - b->off : limit;
		ssize_t n = send(fd, b->data + b->off, k, MSG_NOSIGNAL);
		if (n > 0)
			b->off += (size_t)n;
		else if (n < 0 && errno != EAGAIN && errno != EINTR)
			return false;
	}
	if (b->off == b->len)
		b->off = b->len = 0;   /* room again for the reader */
#ifdef __linux__
	if (b->off == b->len && b->inpipe) {
		ssize_t n = splice(b->pr, NULL, fd, NULL, b->inpipe, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n > 0)
			b->inpipe -= (size_t)n;
		else if (n < 0 && errno != EAGAIN && errno != EINTR)
			return false;
	}
#endif
	if (pending(b) == 0 && b->eof && !b->shut) {
		shutdown(fd, SHUT_WR);
		b->shut = true;
	}
	return true;
}

static bool relay_done(const conn *c)
{
	return c->up.shut && c->down.shut;
}

/* Vet the client's bytes not vetted yet (httpvet.h).  False when the
 * connection is refused.  */
static bool vet_up(sb_proxy *p, conn *c)
{
	pipe_buf *b = &c->up;
	if (b->off && b->off < b->len) {
		memmove(b->data, b->data + b->off, b->len - b->off);
		b->len -= b->off;
		b->off = 0;
	}
	for (;;) {
		size_t have = b->len - b->off - c->vetted;
		if (!have)
			break;
		if (c->hv.state == SB_HV_DONE) {
			b->len = b->off + c->vetted;   /* after the one request: dropped */
			break;
		}
		const char *why;
		long k = sb_hvet_feed(&c->hv, b->data + b->off + c->vetted, have, &why);
		if (k < 0) {
			char esc[200];
			sb_text_escape(esc, sizeof esc, why, strlen(why));
			refuse_log(p, c, esc);
			return false;
		}
		if (k == 0) {
			if (b->len == BUF_SIZE && b->off == 0 && c->hv.state != SB_HV_DONE) {
				refuse_log(p, c, "a request head larger than the buffer, or bytes held "
						 "while an upgrade is answered");
				return false;
			}
			if (b->eof)
				b->len = b->off + c->vetted;   /* an incomplete request: never sent */
			break;
		}
		c->vetted += (size_t)k;
	}
	if (c->hv.state == SB_HV_OPAQUE && c->vetted == b->len - b->off)
		c->vet = false;   /* the protocol was switched: relayed as it comes */
	return true;
}

/* A request asked for a protocol upgrade: the first bytes of the answer
 * (peeked, not read) say whether the rest is still HTTP.  */
static void peek_answer(conn *c)
{
	char a[12];
	if (c->down_seen) {
		sb_hvet_answer(&c->hv, "", 0);   /* bytes came before: not its answer */
		return;
	}
	ssize_t k = recv(c->ufd, a, sizeof a, MSG_PEEK | MSG_DONTWAIT);
	if (k == (ssize_t)sizeof a || k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR))
		sb_hvet_answer(&c->hv, a, k > 0 ? (size_t)k : 0);
}

/* ---- the loop ---- */

static void accept_all(sb_proxy *p)
{
	for (;;) {
		int fd = accept(p->cfg.listen_fd, NULL, NULL);
		if (fd < 0)
			return;
		if (p->n >= MAX_CONNS) {
			close(fd);
			continue;
		}
		set_nonblock(fd);
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		conn *c = xcalloc(1, sizeof *c);
		c->cfd = fd;
		c->ufd = -1;
		c->up.data = xcalloc(1, BUF_SIZE);
		c->down.data = xcalloc(1, BUF_SIZE);
		c->up.pr = c->up.pw = c->down.pr = c->down.pw = -1;
		if (p->n == p->cap) {
			p->cap = p->cap ? 2 * p->cap : 16;
			conn **v = realloc(p->conns, p->cap * sizeof *v);
			if (!v)
				abort();
			p->conns = v;
		}
		p->conns[p->n++] = c;
	}
}

/* Advance one connection after poll; false when it is finished.  */
static bool step(sb_proxy *p, conn *c, short cre, short ure)
{
	switch (c->state) {
	case C_HEAD: {
		if (!(cre & (POLLIN | POLLHUP | POLLERR)))
			return true;
		ssize_t n = read(c->cfd, c->head + c->hlen, HEAD_MAX - c->hlen);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			return false;
		if (n < 0)
			return true;
		c->hlen += (size_t)n;
		if (memchr(c->head, '\0', c->hlen)) {
			/* strstr would stop at it and the head never end */
			snprintf(c->what, sizeof c->what, "request");
			refuse(p, c, 400, "Bad Request", "a NUL byte in the request head");
			return true;
		}
		char *end = head_end(c);
		if (end)
			on_head(p, c, end);
		else if (c->hlen == HEAD_MAX) {
			snprintf(c->what, sizeof c->what, "request");
			refuse(p, c, 431, "Request Header Fields Too Large", "request head too large");
		}
		return true;
	}
	case C_CONNECTING:
		if (ure & (POLLOUT | POLLERR | POLLHUP))
			on_connected(p, c);
		return true;
	case C_ANSWER:
		if (!drain(&c->down, c->cfd, SIZE_MAX))
			return false;
		return c->down.off < c->down.len;
	case C_RELAY: {
		if ((cre & (POLLIN | POLLHUP | POLLERR)) &&
		    !fill(&c->up, c->cfd, !c->sni_pending && !c->vet))
			return false;
		bool holding = c->vet && c->hv.state == SB_HV_UPGRADE;
		if (holding && (ure & (POLLIN | POLLHUP | POLLERR)))
			peek_answer(c);
		holding = c->vet && c->hv.state == SB_HV_UPGRADE;
		size_t before = pending(&c->down);
		if (!holding && (ure & (POLLIN | POLLHUP | POLLERR)) && !fill(&c->down, c->ufd, true))
			return false;
		c->down_seen += pending(&c->down) - before;
		if (c->sni_pending && c->up.len > c->up.off && !check_sni(p, c))
			return false;
		if (c->sni_pending && c->up.eof && c->up.len == c->up.off)
			c->sni_pending = false;
		if (c->vet && !c->sni_pending && !vet_up(p, c))
			return false;
		if (!c->sni_pending) {
			size_t was = pending(&c->up);
			if (!drain(&c->up, c->ufd, c->vet ? c->vetted : SIZE_MAX))
				return false;
			if (c->vet)
				c->vetted -= was - pending(&c->up);
		}
		if (!drain(&c->down, c->cfd, SIZE_MAX))
			return false;
		return !relay_done(c);
	}
	}
	return false;
}

static short client_events(const conn *c)
{
	switch (c->state) {
	case C_HEAD: return POLLIN;
	case C_CONNECTING: return 0;
	case C_ANSWER: return POLLOUT;
	case C_RELAY: {
		short ev = 0;
		if (has_room(&c->up))
			ev |= POLLIN;
		if (pending(&c->down))
			ev |= POLLOUT;
		return ev;
	}
	}
	return 0;
}

static short upstream_events(const conn *c)
{
	if (c->ufd < 0)
		return 0;
	if (c->state == C_CONNECTING)
		return POLLOUT;
	if (c->state != C_RELAY)
		return 0;
	short ev = 0;
	if (has_room(&c->down))
		ev |= POLLIN;
	if ((c->vet ? c->vetted : pending(&c->up)) && !c->sni_pending)
		ev |= POLLOUT;
	return ev;
}

int sb_proxy_run(sb_proxy *p, const int *watch, size_t nwatch)
{
	for (;;) {
		size_t need = nwatch + 1 + 2 * p->n;
		if (need > p->pcap) {
			p->pcap = need * 2;
			free(p->pfds);
			p->pfds = xcalloc(p->pcap, sizeof *p->pfds);
		}
		struct pollfd *f = p->pfds;
		for (size_t i = 0; i < nwatch; i++)
			f[i] = (struct pollfd){ .fd = watch[i], .events = POLLIN };
		f[nwatch] = (struct pollfd){ .fd = p->cfg.listen_fd, .events = POLLIN };
		for (size_t i = 0; i < p->n; i++) {
			const conn *c = p->conns[i];
			short ce = client_events(c), ue = upstream_events(c);
			/* a negative fd is ignored by poll: nothing to wait for (so a
			 * hung-up socket we do not read cannot wake the loop) */
			f[nwatch + 1 + 2 * i] = (struct pollfd){ .fd = ce ? c->cfd : -1, .events = ce };
			f[nwatch + 2 + 2 * i] =
				(struct pollfd){ .fd = ue ? c->ufd : -1, .events = ue };
		}
		if (poll(f, need, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (size_t i = 0; i < nwatch; i++)
			if (f[i].revents)
				return (int)i;
		size_t k = 0;
		for (size_t i = 0; i < p->n; i++) {
			conn *c = p->conns[i];
			short cre = f[nwatch + 1 + 2 * i].revents, ure = f[nwatch + 2 + 2 * i].revents;
			if (!step(p, c, cre, ure)) {
				conn_free(c);
				continue;
			}
			p->conns[k++] = c;
		}
		p->n = k;
		if (f[nwatch].revents & POLLIN)
			accept_all(p);
	}
}

void sb_proxy_env(sb_envvec *env, const char *url)
{
	static const char *const names[] = { "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
					     "http_proxy", "https_proxy", "all_proxy" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		sb_envvec_set(env, names[i], url);
	sb_envvec_set(env, "NO_PROXY", "localhost,127.0.0.1,::1");
	sb_envvec_set(env, "no_proxy", "localhost,127.0.0.1,::1");
	sb_envvec_set(env, "NODE_USE_ENV_PROXY", "1");
}
