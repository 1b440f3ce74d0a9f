/* prep.c - home, workspace, temp dir and extra roots (docs/omp-sandboxed.md,
 * "The protections").
 * Paths are compared in canonical form (realpath) and by whole components
 * (compiler/common/path.h); the sensitive list is compiler/common/sensitive.h's.  */
#include "runtime/common/prep.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "runtime/common/env.h"
#include "compiler/common/path.h"
#include "compiler/common/sensitive.h"
#include "compiler/common/xalloc.h"

sb_platform sb_platform_native(void)
{
#ifdef __APPLE__
	return SB_PLAT_MACOS;
#else
	return SB_PLAT_LINUX;
#endif
}

const char *sb_platform_marker(sb_platform p)
{
	return p == SB_PLAT_MACOS ? "seatbelt" : "landlock";
}

void sb_settings_from_env(sb_settings *s, char *const envp[])
{
	memset(s, 0, sizeof *s);
	s->workspace = sb_env_get(envp, "OMP_SANDBOX_WORKSPACE");
	s->extra_write = sb_env_get(envp, "OMP_SANDBOX_EXTRA_WRITE");
	s->extra_read = sb_env_get(envp, "OMP_SANDBOX_EXTRA_READ");
	s->pass_env = sb_env_get(envp, "OMP_SANDBOX_PASS_ENV");
	s->tools = sb_env_get(envp, "OMP_SANDBOX_TOOLS");
	s->protect = sb_env_get(envp, "OMP_SANDBOX_PROTECT");
	s->xdg_config_home = sb_env_get(envp, "XDG_CONFIG_HOME");
	s->yolo = sb_flag_on(sb_env_get(envp, "OMP_SANDBOX_YOLO"));
	s->inherit_env = sb_flag_on(sb_env_get(envp, "OMP_SANDBOX_INHERIT_ENV"));
	s->skip_home_verify = sb_flag_on(sb_env_get(envp, "OMP_SANDBOX_SKIP_HOME_VERIFY"));
	s->confirm_wide = sb_flag_on(sb_env_get(envp, "OMP_SANDBOX_CONFIRM_WIDE"));
	s->confirm_sensitive_write =
		sb_flag_on(sb_env_get(envp, "OMP_SANDBOX_CONFIRM_SENSITIVE_WRITE"));
	s->confirm_sensitive_read =
		sb_flag_on(sb_env_get(envp, "OMP_SANDBOX_CONFIRM_SENSITIVE_READ"));
}

/* Every OMP_SANDBOX_* variable a launcher reads (without the prefix); a
 * new one must be added here, or its users get a typo warning.  */
static const char *const known_settings[] = {
	"WORKSPACE", "EXTRA_WRITE", "EXTRA_READ", "PASS_ENV", "TOOLS", "PROTECT", "YOLO", "INHERIT_ENV",
	"SKIP_HOME_VERIFY", "CONFIRM_WIDE", "CONFIRM_SENSITIVE_WRITE", "CONFIRM_SENSITIVE_READ",
	"NETWORK", "ALLOW_HOSTS", "TRACE", "TRACE_FORMAT", "TRACE_STAT", "KEEP_BACKGROUND",
};

int sb_settings_warn_unknown(char *const envp[], sb_diag *d)
{
	static const char prefix[] = "OMP_SANDBOX_";
	size_t nk = sizeof known_settings / sizeof *known_settings;
	int n = 0;
	for (size_t i = 0; envp && envp[i]; i++) {
		if (strncmp(envp[i], prefix, sizeof prefix - 1) != 0)
			continue;
		const char *name = envp[i] + sizeof prefix - 1;
		size_t len = strcspn(name, "=");
		char *bare = xstrndup(name, len);
		bool known = false;
		for (size_t k = 0; k < nk && !known; k++)
			known = strcmp(bare, known_settings[k]) == 0;
		if (!known) {
			const char *near = sb_closest_name(bare, known_settings, nk);
			if (near)
				sb_diag_report(d, SB_SEV_WARNING, NULL, "unknown-setting",
					       "OMP_SANDBOX_%s is not a setting and is ignored; did you "
					       "mean OMP_SANDBOX_%s?", bare, near);
			else
				sb_diag_report(d, SB_SEV_WARNING, NULL, "unknown-setting",
					       "OMP_SANDBOX_%s is not a setting and is ignored (see "
					       "docs/omp-sandboxed.md for the list)", bare);
			n++;
		}
		free(bare);
	}
	return n;
}

static bool is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* realpath() into a malloc'd string, NULL on failure.  */
static char *canon_dir(const char *p)
{
	if (!is_dir(p))
		return NULL;
	return sb_path_real(p);
}

char *sb_expand_tilde(const char *p, const char *home, const char **why)
{
	*why = NULL;
	if (p[0] != '~')
		return xstrdup(p);
	if (p[1] != '\0' && p[1] != '/') {
		*why = "'~name' (another user's home) is not supported; write the absolute path";
		return NULL;
	}
	size_t lh = strlen(home), lp = strlen(p + 1);
	char *r = xmalloc(lh + lp + 1);
	memcpy(r, home, lh);
	memcpy(r + lh, p + 1, lp + 1);
	return r;
}

/* Refuse control characters: they cannot go into a profile (docs/migration.md, "Other fixes").  */
static bool refuse_bad_char(const char *what, const char *p, sb_diag *d)
{
	int off = sb_path_bad_char(p);
	if (off < 0)
		return false;
	sb_diag_report(d, SB_SEV_ERROR, NULL, "bad-char",
		       "%s contains a control character (byte 0x%02x at offset %d) and cannot "
		       "go into a profile; rename the directory or use another path", what,
		       (unsigned char)p[off], off);
	return true;
}

/* ---- home ---- */

int sb_prep_home(const sb_prep_in *in, bool skip, char **out, sb_diag *d)
{
	const char *inherited = sb_env_get(in->envp, "HOME");
	*out = NULL;
	char *home = NULL;
	if (in->pw_home && *in->pw_home) {
		home = canon_dir(in->pw_home);
		if (!home) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "home",
				       "the user database reports home '%s', which does not exist or "
				       "is not a directory; refusing to launch (fix the account's home)",
				       in->pw_home);
			return SB_REFUSED;
		}
	} else if (!skip) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "home",
			       "could not look up the home directory in the user database; "
			       "refusing to launch (set OMP_SANDBOX_SKIP_HOME_VERIFY=1 to trust the "
			       "inherited HOME instead, insecure)");
		return SB_REFUSED;
	} else {
		home = inherited && *inherited ? canon_dir(inherited) : NULL;
		if (!home) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "home",
				       "could not look up the home directory, and the inherited HOME "
				       "('%s') is not an existing directory; set HOME",
				       inherited ? inherited : "");
			return SB_REFUSED;
		}
		sb_diag_report(d, SB_SEV_WARNING, NULL, "home",
			       "could not verify the home directory in the user database; "
			       "OMP_SANDBOX_SKIP_HOME_VERIFY=1: using the inherited HOME %s (insecure)",
			       home);
		*out = home;
		return refuse_bad_char("the home directory", home, d) ? SB_REFUSED : 0;
	}
	/* Compare canonical forms: a trailing slash or a symlinked spelling
	 * of the same directory is not a mismatch.  An unset HOME is simply
	 * replaced.  */
	if (inherited && *inherited) {
		char *ih = canon_dir(inherited);
		bool same = ih && strcmp(ih, home) == 0;
		free(ih);
		if (!same && !skip) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "home",
				       "the inherited HOME '%s' differs from the real home %s; refusing "
				       "to launch, because the profile would protect the wrong directory "
				       "(unset HOME or set it to %s; OMP_SANDBOX_SKIP_HOME_VERIFY=1 "
				       "launches anyway with the real home)", inherited, home, home);
			free(home);
			return SB_REFUSED;
		}
		if (!same)
			sb_diag_report(d, SB_SEV_WARNING, NULL, "home",
				       "the inherited HOME '%s' differs from the real home %s; "
				       "OMP_SANDBOX_SKIP_HOME_VERIFY=1: using the real home", inherited,
				       home);
	}
	if (refuse_bad_char("the home directory", home, d)) {
		free(home);
		return SB_REFUSED;
	}
	*out = home;
	return 0;
}

/* ---- workspace (plus the wider refusal of docs/migration.md) ---- */

int sb_prep_workspace(const sb_prep_in *in, const char *home, bool confirm, char **out,
		      sb_diag *d)
{
	const char *raw = sb_env_get(in->envp, "OMP_SANDBOX_WORKSPACE");
	*out = NULL;
	if (!raw || !*raw)
		raw = in->cwd;
	if (!raw) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "workspace",
			       "cannot determine the current directory; set OMP_SANDBOX_WORKSPACE");
		return SB_REFUSED;
	}
	if (refuse_bad_char("the workspace path", raw, d))
		return SB_REFUSED;
	const char *why;
	char *exp = sb_expand_tilde(raw, home, &why);
	if (!exp) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "workspace",
			       "OMP_SANDBOX_WORKSPACE '%s': %s", raw, why);
		return SB_REFUSED;
	}
	if (exp[0] != '/' && in->cwd) {
		char *j = xmalloc(strlen(in->cwd) + strlen(exp) + 2);
		sprintf(j, "%s/%s", in->cwd, exp);
		free(exp);
		exp = j;
	}
	char *ws = canon_dir(exp);
	if (!ws) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "workspace",
			       "workspace '%s' does not exist or is not a directory "
			       "(set OMP_SANDBOX_WORKSPACE or cd to an existing directory)", exp);
		free(exp);
		return SB_REFUSED;
	}
	free(exp);
	if (refuse_bad_char("the workspace path", ws, d)) {
		free(ws);
		return SB_REFUSED;
	}
	const char *wide = NULL;
	const sb_sensitive_entry *sens = NULL;
	if (strcmp(ws, "/") == 0)
		wide = "the root directory";
	else if (sb_path_equal(ws, home))
		wide = "the home directory";
	else if (sb_path_is_under(home, ws))
		wide = "an ancestor of the home directory (it would re-open all of it)";
	else if ((sens = sb_sensitive_match(ws, home, NULL, 0)))
		wide = "a sensitive home location";
	if (wide) {
		if (!confirm) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "wide-root",
				       "workspace %s is %s%s%s%s and grants very broad access; refusing "
				       "(use a project directory, or set OMP_SANDBOX_CONFIRM_WIDE=1)",
				       ws, wide, sens ? " (" : "", sens ? sens->why : "", sens ? ")" : "");
			free(ws);
			return SB_REFUSED;
		}
		sb_diag_report(d, SB_SEV_WARNING, NULL, "wide-root",
			       "workspace %s is %s; OMP_SANDBOX_CONFIRM_WIDE=1: granting it anyway",
			       ws, wide);
	}
	*out = ws;
	return 0;
}

/* ---- temp dir ---- */

static const char *scratch_fallback(sb_platform plat)
{
	return plat == SB_PLAT_MACOS ? "/private/tmp" : "/tmp";
}

bool sb_tmpdir_accepted(sb_platform plat, const char *p)
{
	if (plat == SB_PLAT_MACOS)
		return sb_path_is_under(p, "/private/tmp") ||
		       sb_path_is_strictly_under(p, "/private/var/folders");
	return sb_path_is_under(p, "/tmp");
}

char *sb_prep_tmpdir(const sb_prep_in *in, sb_diag *d)
{
	const char *raw = sb_env_get(in->envp, "TMPDIR");
	bool set = raw && *raw;
	char *c = canon_dir(set ? raw : "/tmp");
	const char *fb = scratch_fallback(in->platform);
	if (c && sb_path_bad_char(c) < 0 && sb_tmpdir_accepted(in->platform, c))
		return c;
	if (set)
		sb_diag_report(d, SB_SEV_WARNING, NULL, "tmpdir",
			       "TMPDIR '%s' is %s; using %s", raw,
			       c ? "not a known scratch root of this system"
				 : "not an existing directory", fb);
	free(c);
	/* The fallback is canonical on macOS; on Linux /tmp may be a link.  */
	char *f = canon_dir(fb);
	return f ? f : xstrdup(fb);
}

/* Keep a temp dir from widening the home grants: TMPDIR=$HOME under /tmp
 * would make the whole home writable through the temp-dir grant.  */
static char *tmpdir_apart_from_home(const sb_prep_in *in, char *tmp, const char *home,
				    sb_diag *d)
{
	if (!sb_path_is_under(tmp, home) && !sb_path_is_under(home, tmp))
		return tmp;
	const char *fb = scratch_fallback(in->platform);
	char *f = canon_dir(fb);
	if (!f)
		f = xstrdup(fb);
	if (sb_path_is_under(f, home) || sb_path_is_under(home, f)) {
		sb_diag_report(d, SB_SEV_WARNING, NULL, "tmpdir",
			       "the home directory %s lies inside the scratch root %s; its "
			       "write grant may cover parts of the home", home, f);
		free(tmp);
		return f;
	}
	sb_diag_report(d, SB_SEV_WARNING, NULL, "tmpdir",
		       "TMPDIR %s overlaps the home directory %s; using %s", tmp, home, f);
	free(tmp);
	return f;
}

/* ---- extras (defects D3-D5) ---- */

static void push(char ***v, size_t *n, size_t *cap, char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0) {
			free(s);  /* de-duplicate: the first occurrence stays */
			return;
		}
	SB_GROW(*v, *n, *cap, 8);
	(*v)[(*n)++] = s;
}

static int one_extra(const char *label, const char *entry, const char *home, bool confirm,
		     char **out, sb_diag *d)
{
	const char *var = label;
	int off = sb_path_bad_char(entry);
	*out = NULL;
	if (off >= 0) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "bad-char",
			       "OMP_SANDBOX_%s entry contains a control character (byte 0x%02x at "
			       "offset %d) and cannot go into a profile; remove it", var,
			       (unsigned char)entry[off], off);
		return SB_REFUSED;
	}
	const char *why;
	char *exp = sb_expand_tilde(entry, home, &why);
	if (!exp) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "extra", "OMP_SANDBOX_%s path '%s': %s", var,
			       entry, why);
		return SB_REFUSED;
	}
	int rc = SB_REFUSED;
	if (exp[0] != '/') {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "extra",
			       "OMP_SANDBOX_%s path '%s' must be absolute (or start with ~/)", var,
			       entry);
		goto out;
	}
	if (sb_path_has_dotdot(exp)) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "extra",
			       "OMP_SANDBOX_%s path '%s' contains a '..' component; rejected "
			       "(write the path without '..')", var, entry);
		goto out;
	}
	char *c = sb_path_canon(exp);
	if (!c) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "extra",
			       "OMP_SANDBOX_%s path '%s' cannot be canonicalized (its parent "
			       "directory does not exist); create it or fix the path", var, entry);
		goto out;
	}
	if (refuse_bad_char("the resolved extra path", c, d)) {
		free(c);
		goto out;
	}
	const sb_sensitive_entry *s = sb_sensitive_match(c, home, NULL, 0);
	if (s) {
		const char *what = strcmp(label, "EXTRA_WRITE") == 0 ? "WRITE" : "READ";
		if (!confirm) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "sensitive",
				       "OMP_SANDBOX_%s path %s covers a sensitive home location "
				       "(~/%s: %s); refusing (set OMP_SANDBOX_CONFIRM_SENSITIVE_%s=1 to "
				       "grant it anyway)", var, c, s->rel, s->why, what);
			free(c);
			goto out;
		}
		sb_diag_report(d, SB_SEV_WARNING, NULL, "sensitive",
			       "OMP_SANDBOX_%s path %s covers a sensitive home location (~/%s); "
			       "OMP_SANDBOX_CONFIRM_SENSITIVE_%s=1: granting it", var, c, s->rel,
			       what);
	}
	*out = c;
	rc = 0;
out:
	free(exp);
	return rc;
}

int sb_prep_extras(const char *label, const char *list, const char *home, bool confirm,
		   char ***out, size_t *n, sb_diag *d)
{
	*out = NULL;
	*n = 0;
	if (!list)
		return 0;
	const char *s = list;
	size_t cap = 0;
	for (;;) {
		const char *e = strchr(s, ':');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len > 0) {
			char *entry = xstrndup(s, len);
			char *c;
			int rc = one_extra(label, entry, home, confirm, &c, d);
			free(entry);
			if (rc)
				return rc;
			push(out, n, &cap, c);
		}
		if (!e)
			break;
		s = e + 1;
	}
	return 0;
}

/* ---- all steps ---- */

int sb_prep_run(const sb_prep_in *in, sb_prep *out, sb_diag *d)
{
	memset(out, 0, sizeof *out);
	sb_settings_from_env(&out->s, in->envp);
	const sb_settings *s = &out->s;
	int rc = sb_prep_home(in, s->skip_home_verify, &out->home, d);
	if (rc)
		return rc;
	rc = sb_prep_workspace(in, out->home, s->confirm_wide, &out->workspace, d);
	if (rc)
		return rc;
	out->tmpdir = tmpdir_apart_from_home(in, sb_prep_tmpdir(in, d), out->home, d);
	rc = sb_prep_extras("EXTRA_WRITE", s->extra_write, out->home, s->confirm_sensitive_write,
			    &out->extra_write, &out->nextra_write, d);
	if (rc)
		return rc;
	return sb_prep_extras("EXTRA_READ", s->extra_read, out->home, s->confirm_sensitive_read,
			      &out->extra_read, &out->nextra_read, d);
}

void sb_prep_clear(sb_prep *p)
{
	free(p->home);
	free(p->workspace);
	free(p->tmpdir);
	sb_strv_free(p->extra_write, p->nextra_write);
	sb_strv_free(p->extra_read, p->nextra_read);
	sb_tools_clear(&p->tools);
	sb_protect_clear(&p->protect);
	memset(p, 0, sizeof *p);
}

int sb_prep_protect(sb_prep *p, sb_diag *d)
{
	sb_protect_clear(&p->protect);
	sb_protect_in in = {
		.home = p->home, .workspace = p->workspace,
		.xdg_config_home = p->s.xdg_config_home,
		.git = sb_tools_is_on(&p->tools, SB_PROTECT_PREFIX "git"),
		.includes = sb_tools_is_on(&p->tools, "git"),
	};
	return sb_protect_discover(&in, &p->protect, d);
}
