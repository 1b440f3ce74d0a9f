/* fuzz_sbpl.c - libFuzzer harness for the SBPL reader: sb_sbpl_read, the
 * one-line renderers, binding and decide() on probes derived from the
 * profile.  The input is SBPL text.  Properties: no crash, no leak, no
 * undefined behaviour, no hang; a refused profile reports an error; every
 * rule the reader accepts renders back to text.  */
#include "fuzz_common.h"
#include "compiler/sbpl/sbpl_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	sb_diag *d = sb_diag_new(fuzz_devnull(), SB_FMT_TEXT);
	sb_profile *p = sb_sbpl_read("fuzz.sb", text, size, d);
	if (!p) {
		if (sb_diag_errors(d) == 0)
			abort();
		goto out;
	}
	for (size_t r = 0; r < p->nrules; r++) {
		char *t = sb_sbpl_rule_text(p->rules[r]);
		if (!t)
			abort();
		free(t);
	}
	sb_bindings b = {0};
	fuzz_bindings(&b);
	sb_profile *bound = sb_profile_bind(p, &b, NULL, NULL);
	fuzz_probes ps = {0};
	fuzz_probes_from(&ps, bound);
	for (size_t i = 0; i < ps.n && i < 48; i++)
		for (size_t o = 0; o < FUZZ_NOPS; o++) {
			(void)fuzz_decide(p, fuzz_ops[o], ps.v[i], 0);
			if (bound)
				(void)fuzz_decide(bound, fuzz_ops[o], ps.v[i], SB_VNODE_DIRECTORY);
		}
	fuzz_probes_free(&ps);
	sb_profile_free(bound);
	sb_bindings_clear(&b);
	sb_profile_free(p);
out:
	sb_diag_free(d);
	free(text);
	return 0;
}
