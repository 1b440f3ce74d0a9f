/* Unit tests for the SBPL evaluator (compiler/sbpl/sbpl_scheme.c) through
 * the reader: the Scheme subset, partial evaluation on unbound params,
 * call sites, bounds and errors, and re-emission of Chromium's profiles
 * without a changed decision.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/diag.h"
#include "compiler/eval/eval.h"
#include "decide_util.h"
#include "compiler/eval/probe.h"
#include "compiler/ir/ir.h"
#include "compiler/sbpl/emit_sbpl.h"
#include "compiler/sbpl/sbpl_read.h"

/* Read `text` as "s.sb" with `params` (may be NULL) and SB_READ_CONDITIONALS;
 * the diagnostics go to *msgs (caller frees).  */
static sb_profile *rd(const char *text, const sb_bindings *params, char **msgs)
{
	size_t len = 0;
	FILE *out = open_memstream(msgs, &len);
	sb_diag *d = sb_diag_new(out, SB_FMT_TEXT);
	sb_profile *p = sb_sbpl_read_bound("s.sb", text, strlen(text), d, SB_READ_CONDITIONALS, params);
	sb_diag_free(d);
	fclose(out);
	return p;
}

static sb_profile *rd_ok(const char *text, const sb_bindings *params)
{
	char *msgs = NULL;
	sb_profile *p = rd(text, params, &msgs);
	cr_assert_not_null(p, "unexpected failure: %s", msgs);
	free(msgs);
	return p;
}

static void expect_error(const char *text, const char *needle)
{
	char *msgs = NULL;
	sb_profile *p = rd(text, NULL, &msgs);
	cr_expect_null(p, "expected an error for: %s", text);
	cr_expect(strstr(msgs, needle) != NULL, "message '%s' lacks '%s'", msgs, needle);
	cr_expect(strstr(msgs, "[sbpl-eval]") != NULL, "message '%s' lacks [sbpl-eval]", msgs);
	sb_profile_free(p);
	free(msgs);
}

static void expect_rule(const sb_profile *p, size_t i, const char *want)
{
	cr_assert(i < p->nrules, "rule %zu of %zu", i, p->nrules);
	char *t = sb_sbpl_rule_text(p->rules[i]);
	cr_expect(eq(str, t, (char *)want), "rule %zu", i);
	free(t);
}

Test(scheme, the_subset_real_profiles_use)
{
	sb_profile *p = rd_ok(
		"(version 1)\n"
		"(define (under s) (string-append \"/a/\" s))\n"
		"(allow file-read* (subpath (under \"b\")))\n"                                      /* 0 */
		"(allow file-read* (literal (substring \"/xyz/q\" 0 4)))\n"                         /* 1 */
		"(if (= (string-length \"abc\") 3) (allow file-write* (subpath \"/w\")))\n"        /* 2 */
		"(if (string=? (number->string (+ 1 2 (- 5 4))) \"4\") (allow file-read* (subpath \"/four\")))\n"
		"(cond ((< 2 1) (allow file-read* (subpath \"/no\")))\n"
		"      ((> 1 2) (allow file-read* (subpath \"/no\")))\n"
		"      (else (allow file-read* (subpath \"/else\"))))\n"                             /* 4 */
		"(let* ((a \"/l\") (b (string-append a \"/m\"))) (allow file-read* (subpath b)))\n" /* 5 */
		"(when (equal? '(a \"b\" 1) (list 'a \"b\" 1)) (allow file-read* (subpath \"/eq\")))\n"
		"(unless (string? 5) (allow file-read* (subpath \"/unless\")))\n"                   /* 7 */
		"(allow file-read* (regex (string-append \"^\" (regex-quote \"/r.x+\") \"$\")))\n"  /* 8 */
		"(for-each (lambda (d) (allow file-read* (subpath d))) '(\"/f1\" \"/f2\"))\n"       /* 9, 10 */
		"(allow file-read* (subpath (let loop ((i 0) (acc \"/n\"))\n"
		"  (if (= i 3) acc (loop (+ i 1) (string-append acc \"x\"))))))\n"                  /* 11 */
		"(if (and (>= 5 5) (<= 1 1) (or #f (not #f))) (allow file-read* (subpath \"/andor\")))\n"
		"(if (= (string->number \"1014\") 1014) (begin (allow file-read* (subpath \"/num\"))))\n"
		"(define os (string->number \"10.x\"))\n"
		"(if os (allow file-read* (subpath \"/never\")))\n"
		"(if (defined? 'under) (allow file-read* (subpath \"/defined\")))\n"                /* 14 */
		"(if (defined? 'subpath) (allow file-read* (subpath \"/builtin\")))\n"              /* 15 */
		"(define f (lambda args (length args)))\n"
		"(if (= (f 1 2 3) 3) (allow file-read* (subpath \"/variadic\")))\n"                 /* 16 */
		"(if (null? (cdr (cons 1 '()))) (allow file-read* (subpath (car (map (lambda (s) (string-append s \"/m\")) (list \"/map\"))))))\n",
		NULL);
	const char *want[] = {
		"(allow file-read* (subpath \"/a/b\"))",
		"(allow file-read* (literal \"/xyz\"))",
		"(allow file-write* (subpath \"/w\"))",
		"(allow file-read* (subpath \"/four\"))",
		"(allow file-read* (subpath \"/else\"))",
		"(allow file-read* (subpath \"/l/m\"))",
		"(allow file-read* (subpath \"/eq\"))",
		"(allow file-read* (subpath \"/unless\"))",
		"(allow file-read* (regex #\"^/r\\.x\\+$\"))",
		"(allow file-read* (subpath \"/f1\"))",
		"(allow file-read* (subpath \"/f2\"))",
		"(allow file-read* (subpath \"/nxxx\"))",
		"(allow file-read* (subpath \"/andor\"))",
		"(allow file-read* (subpath \"/num\"))",
		"(allow file-read* (subpath \"/defined\"))",
		"(allow file-read* (subpath \"/builtin\"))",
		"(allow file-read* (subpath \"/variadic\"))",
		"(allow file-read* (subpath \"/map/m\"))",
	};
	cr_assert(eq(sz, p->nrules, sizeof want / sizeof *want));
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		expect_rule(p, i, want[i]);
	cr_expect(eq(sz, p->nunmodelled, 0));
	sb_profile_free(p);
}

/* A param decides a condition when bound; unbound, both branches are kept
 * under the condition and strings keep (param "NAME").  */
Test(scheme, params_bound_or_not)
{
	const char *text = "(version 1)(deny default)\n"
			   "(define mode \"MODE\")\n"
			   "(define (param-true? s) (string=? (param s) \"TRUE\"))\n"
			   "(if (param-true? mode) (deny file-write* (subpath \"/d\")) (allow file-write* (subpath \"/d\")))\n"
			   "(allow file-read* (subpath (string-append (param \"HOME\") \"/x\")))\n";
	sb_bindings b = { 0 };
	sb_bindings_set(&b, "MODE", "TRUE");
	sb_bindings_set(&b, "HOME", "/Users/a");
	sb_profile *p = rd_ok(text, &b);
	cr_assert(eq(sz, p->nrules, 3));
	expect_rule(p, 1, "(deny file-write* (subpath \"/d\"))");
	expect_rule(p, 2, "(allow file-read* (subpath (string-append (param \"HOME\") \"/x\")))");
	cr_expect(eq(sz, p->nunmodelled, 0));
	sb_profile *bound = sb_profile_bind(p, &b, NULL, NULL);
	cr_expect(eq(int, decide_once(bound, SB_OP_FILE_READ_DATA, "/Users/a/x/y", 0).kind, SB_DEC_ALLOW));
	cr_expect(eq(int, decide_once(bound, SB_OP_FILE_WRITE_DATA, "/d/f", 0).kind, SB_DEC_DENY));
	sb_profile_free(bound);
	sb_profile_free(p);
	sb_bindings_clear(&b);

	p = rd_ok(text, NULL);
	cr_assert(eq(sz, p->nrules, 4));
	expect_rule(p, 1, "(deny file-write* (require-all (param-true? mode) (subpath \"/d\")))");
	expect_rule(p, 2, "(allow file-write* (require-all (not (param-true? mode)) (subpath \"/d\")))");
	cr_assert(eq(sz, p->nunmodelled, 1));
	cr_expect(eq(int, p->unmodelled[0].loc.line, 4));
	cr_expect(eq(int, decide_once(p, SB_OP_FILE_WRITE_DATA, "/d/f", 0).kind, SB_DEC_UNKNOWN));
	sb_profile_free(p);
}

/* A definition under a condition nothing decides is unknown afterwards.  */
Test(scheme, uncertain_definitions)
{
	sb_profile *p = rd_ok("(version 1)(deny default)\n"
			      "(if (param \"X\") (define y \"/a\") (define y \"/b\"))\n"
			      "(allow file-read* (subpath y))\n", NULL);
	cr_assert(eq(sz, p->nrules, 2));
	cr_expect(eq(int, p->rules[1]->filters[0]->kind, SB_F_OPAQUE));
	cr_expect(eq(int, decide_once(p, SB_OP_FILE_READ_DATA, "/a", 0).kind, SB_DEC_UNKNOWN));
	cr_expect(eq(int, decide_once(p, SB_OP_FILE_WRITE_DATA, "/a", 0).kind, SB_DEC_DENY));
	sb_profile_free(p);
}

/* A rule a procedure made: loc in the definition, call site and name.  */
Test(scheme, call_site_and_definition)
{
	const char *text = "(version 1)\n"
			   "(define (fonts)\n"
			   "  (begin\n"
			   "    (allow file-read-data (subpath \"/Library/Fonts\"))))\n"
			   "(define (all) (fonts))\n"
			   "(allow default)\n"
			   "(all)\n";
	FILE *devnull = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT); /* owns the interned names */
	sb_profile *p = sb_sbpl_read_bound("s.sb", text, strlen(text), d, 0, NULL);
	cr_assert_not_null(p);
	cr_assert(eq(sz, p->nrules, 2));
	const sb_rule *r = p->rules[1];
	cr_expect(eq(int, r->loc.line, 4));
	cr_expect(eq(int, r->loc.col, 5));
	cr_expect(eq(int, r->call_loc.line, 7), "the outermost call");
	cr_expect(eq(int, r->call_loc.col, 1));
	cr_expect(eq(str, (char *)r->call_name, "all"));
	cr_expect(eq(int, p->rules[0]->call_loc.line, 0));
	sb_profile *c = sb_profile_clone(p);
	cr_expect(eq(int, c->rules[1]->call_loc.line, 7), "clone keeps the call site");
	sb_profile_free(c);
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(devnull);
}

Test(scheme, unknown_procedures_are_located_and_unknown)
{
	char *msgs = NULL;
	sb_profile *p = rd("(version 1)(allow default)\n(frobnicate \"x\")\n"
			   "(deny file-read* (home-thing \"/y\"))\n", NULL, &msgs);
	cr_assert_not_null(p, "%s", msgs);
	cr_expect(strstr(msgs, "s.sb:2:1: warning: 'frobnicate' is neither defined") != NULL, "%s", msgs);
	cr_expect(strstr(msgs, "s.sb:3:18: warning: 'home-thing' is neither defined") != NULL, "%s", msgs);
	cr_expect(strstr(msgs, "global-name") == NULL);
	free(msgs);
	sb_profile_free(p);
	p = rd("(version 1)(allow default)\n(import \"bsd.sb\")\n", NULL, &msgs);
	cr_assert_not_null(p, "%s", msgs);
	cr_expect(strstr(msgs, "s.sb:2:1: warning: \"bsd.sb\" is imported but not read") != NULL, "%s", msgs);
	cr_expect(eq(int, decide_once(p, SB_OP_FILE_READ_DATA, "/z", 0).kind, SB_DEC_UNKNOWN));
	free(msgs);
	sb_profile_free(p);
	p = rd("(version 1)(allow default)\n(frobnicate \"x\")\n"
	       "(deny file-read* (home-thing \"/y\"))\n", NULL, &msgs);
	sb_decision d = decide_once(p, SB_OP_FILE_WRITE_DATA, "/z", 0);
	cr_expect(eq(int, d.kind, SB_DEC_UNKNOWN));
	cr_expect(eq(int, d.unknown_loc.line, 2));
	free(msgs);
	sb_profile_free(p);
}

/* Runaway programs and type errors: located errors, never a hang.  */
Test(scheme, bounds_and_errors)
{
	expect_error("(version 1)\n(define (f x) (f (+ x 1)))\n(f 0)\n", "nested deeper than");
	expect_error("(version 1)\n(define (g n) (if (= n 0) 0 (+ (g (- n 1)) (g (- n 1)))))\n(g 40)\n",
		     "more than");
	expect_error("(version 1)\n(define (h s) (h (string-append s s)))\n(h \"ab\")\n", "MiB");
	expect_error("(version 1)\n(define (w s) (if (> (string-length s) 100000000) s (w (string-append s s s s))))\n"
		     "(allow file-read* (subpath (w \"ab\")))\n", "MiB");
	expect_error("(version 1)\n(allow file-read* (subpath (string-length 5)))", "s.sb:2:43: error: 'string-length' needs a string, not a number");
	expect_error("(version 1)\n(define (one a) a)\n(one 1 2)", "s.sb:3:1: error: 'one' takes 1 argument, not 2");
	expect_error("(version 1)\n(car '())", "'car' needs a non-empty list");
	expect_error("(version 1)\n(substring \"abc\" 2 9)", "outside the string");
	expect_error("(version 1)\n(+ 9223372036854775807 1)", "overflows");
	expect_error("(version 1)\n(define z (\"x\" 1))", "a string is not a procedure");
	expect_error("(version 1)\n(let ((a)) a)", "binding is (NAME VALUE)");
	expect_error("(version 1)\n(cond (#t => car))", "'=>'");
}

/* Chromium's common.sb + renderer.sb, evaluated with params, then emitted
 * as sbrun re-emits it for sandbox-exec and read back: every probe
 * decides the same before and after.  */
Test(scheme, reemission_keeps_decisions)
{
	static const char *const params[][2] = {
		{ "BUNDLE_PATH", "/Applications/Chromium.app" }, { "BUNDLE_ID", "org.chromium.Chromium" },
		{ "BROWSER_PID", "1" }, { "CURRENT_PID", "2" }, { "COMPONENT_PATH", "/Users/a/out" },
		{ "DISABLE_SANDBOX_DENIAL_LOGGING", "TRUE" }, { "ENABLE_LOGGING", "TRUE" },
		{ "EXECUTABLE_PATH", "/Applications/Chromium.app/Contents/MacOS/Chromium" },
		{ "USER_HOMEDIR_AS_LITERAL", "/Users/a" }, { "LOG_FILE_PATH", "/Users/a/log" },
		{ "OS_VERSION", "1015" }, { "DARWIN_USER_CACHE_DIR", "/private/var/folders/q/C" },
		{ "DARWIN_USER_DIR", "/private/var/folders/q/0" }, { "DARWIN_USER_TEMP_DIR", "/private/var/folders/q/T" },
		{ "FILTER_SYSCALLS", "TRUE" }, { "FILTER_SYSCALLS_DEBUG", "FALSE" },
	};
	sb_bindings b = { 0 };
	for (size_t i = 0; i < sizeof params / sizeof *params; i++)
		sb_bindings_set(&b, params[i][0], params[i][1]);
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	const char *files[] = { "tests/sbpl/chromium/common.sb", "tests/sbpl/chromium/renderer.sb" };
	for (size_t i = 0; i < 2; i++) {
		FILE *f = fopen(files[i], "r");
		cr_assert_not_null(f, "%s", files[i]);
		char buf[4096];
		size_t got;
		while ((got = fread(buf, 1, sizeof buf, f)) > 0)
			fwrite(buf, 1, got, m);
		fclose(f);
	}
	fclose(m);
	FILE *devnull = fopen("/dev/null", "w");
	sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT);
	sb_profile *p = sb_sbpl_read_bound("renderer.sb", text, len, d, 0, &b);
	cr_assert_not_null(p);
	cr_expect(eq(sz, p->nunmodelled, 0), "every condition decided");
	char *again = sb_emit_sbpl(p, NULL, d);
	cr_assert_not_null(again, "the evaluated profile emits");
	cr_expect(strstr(again, "(define") == NULL && strstr(again, "user-homedir-path") == NULL);
	cr_expect(strstr(again, "(deny default (with no-log))") != NULL, "the TRUE branch was taken");
	sb_profile *back = sb_sbpl_read("again.sb", again, strlen(again), d);
	cr_assert_not_null(back);
	cr_expect(eq(sz, back->nrules, p->nrules));
	sb_profile *b1 = sb_profile_bind(p, &b, NULL, NULL), *b2 = sb_profile_bind(back, &b, NULL, NULL);
	sb_probes ps = { 0 };
	sb_probes_add_profile(&ps, b1);
	sb_probes_add_system(&ps);
	sb_probes_add_bindings(&ps, &b);
	sb_probes_finish(&ps);
	static const sb_op ops[] = { SB_OP_FILE_READ_DATA, SB_OP_FILE_READ_METADATA, SB_OP_FILE_WRITE_DATA,
				     SB_OP_FILE_WRITE_UNLINK, SB_OP_PROCESS_EXEC, SB_OP_FILE_IOCTL };
	static const unsigned vnodes[] = { 0, SB_VNODE_REGULAR, SB_VNODE_DIRECTORY, SB_VNODE_CHAR };
	size_t compared = 0;
	sb_eval *e1 = sb_eval_new(b1, 0), *e2 = sb_eval_new(b2, 0);
	for (size_t i = 0; i < ps.n; i++)
		for (size_t o = 0; o < sizeof ops / sizeof *ops; o++)
			for (size_t v = 0; v < 4; v++) {
				sb_decision x = sb_eval_decide(e1, ops[o], ps.paths[i], vnodes[v]);
				sb_decision y = sb_eval_decide(e2, ops[o], ps.paths[i], vnodes[v]);
				cr_expect(eq(int, x.kind, y.kind), "%s %s vnode %u", sb_op_name(ops[o]), ps.paths[i], vnodes[v]);
				compared++;
			}
	cr_expect(compared > 1000, "%zu questions", compared);
	sb_eval_free(e1);
	sb_eval_free(e2);
	sb_probes_clear(&ps);
	sb_profile_free(b1);
	sb_profile_free(b2);
	sb_profile_free(back);
	free(again);
	sb_profile_free(p);
	sb_diag_free(d);
	fclose(devnull);
	free(text);
	sb_bindings_clear(&b);
}

/* Found by fuzz/fuzz_scheme.c: a procedure without parameters made
 * pointer arithmetic on NULL (UBSan).  */
Test(scheme, procedure_without_parameters)
{
	sb_profile *p = rd_ok("(version 1)(define f (lambda () \"/x\"))(define (g) (f))\n"
			      "(allow file-read* (subpath (g)))", NULL);
	expect_rule(p, 0, "(allow file-read* (subpath \"/x\"))");
	sb_profile_free(p);
}
