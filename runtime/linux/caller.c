#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* caller.c - reading the caller of a held system call (caller.h).  */
#include "runtime/linux/caller.h"

#include <errno.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

int sb_caller_str(pid_t pid, uint64_t addr, char *buf, size_t cap)
{
	size_t got = 0;
	while (got < cap - 1) {
		uint64_t a = addr + got;
		size_t chunk = 4096 - (size_t)(a & 4095);
		if (chunk > cap - 1 - got)
			chunk = cap - 1 - got;
		struct iovec l = { buf + got, chunk }, r = { (void *)(uintptr_t)a, chunk };
		ssize_t k = process_vm_readv(pid, &l, 1, &r, 1, 0);
		if (k <= 0)
			return EFAULT;
		if (memchr(buf + got, '\0', (size_t)k))
			return 0;
		got += (size_t)k;
	}
	return ENAMETOOLONG;   /* longer than a path may be: the kernel refuses it too */
}

bool sb_caller_mem(pid_t pid, uint64_t addr, void *out, size_t n)
{
	struct iovec l = { out, n }, r = { (void *)(uintptr_t)addr, n };
	return process_vm_readv(pid, &l, 1, &r, 1, 0) == (ssize_t)n;
}

void sb_caller_comm(pid_t pid, char *out, size_t cap)
{
	char f[64];
	snprintf(f, sizeof f, "/proc/%d/comm", (int)pid);
	int fd = open(f, O_RDONLY | O_CLOEXEC);
	ssize_t r = fd >= 0 ? read(fd, out, cap - 1) : -1;
	if (fd >= 0)
		close(fd);
	out[r > 0 ? r : 0] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

size_t sb_bpf_no_listener(struct sock_filter *f)
{
	size_t n = 0;
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_seccomp, 0, 3);
	f[n++] = (struct sock_filter)SB_BPF_ARG_LO(1);   /* flags: the kernel reads 32 bits */
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K,
					      SECCOMP_FILTER_FLAG_NEW_LISTENER, 0, 1);
	f[n++] = (struct sock_filter)SB_BPF_RET(SECCOMP_RET_ERRNO | (EBUSY & SECCOMP_RET_DATA));
	f[n++] = (struct sock_filter)SB_BPF_LD(nr);   /* both other ways land here */
	return n;
}
#endif /* __linux__ */
