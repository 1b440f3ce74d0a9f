/* env.h - the child's environment: the original wrapper's clean allowlist
 * (docs/omp-sandboxed.md), OMP_SANDBOX_PASS_ENV, inherit mode, and the markers.
 *
 * An environment is a NULL-terminated vector of "NAME=value" strings
 * (sb_envvec owns them).  Nothing here reads the process environment
 * directly: callers pass `environ` (or a test vector), so every function is
 * testable with exact inputs.  */
#ifndef SB_ENV_H
#define SB_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/common/diag.h"
#include "runtime/common/status.h"

/* The value of NAME in `envp` (the first match), or NULL.  */
const char *sb_env_get(char *const envp[], const char *name);
/* A flag is on only when its value is exactly "1" (docs/omp-sandboxed.md, "Variables").  */
bool sb_flag_on(const char *value);
/* `[A-Za-z_][A-Za-z0-9_]*`.  */
bool sb_env_name_valid(const char *name);
/* Names that make a loader or interpreter run foreign code (LD_*, DYLD_*,
 * BASH_ENV, ENV, NODE_OPTIONS, PERL5OPT, PYTHONSTARTUP, ...): never passed
 * implicitly, only when named in OMP_SANDBOX_PASS_ENV.  */
bool sb_env_is_loader_var(const char *name);
/* HOME, TMPDIR, OMP_SANDBOX, PI_SANDBOX: set by the launcher, never copied.  */
bool sb_env_is_controlled(const char *name);
/* The entry of `known` closest to `name` (edit distance at most 1 + a third
 * of the name's length), or NULL: for "did you mean" hints.  */
const char *sb_closest_name(const char *name, const char *const *known, size_t n);

typedef struct sb_envvec {
	char **v;            /* NULL-terminated; owned */
	size_t n;
	size_t cap;          /* slots allocated (SB_GROW) */
} sb_envvec;

/* Set NAME=value, replacing an existing NAME in place (order kept).  */
void sb_envvec_set(sb_envvec *e, const char *name, const char *value);
/* Append a whole "NAME=value" entry (replacing NAME when present).  */
void sb_envvec_put(sb_envvec *e, const char *entry);
const char *sb_envvec_get(const sb_envvec *e, const char *name);
void sb_envvec_clear(sb_envvec *e);

typedef struct sb_env_in {
	char *const *parent;      /* the inherited environment */
	const char *home;         /* verified canonical home */
	const char *tmpdir;       /* validated canonical temp dir */
	const char *marker;       /* "seatbelt" (macOS) or "landlock" (Linux) */
	const char *pass_env;     /* raw OMP_SANDBOX_PASS_ENV, may be NULL */
	bool inherit;             /* OMP_SANDBOX_INHERIT_ENV=1 */
} sb_env_in;

/* Build the child's environment into *out (initially empty).
 * Clean mode: HOME, TMPDIR, OMP_SANDBOX, PI_SANDBOX, then the 13 allowlisted
 * names when set and non-empty, then each PASS_ENV name.  Inherit mode: the
 * parent's environment minus loader-injection variables, with the four
 * controlled names overridden, and a loud warning.
 * An invalid PASS_ENV name is refused: returns SB_REFUSED with an
 * error; otherwise 0.  */
int sb_env_build(const sb_env_in *in, sb_envvec *out, sb_diag *d);

#endif
