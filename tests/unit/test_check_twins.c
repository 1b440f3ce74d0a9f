/* Unit tests for the rule twins (sbx_rule_twins, compiler/check/tindex.c):
 * statements that are the same rule, found by sorting the rules by the
 * hash of their key; each points at the first of its twins, in statement
 * order, and knows whether one comes after it.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdint.h>

#include "frontend_util.h"
#include "compiler/check/tindex.h"

Test(check_twins, same_rules_by_meaning_in_statement_order)
{
	fe_run r = fe_parse("default allow;\n"          /* 0: not a rule */
			    "deny write ~/a;\n"         /* 1: A */
			    "deny write ~/b;\n"         /* 2: B */
			    "deny write home/a;\n"      /* 3: A, spelled otherwise */
			    "allow read /x /y;\n"       /* 4: C */
			    "allow read /y /x /x;\n"    /* 5: C, a set of targets */
			    "deny write ~/a;\n"         /* 6: A */
			    "deny write ~/b;\n"         /* 7: B */
			    "deny read ~/a;\n"          /* 8: another access */
			    "allow write ~/a;\n"        /* 9: another action */
			    "deny write exactly ~/a;\n" /* 10: exactly */
			    "deny write;\n");           /* 11: unfiltered */
	cr_assert(not(eq(ptr, r.pol, NULL)), "%s", r.diag);
	size_t *first = NULL;
	bool *later = NULL;
	sbx_rule_twins(r.pol, &first, &later);
	static const size_t want_first[] = {SIZE_MAX, 1, 2, 1, 4, 4, 1, 2, 8, 9, 10, 11};
	static const bool want_later[] = {false, true, true, true, true, false,
					  false, false, false, false, false, false};
	cr_assert(eq(sz, r.pol->nstmts, 12));
	for (size_t i = 0; i < 12; i++) {
		cr_assert(eq(sz, first[i], want_first[i]), "first[%zu]", i);
		cr_assert(eq(int, later[i], want_later[i]), "later[%zu]", i);
	}
	free(first);
	free(later);
	fe_done(&r);
}

/* Many twins of one rule and many distinct rules: each twin's first is
 * the first statement, and only the last has no later twin.  */
Test(check_twins, many)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fputs("default allow;\n", f);
	for (int i = 0; i < 3000; i++)
		fprintf(f, i % 2 ? "deny write /same;\n" : "deny write /d/%d;\n", i);
	fclose(f);
	fe_run r = fe_parse(text);
	cr_assert(not(eq(ptr, r.pol, NULL)), "%s", r.diag);
	size_t *first = NULL;
	bool *later = NULL;
	sbx_rule_twins(r.pol, &first, &later);
	for (size_t i = 1; i <= 3000; i++) {
		bool same = (i - 1) % 2;
		cr_assert(eq(sz, first[i], same ? 2 : i), "first[%zu]", i);
		cr_assert(eq(int, later[i], same && i < 3000), "later[%zu]", i);
	}
	free(first);
	free(later);
	free(text);
	fe_done(&r);
}
