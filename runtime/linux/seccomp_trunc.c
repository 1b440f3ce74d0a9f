#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* seccomp_trunc.c - the truncation guard for Landlock ABI 1 and 2, which
 * have no TRUNCATE right (docs/linux.md, "Truncation below ABI 3").
 *
 * Below ABI 3 Landlock checks WRITE_FILE when a file is opened for writing,
 * but not truncation: truncate(2) on a path, and open(O_TRUNC) on a file
 * opened read-only (or with access mode 3, which sets neither FMODE_READ nor
 * FMODE_WRITE), empty a file the policy only lets the process read.  This
 * filter, stacked as its own seccomp filter, closes every path to that:
 *  - truncate(2): refused outright (EPERM); the path cannot be checked.
 *    ftruncate(2) stays: it needs a descriptor opened for writing, which
 *    Landlock checked at open time (WRITE_FILE).
 *  - open/openat/open_by_handle_at with O_TRUNC: refused (EPERM) unless the
 *    access mode is O_WRONLY or O_RDWR, i.e. unless Landlock checks the open
 *    for writing.  creat(2) is always O_WRONLY, so Landlock covers it.
 *  - openat2(2): its flags live in a struct seccomp cannot read; refused
 *    with ENOSYS, which callers treat as "old kernel" and fall back to
 *    openat (glibc's open() never uses openat2).
 *  - io_uring (IORING_OP_OPENAT) is already refused: io_uring_setup, in
 *    seccomp.c.
 * Traced (sbrun --trace) too: the refusal stays this filter's, so a
 * process that outlives or kills the trace's supervisor gets the same EPERM
 * (tests/suite-trace-sound.sh).  The trace does not see these calls: this
 * filter's ERRNO wins over the trace filter's notification (seccomp returns
 * the strictest action), docs/trace.md says so.
 * Only the low 32 bits of a flags argument are compared: the kernel reads
 * flags as an int (the CVE-2019-10063 lesson, as for ioctl in seccomp.c).  */
#include "runtime/linux/ll_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define TG_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TG_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "truncation guard: unsupported architecture (x86_64 and aarch64 only)"
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif

#define TG_LD_NR (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
#define TG_LD_ARG_LO(n) (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,                          \
				 offsetof(struct seccomp_data, args[n]) +            \
				 (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 0 : 4))
#define TG_RET(v) (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, (v))
#define TG_ERRNO(e) TG_RET(SECCOMP_RET_ERRNO | ((e) & SECCOMP_RET_DATA))

/* The program, built into `f` (at least 32 slots); returns its length.
 * Layout: arch check; a dispatch on nr that jumps to "check flags in
 * argument k" for each open-like call; one flags check per argument index.  */
static unsigned short build(struct sock_filter *f)
{
	unsigned short n = 0;
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TG_AUDIT_ARCH, 1, 0);
	f[n++] = TG_RET(SECCOMP_RET_KILL_PROCESS);
	f[n++] = TG_LD_NR;
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_truncate, 0, 1);
	f[n++] = TG_ERRNO(EPERM);
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 0, 1);
	f[n++] = TG_ERRNO(ENOSYS);
	/* dispatch: flags in argument 1 (open), 2 (openat, open_by_handle_at) */
	unsigned short j1 = 0, j2a, j2b;
#ifdef __NR_open
	j1 = n;
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_open, 0, 0);
#endif
	j2a = n;
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 0);
	j2b = n;
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_open_by_handle_at, 0, 0);
	f[n++] = TG_RET(SECCOMP_RET_ALLOW);
	/* check(k): A = low flags; no O_TRUNC -> allow; accmode 1 or 2 -> allow */
	unsigned short chk[2];
	for (int k = 0; k < 2; k++) {
		chk[k] = n;
		f[n++] = TG_LD_ARG_LO(k + 1);
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_TRUNC, 1, 0);
		f[n++] = TG_RET(SECCOMP_RET_ALLOW);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, O_ACCMODE);
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, O_WRONLY, 2, 0);
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, O_RDWR, 1, 0);
		f[n++] = TG_ERRNO(EPERM);
		f[n++] = TG_RET(SECCOMP_RET_ALLOW);
	}
	/* patch the dispatch jumps (jt is relative to the next instruction) */
	if (j1)
		f[j1].jt = (unsigned char)(chk[0] - j1 - 1);
	f[j2a].jt = (unsigned char)(chk[1] - j2a - 1);
	f[j2b].jt = (unsigned char)(chk[1] - j2b - 1);
	return n;
}

bool sb_seccomp_truncate_guard_needed(const sb_ll_abi_info *ai)
{
#ifdef SB_TEST_HOOKS
	/* the negative control: show the hole the guard closes */
	int e;
	if (sb_ll_test_should_fail("no_truncate_guard", &e))
		return false;
#endif
	return ai->abi > 0 && !(ai->fs_mask & SB_LL_TRUNCATE);
}

bool sb_seccomp_trunc_refused(uint64_t open_flags)
{
	unsigned lo = (unsigned)open_flags;   /* the kernel reads an int */
	unsigned acc = lo & O_ACCMODE;
	return (lo & O_TRUNC) && acc != O_WRONLY && acc != O_RDWR;
}

int sb_seccomp_install_truncate_guard(void)
{
#ifdef SB_TEST_HOOKS
	int e;
	if (sb_ll_test_should_fail("seccomp", &e)) {
		errno = e;
		return -1;
	}
#endif
	struct sock_filter f[32];
	struct sock_fprog prog = { .len = build(f), .filter = f };
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
		return -1;
	return 0;
}
#endif /* __linux__ */
