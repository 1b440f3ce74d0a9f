/* probe.c - derive the probe set of sbc diff (probe.h).  */
#include "compiler/eval/probe.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/common/path.h"
#include "compiler/common/strmap.h"
#include "compiler/common/xalloc.h"

/* Takes `path`.  Probes are made ~9 per filter of two large profiles:
 * the array grows geometrically and the joins are not formatted.  */
static void push_owned(sb_probes *ps, char *path)
{
	/* two profiles name mostly the same paths: keep each once, so the
	 * sort sees half as many */
	if (!ps->seen)
		ps->seen = sb_strmap_new();
	void **v = sb_strmap_slot(ps->seen, path, strlen(path), true);
	if (*v) {
		free(path);
		return;
	}
	*v = path;
	SB_GROW(ps->paths, ps->n, ps->cap, 64);
	ps->paths[ps->n++] = path;
}

static void push(sb_probes *ps, const char *path)
{
	push_owned(ps, xstrdup(path));
}

static void push_join(sb_probes *ps, const char *base, const char *suffix)
{
	size_t bn = strcmp(base, "/") ? strlen(base) : 0, sn = strlen(suffix);
	char *s = xmalloc(bn + sn + 1);
	memcpy(s, base, bn);
	memcpy(s + bn, suffix, sn + 1);
	push_owned(ps, s);
}

void sb_probes_add_path(sb_probes *ps, const char *raw)
{
	if (!raw || raw[0] != '/' || sb_path_bad_char(raw) >= 0)
		return;
	const char *why;
	char *p = sb_path_normalize(raw, &why);
	if (!p)
		p = xstrdup(raw); /* ".." kept as written: never matches anyway */
	char *forms[2] = { p, sb_path_private_alias(p) };
	/* The non-/private spelling of a /private path, so /tmp rules are seen. */
	const char *stripped = sb_path_strip_private(p);
	char *short_form = stripped ? xstrdup(stripped) : NULL;
	for (size_t f = 0; f < 2; f++) {
		const char *q = forms[f];
		push(ps, q);
		push_join(ps, q, "/sbc-child");
		push_join(ps, q, "/sbc-child/sbc-grandchild");
		if (strcmp(q, "/")) {
			char *parent = sb_path_dirname(q);
			push(ps, parent);
			push_join(ps, parent, "/sbc-sibling");
			free(parent);
			push_join(ps, q, "-sbc");
		}
	}
	if (short_form) {
		push(ps, short_form);
		free(short_form);
	}
	free(forms[0]);
	free(forms[1]);
}

char *sb_regex_literal_prefix(const char *re)
{
	if (re[0] != '^' || re[1] != '/')
		return NULL;
	size_t n = strlen(re);
	char *out = xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 1; i < n; i++) {
		char c = re[i];
		if (c == '\\' && i + 1 < n && strchr(".^$()[]{}|*+?\\/-", re[i + 1])) {
			out[k++] = re[++i];
			continue;
		}
		if (strchr(".[](){}|*+?$^\\", c)) {
			/* A quantifier applies to the previous character: drop it. */
			if (k > 0 && (c == '*' || c == '?' || c == '{'))
				k--;
			break;
		}
		out[k++] = c;
	}
	out[k] = '\0';
	return out;
}

static void add_filter(sb_probes *ps, const sb_filter *f)
{
	if (f->kind == SB_F_VNODE_TYPE)
		ps->vnode_masks |= f->vnode_mask;
	for (size_t i = 0; i < f->nkids; i++)
		add_filter(ps, f->kids[i]);
	if (!f->arg)
		return;
	char *v = sb_str_value(f->arg);
	if (!v)
		return;
	if (f->kind == SB_F_REGEX) {
		char *lit = sb_regex_literal_prefix(v);
		if (lit) {
			/* "/a/b/" -> probe "/a/b" and below; "/a/bc" -> itself */
			size_t n = strlen(lit);
			if (n > 1 && lit[n - 1] == '/')
				lit[n - 1] = '\0';
			sb_probes_add_path(ps, lit);
			free(lit);
		}
	} else {
		sb_probes_add_path(ps, v);
	}
	free(v);
}

void sb_probes_add_profile(sb_probes *ps, const sb_profile *p)
{
	for (size_t i = 0; i < p->nrules; i++)
		for (size_t k = 0; k < p->rules[i]->nfilters; k++)
			add_filter(ps, p->rules[i]->filters[k]);
}

void sb_probes_add_system(sb_probes *ps)
{
	static const char *const sys[] = {
		"/", "/usr/bin/env", "/bin/sh", "/usr/lib/libSystem.B.dylib", "/private/etc/hosts",
		"/private/tmp/sbc-probe", "/private/var/folders/zz/sbc-probe", "/private/var/db/sbc-probe",
		"/dev/null", "/dev/tty", "/System/Library/Frameworks", "/Library/Preferences", "/Applications",
		"/Users", "/Volumes/sbc-probe", "/opt/homebrew/bin/omp",
	};
	for (size_t i = 0; i < sizeof sys / sizeof *sys; i++)
		sb_probes_add_path(ps, sys[i]);
}

void sb_probes_add_bindings(sb_probes *ps, const sb_bindings *b)
{
	static const char *const home_rel[] = { "/.ssh/id_rsa", "/.omp/agent", "/Library/Keychains", "/.bashrc" };
	for (size_t i = 0; i < b->n; i++)
		for (size_t k = 0; k < b->v[i].nvalues; k++) {
			sb_probes_add_path(ps, b->v[i].values[k]);
			if (!strcmp(b->v[i].name, "HOME"))
				for (size_t j = 0; j < sizeof home_rel / sizeof *home_rel; j++)
					push_join(ps, b->v[i].values[k], home_rel[j]);
		}
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sb_probes_finish(sb_probes *ps)
{
	sb_strmap_free(ps->seen);
	ps->seen = NULL;
	if (!ps->n)
		return;
	qsort(ps->paths, ps->n, sizeof *ps->paths, cmp);
	size_t k = 1;
	for (size_t i = 1; i < ps->n; i++) {
		if (!strcmp(ps->paths[i], ps->paths[k - 1]))
			free(ps->paths[i]);
		else
			ps->paths[k++] = ps->paths[i];
	}
	ps->n = k;
}

void sb_probes_clear(sb_probes *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->paths[i]);
	free(ps->paths);
	sb_strmap_free(ps->seen);
	ps->paths = NULL;
	ps->seen = NULL;
	ps->n = ps->cap = 0;
}
