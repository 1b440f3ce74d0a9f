/* cmdline.h - what every command's getopt_long loop shares (sbc, sbc
 * explain, sbc diff, sbrun): a reset of getopt's state, so a command can
 * be parsed more than once in one process (the unit tests do), and one
 * wording for getopt's two complaints.  Each command keeps its own option
 * table beside its usage text.  */
#ifndef SB_CMDLINE_H
#define SB_CMDLINE_H

#include <stddef.h>

/* Before the first getopt_long() call of a command.  */
void sb_getopt_reset(void);

/* The complaint for getopt_long()'s result `c` when it is '?' (an unknown
 * option) or ':' (a missing argument; optstring starts with ':'), e.g.
 * "unknown option '--frob'", "-o needs an argument".  Written into buf.  */
const char *sb_getopt_problem(int c, char *const argv[], char *buf, size_t size);

#endif
