/* omp-sandboxed - the drop-in successor of the original bash wrapper
 * (docs/omp-sandboxed.md).  Runs omp under the embedded default profile
 * (examples/omp.sbx compiled at build time).  Only the first argument is
 * examined, as in the original: --self-test, --print-profile, or anything
 * else is forwarded to omp (so `omp-sandboxed --help` is omp's help).
 * Wrapper help and version are --sandbox-help and --sandbox-version.  */
#include <stdio.h>
#include <string.h>
#include "runtime/cli/run.h"

extern const char sb_default_profile[];
extern const size_t sb_default_profile_len;
extern const char sb_allowlist_profile[];
extern const size_t sb_allowlist_profile_len;
extern char **environ;

static void usage(FILE *out)
{
	fputs("usage: omp-sandboxed [OMP ARGS...]     run omp sandboxed (arguments forwarded)\n"
	      "       omp-sandboxed --self-test       check the sandbox for real (exit 0/1)\n"
	      "       omp-sandboxed --print-profile   print the profile, paths bound, as applied\n"
	      "       omp-sandboxed --learn OUT.sbx [OMP ARGS...]  run omp, then write a policy\n"
	      "                                       fragment allowing what was denied\n"
	      "       omp-sandboxed --sandbox-run CMD [ARGS...]  run another command (a shell,\n"
	      "                                       git, npm, a test) under the same sandbox\n"
	      "       omp-sandboxed --learn OUT.sbx --sandbox-run CMD [ARGS...]\n"
	      "       omp-sandboxed --sandbox-help | --sandbox-version\n"
	      "Variables: OMP_SANDBOX_WORKSPACE, OMP_SANDBOX_EXTRA_WRITE, OMP_SANDBOX_EXTRA_READ,\n"
	      "  OMP_SANDBOX_PASS_ENV, OMP_SANDBOX_TOOLS, OMP_SANDBOX_PROTECT, OMP_SANDBOX_YOLO,\n"
	      "  OMP_SANDBOX_INHERIT_ENV,\n"
	      "  OMP_SANDBOX_NETWORK=open|off|allowlist, OMP_SANDBOX_ALLOW_HOSTS=host,host:port,\n"
	      "  OMP_SANDBOX_SKIP_HOME_VERIFY, OMP_SANDBOX_CONFIRM_WIDE,\n"
	      "  OMP_SANDBOX_CONFIRM_SENSITIVE_WRITE, OMP_SANDBOX_CONFIRM_SENSITIVE_READ,\n"
	      "  OMP_SANDBOX_TRACE (1: report denials on stderr; else a file),\n"
	      "  OMP_SANDBOX_TRACE_FORMAT (json: one object a line)\n"
	      "  OMP_SANDBOX_TRACE_STAT (1: trace stat() probes of hidden paths too)\n"
	      "  (flags are on only when exactly \"1\").  --help and --version go to omp.\n"
	      "Exit: omp's status; 78 when the launcher refuses or cannot apply the sandbox;\n"
	      "  1 when the self-test fails.  See docs/omp-sandboxed.md.\n",
	      out);
}

int main(int argc, char **argv)
{
	const char *first = argc > 1 ? argv[1] : "";
	if (strcmp(first, "--sandbox-help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(first, "--sandbox-version") == 0) {
		printf("omp-sandboxed %s\n", SB_VERSION);
		return 0;
	}
	sb_run_action act = SB_ACT_LAUNCH;
	const char *learn = NULL;
	int skip = 1;
	if (strcmp(first, "--learn") == 0) {
		if (argc < 3 || !argv[2][0]) {
			fputs("omp-sandboxed: error: --learn needs an output file (OUT.sbx)\n", stderr);
			return 2;
		}
		learn = argv[2];
		skip = 3;
	} else if (strcmp(first, "--self-test") == 0)
		act = SB_ACT_SELFTEST;
	/* --sandbox-run CMD: the wrapper's own prefix (as --sandbox-help), so
	 * no omp argument is taken; CMD replaces omp, with the same policy,
	 * environment and checks, and OMP_SANDBOX_YOLO adds nothing.  */
	const char *command = "omp";
	bool plain = argc > skip && strcmp(argv[skip], "--sandbox-run") == 0 &&
		     act == SB_ACT_LAUNCH;
	if (plain) {
		if (argc < skip + 2 || !argv[skip + 1][0]) {
			fputs("omp-sandboxed: error: --sandbox-run needs a command "
			      "(omp-sandboxed --sandbox-run CMD [ARGS...])\n", stderr);
			return 2;
		}
		command = argv[skip + 1];
		skip += 2;
	}
	else if (strcmp(first, "--print-profile") == 0)
		act = SB_ACT_PRINT_BOUND;
	sb_run_cfg cfg = {
		.tool = "omp-sandboxed",
		.argv0 = argv[0],
		.envp = environ,
		.profile_name = "omp.sb (embedded)",
		.profile_text = sb_default_profile,
		.profile_len = sb_default_profile_len,
		.allowlist_text = sb_allowlist_profile,
		.allowlist_len = sb_allowlist_profile_len,
		.omp_mode = true,
		.learn_file = learn,
		.command = command,
		.plain_command = plain,
		.args = argv + skip,
		.nargs = argc > skip ? (size_t)(argc - skip) : 0,
	};
	return sb_run(&cfg, act);
}
