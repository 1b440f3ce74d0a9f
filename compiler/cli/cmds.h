/* cmds.h - sbc subcommands implemented outside sbc_main.c.  Each takes the
 * the command line from the subcommand's name on (argv[0] is "explain" or
 * "diff") and returns the process exit status.  */
#ifndef SB_CMDS_H
#define SB_CMDS_H

/* sbc explain POLICY.sbx|PROFILE.sb --op OP --path PATH [-D N=V]... [--format=json] */
int sb_cmd_explain(int argc, char **argv);
/* sbc diff OLD NEW [-D N=V]... [--format=json]: 0 same, 1 narrowing only, 2 widening, 3 error */
int sb_cmd_diff(int argc, char **argv);

#endif
