/* selftest.c - the self-test (selftest.h; docs/omp-sandboxed.md, "Self-test"),
 * with the original's defects D9/D10 fixed (docs/migration.md).  */
#include "runtime/cli/selftest.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "runtime/common/env.h"
#include "runtime/common/launch.h"
#include "runtime/common/status.h"
#include "compiler/eval/eval.h"
#include "runtime/macos/macos.h"
#include "compiler/common/exit_status.h"
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	char *s;
	s = xvasprintf(f, ap);
	va_end(ap);
	return s;
}

/* ---- probes ---- */

typedef struct probe {
	bool started;            /* the sandbox applied and the program ran */
	int code;                /* exit code, or 128+signal */
	char *out, *err;
} probe;

static const char not_started[] = "sbx-selftest: the sandbox did not start";

typedef struct ctx {
	const sb_selftest_cfg *c;
	sb_envvec env;           /* the clean environment */
	int fails;
	pid_t pid;
	char canary_secret[64];
} ctx;

static void probe_clear(probe *p)
{
	free(p->out);
	free(p->err);
	memset(p, 0, sizeof *p);
}

/* Read both pipes to EOF without deadlocking on either.  */
static void drain(int ofd, int efd, char **out, char **err)
{
	size_t on = 0, en = 0, ocap = 1, ecap = 1;
	*out = xcalloc(1, 1);
	*err = xcalloc(1, 1);
	struct pollfd pf[2] = { { ofd, POLLIN, 0 }, { efd, POLLIN, 0 } };
	int open_fds = 2;
	while (open_fds > 0) {
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			char buf[BUFSIZ];   /* a chunk of the probe's output */
			ssize_t n = read(pf[i].fd, buf, sizeof buf);
			if (n <= 0) {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
				continue;
			}
			char **dst = i == 0 ? out : err;
			size_t *len = i == 0 ? &on : &en, *cap = i == 0 ? &ocap : &ecap;
			if (*len < (1 << 20)) {
				SB_GROW(*dst, *len + (size_t)n, *cap, BUFSIZ);
				memcpy(*dst + *len, buf, (size_t)n);
				*len += (size_t)n;
				(*dst)[*len] = '\0';
			}
		}
	}
}

static void child_run(const sb_selftest_cfg *c, const sb_launch *l)
{
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_diag_set_tool(d, "self-test");
	if (c->platform == SB_PLAT_MACOS) {
		sb_macos_exec(l, d);
	} else if (chdir(l->cwd) != 0) {
		fprintf(stderr, "cannot enter %s: %s\n", l->cwd, strerror(errno));
	} else {
		sb_ll_plan *plan = NULL;
		if (sb_ll_plan_build(l->bound, c->lopts, &plan, d) == 0 && plan)
			sb_linux_exec(plan, c->lopts, l->exec_path, l->argv, l->envp, d);
	}
	fprintf(stderr, "%s\n", not_started);
	fflush(stderr);
	_exit(SB_EXIT_SETUP);
}

/* Run argv (argv[0] absolute) under a fresh sandbox built from `prep`.  */
static void run_probe(ctx *x, const sb_prep *prep, char *const *env, char *const argv[],
		      probe *r)
{
	const sb_selftest_cfg *c = x->c;
	memset(r, 0, sizeof *r);
	size_t nargs = 0;
	while (argv[1 + nargs])
		nargs++;
	sb_launch_in in = {
		.platform = c->platform, .profile = c->profile, .prep = prep, .user = c->user,
		.env = env, .sandbox_exec = c->sandbox_exec, .cmd = argv[0],
		.args = argv + 1, .nargs = nargs,
	};
	sb_launch l;
	char *errbuf = NULL;
	size_t errlen = 0;
	FILE *ef = xopen_memstream(&errbuf, &errlen);
	sb_diag *d = sb_diag_new(ef, SB_FMT_TEXT);
	int rc = sb_launch_compute(&in, &l, d);
	sb_diag_free(d);
	fclose(ef);
	if (rc) {
		r->out = xcalloc(1, 1);
		r->err = errbuf;
		sb_launch_clear(&l);
		return;
	}
	free(errbuf);
	int op[2], ep[2];
	if (pipe(op) != 0 || pipe(ep) != 0)
		abort();
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		/* stdin: an empty pipe, not /dev/null (which the probe's
		 * sandbox may treat differently) */
		int ip[2];
		if (pipe(ip) == 0) {
			close(ip[1]);
			dup2(ip[0], 0);
		}
		dup2(op[1], 1);
		dup2(ep[1], 2);
		close(op[0]);
		close(ep[0]);
		child_run(c, &l);
	}
	close(op[1]);
	close(ep[1]);
	drain(op[0], ep[0], &r->out, &r->err);
	int st = 0;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	r->code = sb_wait_exit_code(st);
	r->started = pid > 0 && !strstr(r->err, not_started) && !strstr(r->err, "sandbox_apply");
	sb_launch_clear(&l);
}

static bool allowed(const probe *r)
{
	return r->started && r->code == 0;
}

/* A denial by the sandbox: the probe ran and the kernel refused.  On Linux
 * with masks (docs/linux.md) a denied tree is an empty read-only tmpfs: the
 * canaries made outside before the launch are not there (ENOENT) and
 * nothing can be created (EROFS).  */
static bool denied(const probe *r)
{
	return r->started && r->code != 0 &&
	       (strstr(r->err, "Permission denied") || strstr(r->err, "Operation not permitted") ||
		strstr(r->err, "Read-only file system") ||
		strstr(r->err, "No such file or directory"));
}

static char *first_line(const char *s)
{
	while (*s == '\n')
		s++;
	size_t n = strcspn(s, "\n");
	return xstrndup(s, n > 160 ? 160 : n);
}

/* Why a probe did not give the expected answer.  */
static char *why(const probe *r, bool wanted_allow)
{
	char *line = first_line(r->err && *r->err ? r->err : "no message");
	char *s;
	if (!r->started)
		s = fmt("the sandbox did not start: %s", line);
	else if (wanted_allow)
		s = fmt("exit %d: %s", r->code, line);
	else if (r->code == 0)
		s = fmt("the access succeeded");
	else
		s = fmt("failed without a sandbox denial (exit %d: %s)", r->code, line);
	free(line);
	return s;
}

static void result(ctx *x, const char *kind, const char *what, const char *reason)
{
	if (strcmp(kind, "FAIL") == 0)
		x->fails++;
	if (reason)
		fprintf(x->c->out, "%s: %s (%s)\n", kind, what, reason);
	else
		fprintf(x->c->out, "%s: %s\n", kind, what);
	fflush(x->c->out);
}

/* PASS when the probe matches `want_allow`; FAIL with the reason.  */
static bool expect(ctx *x, const probe *r, bool want_allow, const char *what)
{
	bool ok = want_allow ? allowed(r) : denied(r);
	if (ok) {
		result(x, "PASS", what, NULL);
	} else {
		char *w = why(r, want_allow);
		result(x, "FAIL", what, w);
		free(w);
	}
	return ok;
}

/* ---- tools by absolute path ---- */

static const char *tool(const char *name, char *buf, size_t size)
{
	static const char *const dirs[] = { "/usr/bin", "/bin" };
	for (size_t i = 0; i < 2; i++) {
		snprintf(buf, size, "%s/%s", dirs[i], name);
		if (access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

static char *path2(const char *a, const char *b)
{
	return fmt("%s/%s", a, b);
}

static bool write_file(const char *p, const char *text)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return false;
	bool ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	return close(fd) == 0 && ok;
}

/* ---- the checks ---- */

typedef struct tools {
	char touch[64], rm[64], ls[64], cat[64], stat[64], env[64];
	bool ok;
} tools;

static void find_tools(tools *t)
{
	t->ok = tool("touch", t->touch, 64) && tool("rm", t->rm, 64) && tool("ls", t->ls, 64) &&
		tool("cat", t->cat, 64) && tool("stat", t->stat, 64) && tool("env", t->env, 64);
}

static void check_write_pair(ctx *x, const tools *t, const char *dir, const char *what)
{
	char name[64];
	snprintf(name, sizeof name, ".sbx_probe.%d", (int)x->pid);
	char *f = path2(dir, name);
	probe r;
	char *const mk[] = { (char *)t->touch, f, NULL };
	run_probe(x, x->c->prep, x->env.v, mk, &r);
	bool made = allowed(&r);
	if (made) {
		probe_clear(&r);
		char *const del[] = { (char *)t->rm, "-f", f, NULL };
		run_probe(x, x->c->prep, x->env.v, del, &r);
	}
	expect(x, &r, true, what);
	probe_clear(&r);
	unlink(f);
	free(f);
}

static bool under_any(const char *p, char **roots, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (sb_path_is_under(p, roots[i]))
			return true;
	return false;
}

static void check_home_write_denied(ctx *x, const tools *t)
{
	const sb_prep *p = x->c->prep;
	const char *what = "write in $HOME denied";
	char *ws1[] = { p->workspace };
	if (under_any(p->home, ws1, 1) || under_any(p->home, p->extra_write, p->nextra_write)) {
		result(x, "SKIP", what, "the home directory lies inside a write grant");
		return;
	}
	char name[64];
	snprintf(name, sizeof name, ".sbx_probe.%d", (int)x->pid);
	char *f = path2(p->home, name);
	probe r;
	char *const mk[] = { (char *)t->touch, f, NULL };
	run_probe(x, p, x->env.v, mk, &r);
	struct stat st;
	bool appeared = lstat(f, &st) == 0;
	if (appeared)
		unlink(f);
	if (appeared && denied(&r))
		result(x, "FAIL", what, "the file appeared");
	else
		expect(x, &r, false, what);
	probe_clear(&r);
	free(f);
}

/* The default protection of persistence files (examples/protect/): a
 * protected name that does not exist in the workspace cannot be created,
 * and nothing appears for it (on Linux: the write gate).  Asked of the
 * bound profile itself: SKIP where it allows the creation
 * (OMP_SANDBOX_PROTECT=none, another profile), and where the name exists
 * (the user's file is never touched).  */
static void check_protected(ctx *x, const tools *t, const char *name)
{
	const sb_prep *p = x->c->prep;
	char what[128];
	snprintf(what, sizeof what, "creating a protected %s in the workspace denied", name);
	char *f = path2(p->workspace, name);
	struct stat st;
	if (lstat(f, &st) == 0) {
		result(x, "SKIP", what, "it exists (a file of yours is never touched)");
		free(f);
		return;
	}
	const sb_selftest_cfg *c = x->c;
	char *args[] = { f };
	sb_launch_in in = { .platform = c->platform, .profile = c->profile, .prep = p,
			    .user = c->user, .env = x->env.v, .sandbox_exec = c->sandbox_exec,
			    .cmd = t->touch, .args = args, .nargs = 1 };
	sb_launch l;
	char *errbuf = NULL;
	size_t errlen = 0;
	FILE *ef = xopen_memstream(&errbuf, &errlen);   /* said by the probes already */
	sb_diag *d = sb_diag_new(ef, SB_FMT_TEXT);
	bool protected_here = false;
	if (sb_launch_compute(&in, &l, d) == 0) {
		sb_eval *ev = sb_eval_new(l.bound, 0);
		protected_here = sb_eval_decide(ev, SB_OP_FILE_WRITE_CREATE, f, 0).kind != SB_DEC_ALLOW;
		sb_eval_free(ev);
	}
	sb_launch_clear(&l);
	sb_diag_free(d);
	fclose(ef);
	free(errbuf);
	if (!protected_here) {
		result(x, "SKIP", what, "the profile allows it (OMP_SANDBOX_PROTECT=none?)");
		free(f);
		return;
	}
	probe r;
	char *const mk[] = { (char *)t->touch, f, NULL };
	run_probe(x, p, x->env.v, mk, &r);
	bool appeared = lstat(f, &st) == 0;
	if (appeared) {
		unlink(f);
		result(x, "FAIL", what, "the file appeared");
	} else {
		expect(x, &r, false, what);
	}
	probe_clear(&r);
	free(f);
}

/* The original's "write in /etc denied" check, made non-vacuous: only
 * meaningful when /etc is writable without the sandbox (root); otherwise
 * file permissions alone deny it.  */
static void check_etc_write_denied(ctx *x, const tools *t)
{
	const char *what = "write in /etc denied";
	if (access("/etc", W_OK) != 0) {
		result(x, "SKIP", what, "/etc is not writable without the sandbox either");
		return;
	}
	char f[64];
	snprintf(f, sizeof f, "/etc/.sbx_probe.%d", (int)x->pid);
	probe r;
	char *const mk[] = { (char *)t->touch, f, NULL };
	run_probe(x, x->c->prep, x->env.v, mk, &r);
	struct stat st;
	if (lstat(f, &st) == 0) {
		unlink(f);
		result(x, "FAIL", what, "the file appeared");
	} else {
		expect(x, &r, false, what);
	}
	probe_clear(&r);
}

/* Create ~/.omp (0700) first when missing (D9).  */
static void check_omp_dir(ctx *x, const tools *t)
{
	const sb_prep *p = x->c->prep;
	char *omp = path2(p->home, ".omp");
	if (mkdir(omp, 0700) != 0 && errno != EEXIST) {
		char *w;
		w = fmt("cannot create %s: %s", omp, strerror(errno));
		result(x, "FAIL", "~/.omp read and write allowed", w);
		free(w);
		free(omp);
		return;
	}
	check_write_pair(x, t, omp, "~/.omp write allowed (create and delete a file)");
	probe r;
	char *const ls[] = { (char *)t->ls, "-a", omp, NULL };
	run_probe(x, p, x->env.v, ls, &r);
	expect(x, &r, true, "~/.omp listing allowed");
	probe_clear(&r);
	free(omp);
}

static void check_list(ctx *x, const tools *t, const char *dir, bool want, const char *what)
{
	probe r;
	char *const ls[] = { (char *)t->ls, "-a", (char *)dir, NULL };
	run_probe(x, x->c->prep, x->env.v, ls, &r);
	expect(x, &r, want, what);
	probe_clear(&r);
}

/* A canary in a sensitive directory: created (with the directory, 0700,
 * when missing) so the denial is never vacuous, removed afterwards.  */
typedef struct canary {
	char *dir, *file;
	bool made_dir;
} canary;

static bool canary_make(ctx *x, const char *rel, canary *k)
{
	memset(k, 0, sizeof *k);
	k->dir = path2(x->c->prep->home, rel);
	if (mkdir(k->dir, 0700) == 0)
		k->made_dir = true;
	else if (errno != EEXIST)
		return false;
	char name[64];
	snprintf(name, sizeof name, ".sbx_canary.%d", (int)x->pid);
	k->file = path2(k->dir, name);
	return write_file(k->file, "sbx-canary\n");
}

static void canary_drop(canary *k)
{
	if (k->file)
		unlink(k->file);
	if (k->made_dir)
		rmdir(k->dir);
	free(k->file);
	free(k->dir);
	memset(k, 0, sizeof *k);
}

static void check_sensitive_dir(ctx *x, const tools *t, const char *rel)
{
	char what[160];
	snprintf(what, sizeof what, "~/%s read denied (canary file)", rel);
	canary k;
	if (!canary_make(x, rel, &k)) {
		result(x, "SKIP", what, "cannot create a canary there");
		canary_drop(&k);
		return;
	}
	probe r;
	char *const cat[] = { (char *)t->cat, k.file, NULL };
	run_probe(x, x->c->prep, x->env.v, cat, &r);
	if (denied(&r) && strstr(r.out, "sbx-canary"))
		result(x, "FAIL", what, "the canary's content came out");
	else
		expect(x, &r, false, what);
	probe_clear(&r);
	snprintf(what, sizeof what, "~/%s listing denied", rel);
	check_list(x, t, k.dir, false, what);
	canary_drop(&k);
}

/* The version in a line "omp/1.2.3" or "1.2.3".  */
static char *version_line(const char *out, bool with_prefix)
{
	for (const char *s = out; s && *s;) {
		size_t n = strcspn(s, "\n");
		const char *v = s;
		if (with_prefix && strncmp(s, "omp/", 4) == 0)
			v = s + 4;
		if ((!with_prefix || v != s) && v < s + n && *v >= '0' && *v <= '9')
			return xstrndup(v, n - (size_t)(v - s));
		s += n;
		while (*s == '\n')
			s++;
	}
	return NULL;
}

static void check_omp(ctx *x)
{
	const char *a = "omp --version prints omp/<version> in the sandbox, clean environment";
	const char *b = "omp --auto-approve --version prints the same version";
	if (!x->c->omp) {
		result(x, "SKIP", a, "omp is not on PATH");
		result(x, "SKIP", b, "omp is not on PATH");
		return;
	}
	probe r;
	char *const v1[] = { (char *)x->c->omp, "--version", NULL };
	run_probe(x, x->c->prep, x->env.v, v1, &r);
	char *ver = allowed(&r) ? version_line(r.out, true) : NULL;
	if (ver) {
		char *w;
		w = fmt("%s/%s", "omp", ver);
		result(x, "PASS", a, w);
		free(w);
	} else if (allowed(&r)) {
		char *l = first_line(r.out);
		result(x, "FAIL", a, *l ? l : "no omp/<version> line");
		free(l);
	} else {
		expect(x, &r, true, a);
	}
	probe_clear(&r);
	char *const v2[] = { (char *)x->c->omp, "--auto-approve", "--version", NULL };
	run_probe(x, x->c->prep, x->env.v, v2, &r);
	char *ver2 = allowed(&r) ? version_line(r.out, false) : NULL;
	if (ver2 && ver && strcmp(ver, ver2) == 0)
		result(x, "PASS", b, ver2);
	else if (allowed(&r)) {
		char *w;
		w = fmt("printed '%s', expected '%s'", ver2 ? ver2 : "", ver ? ver : "?");
		result(x, "FAIL", b, w);
		free(w);
	} else
		expect(x, &r, true, b);
	free(ver);
	free(ver2);
	probe_clear(&r);
}

static bool has_line(const char *out, const char *line)
{
	size_t n = strlen(line);
	for (const char *s = out; (s = strstr(s, line)); s += n)
		if ((s == out || s[-1] == '\n') && (s[n] == '\n' || s[n] == '\0'))
			return true;
	return false;
}

static bool has_name(const char *out, const char *name)
{
	size_t n = strlen(name);
	for (const char *s = out; (s = strstr(s, name)); s += n)
		if ((s == out || s[-1] == '\n') && s[n] == '=')
			return true;
	return false;
}

/* 7 and 9: run env under an environment built from the parent plus a
 * secret canary and a loader variable, set after nothing else.  */
static void check_env(ctx *x, const tools *t)
{
	const sb_selftest_cfg *c = x->c;
	const char *marker = sb_platform_marker(c->platform);
	sb_envvec parent = { 0 };
	for (size_t i = 0; c->parent_env && c->parent_env[i]; i++)
		sb_envvec_put(&parent, c->parent_env[i]);
	sb_envvec_set(&parent, x->canary_secret, "sbx-secret-canary");
	sb_envvec_set(&parent, "NODE_OPTIONS", "--require=/nonexistent/sbx-canary.js");
	sb_envvec env = { 0 };
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_diag_set_tool(d, "self-test");
	sb_env_in in = { .parent = parent.v, .home = c->prep->home, .tmpdir = c->prep->tmpdir,
			 .marker = marker, .pass_env = c->prep->s.pass_env };
	sb_env_build(&in, &env, d);
	sb_diag_free(d);
	probe r;
	char *const cmd[] = { (char *)t->env, NULL };
	run_probe(x, c->prep, env.v, cmd, &r);
	char m1[64], m2[64], what[200];
	snprintf(m1, sizeof m1, "OMP_SANDBOX=%s", marker);
	snprintf(m2, sizeof m2, "PI_SANDBOX=%s", marker);
	snprintf(what, sizeof what, "markers %s and %s present in the sandbox", m1, m2);
	if (!allowed(&r))
		expect(x, &r, true, what);
	else if (has_line(r.out, m1) && has_line(r.out, m2))
		result(x, "PASS", what, NULL);
	else
		result(x, "FAIL", what, "missing from env's output");
	const char *w2 = "secret canary and NODE_OPTIONS absent from the clean environment";
	if (!allowed(&r))
		expect(x, &r, true, w2);
	else if (!sb_env_get(parent.v, x->canary_secret) || !has_name(r.out, "HOME"))
		result(x, "FAIL", w2, "the control did not hold (canary unset or empty output)");
	else if (has_name(r.out, x->canary_secret) || has_name(r.out, "NODE_OPTIONS"))
		result(x, "FAIL", w2, "it reached the sandboxed program");
	else
		result(x, "PASS", w2, NULL);
	probe_clear(&r);
	sb_envvec_clear(&env);
	sb_envvec_clear(&parent);
}

static void check_tmpdir(ctx *x, const tools *t)
{
	const sb_prep *p = x->c->prep;
	char what[4200];
	snprintf(what, sizeof what, "temp dir %s is a scratch root and writable in the sandbox",
		 p->tmpdir);
	if (!sb_tmpdir_accepted(x->c->platform, p->tmpdir)) {
		result(x, "FAIL", what, "not an accepted scratch root");
		return;
	}
	check_write_pair(x, t, p->tmpdir, what);
}

/* A copy of the prepared paths with one more extra read root.  The copy
 * borrows every string; only its extra_read array is its own.  */
static sb_prep prep_with_read(const sb_prep *p, const char *extra)
{
	sb_prep q = *p;
	q.extra_read = xcalloc(p->nextra_read + 1, sizeof(char *));
	if (p->nextra_read)
		memcpy(q.extra_read, p->extra_read, p->nextra_read * sizeof(char *));
	q.extra_read[q.nextra_read++] = (char *)extra;
	return q;
}

static void check_ssh_extra(ctx *x, const tools *t)
{
	const sb_prep *p = x->c->prep;
	const char *a = "~/.ssh refused as an extra read path without "
			"OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1";
	const char *b = "~/.ssh readable as an extra read path with "
			"OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1";
	canary k;
	if (!canary_make(x, ".ssh", &k)) {
		result(x, "SKIP", a, "cannot create a canary in ~/.ssh");
		result(x, "SKIP", b, "cannot create a canary in ~/.ssh");
		canary_drop(&k);
		return;
	}
	char *msg = NULL;
	size_t len = 0;
	FILE *mf = xopen_memstream(&msg, &len);
	sb_diag *d = sb_diag_new(mf, SB_FMT_TEXT);
	char **v;
	size_t n;
	int rc = sb_prep_extras("EXTRA_READ", k.dir, p->home, false, &v, &n, d);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	sb_diag_free(d);
	fclose(mf);
	if (rc != 0 && strstr(msg, "sensitive home location"))
		result(x, "PASS", a, NULL);
	else
		result(x, "FAIL", a, rc ? "the message does not say 'sensitive home location'"
					: "it was accepted");
	free(msg);
	msg = NULL;
	mf = xopen_memstream(&msg, &len);
	d = sb_diag_new(mf, SB_FMT_TEXT);
	rc = sb_prep_extras("EXTRA_READ", k.dir, p->home, true, &v, &n, d);
	sb_diag_free(d);
	fclose(mf);
	free(msg);
	if (rc || n != 1) {
		result(x, "FAIL", b, "the confirmed extra was refused");
	} else {
		sb_prep q = prep_with_read(p, v[0]);
		probe r;
		char *const cat[] = { (char *)t->cat, k.file, NULL };
		run_probe(x, &q, x->env.v, cat, &r);
		if (allowed(&r) && !strstr(r.out, "sbx-canary"))
			result(x, "FAIL", b, "read succeeded but the content differs");
		else
			expect(x, &r, true, b);
		probe_clear(&r);
		free(q.extra_read);
	}
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	canary_drop(&k);
}

static void check_stat_home(ctx *x, const tools *t)
{
	probe r;
	char *const st[] = { (char *)t->stat, x->c->prep->home, NULL };
	run_probe(x, x->c->prep, x->env.v, st, &r);
	expect(x, &r, true, "stat $HOME allowed");
	probe_clear(&r);
}

static void check_extra_read(ctx *x, const tools *t)
{
	const sb_prep *p = x->c->prep;
	const char *what = "an extra read path in $HOME is readable only when granted";
	char name[64];
	snprintf(name, sizeof name, ".sbx_extread_%d", (int)x->pid);
	char *top = path2(p->home, name);
	char *sub = path2(top, "sub");
	char *file = path2(sub, "file");
	if (mkdir(top, 0700) != 0 || mkdir(sub, 0700) != 0 || !write_file(file, "sbx-extra\n")) {
		result(x, "SKIP", what, "cannot create the test tree in $HOME");
	} else {
		probe r1, r2;
		char *const cat[] = { (char *)t->cat, file, NULL };
		run_probe(x, p, x->env.v, cat, &r1);
		sb_prep q = prep_with_read(p, sub);
		run_probe(x, &q, x->env.v, cat, &r2);
		free(q.extra_read);
		if (!denied(&r1)) {
			char *w = why(&r1, false);
			char *w2;
			w2 = fmt("without the grant: %s", w);
			result(x, "FAIL", what, w2);
			free(w);
			free(w2);
		} else if (!allowed(&r2) || !strstr(r2.out, "sbx-extra")) {
			char *w = why(&r2, true);
			char *w2;
			w2 = fmt("with the grant: %s", w);
			result(x, "FAIL", what, w2);
			free(w);
			free(w2);
		} else {
			result(x, "PASS", what, NULL);
		}
		probe_clear(&r1);
		probe_clear(&r2);
	}
	unlink(file);
	rmdir(sub);
	rmdir(top);
	free(file);
	free(sub);
	free(top);
}

int sb_selftest_run(const sb_selftest_cfg *c)
{
	ctx x = { .c = c, .pid = getpid() };
	snprintf(x.canary_secret, sizeof x.canary_secret, "SBX_SELFTEST_SECRET_%d", (int)x.pid);
	tools t;
	find_tools(&t);
	if (!t.ok) {
		fprintf(c->out, "FAIL: self-test probes (touch, rm, ls, cat, stat, env) not found in "
				"/usr/bin or /bin\n");
		return 1;
	}
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_diag_set_tool(d, "self-test");
	sb_env_in in = { .parent = c->parent_env, .home = c->prep->home,
			 .tmpdir = c->prep->tmpdir, .marker = sb_platform_marker(c->platform),
			 .pass_env = c->prep->s.pass_env };
	int rc = sb_env_build(&in, &x.env, d);
	sb_diag_free(d);
	if (rc) {
		fprintf(c->out, "FAIL: building the clean environment\n");
		return 1;
	}
	const sb_prep *p = c->prep;
	check_write_pair(&x, &t, p->workspace, "workspace write allowed (create and delete a file)");
	check_home_write_denied(&x, &t);
	check_etc_write_denied(&x, &t);
	check_omp_dir(&x, &t);
	check_list(&x, &t, p->workspace, true, "workspace listing allowed");
	check_protected(&x, &t, ".envrc");
	check_protected(&x, &t, ".mcp.json");
	check_sensitive_dir(&x, &t, ".ssh");
	check_sensitive_dir(&x, &t, ".gnupg");
	check_sensitive_dir(&x, &t, ".aws");
	if (c->platform == SB_PLAT_MACOS) {
		char *kc = path2(p->home, "Library/Keychains");
		struct stat st;
		if (stat(kc, &st) == 0)
			check_list(&x, &t, kc, false, "~/Library/Keychains listing denied");
		else
			result(&x, "SKIP", "~/Library/Keychains listing denied", "it does not exist");
		free(kc);
	}
	check_omp(&x);
	check_env(&x, &t);
	check_tmpdir(&x, &t);
	check_ssh_extra(&x, &t);
	check_stat_home(&x, &t);
	check_list(&x, &t, p->home, false, "listing $HOME denied");
	check_extra_read(&x, &t);
	sb_envvec_clear(&x.env);
	fprintf(c->out, "self-test: %s\n", x.fails ? "FAILED" : "passed");
	return x.fails ? 1 : 0;
}
