/* Unit tests for typed params (compiler/ir/param.c): the one reader and
 * writer of their SBPL spelling, and binding by kind.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/ir.h"

static void expect_roundtrip(const char *spelling)
{
	sb_param p = sb_param_parse(spelling);
	char *back = sb_param_spelling(&p);
	cr_expect(eq(str, back, (char *)spelling));
	free(back);
	sb_param_clear(&p);
}

Test(param, parse_kinds)
{
	sb_param p = sb_param_parse("HOME");
	cr_expect(eq(int, p.kind, SB_PARAM_SINGLE));
	cr_expect(eq(str, p.name, "HOME"));
	sb_param_clear(&p);

	p = sb_param_parse("EXTRA_WRITE*");
	cr_expect(eq(int, p.kind, SB_PARAM_LIST));
	cr_expect(eq(str, p.name, "EXTRA_WRITE"));
	cr_expect(eq(ptr, p.tool, NULL));
	sb_param_clear(&p);

	p = sb_param_parse("TOOL_NODE_GYP*");
	cr_expect(eq(int, p.kind, SB_PARAM_LIST));
	cr_expect(eq(str, p.name, "TOOL_NODE_GYP"));
	cr_expect(eq(str, p.tool, "node-gyp"));
	sb_param_clear(&p);

	p = sb_param_parse("HOME..EXTRA_READ*");
	cr_expect(eq(int, p.kind, SB_PARAM_ANCESTORS));
	cr_expect(eq(str, p.name, "HOME"));
	cr_expect(eq(str, p.leaf, "EXTRA_READ"));
	cr_expect(p.leaf_list);
	sb_param_clear(&p);
}

Test(param, outside_the_grammar_is_a_single_of_that_name)
{
	const char *odd[] = { "*", "A*..B", "..B", "A..", "A..B..C", "A..*" };
	for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
		sb_param p = sb_param_parse(odd[i]);
		cr_expect(eq(int, p.kind, SB_PARAM_SINGLE), "%s", odd[i]);
		cr_expect(eq(str, p.name, (char *)odd[i]));
		sb_param_clear(&p);
	}
}

Test(param, spelling_roundtrips)
{
	const char *all[] = { "HOME", "X*", "TOOL_GIT*", "HOME..WORKSPACE", "HOME..EXTRA_WRITE*",
			      "EXTRA_WRITE_1", "HOME..WORKSPACE_1", "A*..B" };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		expect_roundtrip(all[i]);
}

Test(param, constructors_spell_the_launch_names)
{
	sb_param g = sb_param_gate("node-gyp");
	char *s = sb_param_spelling(&g);
	cr_expect(eq(str, s, "TOOL_NODE_GYP*"));
	free(s);
	cr_expect(sb_param_is_gate_name(g.name));
	cr_expect(not(sb_param_is_gate_name("TOOLS")));
	g.index = 2;
	s = sb_param_spelling(&g);
	cr_expect(eq(str, s, "TOOL_NODE_GYP_2"));
	free(s);
	cr_expect(not(sb_param_is_multi(&g)), "an indexed element is one value");
	sb_param_clear(&g);

	sb_param a = sb_param_ancestors("HOME", "EXTRA_WRITE", true);
	cr_expect(sb_param_is_multi(&a));
	cr_expect(sb_param_uses(&a, "EXTRA_WRITE"));
	cr_expect(sb_param_uses(&a, "HOME"));
	cr_expect(not(sb_param_uses(&a, "WORKSPACE")));
	a.index = 3;
	s = sb_param_spelling(&a);
	cr_expect(eq(str, s, "HOME..EXTRA_WRITE_3"));
	free(s);
	sb_param_clear(&a);
}

/* Binding goes by the kind: a list param's elements, the ancestors
 * between a single and each element of a list.  */
Test(param, bind_by_kind)
{
	sb_profile *p = sb_profile_new();
	sb_loc noloc = { 0 };
	sb_rule *r = sb_rule_new(SB_ALLOW, noloc);
	sb_rule_add_op(r, SB_OP_FILE_READ_METADATA, NULL);
	sb_param anc = sb_param_ancestors("HOME", "EXTRA_READ", true);
	sb_rule_add_filter(r, sb_filter_path(SB_F_LITERAL, sb_str_param(&anc), noloc));
	sb_param_clear(&anc);
	sb_profile_add_rule(p, r);
	sb_bindings b = { 0 };
	sb_bindings_set(&b, "HOME", "/h");
	const char *extras[] = { "/h/a/b", "/h/c/d/e", "/elsewhere/x" };
	sb_bindings_set_list(&b, "EXTRA_READ", extras, 3);
	sb_profile *q = sb_profile_bind(p, &b, NULL, NULL);
	cr_assert(eq(sz, q->nrules, 1));
	const char *want[] = { "/h/a", "/h/c", "/h/c/d" };
	cr_assert(eq(sz, q->rules[0]->nfilters, 3));
	for (size_t i = 0; i < 3; i++) {
		char *v = sb_str_value(q->rules[0]->filters[i]->arg);
		cr_expect(eq(str, v, (char *)want[i]));
		free(v);
	}
	sb_profile_free(q);
	sb_bindings_clear(&b);
	sb_profile_free(p);
}
