/* vm_init - PID 1 of the test VM's initramfs (tests/lib/in-vm.sh), linked
 * statically.  It loads the kernel modules listed in /modules/order (9p over
 * virtio, overlayfs), mounts the host's / (shared read-only over 9p, tag
 * "hostroot") under a tmpfs overlay so host-built binaries run unchanged and
 * may write, enters it, runs the script named by sbx.cmd= on the kernel
 * command line with bash, prints "SBX-VM-EXIT: N" and powers off.
 * Any failure prints "SBX-VM-INIT-FAIL: ..." and powers off too, so the
 * runner never hangs on a half-booted guest.  */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("SBX-VM-INIT-FAIL: ");
	vprintf(fmt, ap);
	printf(" (%s)\n", strerror(errno));
	va_end(ap);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	_exit(1);
}

static void mnt(const char *src, const char *dst, const char *type, unsigned long fl,
		const char *data)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, fl, data) < 0)
		die("mount %s on %s (%s)", src, dst, type);
}

static void load_modules(void)
{
	FILE *f = fopen("/modules/order", "re");
	if (!f)
		die("open /modules/order");
	char name[256];
	while (fscanf(f, "%255s", name) == 1) {
		char p[300];
		snprintf(p, sizeof p, "/modules/%s", name);
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die("open %s", p);
		if (syscall(SYS_finit_module, fd, "", 0) < 0 && errno != EEXIST)
			die("load module %s", name);
		close(fd);
	}
	fclose(f);
}

/* sbx.cmd=PATH from /proc/cmdline */
static void cmd_from_cmdline(char *out, size_t n)
{
	char buf[4096] = "";
	FILE *f = fopen("/proc/cmdline", "re");
	if (!f || !fgets(buf, sizeof buf, f))
		die("read /proc/cmdline");
	fclose(f);
	char *p = strstr(buf, "sbx.cmd=");
	if (!p)
		die("no sbx.cmd= on the kernel command line");
	p += strlen("sbx.cmd=");
	size_t len = strcspn(p, " \n");
	if (len >= n)
		die("sbx.cmd too long");
	memcpy(out, p, len);
	out[len] = '\0';
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	mnt("proc", "/proc", "proc", 0, NULL);
	mnt("sysfs", "/sys", "sysfs", 0, NULL);
	mnt("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	load_modules();
	char cmd[1024];
	cmd_from_cmdline(cmd, sizeof cmd);
	mnt("hostroot", "/host", "9p", MS_RDONLY,
	    "trans=virtio,version=9p2000.L,msize=512000,cache=loose");
	mnt("tmpfs", "/rw", "tmpfs", 0, "mode=0755");
	mkdir("/rw/upper", 0755);
	mkdir("/rw/work", 0755);
	mnt("overlay", "/newroot", "overlay", 0,
	    "lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work");
	/* Move the overlay over "/" before the chroot (what switch_root does;
	 * the initramfs cannot be pivot_root'ed): the kernel refuses a user
	 * namespace to an unprivileged process whose root is not the top of
	 * its mount namespace's root, so a plain chroot would make sbrun's
	 * masks unavailable to uid 65534 in the guest. */
	if (chdir("/newroot") < 0 || mount("/newroot", "/", NULL, MS_MOVE, NULL) < 0 ||
	    chroot(".") < 0 || chdir("/") < 0)
		die("move /newroot to / and chroot");
	mnt("proc", "/proc", "proc", 0, NULL);
	mnt("sysfs", "/sys", "sysfs", 0, NULL);
	mnt("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mnt("devpts", "/dev/pts", "devpts", 0, "ptmxmode=0666,mode=0620");
	mnt("tmpfs", "/dev/shm", "tmpfs", 0, "mode=1777");
	/* what udev would add: bash's process substitution reads /dev/fd/N */
	static const char *const dev_links[][2] = {
		{ "/proc/self/fd", "/dev/fd" },
		{ "/proc/self/fd/0", "/dev/stdin" },
		{ "/proc/self/fd/1", "/dev/stdout" },
		{ "/proc/self/fd/2", "/dev/stderr" },
	};
	for (size_t i = 0; i < sizeof dev_links / sizeof dev_links[0]; i++)
		if (symlink(dev_links[i][0], dev_links[i][1]) < 0 && errno != EEXIST)
			die("symlink %s", dev_links[i][1]);
	/* /tmp stays the overlay's (writes land in the guest's tmpfs upper
	 * layer): a checkout below the host's /tmp must stay visible */
	mnt("tmpfs", "/run", "tmpfs", 0, "mode=0755");
	mount("securityfs", "/sys/kernel/security", "securityfs", 0, NULL);
	mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL);
	/* the host's mount table must not leak in: /etc/mtab is the guest's */
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		setsid();
		int tty = open("/dev/console", O_RDWR);
		if (tty >= 0) {
			dup2(tty, 0);
			dup2(tty, 1);
			dup2(tty, 2);
			if (tty > 2)
				close(tty);
		}
		char *av[] = { "/bin/bash", "--noprofile", "--norc", cmd, NULL };
		char *ev[] = { "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
			       "HOME=/root", "TERM=dumb", "LANG=C.UTF-8", "SBX_IN_VM=1", NULL };
		execve(av[0], av, ev);
		_exit(127);
	}
	int st = 0;
	for (;;) {
		pid_t w = wait(&st);
		if (w == pid)
			break;
		if (w < 0 && errno == ECHILD)
			break;
	}
	printf("\nSBX-VM-EXIT: %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
