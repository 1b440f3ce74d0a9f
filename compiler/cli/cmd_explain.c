/* cmd_explain.c - sbc explain: decide one (operation, path) question and
 * say which rule (and which policy line) decided it.
 *
 * Exit status: 0 allow, 1 deny, 2 unknown, 3 error (bad arguments or an
 * input that does not load).  */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cli/cmds.h"
#include "compiler/cli/query_opts.h"
#include "compiler/common/diag.h"
#include "compiler/common/sizes.h"
#include "compiler/eval/eval.h"
#include "compiler/ir/ir.h"
#include "compiler/common/path.h"
#include "compiler/driver/sbpl_load.h"
#include "compiler/sbpl/sbpl_read.h"
#include "compiler/common/cmdline.h"
#include "compiler/common/exit_status.h"
#include "compiler/common/json.h"
#include "compiler/common/xalloc.h"
#include "compiler/eval/egress_eval.h"


typedef struct explain_opts {
	const char *input;
	const char *op_name;
	const char *path_arg;
	const char *vnode_name;
	const char *host_arg;        /* --host NAME[:PORT] */
	sb_query_opts q;   /* -D, --sample, --format */
} explain_opts;

static void explain_usage(FILE *f)
{
	fputs("usage: sbc explain POLICY.sbx|PROFILE.sb --op OP --path PATH [--vnode TYPE]\n"
	      "                   [-D NAME=VALUE]... [--sample] [--format=text|json]\n"
	      "       sbc explain POLICY.sbx|PROFILE.sb --host NAME[:PORT] [--format=text|json]\n"
	      "\n"
	      "Decide whether the profile allows OP on PATH under Seatbelt's model and\n"
	      "name the deciding rule and, for profiles made by sbc, the policy line.\n"
	      "OP: an SBPL operation (file-read-data, file-write*, ...) or read, write,\n"
	      "stat, list, exec, create, delete.  PATH is absolute; it may start with ~,\n"
	      "$HOME, $WORKSPACE or $TMPDIR.  TYPE: regular-file, directory, symlink, ...\n"
	      "Params are bound as sbrun would bind them on this machine: home from\n"
	      "the user database, the current directory (or OMP_SANDBOX_WORKSPACE) as the\n"
	      "workspace, TMPDIR, OMP_SANDBOX_EXTRA_* and OMP_SANDBOX_TOOLS; -D overrides.\n"
	      "--sample binds the documented sample values instead: HOME=" SB_SAMPLE_HOME ",\n"
	      "WORKSPACE=" SB_SAMPLE_WORKSPACE ", TMPDIR=" SB_SAMPLE_TMPDIR ", lists empty,\n"
	      "tool presets on.\n"
	      "--host: decide a connection to NAME (a host name or an IP literal; PORT\n"
	      "443 when not given) by the profile's host rules, as sbrun's egress proxy\n"
	      "does; the addresses a name resolves to are checked at launch only.\n"
	      "\n"
	      "exit status: 0 allow, 1 deny, 2 unknown, 3 error.\n", f);
}

/* Returns -1 to continue, else an exit status.  */
static int parse_args(explain_opts *o, int argc, char **argv)
{
	enum { OPT_OP = SB_QOPT__NEXT, OPT_PATH, OPT_VNODE, OPT_HOST };
	static const struct option longopts[] = {
		SB_QOPT_LONG,
		{ "op", required_argument, NULL, OPT_OP },
		{ "path", required_argument, NULL, OPT_PATH },
		{ "vnode", required_argument, NULL, OPT_VNODE },
		{ "host", required_argument, NULL, OPT_HOST },
		{ NULL, 0, NULL, 0 },
	};
	sb_getopt_reset();
	for (int c; (c = getopt_long(argc, argv, SB_QOPT_SHORT, longopts, NULL)) != -1;) {
		int shared = sb_query_opt(&o->q, "explain", c, argv);
		if (shared < 0)
			return SB_EXIT_EXPLAIN_ERROR;
		if (shared > 0)
			continue;
		switch (c) {
		case 'h':
			explain_usage(stdout);
			return 0;
		case OPT_OP:
			o->op_name = optarg;
			break;
		case OPT_PATH:
			o->path_arg = optarg;
			break;
		case OPT_VNODE:
			o->vnode_name = optarg;
			break;
		case OPT_HOST:
			o->host_arg = optarg;
			break;
		}
	}
	if (optind < argc)
		o->input = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "sbc explain: error: one input only ('%s')\n", argv[optind]);
		return SB_EXIT_EXPLAIN_ERROR;
	}
	if (o->host_arg && (o->op_name || o->path_arg || o->vnode_name)) {
		fprintf(stderr, "sbc explain: error: --host asks about a connection: without --op, "
				"--path or --vnode\n");
		return SB_EXIT_EXPLAIN_ERROR;
	}
	if (o->input && o->host_arg)
		return -1;
	if (!o->input || !o->op_name || !o->path_arg) {
		fprintf(stderr, "sbc explain: error: %s\n",
			!o->input ? "no policy or profile given" : !o->op_name ? "--op is required" : "--path is required");
		explain_usage(stderr);
		return SB_EXIT_EXPLAIN_ERROR;
	}
	return -1;
}

static const char *kind_word(sb_decision_kind k)
{
	return k == SB_DEC_ALLOW ? "allow" : k == SB_DEC_DENY ? "deny" : "unknown";
}

static void print_loc_json(FILE *f, const sb_loc *l)
{
	fputs("{\"file\":", f);
	sb_json_string(f, l->file);
	fprintf(f, ",\"line\":%d,\"col\":%d}", l->line, l->col);
}

static void print_rule_json(FILE *f, const sb_rule *r)
{
	if (!r) {
		fputs("null", f);
		return;
	}
	char *text = sb_sbpl_rule_text(r);
	fputs("{\"text\":", f);
	sb_json_string(f, text);
	fputs(",\"at\":", f);
	print_loc_json(f, &r->loc);
	fputs(",\"call\":", f);
	if (r->call_name && r->call_loc.line) {
		fputs("{\"name\":", f);
		sb_json_string(f, r->call_name);
		fputs(",\"at\":", f);
		print_loc_json(f, &r->call_loc);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fputs(",\"policy\":", f);
	if (r->origin) {
		fputs("{\"file\":", f);
		sb_json_string(f, r->origin->file);
		fprintf(f, ",\"line\":%d}", r->origin->line);
	} else {
		fputs("null", f);
	}
	fputc('}', f);
	free(text);
}

static void print_json(FILE *f, const explain_opts *o, sb_op op, const char *path, const char *seen,
		       const sb_decision *d, const sb_bindings *used, const sb_bindings *samples,
		       const char *link, const sb_decision *ld)
{
	fputs("{\"decision\":", f);
	sb_json_string(f, kind_word(d->kind));
	fprintf(f, ",\"bindings\":\"%s\"", o->q.sample ? "sample" : "machine");
	fputs(",\"operation\":", f);
	sb_json_string(f, sb_op_name(op));
	fputs(",\"via\":", f);
	sb_json_string(f, sb_op_name(d->via_op));
	fputc(',', f);
	sb_json_bytes_member(f, "path", ":", path);
	fputc(',', f);
	sb_json_bytes_member(f, "resolved", ":", seen);
	fputs(",\"rule\":", f);
	print_rule_json(f, d->rule);
	fputs(",\"reason\":", f);
	if (d->reason)
		sb_json_string(f, d->reason);
	else
		fputs("null", f);
	fputs(",\"unknown_what\":", f);
	if (d->unknown_what)
		sb_json_string(f, d->unknown_what);
	else
		fputs("null", f);
	fputs(",\"text_model\":", f);
	sb_json_string(f, kind_word(d->text_kind));
	fprintf(f, ",\"models_disagree\":%s,\"params\":{", d->models_disagree ? "true" : "false");
	for (size_t i = 0; i < used->n; i++) {
		const sb_binding *b = &used->v[i];
		fputs(i ? "," : "", f);
		sb_json_string(f, b->name);
		fputs(":{\"values\":[", f);
		for (size_t k = 0; k < b->nvalues; k++) {
			fputs(k ? "," : "", f);
			sb_json_string(f, b->values[k]);
		}
		fprintf(f, "],\"sample\":%s}", sb_bindings_get(samples, b->name) ? "true" : "false");
	}
	fputs("},\"symlink\":", f);
	if (link) {
		fputc('{', f);
		sb_json_bytes_member(f, "node", ":", link);
		fputs(",\"operation\":\"file-read-metadata\",\"decision\":", f);
		sb_json_string(f, kind_word(ld->kind));
		fputs(",\"rule\":", f);
		print_rule_json(f, ld->rule);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fputs(",\"input\":", f);
	sb_json_string(f, o->input);
	fputs("}\n", f);
}

static void print_rule_text(FILE *f, const char *label, const sb_rule *r, sb_op via)
{
	if (!r) {
		fprintf(f, "%s: none (no matching rule and no default: allow assumed, unverified)\n", label);
		return;
	}
	char *text = sb_sbpl_rule_text(r);
	fprintf(f, "%s: %s\n", label, text);
	free(text);
	if (strcmp(label, "rule") == 0)
		fprintf(f, "  operation level: %s\n", sb_op_name(via));
	if (r->loc.file && r->loc.line && r->call_name && r->call_loc.line)
		fprintf(f, "  at: %s:%d:%d (in the definition of %s)\n  called at: %s:%d:%d\n",
			r->loc.file, r->loc.line, r->loc.col, r->call_name,
			r->call_loc.file, r->call_loc.line, r->call_loc.col);
	else if (r->loc.file && r->loc.line)
		fprintf(f, "  at: %s:%d:%d\n", r->loc.file, r->loc.line, r->loc.col);
	if (r->origin)
		fprintf(f, "  policy: %s:%d\n", r->origin->file, r->origin->line);
}

/* The symlink a path goes through (/tmp, /var, /etc), or NULL.  */
static char *alias_link(const char *path, const char *seen)
{
	if (!strcmp(path, seen))
		return NULL;
	size_t n = strcspn(path + 1, "/") + 1;
	return xstrndup(path, n);
}

static void print_link_text(FILE *f, const char *link, const char *seen, const sb_decision *ld)
{
	fprintf(f, "note: %s is a symlink (Seatbelt checks %s); following it needs file-read-metadata on the "
		   "link %s itself: %s", link, seen, link, kind_word(ld->kind));
	if (ld->rule) {
		char *t = sb_sbpl_rule_text(ld->rule);
		fprintf(f, " by %s", t);
		free(t);
		if (ld->rule->origin)
			fprintf(f, " (policy %s:%d)", ld->rule->origin->file, ld->rule->origin->line);
	}
	if (ld->kind != SB_DEC_ALLOW)
		fputs("; access through this spelling may fail on a Mac", f);
	fputc('\n', f);
}

/* A deny of the default protection of persistence files (examples/omp.sbx,
 * docs/security-model.md "Persistence files"): a rule of a protection
 * group's file (protect/GROUP.sbx), or the launch-time git discovery
 * (the lists PROTECT_GIT, PROTECT_GIT_NODES) naming the path.  */
static void print_protect(FILE *f, const sb_decision *d, const char *seen, const sb_bindings *used)
{
	const sb_rule *r = d->rule;
	if (d->kind != SB_DEC_DENY || !r || r->action != SB_DENY)
		return;
	const char *src = r->origin ? r->origin->file : "";
	const char *grp = strstr(src, "protect/");
	if (grp && (grp == src || grp[-1] == '/')) {
		grp += strlen("protect/");
		fprintf(f, "protected: denied by protect group \"%.*s\" (%s), the default protection "
			   "of persistence files; OMP_SANDBOX_PROTECT or a later `allow write` rule "
			   "lifts it\n", (int)strcspn(grp, "."), grp, src);
		return;
	}
	static const char *const lists[] = { "PROTECT_GIT", "PROTECT_GIT_NODES" };
	for (size_t k = 0; k < 2; k++) {
		const sb_binding *b = sb_bindings_get(used, lists[k]);
		for (size_t i = 0; b && i < b->nvalues; i++) {
			bool hit = k == 0 ? sb_path_is_under(seen, b->values[i])
					  : sb_path_equal(seen, b->values[i]);
			if (hit) {
				fprintf(f, "protected: denied by protect (git discovery at launch, %s: "
					   "%s), the default protection of persistence files; "
					   "OMP_SANDBOX_PROTECT or a later `allow write` rule lifts it\n",
					lists[k], b->values[i]);
				return;
			}
		}
	}
}

static void print_text(FILE *f, sb_op op, const char *path, const char *seen, const sb_decision *d,
		       const sb_bindings *used, const sb_bindings *samples)
{
	fprintf(f, "%s: %s %s", kind_word(d->kind), sb_op_name(op), path);
	if (strcmp(path, seen))
		fprintf(f, " (seen by Seatbelt as %s)", seen);
	fputc('\n', f);
	if (d->kind == SB_DEC_UNKNOWN) {
		fprintf(f, "reason: %s", d->reason ? d->reason : "unknown");
		if (d->unknown_what)
			fprintf(f, ": %s", d->unknown_what);
		if (d->unknown_loc.file && d->unknown_loc.line)
			fprintf(f, " (%s:%d:%d)", d->unknown_loc.file, d->unknown_loc.line, d->unknown_loc.col);
		fputc('\n', f);
		if (d->rule)
			print_rule_text(f, "undecided rule", d->rule, d->via_op);
	} else {
		print_rule_text(f, "rule", d->rule, d->via_op);
		print_protect(f, d, seen, used);
	}
	if (d->models_disagree)
		fprintf(f, "note: the folk \"last matching rule\" reading says %s; Seatbelt consults the more "
			   "specific operation and filtered rules first\n", kind_word(d->text_kind));
	if (used->n) {
		fputs("params:", f);
		for (size_t i = 0; i < used->n; i++) {
			const sb_binding *b = &used->v[i];
			fprintf(f, " %s=", b->name);
			if (sb_param_is_gate_name(b->name) && b->is_list) {
				/* a preset's gate (docs/language.md, "preset") */
				fputs(b->nvalues ? "on" : "off", f);
				continue;
			}
			for (size_t k = 0; k < b->nvalues; k++)
				fprintf(f, "%s%s", k ? ":" : "", b->values[k]);
			if (b->is_list && !b->nvalues)
				fputs("(empty)", f);
			if (sb_bindings_get(samples, b->name))
				fputs(" (sample)", f);
		}
		fputc('\n', f);
	}
}

/* "NAME", "NAME:PORT", "[V6]:PORT", "V6".  */
static int parse_host_arg(const char *arg, sb_dest *dst, const char **why)
{
	char host[SB_HOST_BUF];
	int port = 443;
	const char *colon = strrchr(arg, ':');
	size_t n = strlen(arg);
	bool bare_v6 = colon && strchr(arg, ':') != colon && arg[0] != '[';
	if (colon && !bare_v6 && (arg[0] != '[' || colon[-1] == ']')) {
		char *end;
		long v = strtol(colon + 1, &end, 10);
		if (!colon[1] || *end || v < 1 || v > 65535) {
			*why = "port must be a number from 1 to 65535";
			return -1;
		}
		port = (int)v;
		n = (size_t)(colon - arg);
	}
	if (n == 0 || n >= sizeof host) {
		*why = "missing or over-long host";
		return -1;
	}
	memcpy(host, arg, n);
	host[n] = '\0';
	return sb_dest_parse(host, port, dst, why);
}

/* sbc explain --host: the egress decision, as the proxy makes it.  */
static int explain_host(const explain_opts *o)
{
	sb_dest dst;
	const char *why = NULL;
	if (parse_host_arg(o->host_arg, &dst, &why) < 0) {
		fprintf(stderr, "sbc explain: error: --host '%s': %s\n", o->host_arg, why);
		return SB_EXIT_EXPLAIN_ERROR;
	}
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_diag_set_tool(d, "sbc");
	sb_diag_auto_colour(d, getenv("NO_COLOR"));
	sb_profile *p = sb_load_profile(o->input, &o->q.defs, d);
	int rc = SB_EXIT_EXPLAIN_ERROR;
	if (!p)
		goto out;
	sb_egress_answer ans;
	sb_egress_answer_for(p, &dst, &ans);
	bool allowed = ans.allowed, by_proxy = ans.by_proxy;
	const char *rule = ans.text, *origin = ans.origin;
	if (o->q.json) {
		fputs("{\"host\":", stdout);
		sb_json_string(stdout, dst.host);
		printf(",\"port\":%d,\"decision\":\"%s\",\"by_proxy\":%s,\"rule\":", dst.port,
		       allowed ? "allow" : "deny", by_proxy ? "true" : "false");
		sb_json_string(stdout, rule);
		fputs(",\"origin\":", stdout);
		if (*origin)
			sb_json_string(stdout, origin);
		else
			fputs("null", stdout);
		fputs("}\n", stdout);
	} else {
		printf("%s: connect %s%s%s:%d\n", allowed ? "allow" : "deny",
		       dst.is_ip && dst.family == 6 ? "[" : "", dst.host,
		       dst.is_ip && dst.family == 6 ? "]" : "", dst.port);
		printf("  decided by: %s%s%s\n", *origin ? origin : "", *origin ? ": " : "", rule);
		if (by_proxy && allowed && !dst.is_ip)
			printf("  at launch, each address the name resolves to is checked too: "
			       "internal ranges need an IP/CIDR rule\n");
	}
	sb_egress_answer_clear(&ans);
	rc = allowed ? SB_EXIT_EXPLAIN_ALLOW : SB_EXIT_EXPLAIN_DENY;
out:
	sb_diag_flush(d);
	sb_profile_free(p);
	sb_diag_free(d);
	return rc;
}

int sb_cmd_explain(int argc, char **argv)
{
	explain_opts o = { 0 };
	int rc = parse_args(&o, argc, argv);
	if (rc >= 0) {
		sb_bindings_clear(&o.q.defs);
		return rc;
	}
	if (o.host_arg) {
		rc = explain_host(&o);
		sb_bindings_clear(&o.q.defs);
		return rc;
	}
	rc = SB_EXIT_EXPLAIN_ERROR;
	int op = sb_op_from_convenience(o.op_name);
	unsigned vnode = 0;
	if (op < 0)
		op = sb_op_lookup(o.op_name);
	if (op < 0 || op == SB_OP_OTHER) {
		fprintf(stderr, "sbc explain: error: %s operation '%s' (use an SBPL file operation or "
				"read, write, stat, list, exec, create, delete)\n",
			op < 0 ? "unknown" : "unmodelled", o.op_name);
		sb_bindings_clear(&o.q.defs);
		return SB_EXIT_EXPLAIN_ERROR;
	}
	if (!strcmp(o.op_name, "list"))
		vnode = SB_VNODE_DIRECTORY;
	if (o.vnode_name && !(vnode = sb_vnode_query_type(o.vnode_name))) {
		fprintf(stderr, "sbc explain: error: unknown vnode type '%s'\n", o.vnode_name);
		sb_bindings_clear(&o.q.defs);
		return SB_EXIT_EXPLAIN_ERROR;
	}

	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_diag_set_tool(d, "sbc");
	sb_diag_auto_colour(d, getenv("NO_COLOR"));   /* colour on a terminal unless NO_COLOR */
	sb_profile *p = sb_load_profile(o.input, &o.q.defs, d);
	sb_bindings used = { 0 }, samples = { 0 };
	sb_profile *bound = NULL;
	sb_eval *ev = NULL;
	char *path = NULL, *seen = NULL;
	if (!p)
		goto out;
	sb_eval_bindings(p, &o.q.defs, &used, &samples);
	if (!o.q.sample &&
	    sb_cli_bind_machine((const sb_profile *const *)&p, 1, &used, &samples, d) != 0)
		goto out;
	bound = sb_profile_bind(p, &used, NULL, NULL);
	const char *why = NULL;
	path = sb_query_path(o.path_arg, &used, &why);
	if (!path) {
		fprintf(stderr, "sbc explain: error: --path '%s': %s\n", o.path_arg, why ? why : "invalid");
		goto out;
	}
	seen = sb_path_private_alias(path);
	ev = sb_eval_new(bound, 0);
	sb_decision dec = sb_eval_decide(ev, (sb_op)op, path, vnode);
	char *link = alias_link(path, seen);
	sb_decision ld = { 0 };
	if (link)
		ld = sb_eval_decide_node(ev, SB_OP_FILE_READ_METADATA, link, SB_VNODE_SYMLINK);
	if (o.q.json) {
		print_json(stdout, &o, (sb_op)op, path, seen, &dec, &used, &samples, link, &ld);
	} else {
		print_text(stdout, (sb_op)op, path, seen, &dec, &used, &samples);
		printf("bindings: %s\n", o.q.sample ? "the documented samples (--sample)"
					 : "this machine, as sbrun would bind them (-D overrides; "
					   "--sample for the documented samples)");
		if (link)
			print_link_text(stdout, link, seen, &ld);
	}
	free(link);
	rc = dec.kind == SB_DEC_ALLOW ? SB_EXIT_EXPLAIN_ALLOW : dec.kind == SB_DEC_DENY ? SB_EXIT_EXPLAIN_DENY : SB_EXIT_EXPLAIN_UNKNOWN;
out:
	sb_diag_flush(d);
	free(path);
	free(seen);
	sb_eval_free(ev);
	sb_profile_free(bound);
	sb_profile_free(p);
	sb_bindings_clear(&used);
	sb_bindings_clear(&samples);
	sb_bindings_clear(&o.q.defs);
	sb_diag_free(d);
	return rc;
}
