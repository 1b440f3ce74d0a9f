/* macos.c - the sandbox-exec backend (macos.h).  */
#include "runtime/macos/macos.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "runtime/common/env.h"
#include "runtime/common/status.h"
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

char *sb_macos_sandbox_exec_path(void)
{
#ifdef SB_TEST_HOOKS
	/* The stand-in sits next to the test binary (build/test-bin/).  */
	char self[PATH_MAX];   /* readlink gives at most PATH_MAX bytes */
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			char *r;
			r = xasprintf("%s/fake_sandbox_exec", self);
			return r;
		}
	}
#endif
	char *r = xstrdup(SB_SANDBOX_EXEC);
	return r;
}

int sb_macos_check_available(const char *sandbox_exec, sb_diag *d)
{
	if (access(sandbox_exec, X_OK) == 0)
		return 0;
	sb_diag_report(d, SB_SEV_ERROR, NULL, "no-sandbox-exec",
		       "%s is missing or not executable: the Seatbelt backend requires macOS",
		       sandbox_exec);
	return SB_REFUSED;
}

#ifdef __APPLE__
/* Does a trivial profile apply?  Inside a sandbox it cannot
 * ("sandbox_apply: Operation not permitted", status 71).  */
static bool probe_applies(const char *sandbox_exec)
{
	pid_t pid = fork();
	if (pid < 0)
		return true;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		char *const argv[] = { (char *)sandbox_exec, "-p", "(version 1)(allow default)",
				       "/usr/bin/true", NULL };
		char *const envp[] = { NULL };
		execve(sandbox_exec, argv, envp);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return sb_wait_exit_code(st) == 0;
}
#endif

int sb_macos_check_nested(char *const envp[], const char *sandbox_exec, sb_diag *d)
{
	const char *m = sb_env_get(envp, "OMP_SANDBOX");
	const char *name = "OMP_SANDBOX";
	if (!m || !*m) {
		m = sb_env_get(envp, "PI_SANDBOX");
		name = "PI_SANDBOX";
	}
	if (m && *m) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "nested",
			       "already inside a sandbox (%s=%s is set): a second Seatbelt sandbox "
			       "cannot be applied inside the first; run the command directly in "
			       "this sandbox, or unset %s if it was set by mistake", name, m, name);
		return SB_REFUSED;
	}
#ifdef __APPLE__
	if (!probe_applies(sandbox_exec)) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "nested",
			       "already inside a sandbox: %s cannot apply even a trivial profile "
			       "here (nested Seatbelt sandboxes are not allowed); run from an "
			       "unsandboxed terminal", sandbox_exec);
		return SB_REFUSED;
	}
#else
	(void)sandbox_exec;
#endif
	return 0;
}

sb_status sb_macos_exec(const sb_launch *l, sb_diag *d)
{
	if (chdir(l->cwd) != 0) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "workspace", "cannot enter the workspace %s: %s",
			       l->cwd, strerror(errno));
		return SB_REFUSED;
	}
	execve(l->exec_path, l->argv, l->envp);
	int e = errno;
	sb_diag_report(d, SB_SEV_ERROR, NULL, "exec", "cannot run %s: %s", l->exec_path,
		       strerror(e));
	return SB_REFUSED;
}
