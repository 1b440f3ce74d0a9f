#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* doctor.c - sbrun --doctor on Linux: what this kernel can enforce.  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"

#include <string.h>
#include <sys/stat.h>

int sb_linux_doctor(FILE *out, int refused_exit_status)
{
	sb_ll_probe pr;
	sb_ll_probe_kernel(&pr);
	char b[512];
	if (pr.kernel_abi < 0) {
		fprintf(out, "landlock: unavailable (%s)\n  hint: %s\n", strerror(pr.err),
			sb_ll_unavailable_hint(pr.err));
		fprintf(out, "sbrun refuses to run (exit %d) unless --allow-unsandboxed is given\n",
			refused_exit_status);
		return 1;
	}
	sb_ll_abi_info ai = sb_ll_abi_info_for(pr.eff_abi);
	fprintf(out, "landlock: kernel ABI %d, effective ABI %d (this build knows up to %d)%s\n",
		pr.kernel_abi, pr.eff_abi, SB_LL_MAX_KNOWN_ABI, pr.clamped ? " [test clamp]" : "");
	if (pr.errata >= 0)
		fprintf(out, "errata: 0x%lx\n", (unsigned long)pr.errata);
	else
		fprintf(out, "errata: query not supported by this kernel\n");
	fprintf(out, "handled fs rights: %s\n", sb_ll_rights_str(ai.fs_mask, b, sizeof b));
	fprintf(out, "never granted: make_char|make_block\n");
	fprintf(out, "scopes: %s\n", ai.scoped_mask ? "abstract_unix_socket|signal" : "none");
	fprintf(out, "ruleset attr size: %zu\n", ai.attr_size);
	const char *loss = sb_ll_abi_losses(pr.eff_abi);
	fprintf(out, "lost at this ABI: %s\n", *loss ? loss : "nothing");
	sb_ll_abi_report(out, pr.eff_abi, "");
	if (!(ai.fs_mask & SB_LL_TRUNCATE))
		fprintf(out, "seccomp truncation guard: on (truncate(2), O_TRUNC not for writing, "
			     "openat2)\n");
	char why[256];
	if (sb_gate_available(why, sizeof why))
		fprintf(out, "write gate: available (write denies inside writable trees decided by "
			     "name at every call: seccomp user notification, the supervisor performs "
			     "the call)\n");
	else
		fprintf(out, "write gate: unavailable (%s): masks and the complement take its "
			     "denies; a missing protected name narrows its directory\n", why);
	bool ns_user = false;
	char nswhy[256];
	if (sb_ns_masks_available(&ns_user, nswhy, sizeof nswhy))
		fprintf(out, "masks: available (%s)\n", ns_user ? "user + mount namespace"
							    : "mount namespace");
	else
		fprintf(out, "masks: unavailable (%s): the complement expansion enforces read "
			     "denies inside allowed trees (narrower)\n", nswhy);
	if (pr.eff_abi < SB_LL_MIN_ABI_DEFAULT)
		fprintf(out, "status: below the minimum ABI %d: sbrun refuses to run (exit %d)\n",
			SB_LL_MIN_ABI_DEFAULT, refused_exit_status);
	else
		fprintf(out, "status: usable\n");
	fprintf(out, "platform gaps (never restricted by Landlock): stat/lstat/access/readlink, "
		     "chmod/chown/utime, xattrs, inotify, network by host, listing of expanded "
		     "ancestors (ls /) is denied\n");
	struct stat st;
	if (stat("/sys/kernel/security/landlock", &st) == 0)
		fprintf(out, "securityfs: /sys/kernel/security/landlock present\n");
	return pr.eff_abi >= SB_LL_MIN_ABI_DEFAULT ? 0 : 1;
}
#endif /* __linux__ */
