/* fuzz_roundtrip.c - libFuzzer harness for compile-then-read: a policy is
 * parsed and lowered, the profile emitted as SBPL and read back, both are
 * bound with the same launch values, and decide() must give the same
 * answer for both on every probe (paths the profiles mention, their
 * parents, children and prefix-siblings, plus fixed system and home
 * paths) and every probed operation.  Any disagreement aborts.  */
#include "fuzz_common.h"
#include "compiler/front/ast.h"
#include "compiler/sbpl/emit_sbpl.h"
#include "compiler/sbpl/sbpl_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *kind_name(sb_decision_kind k)
{
	return k == SB_DEC_ALLOW ? "allow" : k == SB_DEC_DENY ? "deny" : "unknown";
}

static void compare(const sb_profile *ir, const sb_profile *back, const char *sbpl)
{
	static const unsigned vnodes[] = {0, SB_VNODE_DIRECTORY, SB_VNODE_REGULAR};
	fuzz_probes ps = {0};
	fuzz_probes_from(&ps, ir);
	fuzz_probes_from(&ps, back);
	sb_eval *eir = sb_eval_new(ir, 0), *eback = sb_eval_new(back, 0);
	for (size_t i = 0; i < ps.n; i++)
		for (size_t o = 0; o < FUZZ_NOPS; o++)
			for (size_t v = 0; v < sizeof vnodes / sizeof vnodes[0]; v++) {
				sb_decision a = sb_eval_decide(eir, fuzz_ops[o], ps.v[i], vnodes[v]);
				sb_decision b = sb_eval_decide(eback, fuzz_ops[o], ps.v[i], vnodes[v]);
				if (a.kind != b.kind) {
					fprintf(stderr,
						"round trip disagrees: %s %s (vnode %u): compiler IR %s, read back %s\n"
						"--- emitted profile ---\n%s\n",
						sb_op_name(fuzz_ops[o]), ps.v[i], vnodes[v],
						kind_name(a.kind), kind_name(b.kind), sbpl);
					abort();
				}
			}
	sb_eval_free(eir);
	sb_eval_free(eback);
	fuzz_probes_free(&ps);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	sb_diag *d = sb_diag_new(fuzz_devnull(), SB_FMT_TEXT);
	sbx_policy *pol = sbx_parse("/nonexistent-fuzz-dir/fuzz.sbx", text, size, d);
	sbx_defines defs = {0};
	sb_profile *prof = pol ? sbx_lower(pol, &defs, d) : NULL;
	char *sbpl = prof ? sb_emit_sbpl(prof, NULL, d) : NULL;
	if (sbpl) {
		sb_diag *rd = sb_diag_new(fuzz_devnull(), SB_FMT_TEXT);
		sb_profile *back = sb_sbpl_read("fuzz.sb", sbpl, strlen(sbpl), rd);
		if (!back) {
			fprintf(stderr, "emitted profile does not read back:\n%s\n", sbpl);
			abort();
		}
		sb_bindings b = {0};
		fuzz_bindings(&b);
		sb_profile *ib = sb_profile_bind(prof, &b, NULL, NULL);
		sb_profile *bb = sb_profile_bind(back, &b, NULL, NULL);
		if (ib && bb)
			compare(ib, bb, sbpl);
		else if (!ib != !bb)
			abort();
		sb_profile_free(ib);
		sb_profile_free(bb);
		sb_bindings_clear(&b);
		sb_profile_free(back);
		sb_diag_free(rd);
	}
	free(sbpl);
	sb_profile_free(prof);
	sbx_policy_free(pol);
	sb_diag_free(d);
	free(text);
	return 0;
}
