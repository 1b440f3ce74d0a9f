/* env.c - the child's environment (docs/omp-sandboxed.md, "The
 * protections": Environment; defect D6 of docs/migration.md; the loader
 * variables that never pass implicitly).  */
#include "runtime/common/env.h"

#include <stdlib.h>
#include <string.h>
#include "compiler/common/xalloc.h"

/* The original's allowlist, in its order (docs/omp-sandboxed.md, Environment).  */
static const char *const allowlist[] = {
	"PATH", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
	"TERM", "TERM_PROGRAM", "COLORTERM", "__CF_USER_TEXT_ENCODING", "COMMAND_MODE",
};

/* Exact names that inject code into a loader, shell or interpreter.  */
static const char *const loader_exact[] = {
	"BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "IFS",
	"NODE_OPTIONS", "NODE_PATH", "BUN_OPTIONS", "PERL5OPT", "PERL5LIB", "PERLLIB",
	"PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "PYTHONINSPECT", "RUBYOPT", "RUBYLIB",
	"GCONV_PATH", "HOSTALIASES", "LOCALDOMAIN", "RES_OPTIONS", "NLSPATH",
	"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "GIT_EXEC_PATH",
	"GIT_SSH_COMMAND", "GIT_CONFIG_PARAMETERS", "ZDOTDIR", "MALLOC_CONF",
};
/* Prefixes of the same kind.  */
static const char *const loader_prefix[] = { "LD_", "DYLD_", "BASH_FUNC_", "MallocStack" };

static const char *const controlled[] = { "HOME", "TMPDIR", "OMP_SANDBOX", "PI_SANDBOX" };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static size_t name_len(const char *entry)
{
	const char *eq = strchr(entry, '=');
	return eq ? (size_t)(eq - entry) : strlen(entry);
}

const char *sb_env_get(char *const envp[], const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; envp && envp[i]; i++)
		if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

bool sb_flag_on(const char *value)
{
	return value && strcmp(value, "1") == 0;
}

bool sb_env_name_valid(const char *name)
{
	if (!name || !(name[0] == '_' || (name[0] >= 'A' && name[0] <= 'Z') ||
		       (name[0] >= 'a' && name[0] <= 'z')))
		return false;
	for (const char *p = name + 1; *p; p++)
		if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

static bool name_is_loader(const char *name, size_t n)
{
	for (size_t i = 0; i < COUNT(loader_exact); i++)
		if (strlen(loader_exact[i]) == n && strncmp(loader_exact[i], name, n) == 0)
			return true;
	for (size_t i = 0; i < COUNT(loader_prefix); i++) {
		size_t l = strlen(loader_prefix[i]);
		if (n >= l && strncmp(loader_prefix[i], name, l) == 0)
			return true;
	}
	return false;
}

bool sb_env_is_loader_var(const char *name)
{
	return name_is_loader(name, strlen(name));
}

bool sb_env_is_controlled(const char *name)
{
	for (size_t i = 0; i < COUNT(controlled); i++)
		if (strcmp(controlled[i], name) == 0)
			return true;
	return false;
}

/* Levenshtein distance, two rows; names are short.  */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *prev = xcalloc(lb + 1, sizeof *prev), *cur = xcalloc(lb + 1, sizeof *cur);
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		size_t *t = prev;
		prev = cur;
		cur = t;
	}
	size_t r = prev[lb];
	free(prev);
	free(cur);
	return r;
}

const char *sb_closest_name(const char *name, const char *const *known, size_t n)
{
	const char *best = NULL;
	size_t bestd = 1 + strlen(name) / 3 + 1;
	for (size_t i = 0; i < n; i++) {
		size_t dd = distance(name, known[i]);
		if (dd < bestd) {
			bestd = dd;
			best = known[i];
		}
	}
	return best;
}

/* ---- sb_envvec ---- */

void sb_envvec_put(sb_envvec *e, const char *entry)
{
	size_t n = name_len(entry);
	char *copy = xstrdup(entry);
	for (size_t i = 0; i < e->n; i++)
		if (name_len(e->v[i]) == n && strncmp(e->v[i], entry, n) == 0) {
			free(e->v[i]);
			e->v[i] = copy;
			return;
		}
	SB_GROW(e->v, e->n + 1, e->cap, 16);   /* and the NULL after it */
	e->v[e->n++] = copy;
	e->v[e->n] = NULL;
}

void sb_envvec_set(sb_envvec *e, const char *name, const char *value)
{
	size_t ln = strlen(name), lv = strlen(value);
	char *entry = xmalloc(ln + lv + 2);
	memcpy(entry, name, ln);
	entry[ln] = '=';
	memcpy(entry + ln + 1, value, lv + 1);
	sb_envvec_put(e, entry);
	free(entry);
}

const char *sb_envvec_get(const sb_envvec *e, const char *name)
{
	return e->v ? sb_env_get(e->v, name) : NULL;
}

void sb_envvec_clear(sb_envvec *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i]);
	free(e->v);
	e->v = NULL;
	e->n = e->cap = 0;
}

/* ---- building ---- */

static void set_controlled(const sb_env_in *in, sb_envvec *out)
{
	sb_envvec_set(out, "HOME", in->home);
	sb_envvec_set(out, "TMPDIR", in->tmpdir);
	sb_envvec_set(out, "OMP_SANDBOX", in->marker);
	sb_envvec_set(out, "PI_SANDBOX", in->marker);
}

/* Split PASS_ENV on ':' and validate every name before anything is copied:
 * a bad name refuses the launch (D6), it never half-applies.  */
static int pass_env_names(const char *list, char ***names, size_t *n, sb_diag *d)
{
	*names = NULL;
	*n = 0;
	size_t cap = 0;
	if (!list)
		return 0;
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;
	for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (!sb_env_name_valid(tok)) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "pass-env",
				       "OMP_SANDBOX_PASS_ENV: '%s' is not a valid variable name "
				       "(letters, digits and '_', not starting with a digit); "
				       "fix or remove it from OMP_SANDBOX_PASS_ENV", tok);
			rc = SB_REFUSED;
			continue;
		}
		bool dup = false;
		for (size_t i = 0; i < *n; i++)
			dup = dup || strcmp((*names)[i], tok) == 0;
		if (dup)
			continue;
		SB_GROW(*names, *n, cap, 8);
		(*names)[(*n)++] = xstrdup(tok);
	}
	free(copy);
	return rc;
}

int sb_env_build(const sb_env_in *in, sb_envvec *out, sb_diag *d)
{
	char **names;
	size_t nnames;
	if (pass_env_names(in->pass_env, &names, &nnames, d)) {
		sb_strv_free(names, nnames);
		return SB_REFUSED;
	}
	if (in->inherit) {
		sb_diag_report(d, SB_SEV_WARNING, NULL, "inherit-env",
			       "OMP_SANDBOX_INHERIT_ENV=1: the full parent environment is passed "
			       "to the sandboxed command, including any secrets in it (insecure); "
			       "loader-injection variables are still dropped unless named in "
			       "OMP_SANDBOX_PASS_ENV; unset OMP_SANDBOX_INHERIT_ENV to use the clean "
			       "environment");
		for (size_t i = 0; in->parent && in->parent[i]; i++) {
			const char *e = in->parent[i];
			size_t n = name_len(e);
			if (!strchr(e, '=') || name_is_loader(e, n))
				continue;
			sb_envvec_put(out, e);
		}
	}
	set_controlled(in, out);
	if (!in->inherit)
		for (size_t i = 0; i < COUNT(allowlist); i++) {
			const char *v = sb_env_get(in->parent, allowlist[i]);
			if (v && *v)
				sb_envvec_set(out, allowlist[i], v);
		}
	for (size_t i = 0; i < nnames; i++) {
		const char *name = names[i];
		if (sb_env_is_controlled(name)) {
			sb_diag_report(d, SB_SEV_WARNING, NULL, "pass-env",
				       "OMP_SANDBOX_PASS_ENV: %s is set by the launcher and cannot be "
				       "passed through; ignored (remove it from OMP_SANDBOX_PASS_ENV)",
				       name);
			continue;
		}
		const char *v = sb_env_get(in->parent, name);
		if (!v || !*v) {
			sb_diag_report(d, SB_SEV_WARNING, NULL, "pass-env",
				       "OMP_SANDBOX_PASS_ENV: %s is not set or empty; not passed", name);
			continue;
		}
		if (sb_env_is_loader_var(name))
			sb_diag_report(d, SB_SEV_WARNING, NULL, "pass-env",
				       "OMP_SANDBOX_PASS_ENV: %s can make programs in the sandbox load "
				       "foreign code; passed because it is named explicitly", name);
		sb_envvec_set(out, name, v);
	}
	sb_strv_free(names, nnames);
	return 0;
}
