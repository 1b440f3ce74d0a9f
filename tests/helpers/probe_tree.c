/* probe_tree - compare the kernel's outcome under the Landlock plan with
 * sb_eval_decide() for many (operation, path) pairs:
 *   probe_tree -p SPEC [-D N=V]... --probe /abs/probe [--walk DIR]...
 *              [--path P]... [--mutable DIR] [--truncatable DIR]...
 *              [--allow-unenforceable] [--clamp-abi N]
 * Pairs: every entry under each --walk DIR (and the DIR) plus each --path,
 * with the ops read, list, write, create, mkdir, exec (files named "true"
 * only), and truncate/unlink under --mutable only, last.  Files under a
 * --truncatable DIR (a throwaway tree: a hole destroys them) also get the
 * other ways to truncate: open(O_RDONLY|O_TRUNC), access mode 3|O_TRUNC,
 * O_RDWR|O_TRUNC and openat2(O_RDONLY|O_TRUNC), before the truncate pass.
 * --clamp-abi N handles only Landlock ABI N's rights (test hook).  The probe runs
 * once, as "probe --batch", through sb_linux_exec (the real launch).
 * A pair the kernel allows but decide() denies is a VIOLATION (exit 1).
 * Pairs where the kernel is stricter are listed.  */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/common/diag.h"
#include "compiler/common/path.h"
#include "compiler/eval/eval.h"
#include "runtime/linux/landlock_sys.h"
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "llspec.h"

extern char **environ;

typedef struct pair {
	char op[16];
	char *path;
} pair;

static pair *pairs;
static size_t npairs, cap;
static char *mutable_root;
static char *truncatable[4];
static size_t ntruncatable;

static void add(const char *op, const char *path)
{
	if (npairs == cap) {
		cap = cap ? 2 * cap : 256;
		pairs = realloc(pairs, cap * sizeof *pairs);
	}
	snprintf(pairs[npairs].op, sizeof pairs[npairs].op, "%s", op);
	pairs[npairs++].path = strdup(path);
}

static bool is_mutable(const char *p)
{
	size_t n = mutable_root ? strlen(mutable_root) : 0;
	return n && strncmp(p, mutable_root, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

static bool under_any(const char *p, char *const *roots, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(roots[i]);
		if (strncmp(p, roots[i], l) == 0 && (p[l] == '/' || p[l] == '\0'))
			return true;
	}
	return false;
}

static void add_path(const char *p)
{
	struct stat st;
	if (lstat(p, &st) < 0 || S_ISLNK(st.st_mode))
		return;
	if (S_ISDIR(st.st_mode)) {
		add("list", p);
		add("read", p);
		add("create", p);
		add("mkdir", p);
	} else {
		add("read", p);
		if (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode))
			add("write", p);
		const char *b = strrchr(p, '/');
		if (b && strcmp(b + 1, "true") == 0)
			add("exec", p);
	}
}

static void walk(const char *dir, int depth)
{
	add_path(dir);
	if (depth > 8)
		return;
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			names = realloc(names, (n + 1) * sizeof *names);
			names[n++] = strdup(e->d_name);
		}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		char p[4096];
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			walk(p, depth + 1);
		else
			add_path(p);
		free(names[i]);
	}
	free(names);
}

/* The SBPL question a probe op asks.  */
static sb_decision decide_pair(sb_eval *ev, const pair *q, char *buf, size_t n)
{
	const char *path = q->path;
	sb_op op = SB_OP_FILE_READ_DATA;
	if (!strcmp(q->op, "write") || !strcmp(q->op, "truncate") || !strncmp(q->op, "trunc-", 6))
		op = SB_OP_FILE_WRITE_DATA;
	else if (!strcmp(q->op, "create") || !strcmp(q->op, "mkdir")) {
		op = SB_OP_FILE_WRITE_CREATE;
		snprintf(buf, n, "%s/.sbprobe-new", q->path);
		path = buf;
	} else if (!strcmp(q->op, "unlink"))
		op = SB_OP_FILE_WRITE_UNLINK;
	else if (!strcmp(q->op, "exec"))
		op = SB_OP_PROCESS_EXEC;
	return sb_eval_decide(ev, op, path, 0);
}

int main(int argc, char **argv)
{
	const char *spec = NULL, *probe = NULL;
	llspec_def defs[32];
	size_t ndefs = 0;
	sb_linux_opts o = { .min_abi = 1, .uid = getuid(), .xdg_runtime_dir = getenv("XDG_RUNTIME_DIR") };
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-p") && i + 1 < argc)
			spec = argv[++i];
		else if (!strcmp(argv[i], "-D") && i + 1 < argc && ndefs < 32) {
			const char *kv = argv[++i], *eq = strchr(kv, '=');
			if (!eq)
				return 2;
			snprintf(defs[ndefs].name, sizeof defs[ndefs].name, "%.*s", (int)(eq - kv), kv);
			/* As sbrun binds launch paths: /tmp, /var, /etc in their
			 * /private form, or a rule on them never matches (a
			 * checkout under /tmp made the probe unreadable).  */
			char *v = eq[1] == '/' ? sb_path_private_alias(eq + 1) : strdup(eq + 1);
			snprintf(defs[ndefs].value, sizeof defs[ndefs].value, "%s", v ? v : "");
			free(v);
			ndefs++;
		} else if (!strcmp(argv[i], "--probe") && i + 1 < argc)
			probe = argv[++i];
		else if (!strcmp(argv[i], "--walk") && i + 1 < argc)
			walk(argv[++i], 0);
		else if (!strcmp(argv[i], "--path") && i + 1 < argc)
			add_path(argv[++i]);
		else if (!strcmp(argv[i], "--mechanism") && i + 1 < argc) {
			const char *m = argv[++i];
			o.mechanism = !strcmp(m, "masks") ? SB_LL_MECH_MASK
				      : !strcmp(m, "complement") ? SB_LL_MECH_COMPLEMENT : SB_LL_MECH_AUTO;
		}
		else if (!strcmp(argv[i], "--allow-unenforceable"))
			o.allow_unenforceable = true;
		else if (!strcmp(argv[i], "--mutable") && i + 1 < argc)
			mutable_root = argv[++i];
		else if (!strcmp(argv[i], "--truncatable") && i + 1 < argc && ntruncatable < 4)
			truncatable[ntruncatable++] = argv[++i];
		else if (!strcmp(argv[i], "--clamp-abi") && i + 1 < argc)
			sb_ll_test_clamp_abi(atoi(argv[++i]));
		else {
			fprintf(stderr, "probe_tree: bad argument %s\n", argv[i]);
			return 2;
		}
	}
	if (!spec || !probe)
		return 2;
	/* destructive ops last: the truncation variants, truncate every mutable
	 * file, then unlink */
	size_t base = npairs;
	static const char *const trunc_ops[] = { "trunc-ro", "trunc-acc3", "trunc-openat2",
						 "trunc-rw" };
	for (size_t t = 0; t < sizeof trunc_ops / sizeof *trunc_ops; t++)
		for (size_t i = 0; i < base; i++)
			if (!strcmp(pairs[i].op, "write") &&
			    under_any(pairs[i].path, truncatable, ntruncatable))
				add(trunc_ops[t], pairs[i].path);
	for (size_t i = 0; i < base; i++)
		if (!strcmp(pairs[i].op, "write") && is_mutable(pairs[i].path))
			add("truncate", pairs[i].path);
	for (size_t i = 0; i < base; i++)
		if (!strcmp(pairs[i].op, "write") && is_mutable(pairs[i].path))
			add("unlink", pairs[i].path);

	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_diag_set_tool(d, "probe_tree");
	sb_profile *prof = llspec_load_any(spec, defs, ndefs, d);
	if (!prof)
		return 2;
	sb_ll_plan *plan = NULL;
	if (sb_ll_plan_build(prof, &o, &plan, d) != 0)
		return 2;

	char in_tmpl[] = "/tmp/sb-probe-tree-XXXXXX";
	int in = mkstemp(in_tmpl);
	if (in < 0)
		return 2;
	unlink(in_tmpl);
	FILE *inf = fdopen(in, "w+");
	for (size_t i = 0; i < npairs; i++)
		fprintf(inf, "%s %s\n", pairs[i].op, pairs[i].path);
	fflush(inf);
	int out[2];
	if (pipe(out) < 0)
		return 2;
	pid_t pid = fork();
	if (pid == 0) {
		lseek(in, 0, SEEK_SET);
		dup2(in, 0);
		dup2(out[1], 1);
		close(out[0]);
		close(out[1]);
		char *av[] = { (char *)probe, "--batch", NULL };
		_exit(sb_linux_exec(plan, &o, probe, av, environ, d));
	}
	close(out[1]);
	FILE *res = fdopen(out[0], "r");
	sb_eval *ev = sb_eval_new(prof, 0);
	size_t n_allow = 0, n_deny = 0, n_na = 0, n_viol = 0, n_strict = 0, got = 0;
	char line[8192];
	for (size_t i = 0; i < npairs && fgets(line, sizeof line, res); i++) {
		line[strcspn(line, "\n")] = '\0';
		const char *r = strrchr(line, ' ');
		r = r ? r + 1 : "";
		got++;
		char buf[4200];
		sb_decision dec = decide_pair(ev, &pairs[i], buf, sizeof buf);
		const char *dk = dec.kind == SB_DEC_ALLOW ? "allow" : dec.kind == SB_DEC_DENY ? "deny" : "unknown";
		int dl = dec.rule && dec.rule->origin ? dec.rule->origin->line : 0;
		if (!strcmp(r, "OK")) {
			n_allow++;
			if (dec.kind != SB_DEC_ALLOW) {
				n_viol++;
				printf("VIOLATION: %s %s: kernel allowed, decide %s (line %d)\n",
				       pairs[i].op, pairs[i].path, dk, dl);
			}
		} else if (!strcmp(r, "EACCES") || !strcmp(r, "EPERM")) {
			n_deny++;
			if (dec.kind == SB_DEC_ALLOW) {
				n_strict++;
				printf("stricter: %s %s: kernel %s, decide allow (line %d)\n",
				       pairs[i].op, pairs[i].path, r, dl);
			}
		} else {
			n_na++;
		}
	}
	int st;
	waitpid(pid, &st, 0);
	printf("summary %s: %zu pairs, %zu answered, %zu allowed, %zu denied, %zu n/a, "
	       "%zu violations, %zu stricter, %zu rules\n",
	       spec, npairs, got, n_allow, n_deny, n_na, n_viol, n_strict,
	       sb_ll_plan_rule_count(plan));
	sb_ll_plan_free(plan);
	sb_eval_free(ev);
	sb_profile_free(prof);
	sb_diag_free(d);
	if (got != npairs) {
		printf("probe_tree: the probe answered %zu of %zu pairs (exit %d)\n", got, npairs,
		       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return 1;
	}
	return n_viol ? 1 : 0;
}
