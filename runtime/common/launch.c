/* launch.c - the pure launch computation (launch.h) and the pre-launch
 * checks on the bound profile.  */
#include "runtime/common/launch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compiler/sbpl/emit_sbpl.h"
#include "compiler/eval/eval.h"
#include "compiler/common/path.h"
#include "compiler/common/sensitive.h"
#include "compiler/common/xalloc.h"
#include "runtime/common/tools.h"

static const char *const reserved[] = { "HOME", "WORKSPACE", "TMPDIR", "EXTRA_WRITE",
					"EXTRA_READ", "PROTECT_GIT", "PROTECT_GIT_NODES",
					"GIT_INCLUDES" };

bool sb_launch_reserved_param(const char *name)
{
	sb_param p = sb_param_parse(name);
	/* ancestors are derived from two others; preset gates come from
	 * OMP_SANDBOX_TOOLS (tools.h) */
	bool r = p.kind == SB_PARAM_ANCESTORS || sb_param_is_gate_name(p.name);
	for (size_t i = 0; !r && i < sizeof reserved / sizeof reserved[0]; i++)
		r = strcmp(reserved[i], p.name) == 0;
	sb_param_clear(&p);
	return r;
}

/* Seatbelt sees /tmp, /var and /etc as /private/..., and decide() resolves
 * queries the same way, so a bound value must be in that form too or a rule
 * on it would never match: on Linux a home under /var (/var/home/alice)
 * would stop being denied.  On macOS canonical values already have this form;
 * the Linux planner maps /private/... back to the real directories.  */
static char *seatbelt_form(const char *v)
{
	return v[0] == '/' ? sb_path_private_alias(v) : xstrdup(v);
}

static void set_one(sb_bindings *out, const char *name, const char *value)
{
	char *a = seatbelt_form(value);
	sb_bindings_set(out, name, a);
	free(a);
}

static void set_list(sb_bindings *out, const char *name, char *const *values, size_t n)
{
	char **a = xcalloc(n ? n : 1, sizeof *a);
	for (size_t i = 0; i < n; i++)
		a[i] = seatbelt_form(values[i]);
	sb_bindings_set_list(out, name, (const char *const *)a, n);
	for (size_t i = 0; i < n; i++)
		free(a[i]);
	free(a);
}

void sb_launch_bindings(const sb_prep *p, const sb_bindings *user, sb_bindings *out)
{
	set_one(out, "HOME", p->home);
	set_one(out, "WORKSPACE", p->workspace);
	set_one(out, "TMPDIR", p->tmpdir);
	set_list(out, "EXTRA_WRITE", p->extra_write, p->nextra_write);
	set_list(out, "EXTRA_READ", p->extra_read, p->nextra_read);
	set_list(out, "PROTECT_GIT", p->protect.deny, p->protect.ndeny);
	set_list(out, "PROTECT_GIT_NODES", p->protect.nodes, p->protect.nnodes);
	set_list(out, "GIT_INCLUDES", p->protect.includes, p->protect.nincludes);
	sb_tools_bind(&p->tools, out);
	for (size_t i = 0; user && i < user->n; i++) {
		const sb_binding *b = &user->v[i];
		if (sb_launch_reserved_param(b->name))
			continue;
		if (b->is_list)
			set_list(out, b->name, b->values, b->nvalues);
		else if (b->nvalues == 1)
			set_one(out, b->name, b->values[0]);
	}
}

/* The emitter's form (compiler/sbpl/emit_sbpl.h): rules keep their "; FILE:LINE"
 * origin comments, so the text sandbox-exec receives still traces back to
 * the policy.  The macOS text is path-free (params only), so the emitter's
 * refusal of control characters cannot trigger there; on Linux the bound
 * values were validated by prep.  */
void sb_launch_tag_denies(sb_profile *p, const char *tag)
{
	for (size_t i = 0; i < p->nrules; i++) {
		sb_rule *r = p->rules[i];
		if (r->action != SB_DENY)
			continue;
		char *where = r->origin && r->origin->line > 0 && sb_path_bad_char(r->origin->file) < 0
				      ? xasprintf("%s:%d", r->origin->file, r->origin->line)
				      : xasprintf("#%zu", i);
		char *msg = xasprintf("omp-sandbox rule %s %s", where, tag);
		char *lit = sb_sbpl_escape(msg);
		char *mod = xasprintf("(with message \"%s\")", lit);
		sb_rule_add_modifier(r, mod);
		free(mod);
		free(lit);
		free(msg);
		free(where);
	}
}

char *sb_profile_text(const sb_profile *p)
{
	char *t = sb_emit_sbpl(p, NULL, NULL);
	return t ? t : xstrdup("");
}

/* ---- the computation ---- */

static char *define_arg(const char *name, const char *value)
{
	char *r;
	r = xasprintf("%s=%s", name, value);
	return r;
}

static void argv_push(sb_launch *l, char *s)
{
	l->argv = xrealloc(l->argv, (l->argc + 2) * sizeof(char *));
	l->argv[l->argc++] = s;
	l->argv[l->argc] = NULL;
}

static int report_unbound(const char *name, sb_diag *d)
{
	sb_diag_report(d, SB_SEV_ERROR, NULL, "unbound-param",
		       "the profile uses the param \"%s\", which nothing binds; pass "
		       "-D %s=VALUE (sbrun) or recompile the policy with it", name, name);
	return SB_REFUSED;
}

/* The hook of the macOS form: each bound param stays a param of its own
 * (indexed for an element), bound with -D.  */
static sb_str *index_subst(void *ctx, const sb_param *p, const char *value, size_t index)
{
	sb_bindings *defines = ctx;
	sb_param e = sb_param_copy(p);
	if (index)
		e.index = index;
	char *name = sb_param_spelling(&e);
	if (!sb_bindings_get(defines, name))
		sb_bindings_set(defines, name, value);
	sb_str *r = sb_str_param(&e);
	free(name);
	sb_param_clear(&e);
	return r;
}

sb_profile *sb_launch_expand_lists(const sb_profile *p, const sb_bindings *b,
				   sb_bindings *defines, char **missing)
{
	sb_param_hook hook = { .ctx = defines, .subst = index_subst };
	char **unbound = NULL;
	size_t nunbound = 0;
	sb_profile *c = sb_profile_rewrite(p, b, &hook, &unbound, &nunbound);
	if (nunbound) {
		if (missing)
			*missing = xstrdup(unbound[0]);
		sb_profile_free(c);
		c = NULL;
	}
	sb_strv_free(unbound, nunbound);
	return c;
}

int sb_launch_compute(const sb_launch_in *in, sb_launch *out, sb_diag *d)
{
	memset(out, 0, sizeof *out);
	sb_bindings binds = { 0 };
	sb_launch_bindings(in->prep, in->user, &binds);
	int rc = 0;

	char **unbound = NULL;
	size_t nunbound = 0;
	out->bound = sb_profile_bind(in->profile, &binds, &unbound, &nunbound);
	if (nunbound) {
		rc = report_unbound(unbound[0], d);
		for (size_t i = 0; i < nunbound; i++)
			free(unbound[i]);
		free(unbound);
		goto done;
	}
	free(unbound);

	if (in->platform == SB_PLAT_MACOS) {
		char *missing = NULL;
		sb_profile *expanded = sb_launch_expand_lists(in->profile, &binds, &out->defines,
							       &missing);
		if (!expanded) {
			rc = report_unbound(missing ? missing : "?", d);
			free(missing);
			goto done;
		}
		if (in->trace_tag)
			sb_launch_tag_denies(expanded, in->trace_tag);
		out->profile_text = sb_profile_text(expanded);
		sb_profile_free(expanded);
		out->exec_path = xstrdup(in->sandbox_exec ? in->sandbox_exec : SB_SANDBOX_EXEC);
		argv_push(out, xstrdup(out->exec_path));
		argv_push(out, xstrdup("-p"));
		argv_push(out, xstrdup(out->profile_text));
		for (size_t i = 0; i < out->defines.n; i++) {
			const sb_binding *b = &out->defines.v[i];
			argv_push(out, xstrdup("-D"));
			argv_push(out, define_arg(b->name, b->nvalues ? b->values[0] : ""));
		}
		if (in->egress_proxy) {
			/* the one destination the profile lets out (docs/egress.md) */
			argv_push(out, xstrdup("-D"));
			argv_push(out, define_arg("EGRESS_PROXY", in->egress_proxy));
		}
		argv_push(out, xstrdup(in->cmd));
	} else {
		out->profile_text = sb_profile_text(out->bound);
		out->exec_path = xstrdup(in->cmd);
		argv_push(out, xstrdup(in->cmd));
	}
	if (in->auto_approve)
		argv_push(out, xstrdup("--auto-approve"));
	for (size_t i = 0; i < in->nargs; i++)
		argv_push(out, xstrdup(in->args[i]));

	size_t ne = 0;
	while (in->env && in->env[ne])
		ne++;
	out->envp = xcalloc(ne + 1, sizeof(char *));
	for (size_t i = 0; i < ne; i++)
		out->envp[i] = xstrdup(in->env[i]);
	out->cwd = xstrdup(in->prep->workspace);
done:
	sb_bindings_clear(&binds);
	return rc;
}

void sb_launch_clear(sb_launch *l)
{
	free(l->exec_path);
	for (size_t i = 0; i < l->argc; i++)
		free(l->argv[i]);
	free(l->argv);
	for (size_t i = 0; l->envp && l->envp[i]; i++)
		free(l->envp[i]);
	free(l->envp);
	free(l->cwd);
	free(l->profile_text);
	sb_bindings_clear(&l->defines);
	if (l->bound)
		sb_profile_free(l->bound);
	memset(l, 0, sizeof *l);
}

/* ---- checks on the bound profile ---- */

/* Where to grant read so the program can start: the first directory below
 * the home on the way to `file` (an install root such as ~/.bun), when it
 * is not sensitive; otherwise the file's own directory.  */
static char *suggest_dir(const char *file, const char *home)
{
	if (home && sb_path_is_strictly_under(file, home)) {
		size_t n = strlen(home);
		const char *end = strchr(file + n + 1, '/');
		if (end) {
			char *top = xstrndup(file, (size_t)(end - file));
			if (!sb_sensitive_match(top, home, NULL, 0))
				return top;
			free(top);
		}
	}
	char *dir = sb_path_dirname(file);
	return dir ? dir : xstrdup("/");
}

int sb_launch_check_readable(const sb_profile *bound, const char *home, const char *what,
			     const char *file, sb_diag *d)
{
	char *real = sb_path_real(file);
	const char *p = real ? real : file;
	sb_eval *ev = sb_eval_new(bound, 0);
	sb_decision dec = sb_eval_decide(ev, SB_OP_FILE_READ_DATA, p, SB_VNODE_REGULAR);
	sb_eval_free(ev);
	int rc = 0;
	if (dec.kind == SB_DEC_DENY) {
		char *dir = suggest_dir(p, home);
		sb_diag_report(d, SB_SEV_ERROR, NULL, "command-unreadable",
			       "%s %s%s%s lies where the profile denies reading, so it could not "
			       "start in the sandbox; refusing (install it outside the home "
			       "directory, or set OMP_SANDBOX_EXTRA_READ=%s)", what, file,
			       real && strcmp(real, file) ? " -> " : "",
			       real && strcmp(real, file) ? real : "", dir);
		free(dir);
		rc = SB_REFUSED;
	}
	free(real);
	return rc;
}

/* May the sandboxed program write `p` by its owner and mode bits?  It runs
 * with this process's uid and groups; on Linux with no capability (the
 * launch drops them all, root included: docs/linux.md), so root writes only
 * its own files or by a write bit that applies to it.  Elsewhere root writes
 * anything.  A file that
 * cannot be examined counts as writable (the warning errs on the safe side).  */
static bool dac_writable(const char *p)
{
	struct stat st;
	if (stat(p, &st) < 0)
		return true;
#ifndef __linux__
	if (geteuid() == 0)
		return true;
#endif
	if (st.st_uid == geteuid())
		return true;   /* its owner may chmod it (Landlock never restricts that) */
	bool member = st.st_gid == getegid();
	gid_t groups[256];
	int ng = getgroups(sizeof groups / sizeof *groups, groups);
	for (int i = 0; i < ng && !member; i++)
		member = groups[i] == st.st_gid;
	if (ng < 0 && !member)
		return true;
	return member ? (st.st_mode & S_IWGRP) : (st.st_mode & S_IWOTH);
}

int sb_launch_check_tamper(const sb_profile *bound, const char *const *files, size_t n,
			   sb_diag *d)
{
	int warnings = 0;
	sb_eval *ev = sb_eval_new(bound, 0);
	for (size_t i = 0; i < n; i++) {
		if (!files[i])
			continue;
		char *real = sb_path_real(files[i]);
		const char *p = real ? real : files[i];
		sb_decision dec = sb_eval_decide(ev, SB_OP_FILE_WRITE_DATA, p, SB_VNODE_REGULAR);
		/* the profile lets it be written, and so do its mode bits (a
		 * build of root's under /tmp is not writable by another user) */
		if (dec.kind == SB_DEC_ALLOW && dac_writable(p)) {
			sb_diag_report(d, SB_SEV_WARNING, NULL, "tamper",
				       "%s is writable inside the sandbox: the sandboxed program could "
				       "change what runs unconfined next time; install it outside every "
				       "writable root (workspace, ~/.omp, temp dirs, extra write paths)",
				       p);
			warnings++;
		}
		free(real);
	}
	sb_eval_free(ev);
	return warnings;
}

/* ---- grants on missing paths ---- */

/* Does the filter use a param `want` accepts?  */
static bool str_has_param(const sb_str *s, bool (*want)(const sb_param *))
{
	if (!s)
		return false;
	if (s->kind == SB_STR_PARAM)
		return want(&s->param);
	for (size_t i = 0; i < s->nparts; i++)
		if (str_has_param(s->parts[i], want))
			return true;
	return false;
}

static bool filter_has_param(const sb_filter *f, bool (*want)(const sb_param *))
{
	if (str_has_param(f->arg, want))
		return true;
	for (size_t i = 0; i < f->nkids; i++)
		if (filter_has_param(f->kids[i], want))
			return true;
	return false;
}

static bool is_gate(const sb_param *p) { return p->tool != NULL; }

static bool is_list_named(const sb_param *p, const char *name)
{
	return p->kind == SB_PARAM_LIST && !p->index && !strcmp(p->name, name);
}

static bool is_extra_write(const sb_param *p) { return is_list_named(p, "EXTRA_WRITE"); }
static bool is_extra_read(const sb_param *p) { return is_list_named(p, "EXTRA_READ"); }

static bool macos_only(const char *p)
{
	static const char *const roots[] = {
		"/System", "/Library", "/Users", "/Applications", "/Volumes", "/var/folders",
		"/var/db", "/cores", "/Network",
	};
	for (size_t i = 0; i < sizeof roots / sizeof *roots; i++)
		if (sb_path_is_under(p, roots[i]))
			return true;
	return false;
}

/* /private/{tmp,var,etc}/x (the bound form) -> the path on this system.  */
static const char *native_path(const char *p)
{
	static const char *const priv[] = { "/private/tmp", "/private/var", "/private/etc" };
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(priv[i]);
		if (strncmp(p, priv[i], n) == 0 && (p[n] == '\0' || p[n] == '/'))
			return p + strlen("/private");
	}
	return p;
}

static int warn_missing_filter(const sb_rule *r, const sb_filter *f, const char *via,
			       sb_diag *d)
{
	int n = 0;
	for (size_t i = 0; i < f->nkids; i++)
		n += warn_missing_filter(r, f->kids[i], via, d);
	if ((f->kind != SB_F_LITERAL && f->kind != SB_F_SUBPATH) || !f->arg)
		return n;
	char *v = sb_str_value(f->arg);
	if (!v)
		return n;
	const char *p = native_path(v);
	struct stat st;
	if (p[0] == '/' && !macos_only(p) && lstat(p, &st) != 0 && errno == ENOENT) {
		sb_loc loc = { .file = r->origin ? r->origin->file : NULL, .line = r->origin ? r->origin->line : 0 };
		sb_diag_report(d, SB_SEV_WARNING, r->origin ? &loc : NULL, "grant-missing",
			       "the grant on %s%s does nothing: it does not exist at launch, and "
			       "Landlock grants only what exists; create it before launching "
			       "(mkdir -p %s), or drop the grant", p, via, p);
		n++;
	}
	free(v);
	return n;
}

int sb_launch_warn_missing(const sb_profile *prof, const sb_bindings *binds, sb_diag *d)
{
	int n = 0;
	for (size_t i = 0; i < prof->nrules; i++) {
		const sb_rule *r = prof->rules[i];
		bool file_op = false;
		for (size_t j = 0; j < r->nops; j++)
			file_op = file_op || sb_op_is_file(r->ops[j]);
		/* r->note: the compiler's own rules (ancestor stat grants) */
		if (r->action != SB_ALLOW || !file_op || r->note)
			continue;
		for (size_t j = 0; j < r->nfilters; j++) {
			const sb_filter *f = r->filters[j];
			/* a preset names optional files (~/.gitignore_global): quiet */
			if (filter_has_param(f, is_gate))
				continue;
			const char *via = filter_has_param(f, is_extra_write)
						  ? " (from OMP_SANDBOX_EXTRA_WRITE)"
					  : filter_has_param(f, is_extra_read)
						  ? " (from OMP_SANDBOX_EXTRA_READ)"
						  : "";
			/* bind this one filter alone: a list gives one filter per entry */
			sb_profile *one = sb_profile_new();
			sb_rule *c = sb_rule_new(r->action, r->loc);
			sb_rule_add_op(c, r->ops[0], r->op_names ? r->op_names[0] : NULL);
			sb_rule_add_filter(c, sb_filter_clone(f));
			sb_profile_add_rule(one, c);
			sb_profile *b = sb_profile_bind(one, binds, NULL, NULL);
			for (size_t k = 0; k < b->nrules; k++)
				for (size_t q = 0; q < b->rules[k]->nfilters; q++)
					n += warn_missing_filter(r, b->rules[k]->filters[q], via, d);
			sb_profile_free(b);
			sb_profile_free(one);
		}
	}
	return n;
}
