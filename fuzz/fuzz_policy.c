/* fuzz_policy.c - libFuzzer harness for the policy front end: sbx_parse,
 * every check pass, sbx_lower, binding, a few decisions and the SBPL
 * emitter.  The input is .sbx text.  Properties: no crash, no leak, no
 * undefined behaviour, no hang; a failed parse reports at least one error.  */
#include "fuzz_common.h"
#include "compiler/front/ast.h"
#include "compiler/check/check.h"
#include "compiler/sbpl/emit_sbpl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	sb_diag *d = sb_diag_new(fuzz_devnull(), SB_FMT_TEXT);
	/* Includes are resolved next to this (non-existent) directory, so
	 * fuzzed include lines cannot reach real files by relative name.  */
	sbx_policy *pol = sbx_parse("/nonexistent-fuzz-dir/fuzz.sbx", text, size, d);
	if (!pol) {
		if (sb_diag_errors(d) == 0)
			abort();  /* a refused input must say why */
		goto out;
	}
	sbx_defines defs = {0};
	sb_bindings_set(&defs, "PROJECT", "/srv/p \"(x)\";\\");
	sb_check_all(pol, &defs, d);
	sb_profile *prof = sbx_lower(pol, &defs, d);
	if (prof) {
		char *sbpl = sb_emit_sbpl(prof, NULL, d);
		free(sbpl);
		sb_bindings b = {0};
		fuzz_bindings(&b);
		sb_profile *bound = sb_profile_bind(prof, &b, NULL, NULL);
		if (bound) {
			fuzz_probes ps = {0};
			fuzz_probes_from(&ps, bound);
			for (size_t i = 0; i < ps.n && i < 32; i++)
				for (size_t o = 0; o < FUZZ_NOPS; o++)
					(void)fuzz_decide(bound, fuzz_ops[o], ps.v[i], 0);
			fuzz_probes_free(&ps);
			sb_profile_free(bound);
		}
		sb_bindings_clear(&b);
		sb_profile_free(prof);
	}
	sb_bindings_clear(&defs);
	sbx_policy_free(pol);
out:
	sb_diag_free(d);
	free(text);
	return 0;
}
