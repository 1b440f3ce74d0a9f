/* linux.h - the Linux backend: enforce a bound profile's file semantics with
 * Landlock (+ no_new_privs, capability drop, seccomp).  Design:
 * docs/linux.md.
 * Contract: the kernel never allows a file access that sb_eval_decide() denies
 * for the same bound profile; where Landlock cannot be exact it denies more
 * and the plan says so.  */
#ifndef SB_LINUX_H
#define SB_LINUX_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "compiler/common/diag.h"
#include "compiler/ir/ir.h"
#include "runtime/common/status.h"

/* How denies inside allowed trees are enforced (sbrun --mechanism;
 * docs/linux.md): public, so the programs name the choice they parse.  */
typedef enum {
	SB_LL_MECH_AUTO = 0,       /* masks where namespaces can be had */
	SB_LL_MECH_MASK,           /* masks, or refuse */
	SB_LL_MECH_COMPLEMENT,     /* complement expansion only */
} sb_ll_mechanism;

typedef enum {
	SB_LL_GATE_AUTO = 0,       /* the write gate where seccomp can have a listener */
	SB_LL_GATE_OFF,            /* masks and the complement only (narrower) */
} sb_ll_gate_mode;

typedef struct sb_linux_opts {
	const char *home;            /* canonical verified home */
	int min_abi;                 /* refuse below (default SB_LL_MIN_ABI_DEFAULT) */
	bool allow_unsandboxed;      /* run without Landlock, warning every time */
	bool debug_denials;          /* LOG_NEW_EXEC_ON on ABI >= 7 */
	bool allow_shm;              /* grant /dev/shm (opt-in) */
	bool keep_background;        /* leave the tree's processes running after
				      * the command (runtime/linux/tree.h) */
	bool allow_unenforceable;    /* run although some denies cannot be enforced */
	sb_ll_mechanism mechanism;   /* SB_LL_MECH_AUTO unless told */
	sb_ll_gate_mode gate;        /* SB_LL_GATE_AUTO unless told */
	/* The user the sandbox runs as and XDG_RUNTIME_DIR of the launch's
	 * environment (NULL: unset): the per-user runtime directories
	 * (/run/user/UID and XDG_RUNTIME_DIR) are denied whole.  Filled by the
	 * launcher; the planner reads neither the process's ids nor its
	 * environment (runtime/common/env.h).  */
	uid_t uid;
	const char *xdg_runtime_dir;
	/* The terminals on the launch's standard descriptors (ttyname of 0, 1,
	 * 2; filled by the launcher): one on a console outside /dev/pts (a
	 * virtual or serial console, /dev/console in a VM) gets /dev/tty's
	 * rights, so a tool that reopens its terminal by name (libuv, node)
	 * works there as in a pty.  */
	const char *const *terminals;
	size_t nterminals;
	/* Host rules decide (sb_egress_filtered): the tree runs in a network
	 * namespace with only loopback, behind the egress proxy (egress.c).  */
	const sb_egress *egress;
	/* The program's name ("sbrun", "omp-sandboxed"; NULL: "sbrun"): the
	 * egress proxy's log lines begin with it.  Borrowed.  */
	const char *tool;
	/* Set by sb_linux_exec_traced in its child: add the trace filter last
	 * and send its listener over trace_sock.  */
	bool trace;
	int trace_sock;
	/* Traced with masks, the stat family too: a probe of a hidden path
	 * is seen (trace_notify.h), at a round trip for every stat.  */
	bool trace_stat;
	/* ... and, traced, where the egress proxy reports the requests it
	 * refuses (sb_proxy_cfg.trace_fd); only the proxy's process keeps it,
	 * the sandboxed tree never holds it.  -1: none.  */
	int trace_events;
} sb_linux_opts;

typedef struct sb_ll_plan sb_ll_plan;

/* Translate a bound profile into a Landlock plan (rules, narrowings,
 * platform gaps, unenforceable statements).  Returns 0 with the plan in
 * *out (the caller frees it), or SB_REFUSED with diagnostics when a deny
 * cannot be enforced or the plan cannot be made; *out is then NULL.  */
int sb_ll_plan_build(const sb_profile *bound, const sb_linux_opts *o, sb_ll_plan **out,
		     sb_diag *d);
/* The human-readable plan: every rule and every narrowing/gap with its
 * source line (sbrun --plan).  */
void sb_ll_plan_print(const sb_ll_plan *plan, FILE *out);
size_t sb_ll_plan_rule_count(const sb_ll_plan *plan);
/* Do the plan's masks hide `path` so that it looks absent inside (below a
 * hidden directory, not bound back)?  False without masks.  */
bool sb_ll_plan_looks_absent(const sb_ll_plan *plan, const char *path);
void sb_ll_plan_free(sb_ll_plan *plan);

/* The launch steps (close fds, drop caps, NNP, seccomp, restrict, exec).
 * Returns only on failure, with a negative sb_status (status.h) after
 * reporting; the program maps it to an exit status.  `envp` is the final
 * environment.  */
sb_status sb_linux_exec(const sb_ll_plan *plan, const sb_linux_opts *o, const char *path,
		  char *const argv[], char *const envp[], sb_diag *d);

/* The same under the denial trace (runtime/common/denial.h): fork; the
 * child confines itself as sb_linux_exec does, with the trace filter,
 * and execs (when that fails it exits with exit_status_of(its status));
 * this process stays outside, reports denials to `t`, forwards signals,
 * and returns SB_OK with the command's exit status in *cmd_status (128+N
 * for signal N; status.h), or SB_REFUSED when the supervisor could not
 * start (*cmd_status untouched).  */
struct sb_tracer;
sb_status sb_linux_exec_traced(const sb_ll_plan *plan, const sb_linux_opts *o, const char *path,
			       char *const argv[], char *const envp[], struct sb_tracer *t,
			       int (*exit_status_of)(sb_status), int *cmd_status, sb_diag *d);

/* sbrun --doctor: kernel ABI, errata, handled masks, what each lost ABI
 * costs.  Returns 0 when Landlock is usable.  */
int sb_linux_doctor(FILE *out, int refused_exit_status);

#endif
