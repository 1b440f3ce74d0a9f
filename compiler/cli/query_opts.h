/* query_opts.h - the options sbc explain and sbc diff share: -D NAME=VALUE,
 * --sample and --format=text|json, with one spelling of their errors.  */
#ifndef SB_QUERY_OPTS_H
#define SB_QUERY_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include "compiler/ir/ir.h"

typedef struct sb_query_opts {
	bool json;      /* --format=json */
	bool sample;    /* --sample: the documented sample values, not this machine's */
	sb_bindings defs;   /* -D NAME=VALUE */
} sb_query_opts;

/* getopt_long codes of the shared long options; a command's own codes
 * start at SB_QOPT__NEXT.  */
enum { SB_QOPT_SAMPLE = 256, SB_QOPT_FORMAT, SB_QOPT__NEXT };
/* The short options and the long options' entries, for the command's
 * own tables.  */
#define SB_QOPT_SHORT ":hD:"
#define SB_QOPT_LONG                                                  \
	{ "sample", no_argument, NULL, SB_QOPT_SAMPLE },              \
	{ "format", required_argument, NULL, SB_QOPT_FORMAT },        \
	{ "help", no_argument, NULL, 'h' }

/* Handle getopt_long's answer c when it is a shared option or an error
 * (unknown option, missing argument): 1 when handled, 0 when c is the
 * command's own (or -h), -1 after an error was printed as
 * "sbc CMD: error: ..." (cmd is "explain" or "diff").  */
int sb_query_opt(sb_query_opts *q, const char *cmd, int c, char **argv);

#endif
