/* caller.h - what a seccomp supervisor reads of the process whose call it
 * holds (the trace, trace_notify.c; the write gate, gate.c): its memory,
 * by process_vm_readv (the supervisor is its parent, same uid: allowed
 * under Yama's ptrace_scope=1), and its name; and the filter macros both
 * filters are written with.  */
#ifndef SB_CALLER_H
#define SB_CALLER_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define SB_BPF_LD(field) \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
/* the low 32 bits of argument n */
#define SB_BPF_ARG_LO(n) \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[n]) + \
		 (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 0 : 4))
#define SB_BPF_RET(v) BPF_STMT(BPF_RET | BPF_K, (v))

/* Writes SB_BPF_NO_LISTENER_LEN instructions at `f`, A holding the call
 * number before and after: seccomp(2) asking for a listener of its own is
 * refused with EBUSY, the kernel's answer while a listener is attached.
 * Each filter that has a listener (the trace's, the gate's) carries it:
 * once the supervisor is gone its listener is detached, and a listener
 * installed by the tree would receive the calls our filter sends (of equal
 * actions the newest filter's wins) and could answer CONTINUE
 * (tests/escape/50-own-seccomp-listener.sh).  */
#define SB_BPF_NO_LISTENER_LEN 5
size_t sb_bpf_no_listener(struct sock_filter *f);

/* A NUL-terminated string from the caller's memory, read page by page (an
 * unmapped page after the string does not fail the read).  0, EFAULT, or
 * ENAMETOOLONG when it does not end within `cap`.  */
int sb_caller_str(pid_t pid, uint64_t addr, char *buf, size_t cap);
/* `n` bytes from the caller's memory: true when all were read.  */
bool sb_caller_mem(pid_t pid, uint64_t addr, void *out, size_t n);
/* Its process name (/proc/PID/comm), "" when unreadable.  */
void sb_caller_comm(pid_t pid, char *out, size_t cap);

#endif
