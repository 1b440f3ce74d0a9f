/* query_opts.c - the shared options of sbc explain and sbc diff
 * (query_opts.h).  */
#include "compiler/cli/query_opts.h"

#include <stdio.h>
#include <string.h>

#include "compiler/common/cmdline.h"

int sb_query_opt(sb_query_opts *q, const char *cmd, int c, char **argv)
{
	const char *why;
	char msg[256];
	switch (c) {
	case SB_QOPT_SAMPLE:
		q->sample = true;
		return 1;
	case 'D':
		if ((why = sb_bindings_parse_define(&q->defs, optarg))) {
			fprintf(stderr, "sbc %s: error: -D '%s': %s\n", cmd, optarg, why);
			return -1;
		}
		return 1;
	case SB_QOPT_FORMAT:
		if (strcmp(optarg, "json") != 0 && strcmp(optarg, "text") != 0) {
			fprintf(stderr, "sbc %s: error: unknown format '%s' (text or json)\n", cmd, optarg);
			return -1;
		}
		q->json = !strcmp(optarg, "json");
		return 1;
	case '?':
	case ':':
		fprintf(stderr, "sbc %s: error: %s (see sbc %s --help)\n", cmd,
			sb_getopt_problem(c, argv, msg, sizeof msg), cmd);
		return -1;
	default:
		return 0;
	}
}
