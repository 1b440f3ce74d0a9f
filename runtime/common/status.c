/* status.c - the wait-status helper of status.h.  */
#include "runtime/common/status.h"

#include <sys/wait.h>

int sb_wait_exit_code(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}
