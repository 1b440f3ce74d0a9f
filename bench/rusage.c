/* rusage.c - run one command and report its wall time and peak resident
 * set size (the /usr/bin/time -f %M figure, without needing that package).
 * Usage: rusage [-t SECONDS] PROGRAM [ARG...]   (PROGRAM is an absolute path)
 * Prints "wall_ms=<ms> maxrss_kb=<kB> ivcsw=<n> status=<exit status>" on
 * stdout (ivcsw: involuntary context switches, i.e. preemptions), or
 * "... status=timeout" when -t was given and the child ran longer (it is
 * then killed).  The child's stdout goes to /dev/null, its stderr is kept.  */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void on_alarm(int sig)
{
	(void)sig;   /* only interrupts wait4() */
}

int main(int argc, char **argv)
{
	unsigned limit = 0;
	int first = 1;
	if (argc > 2 && strcmp(argv[1], "-t") == 0) {
		limit = (unsigned)strtoul(argv[2], NULL, 10);
		first = 3;
	}
	if (argc <= first || argv[first][0] != '/') {
		fprintf(stderr, "usage: rusage [-t SECONDS] /ABS/PROGRAM [ARG...]\n");
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
		execv(argv[first], argv + first);
		perror("rusage: exec");
		_exit(127);
	}
	struct sigaction sa = {.sa_handler = on_alarm};
	sigaction(SIGALRM, &sa, NULL);
	if (limit)
		alarm(limit);
	int st = 0;
	int timed_out = 0;
	struct rusage ru;
	while (wait4(pid, &st, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("rusage: wait4");
			return 2;
		}
		timed_out = 1;
		kill(pid, SIGKILL);
	}
	double t1 = now_ms();
	if (timed_out) {
		printf("wall_ms=%.3f maxrss_kb=%ld ivcsw=%ld status=timeout\n", t1 - t0, ru.ru_maxrss, ru.ru_nivcsw);
		return 0;
	}
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	printf("wall_ms=%.3f maxrss_kb=%ld ivcsw=%ld status=%d\n", t1 - t0, ru.ru_maxrss, ru.ru_nivcsw, code);
	return 0;
}
