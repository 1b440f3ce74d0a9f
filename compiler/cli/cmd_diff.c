/* cmd_diff.c - sbc diff: the semantic difference of two profiles.
 *
 * Both inputs (.sbx compiled in memory, or .sb read back) are bound with the
 * same params and decided at every probe (probe.h) for every modelled
 * operation.  Changes are grouped by (old deciding rule, new deciding rule)
 * and, inside a group, operations with the same changed paths are merged.
 * Rules for unmodelled operations (mach-lookup, ...) and unmodelled forms
 * are compared as text.  Exit status: 0 no change, 1 only narrowing,
 * 2 any widening (including "might now be allowed"), 3 error.  */
#include <stdint.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cli/cmds.h"
#include "compiler/cli/query_opts.h"
#include "compiler/common/diag.h"
#include "compiler/eval/egress_eval.h"
#include "compiler/eval/eval.h"
#include "compiler/ir/ir.h"
#include "compiler/eval/probe.h"
#include "compiler/driver/sbpl_load.h"
#include "compiler/sbpl/sbpl_read.h"
#include "compiler/common/cmdline.h"
#include "compiler/common/exit_status.h"
#include "compiler/common/json.h"
#include "compiler/common/strmap.h"
#include "compiler/common/xalloc.h"

enum { MAX_SHOWN_PATHS = 16 };

/* One changed (op, path) probe.  */
typedef struct change {
	sb_op op;
	size_t path;                 /* index into the probe set */
	sb_decision_kind old_kind, new_kind;
	const sb_rule *old_rule, *new_rule;
} change;

typedef struct changes {
	change *v;
	size_t n, cap;
} changes;

static void add_change(changes *c, change ch)
{
	SB_GROW(c->v, c->n, c->cap, 64);
	c->v[c->n++] = ch;
}

/* Operation, then probe: the order changes are reported in.  */
static int change_cmp(const void *a, const void *b)
{
	const change *x = a, *y = b;
	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	return x->path < y->path ? -1 : x->path > y->path;
}

static bool is_widening(sb_decision_kind old, sb_decision_kind new_)
{
	return (new_ == SB_DEC_ALLOW && old != SB_DEC_ALLOW) || (old == SB_DEC_DENY && new_ == SB_DEC_UNKNOWN);
}

static const char *change_word(sb_decision_kind old, sb_decision_kind new_)
{
	if (new_ == SB_DEC_ALLOW)
		return "newly allowed";
	if (new_ == SB_DEC_DENY)
		return "newly denied";
	return old == SB_DEC_DENY ? "possibly allowed now (unknown)" : "no longer surely allowed (unknown)";
}

static const char *kind_word(sb_decision_kind k)
{
	return k == SB_DEC_ALLOW ? "allow" : k == SB_DEC_DENY ? "deny" : "unknown";
}

/* ---- unmodelled parts compared as text ---- */

enum { TX_ALLOW, TX_DENY, TX_FORM };

typedef struct text_item {
	char *text;
	int kind;                   /* TX_*: a rule's action, or a form */
	const sb_loc *loc;
} text_item;

typedef struct text_set {
	text_item *v;
	size_t n, cap;
} text_set;

static void text_add(text_set *s, char *text, int kind, const sb_loc *loc)
{
	SB_GROW(s->v, s->n, s->cap, 16);
	s->v[s->n++] = (text_item){ text, kind, loc };
}

/* Rules naming unmodelled operations, reduced to those operations, and
 * non-definition unmodelled forms.  */
static void collect_text(const sb_profile *p, text_set *s)
{
	for (size_t i = 0; i < p->nrules; i++) {
		const sb_rule *r = p->rules[i];
		sb_rule *reduced = NULL;
		for (size_t k = 0; k < r->nops; k++) {
			if (r->ops[k] != SB_OP_OTHER)
				continue;
			if (!reduced) {
				reduced = sb_rule_new(r->action, r->loc);
				for (size_t j = 0; j < r->nfilters; j++)
					sb_rule_add_filter(reduced, sb_filter_clone(r->filters[j]));
			}
			sb_rule_add_op(reduced, SB_OP_OTHER, r->op_names ? r->op_names[k] : NULL);
		}
		if (reduced) {
			text_add(s, sb_sbpl_rule_text(reduced), r->action == SB_ALLOW ? TX_ALLOW : TX_DENY, &r->loc);
			sb_rule_free(reduced);
		}
	}
	for (size_t i = 0; i < p->nunmodelled; i++) {
		char *t = xstrdup(p->unmodelled[i].text);
		text_add(s, t, TX_FORM, &p->unmodelled[i].loc);
	}
}

static bool text_has(const text_set *s, const char *t)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].text, t))
			return true;
	return false;
}

static void text_set_clear(text_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].text);
	free(s->v);
}

/* ---- output ---- */

typedef struct diff_ctx {
	const sb_probes *probes;
	const changes *ch;
	bool json;
	bool first_json;
	FILE *out;
} diff_ctx;

static void rule_line_text(FILE *f, const char *side, sb_decision_kind k, const sb_rule *r)
{
	fprintf(f, "  %s: %s", side, kind_word(k));
	if (!r) {
		fputs(k == SB_DEC_ALLOW ? " (no rule and no default)\n" : "\n", f);
		return;
	}
	char *t = sb_sbpl_rule_text(r);
	fprintf(f, " by %s", t);
	free(t);
	if (r->loc.file && r->loc.line)
		fprintf(f, " at %s:%d", r->loc.file, r->loc.line);
	if (r->call_name && r->call_loc.line)
		fprintf(f, " (in %s, called at %s:%d)", r->call_name, r->call_loc.file, r->call_loc.line);
	if (r->origin)
		fprintf(f, " (policy %s:%d)", r->origin->file, r->origin->line);
	fputc('\n', f);
}

static void rule_json(FILE *f, sb_decision_kind k, const sb_rule *r)
{
	fputs("{\"decision\":", f);
	sb_json_string(f, kind_word(k));
	fputs(",\"rule\":", f);
	if (r) {
		char *t = sb_sbpl_rule_text(r);
		sb_json_string(f, t);
		free(t);
		fputs(",\"file\":", f);
		sb_json_string(f, r->loc.file);
		fprintf(f, ",\"line\":%d,\"policy_file\":", r->loc.line);
		if (r->origin)
			sb_json_string(f, r->origin->file);
		else
			fputs("null", f);
		fprintf(f, ",\"policy_line\":%d,\"call\":", r->origin ? r->origin->line : 0);
		if (r->call_name && r->call_loc.line) {
			fputs("{\"name\":", f);
			sb_json_string(f, r->call_name);
			fputs(",\"file\":", f);
			sb_json_string(f, r->call_loc.file);
			fprintf(f, ",\"line\":%d}}", r->call_loc.line);
		} else {
			fputs("null}", f);
		}
	} else {
		fputs("null}", f);
	}
}

static void print_ops(FILE *f, const sb_op *ops, size_t n);

/* Print the group of changes idx[0..n) sharing (kinds, rules).  Changes
 * come in (op, path) order, so the group is a series of per-op runs; runs
 * with the same paths are merged into one line listing their ops.  */
static void print_group(diff_ctx *x, const size_t *idx, size_t n)
{
	const change *c0 = &x->ch->v[idx[0]];
	size_t starts[SB_OP__COUNT], counts[SB_OP__COUNT], nruns = 0;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || x->ch->v[idx[i]].op != x->ch->v[idx[i - 1]].op) {
			starts[nruns] = i;
			counts[nruns++] = 0;
		}
		counts[nruns - 1]++;
	}
	bool done[SB_OP__COUNT] = { false };
	for (size_t r = 0; r < nruns; r++) {
		if (done[r])
			continue;
		sb_op ops[SB_OP__COUNT];
		size_t nops = 0;
		for (size_t q = r; q < nruns; q++) {
			bool same = !done[q] && counts[q] == counts[r];
			for (size_t k = 0; same && k < counts[r]; k++)
				same = x->ch->v[idx[starts[q] + k]].path == x->ch->v[idx[starts[r] + k]].path;
			if (same) {
				done[q] = true;
				ops[nops++] = x->ch->v[idx[starts[q]]].op;
			}
		}
		const size_t *paths = idx + starts[r];
		size_t count = counts[r];
		if (x->json) {
			fputs(x->first_json ? "\n  " : ",\n  ", x->out);
			x->first_json = false;
			fputs("{\"change\":", x->out);
			sb_json_string(x->out, change_word(c0->old_kind, c0->new_kind));
			fprintf(x->out, ",\"widening\":%s,\"operations\":[",
				is_widening(c0->old_kind, c0->new_kind) ? "true" : "false");
			for (size_t k = 0; k < nops; k++) {
				fputs(k ? "," : "", x->out);
				sb_json_string(x->out, sb_op_name(ops[k]));
			}
			fputs("],\"paths\":[", x->out);
			for (size_t k = 0; k < count; k++) {
				fputs(k ? "," : "", x->out);
				sb_json_string(x->out, x->probes->paths[x->ch->v[paths[k]].path]);
			}
			fputs("],\"old\":", x->out);
			rule_json(x->out, c0->old_kind, c0->old_rule);
			fputs(",\"new\":", x->out);
			rule_json(x->out, c0->new_kind, c0->new_rule);
			fputc('}', x->out);
		} else {
			fprintf(x->out, "%s:", change_word(c0->old_kind, c0->new_kind));
			print_ops(x->out, ops, nops);
			fputs("\n  paths:", x->out);
			if (count == x->probes->n) {
				fprintf(x->out, " every probed path (%zu)", count);
			} else {
				size_t shown = count > MAX_SHOWN_PATHS ? MAX_SHOWN_PATHS : count;
				for (size_t k = 0; k < shown; k++)
					fprintf(x->out, " %s", x->probes->paths[x->ch->v[paths[k]].path]);
				if (shown < count)
					fprintf(x->out, " ... and %zu more (--format=json lists all)", count - shown);
			}
			fputc('\n', x->out);
			rule_line_text(x->out, "old", c0->old_kind, c0->old_rule);
			rule_line_text(x->out, "new", c0->new_kind, c0->new_rule);
		}
	}
}

static bool descends(sb_op o, sb_op ancestor)
{
	for (sb_op x = sb_op_parent(o); x != SB_OP_DEFAULT; x = sb_op_parent(x))
		if (x == ancestor)
			return true;
	return false;
}

/* "file-write* and the 10 operations under it, file-read-data": an op
 * whose whole subtree is listed stands for it.  */
static void print_ops(FILE *f, const sb_op *ops, size_t n)
{
	bool in[SB_OP__COUNT] = { false }, shown[SB_OP__COUNT] = { false };
	for (size_t i = 0; i < n; i++)
		in[ops[i]] = true;
	const char *sep = " ";
	for (size_t i = 0; i < n; i++) {
		sb_op o = ops[i];
		if (shown[o])
			continue;
		size_t under = 0;
		bool whole = true;
		for (int k = 0; k < SB_OP_OTHER; k++)
			if (descends((sb_op)k, o)) {
				under++;
				whole = whole && in[k];
			}
		fprintf(f, "%s%s", sep, sb_op_name(o));
		sep = ", ";
		if (under && whole) {
			fprintf(f, " and the %zu operation%s under it", under, under == 1 ? "" : "s");
			for (int k = 0; k < SB_OP_OTHER; k++)
				if (descends((sb_op)k, o))
					shown[k] = true;
		}
		shown[o] = true;
	}
}

/* The group key of a change: changes with the same kinds and the same
 * rules deciding them are shown together.  The fields as bytes.  */
static size_t group_key(const change *c, char *k)
{
	size_t n = 0;
	memcpy(k + n, &c->old_kind, sizeof c->old_kind);
	n += sizeof c->old_kind;
	memcpy(k + n, &c->new_kind, sizeof c->new_kind);
	n += sizeof c->new_kind;
	memcpy(k + n, &c->old_rule, sizeof c->old_rule);
	n += sizeof c->old_rule;
	memcpy(k + n, &c->new_rule, sizeof c->new_rule);
	return n + sizeof c->new_rule;
}

static void print_changes(diff_ctx *x)
{
	size_t n = x->ch->n;
	/* Groups (group_key) numbered in first-seen order through a map, and
	 * their members listed by a counting sort: a scan of the later changes
	 * for each group was quadratic (10^4 changes in 10^3 groups).  */
	size_t *group = xcalloc(n ? n : 1, sizeof *group), ngroups = 0;
	size_t *first = xcalloc(n ? n : 1, sizeof *first);
	sb_strmap *seen = sb_strmap_new();
	for (size_t i = 0; i < n; i++) {
		char k[2 * sizeof(sb_decision_kind) + 2 * sizeof(const sb_rule *)];
		void **v = sb_strmap_slot(seen, k, group_key(&x->ch->v[i], k), true);
		if (!*v) {
			first[ngroups] = i;
			*v = (void *)(uintptr_t)++ngroups;
		}
		group[i] = (size_t)(uintptr_t)*v - 1;
	}
	sb_strmap_free(seen);
	size_t *start = xcalloc(ngroups + 1, sizeof *start);
	for (size_t i = 0; i < n; i++)
		start[group[i] + 1]++;
	for (size_t g = 0; g < ngroups; g++)
		start[g + 1] += start[g];
	size_t *idx = xcalloc(n ? n : 1, sizeof *idx), *fill = xcalloc(ngroups + 1, sizeof *fill);
	for (size_t i = 0; i < n; i++)
		idx[start[group[i]] + fill[group[i]]++] = i;
	/* Widening groups first, then narrowing; each in first-seen order. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t g = 0; g < ngroups; g++) {
			const change *c = &x->ch->v[first[g]];
			if (is_widening(c->old_kind, c->new_kind) != (pass == 0))
				continue;
			print_group(x, idx + start[g], start[g + 1] - start[g]);
		}
	free(group);
	free(first);
	free(start);
	free(idx);
	free(fill);
}

/* ---- host rules ---- */

/* Destinations that tell two egress lists apart: each pattern's host (for
 * "*.x" a name below x and x itself, for "*" a sample name, for a range its
 * network address), at the pattern's port, else 443 and 80.  */
static void host_probes(const sb_egress *e, sb_dest **v, size_t *n)
{
	size_t cap = *n;   /* *v holds *n already, exactly or more */
	for (size_t i = 0; i < e->n; i++) {
		const sb_egress_rule *r = &e->v[i];
		if (r->all)
			continue;
		char *t = NULL, *t2 = NULL;
		switch (r->pat.kind) {
		case SB_HOST_ANY: t = xstrdup("sbx-probe.example"); break;
		case SB_HOST_NAME: t = xstrdup(r->pat.name); break;
		case SB_HOST_SUFFIX:
			t = xasprintf("sbx-probe.%s", r->pat.name);
			t2 = xstrdup(r->pat.name);
			break;
		case SB_HOST_IP: {
			sb_host_pat ip = r->pat;
			ip.port = 0;
			ip.prefix = ip.family == 6 ? 128 : 32;
			ip.name = NULL;
			t = sb_host_pat_text(&ip);
			break;
		}
		}
		const char *names[2] = { t, t2 };
		int ports[2] = { r->pat.port ? r->pat.port : 443, r->pat.port ? 0 : 80 };
		for (int a = 0; a < 2; a++)
			for (int b = 0; b < 2 && names[a]; b++) {
				if (!ports[b])
					continue;
				sb_dest d;
				const char *why;
				if (sb_dest_parse(names[a], ports[b], &d, &why) < 0)
					continue;
				bool dup = false;
				for (size_t k = 0; k < *n && !dup; k++)
					dup = !strcmp((*v)[k].host, d.host) && (*v)[k].port == d.port;
				if (dup)
					continue;
				SB_GROW(*v, *n, cap, 8);
				(*v)[(*n)++] = d;
			}
		free(t);
		free(t2);
	}
}

/* Changes of the egress decision; returns SB_EXIT_DIFF_* like compare_text.  */
static int compare_hosts(const sb_profile *a, const sb_profile *b, diff_ctx *x)
{
	sb_dest *v = xcalloc(1, sizeof *v);
	size_t n = 0;
	const char *why;
	/* a name no rule names: what "every other host" gets */
	if (sb_dest_parse("sbx-probe.example", 443, &v[0], &why) == 0)
		n = 1;
	host_probes(&a->egress, &v, &n);
	host_probes(&b->egress, &v, &n);
	int rc = SB_EXIT_DIFF_SAME;
	for (size_t i = 0; i < n; i++) {
		sb_egress_answer pa, pb;
		sb_egress_answer_for(a, &v[i], &pa);
		sb_egress_answer_for(b, &v[i], &pb);
		if (pa.allowed == pb.allowed) {
			sb_egress_answer_clear(&pa);
			sb_egress_answer_clear(&pb);
			continue;
		}
		bool widen = pb.allowed;
		rc = widen ? SB_EXIT_DIFF_WIDER : (rc == SB_EXIT_DIFF_SAME ? SB_EXIT_DIFF_NARROWER : rc);
		bool v6 = v[i].is_ip && v[i].family == 6;
		if (x->json) {
			fprintf(x->out, "%s\n{\"widening\":%s,\"connect\":{\"host\":", x->first_json ? "" : ",",
				widen ? "true" : "false");
			x->first_json = false;
			sb_json_string(x->out, v[i].host);
			fprintf(x->out, ",\"port\":%d},\"old\":", v[i].port);
			sb_json_string(x->out, pa.text);
			fputs(",\"new\":", x->out);
			sb_json_string(x->out, pb.text);
			fputc('}', x->out);
		} else {
			fprintf(x->out, "%s: connect %s%s%s:%d\n", widen ? "newly allowed" : "newly denied",
				v6 ? "[" : "", v[i].host, v6 ? "]" : "", v[i].port);
			fprintf(x->out, "  old: %s by %s%s%s\n", pa.allowed ? "allow" : "deny",
				pa.origin, *pa.origin ? ": " : "", pa.text);
			fprintf(x->out, "  new: %s by %s%s%s\n", pb.allowed ? "allow" : "deny",
				pb.origin, *pb.origin ? ": " : "", pb.text);
		}
		sb_egress_answer_clear(&pa);
		sb_egress_answer_clear(&pb);
	}
	free(v);
	return rc;
}

/* Has unmodelled forms other than inert ones (ir.h).  */
static bool has_forms(const sb_profile *p)
{
	for (size_t i = 0; i < p->nunmodelled; i++)
		if (p->unmodelled[i].kind != SB_UNMODELLED_INERT)
			return true;
	return false;
}

typedef struct diff_opts {
	const char *old_file, *new_file;
	sb_query_opts q;   /* -D, --sample, --format */
} diff_opts;

static void diff_usage(FILE *f)
{
	fputs("usage: sbc diff OLD NEW [-D NAME=VALUE]... [--sample] [--format=text|json]\n"
	      "\n"
	      "Compare two policies (.sbx) or profiles (.sb) by their decisions: for every\n"
	      "operation, the paths whose decision changed, with the deciding rules on both\n"
	      "sides.  Formatting and order changes that decide the same give no output.\n"
	      "Params are bound as sbrun would bind them on this machine (see sbc explain\n"
	      "--help); --sample binds the documented sample values instead.\n"
	      "\n"
	      "exit status: 0 no change, 1 only narrowing, 2 any widening, 3 error.\n", f);
}

static int parse_diff_args(diff_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		SB_QOPT_LONG,
		{ NULL, 0, NULL, 0 },
	};
	sb_getopt_reset();
	for (int c; (c = getopt_long(argc, argv, SB_QOPT_SHORT, longopts, NULL)) != -1;) {
		int shared = sb_query_opt(&o->q, "diff", c, argv);
		if (shared < 0)
			return SB_EXIT_DIFF_ERROR;
		if (c == 'h') {
			diff_usage(stdout);
			return 0;
		}
	}
	if (optind < argc)
		o->old_file = argv[optind++];
	if (optind < argc)
		o->new_file = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "sbc diff: error: two inputs only ('%s')\n", argv[optind]);
		return SB_EXIT_DIFF_ERROR;
	}
	if (!o->new_file) {
		fprintf(stderr, "sbc diff: error: give OLD and NEW\n");
		diff_usage(stderr);
		return SB_EXIT_DIFF_ERROR;
	}
	return -1;
}

/* Compare the unmodelled parts; returns DX_* for them and prints notes.  */
static int compare_text(const sb_profile *a, const sb_profile *b, diff_ctx *x)
{
	text_set ta = { 0 }, tb = { 0 };
	collect_text(a, &ta);
	collect_text(b, &tb);
	int rc = SB_EXIT_DIFF_SAME;
	for (int side = 0; side < 2; side++) {
		const text_set *from = side ? &ta : &tb, *other = side ? &tb : &ta;
		for (size_t i = 0; i < from->n; i++) {
			if (text_has(other, from->v[i].text))
				continue;
			/* An added allow, a removed deny, any changed form: may widen. */
			int k = from->v[i].kind;
			bool widen = k == TX_FORM || (side == 0 ? k == TX_ALLOW : k == TX_DENY);
			rc = widen ? SB_EXIT_DIFF_WIDER : (rc == SB_EXIT_DIFF_SAME ? SB_EXIT_DIFF_NARROWER : rc);
			const char *what = side == 0 ? "added" : "removed";
			if (x->json) {
				fputs(x->first_json ? "\n  " : ",\n  ", x->out);
				x->first_json = false;
				fputs("{\"change\":", x->out);
				sb_json_string(x->out, side == 0 ? "unmodelled added" : "unmodelled removed");
				fprintf(x->out, ",\"widening\":%s,\"text\":", widen ? "true" : "false");
				sb_json_string(x->out, from->v[i].text);
				fputs(",\"file\":", x->out);
				sb_json_string(x->out, from->v[i].loc->file);
				fprintf(x->out, ",\"line\":%d}", from->v[i].loc->line);
			} else {
				fprintf(x->out, "%s (not evaluated, %s): %s at %s:%d\n", what,
					widen ? "may widen" : "narrows", from->v[i].text,
					from->v[i].loc->file ? from->v[i].loc->file : "?", from->v[i].loc->line);
			}
		}
	}
	text_set_clear(&ta);
	text_set_clear(&tb);
	return rc;
}

int sb_cmd_diff(int argc, char **argv)
{
	diff_opts o = { 0 };
	int rc = parse_diff_args(&o, argc, argv);
	if (rc >= 0) {
		sb_bindings_clear(&o.q.defs);
		return rc;
	}
	rc = SB_EXIT_DIFF_ERROR;
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_diag_set_tool(d, "sbc");
	sb_diag_auto_colour(d, getenv("NO_COLOR"));   /* colour on a terminal unless NO_COLOR */
	sb_profile *a = sb_load_profile(o.old_file, &o.q.defs, d);
	sb_profile *b = a ? sb_load_profile(o.new_file, &o.q.defs, d) : NULL;
	sb_bindings used = { 0 }, samples = { 0 };
	sb_profile *ba = NULL, *bb = NULL;
	sb_probes probes = { 0 };
	changes ch = { 0 };
	if (!a || !b)
		goto out;
	sb_eval_bindings(a, &o.q.defs, &used, &samples);
	sb_eval_bindings(b, &o.q.defs, &used, &samples);
	const sb_profile *both[2] = { a, b };
	if (!o.q.sample && sb_cli_bind_machine(both, 2, &used, &samples, d) != 0)
		goto out;
	ba = sb_profile_bind(a, &used, NULL, NULL);
	bb = sb_profile_bind(b, &used, NULL, NULL);
	sb_probes_add_profile(&probes, ba);
	sb_probes_add_profile(&probes, bb);
	sb_probes_add_system(&probes);
	sb_probes_add_bindings(&probes, &used);
	sb_probes_finish(&probes);


	unsigned vnodes[9] = { 0 };
	size_t nvnodes = 1;
	if (probes.vnode_masks) {
		nvnodes = 0;
		for (unsigned bit = 0; bit < 8; bit++)
			vnodes[nvnodes++] = 1u << bit;
	}
	bool widen = false, narrow = false;
	/* every probe asks each profile ~40 questions: index the rules once,
	 * ask per probe, and sort the changes into (operation, probe) order */
	/* Unmodelled forms (import, macro calls) make every decision unknown on
	 * their side, which would hide every rule change: compare what the
	 * modelled rules decide, and the forms themselves as text below.  */
	sb_eval *ia = sb_eval_new(ba, SB_EVAL_IGNORE_UNMODELLED);
	sb_eval *ib = sb_eval_new(bb, SB_EVAL_IGNORE_UNMODELLED);
	/* per probe: every operation at once, for each vnode type */
	sb_decision (*dec_a)[SB_OP__COUNT] = xcalloc(nvnodes, sizeof *dec_a);
	sb_decision (*dec_b)[SB_OP__COUNT] = xcalloc(nvnodes, sizeof *dec_b);
	for (size_t i = 0; i < probes.n; i++) {
		for (size_t v = 0; v < nvnodes; v++) {
			sb_eval_decide_every_op(ia, probes.paths[i], vnodes[v], dec_a[v]);
			sb_eval_decide_every_op(ib, probes.paths[i], vnodes[v], dec_b[v]);
		}
		for (int op = SB_OP_FILE_ALL; op < SB_OP_OTHER; op++) {
			/* With vnode filters, a probe changes when any type changes;
			 * the first changing type is reported. */
			for (size_t v = 0; v < nvnodes; v++) {
				const sb_decision da = dec_a[v][op], db = dec_b[v][op];
				if (da.kind == db.kind)
					continue;
				add_change(&ch, (change){ (sb_op)op, i, da.kind, db.kind, da.rule, db.rule });
				if (is_widening(da.kind, db.kind))
					widen = true;
				else
					narrow = true;
				break;
			}
		}
	}
	free(dec_a);
	free(dec_b);
	if (ch.n)
		qsort(ch.v, ch.n, sizeof *ch.v, change_cmp);
	sb_eval_free(ia);
	sb_eval_free(ib);

	diff_ctx x = { &probes, &ch, o.q.json, true, stdout };
	if (o.q.json)
		fputs("{\"changes\":[", stdout);
	print_changes(&x);
	int trc = compare_text(ba, bb, &x);
	if (trc == SB_EXIT_DIFF_WIDER)
		widen = true;
	else if (trc == SB_EXIT_DIFF_NARROWER)
		narrow = true;
	int hrc = compare_hosts(ba, bb, &x);
	if (hrc == SB_EXIT_DIFF_WIDER)
		widen = true;
	else if (hrc == SB_EXIT_DIFF_NARROWER)
		narrow = true;
	rc = widen ? SB_EXIT_DIFF_WIDER : narrow ? SB_EXIT_DIFF_NARROWER : SB_EXIT_DIFF_SAME;
	if (o.q.json) {
		fprintf(stdout, "%s],\"widening\":%s,\"narrowing\":%s,\"probes\":%zu,\"bindings\":\"%s\",\"params\":{",
			x.first_json ? "" : "\n", widen ? "true" : "false", narrow ? "true" : "false", probes.n,
			o.q.sample ? "sample" : "machine");
		for (size_t i = 0; i < used.n; i++) {
			fputs(i ? "," : "", stdout);
			sb_json_string(stdout, used.v[i].name);
			fputs(":[", stdout);
			for (size_t k = 0; k < used.v[i].nvalues; k++) {
				fputs(k ? "," : "", stdout);
				sb_json_string(stdout, used.v[i].values[k]);
			}
			fputc(']', stdout);
		}
		fputs("}}\n", stdout);
	} else if (rc != SB_EXIT_DIFF_SAME) {
		if (has_forms(ba) || has_forms(bb))
			printf("note: decisions compare the modelled rules only; forms sbc does not evaluate "
			       "(import, macro calls, ...) are compared as text\n");
		printf("summary: %s (%zu probes", widen ? "widening" : "narrowing only", probes.n);
		for (size_t i = 0; i < samples.n; i++)
			if (samples.v[i].nvalues == 1)
				printf(", %s=%s sample", samples.v[i].name, samples.v[i].values[0]);
		printf("; bindings: %s)\n", o.q.sample ? "the documented samples" : "this machine, as sbrun would bind them");
	}
out:
	sb_diag_flush(d);
	free(ch.v);
	sb_probes_clear(&probes);
	sb_profile_free(ba);
	sb_profile_free(bb);
	sb_profile_free(a);
	sb_profile_free(b);
	sb_bindings_clear(&used);
	sb_bindings_clear(&samples);
	sb_bindings_clear(&o.q.defs);
	sb_diag_free(d);
	return rc;
}
