/* sbc_main.c - the sbc driver: compile, check, dump, and the explain/diff
 * subcommands.  Usage in usage() below and in docs/language.md.  */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include "compiler/front/ast.h"
#include "compiler/check/check.h"
#include "compiler/cli/cmds.h"
#include "compiler/common/diag.h"
#include "compiler/sbpl/emit_sbpl.h"
#include "compiler/ir/ir.h"
#include "compiler/common/path.h"
#include "compiler/common/cmdline.h"
#include "compiler/common/exit_status.h"
#include "compiler/common/xalloc.h"


static void usage(FILE *out)
{
	fputs("usage: sbc [options] POLICY.sbx [-o OUT.sb]\n"
	      "       sbc --check [options] POLICY.sbx...\n"
	      "       sbc explain POLICY.sbx|PROFILE.sb --op OP --path PATH [-D NAME=VALUE]...\n"
	      "       sbc diff OLD NEW [-D NAME=VALUE]...\n"
	      "\n"
	      "Compile a policy (.sbx) into an Apple SBPL profile, or check policies.\n"
	      "\n"
	      "options:\n"
	      "  -o FILE            write the profile to FILE (atomically; '-' or no -o: stdout)\n"
	      "  -D NAME=VALUE      bind param NAME at compile time (HOME, WORKSPACE, TMPDIR,\n"
	      "                     a $NAME param, or a list as a ':'-separated value)\n"
	      "  --check            parse, check and lower each FILE; write no profile\n"
	      "  -Werror            treat warnings as errors\n"
	      "  --format=FMT       diagnostics as text (default), json or sarif; with\n"
	      "                     --check the json/sarif report goes to stdout (or -o FILE)\n"
	      "                     and the text form to stderr\n"
	      "  --dump-ast         print the parsed policy (includes spliced) and stop\n"
	      "  --dump-ir          print the lowered profile IR and stop\n"
	      "  --help, --version\n"
	      "\n"
	      "exit status: 0 success; 1 errors in a policy (or warnings with -Werror),\n"
	      "or the output could not be written; 2 usage error.\n"
	      "Language reference: docs/language.md.\n",
	      out);
}

/* -D NAME=VALUE */
static bool add_define(sbx_defines *defs, const char *arg)
{
	const char *why = sb_bindings_parse_define(defs, arg);
	if (why)
		fprintf(stderr, "sbc: error: -D '%s': %s\n", arg, why);
	return !why;
}

static void dump_str(const sb_str *s, FILE *out)
{
	switch (s->kind) {
	case SB_STR_LIT:
		fprintf(out, "\"%s\"", s->text);
		break;
	case SB_STR_PARAM: {
		char *spelling = sb_param_spelling(&s->param);
		fprintf(out, "$%s", spelling);
		free(spelling);
		break;
	}
	case SB_STR_APPEND:
		for (size_t i = 0; i < s->nparts; i++) {
			fputs(i ? " + " : "", out);
			dump_str(s->parts[i], out);
		}
		break;
	}
}

static void dump_ir(const sb_profile *p, FILE *out)
{
	for (size_t i = 0; i < p->nrules; i++) {
		const sb_rule *r = p->rules[i];
		fprintf(out, "%zu %s:%d %s", i, r->origin ? r->origin->file : "?", r->origin ? r->origin->line : 0,
			r->action == SB_ALLOW ? "allow" : "deny");
		for (size_t j = 0; j < r->nops; j++)
			fprintf(out, " %s", sb_op_name(r->ops[j]));
		for (size_t j = 0; j < r->nfilters; j++) {
			const sb_filter *f = r->filters[j];
			fprintf(out, " [%s ", f->kind == SB_F_LITERAL ? "literal" : f->kind == SB_F_SUBPATH ? "subpath" : "filter");
			if (f->arg)
				dump_str(f->arg, out);
			fputc(']', out);
		}
		fputc('\n', out);
	}
}

typedef struct {
	const char *out;
	bool check, dump_ast, dump_ir, werror;
	sb_diag_format fmt;
	sbx_defines defs;
	char **files;
	size_t nfiles;
} options;

static void put_rule(void *w, const sb_rule *r)
{
	sb_sbpl_stream_rule(w, r);
}

/* Parse, check, lower (and emit unless checking).  Returns an exit status.  */
static int run_one(const options *o, const char *file, sb_diag *d)
{
	sbx_policy *pol = sbx_parse(file, NULL, 0, d);
	if (!pol)
		return SB_EXIT_FAILURE;
	if (o->dump_ast) {
		sbx_policy_dump(pol, stdout);
		sbx_policy_free(pol);
		return SB_EXIT_OK;
	}
	int before = sb_diag_errors(d);
	sb_check_all(pol, &o->defs, d);
	if (sb_diag_errors(d) > before) {
		sbx_policy_free(pol);
		return SB_EXIT_FAILURE;
	}
	if (o->dump_ir) {
		sb_profile *prof = sbx_lower(pol, &o->defs, d);
		sbx_policy_free(pol);
		if (!prof)
			return SB_EXIT_FAILURE;
		dump_ir(prof, stdout);
		sb_profile_free(prof);
		return SB_EXIT_OK;
	}
	/* Each rule is written as the lowering makes it and forgotten: the
	 * profile of a large policy is never whole in memory (with --check it
	 * is emitted too, for the refusals, and dropped).  */
	const char *out = o->check ? NULL : o->out ? o->out : "-";
	sb_sbpl_stream *w = sb_sbpl_stream_new(out, getenv("TMPDIR"));
	sbx_rule_sink sink = {w, put_rule};
	sb_profile *prof = sbx_lower_stream(pol, &o->defs, d, &sink);
	sbx_policy_free(pol);
#if defined(__GLIBC__)
	/* The parsed policy is many small blocks below later ones, which
	 * glibc keeps; give their pages back (bench/analysis.md, section 1).  */
	malloc_trim(0);
#endif
	int rc = prof ? SB_EXIT_OK : SB_EXIT_FAILURE;
	int written = prof ? sb_sbpl_stream_finish(w, prof, d) : 0;
	if (written < 0)
		sb_diag_report(d, SB_SEV_ERROR, NULL, "io", "cannot write '%s': %s", out,
			       strerror(errno));
	if (written)
		rc = SB_EXIT_FAILURE;
	sb_sbpl_stream_free(w);
	sb_profile_free(prof);
	return rc;
}

int main(int argc, char **argv)
{
	/* subcommands: cmd_explain.c, cmd_diff.c (cmds.h); their argv[0] is
	 * the subcommand's name, as getopt_long expects. */
	if (argc > 1 && !strcmp(argv[1], "explain"))
		return sb_cmd_explain(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "diff"))
		return sb_cmd_diff(argc - 1, argv + 1);

	options o = {.fmt = SB_FMT_TEXT};
	int rc = SB_EXIT_OK;
	enum { OPT_CHECK = 256, OPT_DUMP_AST, OPT_DUMP_IR, OPT_FORMAT, OPT_VERSION };
	static const struct option longopts[] = {
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "dump-ast", no_argument, NULL, OPT_DUMP_AST },
		{ "dump-ir", no_argument, NULL, OPT_DUMP_IR },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	char msg[256];
	sb_getopt_reset();
	/* -W takes "error" as its argument: -Werror. */
	for (int c; (c = getopt_long(argc, argv, ":ho:D:W:", longopts, NULL)) != -1;) {
		switch (c) {
		case 'h':
			usage(stdout);
			goto out;
		case OPT_VERSION:
			printf("sbc %s\n", SB_VERSION);
			goto out;
		case 'o':
			o.out = optarg;
			break;
		case 'D':
			if (!add_define(&o.defs, optarg)) {
				rc = SB_EXIT_USAGE;
				goto out;
			}
			break;
		case 'W':
			if (strcmp(optarg, "error") != 0) {
				fprintf(stderr, "sbc: error: unknown option '-W%s' (see sbc --help)\n", optarg);
				rc = SB_EXIT_USAGE;
				goto out;
			}
			o.werror = true;
			break;
		case OPT_CHECK:
			o.check = true;
			break;
		case OPT_DUMP_AST:
			o.dump_ast = true;
			break;
		case OPT_DUMP_IR:
			o.dump_ir = true;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "text"))
				o.fmt = SB_FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				o.fmt = SB_FMT_JSON;
			else if (!strcmp(optarg, "sarif"))
				o.fmt = SB_FMT_SARIF;
			else {
				fprintf(stderr, "sbc: error: unknown format '%s' (text, json or sarif)\n", optarg);
				rc = SB_EXIT_USAGE;
				goto out;
			}
			break;
		default:
			fprintf(stderr, "sbc: error: %s (see sbc --help)\n", sb_getopt_problem(c, argv, msg, sizeof msg));
			rc = SB_EXIT_USAGE;
			goto out;
		}
	}
	o.files = argv + optind;
	o.nfiles = (size_t)(argc - optind);
	if (o.nfiles == 0 || (!o.check && o.nfiles > 1)) {
		fprintf(stderr, o.nfiles ? "sbc: error: one policy file per compile (use --check for several)\n"
					 : "sbc: error: no policy file given\n");
		usage(stderr);
		rc = SB_EXIT_USAGE;
		goto out;
	}
	if (o.check && o.out && o.fmt == SB_FMT_TEXT) {
		fprintf(stderr, "sbc: error: --check writes nothing in text form; drop -o (or "
				"write a report with --format=json or --format=sarif)\n");
		rc = SB_EXIT_USAGE;
		goto out;
	}

	/* --check --format=json|sarif: the report is the output, on stdout
	 * or -o FILE (atomically), as linters write it; the text form stays
	 * on stderr for the person at the terminal.  When compiling, stdout
	 * holds the profile and the report goes to stderr.  */
	char *report = NULL;
	size_t report_len = 0;
	FILE *report_stream = NULL;
	sb_diag *d = sb_diag_new(stderr, o.fmt);
	if (o.check && o.fmt != SB_FMT_TEXT) {
		report_stream = xopen_memstream(&report, &report_len);
		sb_diag_set_report(d, report_stream);
	}
	sb_diag_set_tool(d, "sbc");
	sb_diag_auto_colour(d, getenv("NO_COLOR"));
	sb_diag_set_werror(d, o.werror);
	for (size_t i = 0; i < o.nfiles; i++)
		if (run_one(&o, o.files[i], d) != SB_EXIT_OK)
			rc = SB_EXIT_FAILURE;
	if (sb_diag_errors(d))
		rc = SB_EXIT_FAILURE;
	sb_diag_flush(d);
	if (report_stream) {
		fclose(report_stream);
		const char *dest = o.out ? o.out : "-";
		if (sb_write_atomic(dest, report, report_len) != 0) {
			fprintf(stderr, "sbc: error: cannot write '%s': %s\n", dest, strerror(errno));
			rc = SB_EXIT_FAILURE;
		}
		free(report);
	}
	sb_diag_free(d);
out:
	sb_bindings_clear(&o.defs);
	return rc;
}
