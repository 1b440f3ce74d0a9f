/* fake_sandbox_exec - the test build's stand-in for /usr/bin/sandbox-exec.
 * Parses sandbox-exec's options (-p TEXT | -f FILE, -D NAME=VALUE), writes
 * what it received to "fake-sandbox-exec.rec" in the current directory (the
 * launcher has already changed to the workspace), then runs the command
 * UNCONFINED with the environment it was given, and exits with its status.
 * Record format, one item per line (values may not contain newlines; the
 * profile text is written last, after a "profile:" line):
 *   argv[N]=...   every argument received
 *   cwd=...
 *   env=...       every environment entry, in order
 *   define=NAME=VALUE
 *   command=...
 *   profile:
 *   <profile text>  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	const char *profile = NULL;
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if ((strcmp(argv[i], "-p") == 0 || strcmp(argv[i], "-f") == 0 ||
		     strcmp(argv[i], "-D") == 0) && i + 1 < argc) {
			if (argv[i][1] == 'p')
				profile = argv[i + 1];
			i++;
			continue;
		}
		fprintf(stderr, "sandbox-exec: unknown option %s\n", argv[i]);
		return 64;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: sandbox-exec [-p profile] [-D k=v ...] command [args]\n");
		return 64;
	}
	FILE *rec = fopen("fake-sandbox-exec.rec", "w");
	if (!rec) {
		perror("fake-sandbox-exec.rec");
		return 71;
	}
	for (int k = 0; k < argc; k++)
		if (k != 2 || strcmp(argv[1], "-p") != 0)
			fprintf(rec, "argv[%d]=%s\n", k, argv[k]);
		else
			fprintf(rec, "argv[%d]=<profile>\n", k);
	char cwd[4096];
	fprintf(rec, "cwd=%s\n", getcwd(cwd, sizeof cwd) ? cwd : "?");
	for (char **e = environ; *e; e++)
		fprintf(rec, "env=%s\n", *e);
	for (int k = 1; k + 1 < i; k++)
		if (strcmp(argv[k], "-D") == 0)
			fprintf(rec, "define=%s\n", argv[++k]);
		else if (argv[k][0] == '-' && argv[k][1] != '-')
			k++;
	fprintf(rec, "command=%s\n", argv[i]);
	fprintf(rec, "profile:\n%s", profile ? profile : "");
	fclose(rec);
	execve(argv[i], argv + i, environ);
	fprintf(stderr, "execvp() of '%s' failed: %s\n", argv[i], strerror(errno));
	return 71;
}
