/* denial_report.c - the denial trace's output (denial.h, docs/trace.md):
 * one live report a denial, in words or as one JSON object a line, and the
 * summary at exit.  Everything from the sandboxed side is escaped.  */
#include "runtime/common/denial_internal.h"
#include "runtime/common/textesc.h"

#include <stdlib.h>
#include <string.h>
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

/* ---- output escaping: nothing from the sandboxed side reaches the
 * output raw (a newline in a file name must not start a forged line) ---- */

void sb_den_put_text(FILE *f, const char *s)
{
	sb_text_put(f, s);   /* C0, C1, DEL, invalid UTF-8, bidi: escaped */
}

/* A rule's origin: "file:line", or the name alone for a rule made at
 * launch (line 0: OMP_SANDBOX_NETWORK=off, runtime/common/netmode.c).  */
void sb_den_put_origin(FILE *f, const sb_origin *o)
{
	sb_den_put_text(f, o->file);
	if (o->line > 0)
		fprintf(f, ":%d", o->line);
}

/* Length of the valid UTF-8 sequence at p, 0 when invalid.  */
static size_t utf8_len(const unsigned char *p)
{
	size_t n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
	if (p[0] > 0xf4)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

static void put_json(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
		} else if (*p < 0x80) {
			fputc(*p++, f);
		} else {
			size_t n = utf8_len(p);
			if (n) {
				fwrite(p, 1, n, f);
				p += n;
			} else {
				fputs("\\ufffd", f);   /* not UTF-8: one replacement a byte */
				p++;
			}
		}
	}
	fputc('"', f);
}

static void put_json_or_null(FILE *f, const char *s)
{
	if (s)
		put_json(f, s);
	else
		fputs("null", f);
}

static void report_text(const sb_tracer *t, const entry *e, FILE *f)
{
	fprintf(f, "sandbox: denied %s ", sb_access_word(e->access));
	sb_den_put_text(f, e->path);
	if (e->access == SB_ACC_CONNECT)
		fprintf(f, ":%d", e->port);
	if (e->absent)
		fputs(" (hidden: it looks absent inside the sandbox)", f);
	fputs(" \xe2\x80\x94 ", f);   /* an em dash */
	if (e->platform_only && e->detail) {
		/* refused whatever the policy says (the backend says why) */
		if (e->access != SB_ACC_NETWORK)
			fputs("refused on this kernel: ", f);
		sb_den_put_text(f, e->detail);
		fputs("; no variable allows it", f);
	} else if (e->platform_only && sb_path_is_under(e->path, "/dev/shm")) {
		fputs("the profile allows this, but without masks (no user or mount namespace "
		      "here, or --mechanism complement) the sandbox has no private /dev/shm; "
		      "sbrun --allow-shm grants the host's, shared with every process of yours "
		      "(docs/limitations.md)", f);
	} else if (e->platform_only) {
		fputs("the profile allows this, but the Linux plan is narrower here "
		      "(sbrun --plan shows which rule it could not express); no variable allows it", f);
	} else {
		if (e->origin)
			sb_den_put_origin(f, e->origin);
		else if (e->detail)
			sb_den_put_text(f, e->detail);
		else
			fputs("the profile", f);
		if (e->rule_text) {
			fputs(" \"", f);
			sb_den_put_text(f, e->rule_text);
			fputc('"', f);
		}
		char *fix = sb_den_entry_fix(t, e);
		fputs("; to allow: ", f);
		sb_den_put_text(f, fix);   /* it holds the path */
		free(fix);
	}
	fputs(" [", f);
	sb_den_put_text(f, e->process ? e->process : "?");
	fprintf(f, " pid %d]\n", e->pid);
}

static void report_json(const sb_tracer *t, const entry *e, const char *syscall, FILE *f)
{
	fputs("{\"event\":\"denied\",\"access\":", f);
	put_json(f, sb_access_word(e->access));
	fputs(",\"path\":", f);
	put_json(f, e->path);
	fprintf(f, ",\"pid\":%d,\"process\":", e->pid);
	put_json_or_null(f, e->process);
	fputs(",\"syscall\":", f);
	put_json_or_null(f, syscall);
	if (e->access == SB_ACC_CONNECT) {
		fprintf(f, ",\"port\":%d,\"reason\":", e->port);
		put_json_or_null(f, e->detail);
	} else if (e->detail) {
		fputs(",\"reason\":", f);
		put_json(f, e->detail);
	}
	fputs(",\"policy\":", f);
	if (e->origin) {
		fputs("{\"file\":", f);
		put_json(f, e->origin->file);
		if (e->origin->line > 0)
			fprintf(f, ",\"line\":%d,\"statement\":", e->origin->line);
		else
			fputs(",\"line\":null,\"statement\":", f);
		put_json_or_null(f, e->rule_text);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fprintf(f, ",\"absent\":%s", e->absent ? "true" : "false");
	fprintf(f, ",\"platform_only\":%s,\"fix\":", e->platform_only ? "true" : "false");
	if (e->platform_only) {
		fputs("null", f);
	} else {
		char *fix = sb_den_entry_fix(t, e);
		put_json(f, fix);
		free(fix);
	}
	const sb_sensitive_entry *s =
		e->access == SB_ACC_NETWORK || e->access == SB_ACC_CONNECT ? NULL
					    : sb_den_grant_sensitive(t, sb_den_verb_of(e->access), e->path);
	fputs(",\"sensitive\":", f);
	put_json_or_null(f, s ? s->why : NULL);
	fputs("}\n", f);
}

void sb_tracer_summary(sb_tracer *t, int status)
{
	FILE *f = t->cfg.out;
	if (!f)
		return;
	const sb_tracer_counts *c = &t->counts;
	if (t->cfg.json) {
		fprintf(f, "{\"event\":\"summary\",\"status\":%d,\"denied\":%zu,\"distinct\":%zu,"
			   "\"reported\":%zu,\"suppressed\":%zu,\"unreadable\":%zu,\"unobserved\":[",
			status, c->denied, c->distinct, c->reported, c->suppressed, c->lost);
		for (size_t i = 0; i < t->nunobserved; i++) {
			if (i)
				fputc(',', f);
			put_json(f, t->unobserved[i]);
		}
		fputs("]}\n", f);
	} else {
		fprintf(f, "sandbox: trace summary: %zu denied access%s (%zu distinct), exit status %d",
			c->denied, c->denied == 1 ? "" : "es", c->distinct, status);
		if (c->suppressed)
			fprintf(f, "; %zu report%s suppressed (rate limit or the %zu-entry cap)",
				c->suppressed, c->suppressed == 1 ? "" : "s", t->cfg.max_distinct);
		if (c->lost)
			fprintf(f, "; %zu event%s could not be read", c->lost, c->lost == 1 ? "" : "s");
		fputc('\n', f);
		for (size_t i = 0; i < t->n && i < 20; i++) {
			const entry *e = t->v[i];
			fprintf(f, "sandbox:   %zux %s ", e->count, sb_access_word(e->access));
			sb_den_put_text(f, e->path);
			if (e->origin) {
				fputs(" (", f);
				sb_den_put_origin(f, e->origin);
				fputc(')', f);
			}
			else if (e->platform_only && e->detail)
				fputs(" (refused on this kernel)", f);
			fputc('\n', f);
		}
		if (t->n > 20)
			fprintf(f, "sandbox:   ... and %zu more\n", t->n - 20);
		for (size_t i = 0; i < t->nunobserved; i++)
			fprintf(f, "sandbox:   not observed: %s\n", t->unobserved[i]);
	}
	fflush(f);
}

void sb_den_report(const sb_tracer *t, const entry *e, const char *syscall, FILE *f)
{
	if (t->cfg.json)
		report_json(t, e, syscall, f);
	else
		report_text(t, e, f);
}
