#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* ll_abi.c - what each Landlock ABI enforces, by which mechanism, and what
 * is lost below it: one table, printed by sbrun --doctor and --plan
 * (docs/linux.md, "What each ABI enforces").  */
#include "runtime/linux/ll_internal.h"

typedef struct abi_row {
	int since;              /* ABI that adds the Landlock mechanism */
	const char *what;
	const char *mech;       /* from `since` on */
	const char *below;      /* below `since`: how it is closed, or what is lost */
	bool lost_below;        /* `below` describes a loss, not a replacement */
} abi_row;

static const abi_row rows[] = {
	{ 1, "file read, write, create, remove, execute", "Landlock path rules", NULL, false },
	{ 2, "cross-directory rename and link",
	  "Landlock REFER (allowed where the destination is at least as restricted)",
	  "every rename or hard link into another directory fails with EXDEV (never a hole). "
	  "Measured at ABI 1: git mv between directories fails (\"renaming ... Invalid "
	  "cross-device link\"), rename(2), Node's fs.rename and Python's os.rename raise "
	  "EXDEV; mv(1), pip (shutil.move) and npm 10 or newer copy instead and work, as do "
	  "git commit, clone and gc. npm 9 (Debian 12's npm 9.2.0) fails: its cache "
	  "hard-links every download from _cacache/tmp into _cacache/content-v2 with no "
	  "fallback, so npm pack and npm install stop with EXDEV. What to do: a kernel of "
	  "5.19 or newer (ABI 2); or mv(1) then git add -A instead of git mv; npm 10 or "
	  "newer (npm install -g npm@10, outside the sandbox)",
	  true },
	{ 3, "truncation (truncate, O_TRUNC)", "Landlock TRUNCATE",
	  "seccomp truncation guard: truncate(2) refused (EPERM), open/openat with O_TRUNC "
	  "refused unless opened for writing (EPERM), openat2 refused (ENOSYS: callers fall "
	  "back to openat); ftruncate on a descriptor opened for writing stays. Lost: "
	  "truncate(2) by path also inside the writable roots (truncate(1) uses ftruncate "
	  "and works)",
	  false },
	{ 4, "TCP bind/connect by port", "Landlock net rules (not used by sbrun yet)",
	  "no port rules: an egress allowlist must not rely on Landlock here", true },
	{ 5, "ioctl on devices opened inside", "Landlock IOCTL_DEV",
	  "not restricted, except TIOCSTI/TIOCLINUX (seccomp, at every ABI)", true },
	{ 6, "signals to processes outside the sandbox", "Landlock signal scope",
	  "not blocked. The shipped policies allow signals, so none of their denies is "
	  "lost; a policy that denies signals is refused as not enforceable unless "
	  "--allow-unenforceable",
	  true },
	{ 6, "abstract UNIX sockets of processes outside", "Landlock abstract-socket scope",
	  "closed only where the policy turns UNIX sockets or the network off (seccomp "
	  "refuses socket(AF_UNIX)); otherwise reachable, like pathname sockets below ABI 9 "
	  "(docs/limitations.md L5)",
	  true },
	{ 7, "kernel audit log of denials (--debug-denials)", "Landlock audit flags",
	  "--debug-denials logs nothing", true },
	{ 9, "pathname UNIX sockets (ssh-agent, D-Bus, docker.sock)",
	  "Landlock RESOLVE_UNIX (newer than this build)",
	  "seccomp refuses socket(AF_UNIX) when the policy denies UNIX sockets; otherwise "
	  "reachable (docs/limitations.md L5)",
	  true },
};

void sb_ll_abi_report(FILE *out, int abi, const char *prefix)
{
	fprintf(out, "%senforcement at Landlock ABI %d:\n", prefix, abi);
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		const abi_row *r = &rows[i];
		if (abi >= r->since)
			fprintf(out, "%s  [landlock] %s: %s (ABI %d)\n", prefix, r->what, r->mech,
				r->since);
		else
			fprintf(out, "%s  [%s] %s (Landlock ABI %d): %s\n", prefix,
				r->lost_below ? "LOST" : "seccomp", r->what, r->since, r->below);
	}
}
#endif /* __linux__ */
