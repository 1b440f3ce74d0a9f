/* fake_log - the test build's stand-in for /usr/bin/log (macOS), used by the
 * denial trace (runtime/macos/macos_trace.h).  `fake_log stream --style
 * compact --predicate PRED`: writes its arguments, one "argv[N]=..." a line,
 * to $SB_TEST_LOG_REC (when set), prints the header the real one prints
 * once it filters, then replays the lines of $SB_TEST_LOG_LINES with every
 * "@TAG@" replaced by the tag the predicate ends with (the text between
 * ENDSWITH " and the next quote), and waits to be stopped.  The replayed
 * lines are written by the tests in the format Apple documents; they were
 * not recorded on a Mac.  $SB_TEST_LOG_FAIL set: print that text as the
 * first line and exit 64 (as the real one does for a user who may not read
 * the log).  $SB_TEST_LOG_RMDIR set: remove that (empty) directory before
 * printing the header, so the traced launch's child finds its workspace
 * gone (the refusal path of the child, macos_trace.c).  */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *rec = getenv("SB_TEST_LOG_REC");
	if (rec) {
		FILE *f = fopen(rec, "w");
		if (f) {
			for (int i = 0; i < argc; i++)
				fprintf(f, "argv[%d]=%s\n", i, argv[i]);
			fclose(f);
		}
	}
	const char *failmsg = getenv("SB_TEST_LOG_FAIL");
	if (failmsg) {
		printf("%s\n", failmsg);
		return 64;
	}
	if (argc != 6 || strcmp(argv[1], "stream") != 0 || strcmp(argv[4], "--predicate") != 0) {
		printf("log: unexpected arguments\n");
		return 64;
	}
	const char *pred = argv[5];
	char tag[128] = "";
	const char *p = strstr(pred, "ENDSWITH \"");
	if (p) {
		p += 10;
		size_t n = strcspn(p, "\"");
		if (n < sizeof tag) {
			memcpy(tag, p, n);
			tag[n] = '\0';
		}
	}
	const char *gone = getenv("SB_TEST_LOG_RMDIR");
	if (gone && rmdir(gone) != 0) {
		printf("log: test hook: cannot remove %s\n", gone);
		return 64;
	}
	printf("Filtering the log data using \"%s\"\n", pred);
	printf("Timestamp               Ty Process[PID:TID]\n");
	fflush(stdout);
	const char *lines = getenv("SB_TEST_LOG_LINES");
	FILE *in = lines ? fopen(lines, "r") : NULL;
	char buf[8192];
	while (in && fgets(buf, sizeof buf, in)) {
		for (char *s = buf; *s;) {
			char *at = strstr(s, "@TAG@");
			if (!at) {
				fputs(s, stdout);
				break;
			}
			fwrite(s, 1, (size_t)(at - s), stdout);
			fputs(tag, stdout);
			s = at + 5;
		}
		fflush(stdout);
	}
	if (in)
		fclose(in);
	for (;;)
		pause();   /* until the tracer stops it (SIGTERM) */
}
