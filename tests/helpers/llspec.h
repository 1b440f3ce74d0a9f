/* llspec.h - test-only: a line-based profile spec for the Landlock tests,
 * until the SBPL reader (compiler/sbpl/sbpl_read.h) is in main.  One rule a line:
 *   ACTION OP[,OP...] [KIND VALUE]...
 * ACTION allow|deny; OP an SBPL operation name; KIND literal|subpath|prefix|
 * regex|vnode (vnode VALUE: dir|file|symlink).  $NAME in a VALUE is replaced
 * by the -D NAME=VALUE binding (the profile comes out bound).  '#' starts a
 * comment.  Each rule keeps its file and line as its origin record.  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compiler/ir/ir.h"

typedef struct llspec_def {
	char name[64];
	char value[4096];
} llspec_def;

static void llspec_expand(const char *in, char *out, size_t n, const llspec_def *defs, size_t ndefs)
{
	size_t o = 0;
	for (const char *p = in; *p && o + 1 < n;) {
		if (*p == '$') {
			size_t best = 0;
			const llspec_def *hit = NULL;
			for (size_t i = 0; i < ndefs; i++) {
				size_t l = strlen(defs[i].name);
				if (l > best && strncmp(p + 1, defs[i].name, l) == 0) {
					best = l;
					hit = &defs[i];
				}
			}
			if (hit) {
				o += (size_t)snprintf(out + o, n - o, "%s", hit->value);
				if (o >= n)
					o = n - 1;
				p += 1 + best;
				continue;
			}
		}
		out[o++] = *p++;
	}
	out[o] = '\0';
}

/* Returns NULL and prints a message on a syntax error.  */
static sb_profile *llspec_load(const char *file, const llspec_def *defs, size_t ndefs, sb_diag *d)
{
	FILE *f = fopen(file, "r");
	if (!f) {
		perror(file);
		return NULL;
	}
	sb_profile *p = sb_profile_new();
	p->version = 1;
	char line[8192];
	int lineno = 0;
	while (fgets(line, sizeof line, f)) {
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *save = NULL;
		char *act = strtok_r(line, " \t\r\n", &save);
		if (!act)
			continue;
		char *ops = strtok_r(NULL, " \t\r\n", &save);
		if (!ops || (strcmp(act, "allow") && strcmp(act, "deny"))) {
			fprintf(stderr, "%s:%d: expected ACTION OP...\n", file, lineno);
			goto bad;
		}
		sb_loc loc = { .file = file, .line = lineno, .col = 1 };
		sb_rule *r = sb_rule_new(strcmp(act, "allow") == 0 ? SB_ALLOW : SB_DENY, loc);
		r->origin = sb_origin_new(d, file, lineno, 1, NULL, 0);
		char *osave = NULL;
		for (char *op = strtok_r(ops, ",", &osave); op; op = strtok_r(NULL, ",", &osave)) {
			int o = sb_op_lookup(op);
			if (o < 0) {
				fprintf(stderr, "%s:%d: unknown operation %s\n", file, lineno, op);
				sb_rule_free(r);
				goto bad;
			}
			sb_rule_add_op(r, (sb_op)o, op);
		}
		char *kind;
		while ((kind = strtok_r(NULL, " \t\r\n", &save))) {
			char *val = strtok_r(NULL, " \t\r\n", &save);
			if (!val) {
				fprintf(stderr, "%s:%d: %s needs a value\n", file, lineno, kind);
				sb_rule_free(r);
				goto bad;
			}
			char ex[4096];
			llspec_expand(val, ex, sizeof ex, defs, ndefs);
			sb_filter_kind k;
			if (!strcmp(kind, "literal"))
				k = SB_F_LITERAL;
			else if (!strcmp(kind, "subpath"))
				k = SB_F_SUBPATH;
			else if (!strcmp(kind, "prefix"))
				k = SB_F_PREFIX;
			else if (!strcmp(kind, "regex"))
				k = SB_F_REGEX;
			else if (!strcmp(kind, "vnode")) {
				unsigned m = !strcmp(val, "dir") ? SB_VNODE_DIRECTORY
					     : !strcmp(val, "symlink") ? SB_VNODE_SYMLINK : SB_VNODE_REGULAR;
				sb_rule_add_filter(r, sb_filter_vnode(m, loc));
				continue;
			} else {
				fprintf(stderr, "%s:%d: unknown filter %s\n", file, lineno, kind);
				sb_rule_free(r);
				goto bad;
			}
			sb_rule_add_filter(r, sb_filter_path(k, sb_str_lit(ex), loc));
		}
		sb_profile_add_rule(p, r);
	}
	fclose(f);
	return p;
bad:
	fclose(f);
	sb_profile_free(p);
	return NULL;
}

#include "compiler/sbpl/sbpl_read.h"

/* A real SBPL profile (*.sb, e.g. compiled by sbc) bound with the -D
 * values; list params (EXTRA_READ*, EXTRA_WRITE*) bound empty unless given.
 * Anything else: the llspec format above.  */
static sb_profile *llspec_load_any(const char *file, const llspec_def *defs, size_t ndefs,
				   sb_diag *d)
{
	size_t n = strlen(file);
	if (n < 3 || strcmp(file + n - 3, ".sb") != 0)
		return llspec_load(file, defs, ndefs, d);
	sb_profile *raw = sb_sbpl_read_file(file, d);
	if (!raw)
		return NULL;
	sb_bindings b = { 0 };
	for (size_t i = 0; i < ndefs; i++)
		sb_bindings_set(&b, defs[i].name, defs[i].value);
	static const char *const lists[] = { "EXTRA_READ", "EXTRA_WRITE" };
	for (size_t i = 0; i < 2; i++)
		if (!sb_bindings_get(&b, lists[i]))
			sb_bindings_set_list(&b, lists[i], NULL, 0);
	char **unbound = NULL;
	size_t nunbound = 0;
	sb_profile *p = sb_profile_bind(raw, &b, &unbound, &nunbound);
	/* every other list the launcher fills (tool presets, the protected
	 * git files, git's includes) bound empty, as with those off: an
	 * unbound deny would be dropped as unenforceable */
	bool again = false;
	for (size_t i = 0; i < nunbound; i++) {
		size_t l = strlen(unbound[i]);
		if (l > 1 && unbound[i][l - 1] == '*' && !strstr(unbound[i], "..")) {
			char *name = strndup(unbound[i], l - 1);
			if (name && !sb_bindings_get(&b, name)) {
				sb_bindings_set_list(&b, name, NULL, 0);
				again = true;
			}
			free(name);
		}
	}
	if (again) {
		for (size_t i = 0; i < nunbound; i++)
			free(unbound[i]);
		free(unbound);
		unbound = NULL;
		nunbound = 0;
		sb_profile_free(p);
		p = sb_profile_bind(raw, &b, &unbound, &nunbound);
	}
	for (size_t i = 0; i < nunbound; i++) {
		fprintf(stderr, "%s: param %s left unbound\n", file, unbound[i]);
		free(unbound[i]);
	}
	free(unbound);
	sb_bindings_clear(&b);
	sb_profile_free(raw);
	return p;
}
