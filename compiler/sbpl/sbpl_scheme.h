/* sbpl_scheme.h - run an SBPL document as the TinyScheme program Seatbelt
 * evaluates, as far as real profiles need it, and hand back the rule forms
 * it produces: the "residual" program that sbpl_read.c maps to the IR.
 *
 * Why: real profiles (Chromium's common.sb and every profile built on it)
 * name params through constants, define helper procedures and decide on
 * params ((if (param-true? x) ...), (< os-version 1013)).  A reader that
 * pattern-matches forms cannot follow them; a small evaluator can.
 *
 * Modelled (docs/sbpl-model.md, "Evaluation"): define of values and
 * procedures, lambda, if, when, unless, cond, begin, let, let*, letrec,
 * named let, and, or, not, quote, strings, numbers and booleans with
 * string-append, string=?, string?, string-length, substring,
 * string->number, number->string, = < <= > >= + - *, equal?, eq?, eqv?,
 * list, cons, car, cdr, null?, pair?, length, map, for-each, param, getenv,
 * regex-quote, defined?.
 *
 * Partial evaluation: a param that is not bound stays symbolic.  In a
 * string it is carried as (param "NAME") (and (string-append ...)), so the
 * binder decides it later exactly as before; where a decision depends on
 * it (a condition, string-length, substring, regex-quote ...) the value is
 * "unknown".  An if/when/unless/cond on an unknown condition evaluates
 * both branches and hands back (if COND (begin THEN...) (begin ELSE...)),
 * which the reader keeps as conditional rules (unknown where it matters).
 * A definition made under an unknown condition is unknown afterwards.
 * A bound param keeps its (param "NAME") spelling in strings too, so a
 * re-emitted profile stays path-free.
 *
 * Anything else is left to the rule mapper as a form with evaluated
 * arguments: Seatbelt's operations and filters ((subpath ...),
 * (global-name ...), (with no-log), symbols such as REGULAR-FILE) and
 * procedures this reader does not know.  A call of a procedure that is
 * neither defined in the profile nor a known Seatbelt filter gets a
 * located warning [sbpl-unknown].
 *
 * Location: a rule made inside a procedure keeps the location of its
 * (allow ...) form in the definition and gets the call site of the
 * outermost procedure call in sx_node.call.
 *
 * Bounds: evaluation depth, steps and allocated bytes are limited
 * (SBS_MAX_*); exceeding one is a located error [sbpl-eval], so no input
 * hangs or exhausts the reader.  Type errors Seatbelt would refuse
 * ((string-length 5), a procedure called with the wrong number of
 * arguments) are located errors [sbpl-eval] as well.  */
#ifndef SB_SBPL_SCHEME_H
#define SB_SBPL_SCHEME_H

#include <stddef.h>
#include "compiler/common/diag.h"
#include "compiler/ir/ir.h"
#include "compiler/sbpl/sexp.h"

enum {
	SBS_MAX_DEPTH = 400,            /* nested evaluations */
	SBS_MAX_STEPS = 2000000,        /* evaluation steps, plus ... */
	SBS_STEPS_PER_BYTE = 16,        /* ... this many per byte of input */
	SBS_MAX_BYTES = 64 << 20,       /* bytes of values and residual forms, plus ... */
	SBS_BYTES_PER_BYTE = 64,        /* ... this many per byte of input */
};

typedef struct sbs_program sbs_program;

/* Evaluate the top-level forms of `doc` with `params` (may be NULL; a
 * param with exactly one value is bound, any other stays symbolic).
 * Returns the residual program, or NULL after an error (reported to d).
 * The residual forms may share nodes with `doc`: free the program before
 * the document.  */
sbs_program *sbs_run(const sx_doc *doc, const sb_bindings *params, sb_diag *d);
size_t sbs_nforms(const sbs_program *p);
const sx_node *sbs_form(const sbs_program *p, size_t i);
void sbs_program_free(sbs_program *p);

#endif
