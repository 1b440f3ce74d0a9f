#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* seccomp.c - the launch filter (docs/linux.md, "Launch sequence"):
 * native architecture only (x32 and compat calls killed), TIOCSTI and
 * TIOCLINUX ioctls refused (low 32 bits of the command, CVE-2019-10063),
 * io_uring_setup and the keyring calls (keyctl, add_key, request_key)
 * refused, and optionally socket(AF_UNIX) refused when the profile denies
 * UNIX sockets and Landlock (ABI < 9) cannot, socket() for every family
 * when the profile denies the network, or for every family but AF_INET,
 * AF_INET6 and AF_NETLINK behind the egress proxy.  Installed after
 * no_new_privs; it does not block the Landlock syscalls or execve.  */
#include "runtime/linux/ll_internal.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define SB_AUDIT_ARCH AUDIT_ARCH_X86_64
#define SB_X32_BIT 0x40000000U
#elif defined(__aarch64__)
#define SB_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "seccomp filter: unsupported architecture (x86_64 and aarch64 only)"
#endif

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
#define SB_TIOCSTI 0x5412U
#define SB_TIOCLINUX 0x541CU

#define LD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define ARG_LO(n) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[n]) + \
			   (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 0 : 4))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define EPERM_RET RET(SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

int sb_seccomp_install(bool block_af_unix, bool block_all_sockets, bool namespaced_only)
{
#ifdef SB_TEST_HOOKS
	int e;
	if (sb_ll_test_should_fail("seccomp", &e)) {
		errno = e;
		return -1;
	}
#endif
	const uint32_t refuse = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
	/* Behind the egress proxy only families the network namespace confines
	 * may be created: an allowlist, so a family added to the kernel later
	 * (or AF_VSOCK, whose port space is the host's) stays refused.
	 * EAFNOSUPPORT, the answer of a kernel without the family, lets tools
	 * that probe for one carry on.  */
	const uint32_t other = block_all_sockets ? refuse
			       : namespaced_only ? SECCOMP_RET_ERRNO | (EAFNOSUPPORT & SECCOMP_RET_DATA)
						 : SECCOMP_RET_ALLOW;
	struct sock_filter f[] = {
		/* 0 */ LD(arch),
		/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SB_AUDIT_ARCH, 1, 0),
		/* 2 */ RET(SECCOMP_RET_KILL_PROCESS),
		/* 3 */ LD(nr),
#ifdef SB_X32_BIT
		/* 4 */ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, SB_X32_BIT, 0, 1),
		/* 5 */ RET(SECCOMP_RET_KILL_PROCESS),
#else
		BPF_STMT(BPF_JMP | BPF_JA, 0), BPF_STMT(BPF_JMP | BPF_JA, 0),
#endif
		/* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		/* 7 */ EPERM_RET,
		/* The kernel keyrings are not namespaced: the user keyring and
		 * anything linked from it would be readable inside (tests/escape/45-kernel-keyring.sh).
		 * The launcher joins a fresh session keyring first
		 * (sb_keyring_fresh), and the calls are refused, as container
		 * runtimes do.  */
		/* 8 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_keyctl, 2, 0),
		/* 9 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_add_key, 1, 0),
		/* 10 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_request_key, 0, 1),
		/* 11 */ EPERM_RET,
		/* 12 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 5),
		/* 13 */ ARG_LO(1),
		/* 14 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SB_TIOCSTI, 2, 0),
		/* 15 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SB_TIOCLINUX, 1, 0),
		/* 16 */ RET(SECCOMP_RET_ALLOW),
		/* 17 */ EPERM_RET,
		/* 18 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 8),
		/* 19 */ ARG_LO(0),
		/* 20 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
		/* 21 */ RET(block_af_unix || block_all_sockets ? refuse : SECCOMP_RET_ALLOW),
		/* 22 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 3, 0),
		/* 23 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 2, 0),
		/* 24 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 1, 0),
		/* 25 */ RET(other),
		/* 26 */ RET(block_all_sockets ? refuse : SECCOMP_RET_ALLOW),
		/* 27 */ RET(SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof f / sizeof *f, .filter = f };
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
		return -1;
	return 0;
}
#ifndef KEYCTL_JOIN_SESSION_KEYRING
#define KEYCTL_JOIN_SESSION_KEYRING 1
#endif

void sb_keyring_fresh(void)
{
	/* NULL: a new anonymous session keyring, this process's alone */
	(void)syscall(__NR_keyctl, KEYCTL_JOIN_SESSION_KEYRING, (char *)NULL);
}
#endif /* __linux__ */
