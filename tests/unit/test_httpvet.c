/* Unit tests for runtime/common/httpvet.c: request framing and the host
 * check of plain HTTP inside a CONNECT tunnel (docs/egress.md, "The proxy").  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <string.h>

#include "runtime/common/httpvet.h"

/* Feed all of `s`, as the proxy does; returns the bytes vetted, or -1.  */
static long feed_all(sb_hvet *v, const char *s, const char **why)
{
	size_t n = strlen(s), done = 0;
	while (done < n) {
		long k = sb_hvet_feed(v, s + done, n - done, why);
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		done += (size_t)k;
	}
	return (long)done;
}

Test(httpvet, pipelined_requests_for_the_tunnels_host_pass)
{
	sb_hvet v;
	const char *why;
	sb_hvet_init(&v, "a.test", 80, false);
	const char *s = "GET / HTTP/1.1\r\nHost: a.test\r\n\r\n"
			"POST /x HTTP/1.1\r\nHost: A.TEST:80\r\nContent-Length: 5\r\n\r\nhello"
			"PUT /y HTTP/1.1\r\nHost: a.test\r\nTransfer-Encoding: chunked\r\n\r\n"
			"3\r\nabc\r\n0\r\n\r\n"
			"GET http://a.test/z HTTP/1.1\r\nHost: a.test\r\n\r\n";
	cr_assert(eq(long, feed_all(&v, s, &why), (long)strlen(s)));
	cr_assert(eq(u32, v.requests, 4));
}

Test(httpvet, another_host_is_refused_even_behind_a_body)
{
	sb_hvet v;
	const char *why = NULL;
	sb_hvet_init(&v, "a.test", 80, false);
	/* the body holds a request line: it is data, the next head is not */
	const char *s = "POST / HTTP/1.1\r\nHost: a.test\r\nContent-Length: 36\r\n\r\n"
			"GET / HTTP/1.1\r\nHost: b.test\r\n\r\n\r\n\r\n"
			"GET / HTTP/1.1\r\nHost: b.test\r\n\r\n";
	cr_assert(eq(long, feed_all(&v, s, &why), -1));
	cr_assert(eq(str, (char *)why, "the Host header names another host than the tunnel's"));
	cr_assert(eq(u32, v.requests, 1));
}

Test(httpvet, ambiguous_heads_are_refused)
{
	static const char *const bad[] = {
		"GET / HTTP/1.1\r\nHost: a.test\r\nX: a\nHost: b.test\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a.test\r\n folded\r\n\r\n",
		"GET / HTTP/1.1\r\nHost : a.test\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a.test\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a.test\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a.test\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a.test\r\nHost: a.test\r\n\r\n",
		"GET / HTTP/1.0\r\n\r\n",
		"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
		"CONNECT b.test:443 HTTP/1.1\r\nHost: a.test\r\n\r\n",
		"GET http://b.test/ HTTP/1.1\r\nHost: a.test\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a.test:81\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a.test\r\nX: \x01\r\n\r\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		sb_hvet v;
		const char *why = NULL;
		sb_hvet_init(&v, "a.test", 80, false);
		cr_assert(eq(long, feed_all(&v, bad[i], &why), -1), "accepted: %s", bad[i]);
		cr_assert(why != NULL);
	}
}

Test(httpvet, a_nul_in_a_head_is_refused_before_the_head_ends)
{
	sb_hvet v;
	const char *why = NULL;
	sb_hvet_init(&v, "a.test", 80, false);
	const char s[] = "GET / HTTP/1.1\r\nX: a\0b";
	cr_assert(eq(long, sb_hvet_feed(&v, s, sizeof s - 1, &why), -1));
}

Test(httpvet, upgrade_holds_until_the_answer)
{
	sb_hvet v;
	const char *why;
	sb_hvet_init(&v, "a.test", 80, false);
	const char *up = "GET /ws HTTP/1.1\r\nHost: a.test\r\nUpgrade: websocket\r\n\r\n";
	cr_assert(eq(long, sb_hvet_feed(&v, up, strlen(up), &why), (long)strlen(up)));
	cr_assert(eq(int, v.state, SB_HV_UPGRADE));
	cr_assert(eq(long, sb_hvet_feed(&v, "\x81\x05hello", 7, &why), 0), "held");
	sb_hvet_answer(&v, "HTTP/1.1 200 OK\r\n", 17);
	cr_assert(eq(int, v.state, SB_HV_HEAD), "not switched: requests again");
	sb_hvet_init(&v, "a.test", 80, false);
	sb_hvet_feed(&v, up, strlen(up), &why);
	sb_hvet_answer(&v, "HTTP/1.1 101 Switching Protocols\r\n", 34);
	cr_assert(eq(long, sb_hvet_feed(&v, "\x81\x05hello", 7, &why), 7));
}

Test(httpvet, one_request_drops_what_follows)
{
	sb_hvet v;
	const char *why;
	sb_hvet_init(&v, "a.test", 80, true);
	const char *head = "POST http://a.test/ HTTP/1.1\r\nHost: a.test\r\nContent-Length: 3\r\n\r\n";
	cr_assert(eq(ptr, (void *)sb_hvet_begin(&v, head, strlen(head)), NULL));
	cr_assert(eq(long, sb_hvet_feed(&v, "abcGET / HTTP/1.1\r\n", 19, &why), 3));
	cr_assert(eq(int, v.state, SB_HV_DONE));
}
