/* diag.h - the one diagnostics funnel of omp-sandbox.
 *
 * Every message a tool prints about an input goes through sb_diag_report():
 * it counts errors and warnings and renders them in one of three formats.
 * GCC text form:  file:line:col: error: message   (then the source line and a caret)
 * JSON:           one object per diagnostic, collected and printed by sb_diag_flush()
 * SARIF 2.1.0:    a single run, printed by sb_diag_flush()
 * The library never prints on its own; it reports here.  */
#ifndef SB_DIAG_H
#define SB_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A source location.  `file` is borrowed from the sb_diag's interned file
 * table (sb_diag_intern), so locations stay valid as long as the sink.
 * line and col start at 1; 0 means "unknown".  */
typedef struct sb_loc {
	const char *file;
	int line, col;
	int end_line, end_col;
} sb_loc;

typedef enum { SB_SEV_NOTE, SB_SEV_WARNING, SB_SEV_ERROR } sb_severity;
typedef enum { SB_FMT_TEXT, SB_FMT_JSON, SB_FMT_SARIF } sb_diag_format;

typedef struct sb_diag sb_diag;

sb_diag *sb_diag_new(FILE *out, sb_diag_format fmt);
void sb_diag_free(sb_diag *d);

/* Colour: off by default; sb_diag_auto_colour() turns it on when `out` is a
 * terminal and `no_color` (the program's NO_COLOR, NULL when unset) is
 * NULL or empty.  The program reads its environment; this library does
 * not (docs/architecture.md, "What each stage must not do").  */
void sb_diag_set_colour(sb_diag *d, bool on);
void sb_diag_auto_colour(sb_diag *d, const char *no_color);
/* Where sb_diag_flush() writes the JSON/SARIF report; with a report
 * stream set, every diagnostic is also printed as text on `out`, so a
 * person sees it while a tool reads the report (sbc --check
 * --format=sarif: the report on stdout, the text on stderr).  */
void sb_diag_set_report(sb_diag *d, FILE *report);
/* -Werror: warnings count as errors.  */
void sb_diag_set_werror(sb_diag *d, bool on);
/* Tool name used for diagnostics without a location ("sbc: error: ...").  */
void sb_diag_set_tool(sb_diag *d, const char *tool);

/* Intern a file name; the returned pointer lives as long as `d`.  */
const char *sb_diag_intern(sb_diag *d, const char *file);
/* Register the text of a source so carets can be printed (copied).
 * Returns the copy, which lives as long as `d`: the policy front end
 * points its statements' text into it (compiler/ir/ir.h, sb_origin).  */
const char *sb_diag_add_source(sb_diag *d, const char *file, const char *text, size_t len);
/* Zeroed storage, and a NUL-terminated copy of n bytes, that live as long
 * as `d`, like its interned names: what locations point to (origin
 * records and their statement text, compiler/ir/ir.h).  */
void *sb_diag_keep(sb_diag *d, size_t n);
const char *sb_diag_keep_text(sb_diag *d, const char *s, size_t n);

/* Report.  `code` is a short stable identifier of the check or class
 * ("syntax", "sensitive", "wide-root", "dead-rule", ...), used in JSON/SARIF
 * and in the text form as " [code]".  `loc` may be NULL.  */
void sb_diag_report(sb_diag *d, sb_severity sev, const sb_loc *loc, const char *code,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void sb_diag_vreport(sb_diag *d, sb_severity sev, const sb_loc *loc, const char *code,
		     const char *fmt, va_list ap);
/* A note attached to the previous diagnostic (e.g. "the later rule is here").  */
void sb_diag_note(sb_diag *d, const sb_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

int sb_diag_errors(const sb_diag *d);   /* includes warnings under -Werror */
int sb_diag_warnings(const sb_diag *d);
/* Print what JSON/SARIF collected (no-op for text).  */
void sb_diag_flush(sb_diag *d);

#endif
