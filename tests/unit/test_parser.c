/* Unit tests for the policy parser and parse driver (grammar/policy.y,
 * compiler/front/parse.c): the AST built, path normalisation, includes, and
 * located errors, several per run.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend_util.h"

static bool contains(const char *hay, const char *needle)
{
	return hay && strstr(hay, needle) != NULL;
}

Test(parser, omp_policy_statements)
{
	fe_run r = fe_parse("default allow;\n"
			    "deny write;\n"
			    "allow write workspace /tmp tmpdir ~/.omp $EXTRA_WRITE;\n"
			    "deny read home;\n"
			    "allow read ~/.omp workspace $EXTRA_READ;\n"
			    "allow stat-only exactly home;\n");
	cr_assert(not(eq(ptr, r.pol, NULL)), "%s", r.diag);
	sbx_policy *p = r.pol;
	cr_assert(eq(sz, p->nstmts, 6));
	cr_assert(eq(int, p->stmts[0].kind, SBX_STMT_DEFAULT));
	cr_assert(eq(int, p->stmts[0].action, SB_ALLOW));
	cr_assert(eq(int, p->stmts[1].kind, SBX_STMT_RULE));
	cr_assert(eq(int, p->stmts[1].action, SB_DENY));
	cr_assert(eq(u32, p->stmts[1].access, SBX_ACC_WRITE));
	cr_assert(eq(sz, p->stmts[1].ntargets, 0));
	const sbx_stmt *w = &p->stmts[2];
	cr_assert(eq(sz, w->ntargets, 5));
	cr_assert(eq(int, w->targets[0].base, SBX_BASE_WORKSPACE));
	cr_assert(eq(int, w->targets[1].base, SBX_BASE_ABS));
	cr_assert(eq(str, w->targets[1].rel, "/tmp"));
	cr_assert(eq(int, w->targets[2].base, SBX_BASE_TMPDIR));
	cr_assert(eq(int, w->targets[3].base, SBX_BASE_HOME));
	cr_assert(eq(str, w->targets[3].rel, ".omp"));
	cr_assert(eq(int, w->targets[4].base, SBX_BASE_LIST));
	cr_assert(eq(str, w->targets[4].name, "EXTRA_WRITE"));
	cr_assert(eq(int, w->targets[4].loc.line, 3));
	cr_assert(eq(int, w->targets[4].loc.col, 42));
	const sbx_stmt *s = &p->stmts[5];
	cr_assert(eq(u32, s->access, SBX_ACC_STAT));
	cr_assert(s->targets[0].exact);
	cr_assert(eq(str, s->targets[0].rel, ""));
	cr_assert(eq(int, s->loc.line, 6));
	cr_assert(eq(int, s->loc.col, 1));
	cr_assert(eq(str, (char *)s->origin->file, "t.sbx"));
	cr_assert(eq(int, s->include_depth, 0));
	cr_assert(eq(str, (char *)p->file, "t.sbx"));
	fe_done(&r);
}

Test(parser, action_is_optional_and_accesses_combine)
{
	fe_run r = fe_parse("write workspace; read home ~/.omp; stat-only $HOME;\n"
			    "allow read write exec $WORKSPACE;");
	cr_assert(not(eq(ptr, r.pol, NULL)), "%s", r.diag);
	cr_assert(eq(sz, r.pol->nstmts, 4));
	for (size_t i = 0; i < 4; i++)
		cr_assert(eq(int, r.pol->stmts[i].action, SB_ALLOW));
	cr_assert(eq(u32, r.pol->stmts[3].access, SBX_ACC_READ | SBX_ACC_WRITE | SBX_ACC_EXEC));
	cr_assert(eq(int, r.pol->stmts[2].targets[0].base, SBX_BASE_HOME));
	fe_done(&r);
}

Test(parser, roots_spellings_are_the_same)
{
	fe_run r = fe_parse("read ~ home $HOME ~/a home/a $HOME/a workspace/x $WORKSPACE/x tmpdir $TMPDIR;");
	cr_assert(not(eq(ptr, r.pol, NULL)), "%s", r.diag);
	const sbx_stmt *s = &r.pol->stmts[0];
	cr_assert(eq(sz, s->ntargets, 10));
	for (int i = 0; i < 6; i++)
		cr_assert(eq(int, s->targets[i].base, SBX_BASE_HOME));
	for (int i = 0; i < 3; i++)
		cr_assert(eq(str, s->targets[i].rel, ""));
	for (int i = 3; i < 6; i++)
		cr_assert(eq(str, s->targets[i].rel, "a"));
	cr_assert(eq(int, s->targets[6].base, SBX_BASE_WORKSPACE));
	cr_assert(eq(int, s->targets[7].base, SBX_BASE_WORKSPACE));
	cr_assert(eq(str, s->targets[7].rel, "x"));
	cr_assert(eq(int, s->targets[8].base, SBX_BASE_TMPDIR));
	cr_assert(eq(int, s->targets[9].base, SBX_BASE_TMPDIR));
	fe_done(&r);
}

Test(parser, lists_and_params)
{
	fe_run r = fe_parse("read $CACHE $EXTRA_READ $P/sub;\nlist $CACHE;\nread $CACHE;");
	cr_assert(not(eq(ptr, r.pol, NULL)), "%s", r.diag);
	const sbx_stmt *s = &r.pol->stmts[0];
	/* a list is a list only after its declaration */
	cr_assert(eq(int, s->targets[0].base, SBX_BASE_PARAM));
	cr_assert(eq(int, s->targets[1].base, SBX_BASE_LIST));
	cr_assert(eq(int, s->targets[2].base, SBX_BASE_PARAM));
	cr_assert(eq(str, s->targets[2].name, "P"));
	cr_assert(eq(str, s->targets[2].rel, "sub"));
	cr_assert(eq(int, r.pol->stmts[1].kind, SBX_STMT_LIST));
	cr_assert(eq(str, r.pol->stmts[1].name, "CACHE"));
	cr_assert(eq(int, r.pol->stmts[2].targets[0].base, SBX_BASE_LIST));
	fe_done(&r);
}

Test(parser, paths_are_normalised)
{
	fe_run r = fe_parse("read //usr/./lib/ \"/a b//c/\" ~/x//y/./ workspace/ exactly /;");
	cr_assert(not(eq(ptr, r.pol, NULL)), "%s", r.diag);
	const sbx_stmt *s = &r.pol->stmts[0];
	cr_assert(eq(str, s->targets[0].rel, "/usr/lib"));
	cr_assert(eq(str, s->targets[1].rel, "/a b/c"));
	cr_assert(eq(str, s->targets[2].rel, "x/y"));
	cr_assert(eq(str, s->targets[3].rel, ""));
	cr_assert(eq(str, s->targets[4].rel, "/"));
	cr_assert(s->targets[4].exact);
	fe_done(&r);
}

Test(parser, acknowledge)
{
	fe_run r = fe_parse("allow read ~/.ssh acknowledge sensitive wide \"deploy key\";");
	cr_assert(not(eq(ptr, r.pol, NULL)), "%s", r.diag);
	cr_assert(eq(u32, r.pol->stmts[0].acks, SBX_ACK_SENSITIVE | SBX_ACK_WIDE));
	cr_assert(eq(str, r.pol->stmts[0].ack_reason, "deploy key"));
	fe_done(&r);
}

Test(parser, network_and_default)
{
	fe_run r = fe_parse("network off; network on; default deny;");
	cr_assert(not(eq(ptr, r.pol, NULL)), "%s", r.diag);
	cr_assert(eq(int, r.pol->stmts[0].kind, SBX_STMT_NETWORK));
	cr_assert(eq(int, r.pol->stmts[0].action, SB_DENY));
	cr_assert(eq(int, r.pol->stmts[1].action, SB_ALLOW));
	cr_assert(eq(int, r.pol->stmts[2].kind, SBX_STMT_DEFAULT));
	cr_assert(eq(int, r.pol->stmts[2].action, SB_DENY));
	fe_done(&r);
}

Test(parser, empty_policy_parses)
{
	fe_run r = fe_parse("# nothing\n\n");
	cr_assert(not(eq(ptr, r.pol, NULL)));
	cr_assert(eq(sz, r.pol->nstmts, 0));
	fe_done(&r);
}

/* Each bad input and the exact first line of its diagnostic.  */
typedef struct {
	char src[96];
	char want[200];
} bad_case;

static bad_case bad_cases[] = {
	{"default allow\nread /x;", "t.sbx:2:1: error: unexpected 'read', expecting ';' (missing ';' after the previous statement?) [syntax]"},
	{"read /x", "t.sbx:1:8: error: unexpected end of file, expecting a path, 'exactly', 'acknowledge' or ';' (statements end with ';') [syntax]"},
	{"read exactly;", "t.sbx:1:13: error: unexpected ';', expecting a path [syntax]"},
	{"allow;", "t.sbx:1:6: error: unexpected ';', expecting 'read', 'write', 'stat-only' or 'exec' [syntax]"},
	{"default;", "t.sbx:1:8: error: unexpected ';', expecting 'allow' or 'deny' [syntax]"},
	{"read /a/../b;", "t.sbx:1:6: error: invalid path '/a/../b': path contains a '..' component [path]"},
	{"read ~/a/../../b;", "t.sbx:1:6: error: invalid path '~/a/../../b': path contains a '..' component [path]"},
	{"write ~bob/x;", "t.sbx:1:7: error: '~bob/x': ~user paths are not supported; write '~/...' for your own home or the absolute path [path]"},
	{"read \"relative/x\";", "t.sbx:1:6: error: quoted path 'relative/x' must be absolute or start with '~/' [path]"},
	{"read $EXTRA_READ/x;", "t.sbx:1:6: error: list $EXTRA_READ cannot take a suffix ('/x'): a list is a set of paths [path]"},
	{"read /x acknowledge wide \"\";", "t.sbx:1:9: error: the reason given with 'acknowledge' must not be empty [syntax]"},
	{"read /x acknowledge \"why\";", "t.sbx:1:21: error: unexpected a string, expecting 'sensitive' or 'wide' [syntax]"},
	{"list $HOME;", "t.sbx:1:6: error: $HOME is a root, not a list [syntax]"},
	{"list $A/b;", "t.sbx:1:6: error: a list name is a plain $NAME, not a path [syntax]"},
	{"include \"\";", "t.sbx:1:9: error: empty include file name [include]"},
	{"network maybe;", "t.sbx:1:9: error: unknown word 'maybe' [syntax]"},
	{"read \"/a\tb\";", "t.sbx:1:6: error: control character 0x09 in string [syntax]"},
	{"read /x (y);", "t.sbx:1:9: error: unexpected character '(' [syntax]"},
};

ParameterizedTestParameters(parser, every_error_is_located)
{
	return cr_make_param_array(bad_case, bad_cases, sizeof bad_cases / sizeof bad_cases[0]);
}

ParameterizedTest(bad_case *c, parser, every_error_is_located)
{
	fe_run r = fe_parse(c->src);
	cr_assert(eq(ptr, r.pol, NULL), "accepted: %s", c->src);
	cr_assert(r.errors >= 1);
	const char *nl = strchr(r.diag, '\n');
	size_t n = nl ? (size_t)(nl - r.diag) : strlen(r.diag);
	char first[256];
	snprintf(first, sizeof first, "%.*s", (int)n, r.diag);
	cr_assert(eq(str, first, c->want), "input: %s", c->src);
	/* the source line and a caret follow */
	cr_assert(contains(r.diag, "\n  "), "%s", r.diag);
	cr_assert(contains(r.diag, "^"), "%s", r.diag);
	fe_done(&r);
}

Test(parser, reports_every_error_in_one_run)
{
	fe_run r = fe_parse("default allow;\n"
			    "raed /x;\n"
			    "write /ok;\n"
			    "read /a/../b;\n"
			    "deny write ~root/.ssh;\n"
			    "allow read /fine;\n"
			    "read \"unterminated;\n"
			    ";\n"
			    "exec /bin\n");
	cr_assert(eq(ptr, r.pol, NULL));
	cr_assert(eq(int, r.errors, 5), "%s", r.diag);
	cr_assert(contains(r.diag, "t.sbx:2:1: error: unknown word 'raed'"), "%s", r.diag);
	cr_assert(contains(r.diag, "t.sbx:4:6: error: invalid path"), "%s", r.diag);
	cr_assert(contains(r.diag, "t.sbx:5:12: error: '~root/.ssh'"), "%s", r.diag);
	cr_assert(contains(r.diag, "t.sbx:7:6: error: unterminated string"), "%s", r.diag);
	cr_assert(contains(r.diag, "t.sbx:9:10: error: unexpected end of file"), "%s", r.diag);
	fe_done(&r);
}

Test(parser, garbage_never_crashes)
{
	/* deterministic pseudo-random inputs, including NUL and high bytes */
	unsigned state = 12345;
	for (int round = 0; round < 300; round++) {
		char buf[512];
		size_t n = (size_t)(round * 7 % 500) + 1;
		for (size_t i = 0; i < n; i++) {
			state = state * 1103515245u + 12345u;
			unsigned v = (state >> 16) & 0xff;
			/* bias towards the language's own bytes */
			static const char alphabet[] = "allow deny read write ;#\"\\/~$ exactly home\n";
			buf[i] = (v & 1) ? alphabet[v % (sizeof alphabet - 1)] : (char)v;
		}
		fe_run r;
		fe_open(&r);
		r.pol = sbx_parse("g.sbx", buf, n, r.d);
		if (!r.pol)
			cr_assert(sb_diag_errors(r.d) > 0, "rejected without a message");
		fe_done(&r);
	}
}

Test(parser, error_count_is_capped)
{
	char buf[4096] = "";
	for (int i = 0; i < 200; i++)
		strcat(buf, "@;\n");
	fe_run r = fe_parse(buf);
	cr_assert(eq(ptr, r.pol, NULL));
	cr_assert(eq(int, fe_count_lines(r.diag, "t.sbx:"), 51), "%s", r.diag);
	cr_assert(contains(r.diag, "too many errors in 't.sbx'"));
	fe_done(&r);
}

/* The dump without its "origin:line: " prefixes: plain .sbx text.  */
static char *dump_text(const sbx_policy *p)
{
	char *d = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&d, &n);
	sbx_policy_dump(p, f);
	fclose(f);
	char *out = calloc(1, n + 1);
	for (const char *s = d; *s;) {
		const char *sp = strstr(s, ": ");
		const char *nl = strchr(s, '\n');
		strncat(out, sp + 2, (size_t)(nl - sp - 1));
		s = nl + 1;
	}
	free(d);
	return out;
}

Test(parser, dump_round_trips)
{
	const char *src = "default deny; network off; list $C;\n"
			  "deny read write home exactly /etc/x \"/a b\" $C $P/q workspace/w tmpdir acknowledge sensitive \"r \\\"q\\\"\";\n"
			  "stat-only exactly ~/d; exec;\n";
	fe_run a = fe_parse(src);
	cr_assert(not(eq(ptr, a.pol, NULL)), "%s", a.diag);
	char *t1 = dump_text(a.pol);
	cr_assert(eq(str, t1,
		     "default deny;\nnetwork off;\nlist $C;\n"
		     "deny read write home exactly /etc/x \"/a b\" $C $P/q workspace/w tmpdir acknowledge sensitive \"r \\\"q\\\"\";\n"
		     "allow stat-only exactly ~/d;\nallow exec;\n"));
	fe_run b = fe_parse(t1);
	cr_assert(not(eq(ptr, b.pol, NULL)), "%s\n%s", t1, b.diag);
	char *t2 = dump_text(b.pol);
	cr_assert(eq(str, t2, t1));
	free(t1);
	free(t2);
	fe_done(&a);
	fe_done(&b);
}

/* ---- includes (files in a temporary directory) ---- */

static char tmpdir[64];

static void mk_tmp(void)
{
	strcpy(tmpdir, "/tmp/sbx-parser-XXXXXX");
	cr_assert(not(eq(ptr, mkdtemp(tmpdir), NULL)));
}

static void rm_tmp(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	cr_assert(eq(int, system(cmd), 0));
}

static void put(const char *rel, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	mkdir(path, 0700);
	*slash = '/';
	FILE *f = fopen(path, "w");
	cr_assert(not(eq(ptr, f, NULL)), "%s", path);
	fputs(text, f);
	fclose(f);
}

static fe_run parse_file(const char *rel)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
	fe_run r;
	fe_open(&r);
	r.pol = sbx_parse(path, NULL, 0, r.d);
	r.errors = sb_diag_errors(r.d);
	fe_diag(&r);
	return r;
}

Test(parser, include_splices_in_place, .init = mk_tmp, .fini = rm_tmp)
{
	put("top.sbx", "default allow;\ninclude \"lib/base.sbx\";\nread workspace;\n");
	put("lib/base.sbx", "list $X;\ninclude \"more.sbx\";\ndeny read home;\n");
	put("lib/more.sbx", "deny write $X;\n");
	fe_run r = parse_file("top.sbx");
	cr_assert(not(eq(ptr, r.pol, NULL)), "%s", r.diag);
	cr_assert(eq(sz, r.pol->nstmts, 5));
	cr_assert(eq(str, (char *)r.pol->stmts[0].origin->file, "top.sbx"));
	cr_assert(eq(str, (char *)r.pol->stmts[1].origin->file, "lib/base.sbx"));
	cr_assert(eq(int, r.pol->stmts[1].include_depth, 1));
	cr_assert(eq(str, (char *)r.pol->stmts[2].origin->file, "lib/more.sbx"));
	cr_assert(eq(int, r.pol->stmts[2].include_depth, 2));
	/* the list declared in the include is a list in the including file */
	cr_assert(eq(int, r.pol->stmts[2].targets[0].base, SBX_BASE_LIST));
	cr_assert(eq(str, (char *)r.pol->stmts[3].origin->file, "lib/base.sbx"));
	cr_assert(eq(int, r.pol->stmts[3].loc.line, 3));
	cr_assert(eq(str, (char *)r.pol->stmts[4].origin->file, "top.sbx"));
	/* diagnostics names are the paths as resolved */
	cr_assert(contains(r.pol->stmts[2].loc.file, "/lib/more.sbx"));
	fe_done(&r);
}

Test(parser, include_cycle_is_refused, .init = mk_tmp, .fini = rm_tmp)
{
	put("a.sbx", "default allow;\ninclude \"b.sbx\";\n");
	put("b.sbx", "include \"./a.sbx\";\n");
	fe_run r = parse_file("a.sbx");
	cr_assert(eq(ptr, r.pol, NULL));
	cr_assert(eq(int, r.errors, 1), "%s", r.diag);
	cr_assert(contains(r.diag, "b.sbx:1:9: error: include cycle: '"), "%s", r.diag);
	cr_assert(contains(r.diag, "a.sbx' is already being read [include]"), "%s", r.diag);
	fe_done(&r);
}

Test(parser, include_depth_is_limited, .init = mk_tmp, .fini = rm_tmp)
{
	for (int i = 0; i < 20; i++) {
		char name[32], text[64];
		snprintf(name, sizeof name, "d%d.sbx", i);
		snprintf(text, sizeof text, "include \"d%d.sbx\";\n", i + 1);
		put(name, text);
	}
	put("d20.sbx", "default allow;\n");
	fe_run r = parse_file("d0.sbx");
	cr_assert(eq(ptr, r.pol, NULL));
	cr_assert(eq(int, r.errors, 1), "%s", r.diag);
	cr_assert(contains(r.diag, "d16.sbx:1:9: error: includes nested deeper than 16 levels [include]"), "%s", r.diag);
	fe_done(&r);
}

Test(parser, include_missing_file_is_located, .init = mk_tmp, .fini = rm_tmp)
{
	put("a.sbx", "default allow;\n\n  include \"nope.sbx\";\n");
	fe_run r = parse_file("a.sbx");
	cr_assert(eq(ptr, r.pol, NULL));
	cr_assert(contains(r.diag, "a.sbx:3:11: error: cannot open '"), "%s", r.diag);
	cr_assert(contains(r.diag, "nope.sbx': No such file or directory [io]"), "%s", r.diag);
	fe_done(&r);
}

Test(parser, include_errors_are_located_in_the_included_file, .init = mk_tmp, .fini = rm_tmp)
{
	put("a.sbx", "default allow;\ninclude \"b.sbx\";\nread /x /y/../z;\n");
	put("b.sbx", "\nwrite /ok;\nwirte /x;\n");
	fe_run r = parse_file("a.sbx");
	cr_assert(eq(ptr, r.pol, NULL));
	cr_assert(eq(int, r.errors, 2), "%s", r.diag);
	cr_assert(contains(r.diag, "b.sbx:3:1: error: unknown word 'wirte'; did you mean 'write'?"), "%s", r.diag);
	cr_assert(contains(r.diag, "a.sbx:3:9: error: invalid path '/y/../z'"), "%s", r.diag);
	fe_done(&r);
}

Test(parser, directory_and_missing_top_file)
{
	fe_run r;
	fe_open(&r);
	r.pol = sbx_parse("/nonexistent/x.sbx", NULL, 0, r.d);
	cr_assert(eq(ptr, r.pol, NULL));
	cr_assert(contains(fe_diag(&r), "cannot open '/nonexistent/x.sbx'"), "%s", r.diag);
	fe_done(&r);
	fe_open(&r);
	r.pol = sbx_parse("/tmp", NULL, 0, r.d);
	cr_assert(eq(ptr, r.pol, NULL));
	cr_assert(contains(fe_diag(&r), "'/tmp' is not a regular file"), "%s", r.diag);
	fe_done(&r);
}

Test(parser, statement_location_without_action)
{
	fe_run r = fe_parse("default allow;\n  write /y;  deny read /z;");
	cr_assert(not(eq(ptr, r.pol, NULL)), "%s", r.diag);
	cr_assert(eq(int, r.pol->stmts[1].loc.line, 2));
	cr_assert(eq(int, r.pol->stmts[1].loc.col, 3));
	cr_assert(eq(int, r.pol->stmts[1].loc.end_col, 12));
	cr_assert(eq(int, r.pol->stmts[2].loc.col, 14));
	fe_done(&r);
}

Test(parser, include_of_a_fifo_does_not_hang, .init = mk_tmp, .fini = rm_tmp, .timeout = 10)
{
	char fifo[128];
	snprintf(fifo, sizeof fifo, "%s/pipe.sbx", tmpdir);
	cr_assert(eq(int, mkfifo(fifo, 0600), 0));
	put("a.sbx", "default allow;\ninclude \"pipe.sbx\";\ninclude \"/dev/zero\";\n");
	fe_run r = parse_file("a.sbx");
	cr_assert(eq(ptr, r.pol, NULL));
	cr_assert(eq(int, r.errors, 2), "%s", r.diag);
	cr_assert(contains(r.diag, "pipe.sbx' is not a regular file [io]"), "%s", r.diag);
	cr_assert(contains(r.diag, "a.sbx:3:9: error: '/dev/zero' is not a regular file [io]"), "%s", r.diag);
	fe_done(&r);
}

Test(parser, large_policies_are_accepted)
{
	/* no statement or target limit: the checks and the lowering are
	 * near-linear (tests/unit/test_scale.c compiles 20k rules) */
	size_t cap = 1 << 16;
	char *src = malloc(cap);
	strcpy(src, "default allow;\n");
	for (int i = 0; i < 1000; i++)
		strcat(src, "read /x;\n");
	fe_run r = fe_parse(src);
	cr_assert(ne(ptr, r.pol, NULL), "%s", r.diag);
	cr_assert(eq(int, r.errors, 0), "%s", r.diag);
	cr_assert(eq(sz, r.pol->nstmts, 1001));
	fe_done(&r);
	strcpy(src, "default allow;\nread");
	for (int i = 0; i < 4001; i++)
		strcat(src, " /y");
	strcat(src, ";\n");
	r = fe_parse(src);
	cr_assert(ne(ptr, r.pol, NULL), "%s", r.diag);
	cr_assert(eq(sz, r.pol->stmts[1].ntargets, 4001));
	fe_done(&r);
	free(src);
}
