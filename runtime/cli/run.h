/* run.h - the launcher flow shared by sbrun and omp-sandboxed, so both
 * apply the same protections in the same order (docs/omp-sandboxed.md, "Order of
 * operations"):
 *   find the command -> platform backend present / not nested -> home ->
 *   workspace -> temp dir -> extras -> markers -> action.
 * Refusals exit SB_EXIT_SETUP (78); a failed self-test 1; a launch returns
 * the command's own status (compiler/common/exit_status.h).  */
#ifndef SB_RUN_H
#define SB_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/ir/ir.h"
#include "runtime/linux/linux.h"

typedef enum {
	SB_ACT_LAUNCH,
	SB_ACT_PRINT_LAUNCH,    /* the exact macOS form: -D list + profile text
				   (sbrun --print-launch) */
	SB_ACT_PRINT_BOUND,     /* the profile with every param replaced by its
				   value (--print-profile, as the original printed
				   it): self-contained for sbc explain */
	SB_ACT_PLAN,            /* what the platform backend will enforce */
	SB_ACT_SELFTEST,
} sb_run_action;

typedef struct sb_run_cfg {
	const char *tool;              /* "sbrun" or "omp-sandboxed" */
	const char *argv0;             /* for the tamper check when /proc is absent */
	char *const *envp;             /* the inherited environment */
	const char *profile_name;      /* name in diagnostics */
	const char *profile_path;      /* the profile on disk, or NULL (embedded) */
	const char *profile_text;      /* NULL: read profile_path */
	size_t profile_len;
	const char *allowlist_text;    /* omp-sandboxed: the profile for
					  OMP_SANDBOX_NETWORK=allowlist, or NULL */
	size_t allowlist_len;
	const sb_bindings *user;       /* -D NAME=VALUE, may be NULL */
	bool allow_unsandboxed;        /* Linux: run without Landlock (warned) */
	bool allow_unenforceable;      /* Linux: run although some denies cannot be enforced */
	bool debug_denials;            /* Linux: log denials after exec (ABI >= 7) */
	bool allow_shm;                /* Linux: grant /dev/shm */
	bool keep_background;          /* Linux: --keep-background (or
					* OMP_SANDBOX_KEEP_BACKGROUND=1) */
	sb_ll_mechanism mechanism;     /* Linux: --mechanism */
	sb_ll_gate_mode write_gate;    /* Linux: --write-gate */
	int min_abi;                   /* Linux: refuse below this ABI; 0 = the default (any) */
	bool omp_mode;                 /* omp-sandboxed: command required first,
					  ~/.omp created, OMP_SANDBOX_YOLO */
	/* The denial trace (docs/trace.md): on with `trace` or `learn_file`.  */
	bool trace;                    /* live reports */
	const char *trace_file;        /* NULL: stderr */
	bool trace_json;               /* one JSON object a line */
	bool trace_stat;               /* Linux: the stat family too: a probe
					* of a path a mask hides is seen, at a
					* round trip per stat */
	const char *learn_file;        /* --learn OUT.sbx, or NULL */
	const char *command;           /* name or path; NULL: none (sbrun without one) */
	bool plain_command;            /* omp-sandboxed --sandbox-run: not omp, no YOLO */
	char *const *args;             /* arguments after the command */
	size_t nargs;
} sb_run_cfg;

int sb_run(const sb_run_cfg *cfg, sb_run_action act);
/* The one mapping of a library status (runtime/common/status.h) to an
 * exit status (docs/exit-status.md); a status > 0 (a command's) passes.  */
int sb_exit_status_of(int rc);

#endif
