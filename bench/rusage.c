/* rusage.c - run one command and report its wall time and peak resident
 * set size (the /usr/bin/time -f %M figure, without needing that package).
 * Usage: rusage PROGRAM [ARG...]   (PROGRAM is an absolute path)
 * Prints "wall_ms=<ms> maxrss_kb=<kB> status=<exit status>" on stdout; the
 * child's stdout goes to /dev/null, its stderr is kept.  */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argv[1][0] != '/') {
		fprintf(stderr, "usage: rusage /ABS/PROGRAM [ARG...]\n");
		return 2;
	}
	double t0 = now_ms();
	pid_t pid = fork();
	if (pid < 0) {
		perror("rusage: fork");
		return 2;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
		execv(argv[1], argv + 1);
		perror("rusage: exec");
		_exit(127);
	}
	int st = 0;
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) < 0) {
		perror("rusage: wait4");
		return 2;
	}
	double t1 = now_ms();
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	printf("wall_ms=%.3f maxrss_kb=%ld status=%d\n", t1 - t0, ru.ru_maxrss, code);
	return 0;
}
