/* sbpl_print.c - one-line SBPL renderings of IR rules, filters and string
 * expressions (declared in sbpl_read.h), used by sbc explain and sbc diff
 * to show deciding rules.  Reading the text back gives the same rule.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/sbpl/sbpl_read.h"
#include "compiler/common/xalloc.h"

static void put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '\\' || ch == '"')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch == '\r')
			fputs("\\r", f);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void put_str(FILE *f, const sb_str *s, bool regex)
{
	switch (s->kind) {
	case SB_STR_LIT:
		if (regex && !strchr(s->text, '"') && !strpbrk(s->text, "\n\r"))
			fprintf(f, "#\"%s\"", s->text);
		else
			put_quoted(f, s->text);
		break;
	case SB_STR_PARAM: {
		char *spelling = sb_param_spelling(&s->param);
		fputs("(param ", f);
		put_quoted(f, spelling);
		fputc(')', f);
		free(spelling);
		break;
	}
	case SB_STR_APPEND:
		fputs("(string-append", f);
		for (size_t i = 0; i < s->nparts; i++) {
			fputc(' ', f);
			put_str(f, s->parts[i], regex);
		}
		fputc(')', f);
		break;
	}
}

static void put_filter(FILE *f, const sb_filter *flt)
{
	switch (flt->kind) {
	case SB_F_LITERAL:
	case SB_F_SUBPATH:
	case SB_F_PREFIX:
	case SB_F_REGEX:
		fprintf(f, "(%s ", flt->kind == SB_F_LITERAL ? "literal" : flt->kind == SB_F_SUBPATH ? "subpath"
				   : flt->kind == SB_F_PREFIX ? "prefix" : "regex");
		put_str(f, flt->arg, flt->kind == SB_F_REGEX);
		fputc(')', f);
		break;
	case SB_F_VNODE_TYPE:
		fputs("(vnode-type", f);
		for (unsigned i = 0; i < SB_VNODE__COUNT; i++)
			if (flt->vnode_mask & (1u << i))
				fprintf(f, " %s", sb_vnode_name(i));
		fputc(')', f);
		break;
	case SB_F_REQUIRE_ALL:
	case SB_F_REQUIRE_ANY:
	case SB_F_REQUIRE_NOT:
		fprintf(f, "(%s", flt->kind == SB_F_REQUIRE_ALL ? "require-all"
			   : flt->kind == SB_F_REQUIRE_ANY ? "require-any" : "require-not");
		for (size_t i = 0; i < flt->nkids; i++) {
			fputc(' ', f);
			put_filter(f, flt->kids[i]);
		}
		fputc(')', f);
		break;
	case SB_F_OPAQUE:
		fputs(flt->opaque ? flt->opaque : "(?)", f);
		break;
	}
}

static char *render(void (*fn)(FILE *, const void *), const void *x)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = xopen_memstream(&out, &len);
	fn(f, x);
	fclose(f);
	return out;
}

static void str_fn(FILE *f, const void *x) { put_str(f, x, false); }
static void filter_fn(FILE *f, const void *x) { put_filter(f, x); }

static void rule_fn(FILE *f, const void *x)
{
	const sb_rule *r = x;
	fputs(r->action == SB_ALLOW ? "(allow" : "(deny", f);
	for (size_t i = 0; i < r->nops; i++) {
		const char *name = r->ops[i] == SB_OP_OTHER && r->op_names && r->op_names[i]
					   ? r->op_names[i] : sb_op_name(r->ops[i]);
		fprintf(f, " %s", name);
	}
	for (size_t i = 0; i < r->nfilters; i++) {
		fputc(' ', f);
		put_filter(f, r->filters[i]);
	}
	for (size_t i = 0; i < r->nmodifiers; i++)
		fprintf(f, " %s", r->modifiers[i]);
	fputc(')', f);
}

char *sb_sbpl_str_text(const sb_str *s) { return render(str_fn, s); }
char *sb_sbpl_filter_text(const sb_filter *f) { return render(filter_fn, f); }
char *sb_sbpl_rule_text(const sb_rule *r) { return render(rule_fn, r); }
