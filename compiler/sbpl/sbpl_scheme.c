/* sbpl_scheme.c - the TinyScheme-subset evaluator behind the SBPL reader
 * (see sbpl_scheme.h).
 *
 * Memory: every value, environment and residual node lives in one arena
 * owned by the evaluation; the arena counts its bytes against
 * SBS_MAX_BYTES.  Errors unwind with longjmp to sbs_run(): nothing is
 * allocated outside the arena while evaluating, so unwinding leaks
 * nothing, and no caller has to check for failure after every call.  */
#include "compiler/sbpl/sbpl_scheme.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/arena.h"
#include "compiler/common/strmap.h"
#include "compiler/common/xalloc.h"

typedef enum {
	V_UNSPEC, V_NIL, V_BOOL, V_NUM, V_STR, V_SYM, V_PAIR, V_PROC, V_PRIM, V_FORM, V_UNKNOWN
} vkind;

typedef struct value value;
typedef struct env env;
typedef struct ev ev;
typedef value *(*prim_fn)(ev *e, const sx_node *call, value **args, size_t n);

enum { PRIMS_MAX = 48 };   /* at least the entries of prims[] */

typedef struct prim {
	const char *name;
	int min, max;            /* argument counts; max -1: any */
	prim_fn fn;
} prim;

typedef struct proc {
	const char *name;        /* NULL: lambda */
	const sx_node *const *params; /* parameter symbols */
	size_t nparams;
	const char *rest;        /* variadic parameter, or NULL */
	const sx_node *const *body;
	size_t nbody;
	env *env;
} proc;

/* 64 bytes: a profile of rules without procedures makes thousands of
 * values (strings mostly), and their pages are a good part of a launch
 * (bench/analysis.md, launch); what only a procedure has is apart.  */
struct value {
	vkind kind;
	long long num;           /* NUM; BOOL: 0 or 1; SYM: 1 for a name evaluated
				    but defined nowhere (not a quoted symbol) */
	const char *text;        /* STR: the value, NULL while a param is unbound; SYM: name */
	size_t len;
	const sx_node *src;      /* STR, NUM, BOOL, SYM: the literal it was read from */
	const sx_node *expr;     /* STR: spelling with params, or NULL; FORM, UNKNOWN: the form */
	union {
		struct {
			value *car, *cdr;   /* PAIR */
		};
		proc *proc;              /* PROC */
		const prim *prim;        /* PRIM */
	};
};

typedef struct bind {
	const char *name;
	value *v;
	struct bind *next;
} bind;

/* A local frame; the global frame is ev.globals (parent NULL).  */
struct env {
	env *parent;
	bind *first;
};

typedef struct sink {
	const sx_node **v;
	size_t n, cap;
} sink;

/* A definition made under an unknown condition: unknown once the branch
 * is done.  */
typedef struct uncertain_def {
	env *env;
	const char *name;
} uncertain_def;

struct ev {
	sb_diag *d;
	const sb_bindings *params;
	jmp_buf fail;
	sb_arena arena;          /* values and built nodes: the program's */
	size_t bytes, max_bytes;
	size_t steps, max_steps;
	int depth;
	const sx_node *at;       /* the form being evaluated, for errors */
	sb_strmap *globals;      /* name -> value* */
	sb_strmap *warned;       /* unknown procedure names already reported */
	sink *out;
	int uncertain;           /* nesting of branches under an unknown condition */
	uncertain_def *udefs;
	size_t nudefs, capudefs;
	value *prim_vals[PRIMS_MAX];  /* by prim_index; NULL until asked */
	sb_loc call_loc;         /* outermost procedure call in progress */
	const char *call_name;
	const sx_call *call;     /* the same for the rule forms made in it; NULL */
	value unspec, nil, t, f;
};

struct sbs_program {
	sb_arena arena;
	sink forms;
};

/* ---- errors and memory ---- */

static _Noreturn void fail(ev *e, const sx_node *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static _Noreturn void fail(ev *e, const sx_node *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (!at)
		at = e->at;
	sb_diag_vreport(e->d, SB_SEV_ERROR, at ? &at->loc : NULL, "sbpl-eval", fmt, ap);
	va_end(ap);
	longjmp(e->fail, 1);
}

static void *ev_alloc(ev *e, size_t n)
{
	e->bytes += (n + 15) & ~(size_t)15;
	if (e->bytes > e->max_bytes)
		fail(e, NULL, "evaluating the profile needs more than %zu MiB: is a procedure building "
			      "strings or lists without end?", e->max_bytes >> 20);
	return sb_arena_alloc(&e->arena, n);
}

static char *ev_strndup(ev *e, const char *s, size_t n)
{
	char *p = ev_alloc(e, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static void step(ev *e, const sx_node *at)
{
	if (++e->steps > e->max_steps)
		fail(e, at, "evaluating the profile takes more than %zu steps: is there a loop "
			    "without end?", e->max_steps);
}

/* ---- values ---- */

static value *v_new(ev *e, vkind k)
{
	value *v = ev_alloc(e, sizeof *v);
	v->kind = k;
	return v;
}

static value *v_proc(ev *e, const char *name)
{
	value *v = v_new(e, V_PROC);
	v->proc = ev_alloc(e, sizeof *v->proc);
	v->proc->name = name;
	return v;
}

static value *v_bool(ev *e, bool b) { return b ? &e->t : &e->f; }

static value *v_num(ev *e, long long n)
{
	value *v = v_new(e, V_NUM);
	v->num = n;
	return v;
}

static value *v_str(ev *e, const char *text, size_t len, const sx_node *expr)
{
	value *v = v_new(e, V_STR);
	v->text = text;
	v->len = len;
	v->expr = expr;
	return v;
}

static value *v_sym(ev *e, const char *name)
{
	value *v = v_new(e, V_SYM);
	v->text = name;
	return v;
}

/* A value nothing can decide: `why` is the form it stands for.  */
static value *v_unknown(ev *e, const sx_node *why)
{
	value *v = v_new(e, V_UNKNOWN);
	v->expr = why;
	return v;
}

static value *v_pair(ev *e, value *car, value *cdr)
{
	value *v = v_new(e, V_PAIR);
	v->car = car;
	v->cdr = cdr;
	return v;
}

static bool seatbelt_defines(const char *name);

/* A name nobody defines is either a Seatbelt variable this reader does
 * not know (REGULAR-FILE, self, SYS_read: fine as filter arguments) or
 * a mistake: either way nothing can compute with it.  */
static bool is_unknown(const value *v)
{
	return v->kind == V_UNKNOWN || v->kind == V_FORM || (v->kind == V_STR && !v->text) ||
	       (v->kind == V_SYM && v->num && !seatbelt_defines(v->text));
}

typedef enum { T_FALSE, T_TRUE, T_UNKNOWN } tri;

/* Seatbelt's truth: only #f is false.  An unbound param may be #f there,
 * a form of an unknown procedure may be anything, and so may a name
 * nobody defines.  */
static tri truth(const value *v)
{
	if (v->kind == V_BOOL)
		return v->num ? T_TRUE : T_FALSE;
	return is_unknown(v) ? T_UNKNOWN : T_TRUE;
}

static const char *kind_name(const value *v)
{
	switch (v->kind) {
	case V_UNSPEC: return "no value";
	case V_NIL: return "an empty list";
	case V_BOOL: return v->num ? "#t" : "#f";
	case V_NUM: return "a number";
	case V_STR: return "a string";
	case V_SYM: return "a symbol";
	case V_PAIR: return "a list";
	case V_PROC: case V_PRIM: return "a procedure";
	case V_FORM: return "a filter";
	case V_UNKNOWN: return "an unknown value";
	}
	return "a value";
}

/* ---- residual forms ---- */

/* Where argument i of a call is (the call itself when it has no such
 * argument: map and for-each pass theirs on).  */
static sb_loc arg_loc(const sx_node *call, size_t i)
{
	return call->nkids > i + 1 ? call->kids[i + 1]->loc : call->loc;
}

static sx_node *node_new(ev *e, sx_kind kind, sb_loc loc)
{
	sx_node *n = ev_alloc(e, sizeof *n);
	n->kind = kind;
	n->loc = loc;
	return n;
}

static sx_node *node_list(ev *e, sb_loc loc, size_t nkids)
{
	sx_node *n = node_new(e, SX_LIST, loc);
	n->kids = ev_alloc(e, (nkids ? nkids : 1) * sizeof *n->kids);
	n->nkids = nkids;
	return n;
}

static sx_node *node_symbol(ev *e, const char *name, sb_loc loc)
{
	sx_node *n = node_new(e, SX_SYMBOL, loc);
	n->text = (char *)name;
	return n;
}

static sx_node *node_string(ev *e, const char *text, size_t len, sb_loc loc)
{
	sx_node *n = node_new(e, SX_STRING, loc);
	n->text = ev_strndup(e, text, len);
	n->len = len;
	return n;
}

static const sx_node *residual(ev *e, const value *v, sb_loc loc);

/* The residual of a list value: its elements (an improper tail last).  */
static const sx_node *residual_list(ev *e, const value *v, sb_loc loc)
{
	size_t n = 0;
	for (const value *p = v; p->kind == V_PAIR; p = p->cdr)
		n++;
	const value *tail = v;
	while (tail->kind == V_PAIR)
		tail = tail->cdr;
	sx_node *l = node_list(e, loc, n + (tail->kind != V_NIL));
	size_t i = 0;
	for (const value *p = v; p->kind == V_PAIR; p = p->cdr)
		l->kids[i++] = (sx_node *)residual(e, p->car, loc);
	if (tail->kind != V_NIL)
		l->kids[i] = (sx_node *)residual(e, tail, loc);
	return l;
}

/* A value as a form the rule mapper reads; literals keep their node (and
 * so their location and #"..." spelling).  */
static const sx_node *residual(ev *e, const value *v, sb_loc loc)
{
	char num[32];
	switch (v->kind) {
	case V_UNSPEC:
		return node_symbol(e, "#<unspecified>", loc);
	case V_NIL:
		return node_list(e, loc, 0);
	case V_BOOL: {
		if (v->src)
			return v->src;
		sx_node *n = node_new(e, SX_BOOL, loc);
		n->num = v->num;
		return n;
	}
	case V_NUM: {
		if (v->src)
			return v->src;
		sx_node *n = node_new(e, SX_NUMBER, loc);
		n->num = v->num;
		snprintf(num, sizeof num, "%lld", v->num);
		n->text = ev_strndup(e, num, strlen(num));
		return n;
	}
	case V_STR:
		if (v->expr)
			return v->expr;
		if (v->src)
			return v->src;
		return node_string(e, v->text, v->len, loc);
	case V_SYM:
		return v->src ? v->src : node_symbol(e, v->text, loc);
	case V_PAIR: {
		/* A list is data: emitted again it would be evaluated as a
		 * call (found by fuzz/fuzz_scheme.c), so it stays opaque. */
		const sx_node *l = residual_list(e, v, loc);
		sx_node *n = node_new(e, SX_OPAQUE, loc);
		char *text = sx_print(l);
		size_t tl = strlen(text);
		n->text = ev_alloc(e, tl + 10);
		snprintf(n->text, tl + 10, "(quote %s)", text);
		free(text);
		return n;
	}
	case V_PROC:
		return node_symbol(e, v->proc->name ? v->proc->name : "lambda", loc);
	case V_PRIM:
		return node_symbol(e, v->prim->name, loc);
	case V_FORM:
		return v->expr;
	case V_UNKNOWN: {
		/* opaque for the rule mapper, which must not read the
		 * unevaluated source as rules or filters */
		if (v->expr->kind == SX_SYMBOL)
			return v->expr;
		sx_node *n = node_new(e, SX_OPAQUE, v->expr->loc);
		char *text = sx_print(v->expr);
		n->text = ev_strndup(e, text, strlen(text));
		free(text);
		return n;
	}
	}
	return node_symbol(e, "#<unspecified>", loc);
}

static void sink_add(ev *e, sink *s, const sx_node *n)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		const sx_node **v = ev_alloc(e, cap * sizeof *v);
		if (s->n)
			memcpy(v, s->v, s->n * sizeof *v);
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = n;
}

static void emit(ev *e, const sx_node *n) { sink_add(e, e->out, n); }

/* ---- names Seatbelt defines ---- */

/* Filters and modifiers of Seatbelt's prelude (macOS 10.15 - 14) that a
 * profile may call without defining them.  Used for defined? and to warn
 * about calls of procedures nobody defines.  Sorted (bsearch).  */
static const char *const seatbelt_names[] = {
	"appleevent-destination", "control-name", "debug-mode", "device-conforms-to",
	"entitlement-is-bool-true", "entitlement-is-present", "entitlement-value", "extension",
	"extension-class", "file-attribute", "file-mode", "fsctl-command", "global-name",
	"global-name-prefix", "global-name-regex", "info-type", "iokit-connection",
	"iokit-property", "iokit-property-regex", "iokit-registry-entry-class",
	"iokit-registry-entry-class-prefix", "iokit-registry-entry-class-regex",
	"iokit-user-client-class", "ioctl-command", "ipc-posix-name", "ipc-posix-name-prefix",
	"ipc-posix-name-regex", "kext-bundle-id", "literal", "local", "local-name",
	"local-name-prefix", "local-name-regex", "mac-policy-name", "mach-message",
	"mount-relative-path", "notification-name", "path", "path-ancestors", "path-prefix",
	"path-regex", "preference-domain", "prefix", "process-attribute", "process-name",
	"process-path", "regex", "remote", "require-all", "require-any",
	"require-entitlement", "require-not", "require-signing-identifier", "right-name",
	"semaphore-owner", "signing-identifier", "socket-domain", "socket-protocol",
	"socket-type", "state-flag", "storage-class", "subpath", "syscall-number",
	"sysctl-name", "sysctl-name-prefix", "sysctl-name-regex", "target", "tty", "uid",
	"vnode-type", "with", "xattr", "xattr-prefix", "xattr-regex", "xpc-service-name",
	"xpc-service-name-prefix", "xpc-service-name-regex",
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool seatbelt_defines(const char *name)
{
	return sb_op_lookup(name) >= 0 ||
	       bsearch(&name, seatbelt_names, sizeof seatbelt_names / sizeof *seatbelt_names,
		       sizeof *seatbelt_names, cmp_name) != NULL;
}

/* ---- environments ---- */

static value **lookup_slot(ev *e, env *en, const char *name)
{
	for (; en; en = en->parent)
		for (bind *b = en->first; b; b = b->next) {
			step(e, NULL);
			if (!strcmp(b->name, name))
				return &b->v;
		}
	return (value **)sb_strmap_slot(e->globals, name, strlen(name), false);
}

static void define(ev *e, env *en, const char *name, value *v)
{
	if (en) {
		bind *b;
		for (b = en->first; b && strcmp(b->name, name); b = b->next)
			;
		if (!b) {
			b = ev_alloc(e, sizeof *b);
			b->name = name;
			b->next = en->first;
			en->first = b;
		}
		b->v = v;
	} else {
		*(value **)sb_strmap_slot(e->globals, name, strlen(name), true) = v;
	}
	if (e->uncertain) {
		if (e->nudefs == e->capudefs) {
			size_t cap = e->capudefs ? e->capudefs * 2 : 16;
			uncertain_def *u = ev_alloc(e, cap * sizeof *u);
			if (e->nudefs)
				memcpy(u, e->udefs, e->nudefs * sizeof *u);
			e->udefs = u;
			e->capudefs = cap;
		}
		e->udefs[e->nudefs++] = (uncertain_def){ en, name };
	}
}

static env *env_new(ev *e, env *parent)
{
	env *en = ev_alloc(e, sizeof *en);
	en->parent = parent;
	return en;
}

/* ---- evaluation ---- */

static value *eval(ev *e, const sx_node *x, env *en);
static const prim *prim_lookup(const char *name);
static size_t prim_index(const prim *p);

typedef struct seq {
	const sx_node *const *v;
	size_t n;
} seq;

static seq seq_of(const sx_node *list, size_t from)
{
	seq s = { NULL, 0 };
	if (list->nkids > from) {
		s.v = (const sx_node *const *)list->kids + from;
		s.n = list->nkids - from;
	}
	return s;
}

/* A value that nothing uses: a call of a procedure the reader does not
 * know may have added rules, so it goes to the residual program.  */
static void discard(ev *e, const value *v)
{
	if (v->kind == V_FORM)
		emit(e, v->expr);
}

static value *eval_body(ev *e, seq s, env *en)
{
	value *v = &e->unspec;
	for (size_t i = 0; i < s.n; i++) {
		if (i)
			discard(e, v);
		v = eval(e, s.v[i], en);
	}
	return v;
}

static void eval_stmts(ev *e, seq s, env *en)
{
	discard(e, eval_body(e, s, en));
}

static sx_node *begin_of(ev *e, const sink *s, sb_loc loc)
{
	sx_node *b = node_list(e, loc, s->n + 1);
	b->kids[0] = node_symbol(e, "begin", loc);
	for (size_t i = 0; i < s->n; i++)
		b->kids[i + 1] = (sx_node *)s->v[i];
	return b;
}

/* Both branches of a condition nothing can decide: their rules come back
 * as (if COND (begin THEN...) (begin ELSE...)); what they define is
 * unknown afterwards.  */
static value *both_branches(ev *e, const sx_node *form, const sx_node *cond, seq then, seq els, env *en)
{
	sink *saved = e->out;
	sink t = { 0 }, f = { 0 };
	size_t mark = e->nudefs;
	e->uncertain++;
	e->out = &t;
	eval_stmts(e, then, en);
	e->out = &f;
	eval_stmts(e, els, en);
	e->out = saved;
	e->uncertain--;
	for (size_t i = mark; i < e->nudefs; i++) {
		value **slot = lookup_slot(e, e->udefs[i].env, e->udefs[i].name);
		if (slot)
			*slot = v_unknown(e, node_symbol(e, e->udefs[i].name, form->loc));
	}
	if (!e->uncertain)
		e->nudefs = mark;
	if (t.n || f.n) {
		sx_node *n = node_list(e, form->loc, f.n ? 4 : 3);
		n->kids[0] = node_symbol(e, "if", form->loc);
		n->kids[1] = (sx_node *)cond;
		n->kids[2] = begin_of(e, &t, form->loc);
		if (f.n)
			n->kids[3] = begin_of(e, &f, form->loc);
		n->call = e->call;
		emit(e, n);
	}
	return v_unknown(e, form);
}

static value *eval_if(ev *e, const sx_node *x, env *en)
{
	if (x->nkids < 2)
		fail(e, x, "'if' needs a condition");
	value *c = eval(e, x->kids[1], en);
	seq then = seq_of(x, 2), els = seq_of(x, 3);
	if (then.n)
		then.n = 1;
	switch (truth(c)) {
	case T_TRUE:
		return eval_body(e, then, en);
	case T_FALSE:
		return eval_body(e, els, en);
	default:
		return both_branches(e, x, x->kids[1], then, els, en);
	}
}

static value *eval_when(ev *e, const sx_node *x, env *en, bool unless)
{
	if (x->nkids < 2)
		fail(e, x, "'%s' needs a condition", unless ? "unless" : "when");
	value *c = eval(e, x->kids[1], en);
	seq body = seq_of(x, 2), none = { NULL, 0 };
	tri t = truth(c);
	if (t == T_UNKNOWN)
		return unless ? both_branches(e, x, x->kids[1], none, body, en)
			      : both_branches(e, x, x->kids[1], body, none, en);
	if ((t == T_TRUE) != unless)
		return eval_body(e, body, en);
	return &e->unspec;
}

static value *eval_cond(ev *e, const sx_node *x, size_t from, env *en)
{
	for (size_t i = from; i < x->nkids; i++) {
		const sx_node *cl = x->kids[i];
		if (cl->kind != SX_LIST || cl->nkids == 0)
			fail(e, cl, "a 'cond' clause is a list (TEST BODY...)");
		if (sx_is_symbol(cl->kids[0], "else"))
			return eval_body(e, seq_of(cl, 1), en);
		if (cl->nkids > 1 && sx_is_symbol(cl->kids[1], "=>"))
			fail(e, cl->kids[1], "'=>' in a 'cond' clause is not modelled");
		value *t = eval(e, cl->kids[0], en);
		tri tr = truth(t);
		if (tr == T_FALSE)
			continue;
		if (tr == T_TRUE)
			return cl->nkids == 1 ? t : eval_body(e, seq_of(cl, 1), en);
		/* Unknown: the rest of the clauses are the else branch. */
		sx_node *rest = node_list(e, x->loc, 1 + x->nkids - i - 1);
		rest->kids[0] = x->kids[0];
		for (size_t k = i + 1; k < x->nkids; k++)
			rest->kids[k - i] = x->kids[k];
		const sx_node *rest_c = rest;
		seq els = { &rest_c, 1 };
		return both_branches(e, cl, cl->kids[0], seq_of(cl, 1), els, en);
	}
	return &e->unspec;
}

static value *eval_and_or(ev *e, const sx_node *x, env *en, bool is_and)
{
	value *v = v_bool(e, is_and);
	for (size_t i = 1; i < x->nkids; i++) {
		v = eval(e, x->kids[i], en);
		tri t = truth(v);
		if (t == T_UNKNOWN)
			return v_unknown(e, x);
		if ((t == T_FALSE) == is_and)
			return v;
	}
	return v;
}

/* Parameters of (lambda PARAMS ...) or (define (NAME . PARAMS) ...).  */
static value *make_proc(ev *e, const char *name, const sx_node *params, size_t from, seq body, env *en,
			const sx_node *at)
{
	value *v = v_proc(e, name);
	proc *p = v->proc;
	p->body = body.v;
	p->nbody = body.n;
	p->env = en;
	if (params->kind == SX_SYMBOL) {
		p->rest = params->text;
		return v;
	}
	if (params->kind != SX_LIST)
		fail(e, params, "parameters must be a list of names");
	size_t n = params->nkids > from ? params->nkids - from : 0;
	/* (lambda () ...) has no kids array: no pointer arithmetic on NULL */
	const sx_node *const *ps = n ? (const sx_node *const *)params->kids + from : NULL;
	for (size_t i = 0; i < n; i++) {
		if (ps[i]->kind != SX_SYMBOL)
			fail(e, ps[i], "a parameter must be a name");
		if (!strcmp(ps[i]->text, ".")) {
			if (i + 2 != n || ps[i + 1]->kind != SX_SYMBOL)
				fail(e, ps[i], "'.' must come before the last parameter");
			p->rest = ps[i + 1]->text;
			n = i;
			break;
		}
	}
	p->params = ps;
	p->nparams = n;
	if (!body.n)
		fail(e, at, "a procedure needs a body");
	return v;
}

static value *eval_define(ev *e, const sx_node *x, env *en)
{
	if (x->nkids < 2)
		fail(e, x, "'define' needs a name");
	const sx_node *target = x->kids[1];
	if (target->kind == SX_LIST) {
		if (target->nkids == 0 || target->kids[0]->kind != SX_SYMBOL)
			fail(e, target, "'define' of a procedure needs (NAME PARAMS...)");
		const char *name = target->kids[0]->text;
		define(e, en, name, make_proc(e, name, target, 1, seq_of(x, 2), en, x));
		return &e->unspec;
	}
	if (target->kind != SX_SYMBOL)
		fail(e, target, "'define' needs a name");
	if (x->nkids != 3)
		fail(e, x, "'define' of a value takes a name and one expression");
	value *v = eval(e, x->kids[2], en);
	if (v->kind == V_PROC && !v->proc->name) {
		value *named = v_proc(e, target->text);
		*named->proc = *v->proc;
		named->proc->name = target->text;
		v = named;
	}
	define(e, en, target->text, v);
	return &e->unspec;
}

static value *datum(ev *e, const sx_node *x)
{
	switch (x->kind) {
	case SX_LIST: {
		value *l = &e->nil;
		for (size_t i = x->nkids; i-- > 0;)
			l = v_pair(e, datum(e, x->kids[i]), l);
		return l;
	}
	case SX_SYMBOL: {
		value *v = v_sym(e, x->text);
		v->src = x;
		return v;
	}
	case SX_STRING: {
		value *v = v_str(e, x->text, x->len, NULL);
		v->src = x;
		return v;
	}
	case SX_NUMBER: {
		value *v = v_num(e, x->num);
		v->src = x;
		return v;
	}
	case SX_BOOL:
		return v_bool(e, x->num);
	case SX_OPAQUE:
		return v_unknown(e, x);
	}
	return &e->unspec;
}

/* (let ((N E)...) BODY), (let NAME ((N E)...) BODY), let*, letrec.  */
static value *eval_let(ev *e, const sx_node *x, env *en, const char *kind)
{
	size_t b = 1;
	const char *loop = NULL;
	if (x->nkids > 1 && x->kids[1]->kind == SX_SYMBOL && !strcmp(kind, "let")) {
		loop = x->kids[1]->text;
		b = 2;
	}
	if (x->nkids <= b || x->kids[b]->kind != SX_LIST)
		fail(e, x, "'%s' needs a list of bindings", kind);
	const sx_node *binds = x->kids[b];
	bool sequential = strcmp(kind, "let") != 0;
	bool rec = !strncmp(kind, "letrec", 6);
	env *inner = env_new(e, en);
	for (size_t i = 0; i < binds->nkids; i++) {
		const sx_node *bd = binds->kids[i];
		if (bd->kind != SX_LIST || bd->nkids != 2 || bd->kids[0]->kind != SX_SYMBOL)
			fail(e, bd, "a '%s' binding is (NAME VALUE)", kind);
		if (rec)
			define(e, inner, bd->kids[0]->text, &e->unspec);
	}
	value **vals = ev_alloc(e, (binds->nkids ? binds->nkids : 1) * sizeof *vals);
	for (size_t i = 0; i < binds->nkids; i++) {
		const sx_node *bd = binds->kids[i];
		vals[i] = eval(e, bd->kids[1], sequential ? inner : en);
		if (sequential)
			define(e, inner, bd->kids[0]->text, vals[i]);
	}
	seq body = seq_of(x, b + 1);
	if (!body.n)
		fail(e, x, "'%s' needs a body", kind);
	if (loop) {
		/* named let: a procedure of the binding names, called once */
		value *pv = v_proc(e, loop);
		proc *p = pv->proc;
		p->body = body.v;
		p->nbody = body.n;
		p->env = inner;
		const sx_node **names = ev_alloc(e, (binds->nkids ? binds->nkids : 1) * sizeof *names);
		for (size_t i = 0; i < binds->nkids; i++)
			names[i] = binds->kids[i]->kids[0];
		p->params = names;
		p->nparams = binds->nkids;
		define(e, inner, loop, pv);
		env *call = env_new(e, inner);
		for (size_t i = 0; i < binds->nkids; i++)
			define(e, call, names[i]->text, vals[i]);
		return eval_body(e, body, call);
	}
	if (!sequential)
		for (size_t i = 0; i < binds->nkids; i++)
			define(e, inner, binds->kids[i]->kids[0]->text, vals[i]);
	return eval_body(e, body, inner);
}

/* (allow OP... FILTER... MODIFIER...) and deny: arguments evaluated, the
 * rule handed on with the call site of the procedure it was made in.  */
static value *eval_rule(ev *e, const sx_node *x, env *en)
{
	sx_node *r = node_list(e, x->loc, x->nkids);
	r->kids[0] = x->kids[0];
	size_t n = 1;
	for (size_t i = 1; i < x->nkids; i++) {
		value *v = eval(e, x->kids[i], en);
		if (v->kind == V_UNSPEC)
			continue;
		r->kids[n++] = (sx_node *)residual(e, v, x->kids[i]->loc);
	}
	r->nkids = n;
	r->call = e->call;
	emit(e, r);
	return &e->unspec;
}

/* Special forms; NULL when `head` is not one.  */
static value *special(ev *e, const char *head, const sx_node *x, env *en, bool *handled)
{
	/* By first letter: most heads of a profile (param, string-append,
	 * subpath, require-any, ...) are none of these, and the chain of
	 * strcmp below was a tenth of reading one (bench/analysis.md, launch).  */
	switch (head[0]) {
	case 'a': case 'b': case 'c': case 'd': case 'i': case 'l': case 'o': case 'q':
	case 't': case 'u': case 'v': case 'w':
		break;
	default:
		*handled = false;
		return NULL;
	}
	*handled = true;
	if (!strcmp(head, "quote")) {
		if (x->nkids != 2)
			fail(e, x, "'quote' takes one datum");
		return datum(e, x->kids[1]);
	}
	if (!strcmp(head, "quasiquote"))
		return v_unknown(e, x);
	if (!strcmp(head, "define"))
		return eval_define(e, x, en);
	if (!strcmp(head, "lambda")) {
		if (x->nkids < 3)
			fail(e, x, "'lambda' needs parameters and a body");
		return make_proc(e, NULL, x->kids[1], 0, seq_of(x, 2), en, x);
	}
	if (!strcmp(head, "if"))
		return eval_if(e, x, en);
	if (!strcmp(head, "when") || !strcmp(head, "unless"))
		return eval_when(e, x, en, head[0] == 'u');
	if (!strcmp(head, "cond"))
		return eval_cond(e, x, 1, en);
	if (!strcmp(head, "begin"))
		return eval_body(e, seq_of(x, 1), en);
	if (!strcmp(head, "let") || !strcmp(head, "let*") || !strcmp(head, "letrec") || !strcmp(head, "letrec*"))
		return eval_let(e, x, en, head);
	if (!strcmp(head, "and") || !strcmp(head, "or"))
		return eval_and_or(e, x, en, head[0] == 'a');
	if (!strcmp(head, "allow") || !strcmp(head, "deny"))
		return eval_rule(e, x, en);
	if (!strcmp(head, "version") || !strcmp(head, "import") || !strcmp(head, "debug") ||
	    !strcmp(head, "trace")) {
		/* statements of the rule mapper, read there as written */
		sx_node *copy = node_new(e, SX_LIST, x->loc);
		*copy = *x;
		copy->call = e->call;
		emit(e, copy);
		return &e->unspec;
	}
	*handled = false;
	return NULL;
}

static void warn_unknown_procedure(ev *e, const char *name, const sx_node *at)
{
	if (seatbelt_defines(name))
		return;
	void **seen = sb_strmap_slot(e->warned, name, strlen(name), true);
	if (*seen)
		return;
	*seen = (void *)1;
	sb_diag_report(e->d, SB_SEV_WARNING, &at->loc, "sbpl-unknown",
		       "'%s' is neither defined in this profile nor a Seatbelt filter this reader "
		       "knows: what it does is not modelled (decisions it can change answer unknown)",
		       name);
}

static value *apply(ev *e, const sx_node *call, value *f, value **args, size_t n)
{
	if (f->kind == V_PRIM) {
		const prim *p = f->prim;
		if ((int)n < p->min || (p->max >= 0 && (int)n > p->max))
			fail(e, call, "'%s' takes %s%d argument%s, not %zu", p->name,
			     p->max < 0 ? "at least " : p->min == p->max ? "" : "at most ",
			     p->max < 0 || p->min == p->max ? p->min : p->max,
			     (p->max < 0 ? p->min : p->max) == 1 ? "" : "s", n);
		return p->fn(e, call, args, n);
	}
	if (f->kind == V_PROC) {
		const proc *fp = f->proc;
		if (n < fp->nparams || (n > fp->nparams && !fp->rest))
			fail(e, call, "'%s' takes %s%zu argument%s, not %zu",
			     fp->name ? fp->name : "lambda", fp->rest ? "at least " : "", fp->nparams,
			     fp->nparams == 1 ? "" : "s", n);
		env *en = env_new(e, fp->env);
		for (size_t i = 0; i < fp->nparams; i++)
			define(e, en, fp->params[i]->text, args[i]);
		if (fp->rest) {
			value *l = &e->nil;
			for (size_t i = n; i-- > fp->nparams;)
				l = v_pair(e, args[i], l);
			define(e, en, fp->rest, l);
		}
		bool outer = !e->call_name;
		if (outer) {
			e->call_loc = call->loc;
			e->call_name = sb_diag_intern(e->d, fp->name ? fp->name : "lambda");
			sx_call *site = ev_alloc(e, sizeof *site);
			site->loc = e->call_loc;
			site->name = e->call_name;
			e->call = site;
		}
		value *v = eval_body(e, (seq){ fp->body, fp->nbody }, en);
		if (outer) {
			e->call_loc = (sb_loc){ 0 };
			e->call_name = NULL;
			e->call = NULL;
		}
		return v;
	}
	if (f->kind == V_SYM) {
		/* A Seatbelt filter, modifier or operation (or a procedure
		 * nobody defines): the form, with evaluated arguments. */
		warn_unknown_procedure(e, f->text, call);
		sx_node *r = node_list(e, call->loc, n + 1);
		r->kids[0] = (sx_node *)residual(e, f, call->kids[0]->loc);
		/* Only a path filter keeps the (param "NAME") spelling of a
		 * bound string (for the binder and the -D list of a re-emitted
		 * profile); any other filter gets the value: the writer emits
		 * #"..." of a regex's value, and an opaque filter's params
		 * would not be passed to sandbox-exec (emit_sbpl.c, run.c). */
		static const char *const path_heads[] = { "literal", "path", "prefix", "path-prefix", "subpath" };
		bool spelled = false;
		for (size_t i = 0; i < sizeof path_heads / sizeof *path_heads; i++)
			spelled |= !strcmp(f->text, path_heads[i]);
		size_t hl = strlen(f->text);
		bool regex = hl >= 5 && !strcmp(f->text + hl - 5, "regex");
		size_t k = 1;
		for (size_t i = 0; i < n; i++) {
			if (args[i]->kind == V_UNSPEC)
				continue;
			if (!spelled && args[i]->kind == V_STR && args[i]->text && args[i]->expr) {
				sx_node *lit = node_string(e, args[i]->text, args[i]->len, arg_loc(call, i));
				lit->raw = regex;
				r->kids[k++] = lit;
			} else {
				r->kids[k++] = (sx_node *)residual(e, args[i], arg_loc(call, i));
			}
		}
		r->nkids = k;
		value *v = v_new(e, V_FORM);
		v->expr = r;
		return v;
	}
	if (f->kind == V_UNKNOWN || f->kind == V_FORM)
		return v_unknown(e, call);
	fail(e, call, "%s is not a procedure", kind_name(f));
}

/* A name: its binding, a primitive (one value each, shared: values are
 * never changed once made), or else a symbol, made in `tmp` when the
 * caller has one (the head of a call: apply() keeps no pointer to it) and
 * in the arena otherwise.  A profile of rules makes a value per filter
 * head and per (param ...) call: its pages counted (bench/analysis.md,
 * launch).  */
static value *eval_symbol(ev *e, const sx_node *x, env *en, value *tmp)
{
	value **slot = lookup_slot(e, en, x->text);
	if (slot && *slot)
		return *slot;
	const prim *p = prim_lookup(x->text);
	if (p) {
		value **pv = &e->prim_vals[prim_index(p)];
		if (!*pv) {
			*pv = v_new(e, V_PRIM);
			(*pv)->prim = p;
		}
		return *pv;
	}
	value *v = tmp ? tmp : v_new(e, V_SYM);
	*v = (value){ .kind = V_SYM, .text = x->text, .src = x, .num = 1 };
	return v;
}

static value *eval(ev *e, const sx_node *x, env *en)
{
	step(e, x);
	e->at = x;
	switch (x->kind) {
	case SX_NUMBER:
	case SX_STRING:
	case SX_BOOL:
		return datum(e, x);
	case SX_SYMBOL:
		return eval_symbol(e, x, en, NULL);
	case SX_OPAQUE:
		return v_unknown(e, x);
	case SX_LIST:
		break;
	}
	if (x->nkids == 0)
		return &e->nil;
	if (++e->depth > SBS_MAX_DEPTH)
		fail(e, x, "evaluation nested deeper than %d levels: is a procedure calling itself "
			   "without end?", SBS_MAX_DEPTH);
	value *v = NULL;
	const sx_node *head = x->kids[0];
	bool handled = false;
	if (head->kind == SX_SYMBOL && !lookup_slot(e, en, head->text))
		v = special(e, head->text, x, en, &handled);
	if (!handled) {
		value tmp;
		value *f;
		if (head->kind == SX_SYMBOL) {   /* eval() of it, without the arena */
			step(e, head);
			e->at = head;
			f = eval_symbol(e, head, en, &tmp);
		} else {
			f = eval(e, head, en);
		}
		size_t n = x->nkids - 1;
		value **args = ev_alloc(e, (n ? n : 1) * sizeof *args);
		for (size_t i = 0; i < n; i++)
			args[i] = eval(e, x->kids[i + 1], en);
		v = apply(e, x, f, args, n);
	}
	e->depth--;
	return v;
}

/* ---- primitives ---- */

static const char *need_string(ev *e, const sx_node *call, value **a, size_t i)
{
	if (a[i]->kind != V_STR)
		fail(e, call->nkids > i + 1 ? call->kids[i + 1] : call, "'%s' needs a string, not %s",
		     sx_head(call) ? sx_head(call) : "procedure", kind_name(a[i]));
	return a[i]->text;
}

static long long need_number(ev *e, const sx_node *call, value **a, size_t i)
{
	if (a[i]->kind != V_NUM)
		fail(e, call->nkids > i + 1 ? call->kids[i + 1] : call, "'%s' needs a number, not %s",
		     sx_head(call) ? sx_head(call) : "procedure", kind_name(a[i]));
	return a[i]->num;
}

static bool any_unknown(value **a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (is_unknown(a[i]))
			return true;
	return false;
}

/* (param "NAME"): the bound value, kept with its (param "NAME") spelling;
 * unbound, only the spelling.  */
static value *p_param(ev *e, const sx_node *call, value **a, size_t n)
{
	const char *head = sx_head(call) ? sx_head(call) : "param";
	if (n != 1 || (a[0]->kind != V_STR && !is_unknown(a[0])))
		fail(e, call, "(%s) needs exactly one string: the param name", head);
	if (!a[0]->text || a[0]->kind != V_STR) {
		if (a[0]->kind == V_SYM)
			sb_diag_report(e->d, SB_SEV_WARNING, &call->loc, "sbpl-unknown",
				       "'%s' is not defined in this profile: the param it names is unknown",
				       a[0]->text);
		return v_unknown(e, call);
	}
	const sx_node *spelling = call;
	if (call->nkids != 2 || call->kids[1]->kind != SX_STRING) {
		sx_node *s = node_list(e, call->loc, 2);
		s->kids[0] = node_symbol(e, !strcmp(head, "getenv") ? "getenv" : "param", call->loc);
		s->kids[1] = node_string(e, a[0]->text, a[0]->len, call->loc);
		spelling = s;
	}
	const sb_binding *b = e->params ? sb_bindings_get(e->params, a[0]->text) : NULL;
	if (b && !b->is_list && b->nvalues == 1)
		return v_str(e, b->values[0], strlen(b->values[0]), spelling);
	return v_str(e, NULL, 0, spelling);
}

static value *p_string_append(ev *e, const sx_node *call, value **a, size_t n)
{
	bool symbolic = false, known = true;
	size_t len = 0, nparts = 0;
	for (size_t i = 0; i < n; i++) {
		if (a[i]->kind == V_UNKNOWN || a[i]->kind == V_FORM)
			return v_unknown(e, call);
		if (a[i]->kind != V_STR) {
			/* Left to the rule mapper, which names the argument
			 * ("a path filter needs a string, not 5"). */
			sx_node *r = node_list(e, call->loc, n + 1);
			r->kids[0] = node_symbol(e, "string-append", call->loc);
			for (size_t k = 0; k < n; k++)
				r->kids[k + 1] = (sx_node *)residual(e, a[k], arg_loc(call, k));
			value *v = v_new(e, V_FORM);
			v->expr = r;
			return v;
		}
		if (a[i]->expr) {
			symbolic = true;
			const char *h = sx_head(a[i]->expr);
			nparts += h && !strcmp(h, "string-append") ? a[i]->expr->nkids - 1 : 1;
		} else {
			nparts++;
		}
		if (!a[i]->text)
			known = false;
		else
			len += a[i]->len;
	}
	char *text = NULL;
	if (known) {
		text = ev_alloc(e, len + 1);
		size_t at = 0;
		for (size_t i = 0; i < n; i++) {
			memcpy(text + at, a[i]->text, a[i]->len);
			at += a[i]->len;
		}
	}
	const sx_node *expr = NULL;
	if (symbolic) {
		/* (string-append ...) of the parts, nested ones spliced */
		sx_node *s = node_list(e, call->loc, nparts + 1);
		s->kids[0] = node_symbol(e, "string-append", call->loc);
		size_t k = 1;
		for (size_t i = 0; i < n; i++) {
			const sx_node *r = residual(e, a[i], arg_loc(call, i));
			const char *h = sx_head(r);
			if (a[i]->expr && h && !strcmp(h, "string-append")) {
				for (size_t j = 1; j < r->nkids; j++)
					s->kids[k++] = r->kids[j];
			} else {
				s->kids[k++] = (sx_node *)r;
			}
		}
		s->nkids = k;
		expr = s;
	}
	return v_str(e, text, len, expr);
}

static value *p_string_eq(ev *e, const sx_node *call, value **a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_unknown(a[i]))
			need_string(e, call, a, i);
	if (any_unknown(a, n))
		return v_unknown(e, call);
	for (size_t i = 1; i < n; i++)
		if (a[i]->len != a[0]->len || memcmp(a[i]->text, a[0]->text, a[0]->len))
			return v_bool(e, false);
	return v_bool(e, true);
}

static value *p_string_p(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)n;
	if (is_unknown(a[0]))
		return v_unknown(e, call);
	return v_bool(e, a[0]->kind == V_STR);
}

static value *p_string_length(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)n;
	if (is_unknown(a[0]))
		return v_unknown(e, call);
	need_string(e, call, a, 0);
	return v_num(e, (long long)a[0]->len);
}

static value *p_substring(ev *e, const sx_node *call, value **a, size_t n)
{
	if (any_unknown(a, n))
		return v_unknown(e, call);
	need_string(e, call, a, 0);
	long long from = need_number(e, call, a, 1);
	long long to = n > 2 ? need_number(e, call, a, 2) : (long long)a[0]->len;
	if (from < 0 || to < from || to > (long long)a[0]->len)
		fail(e, call, "'substring' range %lld..%lld is outside the string (length %zu)", from, to,
		     a[0]->len);
	return v_str(e, ev_strndup(e, a[0]->text + from, (size_t)(to - from)), (size_t)(to - from), NULL);
}

static value *p_string_to_number(ev *e, const sx_node *call, value **a, size_t n)
{
	if (any_unknown(a, n))
		return v_unknown(e, call);
	const char *s = need_string(e, call, a, 0);
	long long radix = n > 1 ? need_number(e, call, a, 1) : 10;
	if (radix != 2 && radix != 8 && radix != 10 && radix != 16)
		fail(e, call, "'string->number' radix %lld: 2, 8, 10 or 16", radix);
	if (!*s || isspace((unsigned char)*s) || strlen(s) != a[0]->len)
		return v_bool(e, false);
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, (int)radix);
	if (!*end && errno != ERANGE)
		return v_num(e, v);
	double dv = strtod(s, &end);
	(void)dv;
	if (!*end && radix == 10) {
		/* a real (or a huge integer): not modelled */
		sb_diag_report(e->d, SB_SEV_WARNING, &call->loc, "sbpl-unknown",
			       "\"%s\" is not an integer: real numbers are not modelled (decisions on it answer unknown)", s);
		return v_unknown(e, call);
	}
	return v_bool(e, false);
}

static value *p_number_to_string(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)n;
	if (is_unknown(a[0]))
		return v_unknown(e, call);
	char buf[32];
	snprintf(buf, sizeof buf, "%lld", need_number(e, call, a, 0));
	return v_str(e, ev_strndup(e, buf, strlen(buf)), strlen(buf), NULL);
}

static value *compare(ev *e, const sx_node *call, value **a, size_t n, int op)
{
	for (size_t i = 0; i < n; i++)
		if (!is_unknown(a[i]))
			need_number(e, call, a, i);
	if (any_unknown(a, n))
		return v_unknown(e, call);
	for (size_t i = 1; i < n; i++) {
		long long x = a[i - 1]->num, y = a[i]->num;
		bool ok = op == 0 ? x == y : op == 1 ? x < y : op == 2 ? x <= y : op == 3 ? x > y : x >= y;
		if (!ok)
			return v_bool(e, false);
	}
	return v_bool(e, true);
}

static value *p_eq(ev *e, const sx_node *c, value **a, size_t n) { return compare(e, c, a, n, 0); }
static value *p_lt(ev *e, const sx_node *c, value **a, size_t n) { return compare(e, c, a, n, 1); }
static value *p_le(ev *e, const sx_node *c, value **a, size_t n) { return compare(e, c, a, n, 2); }
static value *p_gt(ev *e, const sx_node *c, value **a, size_t n) { return compare(e, c, a, n, 3); }
static value *p_ge(ev *e, const sx_node *c, value **a, size_t n) { return compare(e, c, a, n, 4); }

static value *arith(ev *e, const sx_node *call, value **a, size_t n, char op)
{
	for (size_t i = 0; i < n; i++)
		if (!is_unknown(a[i]))
			need_number(e, call, a, i);
	if (any_unknown(a, n))
		return v_unknown(e, call);
	long long acc = op == '*' ? 1 : 0;
	for (size_t i = 0; i < n; i++) {
		long long x = a[i]->num;
		bool over;
		if (op == '+')
			over = __builtin_add_overflow(acc, x, &acc);
		else if (op == '*')
			over = __builtin_mul_overflow(acc, x, &acc);
		else if (i == 0 && n > 1)
			over = (acc = x, false);
		else
			over = __builtin_sub_overflow(acc, x, &acc);
		if (over)
			fail(e, call, "'%c' overflows a 64-bit integer", op);
	}
	return v_num(e, acc);
}

static value *p_add(ev *e, const sx_node *c, value **a, size_t n) { return arith(e, c, a, n, '+'); }
static value *p_sub(ev *e, const sx_node *c, value **a, size_t n) { return arith(e, c, a, n, '-'); }
static value *p_mul(ev *e, const sx_node *c, value **a, size_t n) { return arith(e, c, a, n, '*'); }

static value *p_not(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)n;
	tri t = truth(a[0]);
	return t == T_UNKNOWN ? v_unknown(e, call) : v_bool(e, t == T_FALSE);
}

/* Structural equality; -1 when an unknown part makes it undecidable.  */
static int equal(ev *e, const value *x, const value *y, int depth)
{
	step(e, NULL);
	if (depth > SBS_MAX_DEPTH)
		return -1;
	if (is_unknown(x) || is_unknown(y))
		return -1;
	if (x->kind != y->kind)
		return 0;
	switch (x->kind) {
	case V_BOOL: case V_NUM: return x->num == y->num;
	case V_STR: return x->len == y->len && !memcmp(x->text, y->text, x->len);
	case V_SYM: return !strcmp(x->text, y->text);
	case V_PAIR: {
		int a = equal(e, x->car, y->car, depth + 1);
		if (a != 1)
			return a;
		return equal(e, x->cdr, y->cdr, depth + 1);
	}
	case V_NIL: case V_UNSPEC: return 1;
	case V_PRIM: return x->prim == y->prim;
	default: return x == y;
	}
}

static value *p_equal(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)n;
	int r = equal(e, a[0], a[1], 0);
	return r < 0 ? v_unknown(e, call) : v_bool(e, r);
}

/* Backslash before every character POSIX extended regexes give a meaning.  */
static value *p_regex_quote(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)n;
	if (is_unknown(a[0]))
		return v_unknown(e, call);
	const char *s = need_string(e, call, a, 0);
	char *out = ev_alloc(e, a[0]->len * 2 + 1);
	size_t k = 0;
	for (size_t i = 0; i < a[0]->len; i++) {
		if (strchr("\\.^$|()[]{}*+?", s[i]))
			out[k++] = '\\';
		out[k++] = s[i];
	}
	return v_str(e, out, k, NULL);
}

static value *p_defined(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)n;
	if (a[0]->kind != V_SYM)
		fail(e, call, "'defined?' needs a quoted name, not %s", kind_name(a[0]));
	const char *name = a[0]->text;
	value **slot = lookup_slot(e, NULL, name);
	if (slot && *slot)
		return (*slot)->kind == V_UNKNOWN ? v_unknown(e, call) : v_bool(e, true);
	if (prim_lookup(name) || seatbelt_defines(name))
		return v_bool(e, true);
	static const char *const forms[] = { "quote", "define", "lambda", "if", "when", "unless", "cond",
					     "begin", "let", "let*", "letrec", "and", "or", "allow", "deny" };
	for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
		if (!strcmp(name, forms[i]))
			return v_bool(e, true);
	/* Seatbelt defines more than this reader knows. */
	return v_unknown(e, call);
}

static value *p_list(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)call;
	value *l = &e->nil;
	for (size_t i = n; i-- > 0;)
		l = v_pair(e, a[i], l);
	return l;
}

static value *p_cons(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)call;
	(void)n;
	return v_pair(e, a[0], a[1]);
}

static value *need_pair(ev *e, const sx_node *call, value *v)
{
	if (v->kind != V_PAIR)
		fail(e, call, "'%s' needs a non-empty list, not %s", sx_head(call) ? sx_head(call) : "car",
		     kind_name(v));
	return v;
}

static value *p_car(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)n;
	return is_unknown(a[0]) ? v_unknown(e, call) : need_pair(e, call, a[0])->car;
}

static value *p_cdr(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)n;
	return is_unknown(a[0]) ? v_unknown(e, call) : need_pair(e, call, a[0])->cdr;
}

static value *p_null(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)n;
	return is_unknown(a[0]) ? v_unknown(e, call) : v_bool(e, a[0]->kind == V_NIL);
}

static value *p_pair(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)n;
	return is_unknown(a[0]) ? v_unknown(e, call) : v_bool(e, a[0]->kind == V_PAIR);
}

static value *p_length(ev *e, const sx_node *call, value **a, size_t n)
{
	(void)n;
	if (is_unknown(a[0]))
		return v_unknown(e, call);
	long long len = 0;
	value *p = a[0];
	for (; p->kind == V_PAIR; p = p->cdr)
		len++;
	if (p->kind != V_NIL)
		fail(e, call, "'length' needs a list, not %s", kind_name(a[0]));
	return v_num(e, len);
}

/* (map F LIST) and (for-each F LIST), one list.  */
static value *map_each(ev *e, const sx_node *call, value **a, bool keep)
{
	if (is_unknown(a[1]) || is_unknown(a[0]))
		return v_unknown(e, call);
	size_t n = 0;
	value *p = a[1];
	for (; p->kind == V_PAIR; p = p->cdr)
		n++;
	if (p->kind != V_NIL)
		fail(e, call, "'%s' needs a list, not %s", keep ? "map" : "for-each", kind_name(a[1]));
	value **out = ev_alloc(e, (n ? n : 1) * sizeof *out);
	size_t i = 0;
	for (p = a[1]; p->kind == V_PAIR; p = p->cdr) {
		value *arg = p->car;
		out[i] = apply(e, call, a[0], &arg, 1);
		if (!keep)
			discard(e, out[i]);
		i++;
	}
	if (!keep)
		return &e->unspec;
	value *l = &e->nil;
	while (i-- > 0)
		l = v_pair(e, out[i], l);
	return l;
}

static value *p_map(ev *e, const sx_node *c, value **a, size_t n) { (void)n; return map_each(e, c, a, true); }
static value *p_for_each(ev *e, const sx_node *c, value **a, size_t n) { (void)n; return map_each(e, c, a, false); }

static value *kind_test(ev *e, const sx_node *call, value *v, vkind k1, vkind k2)
{
	return is_unknown(v) ? v_unknown(e, call) : v_bool(e, v->kind == k1 || v->kind == k2);
}

static value *p_symbol_p(ev *e, const sx_node *c, value **a, size_t n) { (void)n; return kind_test(e, c, a[0], V_SYM, V_SYM); }
static value *p_number_p(ev *e, const sx_node *c, value **a, size_t n) { (void)n; return kind_test(e, c, a[0], V_NUM, V_NUM); }
static value *p_boolean_p(ev *e, const sx_node *c, value **a, size_t n) { (void)n; return kind_test(e, c, a[0], V_BOOL, V_BOOL); }
static value *p_procedure_p(ev *e, const sx_node *c, value **a, size_t n) { (void)n; return kind_test(e, c, a[0], V_PROC, V_PRIM); }

/* Sorted by name (bsearch).  */
static const prim prims[] = {
	{ "*", 0, -1, p_mul },
	{ "+", 0, -1, p_add },
	{ "-", 1, -1, p_sub },
	{ "<", 1, -1, p_lt },
	{ "<=", 1, -1, p_le },
	{ "=", 1, -1, p_eq },
	{ ">", 1, -1, p_gt },
	{ ">=", 1, -1, p_ge },
	{ "boolean?", 1, 1, p_boolean_p },
	{ "car", 1, 1, p_car },
	{ "cdr", 1, 1, p_cdr },
	{ "cons", 2, 2, p_cons },
	{ "defined?", 1, 1, p_defined },
	{ "eq?", 2, 2, p_equal },
	{ "equal?", 2, 2, p_equal },
	{ "eqv?", 2, 2, p_equal },
	{ "for-each", 2, 2, p_for_each },
	{ "getenv", 0, -1, p_param },
	{ "length", 1, 1, p_length },
	{ "list", 0, -1, p_list },
	{ "map", 2, 2, p_map },
	{ "not", 1, 1, p_not },
	{ "null?", 1, 1, p_null },
	{ "number->string", 1, 1, p_number_to_string },
	{ "number?", 1, 1, p_number_p },
	{ "pair?", 1, 1, p_pair },
	{ "param", 0, -1, p_param },
	{ "procedure?", 1, 1, p_procedure_p },
	{ "regex-quote", 1, 1, p_regex_quote },
	{ "string->number", 1, 2, p_string_to_number },
	{ "string-append", 0, -1, p_string_append },
	{ "string-length", 1, 1, p_string_length },
	{ "string=?", 1, -1, p_string_eq },
	{ "string?", 1, 1, p_string_p },
	{ "substring", 2, 3, p_substring },
	{ "symbol?", 1, 1, p_symbol_p },
};

_Static_assert(sizeof prims / sizeof *prims <= PRIMS_MAX, "PRIMS_MAX is too small");

static size_t prim_index(const prim *p)
{
	return (size_t)(p - prims);
}

static int cmp_prim(const void *key, const void *p)
{
	return strcmp(key, ((const prim *)p)->name);
}

static const prim *prim_lookup(const char *name)
{
	return bsearch(name, prims, sizeof prims / sizeof *prims, sizeof *prims, cmp_prim);
}

/* ---- driver ---- */

/* Quoted data only: strings, numbers and (list ...) of them.  */
static bool pure_data(const sx_node *n)
{
	if (n->kind == SX_STRING || n->kind == SX_NUMBER)
		return true;
	if (n->kind != SX_LIST || !n->nkids || !sx_is_symbol(n->kids[0], "list"))
		return false;
	for (size_t i = 1; i < n->nkids; i++)
		if (!pure_data(n->kids[i]))
			return false;
	return true;
}

/* sbc's data form (emit_sbpl.h, "Data"): a top-level (define sbx-NAME
 * DATA) of quoted data adds no rule, and the reader takes it from the
 * document, not from here.  Not evaluated: a large policy's origin table
 * is hundreds of thousands of values.  A profile that uses such a name
 * later finds it unbound and is refused.  */
static bool sbc_data(const sx_node *form)
{
	return form->nkids == 3 && sx_is_symbol(form->kids[0], "define") &&
	       form->kids[1]->kind == SX_SYMBOL && !strncmp(form->kids[1]->text, "sbx-", 4) &&
	       pure_data(form->kids[2]);
}

/* The top-level forms; false after an error.  Separate from sbs_run() so
 * no local variable lives across the setjmp.  */
static bool run_forms(ev *e, const sx_doc *doc)
{
	if (setjmp(e->fail))
		return false;
	for (size_t i = 0; i < doc->nforms; i++) {
		const sx_node *form = doc->forms[i];
		if (!sx_head(form)) {
			/* not a call: the rule mapper reports it */
			emit(e, form);
			continue;
		}
		if (sbc_data(form))
			continue;
		e->depth = 0;
		e->call_name = NULL;
		e->call_loc = (sb_loc){ 0 };
		e->call = NULL;
		discard(e, eval(e, form, NULL));
	}
	return true;
}

sbs_program *sbs_run(const sx_doc *doc, const sb_bindings *params, sb_diag *d)
{
	ev *e = xcalloc(1, sizeof *e);
	sbs_program *p = xcalloc(1, sizeof *p);
	e->d = d;
	e->params = params;
	/* a long flat profile is no runaway program: budgets grow with it */
	e->max_steps = SBS_MAX_STEPS + SBS_STEPS_PER_BYTE * doc->len;
	e->max_bytes = SBS_MAX_BYTES + SBS_BYTES_PER_BYTE * doc->len;
	e->arena.min_block = 65536;
	e->globals = sb_strmap_new();
	e->warned = sb_strmap_new();
	e->unspec.kind = V_UNSPEC;
	e->nil.kind = V_NIL;
	e->t.kind = V_BOOL;
	e->t.num = 1;
	e->f.kind = V_BOOL;
	e->out = &p->forms;
	bool ok = run_forms(e, doc);
	sb_strmap_free(e->globals);
	sb_strmap_free(e->warned);
	p->arena = e->arena;
	free(e);
	if (!ok) {
		sbs_program_free(p);
		return NULL;
	}
	return p;
}

size_t sbs_nforms(const sbs_program *p) { return p->forms.n; }

const sx_node *sbs_form(const sbs_program *p, size_t i) { return p->forms.v[i]; }

void sbs_program_free(sbs_program *p)
{
	if (!p)
		return;
	sb_arena_clear(&p->arena);
	free(p);
}
