/* ops.c - the SBPL operation table: names, Apple's aliases, and the
 * fallback hierarchy.  Version: the libsandbox fallback table of macOS 10.15
 * (docs/sbpl-model.md, "Operation hierarchy"); the op list changes between
 * releases, so it lives in one sorted table here.  */
#include "compiler/ir/ir.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct op_info {
	const char *name;
	sb_op parent;
} op_info;

/* Indexed by sb_op.  */
static const op_info ops[SB_OP__COUNT] = {
	[SB_OP_DEFAULT] = { "default", SB_OP_DEFAULT },
	[SB_OP_FILE_ALL] = { "file*", SB_OP_DEFAULT },
	[SB_OP_FILE_READ] = { "file-read*", SB_OP_FILE_ALL },
	[SB_OP_FILE_READ_DATA] = { "file-read-data", SB_OP_FILE_READ },
	[SB_OP_FILE_READ_METADATA] = { "file-read-metadata", SB_OP_FILE_READ },
	[SB_OP_FILE_READ_XATTR] = { "file-read-xattr", SB_OP_FILE_READ },
	[SB_OP_FILE_WRITE] = { "file-write*", SB_OP_FILE_ALL },
	[SB_OP_FILE_WRITE_DATA] = { "file-write-data", SB_OP_FILE_WRITE },
	[SB_OP_FILE_WRITE_CREATE] = { "file-write-create", SB_OP_FILE_WRITE },
	[SB_OP_FILE_WRITE_UNLINK] = { "file-write-unlink", SB_OP_FILE_WRITE },
	[SB_OP_FILE_WRITE_MODE] = { "file-write-mode", SB_OP_FILE_WRITE },
	[SB_OP_FILE_WRITE_OWNER] = { "file-write-owner", SB_OP_FILE_WRITE },
	[SB_OP_FILE_WRITE_FLAGS] = { "file-write-flags", SB_OP_FILE_WRITE },
	[SB_OP_FILE_WRITE_TIMES] = { "file-write-times", SB_OP_FILE_WRITE },
	[SB_OP_FILE_WRITE_XATTR] = { "file-write-xattr", SB_OP_FILE_WRITE },
	[SB_OP_FILE_WRITE_ACL] = { "file-write-acl", SB_OP_FILE_WRITE },
	[SB_OP_FILE_WRITE_FINDERINFO] = { "file-write-finderinfo", SB_OP_FILE_WRITE },
	[SB_OP_FILE_IOCTL] = { "file-ioctl", SB_OP_FILE_ALL },
	[SB_OP_FILE_MKNOD] = { "file-mknod", SB_OP_FILE_ALL },
	[SB_OP_FILE_MOUNT] = { "file-mount", SB_OP_FILE_ALL },
	[SB_OP_FILE_UNMOUNT] = { "file-unmount", SB_OP_FILE_ALL },
	[SB_OP_FILE_CHROOT] = { "file-chroot", SB_OP_FILE_ALL },
	[SB_OP_FILE_REVOKE] = { "file-revoke", SB_OP_FILE_ALL },
	[SB_OP_FILE_SEARCH] = { "file-search", SB_OP_FILE_ALL },
	[SB_OP_FILE_ISSUE_EXTENSION] = { "file-issue-extension", SB_OP_FILE_ALL },
	/* These fall back to default, not file* (docs/sbpl-model.md).  */
	[SB_OP_FILE_TEST_EXISTENCE] = { "file-test-existence", SB_OP_DEFAULT },
	[SB_OP_FILE_MAP_EXECUTABLE] = { "file-map-executable", SB_OP_DEFAULT },
	[SB_OP_FILE_LINK] = { "file-link", SB_OP_DEFAULT },
	[SB_OP_FILE_CLONE] = { "file-clone", SB_OP_DEFAULT },
	[SB_OP_FILE_WRITE_SETUGID] = { "file-write-setugid", SB_OP_DEFAULT },
	[SB_OP_FS_RENAME] = { "fs-rename", SB_OP_DEFAULT },
	[SB_OP_PROCESS_ALL] = { "process*", SB_OP_DEFAULT },
	[SB_OP_PROCESS_EXEC] = { "process-exec*", SB_OP_PROCESS_ALL },
	[SB_OP_PROCESS_EXEC_INTERPRETER] = { "process-exec-interpreter", SB_OP_PROCESS_EXEC },
	[SB_OP_PROCESS_FORK] = { "process-fork", SB_OP_PROCESS_ALL },
	[SB_OP_PROCESS_INFO] = { "process-info*", SB_OP_DEFAULT },
	[SB_OP_NETWORK_ALL] = { "network*", SB_OP_DEFAULT },
	[SB_OP_NETWORK_INBOUND] = { "network-inbound", SB_OP_NETWORK_ALL },
	[SB_OP_NETWORK_BIND] = { "network-bind", SB_OP_NETWORK_INBOUND },
	[SB_OP_NETWORK_OUTBOUND] = { "network-outbound", SB_OP_NETWORK_ALL },
	[SB_OP_SIGNAL] = { "signal", SB_OP_DEFAULT },
	[SB_OP_OTHER] = { "(other)", SB_OP_DEFAULT },
};

/* Valid operations we keep by name but do not model (sorted; bsearch).  */
static const char *const other_ops[] = {
	"appleevent-send",
	"authorization-right-obtain",
	"device*",
	"device-camera",
	"device-microphone",
	"distributed-notification-post",
	"dynamic-code-generation",
	"file-read-xattr*",
	"generic-issue-extension",
	"hid-control",
	"iokit*",
	"iokit-get-properties",
	"iokit-issue-extension",
	"iokit-open",
	"iokit-set-properties",
	"ipc*",
	"ipc-posix*",
	"ipc-posix-issue-extension",
	"ipc-posix-sem",
	"ipc-posix-shm",
	"ipc-posix-shm*",
	"ipc-posix-shm-read*",
	"ipc-posix-shm-read-data",
	"ipc-posix-shm-read-metadata",
	"ipc-posix-shm-write*",
	"ipc-posix-shm-write-create",
	"ipc-posix-shm-write-data",
	"ipc-posix-shm-write-unlink",
	"ipc-sysv*",
	"ipc-sysv-msg",
	"ipc-sysv-sem",
	"ipc-sysv-shm",
	"job-creation",
	"load-unsigned-code",
	"lsopen",
	"mach*",
	"mach-bootstrap",
	"mach-cross-domain-lookup",
	"mach-derive-port",
	"mach-host*",
	"mach-host-exception-port-set",
	"mach-host-special-port-set",
	"mach-issue-extension",
	"mach-lookup",
	"mach-per-user-lookup",
	"mach-priv*",
	"mach-priv-host-port",
	"mach-priv-task-port",
	"mach-register",
	"mach-task-name",
	"network-outbound*",
	"nvram*",
	"nvram-delete",
	"nvram-get",
	"nvram-set",
	"opendirectory-user-modify",
	"process-codesigning-status*",
	"process-exec-update-label",
	"process-info-codesignature",
	"process-info-dirtycontrol",
	"process-info-listpids",
	"process-info-pidfdinfo",
	"process-info-pidfileportinfo",
	"process-info-pidinfo",
	"process-info-rusage",
	"process-info-setcontrol",
	"pseudo-tty",
	"syscall*",        /* macOS 10.15+ (Chromium's common.sb) */
	"syscall-mach",
	"syscall-mig",
	"syscall-unix",
	"sysctl*",
	"sysctl-read",
	"sysctl-write",
	"system*",
	"system-acct",
	"system-audit",
	"system-chud",
	"system-fsctl",
	"system-info",
	"system-kext*",
	"system-kext-load",
	"system-kext-unload",
	"system-mac-label",
	"system-nfssvc",
	"system-privilege",
	"system-reboot",
	"system-sched",
	"system-set-time",
	"system-socket",
	"system-swap",
	"system-write-bootstrap",
	"user-preference*",
	"user-preference-read",
	"user-preference-write",
};

const char *sb_op_name(sb_op op)
{
	return (op >= 0 && op < SB_OP__COUNT) ? ops[op].name : "(invalid)";
}

sb_op sb_op_parent(sb_op op)
{
	return (op >= 0 && op < SB_OP__COUNT) ? ops[op].parent : SB_OP_DEFAULT;
}

bool sb_op_is_file(sb_op op)
{
	for (sb_op o = op; o != SB_OP_DEFAULT; o = sb_op_parent(o))
		if (o == SB_OP_FILE_ALL)
			return true;
	return op == SB_OP_FILE_TEST_EXISTENCE || op == SB_OP_FILE_MAP_EXECUTABLE ||
	       op == SB_OP_FILE_LINK || op == SB_OP_FILE_CLONE || op == SB_OP_FILE_WRITE_SETUGID ||
	       op == SB_OP_FS_RENAME;
}

/* Every modelled name with its operation, and Apple's prelude aliases
 * (docs/sbpl-model.md, "Operation hierarchy"), sorted by strcmp for
 * bsearch: the SBPL reader and evaluator look up every symbol they meet
 * (about 8,600 lookups in one launch of the omp profile; a scan of the
 * table was 4 % of a launch's instructions).  tests/unit/test_ops.c looks
 * up every name of ops[] through it.  */
static const struct op_name { const char *name; sb_op op; } by_name[] = {
	{ "default", SB_OP_DEFAULT },
	{ "file*", SB_OP_FILE_ALL },
	{ "file-chroot", SB_OP_FILE_CHROOT },
	{ "file-clone", SB_OP_FILE_CLONE },
	{ "file-ioctl", SB_OP_FILE_IOCTL },
	{ "file-issue-extension", SB_OP_FILE_ISSUE_EXTENSION },
	{ "file-link", SB_OP_FILE_LINK },
	{ "file-map-executable", SB_OP_FILE_MAP_EXECUTABLE },
	{ "file-mknod", SB_OP_FILE_MKNOD },
	{ "file-mount", SB_OP_FILE_MOUNT },
	{ "file-read*", SB_OP_FILE_READ },
	{ "file-read-data", SB_OP_FILE_READ_DATA },
	{ "file-read-metadata", SB_OP_FILE_READ_METADATA },
	{ "file-read-xattr", SB_OP_FILE_READ_XATTR },
	{ "file-revoke", SB_OP_FILE_REVOKE },
	{ "file-search", SB_OP_FILE_SEARCH },
	{ "file-test-existence", SB_OP_FILE_TEST_EXISTENCE },
	{ "file-unlink", SB_OP_FILE_WRITE_UNLINK },   /* Apple's prelude alias */
	{ "file-unmount", SB_OP_FILE_UNMOUNT },
	{ "file-write*", SB_OP_FILE_WRITE },
	{ "file-write-acl", SB_OP_FILE_WRITE_ACL },
	{ "file-write-create", SB_OP_FILE_WRITE_CREATE },
	{ "file-write-data", SB_OP_FILE_WRITE_DATA },
	{ "file-write-finderinfo", SB_OP_FILE_WRITE_FINDERINFO },
	{ "file-write-flags", SB_OP_FILE_WRITE_FLAGS },
	{ "file-write-mode", SB_OP_FILE_WRITE_MODE },
	{ "file-write-owner", SB_OP_FILE_WRITE_OWNER },
	{ "file-write-setugid", SB_OP_FILE_WRITE_SETUGID },
	{ "file-write-times", SB_OP_FILE_WRITE_TIMES },
	{ "file-write-unlink", SB_OP_FILE_WRITE_UNLINK },
	{ "file-write-xattr", SB_OP_FILE_WRITE_XATTR },
	{ "fs-rename", SB_OP_FS_RENAME },
	{ "network*", SB_OP_NETWORK_ALL },
	{ "network-bind", SB_OP_NETWORK_BIND },
	{ "network-inbound", SB_OP_NETWORK_INBOUND },
	{ "network-outbound", SB_OP_NETWORK_OUTBOUND },
	{ "process*", SB_OP_PROCESS_ALL },
	{ "process-exec", SB_OP_PROCESS_EXEC },        /* Apple's prelude alias */
	{ "process-exec*", SB_OP_PROCESS_EXEC },
	{ "process-exec-interpreter", SB_OP_PROCESS_EXEC_INTERPRETER },
	{ "process-fork", SB_OP_PROCESS_FORK },
	{ "process-info*", SB_OP_PROCESS_INFO },
	{ "signal", SB_OP_SIGNAL },
};

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

static int cmp_op_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct op_name *)elem)->name);
}

int sb_op_lookup(const char *name)
{
	const struct op_name *m = bsearch(name, by_name, sizeof by_name / sizeof *by_name,
					  sizeof *by_name, cmp_op_name);
	if (m)
		return m->op;
	if (bsearch(name, other_ops, sizeof other_ops / sizeof *other_ops, sizeof *other_ops,
		    cmp_name))
		return SB_OP_OTHER;
	return -1;
}


static const char *const vnode_names[SB_VNODE__COUNT] = {
	"REGULAR-FILE", "DIRECTORY", "SYMLINK", "CHARACTER-DEVICE",
	"BLOCK-DEVICE", "SOCKET", "FIFO", "TTY",
};

const char *sb_vnode_name(unsigned i)
{
	return i < SB_VNODE__COUNT ? vnode_names[i] : "?";
}

unsigned sb_vnode_from_name(const char *name)
{
	for (unsigned i = 0; i < SB_VNODE__COUNT; i++)
		if (!strcasecmp(name, vnode_names[i]))
			return 1u << i;
	return 0;
}
