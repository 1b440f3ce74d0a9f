/* tools.c - the tool presets at launch (tools.h).  */
#include "runtime/common/tools.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compiler/common/path.h"
#include "compiler/eval/eval.h"
#include "runtime/common/env.h"
#include "compiler/common/xalloc.h"
#include "runtime/common/status.h"

/* Each tool's own cache setting, pointed into the launcher's cache root
 * (the value is relative to it).  XDG_CACHE_HOME covers the tools that
 * follow the XDG layout (pip, uv, go build, yarn, pnpm, node-gyp,
 * corepack...); the others have their own variable.  Only the presets that
 * are on get theirs.  */
static const struct {
	const char *preset, *var, *rel;
} cache_env[] = {
	{ "cache", "XDG_CACHE_HOME", "" },
	{ "node", "npm_config_cache", "npm" },
	{ "bun", "BUN_INSTALL_CACHE_DIR", "bun" },
	{ "python", "PIP_CACHE_DIR", "pip" },
	{ "go", "GOPATH", "go" },
	{ "rust", "CARGO_HOME", "cargo" },
	{ "deno", "DENO_DIR", "deno" },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static size_t index_of(const sb_tools *t, const char *name, size_t len)
{
	for (size_t i = 0; i < t->n; i++)
		if (strlen(t->names[i]) == len && strncmp(t->names[i], name, len) == 0)
			return i;
	return t->n;
}

bool sb_tools_is_protect(const char *name)
{
	return strncmp(name, SB_PROTECT_PREFIX, sizeof SB_PROTECT_PREFIX - 1) == 0;
}

/* Apply one selector (OMP_SANDBOX_TOOLS or OMP_SANDBOX_PROTECT) to the
 * presets of its family: unset or empty, all; "none", none; else the
 * comma-separated names (for protect: without the "protect-" prefix).
 * Returns whether a name was selected.  */
static bool select_family(sb_tools *out, const char *value, bool protect, const char *var,
			  sb_diag *d)
{
	size_t skip = protect ? sizeof SB_PROTECT_PREFIX - 1 : 0;
	bool all = !value || !*value;
	if (all || strcmp(value, "none") == 0) {
		for (size_t i = 0; i < out->n; i++)
			if (sb_tools_is_protect(out->names[i]) == protect)
				out->on[i] = all;
		return false;
	}
	/* the names a user writes in this variable */
	const char **known = xcalloc(out->n ? out->n : 1, sizeof *known);
	size_t nk = 0;
	for (size_t i = 0; i < out->n; i++)
		if (sb_tools_is_protect(out->names[i]) == protect)
			known[nk++] = out->names[i] + skip;
	bool any = false;
	for (const char *s = value; *s;) {
		size_t len = strcspn(s, ",");
		if (len) {
			char *full = protect ? xasprintf("%s%.*s", SB_PROTECT_PREFIX, (int)len, s)
					     : xstrndup(s, len);
			size_t k = index_of(out, full, strlen(full));
			if (k < out->n && sb_tools_is_protect(out->names[k]) == protect) {
				out->on[k] = true;
				any = true;
			} else if (d) {
				char *bad = xstrndup(s, len);
				const char *near = sb_closest_name(bad, (const char *const *)known, nk);
				sb_diag_report(d, SB_SEV_WARNING, NULL, "tools",
					       "%s: no %s named '%s'%s%s%s; ignored "
					       "(known: see omp-sandboxed --print-profile, or 'none')",
					       var, protect ? "protection group" : "preset", bad,
					       near ? " (did you mean '" : "", near ? near : "",
					       near ? "'?)" : "");
				free(bad);
			}
			free(full);
		}
		s += len;
		if (*s == ',')
			s++;
	}
	free(known);
	return any;
}

void sb_tools_select(const char *value, const char *protect, const sb_profile *prof,
		     sb_tools *out, sb_diag *d)
{
	memset(out, 0, sizeof *out);
	size_t np = 0, cap = 0;
	sb_param *params = prof ? sb_profile_params(prof, &np) : NULL;
	for (size_t i = 0; i < np; i++)
		if (params[i].kind == SB_PARAM_LIST && params[i].tool && !params[i].index) {
			SB_GROW(out->names, out->n, cap, 8);
			out->names[out->n++] = xstrdup(params[i].tool);
		}
	if (params)
		sb_param_array_free(params, np);
	if (out->n)
		qsort(out->names, out->n, sizeof *out->names, cmp_str);
	out->on = xcalloc(out->n ? out->n : 1, sizeof *out->on);
	select_family(out, protect, true, "OMP_SANDBOX_PROTECT", d);
	bool any = select_family(out, value, false, "OMP_SANDBOX_TOOLS", d);
	size_t c = index_of(out, "cache", 5);
	if (any && c < out->n)
		out->on[c] = true;
}

bool sb_tools_is_on(const sb_tools *t, const char *name)
{
	size_t k = index_of(t, name, strlen(name));
	return k < t->n && t->on[k];
}

bool sb_tools_any_on(const sb_tools *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->on[i] && !sb_tools_is_protect(t->names[i]))
			return true;
	return false;
}

void sb_tools_bind(const sb_tools *t, sb_bindings *out)
{
	static const char *const gate_on[] = { "" };
	for (size_t i = 0; i < t->n; i++) {
		char *param = sb_param_gate_name(t->names[i]);
		sb_bindings_set_list(out, param, gate_on, t->on[i] ? 1 : 0);
		free(param);
	}
}

static char *cache_root(const char *home)
{
	return sb_path_join(home, SB_TOOLS_CACHE_REL);
}

char **sb_tools_env(const sb_tools *t, const char *home, size_t *n)
{
	*n = 0;
	char **v = NULL;
	size_t cap = 0;
	if (!sb_tools_is_on(t, "cache"))
		return NULL;
	char *root = cache_root(home);
	for (size_t i = 0; i < COUNT(cache_env); i++) {
		if (!sb_tools_is_on(t, cache_env[i].preset))
			continue;
		char *e = xasprintf("%s=%s%s%s", cache_env[i].var, root,
				    cache_env[i].rel[0] ? "/" : "", cache_env[i].rel);
		SB_GROW(v, *n, cap, 8);
		v[(*n)++] = e;
	}
	free(root);
	return v;
}

/* mkdir, then check what is there: a directory of ours, not a symlink
 * planted to redirect the sandbox's writes (O_NOFOLLOW on the open).  */
static int make_owned_dir(const char *p, sb_diag *d)
{
	if (mkdir(p, 0700) != 0 && errno != EEXIST) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "cache",
			       "cannot create the sandbox cache directory %s: %s; create it "
			       "(mkdir -m 700 %s) or set OMP_SANDBOX_TOOLS=none", p, strerror(errno), p);
		return SB_REFUSED;
	}
	int fd = open(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	int rc = 0;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_uid != getuid()) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "cache",
			       "the sandbox cache directory %s is %s; refusing (remove it, or set "
			       "OMP_SANDBOX_TOOLS=none)", p,
			       fd < 0 ? "not a directory (or a symlink)" : "owned by another user");
		rc = SB_REFUSED;
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

int sb_tools_prepare_cache(const sb_tools *t, const char *home, sb_diag *d)
{
	if (!sb_tools_is_on(t, "cache"))
		return 0;
	char *dot = sb_path_join(home, ".cache");
	char *root = cache_root(home);
	/* ~/.cache itself is the user's (created 0700 when missing, as XDG
	 * says); only the omp-sandbox directory in it is the launcher's.  */
	int rc = 0;
	if (mkdir(dot, 0700) != 0 && errno != EEXIST) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "cache", "cannot create %s: %s; create it, or "
			       "set OMP_SANDBOX_TOOLS=none", dot, strerror(errno));
		rc = SB_REFUSED;
	}
	if (!rc)
		rc = make_owned_dir(root, d);
	free(dot);
	free(root);
	return rc;
}

/* Does this ~/.npmrc set something npm inside would miss: a registry (or
 * a scope's), credentials, certificates or a proxy?  Only the keys are
 * looked at, never printed.  A file with none of them (fund=false, an
 * empty one) changes nothing that matters inside, and is not noted at
 * every launch.  Unreadable: assume it does.  */
static bool npmrc_matters(const char *path)
{
	static const char *const keys[] = { "registry", "_auth", "_authtoken", "_password",
					    "username", "certfile", "keyfile", "cafile", "ca",
					    "cert", "key", "proxy", "https-proxy", "noproxy" };
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	FILE *f = fd >= 0 ? fdopen(fd, "re") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return true;
	}
	bool found = false;
	char *line = NULL;   /* a line of any length */
	size_t cap = 0;
	while (!found && getline(&line, &cap, f) > 0) {
		char *k = line + strspn(line, " \t");
		if (*k == ';' || *k == '#')
			continue;
		size_t klen = strcspn(k, "=");
		if (!k[klen])
			continue;
		while (klen && (k[klen - 1] == ' ' || k[klen - 1] == '\t'))
			klen--;
		/* "//host/:_authToken", "@scope:registry": the part after the last ':' */
		const char *c = memrchr(k, ':', klen);
		const char *name = c ? c + 1 : k;
		size_t nlen = klen - (size_t)(name - k);
		for (size_t i = 0; i < sizeof keys / sizeof *keys && !found; i++)
			found = nlen == strlen(keys[i]) && strncasecmp(name, keys[i], nlen) == 0;
	}
	free(line);
	fclose(f);
	return found;
}

void sb_tools_notes(const sb_tools *t, const char *home, const sb_profile *bound, sb_diag *d)
{
	if (!sb_tools_is_on(t, "node") && !sb_tools_is_on(t, "bun"))
		return;
	char *npmrc = sb_path_join(home, ".npmrc");
	struct stat st;
	sb_eval *ev = sb_eval_new(bound, 0);
	if (lstat(npmrc, &st) == 0 &&
	    sb_eval_decide(ev, SB_OP_FILE_READ_DATA, npmrc, SB_VNODE_REGULAR).kind == SB_DEC_DENY &&
	    npmrc_matters(npmrc))
		sb_diag_report(d, SB_SEV_NOTE, NULL, "npmrc",
			       "%s is not readable in the sandbox (it may hold registry tokens): npm "
			       "and bun inside ignore its settings (registry, scopes, auth) and use "
			       "the public registry; to let them read it, set "
			       "OMP_SANDBOX_EXTRA_READ=%s and OMP_SANDBOX_CONFIRM_SENSITIVE_READ=1",
			       npmrc, npmrc);
	sb_eval_free(ev);
	free(npmrc);
}

void sb_tools_clear(sb_tools *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->on);
	memset(t, 0, sizeof *t);
}
