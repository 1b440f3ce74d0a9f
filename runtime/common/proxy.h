/* proxy.h - the egress proxy: HTTP CONNECT (TLS and anything else) and plain
 * HTTP forwarding, each request decided by host name against a profile's
 * egress list (compiler/ir/egress.h), the addresses a name resolves to
 * checked against the internal ranges.  One process, poll(), no threads;
 * bytes are relayed unchanged (a plain HTTP request gets its request line in
 * origin form, its hop-by-hop headers dropped and "Connection: close").
 * Design and limits: docs/egress.md.  */
#ifndef SB_PROXY_H
#define SB_PROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "compiler/ir/egress.h"
#include "runtime/common/env.h"

/* The address the sandboxed tree reaches the proxy at (inside its own
 * network namespace on Linux).  */
#define SB_PROXY_HOST "127.0.0.1"
enum { SB_PROXY_PORT = 3128 };
#define SB_PROXY_PORT_TEXT "3128"

typedef struct sb_proxy sb_proxy;

typedef struct sb_proxy_cfg {
	const sb_egress *egress;   /* borrowed; outlives the proxy */
	int listen_fd;             /* a listening stream socket; the proxy owns it */
	FILE *log;                 /* one line per refused request */
	const char *tool;          /* the program ("sbrun", "omp-sandboxed"): the log lines
				    * begin with it */
	/* The denial trace (runtime/common/denial.h) is on: one datagram per
	 * request refused by a host rule, "HOST\tPORT\tWHY", sent without
	 * blocking (a slow tracer never stalls the proxy; a full queue drops
	 * it).  -1: none.  Borrowed.  */
	int trace_fd;
} sb_proxy_cfg;

/* Parse one trace datagram (sb_proxy_cfg.trace_fd) in place: host, port,
 * reason.  Returns 0, or -1 when it is not one.  */
int sb_proxy_trace_parse(char *msg, size_t len, const char **host, int *port,
			 const char **why);

sb_proxy *sb_proxy_new(const sb_proxy_cfg *cfg);
/* Serve until one of `watch` becomes readable (or hangs up); returns its
 * index, or -1 with errno when poll fails.  */
int sb_proxy_run(sb_proxy *p, const int *watch, size_t nwatch);
/* Close every connection and the listening socket.  */
void sb_proxy_free(sb_proxy *p);

/* HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY and their lower-case forms
 * (and NODE_USE_ENV_PROXY, which makes Node's fetch use them) for a proxy at
 * `url` ("http://127.0.0.1:3128").  */
void sb_proxy_env(sb_envvec *env, const char *url);

#endif
