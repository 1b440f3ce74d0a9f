/* cmdline.c - shared pieces of the commands' option parsing (cmdline.h).  */
#include "compiler/common/cmdline.h"

#include <getopt.h>
#include <stdio.h>

void sb_getopt_reset(void)
{
	opterr = 0;   /* the commands word their own errors */
#ifdef __APPLE__
	optreset = 1;
	optind = 1;
#else
	optind = 0;   /* glibc: 0 also forgets the previous argv */
#endif
}

const char *sb_getopt_problem(int c, char *const argv[], char *buf, size_t size)
{
	/* getopt_long has already stepped past the offending word.  */
	const char *word = optind > 0 ? argv[optind - 1] : "";
	if (c == ':') {
		if (optopt && optopt < 256)
			snprintf(buf, size, "-%c needs an argument", optopt);
		else
			snprintf(buf, size, "%s needs an argument", word);
	} else if (optopt && optopt < 256) {
		snprintf(buf, size, "unknown option '-%c'", optopt);
	} else {
		snprintf(buf, size, "unknown option '%s'", word);
	}
	return buf;
}
