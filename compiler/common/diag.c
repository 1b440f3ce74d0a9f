/* diag.c - the diagnostics funnel: counting, text (GCC form with caret),
 * JSON and SARIF 2.1.0 rendering.  */
#include "compiler/common/diag.h"
#include "compiler/common/arena.h"
#include "compiler/common/json.h"
#include "compiler/common/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The project's home, named in SARIF's tool.driver.informationUri (the
 * Makefile passes HOMEPAGE).  */
#ifndef SB_HOMEPAGE
#define SB_HOMEPAGE "https://github.com/bnivanov/omp-sandbox"
#endif

typedef struct source {
	char *file;
	char *text;
	size_t len;
} source;

typedef struct record {
	sb_severity sev;
	sb_loc loc;
	bool has_loc;
	char *code;
	char *msg;
	bool is_note;
} record;

struct sb_diag {
	FILE *out;
	FILE *report;            /* JSON/SARIF go here at flush, text stays on out */
	sb_diag_format fmt;
	bool colour, werror;
	char *tool;
	char **files;            /* interned file names */
	size_t nfiles;
	source *sources;
	size_t nsources;
	record *records;         /* JSON/SARIF: kept until flush */
	size_t nrecords;
	int errors, warnings;
	/* what sb_diag_keep hands out: origin records and the statement
	 * texts a profile read back carries (compiler/ir/ir.h, sb_origin) */
	sb_arena keep;
};

sb_diag *sb_diag_new(FILE *out, sb_diag_format fmt)
{
	sb_diag *d = xcalloc(1, sizeof *d);
	d->out = out ? out : stderr;
	d->fmt = fmt;
	d->tool = xstrdup("sbc");
	return d;
}

void sb_diag_free(sb_diag *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nfiles; i++)
		free(d->files[i]);
	free(d->files);
	for (size_t i = 0; i < d->nsources; i++) {
		free(d->sources[i].file);
		free(d->sources[i].text);
	}
	free(d->sources);
	for (size_t i = 0; i < d->nrecords; i++) {
		free(d->records[i].code);
		free(d->records[i].msg);
	}
	free(d->records);
	free(d->tool);
	sb_arena_clear(&d->keep);
	free(d);
}

void sb_diag_set_colour(sb_diag *d, bool on) { d->colour = on; }
void sb_diag_set_report(sb_diag *d, FILE *report) { d->report = report; }
void sb_diag_set_werror(sb_diag *d, bool on) { d->werror = on; }

void sb_diag_set_tool(sb_diag *d, const char *tool)
{
	free(d->tool);
	d->tool = xstrdup(tool);
}

void sb_diag_auto_colour(sb_diag *d, const char *no_color)
{
	d->colour = (d->fmt == SB_FMT_TEXT || d->report) && isatty(fileno(d->out)) &&
		    !(no_color && *no_color);
}

const char *sb_diag_intern(sb_diag *d, const char *file)
{
	if (!file)
		return NULL;
	for (size_t i = 0; i < d->nfiles; i++)
		if (strcmp(d->files[i], file) == 0)
			return d->files[i];
	d->files = xrealloc(d->files, (d->nfiles + 1) * sizeof *d->files);
	d->files[d->nfiles] = xstrdup(file);
	return d->files[d->nfiles++];
}

void *sb_diag_keep(sb_diag *d, size_t n)
{
	return sb_arena_alloc(&d->keep, n);
}

const char *sb_diag_keep_text(sb_diag *d, const char *s, size_t n)
{
	return sb_arena_strndup(&d->keep, s, n);
}

const char *sb_diag_add_source(sb_diag *d, const char *file, const char *text, size_t len)
{
	d->sources = xrealloc(d->sources, (d->nsources + 1) * sizeof *d->sources);
	source *s = &d->sources[d->nsources++];
	s->file = xstrdup(file);
	s->text = xrealloc(NULL, len + 1);
	memcpy(s->text, text, len);
	s->text[len] = '\0';
	s->len = len;
	return s->text;
}

static const source *find_source(const sb_diag *d, const char *file)
{
	if (!file)
		return NULL;
	/* The newest registration wins (a file re-read after a change).  */
	for (size_t i = d->nsources; i-- > 0;)
		if (strcmp(d->sources[i].file, file) == 0)
			return &d->sources[i];
	return NULL;
}

static const char *sev_name(sb_severity s)
{
	return s == SB_SEV_ERROR ? "error" : s == SB_SEV_WARNING ? "warning" : "note";
}

static const char *sev_colour(sb_severity s)
{
	return s == SB_SEV_ERROR ? "\033[1;31m" : s == SB_SEV_WARNING ? "\033[1;35m" : "\033[1;36m";
}

/* Print the source line of `loc` and a caret (with ~ under the rest of a
 * one-line range).  Control bytes in the line print as '?', so a hostile
 * input cannot drive the terminal.  */
static void print_caret(sb_diag *d, const sb_loc *loc)
{
	const source *s = find_source(d, loc->file);
	if (!s || loc->line <= 0)
		return;
	const char *p = s->text, *end = s->text + s->len;
	for (int l = 1; l < loc->line && p < end; l++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return;
		p = nl + 1;
	}
	const char *eol = memchr(p, '\n', (size_t)(end - p));
	if (!eol)
		eol = end;
	size_t width = (size_t)(eol - p);
	if (width > 400)
		width = 400;   /* keep huge lines readable */
	fputs("  ", d->out);
	for (size_t i = 0; i < width; i++) {
		unsigned char c = (unsigned char)p[i];
		fputc(c == '\t' ? ' ' : (c < 0x20 || c == 0x7f) ? '?' : c, d->out);
	}
	fputs("\n  ", d->out);
	int col = loc->col > 0 ? loc->col : 1;
	for (int i = 1; i < col && (size_t)i <= width; i++)
		fputc(' ', d->out);
	if (d->colour)
		fputs("\033[1;32m", d->out);
	fputc('^', d->out);
	if (loc->end_line == loc->line && loc->end_col > col + 1)
		for (int i = col + 1; i < loc->end_col && (size_t)i <= width; i++)
			fputc('~', d->out);
	if (d->colour)
		fputs("\033[0m", d->out);
	fputc('\n', d->out);
}

static void print_text(sb_diag *d, sb_severity sev, const sb_loc *loc, const char *code,
		       const char *msg)
{
	if (d->colour)
		fputs("\033[1m", d->out);
	if (loc && loc->file) {
		fprintf(d->out, "%s:", loc->file);
		if (loc->line > 0)
			fprintf(d->out, "%d:%d:", loc->line, loc->col > 0 ? loc->col : 1);
	} else {
		fprintf(d->out, "%s:", d->tool);
	}
	if (d->colour)
		fprintf(d->out, " %s%s:\033[0m\033[1m", sev_colour(sev), sev_name(sev));
	else
		fprintf(d->out, " %s:", sev_name(sev));
	fprintf(d->out, " %s", msg);
	if (code && *code)
		fprintf(d->out, " [%s]", code);
	if (d->colour)
		fputs("\033[0m", d->out);
	fputc('\n', d->out);
	if (loc)
		print_caret(d, loc);
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;
	s = xvasprintf(fmt, ap);
	return s;
}

static void add_record(sb_diag *d, sb_severity sev, const sb_loc *loc, const char *code,
		       char *msg, bool note)
{
	d->records = xrealloc(d->records, (d->nrecords + 1) * sizeof *d->records);
	record *r = &d->records[d->nrecords++];
	memset(r, 0, sizeof *r);
	r->sev = sev;
	if (loc) {
		r->loc = *loc;
		r->loc.file = sb_diag_intern(d, loc->file);
		r->has_loc = true;
	}
	r->code = xstrdup(code);
	r->msg = msg;
	r->is_note = note;
}

void sb_diag_vreport(sb_diag *d, sb_severity sev, const sb_loc *loc, const char *code,
		     const char *fmt, va_list ap)
{
	if (sev == SB_SEV_WARNING && d->werror)
		sev = SB_SEV_ERROR;
	if (sev == SB_SEV_ERROR)
		d->errors++;
	else if (sev == SB_SEV_WARNING)
		d->warnings++;
	char *msg = vformat(fmt, ap);
	if (d->fmt == SB_FMT_TEXT || d->report)
		print_text(d, sev, loc, code, msg);
	if (d->fmt == SB_FMT_TEXT)
		free(msg);
	else
		add_record(d, sev, loc, code, msg, false);
}

void sb_diag_report(sb_diag *d, sb_severity sev, const sb_loc *loc, const char *code,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_diag_vreport(d, sev, loc, code, fmt, ap);
	va_end(ap);
}

void sb_diag_note(sb_diag *d, const sb_loc *loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = vformat(fmt, ap);
	va_end(ap);
	if (d->fmt == SB_FMT_TEXT || d->report)
		print_text(d, SB_SEV_NOTE, loc, NULL, msg);
	if (d->fmt == SB_FMT_TEXT)
		free(msg);
	else
		add_record(d, SB_SEV_NOTE, loc, "", msg, true);
}

int sb_diag_errors(const sb_diag *d) { return d->errors; }
int sb_diag_warnings(const sb_diag *d) { return d->warnings; }

static void flush_json(sb_diag *d)
{
	FILE *o = d->report ? d->report : d->out;
	fputs("[", o);
	for (size_t i = 0; i < d->nrecords; i++) {
		record *r = &d->records[i];
		fprintf(o, "%s\n  {\"severity\": ", i ? "," : "");
		sb_json_string(o, sev_name(r->sev));
		fputs(", \"code\": ", o);
		sb_json_string(o, r->code);
		fputs(", \"message\": ", o);
		sb_json_string(o, r->msg);
		if (r->has_loc && r->loc.file) {
			fputs(", ", o);
			sb_json_bytes_member(o, "file", ": ", r->loc.file);
			fprintf(o, ", \"line\": %d, \"column\": %d", r->loc.line, r->loc.col);
			if (r->loc.end_line > 0)
				fprintf(o, ", \"end_line\": %d, \"end_column\": %d", r->loc.end_line,
					r->loc.end_col);
		}
		fputs("}", o);
	}
	fputs(d->nrecords ? "\n]\n" : "]\n", o);
}

/* An artifact's URI (SARIF 3.10.2: a URI reference): an absolute path as
 * a file: URI, a relative one as a relative reference; every byte outside
 * RFC 3986's unreserved set and '/' percent-encoded, so spaces, quotes and
 * invalid UTF-8 in a file name still make a valid URI.  */
static void flush_sarif(sb_diag *d)
{
	FILE *o = d->report ? d->report : d->out;
	fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
	      "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
	      "    \"tool\": {\"driver\": {\"name\": ", o);
	sb_json_string(o, d->tool);
	fputs(", \"informationUri\": ", o);
	sb_json_string(o, SB_HOMEPAGE);
#ifdef SB_VERSION
	fputs(", \"version\": ", o);
	sb_json_string(o, SB_VERSION);
#endif
	fputs(", \"rules\": [", o);
	/* One rule entry per distinct code, in first-seen order.  */
	size_t nrules = 0;
	for (size_t i = 0; i < d->nrecords; i++) {
		record *r = &d->records[i];
		if (r->is_note)
			continue;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !d->records[j].is_note && strcmp(d->records[j].code, r->code) == 0;
		if (seen)
			continue;
		fputs(nrules++ ? ", {\"id\": " : "{\"id\": ", o);
		sb_json_string(o, r->code);
		fputs("}", o);
	}
	fputs("]}},\n    \"results\": [", o);
	size_t nres = 0;
	for (size_t i = 0; i < d->nrecords; i++) {
		record *r = &d->records[i];
		if (r->is_note)
			continue;
		fputs(nres++ ? ",\n      {" : "\n      {", o);
		fputs("\"ruleId\": ", o);
		sb_json_string(o, r->code);
		fprintf(o, ", \"level\": \"%s\", \"message\": {\"text\": ",
			r->sev == SB_SEV_ERROR ? "error" : "warning");
		sb_json_string(o, r->msg);
		fputs("}", o);
		if (r->has_loc && r->loc.file) {
			fputs(", \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", o);
			sb_json_uri(o, r->loc.file);
			fprintf(o, "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}}]",
				r->loc.line > 0 ? r->loc.line : 1, r->loc.col > 0 ? r->loc.col : 1);
		}
		/* Notes that follow a result become its related locations.  */
		size_t first = i + 1, j = first;
		while (j < d->nrecords && d->records[j].is_note)
			j++;
		if (j > first) {
			fputs(", \"relatedLocations\": [", o);
			for (size_t k = first; k < j; k++) {
				record *n = &d->records[k];
				fprintf(o, "%s{\"id\": %zu, \"message\": {\"text\": ", k > first ? ", " : "",
					k - first);
				sb_json_string(o, n->msg);
				fputs("}", o);
				if (n->has_loc && n->loc.file) {
					fputs(", \"physicalLocation\": {\"artifactLocation\": {\"uri\": ", o);
					sb_json_uri(o, n->loc.file);
					fprintf(o, "}, \"region\": {\"startLine\": %d, \"startColumn\": %d}}",
						n->loc.line > 0 ? n->loc.line : 1,
						n->loc.col > 0 ? n->loc.col : 1);
				}
				fputs("}", o);
			}
			fputs("]", o);
		}
		fputs("}", o);
	}
	fputs(nres ? "\n    ]\n  }]\n}\n" : "]\n  }]\n}\n", o);
}

void sb_diag_flush(sb_diag *d)
{
	if (d->fmt == SB_FMT_JSON)
		flush_json(d);
	else if (d->fmt == SB_FMT_SARIF)
		flush_sarif(d);
	fflush(d->out);
	if (d->report)
		fflush(d->report);
}
