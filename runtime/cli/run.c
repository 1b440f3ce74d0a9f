/* run.c - the shared launcher flow (run.h).  */
#include "runtime/cli/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime/common/cmdpath.h"
#include "runtime/common/env.h"
#include "runtime/linux/landlock_sys.h"
#include "runtime/common/launch.h"
#include "runtime/linux/linux.h"
#include "runtime/macos/macos.h"
#include "compiler/common/exit_status.h"
#include "compiler/common/path.h"
#include "runtime/common/prep.h"
#include "runtime/common/netmode.h"
#include "runtime/common/proxy.h"
#include "compiler/sbpl/sbpl_read.h"
#include "runtime/cli/run_trace.h"
#include "runtime/macos/macos_trace.h"
#include "compiler/driver/sbpl_load.h"
#include "runtime/cli/selftest.h"
#include "compiler/common/xalloc.h"
#include "runtime/common/tools.h"
#include "runtime/common/userdb.h"

/* The presets and the environment they add, as comment lines of the
 * printed forms (--print-profile, --print-launch).  */
static void print_list(const char *what, char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf(";; %s: %s\n", what, v[i]);
}

static void print_tools(const sb_prep *prep)
{
	const sb_tools *t = &prep->tools;
	if (!t->n)
		return;
	printf(";; tool presets (OMP_SANDBOX_TOOLS=%s):", prep->s.tools ? prep->s.tools : "");
	for (size_t i = 0; i < t->n; i++)
		if (!sb_tools_is_protect(t->names[i]))
			printf(" %s%s", t->names[i], t->on[i] ? "" : "(off)");
	putchar('\n');
	bool groups = false;
	for (size_t i = 0; i < t->n && !groups; i++)
		groups = sb_tools_is_protect(t->names[i]);
	if (groups) {
		printf(";; protection groups (OMP_SANDBOX_PROTECT=%s):",
		       prep->s.protect ? prep->s.protect : "");
		for (size_t i = 0; i < t->n; i++)
			if (sb_tools_is_protect(t->names[i]))
				printf(" %s%s", t->names[i] + sizeof SB_PROTECT_PREFIX - 1,
				       t->on[i] ? "" : "(off)");
		putchar('\n');
	}
	const sb_protect *pr = &prep->protect;
	if (pr->repos || pr->scanned)
		printf(";; git discovery: %zu repositories, %zu directories scanned%s\n", pr->repos,
		       pr->scanned, pr->scan_cut ? " (bound hit: see the warning)" : "");
	print_list("protect (PROTECT_GIT)", pr->deny, pr->ndeny);
	print_list("protect exactly (PROTECT_GIT_NODES)", pr->nodes, pr->nnodes);
	print_list("git include (GIT_INCLUDES)", pr->includes, pr->nincludes);
	size_t n = 0;
	char **env = sb_tools_env(t, prep->home, &n);
	for (size_t i = 0; i < n; i++) {
		printf(";; environment: %s\n", env[i]);
		free(env[i]);
	}
	free(env);
}

/* Is NAME one of the colon-separated names in list?  */
static bool in_name_list(const char *list, const char *name, size_t len)
{
	for (const char *s = list; s && *s;) {
		size_t n = strcspn(s, ":");
		if (n == len && strncmp(s, name, len) == 0)
			return true;
		s += n;
		if (*s == ':')
			s++;
	}
	return false;
}

/* The presets' cache settings, unless OMP_SANDBOX_PASS_ENV names the
 * variable (the user's explicit choice wins).  */
static void add_tools_env(const sb_prep *prep, sb_envvec *env)
{
	size_t n = 0;
	char **v = sb_tools_env(&prep->tools, prep->home, &n);
	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(v[i], "=");
		if (!in_name_list(prep->s.pass_env, v[i], len))
			sb_envvec_put(env, v[i]);
		free(v[i]);
	}
	free(v);
}

static sb_platform pick_platform(char *const envp[])
{
#ifdef SB_TEST_HOOKS
	/* Test builds only: exercise the macOS backend (through the
	 * sandbox-exec stand-in) on Linux.  */
	const char *t = sb_env_get(envp, "SB_TEST_PLATFORM");
	if (t && strcmp(t, "macos") == 0)
		return SB_PLAT_MACOS;
	if (t && strcmp(t, "linux") == 0)
		return SB_PLAT_LINUX;
#else
	(void)envp;
#endif
	return sb_platform_native();
}

#ifdef SB_TEST_HOOKS
/* Test builds only: make one Landlock step fail (SB_TEST_LL_FAIL=restrict,
 * create, add_rule, probe, prctl, seccomp), to test the fail-closed paths
 * and that a self-test never counts "sandbox did not start" as a denial.  */
static void test_inject(char *const envp[])
{
	const char *step = sb_env_get(envp, "SB_TEST_LL_FAIL");
	if (step && *step)
		sb_ll_test_fail(step, EPERM);
	/* SB_TEST_LL_ABI=N: handle only the rights of Landlock ABI N (emulates
	 * an older kernel on a newer one; docs/linux.md).  */
	const char *abi = sb_env_get(envp, "SB_TEST_LL_ABI");
	if (abi && *abi)
		sb_ll_test_clamp_abi(atoi(abi));
}
#endif

static char *self_exe(const char *argv0, const char *path_var)
{
	char *r = sb_path_real("/proc/self/exe");
	if (r)
		return r;
	char *c = argv0 ? sb_cmd_resolve(argv0, path_var, NULL) : NULL;
	if (!c)
		return NULL;
	r = sb_path_real(c);
	free(c);
	return r;
}

/* The macOS form: "; -D NAME=VALUE" lines, then the profile text.  */
/* sandbox-exec receives the profile as sbrun re-emits it (lists expanded).
 * A form the reader keeps but does not model (if, let, a macro call) would
 * be moved in front of every rule, changing what it means: refuse such a
 * profile instead of launching something else than was written.  Inert
 * definitions are fine.  On Linux the planner treats them as deny.  */
static int refuse_unmodelled(const sb_profile *prof, sb_diag *d)
{
	for (size_t i = 0; i < prof->nunmodelled; i++) {
		const sb_unmodelled *u = &prof->unmodelled[i];
		if (u->kind == SB_UNMODELLED_INERT)
			continue;
		sb_diag_report(d, SB_SEV_ERROR, &u->loc, "unmodelled",
			       "sbrun cannot re-emit this form faithfully (%s); run "
			       "/usr/bin/sandbox-exec -f on the profile yourself, or express it "
			       "as plain rules", u->reason);
		return SB_REFUSED;
	}
	return 0;
}

static int print_profile(const sb_profile *prof, const sb_prep *prep, const sb_bindings *user,
			 sb_diag *d)
{
	sb_bindings b = { 0 }, defines = { 0 };
	sb_launch_bindings(prep, user, &b);
	char *missing = NULL;
	sb_profile *x = sb_launch_expand_lists(prof, &b, &defines, &missing);
	int rc = 0;
	print_tools(prep);
	if (!x) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "unbound-param",
			       "the profile uses the param \"%s\", which nothing binds; pass "
			       "-D %s=VALUE", missing ? missing : "?", missing ? missing : "?");
		rc = SB_REFUSED;
	} else {
		/* the -D list goes into the profile as data: sbc explain
		 * reads it back (sb_eval_bindings) */
		sb_bindings_clear(&x->launch_params);
		x->launch_params = defines;
		defines = (sb_bindings){ 0 };
		char *text = sb_profile_text(x);
		fputs(text, stdout);
		free(text);
		sb_profile_free(x);
	}
	free(missing);
	sb_bindings_clear(&b);
	sb_bindings_clear(&defines);
	return rc;
}

/* The profile with this launch's values bound, or NULL after reporting
 * the first param nothing binds (the same refusal for every printed form).  */
static sb_profile *bind_for_launch(const sb_profile *prof, const sb_prep *prep,
				   const sb_bindings *user, sb_diag *d)
{
	sb_bindings b = { 0 };
	sb_launch_bindings(prep, user, &b);
	char **unbound = NULL;
	size_t nunbound = 0;
	sb_profile *bound = sb_profile_bind(prof, &b, &unbound, &nunbound);
	sb_bindings_clear(&b);
	if (nunbound) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "unbound-param",
			       "the profile uses the param \"%s\", which nothing binds; pass "
			       "-D %s=VALUE", unbound[0], unbound[0]);
		sb_profile_free(bound);
		bound = NULL;
	}
	for (size_t i = 0; i < nunbound; i++)
		free(unbound[i]);
	free(unbound);
	return bound;
}

/* The bound form: self-contained, decides like the original's output with
 * no -D needed (sbc explain PROFILE --op read --path ...).  */
static int print_bound(const sb_profile *prof, const sb_prep *prep, const sb_bindings *user,
		       sb_diag *d)
{
	sb_profile *bound = bind_for_launch(prof, prep, user, d);
	if (!bound)
		return SB_REFUSED;
	printf(";; bound for this launch; sandbox-exec receives the same rules with these "
	       "paths as -D params\n");
	print_tools(prep);
	char *text = sb_profile_text(bound);
	fputs(text, stdout);
	free(text);
	sb_profile_free(bound);
	return 0;
}

static int print_plan(sb_platform plat, const sb_profile *prof, const sb_prep *prep,
		      const sb_bindings *user, const sb_linux_opts *lo, sb_diag *d)
{
	if (plat == SB_PLAT_MACOS) {
		printf(";; macOS: Seatbelt enforces this profile as written "
		       "(sandbox-exec -p TEXT -D ...)\n");
		return print_profile(prof, prep, user, d);
	}
	sb_profile *bound = bind_for_launch(prof, prep, user, d);
	if (!bound)
		return SB_REFUSED;
	sb_ll_plan *plan = NULL;
	int rc = sb_ll_plan_build(bound, lo, &plan, d);
	if (rc == 0 && plan)
		sb_ll_plan_print(plan, stdout);
	if (plan)
		sb_ll_plan_free(plan);
	sb_profile_free(bound);
	return rc;
}

/* D9: omp dies at start-up without a writable ~/.omp, and a Landlock rule
 * needs the directory to exist.  */
static int ensure_omp_dir(const char *home, sb_diag *d)
{
	char *p = sb_path_join(home, ".omp");
	int rc = 0;
	if (mkdir(p, 0700) != 0 && errno != EEXIST) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "omp-dir", "cannot create %s: %s", p,
			       strerror(errno));
		rc = SB_REFUSED;
	}
	free(p);
	return rc;
}

static bool is_policy_name(const char *path)
{
	size_t n = strlen(path);
	return n >= 4 && strcmp(path + n - 4, ".sbx") == 0;
}

/* The policy a profile was compiled from, when it lies beside the profile:
 * prof->source_policy, relative to the profile's directory (so the bytes do
 * not depend on where it was built).  NULL when unknown or absent: the
 * embedded profile has none.  */
static char *policy_beside(const sb_profile *prof, const char *profile_path)
{
	if (!profile_path || is_policy_name(profile_path))   /* it is the policy */
		return NULL;
	if (prof->source_policy) {
		const char *h = prof->source_policy;
		size_t n = strcspn(h, ";");
		if (n == 0 || h[0] == '/')
			return NULL;
		char *dir = sb_path_real(profile_path);
		if (!dir)
			return NULL;
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		char *cand = xasprintf("%s/%.*s", dir, (int)n, h);
		free(dir);
		char *real = sb_path_real(cand);
		free(cand);
		return real;
	}
	return NULL;
}

/* The child's environment.  The launch and the printed forms build it the
 * same way, so --print-profile refuses what the launch refuses (a bad
 * OMP_SANDBOX_PASS_ENV name) with the same words.  */
static int child_env(const sb_run_cfg *cfg, sb_platform plat, const sb_prep *prep,
		     sb_envvec *env, sb_diag *d)
{
	sb_env_in ein = { .parent = cfg->envp, .home = prep->home, .tmpdir = prep->tmpdir,
			  .marker = sb_platform_marker(plat), .pass_env = prep->s.pass_env,
			  .inherit = prep->s.inherit_env };
	return sb_env_build(&ein, env, d);
}

/* Does the profile use the binding `name` (as a param, or as either side
 * of ancestors between two params)?  */
static bool profile_uses(const sb_param *params, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (sb_param_uses(&params[i], name))
			return true;
	return false;
}

/* -D of a name the profile never uses binds nothing: most often a typo.  */
static void warn_unused_defines(const sb_profile *prof, const sb_bindings *user, sb_diag *d)
{
	if (!user || !user->n)
		return;
	size_t n = 0;
	sb_param *params = sb_profile_params(prof, &n);
	for (size_t i = 0; i < user->n; i++) {
		if (profile_uses(params, n, user->v[i].name))
			continue;
		char *known = NULL;
		size_t klen = 0;
		FILE *k = open_memstream(&known, &klen);
		for (size_t j = 0, shown = 0; k && j < n; j++)
			if (params[j].kind != SB_PARAM_ANCESTORS) {   /* derived from two others */
				char *spelling = sb_param_spelling(&params[j]);
				fprintf(k, "%s%s", shown++ ? ", " : "", spelling);
				free(spelling);
			}
		if (k)
			fclose(k);
		sb_diag_report(d, SB_SEV_WARNING, NULL, "unused-define",
			       "-D %s: the profile has no param %s, so it binds nothing (the "
			       "profile's params: %s); check the name", user->v[i].name,
			       user->v[i].name, known && *known ? known : "none");
		free(known);
	}
	sb_param_array_free(params, n);
}

/* The profile to apply: embedded text, a compiled profile (.sb), or a
 * policy (.sbx) compiled in memory by the driver with sbc's checks: an
 * error in the policy refuses the launch.  */
static sb_profile *load_profile(const sb_run_cfg *cfg, const sb_prep *prep, sb_net_mode nm,
				sb_diag *d)
{
	if (cfg->profile_path && !cfg->profile_text && is_policy_name(cfg->profile_path)) {
		/* -D binds the policy's $NAME params at compile time, as sbc -D */
		sb_bindings none = { 0 };
		return sb_compile_policy(cfg->profile_path, cfg->user ? cfg->user : &none, true, d);
	}
	/* Evaluated with this launch's params (sbpl_scheme.h): what a
	 * profile decides on them is expanded before it is re-emitted. */
	sb_bindings params = { 0 };
	sb_launch_bindings(prep, cfg->user, &params);
	/* omp-sandboxed: OMP_SANDBOX_NETWORK=allowlist selects the embedded
	 * allowlist variant (examples/omp-allowlist.sbx) */
	bool allowlist = nm == SB_NET_ALLOWLIST && cfg->allowlist_text;
	sb_profile *prof = allowlist ? sb_sbpl_read_bound("omp-allowlist.sb (embedded)",
							  cfg->allowlist_text, cfg->allowlist_len,
							  d, 0, &params)
			   : cfg->profile_text
				   ? sb_sbpl_read_bound(cfg->profile_name, cfg->profile_text,
							cfg->profile_len, d, 0, &params)
				   : sb_sbpl_read_file_bound(cfg->profile_path, d, 0, &params);
	sb_bindings_clear(&params);
	return prof;
}

/* Where the masks hide the home, a denied file there looks absent (ENOENT),
 * not refused: tools then say "does not exist" or skip it without a word.
 * Said once a launch, in one sentence, to a person (a terminal on stderr):
 * not on every scripted run.  */
static void say_absent(const sb_ll_plan *plan, const sb_prep *prep, sb_diag *d)
{
	if (!isatty(2) || !prep->home)
		return;
	char *probe = sb_path_join(prep->home, ".sbx-no-such-entry");
	bool absent = sb_ll_plan_looks_absent(plan, probe);
	free(probe);
	if (absent)
		sb_diag_note(d, NULL,
			     "files in your home directory that the policy denies look absent in "
			     "this sandbox (\"No such file or directory\", \"repository does not "
			     "exist\"), they are not refused; OMP_SANDBOX_TRACE=1 names each one and "
			     "its fix, OMP_SANDBOX_TRACE_STAT=1 also those a tool only stat()s "
			     "(docs/trace.md)");
}

static int launch(const sb_run_cfg *cfg, sb_platform plat, const sb_profile *prof,
		  const sb_prep *prep, const char *cmd, const char *sandbox_exec,
		  const sb_linux_opts *lo, sb_diag *d)
{
	sb_envvec env = { 0 };
	int rc = child_env(cfg, plat, prep, &env, d);
	if (rc)
		return rc;
	add_tools_env(prep, &env);
	bool egress = sb_egress_filtered(&prof->egress);
	/* macOS: no namespace of our own, so the proxy takes a free port on
	 * the host's loopback and the profile allows only that port */
	int proxy_fd = -1;
	char proxy_at[32] = "";
	if (egress && plat == SB_PLAT_MACOS) {
		int port = 0;
		if (sb_macos_egress_listen(&proxy_fd, &port, d) != 0) {
			sb_envvec_clear(&env);
			return SB_REFUSED;
		}
		char url[48];
		snprintf(url, sizeof url, "http://" SB_PROXY_HOST ":%d", port);
		snprintf(proxy_at, sizeof proxy_at, "localhost:%d", port);
		sb_proxy_env(&env, url);
	} else if (egress) {
		sb_proxy_env(&env, "http://" SB_PROXY_HOST ":" SB_PROXY_PORT_TEXT);
	}
	/* macOS traced: the deny rules carry this session's tag
	 * (runtime/macos/macos_trace.h) */
	char tag[SB_MACOS_TAG_SIZE] = "";
	if (plat == SB_PLAT_MACOS && (cfg->trace || cfg->learn_file) &&
	    sb_macos_trace_tag(tag) != 0) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "trace", "cannot make the trace's tag: %s",
			       strerror(errno));
		if (proxy_fd >= 0)
			close(proxy_fd);
		sb_envvec_clear(&env);
		return SB_REFUSED;
	}
	sb_launch_in in = {
		.platform = plat, .profile = prof, .prep = prep, .user = cfg->user, .env = env.v,
		.sandbox_exec = sandbox_exec, .cmd = cmd, .args = cfg->args, .nargs = cfg->nargs,
		.auto_approve = cfg->omp_mode && !cfg->plain_command && prep->s.yolo, .trace_tag = tag[0] ? tag : NULL,
		.egress_proxy = proxy_fd >= 0 ? proxy_at : NULL,
	};
	sb_launch l;
	rc = sb_launch_compute(&in, &l, d);
	sb_envvec_clear(&env);
	if (rc) {
		if (proxy_fd >= 0)
			close(proxy_fd);
		sb_launch_clear(&l);
		return rc;
	}
	const char *path_var = sb_env_get(cfg->envp, "PATH");
	rc = sb_launch_check_readable(l.bound, prep->home, "the command", cmd, d);
	char *missing = NULL;
	char *interp = sb_cmd_interpreter(cmd, path_var, &missing);
	if (!rc && interp)
		rc = sb_launch_check_readable(l.bound, prep->home, "its interpreter", interp, d);
	if (!rc && !interp && missing) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "interpreter",
			       "%s needs the interpreter '%s', which is not found on PATH; "
			       "install it or add its directory to PATH", cmd, missing);
		rc = SB_REFUSED;
	}
	free(interp);
	free(missing);
	if (rc) {
		if (proxy_fd >= 0)
			close(proxy_fd);
		sb_launch_clear(&l);
		return rc;
	}
	sb_tools_notes(&prep->tools, prep->home, l.bound, d);
	if (plat == SB_PLAT_LINUX) {
		sb_bindings b = { 0 };
		sb_launch_bindings(prep, cfg->user, &b);
		sb_launch_warn_missing(prof, &b, d);
		sb_bindings_clear(&b);
	}
	char *self = self_exe(cfg->argv0, path_var);
	char *policy = policy_beside(prof, cfg->profile_path);
	const char *files[] = { self, cfg->profile_path, policy };
	sb_launch_check_tamper(l.bound, files, policy ? 3 : 2, d);
	free(self);
	bool traced = cfg->trace || cfg->learn_file;
	if (traced && (rc = sb_run_trace_check(cfg, d)) != 0) {
		free(policy);
		if (proxy_fd >= 0)
			close(proxy_fd);
		sb_launch_clear(&l);
		return rc;
	}

	if (plat == SB_PLAT_MACOS && egress && !traced) {
		rc = sb_macos_egress_exec(&l, &l.bound->egress, proxy_fd, cfg->tool, d);
		proxy_fd = -1;   /* taken over */
	} else if (plat == SB_PLAT_MACOS && traced) {
		rc = sb_run_traced(cfg, plat, &l, prof, prep, NULL, lo, tag, d);
	} else if (plat == SB_PLAT_MACOS) {
		rc = sb_macos_exec(&l, d);
	} else if (chdir(l.cwd) != 0) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "workspace", "cannot enter the workspace %s: %s",
			       l.cwd, strerror(errno));
		rc = SB_REFUSED;
	} else {
		sb_ll_plan *plan = NULL;
		sb_linux_opts lopts = *lo;
		lopts.egress = egress ? &l.bound->egress : NULL;
		rc = sb_ll_plan_build(l.bound, &lopts, &plan, d);
		if (rc == 0 && plan)
			say_absent(plan, prep, d);
		if (rc == 0 && plan && traced) {
			rc = sb_run_traced(cfg, plat, &l, prof, prep, plan, &lopts, NULL, d);
		} else if (rc == 0 && plan) {
			fflush(NULL);
			rc = sb_linux_exec(plan, &lopts, l.exec_path, l.argv, l.envp, d);
			if (!rc)
				rc = SB_REFUSED;
		} else if (!rc) {
			rc = SB_REFUSED;
		}
		if (plan)
			sb_ll_plan_free(plan);
	}
	free(policy);
	if (proxy_fd >= 0)
		close(proxy_fd);
	sb_launch_clear(&l);
	return rc;
}

/* The terminals on the standard descriptors, each once: the planner
 * gives one outside /dev/pts (a console) /dev/tty's rights
 * (sb_linux_opts.terminals).  */
typedef struct std_terminals {
	char name[3][64];
	const char *v[3];
	size_t n;
} std_terminals;

/* OMP_SANDBOX_KEEP_BACKGROUND=1 (or yes, true): as --keep-background.  */
static bool keep_background_env(char *const *envp)
{
	return sb_flag_on(sb_env_get(envp, "OMP_SANDBOX_KEEP_BACKGROUND"));
}

static void find_std_terminals(std_terminals *t)
{
	t->n = 0;
	for (int fd = 0; fd <= 2; fd++) {
		char *slot = t->name[t->n];
		if (!isatty(fd) || ttyname_r(fd, slot, sizeof t->name[0]) != 0)
			continue;
		bool seen = false;
		for (size_t i = 0; i < t->n; i++)
			seen = seen || strcmp(t->v[i], slot) == 0;
		if (!seen)
			t->v[t->n++] = slot;
	}
}

static int run(const sb_run_cfg *cfg, sb_run_action act, sb_diag *d)
{
	sb_platform plat = pick_platform(cfg->envp);
#ifdef SB_TEST_HOOKS
	test_inject(cfg->envp);
#endif
	const char *path_var = sb_env_get(cfg->envp, "PATH");
	char cwdbuf[4096];
	const char *cwd = getcwd(cwdbuf, sizeof cwdbuf);

	/* 1. the command (omp first of all, as the original) */
	char *cmd = NULL;
	bool need_cmd = cfg->omp_mode || act == SB_ACT_LAUNCH;
	if (cfg->command) {
		cmd = sb_cmd_resolve(cfg->command, path_var, cwd);
		struct stat st;
		if (!cmd && need_cmd && strchr(cfg->command, '/')) {
			/* a path is not searched: say what is wrong with it */
			bool exists = stat(cfg->command, &st) == 0;
			sb_diag_report(d, SB_SEV_ERROR, NULL, "command",
				       !exists ? "'%s': no such file (a path is used as given, "
						 "not searched on PATH)"
				       : S_ISDIR(st.st_mode) ? "'%s' is a directory, not a command"
							      : "'%s' is not an executable file",
				       cfg->command);
			return exists ? SB_CMD_NOT_EXECUTABLE : SB_CMD_NOT_FOUND;
		}
		if (!cmd && need_cmd) {
			sb_diag_report(d, SB_SEV_ERROR, NULL, "command",
				       "'%s' not found on PATH (only absolute PATH entries are "
				       "searched); install it or add its directory to PATH",
				       cfg->command);
			return SB_CMD_NOT_FOUND;
		}
	}
	/* 2. the platform backend */
	char *sandbox_exec = sb_macos_sandbox_exec_path();
	int rc = 0;
	if (plat == SB_PLAT_MACOS && (act == SB_ACT_LAUNCH || act == SB_ACT_SELFTEST)) {
		rc = sb_macos_check_available(sandbox_exec, d);
		if (!rc)
			rc = sb_macos_check_nested(cfg->envp, sandbox_exec, d);
	} else if (plat == SB_PLAT_LINUX && act == SB_ACT_LAUNCH) {
		const char *m = sb_env_get(cfg->envp, "OMP_SANDBOX");
		if (m && *m)
			sb_diag_report(d, SB_SEV_NOTE, NULL, "nested",
				       "already inside a sandbox (OMP_SANDBOX=%s): the new Landlock "
				       "layer stacks on the existing one and can only narrow it", m);
	}
	/* 3-6. home, workspace, temp dir, extras */
	char *pw_home = sb_user_home(getuid(), sb_env_get(cfg->envp, "HOME"));
	sb_prep_in pin = { .envp = cfg->envp, .cwd = cwd, .pw_home = pw_home, .platform = plat };
	sb_prep prep;
	if (!rc) {
		sb_settings_warn_unknown(cfg->envp, d);
		rc = sb_prep_run(&pin, &prep, d);
	} else {
		memset(&prep, 0, sizeof prep);
	}
	if (!rc && cfg->omp_mode && (act == SB_ACT_LAUNCH || act == SB_ACT_SELFTEST))
		rc = ensure_omp_dir(prep.home, d);
	sb_profile *prof = NULL;
	sb_net_mode nm = SB_NET_OPEN;
	if (!rc)
		rc = sb_net_mode_parse(sb_env_get(cfg->envp, "OMP_SANDBOX_NETWORK"), &nm, d);
	if (!rc) {
		prof = load_profile(cfg, &prep, nm, d);
		if (prof && sb_net_mode_apply(prof, nm, sb_env_get(cfg->envp, "OMP_SANDBOX_ALLOW_HOSTS"),
					      d) != 0) {
			sb_profile_free(prof);
			prof = NULL;
			rc = SB_REFUSED;
		} else if (!prof) {
			if (cfg->profile_path && is_policy_name(cfg->profile_path))
				sb_diag_report(d, SB_SEV_ERROR, NULL, "profile",
					       "cannot use the policy %s; nothing was run",
					       cfg->profile_name);
			else
				sb_diag_report(d, SB_SEV_ERROR, NULL, "profile",
					       "cannot use the profile %s%s", cfg->profile_name,
					       cfg->profile_path
						       ? " (a profile is SBPL, as sbc writes it; a "
							 "policy is read when its name ends in .sbx)"
						       : "");
			rc = SB_REFUSED;
		} else if (plat == SB_PLAT_MACOS || act == SB_ACT_PRINT_LAUNCH) {
			rc = refuse_unmodelled(prof, d);
		}
		/* a policy's -D were checked when it was compiled */
		if (prof && (cfg->profile_text || !is_policy_name(cfg->profile_path)))
			warn_unused_defines(prof, cfg->user, d);
	}
	if (!rc && (act == SB_ACT_PRINT_LAUNCH || act == SB_ACT_PRINT_BOUND || act == SB_ACT_PLAN)) {
		sb_envvec env = { 0 };
		rc = child_env(cfg, plat, &prep, &env, d);
		sb_envvec_clear(&env);
	}
	if (!rc) {
		sb_tools_select(prep.s.tools, prep.s.protect, prof, &prep.tools, d);
		if (act == SB_ACT_LAUNCH || act == SB_ACT_SELFTEST)
			rc = sb_tools_prepare_cache(&prep.tools, prep.home, d);
		if (!rc)
			rc = sb_prep_protect(&prep, d);
	}
	std_terminals terms;
	find_std_terminals(&terms);
	sb_linux_opts lo = { .home = prep.home, .min_abi = cfg->min_abi > 0 ? cfg->min_abi : SB_LL_MIN_ABI_DEFAULT,
			     .uid = getuid(),
			     .xdg_runtime_dir = sb_env_get(cfg->envp, "XDG_RUNTIME_DIR"),
			     .terminals = terms.v, .nterminals = terms.n,
			     .allow_unsandboxed = cfg->allow_unsandboxed,
			     .allow_unenforceable = cfg->allow_unenforceable,
			     .debug_denials = cfg->debug_denials, .allow_shm = cfg->allow_shm,
			     .keep_background = cfg->keep_background ||
						keep_background_env(cfg->envp),
			     /* Traced, the same mechanism as untraced: a denied path
			      * fails the same way.  Learning, the complement unless
			      * told: every access is then seen where it is refused,
			      * a new ~/.cache/tool as itself, not as a hidden ~/.cache
			      * (docs/trace.md, "Traced runs and masks").  */
			     .mechanism = cfg->learn_file && cfg->mechanism == SB_LL_MECH_AUTO
						  ? SB_LL_MECH_COMPLEMENT : cfg->mechanism,
			     .trace_stat = cfg->trace_stat,
			     .gate = cfg->write_gate, .tool = cfg->tool };
	if (!rc) {
		switch (act) {
		case SB_ACT_PRINT_LAUNCH:
			rc = print_profile(prof, &prep, cfg->user, d);
			break;
		case SB_ACT_PRINT_BOUND:
			rc = print_bound(prof, &prep, cfg->user, d);
			break;
		case SB_ACT_PLAN:
			rc = print_plan(plat, prof, &prep, cfg->user, &lo, d);
			break;
		case SB_ACT_SELFTEST: {
			sb_selftest_cfg sc = {
				.platform = plat, .profile = prof, .prep = &prep, .user = cfg->user,
				.parent_env = cfg->envp, .omp = cfg->omp_mode ? cmd : NULL,
				.sandbox_exec = sandbox_exec, .lopts = &lo, .out = stdout,
			};
			if (!sc.omp) {
				/* sbrun: omp checks when omp is on PATH */
				sc.omp = cmd = cmd ? cmd : sb_cmd_resolve("omp", path_var, NULL);
			}
			rc = sb_selftest_run(&sc);
			break;
		}
		case SB_ACT_LAUNCH:
			rc = launch(cfg, plat, prof, &prep, cmd, sandbox_exec, &lo, d);
			break;
		}
	}
	if (prof)
		sb_profile_free(prof);
	sb_prep_clear(&prep);
	free(pw_home);
	free(sandbox_exec);
	free(cmd);
	return rc;
}

/* OMP_SANDBOX_TRACE=1 traces to stderr, any other value but "" and "0"
 * names the trace file; OMP_SANDBOX_TRACE_FORMAT=json;
 * OMP_SANDBOX_TRACE_STAT=1.  Options win.  */
static void trace_from_env(sb_run_cfg *c)
{
	const char *v = sb_env_get(c->envp, "OMP_SANDBOX_TRACE");
	if (!c->trace && v && *v && strcmp(v, "0") != 0) {
		c->trace = true;
		c->trace_file = strcmp(v, "1") == 0 ? NULL : v;
	}
	const char *f = sb_env_get(c->envp, "OMP_SANDBOX_TRACE_FORMAT");
	if (f && strcmp(f, "json") == 0)
		c->trace_json = true;
	/* OMP_SANDBOX_TRACE_STAT=1: as --trace-stat (tracing to stderr when
	 * nothing else asked for a trace) */
	if (sb_flag_on(sb_env_get(c->envp, "OMP_SANDBOX_TRACE_STAT"))) {
		c->trace_stat = true;
		if (!c->trace && !c->learn_file)
			c->trace = true;
	}
}

/* The one place the launcher turns a library status into an exit status
 * (docs/exit-status.md); a self-test's own status (0 or 1) passes.  */
int sb_exit_status_of(int rc)
{
	switch (rc) {
	case SB_OK: return SB_EXIT_OK;
	case SB_REFUSED: return SB_EXIT_SETUP;
	case SB_CMD_NOT_EXECUTABLE: return SB_EXIT_NOEXEC;
	case SB_CMD_NOT_FOUND: return SB_EXIT_NOTFOUND;
	}
	return rc > 0 ? rc : SB_EXIT_SETUP;
}

int sb_run(const sb_run_cfg *cfg_in, sb_run_action act)
{
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_diag_set_tool(d, cfg_in->tool);
	sb_diag_auto_colour(d, sb_env_get(cfg_in->envp, "NO_COLOR"));
	sb_run_cfg cfg_copy = *cfg_in;
	trace_from_env(&cfg_copy);
	const sb_run_cfg *cfg = &cfg_copy;
	int rc = sb_exit_status_of(run(cfg, act, d));
	sb_diag_free(d);
	return rc;
}
