/* denial.h - the denial tracer shared by both platforms (docs/trace.md):
 * the backend (Linux: the seccomp user-notification supervisor,
 * runtime/linux/trace_notify.c; macOS: the unified log reader,
 * runtime/macos/macos_trace.c) reports each access the sandbox denied; the
 * tracer names the deciding rule and its policy line (sb_eval_decide on the
 * bound profile), says which variable or statement would allow it,
 * reports each (access, path) once, live, rate-limited, in words or one
 * JSON object a line, prints a summary at the end, and collects what
 * `--learn` writes.
 *
 * Everything in a report that comes from the sandboxed side (path, process
 * name) is escaped: a sandboxed process cannot forge a line.  */
#ifndef SB_DENIAL_H
#define SB_DENIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "compiler/ir/ir.h"

typedef enum {
	SB_ACC_READ,       /* read a file's data */
	SB_ACC_LIST,       /* read a directory */
	SB_ACC_WRITE,      /* write or truncate a file */
	SB_ACC_CREATE,     /* create a file, directory, link, node */
	SB_ACC_DELETE,     /* remove a file or directory (also a rename's source) */
	SB_ACC_EXEC,       /* execute a file */
	SB_ACC_NETWORK,    /* open a socket the profile denies (path: its family) */
	SB_ACC_CONNECT,    /* a request the egress proxy refused (path: the host) */
	SB_ACC_TRUNCATE,   /* truncate a file, refused on this kernel whatever the
			    * policy says (Linux below Landlock ABI 3) */
	SB_ACC__COUNT
} sb_access;

/* "read", "list", ...  */
const char *sb_access_word(sb_access a);

typedef struct sb_denial {
	sb_access access;
	const char *path;        /* absolute, canonical; NETWORK: "AF_INET" etc. */
	int pid;
	const char *process;     /* the process name (comm), may be NULL */
	const char *syscall;     /* "openat", ... or NULL */
	/* The backend's own evidence that the kernel refused it even where
	 * the profile allows it (Landlock narrower than the profile).  */
	bool platform_only;
	/* CONNECT: the port, and the proxy's reason ("denied by ...").  */
	int port;
	const char *detail;
	/* The deciding rule as the platform reported it ("omp.sbx:24": macOS,
	 * from the rule's trace message), or NULL: then sb_decide finds it.  */
	const char *origin;
	/* Linux masks: the path looks absent inside (ENOENT, not EACCES).  */
	bool absent;
} sb_denial;

typedef struct sb_tracer_cfg {
	const sb_profile *bound;     /* every param bound (sb_launch.bound) */
	const char *home, *workspace;
	bool extra_read_var;         /* the profile takes OMP_SANDBOX_EXTRA_READ */
	bool extra_write_var;        /* ... OMP_SANDBOX_EXTRA_WRITE */
	bool allow_hosts_var;        /* omp-sandboxed: OMP_SANDBOX_ALLOW_HOSTS adds hosts */
	/* The git files the launch protects (runtime/common/protect.h: the
	 * PROTECT_GIT subtrees and PROTECT_GIT_NODES nodes), borrowed: a
	 * denial there is lifted by OMP_SANDBOX_PROTECT, not by a grant.  */
	char *const *protect_git;
	size_t nprotect_git;
	char *const *protect_nodes;
	size_t nprotect_nodes;
	FILE *out;                   /* NULL: no live reports (learn only) */
	bool json;
	/* Rate limit of live reports: a burst, then `per_second`.  0: defaults
	 * (200 and 50).  Reports past the limit are counted as suppressed.  */
	unsigned burst, per_second;
	size_t max_distinct;         /* distinct (access, path) kept; 0: 10000 */
} sb_tracer_cfg;

typedef struct sb_tracer sb_tracer;

sb_tracer *sb_tracer_new(const sb_tracer_cfg *cfg);
void sb_tracer_free(sb_tracer *t);

/* One denied access, as the backend saw it.  Repeats of an (access, path)
 * only count.  */
void sb_tracer_denied(sb_tracer *t, const sb_denial *d);
/* A note the backend could not classify (lost events, an unreadable
 * path): counted, shown in the summary.  */
void sb_tracer_lost(sb_tracer *t, size_t n);

/* Something this trace cannot see (a static phrase, e.g. calls a kernel
 * filter refuses before any notification): named in the summary, so a
 * report with no denials is not read as "nothing was refused".  At most
 * SB_TRACER_MAX_UNOBSERVED; later ones are dropped.  */
#define SB_TRACER_MAX_UNOBSERVED 4
void sb_tracer_unobserved(sb_tracer *t, const char *what);

/* The summary line(s) at exit.  */
void sb_tracer_summary(sb_tracer *t, int status);

/* --learn: write the policy fragment that would allow what was denied
 * (docs/trace.md, "Learn").  `cmd` names the session in the header.
 * Returns 0, or -1 with errno (nothing half-written is left: the file is
 * written beside and renamed).  */
int sb_tracer_write_learned(sb_tracer *t, const char *file, const char *cmd);

/* Counters, for tests and the summary.  */
typedef struct sb_tracer_counts {
	size_t denied;       /* every denial event */
	size_t distinct;     /* distinct (access, path) */
	size_t reported;     /* live lines written */
	size_t suppressed;   /* distinct denials past the rate limit or the cap */
	size_t lost;         /* events the backend could not read */
} sb_tracer_counts;
sb_tracer_counts sb_tracer_counts_get(const sb_tracer *t);

/* The fix for one denial, as text ("OMP_SANDBOX_EXTRA_READ=~/.gitconfig
 * (sensitive: also set OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1)" or
 * "allow read /srv/data;").  Caller frees.  Exposed for the unit tests.  */
char *sb_tracer_fix(const sb_tracer *t, sb_access a, const char *path);

#endif
