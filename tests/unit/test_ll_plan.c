#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* Unit tests: the Landlock planner on profiles built with the IR API.
 * The planner walks "/", so each test first moves into a root it builds
 * itself (a tmpfs in a private mount namespace, entered with chroot):
 * the results never depend on this machine's tree, and the tree holds
 * what the walk must survive: an empty directory on the expansion path,
 * symlinks, a stand-in HOME.  Criterion runs every test in its own
 * process, so the namespace and the chroot end with the test.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"

static char home[256], ws[300];
/* The profile spells paths as Seatbelt sees them: /tmp/x is /private/tmp/x.  */
static char phome[300], pws[320];

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	cr_assert(fd >= 0, "%s: %m", path);
	cr_assert(eq(sz, (size_t)write(fd, text, strlen(text)), strlen(text)));
	close(fd);
}

/* Unprivileged: a user namespace mapping our own ids makes the mount
 * namespace and the chroot possible.  */
static bool enter_private_namespace(void)
{
	if (geteuid() == 0)
		return unshare(CLONE_NEWNS) == 0;
	uid_t uid = geteuid();
	gid_t gid = getegid();
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
		return false;
	char map[64];
	write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	write_file("/proc/self/uid_map", map);
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	write_file("/proc/self/gid_map", map);
	return true;
}

static void mkdir_in(const char *root, const char *rel, mode_t mode)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	cr_assert(eq(int, mkdir(p, mode), 0), "mkdir %s: %m", p);
	cr_assert(eq(int, chmod(p, mode), 0));
}

/* The test's own "/":
 *   /tmp (1777)        the stand-in HOME is made below it
 *   /dev, /dev/null    /dev/null bound from the host (the tests write to it)
 *   /proc              bound from the host (mountinfo)
 *   /home              empty: expanded around no entry at all
 *   /opt/sb-ll-none    empty, on the path of a regex deny: expanded, nothing in it
 *   /usr/bin, /bin -> usr/bin, /lib -> usr/lib (dangling)  symlinks get no rule
 *   /etc/hostname      a plain file  */
static void enter_private_root(void)
{
	if (!enter_private_namespace())
		cr_skip_test("cannot create a private mount namespace (%m; unprivileged, "
			     "Criterion's worker has threads, so no user namespace): the "
			     "planner tests need their own root, run them as root");
	cr_assert(eq(int, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0), "%m");
	const char *root = "/tmp";
	cr_assert(eq(int, mount("sb-ll-root", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755"), 0),
		  "mount tmpfs: %m");
	mkdir_in(root, "tmp", 01777);
	mkdir_in(root, "dev", 0755);
	mkdir_in(root, "proc", 0555);
	mkdir_in(root, "home", 0755);
	mkdir_in(root, "opt", 0755);
	mkdir_in(root, "opt/sb-ll-none", 0755);
	mkdir_in(root, "usr", 0755);
	mkdir_in(root, "usr/bin", 0755);
	mkdir_in(root, "etc", 0755);
	write_file("/tmp/etc/hostname", "sb-ll-test\n");
	write_file("/tmp/dev/null", "");
	cr_assert(eq(int, mount("/dev/null", "/tmp/dev/null", NULL, MS_BIND, NULL), 0), "%m");
	cr_assert(eq(int, mount("/proc", "/tmp/proc", NULL, MS_BIND | MS_REC, NULL), 0), "%m");
	cr_assert(eq(int, symlink("usr/bin", "/tmp/bin"), 0));
	cr_assert(eq(int, symlink("usr/lib", "/tmp/lib"), 0));
	cr_assert(eq(int, chroot(root), 0), "chroot: %m");
	cr_assert(eq(int, chdir("/"), 0));
}

static void setup(void)
{
	enter_private_root();
	snprintf(home, sizeof home, "/tmp/sb-ll-plan-XXXXXX");
	cr_assert_not_null(mkdtemp(home));
	snprintf(ws, sizeof ws, "%s/ws", home);
	snprintf(phome, sizeof phome, "/private%s", home);
	snprintf(pws, sizeof pws, "/private%s", ws);
	cr_assert(eq(int, mkdir(ws, 0700), 0));
	char p[400];
	snprintf(p, sizeof p, "%s/.ssh", home);
	cr_assert(eq(int, mkdir(p, 0700), 0));
}

/* The tree is a tmpfs of the test's own mount namespace: it goes with
 * the test's process.  */
static void teardown(void)
{
}

static void rule(sb_profile *p, sb_action a, sb_op op, sb_filter_kind k, const char *path)
{
	sb_loc loc = { .file = "t.sb", .line = (int)p->nrules + 1 };
	sb_rule *r = sb_rule_new(a, loc);
	sb_rule_add_op(r, op, NULL);
	if (path)
		sb_rule_add_filter(r, sb_filter_path(k, sb_str_lit(path), loc));
	sb_profile_add_rule(p, r);
}

static const sb_ll_rule *find(const sb_ll_plan *plan, const char *path)
{
	const sb_ll_rules *r = sb_ll_plan_rules(plan);
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].path, path) == 0)
			return &r->v[i];
	return NULL;
}

static bool note_has(const sb_ll_plan *plan, sb_ll_note_kind kind, const char *text)
{
	const sb_ll_rules *r = sb_ll_plan_rules(plan);
	for (size_t i = 0; i < r->nnotes; i++)
		if (r->notes[i].kind == kind && strstr(r->notes[i].text, text))
			return true;
	return false;
}

static sb_profile *home_profile_base(void)
{
	sb_profile *p = sb_profile_new();
	rule(p, SB_ALLOW, SB_OP_DEFAULT, 0, NULL);
	rule(p, SB_DENY, SB_OP_FILE_WRITE, 0, NULL);
	rule(p, SB_ALLOW, SB_OP_FILE_WRITE, SB_F_SUBPATH, "/private/tmp");
	rule(p, SB_DENY, SB_OP_FILE_READ, SB_F_SUBPATH, phome);
	rule(p, SB_ALLOW, SB_OP_FILE_READ, SB_F_SUBPATH, pws);
	rule(p, SB_ALLOW, SB_OP_FILE_READ, SB_F_SUBPATH, "/private/var/folders");
	return p;
}

static sb_profile *home_profile(void)
{
	sb_profile *p = home_profile_base();
	rule(p, SB_DENY, SB_OP_FILE_READ, SB_F_REGEX, "^/opt/sb-ll-none/x");
	return p;
}

Test(ll_plan, deny_home_complement, .init = setup, .fini = teardown)
{
	sb_profile *p = home_profile();
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_linux_opts o = { .home = home, .mechanism = SB_LL_MECH_COMPLEMENT };
	sb_ll_plan *plan = NULL;
	cr_assert(eq(int, sb_ll_plan_build(p, &o, &plan, d), 0));
	cr_assert_eq(plan->masks.n, 0);
	const sb_ll_rule *w = find(plan, ws);
	cr_assert_not_null(w, "no rule for the re-allowed workspace");
	cr_assert(eq(u64, w->rights & SB_LL_READ_FILE, SB_LL_READ_FILE), "rights %llx", (unsigned long long)w->rights);
	cr_assert_null(find(plan, home), "HOME must get no rule");
	cr_assert_null(find(plan, "/"), "/ must get no rule");
	cr_assert_null(find(plan, "/tmp/.ssh"));
	/* /private/tmp on Linux is /tmp: writable, but expanded for reads */
	const sb_ll_rule *t = find(plan, "/tmp");
	cr_assert_not_null(t);
	cr_assert(eq(u64, t->rights & SB_LL_WRITE_FILE, SB_LL_WRITE_FILE));
	cr_assert(eq(u64, t->rights & SB_LL_READ_DIR, 0));
	const sb_ll_rule *dev = find(plan, "/dev");
	cr_assert_not_null(dev);
	cr_assert(eq(u64, dev->rights, SB_LL_READ_DIR));
	const sb_ll_rules *r = sb_ll_plan_rules(plan);
	for (size_t i = 0; i < r->n; i++) {
		cr_assert(eq(u64, r->v[i].rights & SB_LL_NEVER, 0));
		if (strncmp(r->v[i].path, "/dev/", 5) == 0)
			cr_assert(eq(str, (char *)r->v[i].origin, "device"));
		cr_assert_not(strncmp(r->v[i].path, home, strlen(home)) == 0 &&
			      strncmp(r->v[i].path, ws, strlen(ws)) != 0,
			      "rule inside HOME outside the workspace: %s", r->v[i].path);
	}
	/* the private root: symlinks get no rule, the empty directory on the
	 * regex deny's path is expanded (no rule, nothing inside), the rest of
	 * the tree is granted whole */
	cr_assert_null(find(plan, "/bin"));
	cr_assert_null(find(plan, "/lib"));
	cr_assert_null(find(plan, "/opt/sb-ll-none"));
	cr_assert_null(find(plan, "/opt"));
	cr_assert_not_null(find(plan, "/etc"));
	cr_assert_not_null(find(plan, "/usr"));
	cr_assert_not_null(find(plan, "/home"));
	cr_assert(eq(sz, r->symlink_skips, 2), "symlinks skipped: %zu", r->symlink_skips);
	cr_assert(note_has(plan, SB_LL_NOTE_SKIPPED, "/private/var/folders"));
	cr_assert(note_has(plan, SB_LL_NOTE_NARROWER, "widened"));
	cr_assert(note_has(plan, SB_LL_NOTE_GAP, "stat"));
	cr_assert(sb_ll_plan_rule_count(plan) > 5);
	sb_ll_plan_free(plan);
	sb_profile_free(p);
	sb_diag_free(d);
}

/* The same profile with masks: "/" gets one read rule, HOME is hidden with
 * the workspace bound back in, and no rule lands inside HOME (a rule on a
 * hidden inode would not apply through the mask, or would through a hard
 * link).  */
Test(ll_plan, deny_home_masks, .init = setup, .fini = teardown)
{
	bool userns;
	char why[256];
	if (!sb_ns_masks_available(&userns, why, sizeof why))
		cr_skip_test("namespaces unavailable: %s", why);
	/* (no deny of a missing path: that one the complement enforces) */
	sb_profile *p = home_profile_base();
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_linux_opts o = { .home = home, .mechanism = SB_LL_MECH_MASK };
	sb_ll_plan *plan = NULL;
	cr_assert(eq(int, sb_ll_plan_build(p, &o, &plan, d), 0));
	const sb_ll_rule *root = find(plan, "/");
	cr_assert_not_null(root, "/ must get one rule with masks");
	cr_assert(eq(u64, root->rights & (SB_LL_READ_FILE | SB_LL_READ_DIR),
		     SB_LL_READ_FILE | SB_LL_READ_DIR));
	const sb_ll_mask *hm = NULL, *dev = NULL;
	for (size_t i = 0; i < plan->masks.n; i++) {
		if (strcmp(plan->masks.v[i].path, home) == 0)
			hm = &plan->masks.v[i];
		if (strcmp(plan->masks.v[i].path, "/dev") == 0)
			dev = &plan->masks.v[i];
	}
	cr_assert_not_null(hm, "HOME must be masked");
	cr_assert(eq(int, hm->kind, SB_MASK_HIDE));
	cr_assert(eq(sz, hm->nexpose, 1));
	cr_assert(eq(str, hm->expose[0].path, ws));
	cr_assert_not_null(dev, "/dev must be the device tmpfs");
	cr_assert(eq(int, dev->kind, SB_MASK_DEV));
	const sb_ll_rules *r = sb_ll_plan_rules(plan);
	for (size_t i = 0; i < r->n; i++)
		cr_assert_not(strncmp(r->v[i].path, home, strlen(home)) == 0 &&
			      strncmp(r->v[i].path, ws, strlen(ws)) != 0,
			      "rule inside the hidden HOME: %s", r->v[i].path);
	/* what the mask takes is what the plan may add back, and only there */
	char ssh[400];
	snprintf(ssh, sizeof ssh, "%s/.ssh", home);
	cr_assert(eq(u64, sb_ll_masks_addback(&plan->masks, ssh) & SB_LL_READ_FILE, SB_LL_READ_FILE));
	cr_assert(eq(u64, sb_ll_masks_addback(&plan->masks, ws), 0));
	cr_assert(eq(u64, sb_ll_masks_addback(&plan->masks, "/etc"), 0));
	sb_ll_plan_free(plan);
	sb_profile_free(p);
	sb_diag_free(d);
}

/* Write denies inside the writable workspace, one of them of a name that
 * does not exist: the write gate's (docs/linux.md, "The write gate"), with
 * or without namespaces.  The workspace gets its grant whole (no
 * narrowing, no warning), the gated names are GATE entries that mount
 * nothing, and what they take is added back there only.  */
static void gate_plan(int mechanism)
{
	char gate_ok[256];
	if (!sb_gate_available(gate_ok, sizeof gate_ok))
		cr_skip_test("the write gate is unavailable: %s", gate_ok);
	char envrc[400], hooks[400], penvrc[400], phooks[400];
	snprintf(envrc, sizeof envrc, "%s/.envrc", ws);
	snprintf(hooks, sizeof hooks, "%s/hooks", ws);
	snprintf(penvrc, sizeof penvrc, "%s/.envrc", pws);
	snprintf(phooks, sizeof phooks, "%s/hooks", pws);
	cr_assert(eq(int, mkdir(hooks, 0755), 0), "%m");
	sb_profile *p = home_profile_base();
	rule(p, SB_ALLOW, SB_OP_FILE_WRITE, SB_F_SUBPATH, pws);
	rule(p, SB_DENY, SB_OP_FILE_WRITE, SB_F_LITERAL, penvrc);
	rule(p, SB_DENY, SB_OP_FILE_WRITE, SB_F_SUBPATH, phooks);
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_linux_opts o = { .home = home, .mechanism = mechanism };
	sb_ll_plan *plan = NULL;
	cr_assert(eq(int, sb_ll_plan_build(p, &o, &plan, d), 0));
	cr_assert(plan->gate, "the plan must start the write gate");
	cr_assert(eq(sz, plan->nwarnings, 0), "no narrowing is said: %s",
		  plan->nwarnings ? plan->warnings[0] : "");
	const sb_ll_mask *ge = NULL, *gh = NULL;
	for (size_t i = 0; i < plan->masks.n; i++) {
		if (strcmp(plan->masks.v[i].path, envrc) == 0)
			ge = &plan->masks.v[i];
		if (strcmp(plan->masks.v[i].path, hooks) == 0)
			gh = &plan->masks.v[i];
	}
	cr_assert_not_null(ge, "the absent .envrc must be a gate entry");
	cr_assert_not_null(gh, "hooks must be a gate entry");
	cr_assert(eq(int, ge->kind, SB_MASK_GATE));
	cr_assert(eq(int, gh->kind, SB_MASK_GATE));
	cr_assert(eq(sz, sb_ll_masks_gated(&plan->masks), 2));
	/* the workspace is granted whole, by a rule on it or an ancestor */
	uint64_t at_ws = 0;
	const sb_ll_rules *rr = sb_ll_plan_rules(plan);
	for (size_t i = 0; i < rr->n; i++) {
		size_t n = strlen(rr->v[i].path);
		if (rr->v[i].is_dir && (strcmp(rr->v[i].path, "/") == 0 ||
					(strncmp(ws, rr->v[i].path, n) == 0 && (ws[n] == '/' || !ws[n]))))
			at_ws |= rr->v[i].rights;
	}
	cr_assert(eq(u64, at_ws & (SB_LL_MAKE_REG | SB_LL_WRITE_FILE | SB_LL_REMOVE_FILE),
		     SB_LL_MAKE_REG | SB_LL_WRITE_FILE | SB_LL_REMOVE_FILE));
	cr_assert(eq(u64, sb_ll_masks_addback(&plan->masks, envrc) & SB_LL_MAKE_REG, SB_LL_MAKE_REG));
	cr_assert(eq(u64, sb_ll_masks_addback(&plan->masks, ws), 0));
	cr_assert(eq(u64, sb_ll_masks_addback(&plan->masks, "/etc") & SB_LL_WRITE_FILE, 0));
	sb_ll_plan_free(plan);
	/* without the gate: the absent name narrows the workspace, said */
	o.gate = SB_LL_GATE_OFF;
	cr_assert(eq(int, sb_ll_plan_build(p, &o, &plan, d), 0));
	cr_assert_not(plan->gate);
	cr_assert(eq(sz, sb_ll_masks_gated(&plan->masks), 0));
	cr_assert(plan->nwarnings >= 1 && strstr(plan->warnings[0], "new files cannot be created"),
		  "the narrowing must be said");
	sb_ll_plan_free(plan);
	sb_profile_free(p);
	sb_diag_free(d);
}

Test(ll_plan, write_denies_go_to_the_gate_with_masks, .init = setup, .fini = teardown)
{
	bool userns;
	char why[256];
	if (!sb_ns_masks_available(&userns, why, sizeof why))
		cr_skip_test("namespaces unavailable: %s", why);
	gate_plan(SB_LL_MECH_AUTO);
}

Test(ll_plan, write_denies_go_to_the_gate_without_namespaces, .init = setup, .fini = teardown)
{
	gate_plan(SB_LL_MECH_COMPLEMENT);
}

Test(ll_plan, unenforceable_deny_refused_unless_opted_in, .init = setup, .fini = teardown)
{
	sb_profile *p = sb_profile_new();
	rule(p, SB_ALLOW, SB_OP_DEFAULT, 0, NULL);
	rule(p, SB_DENY, SB_OP_FILE_READ, SB_F_REGEX, "secret");
	char *msgs = NULL;
	size_t nmsgs = 0;
	FILE *sink = open_memstream(&msgs, &nmsgs);
	sb_diag *d = sb_diag_new(sink, SB_FMT_TEXT);
	sb_linux_opts o = { 0 };
	/* a refused plan is not handed out: *out is NULL, the reason went
	 * through the funnel */
	sb_ll_plan *plan = (sb_ll_plan *)&o;
	cr_assert(eq(int, sb_ll_plan_build(p, &o, &plan, d), SB_REFUSED));
	cr_assert(plan == NULL);
	fflush(sink);
	cr_assert(strstr(msgs, "not-enforceable") != NULL, "%s", msgs);
	cr_assert(strstr(msgs, "regex") != NULL, "%s", msgs);
	o.allow_unenforceable = true;
	cr_assert(eq(int, sb_ll_plan_build(p, &o, &plan, d), 0));
	cr_assert(note_has(plan, SB_LL_NOTE_UNENFORCEABLE, "regex"));
	sb_ll_plan_free(plan);
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(sink);
	free(msgs);
}

Test(ll_plan, deny_default_grants_only_what_is_allowed, .init = setup, .fini = teardown)
{
	sb_profile *p = sb_profile_new();
	rule(p, SB_DENY, SB_OP_DEFAULT, 0, NULL);
	rule(p, SB_ALLOW, SB_OP_NETWORK_ALL, 0, NULL);
	rule(p, SB_ALLOW, SB_OP_FILE_READ, SB_F_SUBPATH, pws);
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_linux_opts o = { 0 };
	sb_ll_plan *plan = NULL;
	cr_assert(eq(int, sb_ll_plan_build(p, &o, &plan, d), 0));
	const sb_ll_rules *r = sb_ll_plan_rules(plan);
	cr_assert(eq(sz, r->n, 1), "rules: %zu", r->n);
	cr_assert(eq(str, r->v[0].path, ws));
	cr_assert(eq(u64, r->v[0].rights, SB_LL_READ_FILE | SB_LL_READ_DIR));  /* no exec allowed */
	sb_ll_plan_free(plan);
	sb_profile_free(p);
	sb_diag_free(d);
}

/* Landlock has no network-off right: a denied network becomes a seccomp
 * refusal of socket() for every family (narrower, never wider).  */
Test(ll_plan, deny_default_network_blocks_sockets, .init = setup, .fini = teardown)
{
	sb_profile *p = sb_profile_new();
	rule(p, SB_DENY, SB_OP_DEFAULT, 0, NULL);
	rule(p, SB_ALLOW, SB_OP_FILE_READ, SB_F_SUBPATH, pws);
	FILE *sink = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(sink, SB_FMT_TEXT);
	sb_linux_opts o = { 0 };
	sb_ll_plan *plan = NULL;
	cr_assert(eq(int, sb_ll_plan_build(p, &o, &plan, d), 0));
	cr_assert(sb_ll_plan_net_block(plan));
	cr_assert(note_has(plan, SB_LL_NOTE_NARROWER, "network"));
	sb_ll_plan_free(plan);
	plan = NULL;
	/* (allow default) keeps the network: no socket refusal */
	sb_profile *q = sb_profile_new();
	rule(q, SB_ALLOW, SB_OP_DEFAULT, 0, NULL);
	cr_assert(eq(int, sb_ll_plan_build(q, &o, &plan, d), 0));
	cr_assert_not(sb_ll_plan_net_block(plan));
	sb_profile_free(q);
	sb_ll_plan_free(plan);
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(sink);
}

Test(ll_plan, literal_file_grant_in_deny_default, .init = setup, .fini = teardown)
{
	char f[400];
	char pf[420];
	snprintf(f, sizeof f, "%s/.ssh/config", home);
	snprintf(pf, sizeof pf, "/private%s", f);
	FILE *fp = fopen(f, "w");
	cr_assert_not_null(fp);
	fclose(fp);
	sb_profile *p = sb_profile_new();
	rule(p, SB_DENY, SB_OP_DEFAULT, 0, NULL);
	rule(p, SB_ALLOW, SB_OP_NETWORK_ALL, 0, NULL);
	rule(p, SB_ALLOW, SB_OP_FILE_READ_DATA, SB_F_LITERAL, pf);
	rule(p, SB_ALLOW, SB_OP_FILE_READ_DATA, SB_F_LITERAL, phome);   /* a directory */
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_linux_opts o = { 0 };
	sb_ll_plan *plan = NULL;
	cr_assert(eq(int, sb_ll_plan_build(p, &o, &plan, d), 0));
	const sb_ll_rule *r = find(plan, f);
	cr_assert_not_null(r);
	cr_assert(eq(u64, r->rights, SB_LL_READ_FILE));
	cr_assert_null(find(plan, home));
	cr_assert(note_has(plan, SB_LL_NOTE_NARROWER, "literal directory"));
	sb_ll_plan_free(plan);
	sb_profile_free(p);
	sb_diag_free(d);
}

Test(ll_plan, unmodelled_forms_deny_everything, .init = setup, .fini = teardown)
{
	sb_profile *p = home_profile();
	sb_loc loc = { .file = "t.sb", .line = 99 };
	sb_profile_add_unmodelled(p, SB_UNMODELLED_ACTIVE, "(if (param \"X\") (deny file-read*))", "conditional", loc);
	FILE *sink = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(sink, SB_FMT_TEXT);
	sb_linux_opts o = { 0 };
	sb_ll_plan *plan = NULL;
	/* nothing can be decided: no file rule, and the network (unknown) is
	 * refused too, fail closed */
	cr_assert(eq(int, sb_ll_plan_build(p, &o, &plan, d), 0));
	cr_assert(eq(sz, sb_ll_plan_rule_count(plan), 0));
	cr_assert(sb_ll_plan_net_block(plan));
	cr_assert(note_has(plan, SB_LL_NOTE_NARROWER, "treated as deny"));
	sb_ll_plan_free(plan);
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(sink);
}

/* Does a rule with read rights cover `path` (the path or an ancestor)?  */
static bool read_covered(const sb_ll_plan *plan, const char *path)
{
	const sb_ll_rules *r = sb_ll_plan_rules(plan);
	for (size_t i = 0; i < r->n; i++) {
		size_t n = strlen(r->v[i].path);
		bool above = !strcmp(r->v[i].path, "/") ||
			     (!strncmp(path, r->v[i].path, n) && (path[n] == '/' || !path[n]));
		if (above && (r->v[i].rights & SB_LL_READ_FILE))
			return true;
	}
	return false;
}

/* The per-user runtime directories come from the launcher's arguments
 * (uid, XDG_RUNTIME_DIR of the launch environment), not from the
 * planner's own process: both are denied whole, nothing else is.  */
Test(ll_plan, runtime_dirs_from_the_arguments, .init = setup, .fini = teardown)
{
	mkdir_in("/", "run", 0755);
	mkdir_in("/", "run/user", 0755);
	mkdir_in("/", "run/user/4242", 0700);
	mkdir_in("/", "run/user/4243", 0700);
	mkdir_in("/", "opt/sb-ll-xdg", 0700);
	mkdir_in("/", "opt/sb-ll-other", 0755);
	sb_profile *p = sb_profile_new();
	rule(p, SB_ALLOW, SB_OP_DEFAULT, 0, NULL);
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_linux_opts o = { .mechanism = SB_LL_MECH_COMPLEMENT, .uid = 4242,
			    .xdg_runtime_dir = "/opt/sb-ll-xdg" };
	sb_ll_plan *plan = NULL;
	cr_assert(eq(int, sb_ll_plan_build(p, &o, &plan, d), 0));
	cr_assert(not(read_covered(plan, "/run/user/4242")), "/run/user/UID of the given uid");
	cr_assert(not(read_covered(plan, "/opt/sb-ll-xdg")), "the given XDG_RUNTIME_DIR");
	cr_assert(read_covered(plan, "/opt/sb-ll-other"));
	cr_assert(read_covered(plan, "/run/user/4243"), "another user's directory is not denied");
	sb_ll_plan_free(plan);
	o.uid = 4243;
	o.xdg_runtime_dir = NULL;
	cr_assert(eq(int, sb_ll_plan_build(p, &o, &plan, d), 0));
	cr_assert(read_covered(plan, "/run/user/4242"), "uid 4242's directory is not uid 4243's");
	cr_assert(not(read_covered(plan, "/run/user/4243")));
	cr_assert(read_covered(plan, "/opt/sb-ll-xdg"), "no XDG_RUNTIME_DIR given: not denied");
	sb_ll_plan_free(plan);
	sb_profile_free(p);
	sb_diag_free(d);
}
#endif /* __linux__ */
