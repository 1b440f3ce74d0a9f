#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* Unit tests: the Landlock ABI table (masks and attr sizes per ABI) and the
 * rights formatter.  No kernel needed.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <string.h>

#include <fcntl.h>

#include "runtime/linux/landlock_sys.h"
#include "runtime/linux/ll_internal.h"

Test(ll_sys, fs_mask_per_abi)
{
	static const unsigned long long want[] = { 0, 0x1FFF, 0x3FFF, 0x7FFF, 0x7FFF, 0xFFFF,
						   0xFFFF, 0xFFFF, 0xFFFF, 0x1FFFF, 0x1FFFF };
	for (int abi = 0; abi <= 10; abi++)
		cr_assert(eq(u64, sb_ll_abi_info_for(abi).fs_mask, want[abi]), "abi %d", abi);
}

Test(ll_sys, attr_size_per_abi)
{
	static const size_t want[] = { 0, 8, 8, 8, 16, 16, 24, 24, 24, 24, 48 };
	for (int abi = 0; abi <= 10; abi++)
		cr_assert(eq(sz, sb_ll_abi_info_for(abi).attr_size, want[abi]), "abi %d", abi);
}

Test(ll_sys, net_and_scopes_per_abi)
{
	cr_assert(eq(u64, sb_ll_abi_info_for(3).net_mask, 0));
	cr_assert(eq(u64, sb_ll_abi_info_for(4).net_mask, 0x3));
	cr_assert(eq(u64, sb_ll_abi_info_for(10).net_mask, 0xF));
	cr_assert(eq(u64, sb_ll_abi_info_for(5).scoped_mask, 0));
	cr_assert(eq(u64, sb_ll_abi_info_for(6).scoped_mask, 0x3));
}

Test(ll_sys, struct_layouts)
{
	cr_assert(eq(sz, sizeof(struct sb_ll_path_beneath_attr), 12));
	cr_assert(eq(sz, sizeof(struct sb_ll_ruleset_attr), 48));
}

Test(ll_sys, file_rights_and_never)
{
	cr_assert(eq(u64, SB_LL_FILE_RIGHTS & 0xFFFF, 0xC007));
	cr_assert(eq(u64, SB_LL_NEVER, 0x840));
}

Test(ll_sys, rights_str)
{
	char b[256];
	cr_assert(eq(str, (char *)sb_ll_rights_str(SB_LL_READ_FILE | SB_LL_TRUNCATE, b, sizeof b),
		     "read_file|truncate"));
	cr_assert(eq(str, (char *)sb_ll_rights_str(0, b, sizeof b), ""));
	cr_assert(eq(str, (char *)sb_ll_right_name(SB_LL_REFER), "refer"));
}

Test(ll_sys, losses_name_the_truncation_hole)
{
	cr_assert_not_null(strstr(sb_ll_abi_losses(2), "truncat"));
	cr_assert(eq(str, (char *)sb_ll_abi_losses(9), ""));
}
/* The truncation guard's one rule, shared by its filter and the trace
 * supervisor: O_TRUNC on an open not for writing; only the low 32 bits.  */
Test(ll_sys, truncation_guard_rule)
{
	cr_assert(sb_seccomp_trunc_refused(O_RDONLY | O_TRUNC));
	cr_assert(sb_seccomp_trunc_refused(O_ACCMODE | O_TRUNC));   /* mode 3 */
	cr_assert(sb_seccomp_trunc_refused(O_RDONLY | O_TRUNC | O_CREAT | O_CLOEXEC));
	cr_assert(not(sb_seccomp_trunc_refused(O_WRONLY | O_TRUNC)));
	cr_assert(not(sb_seccomp_trunc_refused(O_RDWR | O_TRUNC | O_CREAT)));
	cr_assert(not(sb_seccomp_trunc_refused(O_RDONLY)));
	cr_assert(not(sb_seccomp_trunc_refused(O_RDONLY | ((uint64_t)O_TRUNC << 32))));
	cr_assert(sb_seccomp_trunc_refused(O_RDONLY | O_TRUNC | (1ULL << 32)));
	sb_ll_abi_info a2 = sb_ll_abi_info_for(2), a3 = sb_ll_abi_info_for(3), a0 = sb_ll_abi_info_for(0);
	cr_assert(sb_seccomp_truncate_guard_needed(&a2));
	cr_assert(not(sb_seccomp_truncate_guard_needed(&a3)));
	cr_assert(not(sb_seccomp_truncate_guard_needed(&a0)));
}

#endif /* __linux__ */
