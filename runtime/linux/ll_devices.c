#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* ll_devices.c - the planner's device rules (ll_plan.c, step 3): the
 * device allowlist that replaces /dev, the private /dev/shm and the
 * launch's terminals, each bounded by decide() alone.  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/ll_plan_internal.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct device {
	const char *path;
	uint64_t rights;
	bool opt_in;
} device;

static const device devices[] = {
	{ "/dev", SB_LL_READ_DIR, false },
	{ "/dev/null", SB_LL_READ_FILE | SB_LL_WRITE_FILE, false },
	{ "/dev/zero", SB_LL_READ_FILE | SB_LL_WRITE_FILE, false },
	{ "/dev/full", SB_LL_READ_FILE | SB_LL_WRITE_FILE, false },
	{ "/dev/random", SB_LL_READ_FILE, false },
	{ "/dev/urandom", SB_LL_READ_FILE, false },
	{ "/dev/tty", SB_LL_READ_FILE | SB_LL_WRITE_FILE | SB_LL_IOCTL_DEV, false },
	{ "/dev/ptmx", SB_LL_READ_FILE | SB_LL_WRITE_FILE | SB_LL_IOCTL_DEV, false },
	{ "/dev/pts", SB_LL_READ_FILE | SB_LL_WRITE_FILE | SB_LL_IOCTL_DEV | SB_LL_READ_DIR, false },
	{ "/dev/shm", R_READ | R_WRITE | R_CREATE | R_UNLINK | SB_LL_REFER, true },
};

/* The device rules follow decide() alone, also where /dev is masked: no
 * mask adds back, no forced deny (the forced /dev is what they replace).  */
static const llp_view decide_only = { .forced = false, .masks = false, .expanding = false };

/* A terminal of the launch outside the device table: a character device
 * directly in /dev (a console; /dev/pts is a rule of its own).  */
bool sb_ll_extra_terminal(const char *path)
{
	if (strncmp(path, "/dev/", 5) != 0 || strchr(path + 5, '/') || path[5] == '\0' ||
	    path[5] == '.')
		return false;
	for (size_t i = 0; i < sizeof devices / sizeof *devices; i++)
		if (strcmp(devices[i].path, path) == 0)
			return false;
	return true;
}

static void add_device(planner *pl, const device *dv, const char *label)
{
	int fd = open(dv->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || S_ISLNK(st.st_mode) ||
	    (strcmp(label, "terminal") == 0 && !S_ISCHR(st.st_mode))) {
		/* e.g. /dev/ptmx -> pts/ptmx: the /dev/pts rule covers it */
		close(fd);
		return;
	}
	bool is_dir = S_ISDIR(st.st_mode);
	uint64_t all, any;
	sb_llp_classify_points(pl, dv->path, is_dir, decide_only, &all, &any);
	uint64_t rights = dv->rights & all;
	if (dv->rights & SB_LL_IOCTL_DEV) {
		sb_decision d = sb_llp_decide(pl, SB_OP_FILE_IOCTL, dv->path);
		if (d.kind == SB_DEC_ALLOW && (all & SB_LL_READ_FILE))
			rights |= SB_LL_IOCTL_DEV;
	}
	if (!is_dir)
		rights &= SB_LL_FILE_RIGHTS;
	if (!rights) {
		close(fd);
		return;
	}
	sb_ll_rules_add(&pl->plan->r, dv->path, fd, rights, is_dir, label);
}

/* The DEV mask's private /dev/shm (masks.c) exists only once the masks
 * are made: its rule gets no descriptor now (fd -1) and is placed on the
 * fresh tmpfs at launch (linux_exec.c).  decide() still bounds it.  */
static void add_private_shm(planner *pl, const device *dv)
{
	const sb_ll_masks *ms = &pl->plan->masks;
	bool private = false;
	for (size_t i = 0; i < ms->n; i++)
		private = private || (ms->v[i].kind == SB_MASK_DEV && ms->v[i].private_shm);
	if (!private)
		return;
	uint64_t all, any;
	sb_llp_classify_points(pl, dv->path, true, decide_only, &all, &any);
	if (dv->rights & all)
		sb_ll_rules_add(&pl->plan->r, dv->path, -1, dv->rights & all, true, "private-shm");
}

void sb_llp_add_devices(planner *pl, const sb_linux_opts *o)
{
	for (size_t i = 0; i < sizeof devices / sizeof *devices; i++) {
		if (devices[i].opt_in && !o->allow_shm) {
			add_private_shm(pl, &devices[i]);
			continue;
		}
		add_device(pl, &devices[i], "device");
	}
	for (size_t i = 0; i < o->nterminals; i++) {
		if (!sb_ll_extra_terminal(o->terminals[i]))
			continue;
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			seen = seen || strcmp(o->terminals[j], o->terminals[i]) == 0;
		if (seen)
			continue;
		device tty = { o->terminals[i], SB_LL_READ_FILE | SB_LL_WRITE_FILE | SB_LL_IOCTL_DEV, false };
		add_device(pl, &tty, "terminal");
	}
}
#endif /* __linux__ */
