/* param.c - typed params and their one SBPL spelling (ir.h).
 *
 * The spelling is what a profile carries in (param "..."), read by
 * sandbox-exec as a -D name, so it must stay as it is:
 *   NAME           single
 *   NAME*          list (TOOL_NAME*: a tool preset's gate)
 *   TOP..LEAF      ancestors between two singles
 *   TOP..LEAF*     ancestors between a single and each element of a list
 *   NAME_I, TOP..LEAF_I   element I of the macOS launch form (written only)
 * Everything else reads and writes the typed fields.  */
#include "compiler/ir/ir.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/common/xalloc.h"

static const char gate_prefix[] = "TOOL_";

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

sb_param sb_param_single(const char *name)
{
	return (sb_param){ .kind = SB_PARAM_SINGLE, .name = xstrdup(name) };
}

sb_param sb_param_list(const char *name)
{
	return (sb_param){ .kind = SB_PARAM_LIST, .name = xstrdup(name) };
}

sb_param sb_param_ancestors(const char *top, const char *leaf, bool leaf_list)
{
	return (sb_param){ .kind = SB_PARAM_ANCESTORS, .name = xstrdup(top), .leaf = xstrdup(leaf),
			   .leaf_list = leaf_list };
}

char *sb_param_gate_name(const char *tool)
{
	char *g = xasprintf("%s%s", gate_prefix, tool);
	for (char *q = g + sizeof gate_prefix - 1; *q; q++)
		*q = *q == '-' ? '_' : (char)(*q >= 'a' && *q <= 'z' ? *q - 'a' + 'A' : *q);
	return g;
}

sb_param sb_param_gate(const char *tool)
{
	return (sb_param){ .kind = SB_PARAM_LIST, .name = sb_param_gate_name(tool),
			   .tool = xstrdup(tool) };
}

sb_param sb_param_copy(const sb_param *p)
{
	return (sb_param){ .kind = p->kind, .name = dup_or_null(p->name), .leaf = dup_or_null(p->leaf),
			   .leaf_list = p->leaf_list, .tool = dup_or_null(p->tool),
			   .index = p->index };
}

void sb_param_clear(sb_param *p)
{
	free(p->name);
	free(p->leaf);
	free(p->tool);
	*p = (sb_param){ 0 };
}

char *sb_param_spelling(const sb_param *p)
{
	switch (p->kind) {
	case SB_PARAM_SINGLE:
		return xstrdup(p->name);
	case SB_PARAM_LIST:
		return p->index ? xasprintf("%s_%zu", p->name, p->index) : xasprintf("%s*", p->name);
	case SB_PARAM_ANCESTORS:
		if (p->index)
			return xasprintf("%s..%s_%zu", p->name, p->leaf, p->index);
		return xasprintf("%s..%s%s", p->name, p->leaf, p->leaf_list ? "*" : "");
	}
	return xstrdup(p->name);
}

/* "X*" with X not empty: X's length, else 0.  */
static size_t list_base(const char *s, size_t n)
{
	return n > 1 && s[n - 1] == '*' ? n - 1 : 0;
}

/* "TOOL_NODE_GYP" -> "node-gyp" (sb_param_gate_name reversed), or NULL.  */
static char *tool_of(const char *name)
{
	size_t k = sizeof gate_prefix - 1;
	if (strncmp(name, gate_prefix, k) != 0 || !name[k])
		return NULL;
	char *t = xstrdup(name + k);
	for (char *q = t; *q; q++)
		*q = *q == '_' ? '-' : (char)(*q >= 'A' && *q <= 'Z' ? *q - 'A' + 'a' : *q);
	return t;
}

sb_param sb_param_parse(const char *spelling)
{
	const char *dots = strstr(spelling, "..");
	if (dots) {
		size_t tn = (size_t)(dots - spelling);
		const char *leaf = dots + 2;
		size_t ln = strlen(leaf), lb = list_base(leaf, ln);
		/* a list top, an empty side or a second ".." is no ancestor
		 * form: a single of that exact name (bound only by it) */
		if (!tn || spelling[tn - 1] == '*' || !ln || strstr(leaf, "..") ||
		    memchr(leaf, '*', lb ? lb : ln))
			return sb_param_single(spelling);
		sb_param p = { .kind = SB_PARAM_ANCESTORS, .name = xstrndup(spelling, tn),
			       .leaf = xstrndup(leaf, lb ? lb : ln), .leaf_list = lb != 0 };
		return p;
	}
	size_t n = strlen(spelling), b = list_base(spelling, n);
	if (!b)
		return sb_param_single(spelling);
	sb_param p = { .kind = SB_PARAM_LIST, .name = xstrndup(spelling, b) };
	p.tool = tool_of(p.name);
	return p;
}

bool sb_param_is_gate_name(const char *name)
{
	char *t = tool_of(name);
	free(t);
	return t != NULL;
}

bool sb_param_is_multi(const sb_param *p)
{
	return p->kind != SB_PARAM_SINGLE && !p->index;
}

bool sb_param_uses(const sb_param *p, const char *name)
{
	return (p->name && !strcmp(p->name, name)) || (p->leaf && !strcmp(p->leaf, name));
}

void sb_param_array_free(sb_param *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sb_param_clear(&v[i]);
	free(v);
}
