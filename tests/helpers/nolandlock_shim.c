/* nolandlock_shim - simulate a kernel without Landlock:
 *   nolandlock_shim ENOSYS|EOPNOTSUPP /abs/cmd args...
 * sets no_new_privs, installs a seccomp filter that makes the Landlock
 * system calls (444-446) fail with the given errno, then execs the command
 * (the launcher under test).  */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: nolandlock_shim ENOSYS|EOPNOTSUPP CMD ARGS...\n");
		return 2;
	}
	unsigned err = strcmp(argv[1], "EOPNOTSUPP") == 0 ? EOPNOTSUPP : ENOSYS;
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 444, 0, 2),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 446, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof f / sizeof *f, .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0) {
		perror("nolandlock_shim: seccomp");
		return 2;
	}
	execv(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
