#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* landlock_sys.c - Landlock syscall wrappers, the per-ABI table and the
 * kernel probe (docs/linux.md, "ABI, degradation and failing closed").  */
#include "runtime/linux/landlock_sys.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#endif
#ifndef __NR_landlock_add_rule
#define __NR_landlock_add_rule 445
#endif
#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446
#endif

#ifdef SB_TEST_HOOKS
static int test_clamp;
static char test_fail_step[32];
static int test_fail_err;

void sb_ll_test_clamp_abi(int abi) { test_clamp = abi; }

void sb_ll_test_fail(const char *step, int err)
{
	snprintf(test_fail_step, sizeof test_fail_step, "%s", step ? step : "");
	test_fail_err = err;
}

bool sb_ll_test_should_fail(const char *step, int *err)
{
	if (test_fail_step[0] && strcmp(test_fail_step, step) == 0) {
		*err = test_fail_err;
		return true;
	}
	return false;
}
#define INJECT(step)                                              \
	do {                                                      \
		int e_;                                           \
		if (sb_ll_test_should_fail(step, &e_)) {          \
			errno = e_;                               \
			return -1;                                \
		}                                                 \
	} while (0)
#else
#define INJECT(step) do { } while (0)
#endif

sb_ll_abi_info sb_ll_abi_info_for(int abi)
{
	sb_ll_abi_info i = { .abi = abi };
	if (abi <= 0)
		return i;
	if (abi > 10)
		abi = 10;
	/* The kernel sample's pattern: start from the newest, remove what
	 * each older ABI lacks.  */
	i.fs_mask = 0x1FFFF;
	i.net_mask = 0xF;
	i.scoped_mask = 0x3;
	i.attr_size = 48;
	if (abi < 10) {
		i.net_mask &= ~0xCULL;
		i.attr_size = 24;
	}
	if (abi < 9)
		i.fs_mask &= ~SB_LL_RESOLVE_UNIX;
	if (abi < 6) {
		i.scoped_mask = 0;
		i.attr_size = 16;
	}
	if (abi < 5)
		i.fs_mask &= ~SB_LL_IOCTL_DEV;
	if (abi < 4) {
		i.net_mask = 0;
		i.attr_size = 8;
	}
	if (abi < 3)
		i.fs_mask &= ~SB_LL_TRUNCATE;
	if (abi < 2)
		i.fs_mask &= ~SB_LL_REFER;
	return i;
}

int sb_ll_create_ruleset(const struct sb_ll_ruleset_attr *attr, size_t size, uint32_t flags)
{
	if (flags & SB_LL_CREATE_RULESET_VERSION)
		INJECT("probe");
	else if (!(flags & SB_LL_CREATE_RULESET_ERRATA))
		INJECT("create");
	return (int)syscall(__NR_landlock_create_ruleset, attr, size, flags);
}

int sb_ll_add_rule(int ruleset_fd, int rule_type, const void *attr, uint32_t flags)
{
	INJECT("add_rule");
	return (int)syscall(__NR_landlock_add_rule, ruleset_fd, rule_type, attr, flags);
}

int sb_ll_restrict_self(int ruleset_fd, uint32_t flags)
{
	INJECT("restrict");
	return (int)syscall(__NR_landlock_restrict_self, ruleset_fd, flags);
}

void sb_ll_probe_kernel(sb_ll_probe *p)
{
	memset(p, 0, sizeof *p);
	int abi = sb_ll_create_ruleset(NULL, 0, SB_LL_CREATE_RULESET_VERSION);
	if (abi < 0) {
		p->kernel_abi = -1;
		p->err = errno;
		p->errata = -1;
		p->eff_abi = -1;
		return;
	}
	p->kernel_abi = abi;
	long errata = syscall(__NR_landlock_create_ruleset, NULL, 0, SB_LL_CREATE_RULESET_ERRATA);
	p->errata = errata < 0 ? -1 : errata;
	p->eff_abi = abi < SB_LL_MAX_KNOWN_ABI ? abi : SB_LL_MAX_KNOWN_ABI;
#ifdef SB_TEST_HOOKS
	if (test_clamp > 0 && test_clamp < p->eff_abi) {
		p->eff_abi = test_clamp;
		p->clamped = true;
	}
#endif
}

const char *sb_ll_unavailable_hint(int err)
{
	switch (err) {
	case ENOSYS:
		return "Landlock is not built into this kernel (older than 5.13, or "
		       "CONFIG_SECURITY_LANDLOCK=n), or a container's seccomp profile hides "
		       "its system calls; use a kernel with Landlock, or allow syscalls 444-446";
	case EOPNOTSUPP:
		return "Landlock is built in but disabled at boot; add \"landlock\" to the lsm= "
		       "kernel parameter (see /sys/kernel/security/lsm)";
	default:
		return "the Landlock ABI query failed";
	}
}

const char *sb_ll_abi_losses(int abi)
{
	if (abi < 1)
		return "no Landlock: nothing is enforced";
	if (abi < 2)
		return "cross-directory renames and links fail with EXDEV (no REFER); truncation "
		       "closed by seccomp, not Landlock; no TCP port rules; device ioctls, signals "
		       "to and abstract sockets of processes outside, and pathname UNIX sockets "
		       "are not restricted";
	if (abi < 3)
		return "truncation closed by seccomp, not Landlock (truncate(2) refused, O_TRUNC "
		       "refused unless opened for writing); no TCP "
		       "port rules; device ioctls, signals to and abstract sockets of processes "
		       "outside, and pathname UNIX sockets are not restricted";
	if (abi < 4)
		return "no TCP port rules; device ioctls, signals to and abstract sockets of "
		       "processes outside, and pathname UNIX sockets are not restricted";
	if (abi < 5)
		return "device ioctls, signals to and abstract sockets of processes outside "
		       "the sandbox, and pathname UNIX sockets are not restricted";
	if (abi < 6)
		return "signals to and abstract sockets of processes outside the sandbox, and "
		       "pathname UNIX sockets are not restricted";
	if (abi < 9)
		return "pathname UNIX sockets (ssh-agent, D-Bus, docker.sock) are not restricted "
		       "by Landlock (seccomp AF_UNIX block when the profile denies them)";
	return "";
}

static const char *const right_names[] = {
	"execute", "write_file", "read_file", "read_dir", "remove_dir", "remove_file",
	"make_char", "make_dir", "make_reg", "make_sock", "make_fifo", "make_block",
	"make_sym", "refer", "truncate", "ioctl_dev", "resolve_unix",
};

const char *sb_ll_right_name(uint64_t bit)
{
	for (size_t i = 0; i < sizeof right_names / sizeof *right_names; i++)
		if (bit == (1ULL << i))
			return right_names[i];
	return "?";
}

const char *sb_ll_rights_str(uint64_t mask, char *buf, size_t n)
{
	size_t len = 0;
	if (n)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof right_names / sizeof *right_names; i++) {
		if (!(mask & (1ULL << i)))
			continue;
		int w = snprintf(buf + len, n > len ? n - len : 0, "%s%s", len ? "|" : "",
				 right_names[i]);
		if (w > 0)
			len += (size_t)w;
	}
	return buf;
}
#endif /* __linux__ */
