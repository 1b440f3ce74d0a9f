/* prep.h - launch preparation shared by sbrun and omp-sandboxed: the
 * OMP_SANDBOX_* settings, the verified home, the workspace, the temp dir and
 * the extra read/write roots (docs/omp-sandboxed.md, "Variables" and "The
 * protections"; defects D3-D5 and the other fixes of docs/migration.md).
 *
 * Every refusal is an error through the sb_diag that names what was refused
 * and the variable that overrides it (when one does), and makes
 * sb_prep_run() return SB_REFUSED.  The user database is read by the
 * caller (getpwuid) and passed in, so tests give exact inputs.  */
#ifndef SB_PREP_H
#define SB_PREP_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/common/diag.h"
#include "runtime/common/status.h"
#include "runtime/common/protect.h"
#include "runtime/common/tools.h"

typedef enum { SB_PLAT_LINUX, SB_PLAT_MACOS } sb_platform;

/* The native platform of this build.  */
sb_platform sb_platform_native(void);
/* "seatbelt" or "landlock": the OMP_SANDBOX / PI_SANDBOX marker value.  */
const char *sb_platform_marker(sb_platform p);

/* The OMP_SANDBOX_* variables (docs/omp-sandboxed.md, "Variables"); strings
 * borrowed from the env.  */
typedef struct sb_settings {
	const char *workspace, *extra_write, *extra_read, *pass_env;
	const char *tools;       /* OMP_SANDBOX_TOOLS (tools.h), may be NULL */
	const char *protect;     /* OMP_SANDBOX_PROTECT (tools.h), may be NULL */
	const char *xdg_config_home; /* XDG_CONFIG_HOME: git's global config (protect.h) */
	bool yolo, inherit_env, skip_home_verify, confirm_wide;
	bool confirm_sensitive_write, confirm_sensitive_read;
} sb_settings;

void sb_settings_from_env(sb_settings *s, char *const envp[]);
/* Warn about each OMP_SANDBOX_* variable that no setting reads (a typo such
 * as OMP_SANDBOX_EXTRA_WRTIE), with the closest known name.  Returns the
 * number of warnings.  */
int sb_settings_warn_unknown(char *const envp[], sb_diag *d);

typedef struct sb_prep_in {
	char *const *envp;       /* inherited environment (HOME, TMPDIR, settings) */
	const char *cwd;         /* current directory (default workspace) */
	const char *pw_home;     /* getpwuid(getuid())->pw_dir, NULL when the lookup failed */
	sb_platform platform;    /* decides the accepted temp-dir roots */
} sb_prep_in;

typedef struct sb_prep {
	sb_settings s;
	char *home;              /* canonical verified home */
	char *workspace;         /* canonical workspace */
	char *tmpdir;            /* canonical accepted temp dir */
	char **extra_write;      /* canonical, de-duplicated, in order */
	size_t nextra_write;
	char **extra_read;
	size_t nextra_read;
	sb_tools tools;          /* the presets (filled once the profile is read) */
	sb_protect protect;      /* git's files found at launch (sb_prep_protect) */
} sb_prep;

/* Steps 3-6 of docs/omp-sandboxed.md "Order of operations", in order: home,
 * workspace, temp dir, extra write roots, extra read roots.  Returns 0 or
 * SB_REFUSED (the first refusal stops).  *out is always initialised;
 * release it with sb_prep_clear.  */
int sb_prep_run(const sb_prep_in *in, sb_prep *out, sb_diag *d);
void sb_prep_clear(sb_prep *p);
/* Once the presets are selected: discover git's files for the protect-git
 * group and the git preset's includes (protect.h).  0 or SB_REFUSED.  */
int sb_prep_protect(sb_prep *p, sb_diag *d);

/* The pieces, for tests and the self-test.  Each returns 0 or
 * SB_REFUSED, and a malloc'd result in *out.  */
int sb_prep_home(const sb_prep_in *in, bool skip_verify, char **out, sb_diag *d);
int sb_prep_workspace(const sb_prep_in *in, const char *home, bool confirm_wide, char **out,
		      sb_diag *d);
/* Never fails: falls back to the platform's scratch root with a warning.  */
char *sb_prep_tmpdir(const sb_prep_in *in, sb_diag *d);
/* Is the canonical `p` an accepted temp dir for `plat` (docs/omp-sandboxed.md, Temp dir)?  */
bool sb_tmpdir_accepted(sb_platform plat, const char *p);
/* Process one EXTRA list ("EXTRA_WRITE" or "EXTRA_READ" as label).  */
int sb_prep_extras(const char *label, const char *list, const char *home, bool confirm,
		   char ***out, size_t *n, sb_diag *d);
/* Expand a leading "~" or "~/" with home; "~name" is refused (NULL, *why
 * set).  Caller frees.  */
char *sb_expand_tilde(const char *p, const char *home, const char **why);

#endif
