/* Unit tests for runtime/common/status.c: sb_wait_exit_code, the one
 * place the runtime turns a wait status into the shell's number, fed real
 * wait statuses of forked children.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/common/status.h"

/* The wait status of a child that exits with `code`, or (code < 0) is
 * killed by signal -code.  */
static int status_of_child(int code)
{
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		if (code < 0) {
			signal(-code, SIG_DFL);
			raise(-code);
			pause();
		}
		_exit(code);
	}
	int st = 0;
	cr_assert(eq(int, waitpid(pid, &st, 0), pid));
	return st;
}

Test(status, exited_codes_pass_unchanged)
{
	cr_assert(eq(int, sb_wait_exit_code(status_of_child(0)), 0));
	cr_assert(eq(int, sb_wait_exit_code(status_of_child(1)), 1));
	cr_assert(eq(int, sb_wait_exit_code(status_of_child(77)), 77));
	cr_assert(eq(int, sb_wait_exit_code(status_of_child(78)), 78));
	cr_assert(eq(int, sb_wait_exit_code(status_of_child(255)), 255));
}

Test(status, killed_by_signal_is_128_plus_n)
{
	cr_assert(eq(int, sb_wait_exit_code(status_of_child(-SIGKILL)), 137));
	cr_assert(eq(int, sb_wait_exit_code(status_of_child(-SIGTERM)), 143));
	cr_assert(eq(int, sb_wait_exit_code(status_of_child(-SIGINT)), 130));
}

/* The negative sb_status a child must never _exit with: the kernel keeps
 * the low 8 bits, so SB_REFUSED would read as 255, not 78 (the bug in
 * macos_trace.c this helper's convention fixed).  */
Test(status, negative_exit_is_truncated_to_255)
{
	cr_assert(eq(int, sb_wait_exit_code(status_of_child(SB_REFUSED & 0xff)), 255));
}

Test(status, stopped_is_neither_exit_nor_signal)
{
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		raise(SIGSTOP);
		_exit(0);
	}
	int st = 0;
	cr_assert(eq(int, waitpid(pid, &st, WUNTRACED), pid));
	bool stopped = WIFSTOPPED(st);
	cr_assert(stopped);
	cr_assert(eq(int, sb_wait_exit_code(st), 1));
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	cr_assert(eq(int, sb_wait_exit_code(st), 137));
}

/* runtime/cli/run.c: the one mapping of the launcher's own sb_status to
 * the program's exit status (docs/exit-status.md).  */
#include "compiler/common/exit_status.h"
#include "runtime/cli/run.h"

Test(status, launcher_status_maps_to_its_exit_code)
{
	cr_assert(eq(int, sb_exit_status_of(SB_OK), 0));
	cr_assert(eq(int, sb_exit_status_of(SB_REFUSED), 78));
	cr_assert(eq(int, sb_exit_status_of(SB_CMD_NOT_EXECUTABLE), 126));
	cr_assert(eq(int, sb_exit_status_of(SB_CMD_NOT_FOUND), 127));
	cr_assert(eq(int, SB_EXIT_SETUP, 78));
	/* a value outside the enum is a refusal, never a command's status */
	cr_assert(eq(int, sb_exit_status_of((sb_status)-9), 78));
	cr_assert(eq(int, sb_exit_status_of((sb_status)7), 78));
}

/* A forked child that fails before its exec ends with the mapped code
 * (what sb_linux_exec_traced and sb_macos_exec_traced pass in), so the
 * parent's wait reads 78/126/127, never 255.  */
Test(status, child_refusal_reads_as_the_mapped_code)
{
	const sb_status s[] = { SB_REFUSED, SB_CMD_NOT_EXECUTABLE, SB_CMD_NOT_FOUND };
	const int want[] = { 78, 126, 127 };
	for (size_t i = 0; i < 3; i++)
		cr_assert(eq(int, sb_wait_exit_code(status_of_child(sb_exit_status_of(s[i]))),
			     want[i]));
}
