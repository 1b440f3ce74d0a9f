/* macos_trace.h - the denial trace on macOS (unverified on macOS: no Mac in
 * CI; docs/trace.md, "macOS").  Under the trace every deny rule of the -p
 * profile carries (with message "omp-sandbox rule FILE:LINE TAG")
 * (sb_launch_tag_denies), TAG random for this session.  Seatbelt logs each
 * violation of such a rule to the unified log with the message at the end
 * of the event's text; `log stream` with a predicate on the kernel's pid
 * and that ending shows this sandbox's violations only, and the tracer
 * (runtime/common/denial.h) names the rule and the fix.
 *
 * A violation in `log stream --style compact`:
 *   2026-12-01 10:00:00.123 E  kernel[0:2a1f] (Sandbox) Sandbox: cat(7866) deny(1) file-read-data /Users/u/.ssh/id_rsa
 *   omp-sandbox rule omp.sbx:24 OMPSBX-0123456789abcdef
 * The message may also end the first line; both are read.  A violation
 * line must name the kernel before "Sandbox: ".  The test build
 * replaces /usr/bin/log by the stand-in build/test-bin/fake_log, which
 * replays lines written in this format (not recorded on a Mac).  */
#ifndef SB_MACOS_TRACE_H
#define SB_MACOS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/common/diag.h"
#include "runtime/common/denial.h"
#include "runtime/common/launch.h"

#define SB_MACOS_LOG "/usr/bin/log"
#define SB_MACOS_TAG_PREFIX "OMPSBX-"
#define SB_MACOS_MSG_PREFIX "omp-sandbox rule "
enum { SB_MACOS_TAG_SIZE = sizeof SB_MACOS_TAG_PREFIX + 16 };

/* A fresh tag, "OMPSBX-" and 16 hex digits from the system's entropy.
 * Returns 0, or -1 with errno.  */
int sb_macos_trace_tag(char out[SB_MACOS_TAG_SIZE]);

/* The log program: SB_MACOS_LOG, or the test stand-in.  Caller frees.  */
char *sb_macos_log_path(void);

/* argv of the log process, NULL-terminated:
 *   LOG stream --style compact --predicate
 *   '(processID == 0) AND (eventMessage ENDSWITH "TAG")'
 * Only the kernel (pid 0) logs a Seatbelt violation, so a sandboxed
 * process cannot forge one with logger(1) or os_log.  Free with
 * sb_macos_argv_free.  */
char **sb_macos_log_argv(const char *log_path, const char *tag);
void sb_macos_argv_free(char **argv);

/* A target as the unified log prints it: a path up to Linux's PATH_MAX
 * (the parser is tested on Linux too; macOS's own limit is 1024).  */
enum { SB_SEATBELT_TARGET_MAX = 4096 };

/* One violation as the log shows it.  */
typedef struct sb_seatbelt_event {
	char process[64];
	int pid;
	char op[64];          /* "file-read-data" */
	char target[SB_SEATBELT_TARGET_MAX];   /* the path or address; "" when none */
	char origin[512];     /* from the message: "omp.sbx:24", "#3"; "" if none */
} sb_seatbelt_event;

typedef enum {
	SB_LOG_OTHER,         /* not a line of ours */
	SB_LOG_VIOLATION,     /* "Sandbox: NAME(PID) deny(N) OP TARGET": process, pid, op,
				 target; origin too when the message ends this line */
	SB_LOG_MESSAGE,       /* the message alone: origin */
} sb_log_line;

/* Parse one line (without its newline) of `log stream --style compact`
 * for this session's `tag`.  */
sb_log_line sb_macos_log_parse(const char *line, const char *tag, sb_seatbelt_event *ev);

/* The denial an event stands for (borrowing ev's strings).  False for an
 * operation the trace does not classify (mach-lookup, sysctl, ...).
 * `is_dir` says whether the target is a directory (a read is a listing).  */
bool sb_macos_event_denial(const sb_seatbelt_event *ev, bool is_dir, sb_denial *out);

/* Start `log stream`, wait until it filters, run the launch (sandbox-exec)
 * as a child, report each violation to `t` while it runs and shortly
 * after, stop the log.  Returns SB_OK with the command's status in
 * *cmd_status (128+N for signal N), or SB_REFUSED (with the reason;
 * *cmd_status untouched) when the log cannot be read or the command cannot
 * be forked: the trace was asked for, so the command is not run untraced.
 * A child that cannot enter the workspace or run sandbox-exec reports why
 * and exits with exit_status_of(its sb_status) (status.h).  */
sb_status sb_macos_exec_traced(const sb_launch *l, const char *tag, sb_tracer *t,
			       int (*exit_status_of)(sb_status), int *cmd_status, sb_diag *d);

#endif
