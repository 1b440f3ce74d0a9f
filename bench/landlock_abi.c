/* landlock_abi.c - print the running kernel's Landlock ABI version (or
 * "none: <reason>"), for the machine line of docs/benchmarks.md.  */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#define LL_CREATE_RULESET_VERSION 1U

int main(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
	if (abi < 0)
		printf("none: %s\n", strerror(errno));
	else
		printf("%ld\n", abi);
	return 0;
}
