/* fuzz_scheme.c - libFuzzer harness for the SBPL evaluator
 * (compiler/sbpl/sbpl_scheme.c) behind sb_sbpl_read_bound.  The input is
 * SBPL text, evaluated with launch-like params bound and again with none.
 * Properties: no crash, leak, undefined behaviour or hang (every input is
 * bounded in depth, steps and bytes); a refused input reports an error; and
 * a profile read for emission with nothing left unmodelled emits, reads
 * back without an error and decides every probe as before (the re-emission
 * sbrun does for sandbox-exec).  */
#include "fuzz_common.h"
#include "compiler/sbpl/emit_sbpl.h"
#include "compiler/sbpl/sbpl_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool all_inert(const sb_profile *p)
{
	for (size_t i = 0; i < p->nunmodelled; i++)
		if (p->unmodelled[i].kind != SB_UNMODELLED_INERT)
			return false;
	return true;
}

static void check_reemission(const sb_profile *p, const sb_bindings *b, sb_diag *d)
{
	if (!all_inert(p))
		return;
	char *text = sb_emit_sbpl(p, NULL, NULL);
	if (!text)
		return; /* refused (a control character): reported, not emitted */
	sb_profile *back = sb_sbpl_read("again.sb", text, strlen(text), d);
	if (!back)
		abort(); /* what the writer emits must read again */
	sb_profile *b1 = sb_profile_bind(p, b, NULL, NULL), *b2 = sb_profile_bind(back, b, NULL, NULL);
	fuzz_probes ps = { 0 };
	fuzz_probes_from(&ps, b1);
	for (size_t i = 0; i < ps.n && i < 32; i++)
		for (size_t o = 0; o < FUZZ_NOPS; o++)
			if (fuzz_decide(b1, fuzz_ops[o], ps.v[i], 0) != fuzz_decide(b2, fuzz_ops[o], ps.v[i], 0))
				abort(); /* re-emission changed a decision */
	fuzz_probes_free(&ps);
	sb_profile_free(b1);
	sb_profile_free(b2);
	sb_profile_free(back);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	sb_bindings b = { 0 };
	fuzz_bindings(&b);
	sb_bindings_set(&b, "MODE", "TRUE");
	sb_bindings_set(&b, "OS_VERSION", "1402");
	sb_bindings_set(&b, "BUNDLE_ID", "org.example.app");
	sb_diag *d = sb_diag_new(fuzz_devnull(), SB_FMT_TEXT);
	sb_profile *p = sb_sbpl_read_bound("fuzz.sb", text, size, d, 0, &b);
	if (!p) {
		if (sb_diag_errors(d) == 0)
			abort();
	} else {
		check_reemission(p, &b, d);
		sb_profile_free(p);
	}
	sb_diag_free(d);
	/* unbound: conditions stay conditional */
	d = sb_diag_new(fuzz_devnull(), SB_FMT_TEXT);
	p = sb_sbpl_read_bound("fuzz.sb", text, size, d, SB_READ_CONDITIONALS, NULL);
	if (!p) {
		if (sb_diag_errors(d) == 0)
			abort();
	} else {
		fuzz_probes ps = { 0 };
		fuzz_probes_from(&ps, p);
		for (size_t i = 0; i < ps.n && i < 16; i++)
			for (size_t o = 0; o < FUZZ_NOPS; o++)
				(void)fuzz_decide(p, fuzz_ops[o], ps.v[i], SB_VNODE_REGULAR);
		fuzz_probes_free(&ps);
		sb_profile_free(p);
	}
	sb_diag_free(d);
	sb_bindings_clear(&b);
	free(text);
	return 0;
}
