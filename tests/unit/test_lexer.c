/* Unit tests for the policy scanner (grammar/policy.l): tokens, values,
 * locations, and located lexical errors.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend_util.h"
#include "compiler/front/parse_ctx.h"
#include "policy_parser.h"
#include "policy_lexer.h"

typedef struct {
	int tok;
	SBX_YYSTYPE val;
	sb_loc loc;
} lexed;

/* Scan `len` bytes into at most `max` tokens (stopping after EOF).  */
static int scan(const char *text, size_t len, lexed *out, int max, fe_run *r)
{
	fe_open(r);
	sbx_pctx c = {.d = r->d, .file = sb_diag_intern(r->d, "t.sbx"), .line = 1, .col = 1};
	c.origin = c.file;
	sb_diag_add_source(r->d, c.file, text, len);
	yyscan_t s;
	cr_assert(eq(int, sbx_yylex_init_extra(&c, &s), 0));
	YY_BUFFER_STATE b = sbx_yy_scan_bytes(text, (int)len, s);
	int n = 0;
	while (n < max) {
		memset(&out[n], 0, sizeof out[n]);
		out[n].tok = sbx_yylex(&out[n].val, &out[n].loc, s);
		if (out[n++].tok == TK_YYEOF)
			break;
	}
	sbx_yy_delete_buffer(b, s);
	sbx_yylex_destroy(s);
	r->errors = c.nerrors;
	fe_diag(r);
	return n;
}

static bool has_str(int tok)
{
	return tok == TK_ABSPATH || tok == TK_TILDEPATH || tok == TK_ROOTPATH || tok == TK_VARPATH ||
	       tok == TK_STRING || tok == TK_ROOT;
}

static void free_vals(lexed *t, int n)
{
	for (int i = 0; i < n; i++)
		if (has_str(t[i].tok))
			free(t[i].val.str);
}

Test(lexer, keywords_and_punctuation)
{
	const char *src = "default allow; deny read write stat-only exec exactly acknowledge sensitive wide network on off include list;";
	lexed t[32];
	fe_run r;
	int n = scan(src, strlen(src), t, 32, &r);
	int want[] = {TK_DEFAULT, TK_ALLOW, TK_SEMI, TK_DENY, TK_READ, TK_WRITE, TK_STAT_ONLY,
		      TK_EXEC, TK_EXACTLY, TK_ACKNOWLEDGE, TK_SENSITIVE, TK_WIDE, TK_NETWORK,
		      TK_ON, TK_OFF, TK_INCLUDE, TK_LIST, TK_SEMI, TK_YYEOF};
	cr_assert(eq(int, n, (int)(sizeof want / sizeof want[0])));
	for (int i = 0; i < n; i++)
		cr_expect(eq(int, t[i].tok, want[i]), "token %d", i);
	cr_assert(eq(int, r.errors, 0));
	free_vals(t, n);
	fe_done(&r);
}

Test(lexer, path_tokens_and_values)
{
	const char *src = "/usr/lib ~ ~/.omp home workspace/.git/hooks $EXTRA_READ $HOME/x \"/a b\"";
	lexed t[16];
	fe_run r;
	int n = scan(src, strlen(src), t, 16, &r);
	cr_assert(eq(int, n, 9));
	int want[] = {TK_ABSPATH, TK_TILDEPATH, TK_TILDEPATH, TK_ROOT, TK_ROOTPATH, TK_VARPATH,
		      TK_VARPATH, TK_STRING, TK_YYEOF};
	const char *vals[] = {"/usr/lib", "~", "~/.omp", "home", "workspace/.git/hooks",
			      "EXTRA_READ", "HOME/x", "/a b"};
	for (int i = 0; i < n; i++) {
		cr_expect(eq(int, t[i].tok, want[i]), "token %d", i);
		if (i < 8)
			cr_expect(eq(str, t[i].val.str, (char *)vals[i]), "value %d", i);
	}
	free_vals(t, n);
	fe_done(&r);
}

Test(lexer, locations_track_lines_and_columns)
{
	const char *src = "# comment\n  default allow;\n\tread /x;";
	lexed t[8];
	fe_run r;
	int n = scan(src, strlen(src), t, 8, &r);
	cr_assert(eq(int, n, 7));
	cr_expect(eq(int, t[0].loc.line, 2));
	cr_expect(eq(int, t[0].loc.col, 3));
	cr_expect(eq(int, t[0].loc.end_col, 10), "end is exclusive");
	cr_expect(eq(int, t[3].loc.line, 3));
	cr_expect(eq(int, t[3].loc.col, 2));
	cr_expect(eq(int, t[4].loc.col, 7));
	/* EOF points just after the last token */
	cr_expect(eq(int, t[6].loc.line, 3));
	cr_expect(eq(int, t[6].loc.col, 10));
	cr_expect(eq(str, (char *)t[6].loc.file, "t.sbx"));
	free_vals(t, n);
	fe_done(&r);
}

Test(lexer, eof_after_trailing_newlines_points_at_last_token)
{
	const char *src = "read /x\n\n\n# end\n";
	lexed t[8];
	fe_run r;
	int n = scan(src, strlen(src), t, 8, &r);
	cr_assert(eq(int, t[n - 1].tok, TK_YYEOF));
	cr_expect(eq(int, t[n - 1].loc.line, 1));
	cr_expect(eq(int, t[n - 1].loc.col, 8));
	free_vals(t, n);
	fe_done(&r);
}

Test(lexer, string_escapes)
{
	const char *src = "\"/a\\\"b\\\\c\"";
	lexed t[4];
	fe_run r;
	int n = scan(src, strlen(src), t, 4, &r);
	cr_assert(eq(int, t[0].tok, TK_STRING));
	cr_assert(eq(str, t[0].val.str, "/a\"b\\c"));
	cr_assert(eq(int, r.errors, 0));
	free_vals(t, n);
	fe_done(&r);
}

Test(lexer, unknown_escape_is_a_located_error)
{
	const char *src = "read \"/a\\nb\";";
	lexed t[8];
	fe_run r;
	int n = scan(src, strlen(src), t, 8, &r);
	cr_assert(eq(int, t[1].tok, TK_SBX_YYerror));
	cr_assert(eq(int, r.errors, 1));
	cr_assert(eq(str, r.diag,
		     "t.sbx:1:6: error: unknown escape '\\n' in string (only \\\\ and \\\" are allowed) [syntax]\n"
		     "  read \"/a\\nb\";\n"
		     "       ^~~~~~~\n"),
		  "%s", r.diag);
	free_vals(t, n);
	fe_done(&r);
}

Test(lexer, unterminated_string)
{
	const char *src = "read \"/abc\nwrite /x;";
	lexed t[8];
	fe_run r;
	int n = scan(src, strlen(src), t, 8, &r);
	cr_assert(eq(int, t[1].tok, TK_SBX_YYerror));
	/* scanning goes on on the next line */
	cr_assert(eq(int, t[2].tok, TK_WRITE));
	cr_assert(eq(int, t[2].loc.line, 2));
	cr_assert(not(eq(ptr, strstr(r.diag, "t.sbx:1:6: error: unterminated string"), NULL)), "%s", r.diag);
	free_vals(t, n);
	fe_done(&r);
}

Test(lexer, nul_and_control_bytes_are_errors)
{
	const char src[] = "read\0/x;\x01;";
	lexed t[8];
	fe_run r;
	int n = scan(src, sizeof src - 1, t, 8, &r);
	cr_assert(eq(int, t[1].tok, TK_SBX_YYerror));
	cr_assert(eq(int, r.errors, 2), "%s", r.diag);
	cr_assert(not(eq(ptr, strstr(r.diag, "t.sbx:1:5: error: unexpected NUL byte"), NULL)), "%s", r.diag);
	cr_assert(not(eq(ptr, strstr(r.diag, "t.sbx:1:9: error: unexpected control character 0x01"), NULL)), "%s", r.diag);
	free_vals(t, n);
	fe_done(&r);
}

Test(lexer, unknown_word_with_suggestion)
{
	const char *src = "raed; Allow; frobnicate";
	lexed t[8];
	fe_run r;
	int n = scan(src, strlen(src), t, 8, &r);
	cr_assert(eq(int, r.errors, 3));
	cr_assert(not(eq(ptr, strstr(r.diag, "t.sbx:1:1: error: unknown word 'raed'; did you mean 'read'?"), NULL)), "%s", r.diag);
	cr_assert(not(eq(ptr, strstr(r.diag, "t.sbx:1:7: error: unknown word 'Allow'; did you mean 'allow'?"), NULL)), "%s", r.diag);
	cr_assert(not(eq(ptr, strstr(r.diag, "t.sbx:1:14: error: unknown word 'frobnicate' [syntax]"), NULL)), "%s", r.diag);
	free_vals(t, n);
	fe_done(&r);
}

Test(lexer, suggestions)
{
	cr_assert(eq(str, (char *)sbx_suggest_keyword("wirte"), "write"));
	cr_assert(eq(str, (char *)sbx_suggest_keyword("stat_only"), "stat-only"));
	cr_assert(eq(ptr, (void *)sbx_suggest_keyword("foo"), NULL));
	cr_assert(eq(ptr, (void *)sbx_suggest_keyword("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"), NULL));
}

Test(lexer, dollar_without_name)
{
	const char *src = "$ $1; $";
	lexed t[8];
	fe_run r;
	int n = scan(src, strlen(src), t, 8, &r);
	cr_assert(eq(int, t[0].tok, TK_SBX_YYerror));
	/* one error per statement: '$', then (after ';') the last '$' */
	cr_assert(eq(int, r.errors, 2), "%s", r.diag);
	free_vals(t, n);
	fe_done(&r);
}

Test(lexer, one_lexical_error_per_statement)
{
	const char *src = "read /a\x01" "b @ \"x\\q\";\nwrite @;";
	lexed t[16];
	fe_run r;
	int n = scan(src, strlen(src), t, 16, &r);
	cr_assert(eq(int, r.errors, 2), "%s", r.diag);
	cr_assert(not(eq(ptr, strstr(r.diag, "t.sbx:1:8: error: unexpected control character 0x01"), NULL)), "%s", r.diag);
	cr_assert(not(eq(ptr, strstr(r.diag, "t.sbx:2:7: error: unexpected character '@'"), NULL)), "%s", r.diag);
	free_vals(t, n);
	fe_done(&r);
}

Test(lexer, huge_token)
{
	size_t n = 1 << 20;
	char *src = malloc(n + 1);
	src[0] = '/';
	memset(src + 1, 'a', n - 1);
	src[n] = '\0';
	lexed t[4];
	fe_run r;
	int k = scan(src, n, t, 4, &r);
	cr_assert(eq(int, t[0].tok, TK_ABSPATH));
	cr_assert(eq(sz, strlen(t[0].val.str), n));
	cr_assert(eq(int, t[1].tok, TK_YYEOF));
	free_vals(t, k);
	fe_done(&r);
	free(src);
}

Test(lexer, non_ascii_in_paths_only)
{
	const char *src = "/Users/j\xc3\xb6rg \xc3\xb6";
	lexed t[4];
	fe_run r;
	int n = scan(src, strlen(src), t, 4, &r);
	cr_assert(eq(int, t[0].tok, TK_ABSPATH));
	cr_assert(eq(int, t[1].tok, TK_SBX_YYerror));
	cr_assert(eq(int, r.errors, 1));
	free_vals(t, n);
	fe_done(&r);
}

/* A relative path has nothing to be resolved against: located errors that
 * say what a path may be, with a rewrite when one is obvious.  */
Test(lexer, relative_paths_say_what_a_path_is)
{
	const char *src = "allow write caches/npm;\nallow write ./x;\nallow read ../up;\n"
			  "allow read notes.txt;\nallow read .;\nallow write home/ok;";
	lexed t[32];
	fe_run r;
	int n = scan(src, strlen(src), t, 32, &r);
	cr_assert(eq(int, r.errors, 5), "%s", r.diag);
	static const char *const want[] = {
		"t.sbx:1:13: error: relative path 'caches/npm': paths are absolute, `~/...` or one "
		"of the roots (home, workspace, tmpdir); e.g. workspace/caches/npm or ~/caches/npm",
		"t.sbx:2:13: error: relative path './x': paths are absolute, `~/...` or one of the "
		"roots (home, workspace, tmpdir); e.g. workspace/x or ~/x",
		"t.sbx:3:12: error: relative path '../up': paths are absolute, `~/...` or one of the "
		"roots (home, workspace, tmpdir) [",
		"t.sbx:4:12: error: relative path 'notes.txt'",
		"t.sbx:5:12: error: relative path '.': paths are absolute",
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		cr_assert(not(eq(ptr, strstr(r.diag, want[i]), NULL)), "missing %s in\n%s", want[i], r.diag);
	cr_assert(eq(int, t[n - 3].tok, TK_ROOTPATH), "home/ok stays a root path");
	free_vals(t, n);
	fe_done(&r);
}
