/* run_trace.c - the launch under the denial trace (run_trace.h).  */
#include "runtime/cli/run_trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdint.h>
#include <sys/stat.h>
#include "compiler/common/path.h"
#include "compiler/eval/eval.h"
#include "compiler/common/xalloc.h"
#include "runtime/common/denial.h"
#include "runtime/macos/macos_trace.h"

int sb_run_trace_check(const sb_run_cfg *cfg, sb_diag *d)
{
	if (cfg->learn_file) {
		char *abs = cfg->learn_file[0] == '/' ? xstrdup(cfg->learn_file) : NULL;
		if (!abs) {
			char cwd[4096];
			abs = getcwd(cwd, sizeof cwd) ? sb_path_join(cwd, cfg->learn_file) : NULL;
		}
		char *dir = abs ? sb_path_dirname(abs) : NULL;
		int ok = dir && access(dir, W_OK) == 0;
		int e = errno;
		free(dir);
		free(abs);
		if (!ok) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "learn",
				       "cannot write the learned policy %s: its directory is not "
				       "writable (%s)", cfg->learn_file, strerror(e));
			return SB_REFUSED;
		}
	}
	return 0;
}

/* Does the profile take the OMP_SANDBOX_EXTRA_* list for this access?  */
static bool takes_param(const sb_profile *prof, const char *param)
{
	char *text = sb_profile_text(prof);
	char *needle = xasprintf("(param \"%s\")", param);
	bool r = strstr(text, needle) != NULL;
	free(needle);
	free(text);
	return r;
}

static char *session_text(const sb_launch *l, sb_platform plat)
{
	/* macOS: the command after sandbox-exec -p TEXT -D N=V... */
	size_t first = 0;
	if (plat == SB_PLAT_MACOS && l->argc > 3 && !strcmp(l->argv[1], "-p")) {
		first = 3;
		while (first + 1 < l->argc && !strcmp(l->argv[first], "-D"))
			first += 2;
	}
	size_t n = 1;
	for (size_t i = first; i < l->argc; i++)
		n += strlen(l->argv[i]) + 1;
	char *s = xmalloc(n), *w = s;
	for (size_t i = first; i < l->argc; i++)
		w += sprintf(w, "%s%s", i > first ? " " : "", l->argv[i]);
	*w = '\0';
	return s;
}

/* 1 or 2 when `file` names this process's standard output or error
 * (/dev/stdout, /dev/stderr, /dev/fd/1, /dev/fd/2), else -1.  */
static int stream_named(const char *file)
{
	if (!strcmp(file, "/dev/stdout") || !strcmp(file, "/dev/fd/1"))
		return 1;
	if (!strcmp(file, "/dev/stderr") || !strcmp(file, "/dev/fd/2"))
		return 2;
	return -1;
}

/* Can the sandboxed tree change, delete or replace the trace file at
 * `real` (the profile allows writing it, or creating or deleting in its
 * directory)?  Then it could forge the report.  */
static bool trace_file_writable(const sb_profile *bound, const char *real)
{
	sb_eval *ev = sb_eval_new(bound, 0);
	char *dir = sb_path_dirname(real);
	char *sib = sb_path_join(dir, ".sbx-trace-sibling");
	bool w = sb_eval_decide(ev, SB_OP_FILE_WRITE_DATA, real, SB_VNODE_REGULAR).kind == SB_DEC_ALLOW ||
		 sb_eval_decide(ev, SB_OP_FILE_WRITE_UNLINK, real, SB_VNODE_REGULAR).kind == SB_DEC_ALLOW ||
		 sb_eval_decide(ev, SB_OP_FILE_WRITE_CREATE, sib, SB_VNODE_REGULAR).kind == SB_DEC_ALLOW;
	free(sib);
	free(dir);
	sb_eval_free(ev);
	return w;
}

/* The trace file is written through this stream, which keeps a digest of
 * every byte written (FNV-1a, 64 bits: a check against tampering by the
 * sandboxed tree, which never sees the digest, not a cryptographic seal).  */
typedef struct trace_sink {
	int fd;
	uint64_t digest;
	off_t written;
} trace_sink;

static uint64_t fnv(uint64_t h, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	trace_sink *s = cookie;
	size_t done = 0;
	while (done < n) {
		ssize_t k = write(s->fd, buf + done, n - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		s->digest = fnv(s->digest, (const unsigned char *)buf + done, (size_t)k);
		s->written += k;
		done += (size_t)k;
	}
	return done ? (ssize_t)done : -1;
}

static int sink_close(void *cookie)
{
	return close(((trace_sink *)cookie)->fd);
}

/* After the run: is the trace file at its name still the one written, and
 * holding exactly what the trace wrote?  The report went through the
 * descriptor opened at launch, whatever happened to the name.  */
static void trace_file_verify(FILE *out, const trace_sink *s, const char *file, sb_diag *d)
{
	struct stat fs, ps;
	fflush(out);
	if (fstat(s->fd, &fs) != 0)
		return;
	if (stat(file, &ps) != 0 || ps.st_dev != fs.st_dev || ps.st_ino != fs.st_ino) {
		sb_diag_report(d, SB_SEV_WARNING, NULL, "trace",
			       "the trace file %s was deleted or replaced during the run: what is "
			       "there now was not written by the trace", file);
		return;
	}
	uint64_t h = 0xcbf29ce484222325ULL;
	char buf[65536];
	off_t at = 0;
	ssize_t k;
	while ((k = pread(s->fd, buf, sizeof buf, at)) > 0) {
		h = fnv(h, (const unsigned char *)buf, (size_t)k);
		at += k;
	}
	if (k < 0)
		return;   /* cannot tell (opened for writing only on some systems) */
	if (at != s->written || h != s->digest)
		sb_diag_report(d, SB_SEV_WARNING, NULL, "trace",
			       "the trace file %s was changed during the run (%lld bytes; the trace "
			       "wrote %lld, and not these): do not trust its content", file,
			       (long long)at, (long long)s->written);
}

int sb_run_traced(const sb_run_cfg *cfg, sb_platform plat, const sb_launch *l,
		  const sb_profile *prof, const sb_prep *prep, const sb_ll_plan *plan,
		  const sb_linux_opts *lo, const char *tag,
		  sb_diag *d)
{
	FILE *out = NULL;
	trace_sink sink = { .fd = -1, .digest = 0xcbf29ce484222325ULL };
	if (cfg->trace && cfg->trace_file) {
		/* Never through a symlink (a planted one in a shared directory
		 * would aim the trace at another file); the names of this
		 * process's own streams are taken as the streams.  */
		int std = stream_named(cfg->trace_file);
		int fd = std >= 0 ? fcntl(std, F_DUPFD_CLOEXEC, 3)
				  : open(cfg->trace_file,
					 O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (std < 0 && fd < 0 && errno == EACCES)   /* writable only: not checked */
			fd = open(cfg->trace_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
				  0600);
		if (std < 0 && fd >= 0) {
			sink.fd = fd;
			cookie_io_functions_t io = { .write = sink_write, .close = sink_close };
			out = fopencookie(&sink, "w", io);
		} else {
			out = fd >= 0 ? fdopen(fd, "w") : NULL;
		}
		if (!out) {
			int e = errno;
			sb_diag_report(d, SB_SEV_ERROR, NULL, "trace", "cannot write the trace to %s: %s%s",
				       cfg->trace_file, strerror(e),
				       e == ELOOP ? " (it is a symbolic link, which the trace never "
						    "follows; name the file it points to)" : "");
			if (fd >= 0)
				close(fd);
			return SB_REFUSED;
		}
		char *real = std < 0 ? realpath(cfg->trace_file, NULL) : NULL;
		if (real && l->bound && trace_file_writable(l->bound, real))
			sb_diag_report(d, SB_SEV_WARNING, NULL, "trace",
				       "the trace file %s lies where the sandbox may write: the sandboxed "
				       "program could delete or rewrite it and leave a forged report "
				       "(sbrun warns at exit when it was replaced or changed); write the "
				       "trace outside every writable root (workspace, ~/.omp, temp dirs, "
				       "extra write paths)", real);
		free(real);
	} else if (cfg->trace) {
		out = stderr;
	}
	sb_tracer_cfg tc = {
		.bound = l->bound, .home = prep->home, .workspace = prep->workspace,
		.extra_read_var = takes_param(prof, "EXTRA_READ*"),
		.extra_write_var = takes_param(prof, "EXTRA_WRITE*"),
		.allow_hosts_var = cfg->omp_mode,
		.out = out, .json = cfg->trace_json,
		.protect_git = prep->protect.deny, .nprotect_git = prep->protect.ndeny,
		.protect_nodes = prep->protect.nodes, .nprotect_nodes = prep->protect.nnodes,
	};
	sb_tracer *t = sb_tracer_new(&tc);
	fflush(NULL);
	int status = plat == SB_PLAT_MACOS
			     ? sb_macos_exec_traced(l, tag, t, sb_exit_status_of, d)
			     : sb_linux_exec_traced(plan, lo, l->exec_path, l->argv, l->envp, t,
						    sb_exit_status_of, d);
	sb_tracer_summary(t, status);
	if (cfg->learn_file) {
		char *session = session_text(l, plat);
		if (sb_tracer_write_learned(t, cfg->learn_file, session) != 0) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "learn",
				       "cannot write the learned policy %s: %s", cfg->learn_file,
				       strerror(errno));
			if (!status)
				status = SB_REFUSED;
		} else {
			sb_tracer_counts c = sb_tracer_counts_get(t);
			fprintf(stderr, "%s: wrote %s (%zu distinct denial%s); check it with sbc --check "
					"after including it in your policy\n", cfg->tool,
				cfg->learn_file, c.distinct, c.distinct == 1 ? "" : "s");
		}
		free(session);
	}
	sb_tracer_free(t);
	if (out && sink.fd >= 0)
		trace_file_verify(out, &sink, cfg->trace_file, d);
	if (out && out != stderr)
		fclose(out);
	return status;
}
