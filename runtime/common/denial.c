/* denial.c - the denial tracer (denial.h, docs/trace.md): each denied
 * access once, classified by the rule that decided it (sb_eval_decide on
 * the bound profile) and that rule's policy statement, carried in the
 * profile (compiler/ir/origin.h): no policy file is read here.  Reports:
 * denial_report.c; fixes: denial_fix.c; --learn: denial_learn.c.  */
#include "runtime/common/denial_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"
#include "compiler/eval/egress_eval.h"

static const char *const words[SB_ACC__COUNT] = {
	"read", "list", "write", "create", "delete", "exec", "network", "connect", "truncate",
};

const char *sb_access_word(sb_access a)
{
	return (unsigned)a < SB_ACC__COUNT ? words[a] : "?";
}

sb_tracer *sb_tracer_new(const sb_tracer_cfg *cfg)
{
	sb_tracer *t = xcalloc(1, sizeof *t);
	t->cfg = *cfg;
	if (!t->cfg.burst)
		t->cfg.burst = 200;
	if (!t->cfg.per_second)
		t->cfg.per_second = 50;
	if (!t->cfg.max_distinct)
		t->cfg.max_distinct = 10000;
	t->seen = sb_strmap_new();
	t->ev = t->cfg.bound ? sb_eval_new(t->cfg.bound, 0) : NULL;
	t->tokens = t->cfg.burst;
	clock_gettime(CLOCK_MONOTONIC, &t->last);
	return t;
}

static void entry_free(entry *e)
{
	free(e->path);
	free(e->process);
	free(e->rule_text);
	free((char *)e->own.file);
	free(e->detail);
	free(e);
}

void sb_tracer_free(sb_tracer *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		entry_free(t->v[i]);
	free(t->v);
	sb_strmap_free(t->seen);
	sb_eval_free(t->ev);
	free(t);
}

/* ---- the deciding rule ---- */

static sb_op op_of(sb_access a)
{
	switch (a) {
	case SB_ACC_READ:
	case SB_ACC_LIST:
		return SB_OP_FILE_READ_DATA;
	case SB_ACC_WRITE:
	case SB_ACC_TRUNCATE:
		return SB_OP_FILE_WRITE_DATA;
	case SB_ACC_CREATE:
		return SB_OP_FILE_WRITE_CREATE;
	case SB_ACC_DELETE:
		return SB_OP_FILE_WRITE_UNLINK;
	case SB_ACC_EXEC:
		return SB_OP_PROCESS_EXEC;
	default:
		return SB_OP_NETWORK_OUTBOUND;
	}
}

/* The last deny rule naming a network operation (the network is decided
 * per socket, not per path).  */
static const sb_rule *network_rule(const sb_profile *p)
{
	for (size_t i = p->nrules; i-- > 0;) {
		const sb_rule *r = p->rules[i];
		if (r->action != SB_DENY)
			continue;
		for (size_t k = 0; k < r->nops; k++)
			if (r->ops[k] == SB_OP_NETWORK_ALL || r->ops[k] == SB_OP_NETWORK_OUTBOUND ||
			    r->ops[k] == SB_OP_DEFAULT)
				return r;
	}
	return NULL;
}

/* The statement of the rule the platform named ("FILE:LINE": macOS, from
 * the rule's message, runtime/common/launch.c): the profile's record of it,
 * with its text, else a record of the name alone.  False when `origin` is
 * not "FILE:LINE".  */
static bool set_origin(sb_tracer *t, entry *e, const char *origin)
{
	const char *colon = origin ? strrchr(origin, ':') : NULL;
	if (!colon || colon == origin || !colon[1] ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return false;
	size_t flen = (size_t)(colon - origin);
	int line = atoi(colon + 1);
	const sb_profile *p = t->cfg.bound;
	for (size_t i = 0; p && i < p->nrules && !e->origin; i++) {
		const sb_origin *o = p->rules[i]->origin;
		if (o && o->line == line && strlen(o->file) == flen && !memcmp(o->file, origin, flen))
			e->origin = o;
	}
	if (!e->origin) {
		e->own = (sb_origin){ .file = xstrndup(origin, flen), .line = line };
		e->origin = &e->own;
	}
	return true;
}

/* A refused request: the host rule that decided it, as sbc explain --host
 * finds it (compiler/eval/egress_eval.h); the proxy's reason otherwise.  */
static void classify_connect(sb_tracer *t, entry *e)
{
	sb_dest dst;
	const char *why;
	sb_egress_answer ans;
	if (!t->cfg.bound || sb_dest_parse(e->path, e->port, &dst, &why) < 0)
		return;
	sb_egress_answer_for(t->cfg.bound, &dst, &ans);
	sb_egress_answer_clear(&ans);   /* its origin text: e->origin is the record */
	if (ans.allowed)
		return;   /* refused for its addresses: the proxy's reason says which */
	/* a host rule the launcher made (OMP_SANDBOX_NETWORK=allowlist: line
	 * 0) is no policy statement: the proxy's reason names it */
	if (ans.where && (!ans.by_proxy || ans.where->line > 0))
		e->origin = ans.where;
	if (ans.text[0])
		e->rule_text = xstrdup(ans.text);
}

static bool unix_under_hosts(const sb_tracer *t, const entry *e)
{
	return !strcmp(e->path, "AF_UNIX") && t->cfg.bound &&
	       sb_egress_filtered(&t->cfg.bound->egress);
}

static void classify(sb_tracer *t, entry *e, const char *origin)
{
	const sb_rule *r = NULL;
	if (origin && e->access != SB_ACC_CONNECT && set_origin(t, e, origin)) {
		/* the platform named the rule: it decided, whatever our model says */
		e->rule_text = sb_origin_line_text(e->origin);
		return;
	}
	if (e->access == SB_ACC_CONNECT) {
		classify_connect(t, e);
		return;
	}
	if (e->platform_only && e->detail)
		return;   /* refused whatever the policy says: no rule decided */
	if (e->access == SB_ACC_NETWORK && unix_under_hosts(t, e)) {
		/* no rule of the policy: the egress namespace refuses every
		 * UNIX socket (a pathname one would bypass the proxy) */
		e->platform_only = true;
		e->detail = xstrdup(
			"with host rules every UNIX-domain socket is refused: one would bypass the "
			"egress proxy (docs/egress.md); glibc's probe of nscd's socket, made at "
			"each start of a shell or git, is refused harmlessly and falls back to "
			"/etc/passwd");
		return;
	}
	if (e->access == SB_ACC_NETWORK) {
		r = t->cfg.bound ? network_rule(t->cfg.bound) : NULL;
	} else if (t->ev) {
		sb_decision dec = sb_eval_decide(t->ev, op_of(e->access), e->path,
					    e->access == SB_ACC_LIST ? SB_VNODE_DIRECTORY : 0);
		if (dec.kind == SB_DEC_DENY)
			r = dec.rule;
		else
			e->platform_only = true;
	}
	if (!r)
		return;
	e->origin = r->origin;
	e->rule_text = sb_origin_line_text(r->origin);
}

/* ---- live reports ---- */

static bool take_token(sb_tracer *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double dt = (double)(now.tv_sec - t->last.tv_sec) + (now.tv_nsec - t->last.tv_nsec) / 1e9;
	t->last = now;
	t->tokens += dt * t->cfg.per_second;
	if (t->tokens > t->cfg.burst)
		t->tokens = t->cfg.burst;
	if (t->tokens < 1)
		return false;
	t->tokens -= 1;
	return true;
}

void sb_tracer_denied(sb_tracer *t, const sb_denial *d)
{
	t->counts.denied++;
	size_t plen = strlen(d->path);
	char *key = xmalloc(plen + 2);
	key[0] = (char)('a' + d->access);
	memcpy(key + 1, d->path, plen + 1);
	void **slot = sb_strmap_slot(t->seen, key, plen + 1, false);
	if (slot && *slot) {
		((entry *)*slot)->count++;
		free(key);
		return;
	}
	if (t->n >= t->cfg.max_distinct) {
		t->counts.suppressed++;   /* past the cap: counted, not kept */
		free(key);
		return;
	}
	entry *e = xcalloc(1, sizeof *e);
	e->access = d->access;
	e->path = xstrdup(d->path);
	e->process = d->process ? xstrdup(d->process) : NULL;
	e->pid = d->pid;
	e->count = 1;
	e->platform_only = d->platform_only;
	e->absent = d->absent;
	e->link_source = d->access == SB_ACC_WRITE && d->syscall &&
			 (!strcmp(d->syscall, "link") || !strcmp(d->syscall, "linkat"));
	e->port = d->port;
	e->detail = d->detail ? xstrdup(d->detail) : NULL;
	classify(t, e, d->origin);
	*sb_strmap_slot(t->seen, key, plen + 1, true) = e;
	free(key);
	SB_GROW(t->v, t->n, t->cap, 16);
	t->v[t->n++] = e;
	t->counts.distinct++;
	if (!t->cfg.out)
		return;
	if (!take_token(t)) {
		t->counts.suppressed++;
		return;
	}
	t->counts.reported++;
	/* One write a report, so it does not interleave with what the
	 * sandboxed tools write to the same stderr.  */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = xopen_memstream(&buf, &len);
	sb_den_report(t, e, d->syscall, m);
	fclose(m);
	fwrite(buf, 1, len, t->cfg.out);
	fflush(t->cfg.out);
	free(buf);
}

void sb_tracer_lost(sb_tracer *t, size_t n)
{
	t->counts.lost += n;
}

sb_tracer_counts sb_tracer_counts_get(const sb_tracer *t)
{
	return t->counts;
}

void sb_tracer_unobserved(sb_tracer *t, const char *what)
{
	if (t->nunobserved < SB_TRACER_MAX_UNOBSERVED)
		t->unobserved[t->nunobserved++] = what;
}
