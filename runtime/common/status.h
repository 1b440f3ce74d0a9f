/* status.h - what the runtime's library stages return (common, macos,
 * linux): 0, or a negative sb_status after the reason went through the
 * diagnostics funnel.  The programs turn it into an exit status
 * (runtime/cli/run.c: exit_status_of); no library stage picks one.  */
#ifndef SB_STATUS_H
#define SB_STATUS_H

typedef enum sb_status {
	SB_OK = 0,
	SB_REFUSED = -1,            /* refused, or the sandbox could not be applied */
	SB_CMD_NOT_EXECUTABLE = -2, /* the command exists but cannot be executed (EACCES) */
	SB_CMD_NOT_FOUND = -3,      /* the command does not exist */
} sb_status;

#endif
