/* probe_cmd - a stand-in command for launcher tests (installed as "omp" on a
 * test PATH).  Prints what it received, one item per line:
 *   argv[N]=...   cwd=...   env=...
 * then: "--exit=N" as any argument exits with N, "--signal=N" kills itself
 * with signal N, "--read=PATH" tries to open PATH for reading and prints
 * "read-ok" or "read-denied: <strerror>".  */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	int code = 0, sig = 0;
	for (int i = 0; i < argc; i++)
		printf("argv[%d]=%s\n", i, argv[i]);
	char cwd[4096];
	printf("cwd=%s\n", getcwd(cwd, sizeof cwd) ? cwd : "?");
	for (char **e = environ; *e; e++)
		printf("env=%s\n", *e);
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--exit=", 7) == 0)
			code = atoi(argv[i] + 7);
		else if (strncmp(argv[i], "--signal=", 9) == 0)
			sig = atoi(argv[i] + 9);
		else if (strncmp(argv[i], "--read=", 7) == 0) {
			int fd = open(argv[i] + 7, O_RDONLY);
			if (fd >= 0) {
				printf("read-ok\n");
				close(fd);
			} else {
				printf("read-denied: %s\n", strerror(errno));
			}
		}
	}
	fflush(stdout);
	if (sig) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return code;
}
