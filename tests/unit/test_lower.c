/* Unit tests for lowering (compiler/lower/lower.c): policy -> profile IR, the
 * order-robust adjustments, the ancestor (stat) rules and -D bindings.
 * Rules are compared through the emitted SBPL body, which is the most
 * readable form of the IR.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend_util.h"

/* The body of the profile with the "; file:line" comments and the data
 * form (the (define sbx-...) forms, up to their closing parenthesis)
 * removed.  */
static char *rules_of(const char *text)
{
	const char *b = fe_body(text);
	char *out = calloc(1, strlen(b) + 1);
	int depth = 0;   /* inside a data form: its open parentheses */
	for (const char *s = b; *s;) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s + 1) : strlen(s);
		if (!depth && !strncmp(s, "(define sbx-", 12))
			depth = -1;
		if (depth) {
			bool str = false;
			depth = depth < 0 ? 0 : depth;
			for (size_t k = 0; k < n; k++) {
				if (s[k] == '\\' && str)
					k++;
				else if (s[k] == '"')
					str = !str;
				else if (!str)
					depth += s[k] == '(' ? 1 : s[k] == ')' ? -1 : 0;
			}
		} else if (*s != ';') {
			strncat(out, s, n);
		}
		s += n;
	}
	return out;
}

static void expect_rules(const char *policy, const sbx_defines *defs, const char *want)
{
	fe_run r = fe_compile_defs(policy, defs);
	cr_assert(not(eq(ptr, r.text, NULL)), "policy: %s\n%s", policy, r.diag);
	char *got = rules_of(r.text);
	cr_assert(eq(str, got, (char *)want), "policy: %s", policy);
	free(got);
	fe_done(&r);
}

Test(lower, omp_rules_in_ir)
{
	fe_run r = fe_compile("default allow;\n"
			      "deny write;\n"
			      "allow write workspace /tmp tmpdir ~/.omp $EXTRA_WRITE;\n"
			      "allow write /var/folders /dev;\n"
			      "deny read home;\n"
			      "allow read ~/.omp workspace $EXTRA_READ;\n"
			      "allow stat-only exactly home;\n");
	cr_assert(not(eq(ptr, r.prof, NULL)), "%s", r.diag);
	sb_profile *p = r.prof;
	cr_assert(eq(sz, p->nrules, 8));
	sb_op ops[] = {SB_OP_DEFAULT, SB_OP_FILE_WRITE, SB_OP_FILE_WRITE, SB_OP_FILE_WRITE,
		       SB_OP_FILE_READ, SB_OP_FILE_READ, SB_OP_FILE_READ_METADATA,
		       SB_OP_FILE_READ_METADATA};
	sb_action acts[] = {SB_ALLOW, SB_DENY, SB_ALLOW, SB_ALLOW, SB_DENY, SB_ALLOW, SB_ALLOW,
			    SB_ALLOW};
	size_t nf[] = {0, 0, 5, 2, 1, 3, 2, 1};
	int lines[] = {1, 2, 3, 4, 5, 6, 6, 7};
	for (size_t i = 0; i < p->nrules; i++) {
		cr_expect(eq(sz, p->rules[i]->nops, 1), "rule %zu", i);
		cr_expect(eq(int, p->rules[i]->ops[0], ops[i]), "rule %zu", i);
		cr_expect(eq(int, p->rules[i]->action, acts[i]), "rule %zu", i);
		cr_expect(eq(sz, p->rules[i]->nfilters, nf[i]), "rule %zu", i);
		cr_expect(eq(int, p->rules[i]->origin->line, lines[i]), "rule %zu", i);
		cr_expect(eq(str, (char *)p->rules[i]->origin->file, "t.sbx"), "rule %zu", i);
	}
	/* params, sorted, in the header */
	cr_assert(eq(str, p->source_policy, "t.sbx"));
	cr_assert(eq(sz, p->nheader, 1));
	cr_assert(eq(str, p->header[0],
		     "params bound at launch: EXTRA_READ* EXTRA_WRITE* HOME HOME..EXTRA_READ* HOME..WORKSPACE TMPDIR WORKSPACE"));
	fe_done(&r);
}

Test(lower, default_is_emitted_first)
{
	expect_rules("deny write;\ndefault deny;\n", NULL, "(deny default)\n(deny file-write*)\n");
}

Test(lower, default_missing_or_twice_is_an_error)
{
	fe_run r = fe_compile("read /x;\n");
	cr_assert(eq(ptr, r.prof, NULL));
	cr_assert(not(eq(ptr, strstr(r.diag, "t.sbx: error: the policy has no 'default allow;' or 'default deny;' statement [default]"), NULL)), "%s", r.diag);
	fe_done(&r);
	r = fe_compile("default allow;\nread /x;\ndefault deny;\n");
	cr_assert(eq(ptr, r.prof, NULL));
	cr_assert(not(eq(ptr, strstr(r.diag, "t.sbx:3:1: error: a second 'default' statement"), NULL)), "%s", r.diag);
	cr_assert(not(eq(ptr, strstr(r.diag, "t.sbx:1:1: note: the first 'default' is here"), NULL)), "%s", r.diag);
	fe_done(&r);
}

Test(lower, access_classes_map_to_operations)
{
	expect_rules("default deny;\nallow read write stat-only exec /usr/bin;\n", NULL,
		     "(deny default)\n"
		     "(allow file-read* (subpath \"/usr/bin\"))\n"
		     "(allow file-write* (subpath \"/usr/bin\"))\n"
		     "(allow file-read-metadata (subpath \"/usr/bin\"))\n"
		     "(allow process-exec* (subpath \"/usr/bin\"))\n");
}

Test(lower, private_aliases)
{
	expect_rules("default allow;\nwrite /tmp /var/log exactly /etc/hosts /varx /private/tmp;\n", NULL,
		     "(allow default)\n"
		     "(allow file-write*\n"
		     "    (subpath \"/private/tmp\")\n"
		     "    (subpath \"/private/var/log\")\n"
		     "    (literal \"/private/etc/hosts\")\n"
		     "    (subpath \"/varx\")\n"
		     "    (subpath \"/private/tmp\")\n"
		     ")\n");
}

Test(lower, roots_and_params)
{
	expect_rules("default allow;\nread ~/a/b workspace/c tmpdir $P $P/q;\n", NULL,
		     "(allow default)\n"
		     "(allow file-read*\n"
		     "    (subpath (string-append (param \"HOME\") \"/a/b\"))\n"
		     "    (subpath (string-append (param \"WORKSPACE\") \"/c\"))\n"
		     "    (subpath (param \"TMPDIR\"))\n"
		     "    (subpath (param \"P\"))\n"
		     "    (subpath (string-append (param \"P\") \"/q\"))\n"
		     ")\n");
}

Test(lower, unfiltered_first_stays_unfiltered)
{
	expect_rules("default allow;\ndeny write;\nwrite /x;\n", NULL,
		     "(allow default)\n(deny file-write*)\n(allow file-write* (subpath \"/x\"))\n");
}

Test(lower, unfiltered_after_related_rule_gets_subpath_root)
{
	expect_rules("default allow;\nwrite /x;\ndeny write;\n", NULL,
		     "(allow default)\n(allow file-write* (subpath \"/x\"))\n(deny file-write* (subpath \"/\"))\n");
	/* a child op earlier counts as related (and adds the child op) */
	expect_rules("default allow;\nstat-only /x;\ndeny read;\n", NULL,
		     "(allow default)\n"
		     "(allow file-read-metadata (subpath \"/x\"))\n"
		     "(deny file-read* file-read-metadata (subpath \"/\"))\n");
	/* a parent op earlier counts as related too */
	expect_rules("default allow;\ndeny read /x;\nstat-only;\n", NULL,
		     "(allow default)\n"
		     "(deny file-read* (subpath \"/x\"))\n"
		     "(allow file-read-metadata (subpath \"/\"))\n");
	/* unrelated ops do not */
	expect_rules("default allow;\nexec /bin;\ndeny write;\n", NULL,
		     "(allow default)\n(allow process-exec* (subpath \"/bin\"))\n(deny file-write*)\n");
}

Test(lower, specificity_adds_the_child_op)
{
	expect_rules("default allow;\nstat-only ~/a;\ndeny read home;\n", NULL,
		     "(allow default)\n"
		     "(allow file-read-metadata (subpath (string-append (param \"HOME\") \"/a\")))\n"
		     "(deny file-read* file-read-metadata (subpath (param \"HOME\")))\n");
	/* disjoint static targets: no child op */
	expect_rules("default allow;\ndeny stat-only /a;\nread /b;\n", NULL,
		     "(allow default)\n(deny file-read-metadata (subpath \"/a\"))\n(allow file-read* (subpath \"/b\"))\n");
	/* same action: no child op */
	expect_rules("default allow;\nstat-only /a;\nread /a;\n", NULL,
		     "(allow default)\n(allow file-read-metadata (subpath \"/a\"))\n(allow file-read* (subpath \"/a\"))\n");
	/* different runtime roots might overlap: child op added */
	expect_rules("default allow;\ndeny stat-only workspace;\nread home;\n", NULL,
		     "(allow default)\n"
		     "(deny file-read-metadata (subpath (param \"WORKSPACE\")))\n"
		     "(allow file-read* file-read-metadata (subpath (param \"HOME\")))\n"
		     /* and home might lie below the workspace */
		     "(allow file-read-metadata (literal (param \"WORKSPACE..HOME\")))\n");
	/* literal vs subpath below it */
	expect_rules("default allow;\ndeny stat-only exactly /a/b;\nread /a;\n", NULL,
		     "(allow default)\n"
		     "(deny file-read-metadata (literal \"/a/b\"))\n"
		     "(allow file-read* file-read-metadata (subpath \"/a\"))\n");
	expect_rules("default allow;\ndeny stat-only exactly /a;\nread /a/b;\n", NULL,
		     "(allow default)\n(deny file-read-metadata (literal \"/a\"))\n(allow file-read* (subpath \"/a/b\"))\n");
}

Test(lower, ancestors_static_under_home)
{
	expect_rules("default allow;\ndeny read home;\nread ~/.config/gh;\n", NULL,
		     "(allow default)\n"
		     "(deny file-read* (subpath (param \"HOME\")))\n"
		     "(allow file-read* (subpath (string-append (param \"HOME\") \"/.config/gh\")))\n"
		     "(allow file-read-metadata (literal (string-append (param \"HOME\") \"/.config\")))\n");
}

Test(lower, ancestors_static_absolute_and_nested_regions)
{
	expect_rules("default allow;\ndeny read /opt;\ndeny read /opt/a/b;\nread /opt/a/b/c/d;\n", NULL,
		     "(allow default)\n"
		     "(deny file-read* (subpath \"/opt\"))\n"
		     "(deny file-read* (subpath \"/opt/a/b\"))\n"
		     "(allow file-read* (subpath \"/opt/a/b/c/d\"))\n"
		     "(allow file-read-metadata\n"
		     "    (literal \"/opt/a\")\n"
		     "    (literal \"/opt/a/b\")\n"
		     "    (literal \"/opt/a/b/c\")\n"
		     ")\n");
}

Test(lower, ancestors_of_unfiltered_deny)
{
	expect_rules("default allow;\ndeny read;\nread /usr/lib/x;\n", NULL,
		     "(allow default)\n"
		     "(deny file-read*)\n"
		     "(allow file-read* (subpath \"/usr/lib/x\"))\n"
		     "(allow file-read-metadata\n"
		     "    (literal \"/usr\")\n"
		     "    (literal \"/usr/lib\")\n"
		     ")\n");
}

Test(lower, ancestors_runtime)
{
	expect_rules("default allow;\ndeny read home;\nread workspace $EXTRA_READ ~/.omp tmpdir/x;\n", NULL,
		     "(allow default)\n"
		     "(deny file-read* (subpath (param \"HOME\")))\n"
		     "(allow file-read*\n"
		     "    (subpath (param \"WORKSPACE\"))\n"
		     "    (subpath (param \"EXTRA_READ*\"))\n"
		     "    (subpath (string-append (param \"HOME\") \"/.omp\"))\n"
		     "    (subpath (string-append (param \"TMPDIR\") \"/x\"))\n"
		     ")\n"
		     "(allow file-read-metadata\n"
		     "    (literal (param \"HOME..WORKSPACE\"))\n"
		     "    (literal (param \"HOME..EXTRA_READ*\"))\n"
		     "    (literal (param \"HOME..TMPDIR\"))\n"
		     "    (literal (param \"TMPDIR\"))\n"
		     ")\n");
}

Test(lower, ancestors_runtime_with_suffix)
{
	expect_rules("default allow;\ndeny read home;\nread workspace/src/lib;\n", NULL,
		     "(allow default)\n"
		     "(deny file-read* (subpath (param \"HOME\")))\n"
		     "(allow file-read* (subpath (string-append (param \"WORKSPACE\") \"/src/lib\")))\n"
		     "(allow file-read-metadata\n"
		     "    (literal (param \"HOME..WORKSPACE\"))\n"
		     "    (literal (param \"WORKSPACE\"))\n"
		     "    (literal (string-append (param \"WORKSPACE\") \"/src\"))\n"
		     ")\n");
}

Test(lower, ancestors_not_for_denies_or_writes_or_outside)
{
	expect_rules("default allow;\ndeny read home;\nwrite ~/a/b;\ndeny read ~/c/d;\nread /usr/x/y;\n", NULL,
		     "(allow default)\n"
		     "(deny file-read* (subpath (param \"HOME\")))\n"
		     "(allow file-write* (subpath (string-append (param \"HOME\") \"/a/b\")))\n"
		     "(deny file-read* (subpath (string-append (param \"HOME\") \"/c/d\")))\n"
		     "(allow file-read* (subpath \"/usr/x/y\"))\n");
}

Test(lower, ancestors_for_stat_only_allow)
{
	expect_rules("default allow;\ndeny read home;\nstat-only exactly ~/a/b;\n", NULL,
		     "(allow default)\n"
		     "(deny file-read* (subpath (param \"HOME\")))\n"
		     "(allow file-read-metadata (literal (string-append (param \"HOME\") \"/a/b\")))\n"
		     "(allow file-read-metadata (literal (string-append (param \"HOME\") \"/a\")))\n");
}

Test(lower, network)
{
	expect_rules("default allow;\nnetwork off;\nnetwork on;\n", NULL,
		     "(allow default)\n(deny network*)\n(allow network*)\n");
}

Test(lower, defines_bind_params)
{
	sbx_defines defs = {0};
	sb_bindings_set(&defs, "HOME", "/Users/me/");
	sb_bindings_set(&defs, "WORKSPACE", "/Users/me/src/app");
	sb_bindings_set(&defs, "EXTRA_READ", "/Users/me/a::/tmp/b");
	expect_rules("default allow;\ndeny read home;\nread ~/.omp workspace $EXTRA_READ tmpdir;\n", &defs,
		     "(allow default)\n"
		     "(deny file-read* (subpath \"/Users/me\"))\n"
		     "(allow file-read*\n"
		     "    (subpath \"/Users/me/.omp\")\n"
		     "    (subpath \"/Users/me/src/app\")\n"
		     "    (subpath \"/Users/me/a\")\n"
		     "    (subpath \"/private/tmp/b\")\n"
		     "    (subpath (param \"TMPDIR\"))\n"
		     ")\n"
		     "(allow file-read-metadata (literal \"/Users/me/src\"))\n");
	sb_bindings_clear(&defs);
}

Test(lower, empty_list_define_drops_the_rule)
{
	sbx_defines defs = {0};
	sb_bindings_set(&defs, "EXTRA_WRITE", "::");
	expect_rules("default allow;\ndeny write;\nwrite $EXTRA_WRITE;\n", &defs,
		     "(allow default)\n(deny file-write*)\n");
	sb_bindings_clear(&defs);
}

Test(lower, bad_defines_are_errors)
{
	const char *bad[] = {"relative/x", "/a/../b", "/a\nb", ""};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		sbx_defines defs = {0};
		sb_bindings_set(&defs, "HOME", bad[i]);
		fe_run r = fe_compile_defs("default allow;\ndeny read home;\n", &defs);
		cr_assert(eq(ptr, r.prof, NULL), "accepted -D HOME=%s", bad[i]);
		cr_assert(not(eq(ptr, strstr(r.diag, "t.sbx:2:11: error: -D HOME"), NULL)), "%s", r.diag);
		fe_done(&r);
		sb_bindings_clear(&defs);
	}
}
