/* denial_learn.c - --learn (denial.h, docs/trace.md, "Learn"): the policy
 * fragment that would allow what a session was denied, grants grouped by
 * directory and by the unit a tool walks, each statement written by
 * compiler/common/sbx_text.h, the whole written beside and renamed.  */
#include "runtime/common/denial_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compiler/common/path.h"
#include "compiler/common/sbx_text.h"
#include "compiler/common/xalloc.h"

typedef struct grant {
	char *target;              /* absolute */
	const char *verb;          /* "read", "write", "exec" */
	const entry *why;          /* the first denial it answers */
	size_t nwhy;
	bool unit;                 /* widened to the unit the tool walks */
} grant;

/* Group three or more files of one verb in one directory into a grant
 * on the directory, unless the directory is wide or itself sensitive
 * while the files are not.  */
enum { GROUP_MIN = 3 };

static int cmp_grant(const void *a, const void *b)
{
	const grant *x = a, *y = b;
	int c = strcmp(x->verb, y->verb);
	return c ? c : strcmp(x->target, y->target);
}

/* A program reads back what it writes: where the profile denies reading
 * the written place too, the grant is "read write".  */
static const char *write_verb(const sb_tracer *t, sb_access a, const char *target)
{
	if (!sb_den_is_write(a) || !t->ev)
		return sb_den_verb_of(a);
	sb_decision dec = sb_eval_decide(t->ev, SB_OP_FILE_READ_DATA, target, 0);
	return dec.kind == SB_DEC_DENY ? "read write" : "write";
}

static void add_grant(grant **v, size_t *n, size_t *cap, char *target, const char *verb,
		      const entry *why)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].verb, verb) && !strcmp((*v)[i].target, target)) {
			(*v)[i].nwhy++;
			free(target);
			return;
		}
	SB_GROW(*v, *n, *cap, 16);
	(*v)[(*n)++] = (grant){ target, verb, why, 1, false };
}

static void group_by_dir(const sb_tracer *t, grant *v, size_t *n)
{
	for (size_t i = 0; i < *n; i++) {
		char *dir = sb_path_dirname(v[i].target);
		size_t same = 0;
		for (size_t k = 0; k < *n; k++) {
			char *dk = sb_path_dirname(v[k].target);
			if (!strcmp(v[k].verb, v[i].verb) && !strcmp(dk, dir))
				same++;
			free(dk);
		}
		bool ok = same >= GROUP_MIN && strcmp(v[i].verb, "read exactly") && !sb_den_is_wide(t, dir) &&
			  (!sb_den_sensitive(t, dir) || sb_den_sensitive(t, v[i].target));
		if (!ok) {
			free(dir);
			continue;
		}
		const char *verb = v[i].verb;
		size_t w = 0, first = *n;
		for (size_t k = 0; k < *n; k++) {
			char *dk = sb_path_dirname(v[k].target);
			bool member = !strcmp(v[k].verb, verb) && !strcmp(dk, dir);
			free(dk);
			if (member && first == *n) {
				first = w;
				free(v[k].target);
				v[k].target = xstrdup(dir);
				v[w++] = v[k];
			} else if (member) {
				v[first].nwhy += v[k].nwhy;
				free(v[k].target);
			} else {
				v[w++] = v[k];
			}
		}
		*n = w;
		free(dir);
	}
}

/* Grants on files inside a walked unit become one grant on the unit.  */
static void group_by_unit(const sb_tracer *t, grant *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(v[i].verb, "exec") || !strcmp(v[i].verb, "read exactly"))
			continue;
		char *u = sb_den_unit_for(t, strstr(v[i].verb, "write") != NULL, v[i].target);
		if (!u)
			continue;
		v[i].unit = true;
		free(v[i].target);
		v[i].target = u;
	}
}

/* Drop grants inside another grant of the same verb.  */
static void drop_covered(grant *v, size_t *n)
{
	size_t w = 0;
	for (size_t i = 0; i < *n; i++) {
		bool covered = false;
		for (size_t k = 0; k < *n && !covered; k++)
			covered = k != i && !strcmp(v[k].verb, v[i].verb) &&
				  sb_path_is_strictly_under(v[i].target, v[k].target);
		if (covered) {
			free(v[i].target);
			continue;
		}
		v[w++] = v[i];
	}
	*n = w;
}

/* Equal grants (two files of one unit) become one.  */
static void dedup(grant *v, size_t *n)
{
	size_t w = 0;
	for (size_t i = 0; i < *n; i++) {
		size_t k = 0;
		while (k < w && !(strcmp(v[k].verb, v[i].verb) == 0 &&
				  strcmp(v[k].target, v[i].target) == 0))
			k++;
		if (k < w) {
			v[k].nwhy += v[i].nwhy;
			v[k].unit = v[k].unit || v[i].unit;
			free(v[i].target);
			continue;
		}
		v[w++] = v[i];
	}
	*n = w;
}

/* "; denied by FILE:LINE \"STATEMENT\"" when the entry has a statement.  */
static void put_denied_by(FILE *f, const entry *e)
{
	if (!e->origin)
		return;
	fputs("; denied by ", f);
	sb_den_put_origin(f, e->origin);
	if (e->rule_text) {
		fputs(" \"", f);
		sb_den_put_text(f, e->rule_text);
		fputc('"', f);
	}
}

static void write_checks(FILE *f, const sb_tracer *t, const grant *g)
{
	const sb_sensitive_entry *s = sb_den_grant_sensitive(t, g->verb, g->target);
	if (s)
		fprintf(f, "# sbc --check: error [sensitive]: ~/%s (%s); add `acknowledge sensitive "
			   "\"why\"` to this statement only if you mean it\n", s->rel, s->why);
	if (strcmp(g->verb, "exec") && strcmp(g->verb, "read exactly") && sb_den_is_wide(t, g->target))
		fputs("# sbc --check: error [wide-root]: the root, the home directory or an ancestor "
		      "of it; add `acknowledge wide \"why\"` only if you mean it\n", f);
	if (strstr(g->verb, "write") && t->cfg.home) {
		char *omp = sb_path_join(t->cfg.home, ".omp");
		if (sb_path_is_under(g->target, omp))
			fputs("# sbc --check: warning [persistence]: omp later runs code from ~/.omp "
			      "outside any sandbox\n", f);
		free(omp);
	}
}

static void write_fragment(FILE *f, const sb_tracer *t, const char *cmd)
{
	fputs("# Learned by --learn: a policy fragment that would allow what this session\n"
	      "# was denied.  It changes nothing by itself.  Include it after the rules it\n"
	      "# relaxes, at the end of your policy:  include \"THIS-FILE.sbx\";\n"
	      "# then run sbc --check on that policy.  A sensitive or wide grant fails the\n"
	      "# check until you add the acknowledgement it names: only you can decide that.\n", f);
	fputs("# session: ", f);
	sb_den_put_text(f, cmd ? cmd : "?");
	fputc('\n', f);
	grant *v = NULL;
	size_t n = 0, cap = 0;
	bool network = false;
	size_t ctl = 0, local_sockets = 0, links = 0;
	for (size_t i = 0; i < t->n; i++) {
		const entry *e = t->v[i];
		if (e->platform_only)
			continue;
		if (e->access == SB_ACC_NETWORK) {
			/* `network on` for a refused AF_UNIX socket (a local probe,
			 * nscd's) would open every host; under host rules it switches
			 * the allowlist off.  Never proposed for those.  */
			if (strcmp(e->path, "AF_UNIX") != 0 &&
			    !(t->cfg.bound && sb_egress_filtered(&t->cfg.bound->egress)))
				network = true;
			else
				local_sockets++;
			continue;
		}
		if (e->access == SB_ACC_CONNECT)
			continue;   /* after the file grants */
		if (!sbx_text_writable(e->path)) {
			ctl++;
			continue;
		}
		if (e->link_source) {
			/* a new name for a write-denied file would let it be
			 * written: refused, and tools copy instead (git's local
			 * clone): granting write on the source would be wider */
			links++;
			continue;
		}
		char *target = sb_den_grant_target(t, e->access, e->path);
		add_grant(&v, &n, &cap, target, write_verb(t, e->access, target), e);
	}
	group_by_unit(t, v, n);
	group_by_dir(t, v, &n);
	drop_covered(v, &n);
	dedup(v, &n);
	if (n > 1)   /* only connect denials: v is NULL, and qsort(NULL, 0) is undefined */
		qsort(v, n, sizeof *v, cmp_grant);
	for (size_t i = 0; i < n; i++) {
		const entry *e = v[i].why;
		fputs("\n# needed by ", f);
		sb_den_put_text(f, e->process ? e->process : "?");
		fprintf(f, " (pid %d): %s ", e->pid, sb_access_word(e->access));
		char *disp = sb_den_display_path(t, e->path);
		sb_den_put_text(f, disp);
		free(disp);
		if (v[i].nwhy > 1)
			fprintf(f, " and %zu more in this directory", v[i].nwhy - 1);
		put_denied_by(f, e);
		fputc('\n', f);
		if (sb_den_create_self(t, e->access, e->path) && !strcmp(v[i].target, e->path))
			fputs("# a new entry of a directory that also holds other things (a grant on "
			      "the directory\n# would open them too): create it before the launch (a "
			      "Landlock rule needs\n# an existing path)\n", f);
		if (v[i].unit) {
			fputs("# the whole of ", f);
			char *ud = sb_den_display_path(t, v[i].target);
			sb_den_put_text(f, ud);
			free(ud);
			fputs(": the tool walks it (a repository or a project), so one file a round "
			      "would take a round a file\n", f);
		}
		if (!strcmp(v[i].verb, "read exactly"))
			fputs("# on macOS only: on Linux a directory's listing cannot be granted without "
			      "its subtree, so it stays denied there\n", f);
		write_checks(f, t, &v[i]);
		char *tg = t->cfg.home && !strcmp(v[i].target, t->cfg.home) ? xstrdup("home")
									      : sb_den_target_text(t, v[i].target);
		char *st = sbx_text_allow(v[i].verb, tg);
		fprintf(f, "%s\n", st);
		free(st);
		free(tg);
		free(v[i].target);
	}
	free(v);
	if (network)
		fputs("\n# needed: a network socket the policy denies\nnetwork on;\n", f);
	if (links)
		fprintf(f, "\n# %zu hard link%s to a write-denied file refused (a new name would let it be\n"
			   "# written); tools copy instead (git's local clone does).  Not learned: write on\n"
			   "# the source would be wider than what they need.\n", links,
			links == 1 ? "" : "s");
	if (local_sockets)
		fputs("\n# A UNIX-domain socket was refused (glibc probes nscd's at each start of a\n"
		      "# shell or git, harmlessly).  Not learned: `network on;` would open every\n"
		      "# host, and after host rules switch the allowlist off.\n", f);
	for (size_t i = 0; i < t->n; i++) {
		const entry *e = t->v[i];
		if (e->access != SB_ACC_CONNECT || !sbx_text_writable(e->path) || strchr(e->path, '"'))
			continue;
		fputs("\n# needed by ", f);
		sb_den_put_text(f, e->process ? e->process : "?");
		fprintf(f, ": connect %s:%d", e->path, e->port);
		if (e->origin) {
			put_denied_by(f, e);
		} else if (e->detail) {
			fputs("; ", f);
			sb_den_put_text(f, e->detail);
		}
		char *st = sbx_text_network_allow(e->path);
		fprintf(f, "\n%s\n", st);
		free(st);
	}
	if (ctl)
		fprintf(f, "\n# %zu denied path%s with control characters (a newline, ...) not learned: "
			   "grant them by hand if they are real\n", ctl, ctl == 1 ? "" : "s");
	size_t plat = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i]->platform_only) {
			if (!plat++)
				fputs("\n# Denied by the Linux plan where the profile allows it, or on this "
				      "kernel whatever it says: no policy statement changes these (see "
				      "sbrun --plan):\n", f);
			fprintf(f, "#   %s ", sb_access_word(t->v[i]->access));
			sb_den_put_text(f, t->v[i]->path);
			if (t->v[i]->detail) {
				fputs(" (", f);
				sb_den_put_text(f, t->v[i]->detail);
				fputc(')', f);
			}
			fputc('\n', f);
		}
	if (t->counts.suppressed > 0 && t->n >= t->cfg.max_distinct)
		fprintf(f, "\n# %zu more denials were not kept (the %zu-entry cap)\n",
			t->counts.suppressed, t->cfg.max_distinct);
}

int sb_tracer_write_learned(sb_tracer *t, const char *file, const char *cmd)
{
	char *tmp = NULL;
	tmp = xasprintf("%s.XXXXXX", file);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int e = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		errno = e;
		return -1;
	}
	write_fragment(f, t, cmd);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad || fchmodat(AT_FDCWD, tmp, 0644, 0) != 0 || rename(tmp, file) != 0) {
		int e = errno ? errno : EIO;
		unlink(tmp);
		free(tmp);
		errno = e;
		return -1;
	}
	free(tmp);
	return 0;
}
