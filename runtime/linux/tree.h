/* tree.h - the sandboxed tree's processes (docs/security-model.md, "The
 * tree ends with the command"): the supervising parent is a child
 * subreaper, so every process the tree leaves behind stays its descendant
 * (an orphan is reparented to it, never to init), and when the command
 * exits it kills and reaps them all.  Without a terminal on the standard
 * descriptors the tree runs in a session of its own, so no process of it
 * can open /dev/tty and take the user's terminal.  */
#ifndef SB_TREE_H
#define SB_TREE_H

#include <stdbool.h>
#include <sys/types.h>
#include "runtime/linux/linux.h"

/* The supervising parent, before it forks the tree.  */
void sb_tree_reaper(void);
/* The supervising parent, once the command (its child) was reaped: kill
 * every remaining descendant and reap them, until none is left.  Returns
 * how many were killed.  */
int sb_tree_end(void);
/* The launch, first: unless another supervising parent will exist (the
 * egress proxy's, the trace's) or o->keep_background (then this process
 * execs the command, as before), fork one that waits for the command,
 * forwards signals to it, ends the tree after it and exits as it did.  Returns 0 in the child, or
 * SB_REFUSED when it cannot fork.  */
int sb_tree_guard(const sb_linux_opts *o, sb_diag *d);
/* The command's process, just before exec: a session of its own unless one
 * of the standard descriptors is a terminal (a terminal needs the user's
 * session: job control, ^C).  */
void sb_tree_detach(void);

#endif
