/* selftest.h - `omp-sandboxed --self-test` and `sbrun --self-test PROFILE`:
 * the original's checks (docs/omp-sandboxed.md, "Self-test") run for real
 * under the platform sandbox, with defects D9 and D10 (docs/migration.md)
 * fixed:
 *  - every check runs under its own, freshly built sandbox (no shared state);
 *  - every deny check has an allow control under the same profile and
 *    counts only a denial by the sandbox ("Permission denied" / "Operation
 *    not permitted" from a probe that started), never a sandbox that did not
 *    start;
 *  - existence-dependent probes use canaries they create (and remove), or
 *    SKIP with the reason;
 *  - probes are programs run by absolute path, never through PATH or a shell.
 * Each check prints one line "PASS: ...", "FAIL: ... (reason)" or
 * "SKIP: ... (reason)" on `out`.  */
#ifndef SB_SELFTEST_H
#define SB_SELFTEST_H

#include <stdio.h>
#include "compiler/ir/ir.h"
#include "runtime/linux/linux.h"
#include "runtime/common/prep.h"

typedef struct sb_selftest_cfg {
	sb_platform platform;
	const sb_profile *profile;     /* unbound, as read */
	const sb_prep *prep;           /* the verified paths (extras included) */
	const sb_bindings *user;       /* -D bindings, may be NULL */
	char *const *parent_env;       /* the inherited environment */
	const char *omp;               /* absolute omp, or NULL: omp checks SKIP */
	const char *sandbox_exec;      /* macOS backend */
	const sb_linux_opts *lopts;    /* Linux backend */
	FILE *out;
} sb_selftest_cfg;

/* Run every check.  Returns 0 when nothing failed, else 1.  */
int sb_selftest_run(const sb_selftest_cfg *c);

#endif
