/* Unit tests for the streamed compile (sbx_lower_stream in
 * compiler/lower/lower.c, sb_sbpl_stream_* in compiler/sbpl/emit_sbpl.c):
 * the same bytes as the whole profile emitted at once, and nothing written
 * to the output when the compile fails or a string is refused.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend_util.h"

static void put_rule(void *w, const sb_rule *r)
{
	sb_sbpl_stream_rule(w, r);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(buf);
		return strdup("");
	}
	return buf;
}

static bool contains_error(const char *diag)
{
	return diag && strstr(diag, ": error: ") != NULL;
}

/* Compile `text` streamed into `out`; returns finish's result (or 2 when
 * the lowering failed), diagnostics in *diag (caller frees).  */
static int stream_compile(const char *text, const sbx_defines *defs, const char *out, char **diag)
{
	fe_run r = fe_parse(text);
	cr_assert(not(eq(ptr, r.pol, NULL)), "%s", r.diag);
	sb_sbpl_stream *w = sb_sbpl_stream_new(out, NULL);
	sbx_rule_sink sink = {w, put_rule};
	sb_profile *prof = sbx_lower_stream(r.pol, defs, r.d, &sink);
	int rc = prof ? sb_sbpl_stream_finish(w, prof, r.d) : 2;
	sb_sbpl_stream_free(w);
	sb_profile_free(prof);
	*diag = strdup(fe_diag(&r));
	fe_done(&r);
	return rc;
}

/* A policy with every kind of rule the lowering makes (order-robust
 * adjustments, ancestor grants, egress, a preset gate) and `extra`
 * generated statements after it.  */
static char *policy(int extra)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fputs("default allow;\n"
	      "deny write;\n"
	      "allow write workspace /tmp tmpdir ~/.omp $EXTRA_WRITE;\n"
	      "deny read home;\n"
	      "allow read ~/.omp workspace $EXTRA_READ ~/a/b/c;\n"
	      "allow stat-only exactly home;\n"
	      "deny exec;\n"
	      "allow exec /usr/bin;\n"
	      "network allow \"example.com\";\n"
	      "preset \"git\";\n"
	      "allow read ~/.gitconfig;\n",
	      f);
	for (int i = 0; i < extra; i++) {
		static const char *const kinds[] = {"allow write /w", "deny read /r", "allow read ~/p",
						    "deny exec /x"};
		fprintf(f, "%s/g%d/n%d;\n", kinds[i % 4], i / 100, i);
	}
	fclose(f);
	return text;
}

static void same_as_whole(int extra)
{
	char dir[] = "/tmp/sbx-stream-XXXXXX";
	cr_assert(not(eq(ptr, mkdtemp(dir), NULL)));
	char out[64];
	snprintf(out, sizeof out, "%s/out.sb", dir);
	char *text = policy(extra);
	fe_run whole = fe_compile(text);
	cr_assert(not(eq(ptr, whole.text, NULL)), "%s", whole.diag);
	char *diag = NULL;
	cr_assert(eq(int, stream_compile(text, NULL, out, &diag), 0), "%s", diag);
	char *got = slurp(out);
	cr_assert(not(eq(ptr, got, NULL)));
	cr_assert(eq(str, got, whole.text));
	cr_assert(eq(int, fe_count_entries(dir), 1), "only the output: the rules' file is gone");
	struct stat st;
	cr_assert(eq(int, stat(out, &st), 0));
	cr_assert(eq(u32, (unsigned)(st.st_mode & 0777), 0644));
	free(got);
	free(diag);
	free(text);
	fe_done(&whole);
	unlink(out);
	rmdir(dir);
}

Test(emit_stream, same_bytes_as_the_whole_profile)
{
	same_as_whole(0);
}

/* Past one run of the buffer (emit_sbpl.c, STREAM_RUN): the rules go
 * through the temporary file and are copied behind the head.  */
Test(emit_stream, same_bytes_through_the_rules_file)
{
	same_as_whole(6000);
}

Test(emit_stream, failed_lowering_leaves_the_output_untouched)
{
	char dir[] = "/tmp/sbx-stream-XXXXXX";
	cr_assert(not(eq(ptr, mkdtemp(dir), NULL)));
	char out[64];
	snprintf(out, sizeof out, "%s/out.sb", dir);
	FILE *f = fopen(out, "w");
	fputs("old\n", f);
	fclose(f);
	sbx_defines defs = {0};
	cr_assert(eq(ptr, (void *)sb_bindings_parse_define(&defs, "WORKSPACE=relative"), NULL));
	char *text = policy(3000);
	char *diag = NULL;
	/* the error comes after rules went to the stream */
	cr_assert(eq(int, stream_compile(text, &defs, out, &diag), 2));
	cr_assert(contains_error(diag), "%s", diag);
	char *got = slurp(out);
	cr_assert(eq(str, got, "old\n"), "the old output is unchanged");
	cr_assert(eq(int, fe_count_entries(dir), 1), "no temporary file left");
	free(got);
	free(diag);
	free(text);
	sb_bindings_clear(&defs);
	unlink(out);
	rmdir(dir);
}

Test(emit_stream, refused_string_writes_nothing)
{
	char dir[] = "/tmp/sbx-stream-XXXXXX";
	cr_assert(not(eq(ptr, mkdtemp(dir), NULL)));
	char out[64];
	snprintf(out, sizeof out, "%s/out.sb", dir);
	fe_run r;
	fe_open(&r);
	sb_profile *p = sb_profile_new();
	sb_sbpl_stream *w = sb_sbpl_stream_new(out, NULL);
	sb_rule *ok = sb_rule_new(SB_ALLOW, (sb_loc){0});
	sb_rule_add_op(ok, SB_OP_FILE_READ, NULL);
	sb_rule_add_filter(ok, sb_filter_path(SB_F_SUBPATH, sb_str_lit("/a"), (sb_loc){0}));
	sb_rule *bad = sb_rule_new(SB_ALLOW, (sb_loc){0});
	sb_rule_add_op(bad, SB_OP_FILE_READ, NULL);
	sb_rule_add_filter(bad, sb_filter_path(SB_F_SUBPATH, sb_str_lit("/a\n(allow default)"),
					       (sb_loc){.file = "t.sbx", .line = 3, .col = 1}));
	sb_sbpl_stream_rule(w, ok);
	sb_sbpl_stream_rule(w, bad);
	sb_sbpl_stream_rule(w, ok);
	cr_assert(eq(str, (char *)fe_diag(&r), ""), "reported at the end, not when given");
	cr_assert(eq(int, sb_sbpl_stream_finish(w, p, r.d), 1));
	cr_assert(eq(int, sb_diag_errors(r.d), 1), "reported once");
	cr_assert(not(eq(ptr, strstr(fe_diag(&r), "t.sbx:3:1: error: a string contains a control character"),
			 NULL)), "%s", r.diag);
	cr_assert(eq(int, fe_count_entries(dir), 0), "nothing written");
	sb_sbpl_stream_free(w);
	sb_rule_free(ok);
	sb_rule_free(bad);
	sb_profile_free(p);
	fe_done(&r);
	rmdir(dir);
}

/* sbc --check: the rules are emitted (for the refusals) and not kept.  */
Test(emit_stream, check_mode_writes_nothing)
{
	char *text = policy(10);
	char *diag = NULL;
	cr_assert(eq(int, stream_compile(text, NULL, NULL, &diag), 0), "%s", diag);
	free(diag);
	free(text);
}
