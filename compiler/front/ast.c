/* ast.c - ownership and printing of the parsed policy (ast.h).  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compiler/front/ast.h"
#include "compiler/common/sbx_text.h"
#include "compiler/common/xalloc.h"

void sbx_policy_free(sbx_policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nstmts; i++) {
		sbx_stmt *s = &p->stmts[i];
		for (size_t j = 0; j < s->ntargets; j++) {
			free(s->targets[j].name);
			free(s->targets[j].rel);
		}
		free(s->targets);
		free(s->ack_reason);
		free(s->name);
		for (size_t j = 0; j < s->nhosts; j++)
			sb_host_pat_clear(&s->hosts[j]);
		free(s->hosts);
		free(s->host_locs);
	}
	free(p->stmts);
	free(p);
}

/* A string in the quoted .sbx form (compiler/common/sbx_text.h; the AST
 * holds no control character, the parser refuses them).  */
static void dump_quoted(const char *s, FILE *out)
{
	char *q = sbx_text_quoted(s);
	fputs(q ? q : "\"\"", out);
	free(q);
}

static void dump_target(const sbx_target *t, FILE *out)
{
	static const char *const roots[] = {
		[SBX_BASE_HOME] = "home",
		[SBX_BASE_WORKSPACE] = "workspace",
		[SBX_BASE_TMPDIR] = "tmpdir",
	};
	if (t->exact)
		fputs("exactly ", out);
	char *text = NULL;
	switch (t->base) {
	case SBX_BASE_ABS:
		text = xasprintf("%s", t->rel);
		break;
	case SBX_BASE_HOME:
		text = t->rel[0] ? xasprintf("~/%s", t->rel) : xstrdup("home");
		break;
	case SBX_BASE_WORKSPACE:
	case SBX_BASE_TMPDIR:
		text = xasprintf("%s%s%s", roots[t->base], t->rel[0] ? "/" : "", t->rel);
		break;
	case SBX_BASE_PARAM:
	case SBX_BASE_LIST:
		text = xasprintf("$%s%s%s", t->name, t->rel[0] ? "/" : "", t->rel);
		break;
	}
	if (sbx_text_needs_quotes(text) && (t->base == SBX_BASE_ABS || t->base == SBX_BASE_HOME))
		dump_quoted(text, out);
	else
		fputs(text, out);
	free(text);
}

static const char *access_words[] = {"read", "write", "stat-only", "exec"};

void sbx_policy_dump(const sbx_policy *p, FILE *out)
{
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		fprintf(out, "%s:%d: ", s->origin ? s->origin->file : "?", s->loc.line);
		switch (s->kind) {
		case SBX_STMT_DEFAULT:
			fprintf(out, "default %s;\n", s->action == SB_ALLOW ? "allow" : "deny");
			break;
		case SBX_STMT_NETWORK:
			fprintf(out, "network %s;\n", s->action == SB_ALLOW ? "on" : "off");
			break;
		case SBX_STMT_LIST:
			fprintf(out, "list $%s;\n", s->name);
			break;
		case SBX_STMT_HOSTS:
			fprintf(out, "network %s", s->action == SB_ALLOW ? "allow" : "deny");
			for (size_t j = 0; j < s->nhosts; j++) {
				char *t = sb_host_pat_text(&s->hosts[j]);
				fputc(' ', out);
				dump_quoted(t, out);
				free(t);
			}
			fputs(";\n", out);
			break;
		case SBX_STMT_RULE:
			fputs(s->action == SB_ALLOW ? "allow" : "deny", out);
			for (int b = 0; b < 4; b++)
				if (s->access & (1u << b))
					fprintf(out, " %s", access_words[b]);
			for (size_t j = 0; j < s->ntargets; j++) {
				fputc(' ', out);
				dump_target(&s->targets[j], out);
			}
			if (s->acks) {
				fputs(" acknowledge", out);
				if (s->acks & SBX_ACK_SENSITIVE)
					fputs(" sensitive", out);
				if (s->acks & SBX_ACK_WIDE)
					fputs(" wide", out);
				fputc(' ', out);
				dump_quoted(s->ack_reason ? s->ack_reason : "", out);
			}
			fputs(";", out);
			if (s->preset)
				fprintf(out, "  # preset \"%s\"", s->preset);
			fputc('\n', out);
			break;
		}
	}
}
