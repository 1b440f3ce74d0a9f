/* sbrun - run a command under a compiled profile (docs/omp-sandboxed.md,
 * docs/exit-status.md): sandbox-exec on macOS, Landlock on Linux.  The same
 * preparation as omp-sandboxed (run.h): verified home, workspace, temp dir,
 * OMP_SANDBOX_* extras, clean environment.  */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/common/launch.h"
#include "runtime/linux/linux.h"
#include "runtime/cli/run.h"
#include "compiler/common/cmdline.h"
#include "compiler/common/exit_status.h"
#include "compiler/common/xalloc.h"

extern char **environ;

static void usage(FILE *out)
{
	fputs("usage: sbrun [options] PROFILE.sb [--] COMMAND [ARGS...]\n"
	      "       sbrun --print-profile PROFILE.sb   the profile as applied, params bound\n"
	      "       sbrun --print-launch PROFILE.sb    the exact sandbox-exec form (-D list + text)\n"
	      "       sbrun --plan PROFILE.sb            what the platform backend enforces\n"
	      "       sbrun --self-test PROFILE.sb       check the sandbox for real (exit 0/1)\n"
	      "       sbrun --doctor                     Landlock ABI and what it can enforce\n"
	      "options:\n"
	      "  -D NAME=VALUE        bind a profile param (not HOME, WORKSPACE, TMPDIR,\n"
	      "                       EXTRA_WRITE, EXTRA_READ: those come from the environment)\n"
	      "  --allow-unsandboxed  Linux: run even without Landlock (warned every time)\n"
	      "  --allow-unenforceable  Linux: run although some denies cannot be enforced\n"
	      "  --require-abi N      Linux: refuse below Landlock ABI N (default 1: any)\n"
	      "  --debug-denials      Linux: have the kernel log denials (ABI >= 7, audit)\n"
	      "  --allow-shm          Linux: grant the host's /dev/shm (off by default; with\n"
	      "                       masks the sandbox has a private one)\n"
	      "  --keep-background    Linux: leave the command's background processes\n"
	      "                       running when it exits (default: they are killed)\n"
	      "  --mechanism M        Linux: how denies inside allowed trees are enforced:\n"
	      "                       auto (masks where namespaces can be had), masks\n"
	      "                       (or refuse), complement (no namespaces; narrower)\n"
	      "  --write-gate auto|off  Linux: write denies inside writable trees decided\n"
	      "                       by name at every call (auto), or by masks and the\n"
	      "                       complement only (off; narrower where a name is absent)\n"
	      "  --trace[=FILE]       report every denied access, its policy line and fix\n"
	      "                       (stderr, or FILE), and a summary at exit\n"
	      "  --trace-format=text|json  one JSON object a line with json\n"
	      "  --trace-stat         Linux: trace stat() probes of paths a mask hides\n"
	      "                       too (a round trip per stat)\n"
	      "  --learn OUT.sbx      write a policy fragment allowing what was denied\n"
	      "  --help, --version\n"
	      "The OMP_SANDBOX_* variables apply as for omp-sandboxed.\n"
	      "Exit: the command's status (128+N for signal N); 78 refused or sandbox not\n"
	      "  applied; 126/127 command not executable / not found; 2 usage; 1 self-test failed.\n",
	      out);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "sbrun: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(see sbrun --help)\n");
	return 2;
}

int main(int argc, char **argv)
{
	sb_run_action act = SB_ACT_LAUNCH;
	bool doctor = false, allow_unsandboxed = false, allow_unenforceable = false;
	bool debug_denials = false, allow_shm = false, trace = false, trace_json = false,
	     trace_stat = false;
	bool keep_background = false;
	const char *trace_file = NULL, *learn_file = NULL;
	int min_abi = 0;
	sb_ll_mechanism mechanism = SB_LL_MECH_AUTO;
	sb_ll_gate_mode write_gate = SB_LL_GATE_AUTO;
	sb_bindings user = { 0 };
	int rc;
	enum {
		OPT_VERSION = 256, OPT_PRINT_PROFILE, OPT_PRINT_LAUNCH, OPT_PLAN, OPT_SELF_TEST,
		OPT_DOCTOR, OPT_ALLOW_UNSANDBOXED, OPT_ALLOW_UNENFORCEABLE, OPT_REQUIRE_ABI,
		OPT_DEBUG_DENIALS, OPT_ALLOW_SHM, OPT_MECHANISM, OPT_TRACE, OPT_TRACE_FORMAT, OPT_TRACE_STAT, OPT_LEARN,
		OPT_WRITE_GATE, OPT_KEEP_BACKGROUND,
	};
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "print-profile", no_argument, NULL, OPT_PRINT_PROFILE },
		{ "print-launch", no_argument, NULL, OPT_PRINT_LAUNCH },
		{ "plan", no_argument, NULL, OPT_PLAN },
		{ "self-test", no_argument, NULL, OPT_SELF_TEST },
		{ "doctor", no_argument, NULL, OPT_DOCTOR },
		{ "allow-unsandboxed", no_argument, NULL, OPT_ALLOW_UNSANDBOXED },
		{ "allow-unenforceable", no_argument, NULL, OPT_ALLOW_UNENFORCEABLE },
		{ "require-abi", required_argument, NULL, OPT_REQUIRE_ABI },
		{ "debug-denials", no_argument, NULL, OPT_DEBUG_DENIALS },
		{ "allow-shm", no_argument, NULL, OPT_ALLOW_SHM },
		{ "keep-background", no_argument, NULL, OPT_KEEP_BACKGROUND },
		{ "mechanism", required_argument, NULL, OPT_MECHANISM },
		{ "write-gate", required_argument, NULL, OPT_WRITE_GATE },
		{ "trace", optional_argument, NULL, OPT_TRACE },
		{ "trace-format", required_argument, NULL, OPT_TRACE_FORMAT },
		{ "trace-stat", no_argument, NULL, OPT_TRACE_STAT },
		{ "learn", required_argument, NULL, OPT_LEARN },
		{ NULL, 0, NULL, 0 },
	};
	char msg[256];
	sb_getopt_reset();
	/* '+': options end at the profile; what follows belongs to the command. */
	for (int c; (c = getopt_long(argc, argv, "+:hD:", longopts, NULL)) != -1;) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case OPT_VERSION:
			printf("sbrun %s\n", SB_VERSION);
			return 0;
		case OPT_PRINT_PROFILE:
			act = SB_ACT_PRINT_BOUND;
			break;
		case OPT_PRINT_LAUNCH:
			act = SB_ACT_PRINT_LAUNCH;
			break;
		case OPT_PLAN:
			act = SB_ACT_PLAN;
			break;
		case OPT_SELF_TEST:
			act = SB_ACT_SELFTEST;
			break;
		case OPT_DOCTOR:
			doctor = true;
			break;
		case OPT_ALLOW_UNSANDBOXED:
			allow_unsandboxed = true;
			break;
		case OPT_ALLOW_UNENFORCEABLE:
			allow_unenforceable = true;
			break;
		case OPT_DEBUG_DENIALS:
			debug_denials = true;
			break;
		case OPT_ALLOW_SHM:
			allow_shm = true;
			break;
		case OPT_KEEP_BACKGROUND:
			keep_background = true;
			break;
		case OPT_MECHANISM:
			if (strcmp(optarg, "auto") == 0)
				mechanism = SB_LL_MECH_AUTO;
			else if (strcmp(optarg, "masks") == 0)
				mechanism = SB_LL_MECH_MASK;
			else if (strcmp(optarg, "complement") == 0)
				mechanism = SB_LL_MECH_COMPLEMENT;
			else {
				sb_bindings_clear(&user);
				return usage_error("--mechanism needs auto, masks or complement, "
						   "got '%s'", optarg);
			}
			break;
		case OPT_WRITE_GATE:
			if (strcmp(optarg, "auto") == 0)
				write_gate = SB_LL_GATE_AUTO;
			else if (strcmp(optarg, "off") == 0)
				write_gate = SB_LL_GATE_OFF;
			else {
				sb_bindings_clear(&user);
				return usage_error("--write-gate needs auto or off, got '%s'", optarg);
			}
			break;
		case OPT_TRACE:
			trace = true;
			trace_file = optarg;
			if (optarg && !*optarg) {
				sb_bindings_clear(&user);
				return usage_error("%s", "--trace=FILE needs a file name");
			}
			break;
		case OPT_TRACE_FORMAT:
			if (strcmp(optarg, "json") && strcmp(optarg, "text")) {
				sb_bindings_clear(&user);
				return usage_error("--trace-format is text or json, got '%s'", optarg);
			}
			trace_json = strcmp(optarg, "json") == 0;
			break;
		case OPT_TRACE_STAT:
			trace_stat = true;
			break;
		case OPT_LEARN:
			learn_file = optarg;
			if (!*learn_file) {
				sb_bindings_clear(&user);
				return usage_error("%s", "--learn needs an output file (OUT.sbx)");
			}
			break;
		case OPT_REQUIRE_ABI: {
			char *end = NULL;
			long n = strtol(optarg, &end, 10);
			if (end == optarg || *end || n < 1 || n > 1000) {
				sb_bindings_clear(&user);
				return usage_error("--require-abi needs a number from 1, got '%s'", optarg);
			}
			min_abi = (int)n;
			break;
		}
		case 'D': {
			const char *why = sb_bindings_parse_define(&user, optarg);
			if (why) {
				snprintf(msg, sizeof msg, "-D '%s': %s", optarg, why);
				sb_bindings_clear(&user);
				return usage_error("%s", msg);
			}
			char *name = xstrndup(optarg, strcspn(optarg, "="));
			bool reserved = sb_launch_reserved_param(name);
			if (reserved)
				fprintf(stderr, "sbrun: error: -D %s is refused: the launcher binds %s "
						"itself from the verified environment (use "
						"OMP_SANDBOX_WORKSPACE, OMP_SANDBOX_EXTRA_WRITE or "
						"OMP_SANDBOX_EXTRA_READ)\n", name, name);
			free(name);
			if (reserved) {
				sb_bindings_clear(&user);
				return SB_EXIT_SETUP;
			}
			break;
		}
		default:
			sb_bindings_clear(&user);
			return usage_error("%s", sb_getopt_problem(c, argv, msg, sizeof msg));
		}
	}
	int i = optind;
	if (doctor) {
		sb_bindings_clear(&user);
		return sb_linux_doctor(stdout, SB_EXIT_SETUP) == 0 ? 0 : SB_EXIT_SETUP;
	}
	if (i >= argc) {
		sb_bindings_clear(&user);
		return usage_error("%s", "missing PROFILE.sb");
	}
	const char *profile = argv[i++];
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (act == SB_ACT_LAUNCH && i >= argc) {
		sb_bindings_clear(&user);
		return usage_error("%s", "missing COMMAND");
	}
	sb_run_cfg cfg = {
		.tool = "sbrun",
		.argv0 = argv[0],
		.envp = environ,
		.profile_name = profile,
		.profile_path = profile,
		.user = &user,
		.allow_unsandboxed = allow_unsandboxed,
		.allow_unenforceable = allow_unenforceable,
		.debug_denials = debug_denials,
		.allow_shm = allow_shm,
		.keep_background = keep_background,
		.mechanism = mechanism,
		.write_gate = write_gate,
		.trace = trace || (trace_stat && !learn_file),
		.trace_file = trace_file,
		.trace_json = trace_json,
		.trace_stat = trace_stat,
		.learn_file = learn_file,
		.min_abi = min_abi,
		.command = act == SB_ACT_LAUNCH ? argv[i] : NULL,
		.args = act == SB_ACT_LAUNCH ? argv + i + 1 : NULL,
		.nargs = act == SB_ACT_LAUNCH ? (size_t)(argc - i - 1) : 0,
	};
	rc = sb_run(&cfg, act);
	sb_bindings_clear(&user);
	return rc;
}
