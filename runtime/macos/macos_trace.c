/* macos_trace.c - the denial trace on macOS (macos_trace.h).  Plain POSIX,
 * so the test build runs it on Linux against the stand-ins for log and
 * sandbox-exec.  */
#include "runtime/macos/macos_trace.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "compiler/common/xalloc.h"
#include "runtime/common/status.h"
#include "runtime/macos/macos.h"

#if defined(__APPLE__)
#include <sys/random.h>
#endif

int sb_macos_trace_tag(char out[SB_MACOS_TAG_SIZE])
{
	unsigned char raw[8];
	if (getentropy(raw, sizeof raw) != 0)
		return -1;
	char *w = out + (sizeof SB_MACOS_TAG_PREFIX - 1);
	memcpy(out, SB_MACOS_TAG_PREFIX, sizeof SB_MACOS_TAG_PREFIX - 1);
	for (size_t i = 0; i < sizeof raw; i++)
		w += sprintf(w, "%02x", raw[i]);
	return 0;
}

char *sb_macos_log_path(void)
{
#ifdef SB_TEST_HOOKS
	/* The stand-in sits next to the test binary (build/test-bin/), as
	 * the sandbox-exec one does (macos.c).  */
	char self[PATH_MAX];   /* readlink gives at most PATH_MAX bytes */
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			return xasprintf("%s/fake_log", self);
		}
	}
#endif
	return xstrdup(SB_MACOS_LOG);
}

char **sb_macos_log_argv(const char *log_path, const char *tag)
{
	char **v = xcalloc(7, sizeof *v);
	v[0] = xstrdup(log_path);
	v[1] = xstrdup("stream");
	v[2] = xstrdup("--style");
	v[3] = xstrdup("compact");
	v[4] = xstrdup("--predicate");
	v[5] = xasprintf("(processID == 0) AND (eventMessage ENDSWITH \"%s\")", tag);
	return v;
}

void sb_macos_argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **p = argv; *p; p++)
		free(*p);
	free(argv);
}

/* ---- parsing ---- */

/* Does `s` (length n) end with " omp-sandbox rule ORIGIN TAG" or start
 * with "omp-sandbox rule ORIGIN TAG" (at == 0)?  Sets the origin and
 * returns where the message starts, or -1.  */
static long find_message(const char *s, size_t n, const char *tag, char *origin, size_t cap)
{
	size_t tl = strlen(tag), pl = sizeof SB_MACOS_MSG_PREFIX - 1;
	if (n < pl + tl + 2 || memcmp(s + n - tl, tag, tl) != 0 || s[n - tl - 1] != ' ')
		return -1;
	/* the origin has no space before the tag ("omp.sbx:24", "#3"), but a
	 * file name may: search the prefix from the right */
	for (size_t i = n - tl - 1; i-- > 0;) {
		if (i + pl > n - tl - 1 || memcmp(s + i, SB_MACOS_MSG_PREFIX, pl) != 0)
			continue;
		if (i > 0 && s[i - 1] != ' ')
			continue;
		size_t olen = n - tl - 1 - (i + pl);
		if (olen == 0 || olen >= cap)
			return -1;
		memcpy(origin, s + i + pl, olen);
		origin[olen] = '\0';
		return (long)i;
	}
	return -1;
}

sb_log_line sb_macos_log_parse(const char *line, const char *tag, sb_seatbelt_event *ev)
{
	memset(ev, 0, sizeof *ev);
	size_t n = strlen(line);
	while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
		n--;
	const char *sb = strstr(line, "Sandbox: ");
	const char *kern = strstr(line, "kernel");
	if (!sb || !kern || kern > sb) {
		long m = find_message(line, n, tag, ev->origin, sizeof ev->origin);
		return m == 0 ? SB_LOG_MESSAGE : SB_LOG_OTHER;
	}
	/* NAME(PID) deny(N) OP [TARGET]: the name may hold spaces and
	 * parentheses, so the pid is the last "(digits) deny(" */
	const char *p = sb + 9, *deny = NULL;
	for (const char *q = strstr(p, ") deny("); q; q = strstr(q + 1, ") deny("))
		deny = q;
	if (!deny)
		return SB_LOG_OTHER;
	const char *open = deny;
	while (open > p && open[-1] >= '0' && open[-1] <= '9')
		open--;
	if (open == deny || open == p || open[-1] != '(')
		return SB_LOG_OTHER;
	size_t nl = (size_t)(open - 1 - p);
	if (nl >= sizeof ev->process)
		nl = sizeof ev->process - 1;
	memcpy(ev->process, p, nl);
	ev->process[nl] = '\0';
	ev->pid = atoi(open);
	const char *q = deny + 7;
	while (*q >= '0' && *q <= '9')
		q++;
	if (*q != ')' || q[1] != ' ')
		return SB_LOG_OTHER;
	q += 2;
	size_t ol = strcspn(q, " ");
	if (ol == 0 || ol >= sizeof ev->op)
		return SB_LOG_OTHER;
	memcpy(ev->op, q, ol);
	ev->op[ol] = '\0';
	q += ol;
	size_t end = n;
	long m = find_message(line, n, tag, ev->origin, sizeof ev->origin);
	if (m >= 0)
		end = (size_t)m;
	if ((size_t)(q - line) < end && *q == ' ')
		q++;
	size_t tl = (size_t)(q - line) < end ? end - (size_t)(q - line) : 0;
	while (tl && q[tl - 1] == ' ')
		tl--;
	if (tl >= sizeof ev->target)
		return SB_LOG_OTHER;   /* longer than a path can be */
	memcpy(ev->target, q, tl);
	ev->target[tl] = '\0';
	return SB_LOG_VIOLATION;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool sb_macos_event_denial(const sb_seatbelt_event *ev, bool is_dir, sb_denial *out)
{
	memset(out, 0, sizeof *out);
	const char *op = ev->op;
	if (starts(op, "file-read"))
		out->access = is_dir ? SB_ACC_LIST : SB_ACC_READ;
	else if (!strcmp(op, "file-write-create") || !strcmp(op, "file-link"))
		out->access = SB_ACC_CREATE;
	else if (!strcmp(op, "file-write-unlink"))
		out->access = SB_ACC_DELETE;
	else if (starts(op, "file-write"))
		out->access = SB_ACC_WRITE;
	else if (starts(op, "process-exec"))
		out->access = SB_ACC_EXEC;
	else if (starts(op, "network"))
		out->access = SB_ACC_NETWORK;
	else
		return false;
	if (out->access != SB_ACC_NETWORK && ev->target[0] != '/')
		return false;   /* a file operation names an absolute path */
	out->path = ev->target[0] ? ev->target : op;
	out->pid = ev->pid;
	out->process = ev->process[0] ? ev->process : NULL;
	out->syscall = op;   /* the Seatbelt operation, in JSON's "syscall" */
	out->origin = ev->origin[0] ? ev->origin : NULL;
	return true;
}

/* ---- the run ---- */

typedef struct reader {
	int fd;
	char buf[16384];
	size_t len;
	const char *tag;
	sb_tracer *t;
	sb_seatbelt_event pending;   /* a violation waiting for its message line */
	bool has_pending;
} reader;

static void deliver(reader *r, const sb_seatbelt_event *ev)
{
	struct stat st;
	bool dir = ev->target[0] == '/' && stat(ev->target, &st) == 0 && S_ISDIR(st.st_mode);
	sb_denial dn;
	if (sb_macos_event_denial(ev, dir, &dn))
		sb_tracer_denied(r->t, &dn);
	else
		sb_tracer_lost(r->t, 1);   /* an operation the trace does not classify */
}

/* A violation without this session's message on its line or the next is
 * not ours (the predicate shows only ours; this is the second guard).  */
static void drop_pending(reader *r)
{
	r->has_pending = false;
}

static void on_line(reader *r, const char *line)
{
	sb_seatbelt_event ev;
	switch (sb_macos_log_parse(line, r->tag, &ev)) {
	case SB_LOG_VIOLATION:
		drop_pending(r);
		if (ev.origin[0]) {
			deliver(r, &ev);
		} else {
			r->pending = ev;
			r->has_pending = true;
		}
		break;
	case SB_LOG_MESSAGE:
		if (r->has_pending) {
			memcpy(r->pending.origin, ev.origin, sizeof ev.origin);
			deliver(r, &r->pending);
			drop_pending(r);
		}
		break;
	case SB_LOG_OTHER:
		break;
	}
}

/* Every complete line in the buffer.  */
static void process_lines(reader *r)
{
	char *start = r->buf, *nl;
	while ((nl = memchr(start, '\n', r->len - (size_t)(start - r->buf)))) {
		*nl = '\0';
		on_line(r, start);
		start = nl + 1;
	}
	r->len -= (size_t)(start - r->buf);
	memmove(r->buf, start, r->len);
	if (r->len == sizeof r->buf - 1)
		r->len = 0;   /* a line longer than any violation: dropped */
}

/* Read what is there; false at end of file.  */
static bool read_some(reader *r)
{
	ssize_t k = read(r->fd, r->buf + r->len, sizeof r->buf - 1 - r->len);
	if (k < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (k <= 0)
		return false;
	r->len += (size_t)k;
	process_lines(r);
	return true;
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* The log's first line: "Filtering the log data using ..." once it
 * streams; anything else (an error such as "Must be admin to run 'stream'
 * command") is returned for the refusal.  NULL: it is streaming.  */
static char *wait_ready(reader *r, pid_t logpid)
{
	long deadline = now_ms() + 10000;
	for (;;) {
		char *nl = memchr(r->buf, '\n', r->len);
		if (nl) {
			*nl = '\0';
			bool ok = starts(r->buf, "Filtering the log data");
			char *first = ok ? NULL : xstrdup(r->buf);
			size_t used = (size_t)(nl + 1 - r->buf);
			r->len -= used;
			memmove(r->buf, nl + 1, r->len);
			return first;
		}
		long left = deadline - now_ms();
		if (left <= 0)
			return xstrdup("it printed nothing for 10 seconds");
		struct pollfd p = { .fd = r->fd, .events = POLLIN };
		int k = poll(&p, 1, (int)left);
		if (k < 0 && errno != EINTR)
			return xasprintf("poll: %s", strerror(errno));
		if (k <= 0)
			continue;
		ssize_t got = read(r->fd, r->buf + r->len, sizeof r->buf - 1 - r->len);
		if (got <= 0 || r->len + (size_t)got >= sizeof r->buf - 1) {
			int st;
			bool gone = waitpid(logpid, &st, WNOHANG) == logpid;
			return xstrdup(got == 0 || gone ? "it exited" : "its first line is too long");
		}
		r->len += (size_t)got;
	}
}

/* Signals to the tracer go on to the command (the one process-wide
 * value a signal handler needs).  */
static volatile sig_atomic_t forward_to;

static void forward(int sig)
{
	if (forward_to > 0)
		kill((pid_t)forward_to, sig);
}

static void stop_log(pid_t logpid)
{
	kill(logpid, SIGTERM);
	int st;
	while (waitpid(logpid, &st, 0) < 0 && errno == EINTR)
		;
}

sb_status sb_macos_exec_traced(const sb_launch *l, const char *tag, sb_tracer *t,
			       int (*exit_status_of)(sb_status), int *cmd_status, sb_diag *d)
{
	char *log_path = sb_macos_log_path();
	char **argv = sb_macos_log_argv(log_path, tag);
	int pfd[2];
	if (pipe(pfd) < 0) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "trace", "cannot start the trace: pipe: %s",
			       strerror(errno));
		sb_macos_argv_free(argv);
		free(log_path);
		return SB_REFUSED;
	}
	fflush(NULL);
	pid_t logpid = fork();
	if (logpid == 0) {
		/* stdout and stderr: an error message is the first line */
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		int nul = open("/dev/null", O_RDONLY);
		if (nul >= 0 && nul != 0) {
			dup2(nul, 0);
			close(nul);
		}
		execv(argv[0], argv);
		dprintf(1, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	int e = errno;
	close(pfd[1]);
	if (logpid < 0) {
		close(pfd[0]);
		sb_diag_report(d, SB_SEV_ERROR, NULL, "trace", "cannot start the trace: fork: %s",
			       strerror(e));
		sb_macos_argv_free(argv);
		free(log_path);
		return SB_REFUSED;
	}
	reader *r = xcalloc(1, sizeof *r);
	r->fd = pfd[0];
	r->tag = tag;
	r->t = t;
	char *why = wait_ready(r, logpid);
	if (why) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "trace",
			       "cannot read the sandbox's violations from the unified log (%s stream): "
			       "%s; the command was not run. Run without --trace/--learn "
			       "(OMP_SANDBOX_TRACE unset), or as a user allowed to read the log "
			       "(an administrator)", log_path, why);
		free(why);
		stop_log(logpid);
		close(pfd[0]);
		free(r);
		sb_macos_argv_free(argv);
		free(log_path);
		return SB_REFUSED;
	}
	sb_macos_argv_free(argv);
	free(log_path);
	process_lines(r);   /* what came with the first line */

	struct sigaction fwd = { .sa_handler = forward }, ign = { .sa_handler = SIG_IGN }, old[4];
	sigemptyset(&fwd.sa_mask);
	sigemptyset(&ign.sa_mask);
	/* the terminal sends SIGINT and SIGQUIT to the command's process
	 * group itself; SIGTERM and SIGHUP to this process go on to it */
	sigaction(SIGINT, &ign, &old[0]);
	sigaction(SIGQUIT, &ign, &old[1]);
	sigaction(SIGTERM, &fwd, &old[2]);
	sigaction(SIGHUP, &fwd, &old[3]);
	pid_t child = fork();
	if (child == 0) {
		close(pfd[0]);
		sigaction(SIGINT, &old[0], NULL);
		sigaction(SIGQUIT, &old[1], NULL);
		sigaction(SIGTERM, &old[2], NULL);
		sigaction(SIGHUP, &old[3], NULL);
		/* sb_macos_exec returns only after reporting a refusal; the
		 * negative sb_status itself would exit 255 (status.h) */
		_exit(exit_status_of(sb_macos_exec(l, d)));
	}
	sb_status status = SB_REFUSED;
	if (child < 0) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "trace", "cannot run the command: fork: %s",
			       strerror(errno));
	} else {
		forward_to = child;
		int st = 0;
		bool open_log = true;
		for (;;) {
			pid_t w = waitpid(child, &st, WNOHANG);
			if (w == child)
				break;
			struct pollfd p = { .fd = r->fd, .events = POLLIN };
			int k = open_log ? poll(&p, 1, 100) : (usleep(100000), 0);
			if (k > 0 && !read_some(r))
				open_log = false;
		}
		forward_to = 0;
		*cmd_status = sb_wait_exit_code(st);
		status = SB_OK;
		/* The log delivers a violation a moment after it happened:
		 * read on until it has been quiet for 300 ms (2 s at most).  */
		long end = now_ms() + 2000, quiet = now_ms() + 300;
		while (open_log && now_ms() < end && now_ms() < quiet) {
			struct pollfd p = { .fd = r->fd, .events = POLLIN };
			int k = poll(&p, 1, 50);
			if (k > 0) {
				if (!read_some(r))
					break;
				quiet = now_ms() + 300;
			}
		}
		drop_pending(r);
	}
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGQUIT, &old[1], NULL);
	sigaction(SIGTERM, &old[2], NULL);
	sigaction(SIGHUP, &old[3], NULL);
	stop_log(logpid);
	close(pfd[0]);
	free(r);
	return status;
}
