/* sbrun - run a command under a compiled profile (docs/omp-sandboxed.md,
 * docs/exit-status.md): sandbox-exec on macOS, Landlock on Linux.  The same
 * preparation as omp-sandboxed (run.h): verified home, workspace, temp dir,
 * OMP_SANDBOX_* extras, clean environment.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/common/launch.h"
#include "runtime/linux/linux.h"
#include "runtime/cli/run.h"

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
	      "  --require-abi N      Linux: refuse below Landlock ABI N (default 3)\n"
	      "  --debug-denials      Linux: have the kernel log denials (ABI >= 7, audit)\n"
	      "  --allow-shm          Linux: grant /dev/shm (off by default)\n"
	      "  --mechanism M        Linux: how denies inside allowed trees are enforced:\n"
	      "                       auto (masks where namespaces can be had), masks\n"
	      "                       (or refuse), complement (no namespaces; narrower)\n"
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
	bool debug_denials = false, allow_shm = false;
	int min_abi = 0, mechanism = 0;
	sb_bindings user = { 0 };
	int i = 1, rc;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--version") == 0) {
			printf("sbrun %s\n", SB_VERSION);
			return 0;
		} else if (strcmp(a, "--print-profile") == 0) {
			act = SB_ACT_PRINT_BOUND;
		} else if (strcmp(a, "--print-launch") == 0) {
			act = SB_ACT_PRINT_LAUNCH;
		} else if (strcmp(a, "--plan") == 0) {
			act = SB_ACT_PLAN;
		} else if (strcmp(a, "--self-test") == 0) {
			act = SB_ACT_SELFTEST;
		} else if (strcmp(a, "--doctor") == 0) {
			doctor = true;
		} else if (strcmp(a, "--allow-unsandboxed") == 0) {
			allow_unsandboxed = true;
		} else if (strcmp(a, "--allow-unenforceable") == 0) {
			allow_unenforceable = true;
		} else if (strcmp(a, "--debug-denials") == 0) {
			debug_denials = true;
		} else if (strcmp(a, "--allow-shm") == 0) {
			allow_shm = true;
		} else if (strcmp(a, "--mechanism") == 0 || strncmp(a, "--mechanism=", 12) == 0) {
			const char *v = a[11] == '=' ? a + 12 : (i + 1 < argc ? argv[++i] : "");
			if (strcmp(v, "auto") == 0)
				mechanism = 0;
			else if (strcmp(v, "masks") == 0)
				mechanism = 1;
			else if (strcmp(v, "complement") == 0)
				mechanism = 2;
			else {
				sb_bindings_clear(&user);
				return usage_error("--mechanism needs auto, masks or complement, "
						   "got '%s'", v);
			}
		} else if (strcmp(a, "--require-abi") == 0) {
			char *end = NULL;
			long n = i + 1 < argc ? strtol(argv[++i], &end, 10) : 0;
			if (!end || *end || n < 1 || n > 1000) {
				sb_bindings_clear(&user);
				return usage_error("--require-abi needs a number from 1, got '%s'",
						   i < argc ? argv[i] : "");
			}
			min_abi = (int)n;
		} else if (strncmp(a, "-D", 2) == 0) {
			const char *def = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
			const char *eq = def ? strchr(def, '=') : NULL;
			if (!eq || eq == def) {
				sb_bindings_clear(&user);
				return usage_error("-D needs NAME=VALUE, got '%s'", def ? def : "");
			}
			char *name = strndup(def, (size_t)(eq - def));
			if (sb_launch_reserved_param(name)) {
				fprintf(stderr, "sbrun: error: -D %s is refused: the launcher binds %s "
						"itself from the verified environment (use "
						"OMP_SANDBOX_WORKSPACE, OMP_SANDBOX_EXTRA_WRITE or "
						"OMP_SANDBOX_EXTRA_READ)\n", name, name);
				free(name);
				sb_bindings_clear(&user);
				return SB_EXIT_SETUP;
			}
			sb_bindings_set(&user, name, eq + 1);
			free(name);
		} else {
			sb_bindings_clear(&user);
			return usage_error("unknown option '%s'", a);
		}
	}
	if (doctor) {
		sb_bindings_clear(&user);
		return sb_linux_doctor(stdout) == 0 ? 0 : SB_EXIT_SETUP;
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
		.mechanism = mechanism,
		.min_abi = min_abi,
		.command = act == SB_ACT_LAUNCH ? argv[i] : NULL,
		.args = act == SB_ACT_LAUNCH ? argv + i + 1 : NULL,
		.nargs = act == SB_ACT_LAUNCH ? (size_t)(argc - i - 1) : 0,
	};
	rc = sb_run(&cfg, act);
	sb_bindings_clear(&user);
	return rc;
}
