/* sbpl_read.c - S-expressions -> profile IR (see sbpl_read.h).  */
#include "compiler/sbpl/sbpl_read.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/sbpl/emit_sbpl.h"
#include "compiler/sbpl/sbpl_scheme.h"
#include "compiler/sbpl/sexp.h"
#include "compiler/common/file.h"
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

enum { MAX_STR_DEPTH = 16, MAX_COND_DEPTH = 16 };

typedef struct conv {
	sb_diag *d;
	sx_doc *doc;
	sb_profile *p;
	int errors;
	size_t next_comment;     /* scan position in doc->comments */
	unsigned flags;          /* SB_READ_* */
	char *conds[MAX_COND_DEPTH]; /* enclosing if/when/unless conditions */
	size_t nconds;
	int depth;               /* container nesting */
	sb_loc version_loc;
	/* The profile's data form (emit_sbpl.h, "Data"): the origin table and
	 * the rule and host-rule maps into it.  With a table, "; FILE:LINE"
	 * comments are left to people; without one (a profile from an sbc
	 * before the data form, or written by hand) they still name a rule's
	 * file and line, for display, never its text.  */
	const sb_origin **origins;
	size_t norigins;
	bool has_origins;
	const sx_node *rule_map, *egress_map;
	bool has_source, has_params;
} conv;

static void form_error(conv *c, const sx_node *n, const char *fmt, const char *arg)
{
	sb_diag_report(c->d, SB_SEV_ERROR, &n->loc, "sbpl-form", fmt, arg ? arg : "");
	c->errors++;
}

static void form_warn(conv *c, const sx_node *n, const char *code, const char *fmt, const char *arg)
{
	sb_diag_report(c->d, SB_SEV_WARNING, &n->loc, code, fmt, arg ? arg : "");
}

/* ---- string expressions ---- */

static sb_str *conv_str(conv *c, const sx_node *n, int depth)
{
	if (depth > MAX_STR_DEPTH)
		return NULL;
	if (n->kind == SX_STRING) {
		if (strstr(n->text, "${"))
			return NULL; /* "${HOME}" expansion: unverified, kept opaque */
		return sb_str_lit(n->text);
	}
	const char *head = sx_head(n);
	if (!head)
		return NULL;
	if ((!strcmp(head, "param") || !strcmp(head, "getenv")) && n->nkids == 2 &&
	    n->kids[1]->kind == SX_STRING)
		return sb_str_param_spelled(n->kids[1]->text);
	if (!strcmp(head, "string-append")) {
		size_t np = n->nkids - 1;
		sb_str **parts = xcalloc(np ? np : 1, sizeof *parts);
		for (size_t i = 0; i < np; i++) {
			parts[i] = conv_str(c, n->kids[i + 1], depth + 1);
			if (!parts[i]) {
				for (size_t k = 0; k < i; k++)
					sb_str_free(parts[k]);
				free(parts);
				return NULL;
			}
		}
		sb_str *s = sb_str_append(parts, np);
		free(parts);
		return s;
	}
	return NULL;
}

/* ---- filters ---- */

static sb_filter *opaque(const sx_node *n)
{
	char *text = sx_print(n);
	sb_filter *f = sb_filter_opaque(text, n->loc);
	free(text);
	return f;
}

/* Warn about filter strings that can never match a canonical path.  */
static void check_path_string(conv *c, const sx_node *arg, sb_filter_kind kind, const char *s)
{
	if (kind != SB_F_LITERAL && kind != SB_F_SUBPATH)
		return;
	size_t len = strlen(s);
	if (s[0] != '/') {
		form_warn(c, arg, "sbpl-path", "relative path \"%s\" never matches (Seatbelt sees absolute paths)", s);
		return;
	}
	if (len > 1 && s[len - 1] == '/') {
		form_warn(c, arg, "sbpl-path",
			  "trailing slash in \"%s\": matches nothing under the q == P or P/ reading "
			  "(Seatbelt's handling is unverified); drop the slash", s);
		return;
	}
	if (strstr(s, "//") || strstr(s, "/./") || strstr(s, "/../") ||
	    (len >= 2 && !strcmp(s + len - 2, "/.")) || (len >= 3 && !strcmp(s + len - 3, "/..")))
		form_warn(c, arg, "sbpl-path",
			  "non-canonical path \"%s\" never matches (the kernel canonicalizes the accessed path, not the filter)", s);
	if (sb_path_is_private_aliased(s))
		form_warn(c, arg, "sbpl-alias",
			  "\"%s\" never matches a resolved path: macOS resolves it under /private", s);
}

static sb_filter *conv_filter(conv *c, const sx_node *n);

/* A path argument that can never be a string is a type error in Apple's
 * reader as well (a number, a boolean, (param) without a name, a number in
 * string-append): report it instead of keeping an opaque filter.  A control
 * character is legal SBPL but cannot be re-emitted: warn.  Returns false
 * after an error.  */
static bool path_arg_ok(conv *c, const sx_node *arg)
{
	if (arg->kind == SX_NUMBER || arg->kind == SX_BOOL) {
		form_error(c, arg, "a path filter needs a string, not %s", arg->text ? arg->text : "a number");
		return false;
	}
	if (arg->kind == SX_STRING) {
		for (const unsigned char *p = (const unsigned char *)arg->text; *p; p++)
			if (*p < 0x20 || *p == 0x7f) {
				form_warn(c, arg, "sbpl-path",
					  "control character in a path string: it decides as written, "
					  "but sbc and sbrun refuse to emit it%s", "");
				break;
			}
		return true;
	}
	const char *head = sx_head(arg);
	if (head && (!strcmp(head, "param") || !strcmp(head, "getenv")) &&
	    (arg->nkids != 2 || arg->kids[1]->kind != SX_STRING)) {
		form_error(c, arg, "(%s) needs exactly one string: the param name", head);
		return false;
	}
	if (head && !strcmp(head, "string-append")) {
		for (size_t i = 1; i < arg->nkids; i++)
			if (!path_arg_ok(c, arg->kids[i]))
				return false;
	}
	return true;
}

static sb_filter *path_filter_one(conv *c, sb_filter_kind kind, const sx_node *whole, const sx_node *arg)
{
	if (!path_arg_ok(c, arg))
		return opaque(whole);
	if (arg->kind == SX_STRING && strstr(arg->text, "${"))
		form_warn(c, arg, "sbpl-expansion",
			  "\"%s\": ${...} expansion is not modelled (unverified on macOS); the filter is kept opaque",
			  arg->text);
	sb_str *s = conv_str(c, arg, 0);
	if (!s)
		return opaque(whole);
	if (s->kind == SB_STR_LIT)
		check_path_string(c, arg, kind, s->text);
	return sb_filter_path(kind, s, whole->loc);
}

static sb_filter_kind path_kind(const char *head, bool *ok)
{
	*ok = true;
	if (!strcmp(head, "literal") || !strcmp(head, "path"))
		return SB_F_LITERAL;
	if (!strcmp(head, "subpath"))
		return SB_F_SUBPATH;
	if (!strcmp(head, "prefix") || !strcmp(head, "path-prefix"))
		return SB_F_PREFIX;
	if (!strcmp(head, "regex") || !strcmp(head, "path-regex"))
		return SB_F_REGEX;
	*ok = false;
	return SB_F_OPAQUE;
}

/* Filters of a (require-all ...)/(require-any ...) argument list.  */
static sb_filter *logic_filter(conv *c, sb_filter_kind kind, const sx_node *n)
{
	size_t nk = n->nkids - 1;
	sb_filter **kids = xcalloc(nk ? nk : 1, sizeof *kids);
	for (size_t i = 0; i < nk; i++)
		kids[i] = conv_filter(c, n->kids[i + 1]);
	sb_filter *f = sb_filter_logic(kind, kids, nk, n->loc);
	free(kids);
	return f;
}

/* (path-ancestors P), a prelude macro: a literal for every ancestor of P
 * ("/", "/a" for "/a/b").  Only a literal P is expanded.  */
static sb_filter *ancestors_filter(conv *c, const sx_node *n)
{
	sb_str *s = n->nkids == 2 ? conv_str(c, n->kids[1], 0) : NULL;
	if (!s || s->kind != SB_STR_LIT || s->text[0] != '/') {
		sb_str_free(s);
		return opaque(n);
	}
	const char *p = s->text;
	size_t len = strlen(p), nk = 0;
	sb_filter **kids = xcalloc(len + 1, sizeof *kids);
	for (size_t i = 1; i < len; i++)
		if (p[i] == '/' || i == 1) {
			char *anc = xstrndup(p, p[i] == '/' ? i : 1);
			kids[nk++] = sb_filter_path(SB_F_LITERAL, sb_str_lit(anc), n->loc);
			free(anc);
		}
	sb_filter *f = sb_filter_logic(SB_F_REQUIRE_ANY, kids, nk, n->loc);
	free(kids);
	sb_str_free(s);
	return f;
}

/* One filter form.  A path filter with several arguments ORs them: inside
 * a require-* it becomes a require-any.  Never returns NULL.  */
static sb_filter *conv_filter(conv *c, const sx_node *n)
{
	const char *head = sx_head(n);
	if (!head)
		return opaque(n);
	bool is_path;
	sb_filter_kind kind = path_kind(head, &is_path);
	if (is_path) {
		if (n->nkids < 2) {
			form_error(c, n, "'%s' needs a path argument", head);
			return opaque(n);
		}
		if (n->nkids == 2)
			return path_filter_one(c, kind, n, n->kids[1]);
		size_t nk = n->nkids - 1;
		sb_filter **kids = xcalloc(nk, sizeof *kids);
		for (size_t i = 0; i < nk; i++)
			kids[i] = path_filter_one(c, kind, n, n->kids[i + 1]);
		sb_filter *f = sb_filter_logic(SB_F_REQUIRE_ANY, kids, nk, n->loc);
		free(kids);
		return f;
	}
	if (!strcmp(head, "vnode-type") || !strcmp(head, "tty")) {
		unsigned mask = 0;
		if (!strcmp(head, "tty")) {
			mask = SB_VNODE_TTY;
		} else {
			for (size_t i = 1; i < n->nkids; i++) {
				unsigned bit = n->kids[i]->kind == SX_SYMBOL ? sb_vnode_from_name(n->kids[i]->text) : 0;
				if (!bit) {
					form_warn(c, n->kids[i], "sbpl-form", "unknown vnode type%s: filter kept opaque", NULL);
					return opaque(n);
				}
				mask |= bit;
			}
			if (!mask) {
				form_error(c, n, "'vnode-type' needs a type%s", NULL);
				return opaque(n);
			}
		}
		return sb_filter_vnode(mask, n->loc);
	}
	if (!strcmp(head, "path-ancestors"))
		return ancestors_filter(c, n);
	if (!strcmp(head, "require-all"))
		return logic_filter(c, SB_F_REQUIRE_ALL, n);
	if (!strcmp(head, "require-any"))
		return logic_filter(c, SB_F_REQUIRE_ANY, n);
	if (!strcmp(head, "require-not")) {
		if (n->nkids != 2) {
			form_error(c, n, "'require-not' takes exactly one filter%s", NULL);
			return opaque(n);
		}
		return logic_filter(c, SB_F_REQUIRE_NOT, n);
	}
	/* global-name, target, extension, file-mode, remote, a profile-defined
	 * helper such as home-subpath, ...: kept, decided as unknown. */
	return opaque(n);
}

/* ---- rules ---- */

static void rule_args(conv *c, sb_rule *r, const sx_node *n, int depth)
{
	if (n->kind == SX_SYMBOL) {
		int op = sb_op_lookup(n->text);
		if (op < 0) {
			form_warn(c, n, "sbpl-op",
				  "unknown operation '%s' (not in the macOS 10.15 table): kept as unmodelled", n->text);
			op = SB_OP_OTHER;
		}
		sb_rule_add_op(r, (sb_op)op, n->text);
		return;
	}
	if (n->kind == SX_OPAQUE) {
		/* a value the evaluator could not compute */
		sb_rule_add_filter(r, opaque(n));
		return;
	}
	if (n->kind != SX_LIST) {
		form_warn(c, n, "sbpl-form", "unexpected %s argument: kept as an opaque filter",
			  n->kind == SX_STRING ? "string" : n->kind == SX_BOOL ? "boolean" : "number");
		sb_rule_add_filter(r, opaque(n));
		return;
	}
	const char *head = sx_head(n);
	bool flatten = n->nkids == 0 || !head || sb_op_lookup(head) >= 0;
	if (flatten && depth < 8) {
		for (size_t i = 0; i < n->nkids; i++)
			rule_args(c, r, n->kids[i], depth + 1);
		return;
	}
	if (head && !strcmp(head, "with")) {
		char *text = sx_print(n);
		sb_rule_add_modifier(r, text);
		free(text);
		return;
	}
	bool is_path;
	sb_filter_kind kind = head ? path_kind(head, &is_path) : SB_F_OPAQUE;
	if (head && is_path && n->nkids > 2) {
		/* Top-level filters are ORed already: one filter per argument. */
		for (size_t i = 1; i < n->nkids; i++)
			sb_rule_add_filter(r, path_filter_one(c, kind, n, n->kids[i]));
		return;
	}
	sb_rule_add_filter(r, conv_filter(c, n));
}

/* The comments directly above a rule (line `line`): the origin ("; FILE:LINE",
 * as sbc emits it) sets src_file/src_line; the comment line nearest the
 * rule, when it is not the origin, is kept as the rule's note (sbc emits
 * "; FILE:LINE" then "; <note>"; a hand-written comment survives too).  */
static void attach_origin(conv *c, sb_rule *r, int line)
{
	sx_doc *doc = c->doc;
	/* A rule made in a procedure sits above the rules before it. */
	if (c->next_comment > 0 && doc->comments[c->next_comment - 1].line >= line)
		c->next_comment = 0;
	while (c->next_comment < doc->ncomments && doc->comments[c->next_comment].line < line)
		c->next_comment++;
	int want = line - 1;
	for (size_t i = c->next_comment; i-- > 0;) {
		const sx_comment *k = &doc->comments[i];
		if (k->line != want || !k->alone)
			break;
		/* sbc's note on a rule it added or adjusted ("; sbc: ..."),
		 * between the origin and the rule: kept so emit(read(x)) == x */
		if (!strncmp(k->text, "sbc: ", 5) && !r->note) {
			r->note = sb_diag_intern(c->d, k->text);
			want--;
			continue;
		}
		char *file = NULL;
		int l = sb_sbpl_parse_origin(k->text, &file);
		if (l > 0) {
			if (!c->has_origins)
				r->origin = sb_origin_new(c->d, file, l, 0, NULL, 0);
			free(file);
			return;
		}
		if (want == line - 1 && k->text[0])
			r->note = sb_diag_intern(c->d, k->text);
		want--;
	}
}

/* A rule inside (if COND ...) applies only when COND holds: each filter
 * becomes (require-all COND... FILTER), an unfiltered rule gets COND as
 * its filter.  COND is opaque, so decide() answers unknown wherever the
 * rule could decide.  */
static sb_filter *condition_filter(const conv *c, sb_filter *f, sb_loc loc)
{
	size_t n = c->nconds + (f ? 1 : 0);
	if (n == 1 && !f)
		return sb_filter_opaque(c->conds[0], loc);
	sb_filter *kids[MAX_COND_DEPTH + 1];
	for (size_t i = 0; i < c->nconds; i++)
		kids[i] = sb_filter_opaque(c->conds[i], loc);
	if (f)
		kids[c->nconds] = f;
	return sb_filter_logic(SB_F_REQUIRE_ALL, kids, n, loc);
}

static void add_conditions(const conv *c, sb_rule *r)
{
	if (r->nfilters == 0) {
		sb_rule_add_filter(r, condition_filter(c, NULL, r->loc));
		return;
	}
	for (size_t i = 0; i < r->nfilters; i++)
		r->filters[i] = condition_filter(c, r->filters[i], r->filters[i]->loc);
}

static void add_unmodelled(conv *c, const sx_node *n, const char *reason);

/* A value the evaluator could not compute (sbpl_scheme.h) is kept as the
 * source text of its expression: fine to decide as "unknown", but not to
 * emit again, where it would be evaluated out of its context.  */
static bool holds_uncomputed(const sx_node *n)
{
	if (n->kind == SX_OPAQUE)
		return true;
	for (size_t i = 0; i < n->nkids; i++)
		if (holds_uncomputed(n->kids[i]))
			return true;
	return false;
}

static void conv_rule(conv *c, const sx_node *n, sb_action action)
{
	if (!(c->flags & SB_READ_CONDITIONALS) && holds_uncomputed(n))
		add_unmodelled(c, n, "a value in this rule could not be computed (a param nothing binds, or a "
				     "procedure this reader does not know): it cannot be emitted again");
	sb_rule *r = sb_rule_new(action, n->loc);
	for (size_t i = 1; i < n->nkids; i++)
		rule_args(c, r, n->kids[i], 0);
	if (r->nops == 0) {
		form_error(c, n, "'%s' needs at least one operation", action == SB_ALLOW ? "allow" : "deny");
		sb_rule_free(r);
		return;
	}
	if (c->nconds)
		add_conditions(c, r);
	if (n->call) {
		r->call_loc = n->call->loc;
		r->call_name = n->call->name;
	}
	attach_origin(c, r, n->loc.line);
	sb_profile_add_rule(c->p, r);
}

/* ---- top-level forms ---- */

static void add_form(conv *c, const sx_node *n, sb_unmodelled_kind kind, const char *reason)
{
	char *text = sx_print(n);
	sb_profile_add_unmodelled(c->p, kind, text, reason, n->loc);
	free(text);
}

static void add_unmodelled(conv *c, const sx_node *n, const char *reason)
{
	add_form(c, n, SB_UNMODELLED_ACTIVE, reason);
}

static void conv_version(conv *c, const sx_node *n)
{
	if (n->nkids != 2 || n->kids[1]->kind != SX_NUMBER) {
		form_error(c, n, "'version' takes one number%s", NULL);
		return;
	}
	int v = (int)n->kids[1]->num;
	if (v != 1)
		form_warn(c, n, "sbpl-form", "version %s: only version 1 is known", n->kids[1]->text);
	if (c->p->version && c->p->version != v) {
		form_error(c, n, "a second, different version%s", NULL);
		return;
	}
	c->p->version = v;
	c->version_loc = n->loc;
}

static void conv_import(conv *c, const sx_node *n)
{
	if (n->nkids != 2 || n->kids[1]->kind != SX_STRING) {
		form_error(c, n, "'import' takes one file name%s", NULL);
		return;
	}
	sb_profile_add_import(c->p, n->kids[1]->text);
	form_warn(c, n, "sbpl-import",
		  "\"%s\" is imported but not read (a system profile is not on this machine, and "
		  "imports are not followed): every decision on this profile answers unknown",
		  n->kids[1]->text);
	add_unmodelled(c, n, "imported profile is not read: its rules may decide any query");
}

/* "FILE:LINE" (or a bare name, line 0) as an origin record: the text an
 * egress entry carries.  */
static const sb_origin *origin_of_text(conv *c, const char *o)
{
	char *file = NULL;
	const char *colon = strrchr(o, ':');
	int line = 0;
	if (colon && colon != o && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
	    strlen(colon + 1) < 10) {
		line = atoi(colon + 1);
		file = xstrndup(o, (size_t)(colon - o));
	}
	const sb_origin *r = line > 0 ? sb_origin_new(c->d, file, line, 0, NULL, 0)
				      : sb_origin_new(c->d, o, 0, 0, NULL, 0);
	free(file);
	return r;
}

/* (define sbx-egress (list (list "network" "on"|"off" ORIGIN)
 *                           (list "allow"|"deny" PATTERN ORIGIN) ...)):
 * the egress list sbc writes (emit_sbpl.c).  */
static void conv_egress(conv *c, const sx_node *n)
{
	const sx_node *l = n->kids[2];
	if (l->kind != SX_LIST || !l->nkids || !sx_is_symbol(l->kids[0], "list")) {
		form_error(c, n, "'" SB_EGRESS_DEFINE "' must be a (list ...) of entries%s", NULL);
		return;
	}
	for (size_t i = 1; i < l->nkids; i++) {
		const sx_node *x = l->kids[i];
		bool shape = x->kind == SX_LIST && x->nkids == 4 && sx_is_symbol(x->kids[0], "list");
		for (size_t k = 1; shape && k < 4; k++)
			shape = x->kids[k]->kind == SX_STRING;
		if (!shape) {
			form_error(c, x, "an egress entry is (list ACTION PATTERN ORIGIN) with three "
					 "strings%s", NULL);
			continue;
		}
		const char *a = x->kids[1]->text, *v = x->kids[2]->text, *o = x->kids[3]->text;
		/* the origin text, for a profile without the origin table;
		 * sbx-egress-origins replaces it (read_data_maps) */
		const sb_origin *origin = *o ? origin_of_text(c, o) : NULL;
		if (!strcmp(a, "network") && (!strcmp(v, "on") || !strcmp(v, "off"))) {
			sb_egress_add(&c->p->egress, !strcmp(v, "on"), true, NULL,
				      origin);
			continue;
		}
		if (strcmp(a, "allow") && strcmp(a, "deny")) {
			form_error(c, x, "an egress entry's action is \"allow\", \"deny\" or "
					 "\"network\"%s", NULL);
			continue;
		}
		sb_host_pat pat;
		const char *why;
		size_t at;
		if (sb_host_pat_parse(v, &pat, &why, &at) < 0) {
			form_error(c, x->kids[2], "invalid host pattern in the egress list: %s", why);
			continue;
		}
		sb_egress_add(&c->p->egress, !strcmp(a, "allow"), false, &pat,
			      origin);
	}
}

static void conv_form(conv *c, const sx_node *n);

/* Run the forms of a branch under one more condition.  */
static void conv_branch(conv *c, const sx_node *cond, bool negate, const sx_node *const *forms, size_t n)
{
	if (c->nconds >= MAX_COND_DEPTH) {
		form_error(c, cond, "conditions nested deeper than 16 levels%s", NULL);
		return;
	}
	char *text = sx_print(cond);
	if (negate) {
		char *neg = NULL;
		neg = xasprintf("(not %s)", text);
		free(text);
		text = neg;
	}
	c->conds[c->nconds++] = text;
	for (size_t i = 0; i < n; i++)
		conv_form(c, forms[i]);
	free(c->conds[--c->nconds]);
}

/* if / when / unless / begin: their allow and deny forms become rules
 * (conditional ones with the condition as an opaque filter); the form is
 * listed as unmodelled once, at top level, and decide() does not treat it
 * as a source of unknown rules (eval.c: containers).  */
static void conv_container(conv *c, const sx_node *n, const char *head)
{
	if (c->depth == 0)
		add_form(c, n, SB_UNMODELLED_INERT, !strcmp(head, "begin")
			? "'begin' read form by form"
			: "conditional; its rules are kept with the condition as an opaque filter (unknown where it matters)");
	c->depth++;
	const sx_node *const *k = (const sx_node *const *)n->kids;
	if (!strcmp(head, "begin")) {
		for (size_t i = 1; i < n->nkids; i++)
			conv_form(c, k[i]);
	} else if (n->nkids < 2) {
		form_error(c, n, "'%s' needs a condition", head);
	} else if (!strcmp(head, "if")) {
		if (n->nkids > 2)
			conv_branch(c, k[1], false, k + 2, 1);
		if (n->nkids > 3)
			conv_branch(c, k[1], true, k + 3, n->nkids - 3);
	} else {
		conv_branch(c, k[1], !strcmp(head, "unless"), k + 2, n->nkids - 2);
	}
	c->depth--;
}

static void conv_form(conv *c, const sx_node *n)
{
	const char *head = sx_head(n);
	if (!head) {
		if (c->depth == 0)
			form_error(c, n, "expected a form like (allow ...) at top level%s", NULL);
		return; /* a value inside a branch: nothing to do */
	}
	if (!strcmp(head, "version"))
		conv_version(c, n);
	else if (!strcmp(head, "allow"))
		conv_rule(c, n, SB_ALLOW);
	else if (!strcmp(head, "deny"))
		conv_rule(c, n, SB_DENY);
	else if (!strcmp(head, "import"))
		conv_import(c, n);
	else if (!strcmp(head, "debug"))
		; /* historic; a no-op in the modern prelude */
	else if ((c->flags & SB_READ_CONDITIONALS) &&
		 (!strcmp(head, "if") || !strcmp(head, "when") || !strcmp(head, "unless") || !strcmp(head, "begin")))
		conv_container(c, n, head);
	else if (!strcmp(head, "trace"))
		add_unmodelled(c, n, "trace mode is not modelled: it may change what is denied");
	else if (!strcmp(head, "if"))
		add_unmodelled(c, n, "the condition cannot be decided (a param nothing binds, or a "
				     "procedure this reader does not know): the rules under it may add rules");
	else {
		char reason[160];
		snprintf(reason, sizeof reason, "'%s' form is not evaluated: it may add rules", head);
		add_unmodelled(c, n, reason);
	}
}

/* The header comments the writer puts beside the data it shows (the -D
 * list under its title, "generated by sbc from"): true when `text` is one
 * and the data form holds what it shows, so it is written again from the
 * data, not kept as a header line.  Nothing is read from it.  */
static bool shows_data(const conv *c, const char *text)
{
	size_t pn = strlen(SB_SBPL_SOURCE_PREFIX), sn = strlen(SB_SBPL_SOURCE_SUFFIX);
	size_t n = strlen(text);
	if (!strcmp(text, SB_SBPL_LAUNCH_PARAMS_TITLE) || !strncmp(text, "-D ", 3))
		return c->has_params;
	return c->has_source && n > pn + sn && !strncmp(text, SB_SBPL_SOURCE_PREFIX, pn) &&
	       !strcmp(text + n - sn, SB_SBPL_SOURCE_SUFFIX);
}

static void collect_header(conv *c)
{
	int first_line = c->doc->nforms ? c->doc->forms[0]->loc.line : 1 << 30;
	for (size_t i = 0; i < c->doc->ncomments; i++) {
		const sx_comment *k = &c->doc->comments[i];
		if (k->line >= first_line)
			break;
		if (!shows_data(c, k->text))
			sb_profile_add_header(c->p, k->text);
	}
}

/* ---- the data form (emit_sbpl.h, "Data") ---- */

static void data_error(conv *c, const sx_node *n, const char *what)
{
	form_error(c, n, "malformed profile data: %s", what);
}

/* (list ...) of data: its elements, or NULL (reported) when it is not one.  */
static const sx_node *data_list(conv *c, const sx_node *n, const char *what)
{
	if (n->kind != SX_LIST || !n->nkids || !sx_is_symbol(n->kids[0], "list")) {
		data_error(c, n, what);
		return NULL;
	}
	return n;
}

/* Strings kids[*i], kids[*i + 1], ... joined (the writer splits long
 * values), up to the first element that is not a string.  */
static char *data_join(const sx_node *l, size_t *i, size_t *len)
{
	size_t n = 0, k;
	for (k = *i; k < l->nkids && l->kids[k]->kind == SX_STRING; k++)
		n += l->kids[k]->len;
	char *s = xmalloc(n + 1), *w = s;
	for (; *i < k; (*i)++) {
		memcpy(w, l->kids[*i]->text, l->kids[*i]->len);
		w += l->kids[*i]->len;
	}
	*w = '\0';
	*len = n;
	return s;
}

static void read_source(conv *c, const sx_node *v)
{
	sx_node l = { .kind = SX_LIST, .kids = (sx_node **)&v, .nkids = 1 };
	size_t i = 0, len;
	if (v->kind != SX_STRING) {
		data_error(c, v, SB_SBPL_SOURCE_DEFINE " is a string");
		return;
	}
	free(c->p->source_policy);
	c->p->source_policy = data_join(&l, &i, &len);
}

static void read_params(conv *c, const sx_node *v)
{
	if (!data_list(c, v, SB_SBPL_PARAMS_DEFINE " is a (list ...) of (list NAME VALUE...)"))
		return;
	for (size_t k = 1; k < v->nkids; k++) {
		const sx_node *x = v->kids[k];
		size_t i = 2, len;
		if (x->kind != SX_LIST || x->nkids < 3 || !sx_is_symbol(x->kids[0], "list") ||
		    x->kids[1]->kind != SX_STRING || !x->kids[1]->text[0] ||
		    strpbrk(x->kids[1]->text, " \t*=")) {
			data_error(c, x, "a launch param is (list NAME VALUE...)");
			continue;
		}
		char *value = data_join(x, &i, &len);
		if (i != x->nkids || strlen(value) != len || sb_path_bad_char(value) >= 0)
			data_error(c, x, "a launch param's value is strings without control characters");
		else if (!sb_bindings_get(&c->p->launch_params, x->kids[1]->text))
			sb_bindings_set(&c->p->launch_params, x->kids[1]->text, value);
		free(value);
	}
}

static void read_origins(conv *c, const sx_node *v)
{
	if (!data_list(c, v, SB_SBPL_ORIGINS_DEFINE " is a (list ...) of (list FILE LINE COL TEXT...)"))
		return;
	c->origins = xcalloc(v->nkids, sizeof *c->origins);
	for (size_t k = 1; k < v->nkids; k++) {
		const sx_node *x = v->kids[k];
		size_t i = 1, flen = 0, tlen = 0;
		if (x->kind != SX_LIST || !sx_is_symbol(x->nkids ? x->kids[0] : NULL, "list")) {
			data_error(c, x, "an origin is (list FILE LINE COL TEXT...)");
			continue;
		}
		char *file = data_join(x, &i, &flen);
		bool ok = flen && i + 2 <= x->nkids && x->kids[i]->kind == SX_NUMBER &&
			  x->kids[i + 1]->kind == SX_NUMBER && x->kids[i]->num >= 0 &&
			  x->kids[i]->num < (1 << 30) && x->kids[i + 1]->num >= 0 &&
			  x->kids[i + 1]->num < (1 << 30);
		if (!ok) {
			data_error(c, x, "an origin is (list FILE LINE COL TEXT...)");
			free(file);
			continue;
		}
		int line = (int)x->kids[i]->num, col = (int)x->kids[i + 1]->num;
		i += 2;
		const char *text = NULL;
		if (i < x->nkids) {
			char *t = data_join(x, &i, &tlen);
			text = sb_diag_keep_text(c->d, t, tlen);
			free(t);
			if (i != x->nkids)
				data_error(c, x, "an origin's text is strings");
		}
		c->origins[c->norigins++] = sb_origin_new(c->d, file, line, col, text, tlen);
		free(file);
	}
}

/* A map (list "N N ..." ...) onto the origin table, one number a rule or
 * host rule: the records (NULL for 0 or a number past the table), or NULL
 * (reported) when it is malformed or its length is not `n`.  */
static const sb_origin **read_map(conv *c, const sx_node *map, size_t n, const char *name)
{
	const sb_origin **v = xcalloc(n ? n : 1, sizeof *v);
	size_t k = 0;
	for (size_t i = 1; i < map->nkids; i++) {
		const sx_node *x = map->kids[i];
		if (x->kind != SX_STRING) {
			data_error(c, x, "an origin map is (list \"N N ...\" ...)");
			free(v);
			return NULL;
		}
		for (const char *s = x->text; *s;) {
			char *end;
			unsigned long long num = strtoull(s, &end, 10);
			if (end == s || (*end && *end != ' ') || !isdigit((unsigned char)*s)) {
				data_error(c, x, "an origin map holds decimal numbers separated by a blank");
				free(v);
				return NULL;
			}
			if (k < n && num > 0 && num <= c->norigins)
				v[k] = c->origins[num - 1];
			k++;
			s = *end ? end + 1 : end;
		}
	}
	if (k == n)
		return v;
	char what[200];
	snprintf(what, sizeof what, "%s has %zu entries for %zu rules: the profile was edited "
		 "after sbc wrote it, so its rules are shown without their policy statements",
		 name, k, n);
	sb_diag_report(c->d, SB_SEV_WARNING, &map->loc, "sbpl-data", "%s", what);
	free(v);
	return NULL;
}

static void read_data_maps(conv *c)
{
	sb_profile *p = c->p;
	const sb_origin **v;
	if (c->rule_map && (v = read_map(c, c->rule_map, p->nrules, SB_SBPL_RULE_ORIGINS_DEFINE))) {
		for (size_t i = 0; i < p->nrules; i++)
			p->rules[i]->origin = v[i];
		free(v);
	}
	/* a host rule the table does not name keeps the origin its entry
	 * gives (an older profile's, re-emitted) */
	if (c->egress_map &&
	    (v = read_map(c, c->egress_map, p->egress.n, SB_SBPL_EGRESS_ORIGINS_DEFINE))) {
		for (size_t i = 0; i < p->egress.n; i++)
			if (v[i])
				p->egress.v[i].origin = v[i];
		free(v);
	}
}

/* The data definitions at top level, read before the rules (whether
 * comments name origins depends on them).  */
static void read_data(conv *c)
{
	const sx_doc *doc = c->doc;
	for (size_t i = 0; i < doc->nforms; i++) {
		const sx_node *n = doc->forms[i];
		if (!sx_is_symbol(n->nkids ? n->kids[0] : NULL, "define") || n->nkids != 3)
			continue;
		const sx_node *name = n->kids[1], *v = n->kids[2];
		if (sx_is_symbol(name, SB_SBPL_SOURCE_DEFINE)) {
			c->has_source = true;
			read_source(c, v);
		} else if (sx_is_symbol(name, SB_SBPL_PARAMS_DEFINE)) {
			c->has_params = true;
			read_params(c, v);
		} else if (sx_is_symbol(name, SB_SBPL_ORIGINS_DEFINE)) {
			c->has_origins = true;
			read_origins(c, v);
		} else if (sx_is_symbol(name, SB_SBPL_RULE_ORIGINS_DEFINE)) {
			c->rule_map = data_list(c, v, SB_SBPL_RULE_ORIGINS_DEFINE " is a (list \"N ...\")");
		} else if (sx_is_symbol(name, SB_SBPL_EGRESS_ORIGINS_DEFINE)) {
			c->egress_map = data_list(c, v, SB_SBPL_EGRESS_ORIGINS_DEFINE " is a (list \"N ...\")");
		}
	}
}

sb_profile *sb_sbpl_read(const char *file, const char *text, size_t len, sb_diag *d)
{
	return sb_sbpl_read_ex(file, text, len, d, 0);
}

sb_profile *sb_sbpl_read_ex(const char *file, const char *text, size_t len, sb_diag *d, unsigned flags)
{
	return sb_sbpl_read_bound(file, text, len, d, flags, NULL);
}

sb_profile *sb_sbpl_read_bound(const char *file, const char *text, size_t len, sb_diag *d,
			       unsigned flags, const sb_bindings *params)
{
	sx_doc *doc = sx_read(file, text, len, d);
	if (!doc)
		return NULL;
	sbs_program *prog = sbs_run(doc, params, d);
	if (!prog) {
		sx_doc_free(doc);
		return NULL;
	}
	conv c = { .d = d, .doc = doc, .p = sb_profile_new(), .flags = flags };
	c.p->version = 0; /* set by (version N); 0 = missing */
	read_data(&c);
	collect_header(&c);
	for (size_t i = 0; i < sbs_nforms(prog); i++)
		conv_form(&c, sbs_form(prog, i));
	/* the egress list is literal data at top level: read from the document
	 * itself (the evaluator binds it and hands back nothing) */
	for (size_t i = 0; i < doc->nforms; i++) {
		const sx_node *n = doc->forms[i];
		if (sx_is_symbol(n->nkids ? n->kids[0] : NULL, "define") && n->nkids == 3 &&
		    sx_is_symbol(n->kids[1], SB_EGRESS_DEFINE))
			conv_egress(&c, n);
	}
	read_data_maps(&c);
	free(c.origins);
	if (!c.p->version && !c.errors) {
		sb_loc at = doc->nforms ? doc->forms[0]->loc : (sb_loc){ doc->file, 1, 1, 1, 1 };
		sb_diag_report(d, SB_SEV_ERROR, &at, "sbpl-form", "no version specified: add (version 1)");
		c.errors++;
	}
	sbs_program_free(prog);
	sx_doc_free(doc);
	if (c.errors) {
		sb_profile_free(c.p);
		return NULL;
	}
	return c.p;
}

sb_profile *sb_sbpl_read_file(const char *file, sb_diag *d)
{
	return sb_sbpl_read_file_ex(file, d, 0);
}

sb_profile *sb_sbpl_read_file_ex(const char *file, sb_diag *d, unsigned flags)
{
	return sb_sbpl_read_file_bound(file, d, flags, NULL);
}

sb_profile *sb_sbpl_read_file_bound(const char *file, sb_diag *d, unsigned flags, const sb_bindings *params)
{
	size_t len = 0;
	char *text = sb_file_read(file, 0, &len);
	if (!text) {
		sb_loc at = { .file = file };
		sb_diag_report(d, SB_SEV_ERROR, &at, "io", "cannot read %s: %s", file,
			       errno == EINVAL ? "not a regular file" : strerror(errno));
		return NULL;
	}
	sb_profile *p = sb_sbpl_read_bound(file, text, len, d, flags, params);
	free(text);
	return p;
}

/* "FILE:LINE" where FILE may hold blanks: the whole comment is
 * FILE:DIGITS, or its first word is (followed by more text).  */
static int origin_in(const char *s, size_t end, char **file)
{
	while (end > 0 && (s[end - 1] == ':' || s[end - 1] == ','))
		end--;
	size_t colon = end;
	while (colon > 0 && isdigit((unsigned char)s[colon - 1]))
		colon--;
	if (colon == end || colon < 2 || s[colon - 1] != ':' || end - colon > 9)
		return 0;
	long line = strtol(s + colon, NULL, 10);
	if (line <= 0)
		return 0;
	*file = xstrndup(s, colon - 1);
	return (int)line;
}

int sb_sbpl_parse_origin(const char *comment, char **file)
{
	const char *s = comment;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!strncmp(s, "from ", 5))
		s += 5;
	size_t len = strlen(s);
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	int line = origin_in(s, len, file);
	if (!line)
		line = origin_in(s, strcspn(s, " \t"), file);
	return line;
}
