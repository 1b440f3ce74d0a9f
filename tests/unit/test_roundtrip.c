/* Round trip: every example policy (examples/ *.sbx), compiled by sbc's pipeline (parse,
 * check, lower, emit), read back by the SBPL reader, decides exactly as the
 * compiler's own IR at every probe, and names the same policy line.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/front/ast.h"
#include "compiler/check/check.h"
#include "compiler/sbpl/emit_sbpl.h"
#include "compiler/eval/eval.h"
#include "compiler/ir/ir.h"
#include "compiler/eval/probe.h"
#include "compiler/driver/sbpl_load.h"
#include "compiler/sbpl/sbpl_read.h"

/* Compare decisions of two bound profiles at every probe and operation;
 * returns the number of probes compared.  */
static size_t compare(const char *name, const sb_profile *a, const sb_profile *b, const sb_bindings *used)
{
	sb_probes ps = { 0 };
	sb_probes_add_profile(&ps, a);
	sb_probes_add_profile(&ps, b);
	sb_probes_add_system(&ps);
	sb_probes_add_bindings(&ps, used);
	sb_probes_finish(&ps);
	size_t n = 0;
	sb_eval *ea = sb_eval_new(a, 0), *eb = sb_eval_new(b, 0);
	for (int op = SB_OP_FILE_ALL; op < SB_OP_OTHER; op++)
		for (size_t i = 0; i < ps.n; i++)
			for (unsigned v = 0; v <= 8; v++) {
				unsigned vnode = v ? 1u << (v - 1) : 0;
				if (vnode && !ps.vnode_masks)
					break;
				sb_decision x = sb_eval_decide(ea, (sb_op)op, ps.paths[i], vnode);
				sb_decision y = sb_eval_decide(eb, (sb_op)op, ps.paths[i], vnode);
				n++;
				cr_expect(eq(int, x.kind, y.kind), "%s: %s %s vnode %u", name,
					  sb_op_name((sb_op)op), ps.paths[i], vnode);
				cr_expect(eq(int, x.models_disagree, y.models_disagree));
				if (x.rule && y.rule)
					cr_expect(eq(int, x.rule->origin ? x.rule->origin->line : 0,
						     y.rule->origin ? y.rule->origin->line : 0), "%s: %s %s: policy line",
						  name, sb_op_name((sb_op)op), ps.paths[i]);
				else
					cr_expect(x.rule == NULL && y.rule == NULL);
			}
	sb_eval_free(ea);
	sb_eval_free(eb);
	sb_probes_clear(&ps);
	return n;
}

Test(roundtrip, examples)
{
	glob_t g;
	if (glob("examples/*.sbx", 0, NULL, &g) != 0 || g.gl_pathc == 0)
		cr_skip_test("no examples/*.sbx (run from the repository root)");
	FILE *devnull = fopen("/dev/null", "w");
	for (size_t k = 0; k < g.gl_pathc; k++) {
		const char *file = g.gl_pathv[k];
		sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT);
		sb_bindings defs = { 0 };
		sbx_policy *pol = sbx_parse(file, NULL, 0, d);
		cr_assert_not_null(pol, "%s does not parse", file);
		cr_assert(eq(int, sb_check_all(pol, &defs, d), 0), "%s has check errors", file);
		sb_profile *ir = sbx_lower(pol, &defs, d);
		cr_assert_not_null(ir, "%s does not lower", file);
		size_t len = 0;
		char *text = sb_emit_sbpl(ir, &len, d);
		cr_assert_not_null(text, "%s does not emit", file);
		sb_profile *back = sb_sbpl_read("back.sb", text, len, d);
		cr_assert_not_null(back, "%s: the emitted profile does not read back:\n%s", file, text);
		cr_expect(eq(sz, back->nrules, ir->nrules), "%s: rule count", file);
		for (size_t i = 0; i < ir->nrules && i < back->nrules; i++) {
			const sb_origin *bo = back->rules[i]->origin, *io = ir->rules[i]->origin;
			/* the whole record travels in the data form */
			cr_expect(eq(int, bo == NULL, io == NULL), "%s: rule %zu origin", file, i);
			if (bo && io) {
				cr_expect(eq(str, (char *)bo->file, (char *)io->file), "%s: rule %zu", file, i);
				cr_expect(eq(int, bo->line, io->line), "%s: rule %zu origin", file, i);
				cr_expect(eq(int, bo->col, io->col), "%s: rule %zu origin", file, i);
				cr_expect(eq(sz, bo->len, io->len), "%s: rule %zu origin", file, i);
				cr_expect(bo->len == io->len && !memcmp(bo->text, io->text, io->len),
					  "%s: rule %zu statement", file, i);
			}
			char *x = sb_sbpl_rule_text(ir->rules[i]), *y = sb_sbpl_rule_text(back->rules[i]);
			cr_expect(eq(str, x, y), "%s: rule %zu", file, i);
			free(x);
			free(y);
		}
		/* Emitting what was read back gives the same bytes. */
		size_t len2 = 0;
		char *again = sb_emit_sbpl(back, &len2, d);
		cr_expect(eq(str, again, text), "%s: emit(read(emit(ir))) differs", file);
		free(again);

		sb_bindings used = { 0 };
		sb_eval_bindings(ir, &defs, &used, NULL);
		sb_profile *a = sb_profile_bind(ir, &used, NULL, NULL);
		sb_profile *b = sb_profile_bind(back, &used, NULL, NULL);
		size_t n = compare(file, a, b, &used);
		cr_expect(n > 1000, "%s: only %zu decisions compared", file, n);
		sb_profile_free(a);
		sb_profile_free(b);
		sb_bindings_clear(&used);
		free(text);
		sb_profile_free(back);
		sb_profile_free(ir);
		sbx_policy_free(pol);
		sb_diag_free(d);
	}
	fclose(devnull);
	globfree(&g);
}
