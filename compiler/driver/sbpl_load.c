/* sbpl_load.c - load and bind profiles for sbc explain / sbc diff.  */
#include "compiler/driver/sbpl_load.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/front/ast.h"
#include "compiler/check/check.h"
#include "compiler/common/path.h"
#include "compiler/sbpl/sbpl_read.h"
#include "compiler/common/xalloc.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

static const char *const samples_tab[][2] = {
	{ "HOME", SB_SAMPLE_HOME }, { "WORKSPACE", SB_SAMPLE_WORKSPACE }, { "TMPDIR", SB_SAMPLE_TMPDIR },
};

/* What a profile is evaluated with (sbpl_scheme.h): the -D values and the
 * sample HOME, WORKSPACE and TMPDIR, the values sb_eval_bindings() binds
 * its params to afterwards, so conditions and rules agree.  */
static void evaluation_params(const sb_bindings *defs, sb_bindings *out)
{
	for (size_t i = 0; i < defs->n; i++)
		if (!defs->v[i].is_list && defs->v[i].nvalues == 1)
			sb_bindings_set(out, defs->v[i].name, defs->v[i].values[0]);
	for (size_t k = 0; k < 3; k++)
		if (!sb_bindings_get(out, samples_tab[k][0]))
			sb_bindings_set(out, samples_tab[k][0], samples_tab[k][1]);
}

static bool policy_uses_param(const sbx_policy *pol, const char *name)
{
	for (size_t i = 0; i < pol->nstmts; i++)
		for (size_t k = 0; k < pol->stmts[i].ntargets; k++) {
			const sbx_target *t = &pol->stmts[i].targets[k];
			if (t->base == SBX_BASE_PARAM && t->name && !strcmp(t->name, name))
				return true;
		}
	return false;
}

sb_profile *sb_compile_policy(const char *file, const sb_bindings *defs, bool warn_unused,
			      sb_diag *d)
{
	sbx_policy *pol = sbx_parse(file, NULL, 0, d);
	if (!pol)
		return NULL;
	for (size_t i = 0; warn_unused && i < defs->n; i++)
		if (!policy_uses_param(pol, defs->v[i].name))
			sb_diag_report(d, SB_SEV_WARNING, NULL, "unused-define",
				       "-D %s: %s never uses $%s, so it binds nothing; check the name",
				       defs->v[i].name, file, defs->v[i].name);
	int before = sb_diag_errors(d);
	sb_check_all(pol, defs, d);
	sb_profile *p = NULL;
	if (sb_diag_errors(d) == before)
		p = sbx_lower(pol, defs, d);
	sbx_policy_free(pol);
	return p;
}

sb_profile *sb_load_profile(const char *file, const sb_bindings *defs, sb_diag *d)
{
	if (!ends_with(file, ".sbx")) {
		sb_bindings params = { 0 };
		evaluation_params(defs, &params);
		sb_profile *p = sb_sbpl_read_file_bound(file, d, SB_READ_CONDITIONALS, &params);
		sb_bindings_clear(&params);
		return p;
	}
	return sb_compile_policy(file, defs, false, d);
}

static void split_list(sb_bindings *out, const char *name, const char *value)
{
	char *copy = xstrdup(value);
	const char **items = xcalloc(strlen(value) + 1, sizeof *items);
	size_t n = 0;
	for (char *save = NULL, *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save))
		items[n++] = tok;
	sb_bindings_set_list(out, name, items, n);
	free(items);
	free(copy);
}

void sb_eval_bindings(const sb_profile *p, const sb_bindings *defs, sb_bindings *out,
		      sb_bindings *samples)
{
	size_t n = 0;
	sb_param *params = sb_profile_params(p, &n);
	for (size_t i = 0; i < defs->n; i++) {
		const sb_binding *bd = &defs->v[i];
		bool is_list = bd->is_list;
		for (size_t k = 0; k < n; k++)
			if (params[k].kind == SB_PARAM_LIST && !params[k].index &&
			    !strcmp(params[k].name, bd->name))
				is_list = true;
		if (is_list && !bd->is_list && bd->nvalues == 1)
			split_list(out, bd->name, bd->values[0]);
		else if (bd->is_list || bd->nvalues != 1)
			sb_bindings_set_list(out, bd->name, (const char *const *)bd->values, bd->nvalues);
		else
			sb_bindings_set(out, bd->name, bd->values[0]);
	}
	/* sbrun --print-profile carries its -D list in the profile
	 * (launch_params): values the command line did not give. */
	for (size_t i = 0; i < p->launch_params.n; i++) {
		const sb_binding *lp = &p->launch_params.v[i];
		if (lp->nvalues == 1 && !sb_bindings_get(out, lp->name))
			sb_bindings_set(out, lp->name, lp->values[0]);
	}
	for (size_t k = 0; k < 3; k++)
		if (!sb_bindings_get(out, samples_tab[k][0])) {
			sb_bindings_set(out, samples_tab[k][0], samples_tab[k][1]);
			if (samples)
				sb_bindings_set(samples, samples_tab[k][0], samples_tab[k][1]);
		}
	for (size_t k = 0; k < n; k++) {
		const sb_param *pm = &params[k];
		if (pm->kind == SB_PARAM_LIST && !pm->index && !sb_bindings_get(out, pm->name)) {
			/* a tool preset's gate (docs/language.md, "preset") is on,
			 * as the launcher's default; other lists are empty */
			static const char *const gate_on[] = { "" };
			size_t nv = pm->tool ? 1 : 0;
			sb_bindings_set_list(out, pm->name, gate_on, nv);
			if (samples)
				sb_bindings_set_list(samples, pm->name, gate_on, nv);
		}
	}
	sb_param_array_free(params, n);
}

char *sb_query_path(const char *arg, const sb_bindings *b, const char **why)
{
	char *expanded = NULL;
	const char *rest = NULL;
	const sb_binding *bd = NULL;
	if (arg[0] == '~' && (arg[1] == '\0' || arg[1] == '/')) {
		bd = sb_bindings_get(b, "HOME");
		rest = arg + 1;
	} else if (arg[0] == '$') {
		size_t n = 1;
		while (isalnum((unsigned char)arg[n]) || arg[n] == '_')
			n++;
		char *name = xstrndup(arg + 1, n - 1);
		bd = sb_bindings_get(b, name);
		free(name);
		rest = arg + n;
		if (!bd || bd->nvalues != 1) {
			*why = "the variable at the start of the path is not bound (use -D NAME=VALUE)";
			return NULL;
		}
	}
	if (rest) {
		if (!bd || bd->nvalues != 1) {
			*why = "HOME is not bound";
			return NULL;
		}
		expanded = xasprintf("%s%s", bd->values[0], rest);
		arg = expanded;
	}
	char *norm = NULL;
	if (arg[0] != '/')
		*why = "the path must be absolute";
	else if (sb_path_bad_char(arg) >= 0)
		*why = "the path contains a control character";
	else
		norm = sb_path_normalize(arg, why);
	free(expanded);
	return norm;
}

unsigned sb_vnode_query_type(const char *name)
{
	/* Two shorthands for the command line; the names are the IR's table. */
	if (!strcasecmp(name, "file"))
		return SB_VNODE_REGULAR;
	if (!strcasecmp(name, "dir"))
		return SB_VNODE_DIRECTORY;
	return sb_vnode_from_name(name);
}
