/* eval_bench.c - decisions per second of sb_eval_decide() on the omp profile.
 *
 * usage: eval_bench [PROFILE.sb] [SECONDS]
 * Without a file it uses the profile sbc emits for examples/omp.sbx (the
 * seed R1-R8 rules, params bound to the sample values of sbc explain).
 * A benchmark, not a test: it asserts nothing about time.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/common/diag.h"
#include "compiler/eval/eval.h"
#include "compiler/ir/ir.h"
#include "compiler/driver/sbpl_load.h"
#include "compiler/sbpl/sbpl_read.h"

static const char omp_profile[] =
	"(version 1)\n"
	"(allow default)\n"
	"(deny file-write*)\n"
	"(allow file-write*\n"
	"    (subpath (param \"WORKSPACE\"))\n"
	"    (subpath \"/private/tmp\")\n"
	"    (subpath (param \"TMPDIR\"))\n"
	"    (subpath (string-append (param \"HOME\") \"/.omp\"))\n"
	"    (subpath (param \"EXTRA_WRITE*\"))\n"
	")\n"
	"(allow file-write*\n    (subpath \"/private/var/folders\")\n    (subpath \"/dev\")\n)\n"
	"(deny file-read* (subpath (param \"HOME\")))\n"
	"(allow file-read*\n"
	"    (subpath (string-append (param \"HOME\") \"/.omp\"))\n"
	"    (subpath (param \"WORKSPACE\"))\n"
	"    (subpath (param \"EXTRA_READ*\"))\n"
	")\n"
	"(allow file-read-metadata (literal (param \"HOME..WORKSPACE\")))\n"
	"(allow file-read-metadata (literal (param \"HOME\")))\n";

/* CPU time of this process: the machine may be shared, and the target is
 * decisions per second on one core.  */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = argc > 2 ? atof(argv[2]) : 2.0;
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_profile *p = argc > 1 ? sb_sbpl_read_file(argv[1], d)
				 : sb_sbpl_read("omp.sb", omp_profile, sizeof omp_profile - 1, d);
	if (!p) {
		sb_diag_free(d);
		return 1;
	}
	sb_bindings none = { 0 }, b = { 0 };
	sb_eval_bindings(p, &none, &b, NULL);
	sb_profile *bound = sb_profile_bind(p, &b, NULL, NULL);

	static const char *const paths[] = {
		"/Users/me/src/project/src/main.c", "/Users/me/.ssh/id_rsa", "/Users/me",
		"/Users/me/src", "/tmp/x", "/private/var/folders/zz/T/cache", "/usr/bin/env",
		"/Users/me/.omp/agent/agent.db", "/etc/hosts", "/Users/me/Library/Keychains/login.keychain-db",
	};
	static const sb_op ops[] = {
		SB_OP_FILE_READ_DATA, SB_OP_FILE_READ_METADATA, SB_OP_FILE_WRITE_DATA,
		SB_OP_FILE_WRITE_CREATE, SB_OP_PROCESS_EXEC,
	};
	size_t np = sizeof paths / sizeof *paths, no = sizeof ops / sizeof *ops;
	unsigned long long n = 0, allowed = 0;
	sb_eval *ev = sb_eval_new(bound, 0);
	double start = now(), end = start;
	while (end - start < seconds) {
		for (int rep = 0; rep < 1000; rep++) {
			sb_decision r = sb_eval_decide(ev, ops[n % no], paths[(n / no) % np], 0);
			allowed += r.kind == SB_DEC_ALLOW;
			n++;
		}
		end = now();
	}
	printf("eval_bench: %llu decisions in %.2f s of CPU: %.0f decisions/s (%llu allowed) on %s, %zu rules\n",
	       n, end - start, (double)n / (end - start), allowed, argc > 1 ? argv[1] : "the built-in omp profile",
	       bound->nrules);
	sb_eval_free(ev);
	sb_profile_free(bound);
	sb_profile_free(p);
	sb_bindings_clear(&b);
	sb_diag_free(d);
	return 0;
}
