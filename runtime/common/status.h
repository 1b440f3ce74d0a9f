/* status.h - what the runtime's library stages return (common, macos,
 * linux): 0, or a negative sb_status after the reason went through the
 * diagnostics funnel.  The programs turn it into an exit status
 * (runtime/cli/run.c: sb_exit_status_of); no library stage picks one.
 * A launcher that waits for the command (the traced ones, macOS egress)
 * returns its own sb_status and, only when that is SB_OK, the command's
 * status (0..255, from sb_wait_exit_code) in a separate out-parameter
 * (`int *cmd_status`): the two are never one int.  A forked child that
 * fails before exec ends with the program's exit status for its
 * sb_status, never with the negative value itself (which _exit would
 * truncate to 255): the program passes its mapping in
 * (sb_linux_exec_traced, sb_macos_exec_traced).  */
#ifndef SB_STATUS_H
#define SB_STATUS_H

typedef enum sb_status {
	SB_OK = 0,
	SB_REFUSED = -1,            /* refused, or the sandbox could not be applied */
	SB_CMD_NOT_EXECUTABLE = -2, /* the command exists but cannot be executed (EACCES) */
	SB_CMD_NOT_FOUND = -3,      /* the command does not exist */
} sb_status;

/* The shell's view of a wait status (docs/exit-status.md): the exit status,
 * 128+N for a process killed by signal N, 1 for anything else (stopped,
 * which waitpid without WUNTRACED never reports).  The one place the
 * runtime turns a wait status into a number.  */
int sb_wait_exit_code(int wstatus);

#endif
