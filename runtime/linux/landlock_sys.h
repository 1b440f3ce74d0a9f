/* landlock_sys.h - the project's own Landlock UAPI: prefixed constants,
 * structs, syscall wrappers, the per-ABI table and the probe.
 * Never include <linux/landlock.h>: distro headers lag behind (Debian 12
 * stops at ABI 2) and would clash with these names on newer systems.
 * Values: the kernel's Landlock UAPI, which never changes once released.  */
#ifndef SB_LANDLOCK_SYS_H
#define SB_LANDLOCK_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* access_fs bits */
#define SB_LL_EXECUTE       (1ULL << 0)
#define SB_LL_WRITE_FILE    (1ULL << 1)
#define SB_LL_READ_FILE     (1ULL << 2)
#define SB_LL_READ_DIR      (1ULL << 3)
#define SB_LL_REMOVE_DIR    (1ULL << 4)
#define SB_LL_REMOVE_FILE   (1ULL << 5)
#define SB_LL_MAKE_CHAR     (1ULL << 6)
#define SB_LL_MAKE_DIR      (1ULL << 7)
#define SB_LL_MAKE_REG      (1ULL << 8)
#define SB_LL_MAKE_SOCK     (1ULL << 9)
#define SB_LL_MAKE_FIFO     (1ULL << 10)
#define SB_LL_MAKE_BLOCK    (1ULL << 11)
#define SB_LL_MAKE_SYM      (1ULL << 12)
#define SB_LL_REFER         (1ULL << 13)  /* ABI 2 */
#define SB_LL_TRUNCATE      (1ULL << 14)  /* ABI 3 */
#define SB_LL_IOCTL_DEV     (1ULL << 15)  /* ABI 5 */
#define SB_LL_RESOLVE_UNIX  (1ULL << 16)  /* ABI 9 */

/* Rights a rule on a non-directory may carry.  */
#define SB_LL_FILE_RIGHTS (SB_LL_EXECUTE | SB_LL_WRITE_FILE | SB_LL_READ_FILE | \
			   SB_LL_TRUNCATE | SB_LL_IOCTL_DEV | SB_LL_RESOLVE_UNIX)
/* Never granted: device-node creation.  */
#define SB_LL_NEVER (SB_LL_MAKE_CHAR | SB_LL_MAKE_BLOCK)

/* access_net bits, scopes */
#define SB_LL_NET_BIND_TCP     (1ULL << 0)
#define SB_LL_NET_CONNECT_TCP  (1ULL << 1)
#define SB_LL_SCOPE_ABSTRACT_UNIX (1ULL << 0)
#define SB_LL_SCOPE_SIGNAL        (1ULL << 1)

/* flags and rule types */
#define SB_LL_CREATE_RULESET_VERSION (1U << 0)
#define SB_LL_CREATE_RULESET_ERRATA  (1U << 1)
#define SB_LL_RULE_PATH_BENEATH 1
#define SB_LL_RULE_NET_PORT     2
#define SB_LL_RESTRICT_LOG_SAME_EXEC_OFF  (1U << 0)
#define SB_LL_RESTRICT_LOG_NEW_EXEC_ON    (1U << 1)
#define SB_LL_RESTRICT_LOG_SUBDOMAINS_OFF (1U << 2)

/* The newest ABI this code implements and has tested (kernel 6.18, ABI 7).
 * A newer kernel is used at this ABI, with a note.  */
#define SB_LL_MAX_KNOWN_ABI 7
/* ABI 1 and 2 lack TRUNCATE (closed by seccomp_trunc.c) and scopes (ABI 6;
 * closed as docs/linux.md describes), so every ABI is usable by default.  */
#define SB_LL_MIN_ABI_DEFAULT 1

/* Layout of landlock_ruleset_attr; pass sb_ll_abi_info.attr_size bytes.  */
struct sb_ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
	uint64_t quiet_access_fs;
	uint64_t quiet_access_net;
	uint64_t quiet_scoped;
};

struct sb_ll_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

typedef struct sb_ll_abi_info {
	int abi;
	uint64_t fs_mask;
	uint64_t net_mask;
	uint64_t scoped_mask;
	size_t attr_size;
} sb_ll_abi_info;

/* The table row for `abi` (1..10); abi <= 0 gives an all-zero row.  */
sb_ll_abi_info sb_ll_abi_info_for(int abi);

/* Raw syscall wrappers (glibc has none).  Return -1 with errno on error.  */
int sb_ll_create_ruleset(const struct sb_ll_ruleset_attr *attr, size_t size, uint32_t flags);
int sb_ll_add_rule(int ruleset_fd, int rule_type, const void *attr, uint32_t flags);
int sb_ll_restrict_self(int ruleset_fd, uint32_t flags);

/* Result of probing the running kernel.  */
typedef struct sb_ll_probe {
	int kernel_abi;   /* > 0, or -1 when unavailable */
	int err;          /* errno of the failed VERSION query (ENOSYS, EOPNOTSUPP, ...) */
	long errata;      /* -1 when the ERRATA query is not supported */
	int eff_abi;      /* min(kernel_abi, SB_LL_MAX_KNOWN_ABI, test clamp) */
	bool clamped;     /* eff_abi lowered by the test hook */
} sb_ll_probe;

void sb_ll_probe_kernel(sb_ll_probe *p);
/* One-line cause and fix for a failed probe errno.  */
const char *sb_ll_unavailable_hint(int err);
/* What a given effective ABI loses (static text; "" at full strength).  */
const char *sb_ll_abi_losses(int abi);
/* Name of one access_fs bit ("read_file"), or "?".  */
const char *sb_ll_right_name(uint64_t bit);
/* Format a rights mask as "read_file|read_dir|..." into buf.  */
const char *sb_ll_rights_str(uint64_t mask, char *buf, size_t n);

#ifdef SB_TEST_HOOKS
/* Test-only: clamp the effective ABI (0 = no clamp), and make one step fail
 * with `err` ("probe", "create", "add_rule", "restrict", "prctl", "seccomp";
 * NULL = none).  Compiled only into libsbrt-test: never an env switch.  */
void sb_ll_test_clamp_abi(int abi);
void sb_ll_test_fail(const char *step, int err);
bool sb_ll_test_should_fail(const char *step, int *err);
#endif

#endif
