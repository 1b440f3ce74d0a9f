/* cmds.h - sbc subcommands implemented outside sbc_main.c.  Each takes the
 * the command line from the subcommand's name on (argv[0] is "explain" or
 * "diff") and returns the process exit status.  */
#ifndef SB_CMDS_H
#define SB_CMDS_H

#include <stddef.h>

/* sbc explain POLICY.sbx|PROFILE.sb --op OP --path PATH [-D N=V]... [--format=json] */
int sb_cmd_explain(int argc, char **argv);
/* sbc diff OLD NEW [-D N=V]... [--format=json]: 0 same, 1 narrowing only, 2 widening, 3 error */
int sb_cmd_diff(int argc, char **argv);

/* After sb_eval_bindings: replace each param that got a sample value (in
 * *samples, removed from it) by the value sbrun would bind on this machine
 * (home from the user database, the current directory or
 * OMP_SANDBOX_WORKSPACE as the workspace, TMPDIR, the extra lists and the
 * tool presets from the environment), in *used.  -D and a printed
 * profile's own -D lines are not samples, so they win.  The launcher's
 * refusals are reported through d and make it return -1.  */
struct sb_profile;
struct sb_bindings;
struct sb_diag;
int sb_cli_bind_machine(const struct sb_profile *const *profiles, size_t n,
			struct sb_bindings *used, struct sb_bindings *samples, struct sb_diag *d);

#endif
