/* proxy_bench.c - connection set-up latency and throughput on loopback,
 * direct or through sbrun's egress proxy (docs/egress.md), for bench/proxy.sh.
 *
 *   proxy_bench serve PORTFILE [ADDR]
 *       listens on ADDR (127.0.0.1; a free port, written to PORTFILE); a
 *       connection sends PING (answered "p" at once) or DOWNLOAD and 8
 *       decimal digits N (answered with N KiB by a child process, which appends
 *       "server_cpu_ms MS", its user+system CPU time, to PORTFILE.cpu),
 *       then closes.
 *   proxy_bench client direct|proxy [ADDR:]PORT CONNECTIONS BYTES ROUNDS
 *       CONNECTIONS connections, each: connect (for "proxy": to
 *       127.0.0.1:3128 and "CONNECT ADDR:PORT", up to the proxy's
 *       "200"), "p", wait for the answer; then ROUNDS downloads of BYTES
 *       on one connection each.  Prints "setup_us MEDIAN P90",
 *       "mib_s MEDIAN" (the median over rounds) and "cpu_ms MS" (its own
 *       user+system CPU time, set-up and downloads).
 *
 * The server and the client do the same work in both modes, so the ratio
 * of the two is the proxy's cost.  No timing assertion anywhere.  The
 * commands are control bytes: the proxy relays a tunnel whose first bytes
 * cannot be HTTP at once, and waits for the end of a first line that could
 * be (docs/egress.md), which a one-letter command never sends.  */
#define PING "\x01"
#define DOWNLOAD "\x02"
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { CHUNK = 256 * 1024, PROXY_PORT = 3128 };

static void die(const char *what)
{
	fprintf(stderr, "proxy_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* user+system CPU time of this process, ms */
static double self_cpu_ms(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static int read_full(int fd, char *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static int write_full(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

static void serve_download(int c, char cmd, const char *cpufile)
{
	char digits[9] = { 0 };
	if (cmd != DOWNLOAD[0] || read_full(c, digits, 8) != 0)
		_exit(1);
	long long left = atoll(digits) * 1024;   /* N KiB */
	static char buf[CHUNK];
	memset(buf, 'x', sizeof buf);
	while (left > 0) {
		size_t n = left < CHUNK ? (size_t)left : CHUNK;
		if (write_full(c, buf, n) != 0)
			_exit(1);
		left -= (long long)n;
	}
	close(c);
	FILE *f = fopen(cpufile, "a");
	if (f) {
		fprintf(f, "server_cpu_ms %.1f\n", self_cpu_ms());
		fclose(f);
	}
	_exit(0);
}

static _Noreturn void serve(const char *portfile, const char *addr)
{
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		die("socket");
	struct sockaddr_in a = { .sin_family = AF_INET };
	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
		fprintf(stderr, "proxy_bench: not an IPv4 address: %s\n", addr);
		exit(2);
	}
	char cpufile[4096];
	snprintf(cpufile, sizeof cpufile, "%s.cpu", portfile);
	socklen_t len = sizeof a;
	if (bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 512) != 0 ||
	    getsockname(s, (struct sockaddr *)&a, &len) != 0)
		die("listen");
	FILE *f = fopen(portfile, "w");
	if (!f || fprintf(f, "%d\n", ntohs(a.sin_port)) < 0 || fclose(f) != 0)
		die(portfile);
	signal(SIGCHLD, SIG_IGN);   /* no zombies */
	for (;;) {
		int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			die("accept");
		}
		/* a ping is answered here, a download in a child of its own (no
		 * fork in the set-up figure) */
		char cmd;
		if (read_full(c, &cmd, 1) != 0) {
			close(c);
			continue;
		}
		if (cmd == PING[0]) {
			(void)write_full(c, "p", 1);
			close(c);
			continue;
		}
		pid_t pid = fork();
		if (pid == 0) {
			close(s);
			serve_download(c, cmd, cpufile);
		}
		close(c);
	}
}

/* A connected socket to the server, directly or through the proxy's tunnel.  */
static int open_conn(int via_proxy, const char *addr, int port)
{
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		die("socket");
	int one = 1;
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
				 .sin_port = htons((unsigned short)(via_proxy ? PROXY_PORT : port)) };
	if (!via_proxy && inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
		fprintf(stderr, "proxy_bench: not an IPv4 address: %s\n", addr);
		exit(2);
	}
	if (connect(s, (struct sockaddr *)&a, sizeof a) != 0)
		die(via_proxy ? "connect to the proxy" : "connect");
	if (!via_proxy)
		return s;
	char req[128];
	int n = snprintf(req, sizeof req, "CONNECT %s:%d HTTP/1.1\r\nHost: %s:%d\r\n\r\n",
			 addr, port, addr, port);
	if (write_full(s, req, (size_t)n) != 0)
		die("send CONNECT");
	/* the answer's head, byte by byte: nothing of the tunnel is read */
	char head[1024];
	size_t got = 0;
	while (got < sizeof head - 1) {
		if (read(s, head + got, 1) != 1)
			die("read the proxy's answer");
		got++;
		if (got >= 4 && memcmp(head + got - 4, "\r\n\r\n", 4) == 0)
			break;
	}
	head[got] = '\0';
	if (strncmp(head, "HTTP/1.1 200", 12) != 0 && strncmp(head, "HTTP/1.0 200", 12) != 0) {
		fprintf(stderr, "proxy_bench: the proxy refused: %.200s\n", head);
		exit(1);
	}
	return s;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int client(int argc, char **argv)
{
	if (argc != 7)
		return 2;
	int via_proxy = strcmp(argv[2], "proxy") == 0;
	/* [ADDR:]PORT */
	char addr[64] = "127.0.0.1";
	const char *colon = strrchr(argv[3], ':');
	if (colon) {
		if ((size_t)(colon - argv[3]) >= sizeof addr)
			return 2;
		memcpy(addr, argv[3], (size_t)(colon - argv[3]));
		addr[colon - argv[3]] = '\0';
	}
	int port = atoi(colon ? colon + 1 : argv[3]), conns = atoi(argv[4]), rounds = atoi(argv[6]);
	long kib = atol(argv[5]) / 1024;
	if (port <= 0 || conns <= 0 || rounds <= 0 || kib <= 0 || kib > 99999999)
		return 2;
	double *lat = calloc((size_t)conns, sizeof *lat);
	double *rate = calloc((size_t)rounds, sizeof *rate);
	if (!lat || !rate)
		die("calloc");
	for (int i = 0; i < conns; i++) {
		double t0 = now_us();
		int s = open_conn(via_proxy, addr, port);
		char c;
		if (write_full(s, PING, 1) != 0 || read_full(s, &c, 1) != 0 || c != 'p')
			die("ping");
		lat[i] = now_us() - t0;
		close(s);
	}
	static char buf[CHUNK];
	for (int r = 0; r < rounds; r++) {
		double t0 = now_us();
		int s = open_conn(via_proxy, addr, port);
		char cmd[16];
		snprintf(cmd, sizeof cmd, DOWNLOAD "%08ld", kib);
		if (write_full(s, cmd, 9) != 0)
			die("send");
		long long got = 0;
		for (;;) {
			ssize_t n = read(s, buf, sizeof buf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				die("read");
			if (n == 0)
				break;
			got += n;
		}
		close(s);
		if (got != (long long)kib * 1024) {
			fprintf(stderr, "proxy_bench: got %lld of %lld bytes\n", got, (long long)kib * 1024);
			return 1;
		}
		rate[r] = (double)got / (1024.0 * 1024.0) / ((now_us() - t0) / 1e6);
	}
	qsort(lat, (size_t)conns, sizeof *lat, cmp_double);
	qsort(rate, (size_t)rounds, sizeof *rate, cmp_double);
	printf("setup_us %.1f %.1f\n", lat[conns / 2], lat[(conns * 9) / 10]);
	printf("mib_s %.1f\n", rate[rounds / 2]);
	printf("cpu_ms %.1f\n", self_cpu_ms());
	free(lat);
	free(rate);
	return 0;
}

int main(int argc, char **argv)
{
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "serve") == 0)
		serve(argv[2], argc == 4 ? argv[3] : "127.0.0.1");
	if (argc >= 2 && strcmp(argv[1], "client") == 0) {
		int rc = client(argc, argv);
		if (rc != 2)
			return rc;
	}
	fprintf(stderr, "usage: proxy_bench serve PORTFILE [ADDR]\n"
			"       proxy_bench client direct|proxy [ADDR:]PORT CONNECTIONS BYTES ROUNDS\n");
	return 2;
}
