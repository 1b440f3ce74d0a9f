/* run_trace.h - the launch under the denial trace (sbrun --trace/--learn,
 * OMP_SANDBOX_TRACE): set up the tracer (runtime/common/denial.h) from the
 * launch, run the backend's traced launch, print the summary and write
 * the learned fragment.  Used by run.c only.  */
#ifndef SB_RUN_TRACE_H
#define SB_RUN_TRACE_H

#include "compiler/common/diag.h"
#include "runtime/cli/run.h"
#include "runtime/common/launch.h"
#include "runtime/common/prep.h"
#include "runtime/linux/linux.h"

/* Refuse early what would fail after the session: an unwritable trace
 * file or learn directory.  0 or SB_REFUSED.  */
int sb_run_trace_check(const sb_run_cfg *cfg, sb_diag *d);

/* `tag`:
 * macOS, the session's tag in the profile's deny rules
 * (runtime/macos/macos_trace.h).  Returns the command's exit status, or
 * SB_REFUSED.  */
int sb_run_traced(const sb_run_cfg *cfg, sb_platform plat, const sb_launch *l,
		  const sb_profile *prof, const sb_prep *prep, const sb_ll_plan *plan,
		  const sb_linux_opts *lo, const char *tag,
		  sb_diag *d);

#endif
