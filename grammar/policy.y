/* policy.y - grammar of the policy language (.sbx).  Reference and EBNF:
 * docs/language.md (keep the two in step).  Actions only call the
 * constructors of parse_ctx.h; semantic checks live in the check passes.
 * Recovery: a bad statement is skipped up to its ";" so one run reports
 * every error of the file.  */
%require "3.8"
%define api.pure full
%define api.prefix {sbx_yy}
%define api.token.prefix {TK_}
%define api.location.type {sb_loc}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%param {yyscan_t scanner}
%parse-param {struct sbx_pctx *ctx}

%code requires {
#include "compiler/common/diag.h"
#include "compiler/front/parse_ctx.h"
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif
}

%code {
#include <stdlib.h>
#include <string.h>
#include "policy_lexer.h"

/* Locations span from the first to the last non-empty symbol of a rule,
 * so `read /x;` (no action) starts at `read`, not at the end of the
 * previous statement.  An empty symbol has zero width (col == end_col);
 * every token is at least one byte wide.  */
#define SBX_LOC_EMPTY(L) ((L).line == (L).end_line && (L).col == (L).end_col)
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                     \
	do {                                                            \
		if (N) {                                                \
			int first_ = 1;                                 \
			while (first_ < (N) && SBX_LOC_EMPTY(YYRHSLOC(Rhs, first_))) \
				first_++;                               \
			(Cur) = YYRHSLOC(Rhs, first_);                  \
			(Cur).end_line = YYRHSLOC(Rhs, N).end_line;     \
			(Cur).end_col = YYRHSLOC(Rhs, N).end_col;       \
		} else {                                                \
			(Cur) = YYRHSLOC(Rhs, 0);                       \
			(Cur).line = (Cur).end_line;                    \
			(Cur).col = (Cur).end_col;                      \
		}                                                       \
	} while (0)

static void sbx_yyerror(sb_loc *loc, yyscan_t scanner, struct sbx_pctx *ctx, const char *msg);
}

%initial-action {
	@$.file = ctx->file;
	@$.line = @$.end_line = 1;
	@$.col = @$.end_col = 1;
}

%union {
	char *str;
	unsigned num;
	sbx_target *target;
	sbx_tvec *tvec;
	sbx_ack *ack;
	sbx_hvec *hvec;
}

%token ALLOW "allow" DENY "deny" DEFAULT "default" NETWORK "network" ON "on" OFF "off"
%token INCLUDE "include" LIST "list" PRESET "preset" EXACTLY "exactly" ACKNOWLEDGE "acknowledge"
%token READ "read" WRITE "write" STAT_ONLY "stat-only" EXEC "exec"
%token SENSITIVE "sensitive" WIDE "wide"
%token <str> ROOT "root name" ABSPATH "absolute path" TILDEPATH "~ path"
%token <str> ROOTPATH "root path" VARPATH "$name" STRING "string"
%token SEMI ";"

%type <num> action opt_action access accesses kind kinds
%type <target> target path
%type <tvec> targets opt_targets
%type <ack> opt_ack
%type <hvec> hosts

%destructor { free($$); } <str>
%destructor { sbx_target_free($$); } <target>
%destructor { sbx_tvec_free($$); } <tvec>
%destructor { sbx_ack_free($$); } <ack>
%destructor { sbx_hvec_free($$); } <hvec>
%destructor { (void)$$; } <num>

%%

policy
	: %empty
	| policy stmt
	;

stmt
	: "default" action ";"            { sbx_ctx_span(ctx, @$);
	                                    sbx_ctx_default(ctx, (sb_action)$2, @1); }
	| "network" "on" ";"              { sbx_ctx_span(ctx, @$); sbx_ctx_network(ctx, true, @1); }
	| "network" "off" ";"             { sbx_ctx_span(ctx, @$); sbx_ctx_network(ctx, false, @1); }
	| "network" action hosts ";"      { sbx_ctx_span(ctx, @$);
	                                    sbx_ctx_hosts(ctx, (sb_action)$2, $3, @1); }
	| "include" STRING ";"            { sbx_ctx_include(ctx, $2, @2); }
	| "list" VARPATH ";"              { sbx_ctx_span(ctx, @$); sbx_ctx_list(ctx, $2, @2); }
	| "preset" STRING ";"             { sbx_ctx_preset(ctx, $2, @2); }
	| opt_action accesses opt_targets opt_ack ";"
	                                  { sbx_ctx_span(ctx, @$);
	                                    sbx_ctx_rule(ctx, (sb_action)$1, $2, $3, $4, @$); }
	| error ";"                       { yyerrok; }
	;

action
	: "allow"                         { $$ = SB_ALLOW; }
	| "deny"                          { $$ = SB_DENY; }
	;

opt_action
	: %empty                          { $$ = SB_ALLOW; }
	| action                          { $$ = $1; }
	;

accesses
	: access                          { $$ = $1; }
	| accesses access                 { $$ = $1 | $2; }
	;

access
	: "read"                          { $$ = SBX_ACC_READ; }
	| "write"                         { $$ = SBX_ACC_WRITE; }
	| "stat-only"                     { $$ = SBX_ACC_STAT; }
	| "exec"                          { $$ = SBX_ACC_EXEC; }
	;

hosts
	: STRING                          { $$ = sbx_hvec_add(NULL, $1, @1); }
	| hosts STRING                    { $$ = sbx_hvec_add($1, $2, @2); }
	;

opt_targets
	: %empty                          { $$ = NULL; }
	| targets                         { $$ = $1; }
	;

targets
	: target                          { $$ = sbx_tvec_add(NULL, $1); }
	| targets target                  { $$ = sbx_tvec_add($1, $2); }
	;

target
	: path                            { $$ = $1; }
	| "exactly" path                  { $$ = $2; $$->exact = true; $$->loc = @$; }
	;

path
	: ABSPATH                         { $$ = sbx_ctx_target(ctx, SBX_PT_ABS, $1, @1); }
	| STRING                          { $$ = sbx_ctx_target(ctx, SBX_PT_QUOTED, $1, @1); }
	| TILDEPATH                       { $$ = sbx_ctx_target(ctx, SBX_PT_TILDE, $1, @1); }
	| ROOT                            { $$ = sbx_ctx_target(ctx, SBX_PT_ROOT, $1, @1); }
	| ROOTPATH                        { $$ = sbx_ctx_target(ctx, SBX_PT_ROOT, $1, @1); }
	| VARPATH                         { $$ = sbx_ctx_target(ctx, SBX_PT_VAR, $1, @1); }
	;

opt_ack
	: %empty                          { $$ = NULL; }
	| "acknowledge" kinds STRING      { $$ = sbx_ack_new($2, $3, @$); }
	;

kinds
	: kind                            { $$ = $1; }
	| kinds kind                      { $$ = $1 | $2; }
	;

kind
	: "sensitive"                     { $$ = SBX_ACK_SENSITIVE; }
	| "wide"                          { $$ = SBX_ACK_WIDE; }
	;

%%

static void sbx_yyerror(sb_loc *loc, yyscan_t scanner, struct sbx_pctx *ctx, const char *msg)
{
	(void)scanner;
	sbx_ctx_error(ctx, loc, "syntax", "%s", msg);
}

/* Names of token kinds as users read them: keywords quoted, token
 * classes described.  */
static const char *sbx_symbol_text(yysymbol_kind_t k, char *buf, size_t size)
{
	switch (k) {
	case YYSYMBOL_YYEOF: return "end of file";
	case YYSYMBOL_YYerror: return "error";
	case YYSYMBOL_YYUNDEF: return "invalid token";
	case YYSYMBOL_ROOT: return "a root name";
	case YYSYMBOL_ABSPATH: return "an absolute path";
	case YYSYMBOL_TILDEPATH: return "a ~ path";
	case YYSYMBOL_ROOTPATH: return "a root path";
	case YYSYMBOL_VARPATH: return "a $name";
	case YYSYMBOL_STRING: return "a string";
	default: break;
	}
	/* with parse.error custom, names come without their quotes */
	const char *n = yysymbol_name(k);
	size_t len = strlen(n);
	if (len >= 2 && n[0] == '"')
		snprintf(buf, size, "'%.*s'", (int)(len - 2), n + 1);
	else
		snprintf(buf, size, "'%s'", n);
	return buf;
}

/* "unexpected X, expecting A, B or C" plus a hint for the common slips.  */
static int yyreport_syntax_error(const yypcontext_t *yyctx, yyscan_t scanner, struct sbx_pctx *ctx)
{
	(void)scanner;
	enum { MAX = 32, LISTED = 5 };
	yysymbol_kind_t exp[MAX];
	int n = yypcontext_expected_tokens(yyctx, exp, MAX);
	yysymbol_kind_t got = yypcontext_token(yyctx);
	const sb_loc *loc = yypcontext_location(yyctx);
	char buf[512], name[32];
	size_t k = 0;
	bool wants_semi = false;
	for (int i = 0; i < n; i++)
		if (exp[i] == YYSYMBOL_SEMI)
			wants_semi = true;
	k += (size_t)snprintf(buf + k, sizeof buf - k, "unexpected %s",
			      sbx_symbol_text(got, name, sizeof name));
	/* the six path token kinds read as one: "a path" */
	static const yysymbol_kind_t path_kinds[] = {
		YYSYMBOL_ABSPATH, YYSYMBOL_STRING, YYSYMBOL_TILDEPATH,
		YYSYMBOL_ROOT, YYSYMBOL_ROOTPATH, YYSYMBOL_VARPATH,
	};
	int npath = 0;
	for (int i = 0; i < n; i++)
		for (size_t j = 0; j < sizeof path_kinds / sizeof path_kinds[0]; j++)
			if (exp[i] == path_kinds[j])
				npath++;
	bool group = npath == (int)(sizeof path_kinds / sizeof path_kinds[0]);
	const char *words[MAX];
	char names[MAX][32];
	int nw = 0;
	if (group)
		words[nw++] = "a path";
	for (int i = 0; i < n; i++) {
		bool is_path = false;
		for (size_t j = 0; j < sizeof path_kinds / sizeof path_kinds[0]; j++)
			if (exp[i] == path_kinds[j])
				is_path = true;
		if (group && is_path)
			continue;
		words[nw] = sbx_symbol_text(exp[i], names[nw], sizeof names[nw]);
		nw++;
	}
	if (nw > 0 && nw <= LISTED) {
		k += (size_t)snprintf(buf + k, sizeof buf - k, ", expecting ");
		for (int i = 0; i < nw; i++)
			k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s",
					      i == 0 ? "" : i == nw - 1 ? " or " : ", ", words[i]);
	}
	if (wants_semi && got == YYSYMBOL_YYEOF)
		snprintf(buf + k, sizeof buf - k, " (statements end with ';')");
	else if (wants_semi)
		snprintf(buf + k, sizeof buf - k, " (missing ';' after the previous statement?)");
	sbx_ctx_error(ctx, loc, "syntax", "%s", buf);
	return 0;
}
