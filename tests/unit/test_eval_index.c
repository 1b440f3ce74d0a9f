/* test_eval_index.c - sb_eval_decide_indexed() (and sb_eval_decide_every_op(),
 * the same for every operation at once) answers exactly as sb_eval_decide():
 * every field of the decision, for every modelled operation, at paths that
 * sit on and around every filter boundary, over profiles with every filter
 * kind and over the SBPL fixtures in tests/sbpl/ok.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/diag.h"
#include "compiler/eval/eval.h"
#include "compiler/ir/ir.h"
#include "compiler/eval/probe.h"
#include "compiler/sbpl/sbpl_read.h"

static const char *const profiles[] = {
	"(version 1)(allow default)\n"
	"(deny file-write*)\n"
	"(allow file-write* (subpath \"/Users/me/src\") (literal \"/dev/null\") (subpath \"/private/tmp\"))\n"
	"(deny file-read* (subpath \"/Users/me\"))\n"
	"(allow file-read* file-read-metadata (subpath \"/Users/me/.omp\") (literal \"/Users/me/a\"))\n"
	"(allow file-read-metadata (literal \"/Users/me\") (literal \"/Users\"))\n"
	"(deny process-exec* (literal \"/bin/sh\"))\n"
	"(deny network*)\n",
	/* every filter kind, with rules that match nothing and everything */
	"(version 1)(deny default)\n"
	"(allow file-read* (subpath \"/\"))\n"
	"(deny file-read-data (prefix \"/Users/me/.s\"))\n"
	"(deny file-read-data (prefix \"\"))\n"
	"(allow file-read-data (prefix \"/Users/me/.ssh/pub\"))\n"
	"(allow file-write* (subpath \"/a/\") (subpath \"\"))\n"
	"(allow file-write-data (regex #\"^/a/[^/]+\\.txt$\"))\n"
	"(deny file-write-unlink (require-all (subpath \"/a\") (vnode-type DIRECTORY)))\n"
	"(allow file-write-create (require-any (literal \"/b\") (require-not (subpath \"/a\"))))\n"
	"(deny file-ioctl (literal \"/dev/tty\"))\n"
	"(allow file-ioctl)\n"
	"(deny file-read-xattr (subpath (param \"UNBOUND\")))\n"
	"(allow file-read-metadata (literal \"/a\") (literal \"/a\"))\n"
	"(deny file-read* (regex #\"^/a/(b\"))\n"
	"(allow process-exec* (subpath \"/usr/bin\") (literal \"/bin/ls\"))\n"
	"(allow network-outbound)\n",
	/* no default; rules out of order; a later unfiltered rule */
	"(version 1)\n"
	"(deny file-read* (subpath \"/x\"))\n"
	"(allow file-read-data (literal \"/x/y\"))\n"
	"(deny file* (subpath \"/x/y\"))\n"
	"(allow file-read*)\n"
	"(deny file-write* (subpath \"/x\"))\n",
};

static const char *const paths[] = {
	"/", "/a", "/a/", "/a/b", "/a/b.txt", "/a/b/c.txt", "/ab", "/b", "/x", "/x/y", "/x/yz",
	"/x/y/z", "/Users", "/Users/me", "/Users/me/a", "/Users/me/ab", "/Users/me/.omp",
	"/Users/me/.omp/x", "/Users/me/.ompx", "/Users/me/.ssh", "/Users/me/.ssh/pub",
	"/Users/me/.ssh/pubkey", "/Users/me/src", "/Users/me/src/deep/er", "/tmp/x",
	"/private/tmp", "/private/tmp/x", "/etc/hosts", "/dev/null", "/dev/tty", "/bin/sh",
	"/bin/ls", "/usr/bin/env", "relative",
};

static void same(const sb_decision *a, const sb_decision *b, const char *what)
{
	cr_assert(eq(int, a->kind, b->kind), "%s", what);
	cr_assert(eq(ptr, (void *)a->rule, (void *)b->rule), "%s", what);
	cr_assert(eq(int, a->via_op, b->via_op), "%s", what);
	cr_assert(eq(ptr, (void *)a->reason, (void *)b->reason), "%s", what);
	/* each context owns the strings it built (an unbound param's spelling) */
	bool a_has = a->unknown_what != NULL, b_has = b->unknown_what != NULL;
	cr_assert(eq(int, a_has, b_has), "%s", what);
	if (a_has)
		cr_assert(eq(str, (char *)a->unknown_what, (char *)b->unknown_what), "%s", what);
	cr_assert(eq(int, a->unknown_loc.line, b->unknown_loc.line), "%s", what);
	cr_assert(eq(int, a->models_disagree, b->models_disagree), "%s", what);
	cr_assert(eq(int, a->text_kind, b->text_kind), "%s", what);
	cr_assert(eq(ptr, (void *)a->text_rule, (void *)b->text_rule), "%s", what);
}

/* Ask both ways at every path (and its probe neighbours), every op, a few
 * vnode types; returns the number of questions.  */
static size_t compare(const sb_profile *p, const char *name)
{
	sb_probes ps = { 0 };
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
		sb_probes_add_path(&ps, paths[i]);
	sb_probes_add_profile(&ps, p);
	sb_probes_add_system(&ps);
	sb_probes_finish(&ps);
	static const unsigned vnodes[] = { 0, SB_VNODE_REGULAR, SB_VNODE_DIRECTORY };
	sb_eval *ix = sb_eval_new(p, 0), *plain = sb_eval_new(p, 0), *every = sb_eval_new(p, 0);
	size_t n = 0;
	for (size_t i = 0; i <= ps.n; i++) {
		const char *path = i < ps.n ? ps.paths[i] : "relative";
		sb_decision all[sizeof vnodes / sizeof *vnodes][SB_OP__COUNT];
		for (size_t v = 0; v < sizeof vnodes / sizeof *vnodes; v++)
			sb_eval_decide_every_op(every, path, vnodes[v], all[v]);
		for (int op = SB_OP_DEFAULT; op <= SB_OP_OTHER; op++)
			for (size_t v = 0; v < sizeof vnodes / sizeof *vnodes; v++) {
				sb_decision a = sb_eval_decide(plain, (sb_op)op, path, vnodes[v]);
				sb_decision b = sb_eval_decide_indexed(ix, (sb_op)op, path, vnodes[v]);
				char what[512];
				snprintf(what, sizeof what, "%s: op %d path %s vnode %u", name, op, path,
					 vnodes[v]);
				same(&a, &b, what);
				if (op < SB_OP_OTHER)
					same(&a, &all[v][op], what);
				n++;
			}
	}
	sb_eval_free(ix);
	sb_eval_free(plain);
	sb_eval_free(every);
	sb_probes_clear(&ps);
	return n;
}

Test(eval_index, same_answers_on_every_filter_kind)
{
	for (size_t k = 0; k < sizeof profiles / sizeof *profiles; k++) {
		sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
		sb_profile *p = sb_sbpl_read("t.sb", profiles[k], strlen(profiles[k]), d);
		cr_assert(ne(ptr, p, NULL));
		cr_assert(gt(sz, compare(p, "inline"), (size_t)1000));
		sb_profile_free(p);
		sb_diag_free(d);
	}
}

Test(eval_index, same_answers_on_the_sbpl_fixtures)
{
	glob_t g;
	cr_assert(eq(int, glob("tests/sbpl/ok/*.sb", 0, NULL, &g), 0),
		  "run from the source tree");
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *devnull = fopen("/dev/null", "w");
		sb_diag *d = sb_diag_new(devnull, SB_FMT_TEXT);
		sb_profile *p = sb_sbpl_read_file(g.gl_pathv[i], d);
		if (p)
			cr_assert(gt(sz, compare(p, g.gl_pathv[i]), (size_t)0));
		sb_profile_free(p);
		sb_diag_free(d);
		fclose(devnull);
	}
	cr_assert(ge(sz, g.gl_pathc, (size_t)3));
	globfree(&g);
}
