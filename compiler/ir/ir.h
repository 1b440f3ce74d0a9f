/* ir.h - the profile IR: the one representation shared by the compiler
 * (policy -> IR -> SBPL text), the SBPL reader (text -> IR), the evaluator
 * (decide()), sbc explain/diff and the Linux planner.
 *
 * It is SBPL-level: a profile is an ordered list of rules; a rule is an
 * action, one or more operations, zero or more filters (ORed) and optional
 * modifiers.  `(allow default)` / `(deny default)` are rules for SB_OP_DEFAULT
 * without filters.
 *
 * Path values are string expressions (sb_str): literals, params and
 * (string-append ...).  A param is typed (sb_param): one path bound at
 * launch (HOME, WORKSPACE, TMPDIR, or -D), a list whose elements each become
 * their own filter (EXTRA_WRITE), or the directories strictly between two
 * params (HOME and WORKSPACE, the leaf possibly a list), used for the
 * stat-only ancestor grants (realpath() needs lstat on each).  Its spelling
 * in SBPL text (param.c: "NAME", "NAME*", "TOP..LEAF", "TOP..LEAF*") is
 * written and read in one place; no other code looks at the spelling.
 * sb_profile_bind() replaces every param by its value and expands lists;
 * decide() needs a bound profile (an unbound param makes a rule "unknown").
 *
 * Ownership: every *_new has a *_free; containers own their children;
 * functions that take a child pointer ("add") take ownership of it.  */
#ifndef SB_IR_H
#define SB_IR_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/common/diag.h"
#include "compiler/ir/egress.h"
#include "compiler/ir/origin.h"

/* ---- operations (versioned table in ops.c, macOS 10.15 hierarchy) ---- */
typedef enum {
	SB_OP_DEFAULT = 0,
	SB_OP_FILE_ALL,            /* file* */
	SB_OP_FILE_READ,           /* file-read* */
	SB_OP_FILE_READ_DATA,
	SB_OP_FILE_READ_METADATA,
	SB_OP_FILE_READ_XATTR,
	SB_OP_FILE_WRITE,          /* file-write* */
	SB_OP_FILE_WRITE_DATA,
	SB_OP_FILE_WRITE_CREATE,
	SB_OP_FILE_WRITE_UNLINK,
	SB_OP_FILE_WRITE_MODE,
	SB_OP_FILE_WRITE_OWNER,
	SB_OP_FILE_WRITE_FLAGS,
	SB_OP_FILE_WRITE_TIMES,
	SB_OP_FILE_WRITE_XATTR,
	SB_OP_FILE_WRITE_ACL,
	SB_OP_FILE_WRITE_FINDERINFO,
	SB_OP_FILE_IOCTL,
	SB_OP_FILE_MKNOD,
	SB_OP_FILE_MOUNT,
	SB_OP_FILE_UNMOUNT,
	SB_OP_FILE_CHROOT,
	SB_OP_FILE_REVOKE,
	SB_OP_FILE_SEARCH,
	SB_OP_FILE_ISSUE_EXTENSION,
	SB_OP_FILE_TEST_EXISTENCE, /* parent: default */
	SB_OP_FILE_MAP_EXECUTABLE, /* parent: default */
	SB_OP_FILE_LINK,           /* parent: default */
	SB_OP_FILE_CLONE,          /* parent: default */
	SB_OP_FILE_WRITE_SETUGID,  /* parent: default */
	SB_OP_FS_RENAME,           /* parent: default */
	SB_OP_PROCESS_ALL,         /* process* */
	SB_OP_PROCESS_EXEC,        /* process-exec* (alias process-exec) */
	SB_OP_PROCESS_EXEC_INTERPRETER,
	SB_OP_PROCESS_FORK,
	SB_OP_PROCESS_INFO,        /* process-info* */
	SB_OP_NETWORK_ALL,         /* network* */
	SB_OP_NETWORK_INBOUND,
	SB_OP_NETWORK_BIND,
	SB_OP_NETWORK_OUTBOUND,
	SB_OP_SIGNAL,
	SB_OP_OTHER,               /* a known-to-exist op we do not model; name kept */
	SB_OP__COUNT
} sb_op;

const char *sb_op_name(sb_op op);              /* canonical SBPL spelling */
/* Look up an SBPL operation name, resolving Apple's aliases.  Returns
 * SB_OP_OTHER for names that are valid but unmodelled (mach-lookup, ...) and
 * -1 for names that are not operations at all.  */
int sb_op_lookup(const char *name);
sb_op sb_op_parent(sb_op op);                   /* SB_OP_DEFAULT for roots */
bool sb_op_is_file(sb_op op);

/* ---- params ---- */
typedef enum {
	SB_PARAM_SINGLE,      /* one value */
	SB_PARAM_LIST,        /* any number of values, one filter each */
	SB_PARAM_ANCESTORS    /* the directories strictly between two params */
} sb_param_kind;

typedef struct sb_param {
	sb_param_kind kind;
	/* The binding's name ("HOME", "EXTRA_WRITE": never a '*');
	 * ANCESTORS: the top, a single param.  */
	char *name;
	char *leaf;          /* ANCESTORS: the leaf's binding name */
	bool leaf_list;      /* ANCESTORS: the leaf is a list */
	/* LIST: the tool preset this list gates ("node-gyp", binding name
	 * "TOOL_NODE_GYP"; docs/language.md, "preset"), else NULL.  Its value
	 * is one empty string (on) or nothing (off).  */
	char *tool;
	/* > 0: element `index` (1-based) of a LIST or ANCESTORS param, bound
	 * by its spelling to one value: the macOS launch form (launch.h).  */
	size_t index;
} sb_param;

/* Constructors into caller-owned storage; sb_param_clear releases the
 * members.  */
sb_param sb_param_single(const char *name);
sb_param sb_param_list(const char *name);
sb_param sb_param_ancestors(const char *top, const char *leaf, bool leaf_list);
sb_param sb_param_gate(const char *tool);
sb_param sb_param_copy(const sb_param *p);
void sb_param_clear(sb_param *p);
/* The SBPL spelling, (param "SPELLING"); caller frees.  */
char *sb_param_spelling(const sb_param *p);
/* The one reader of a spelling.  A spelling outside the grammar is a
 * single param of that exact name.  */
sb_param sb_param_parse(const char *spelling);
/* A param that expands to a number of filters (LIST or ANCESTORS, not an
 * indexed element).  */
bool sb_param_is_multi(const sb_param *p);
/* Does the param read the binding `name` (its name or its leaf)?  */
bool sb_param_uses(const sb_param *p, const char *name);
/* The binding name of a tool preset's gate: "node-gyp" -> "TOOL_NODE_GYP".  */
char *sb_param_gate_name(const char *tool);
/* Is `name` the binding name of a tool preset's gate?  */
bool sb_param_is_gate_name(const char *name);
/* Free an array of params and their members (sb_profile_params).  */
void sb_param_array_free(sb_param *v, size_t n);

/* ---- string expressions ---- */
typedef enum { SB_STR_LIT, SB_STR_PARAM, SB_STR_APPEND } sb_str_kind;
typedef struct sb_str {
	sb_str_kind kind;
	bool in_arena;              /* owned by a profile's arena (sb_profile_new_arena) */
	char *text;                 /* LIT: the value */
	struct sb_str **parts;      /* APPEND */
	size_t nparts;
	/* PARAM.  Last: an arena string of another kind ends before it (read
	 * `param` only when kind is SB_STR_PARAM).  */
	sb_param param;
} sb_str;

sb_str *sb_str_lit(const char *value);
sb_str *sb_str_param(const sb_param *p);      /* copies p */
/* A param given by its SBPL spelling (sb_param_parse): the reader, tests.  */
sb_str *sb_str_param_spelled(const char *spelling);
sb_str *sb_str_append(sb_str **parts, size_t n);   /* takes the parts */
sb_str *sb_str_clone(const sb_str *s);
void sb_str_free(sb_str *s);
/* The literal value when the expression has no params, else NULL.
 * Caller frees.  */
char *sb_str_value(const sb_str *s);

/* ---- filters ---- */
typedef enum {
	SB_F_LITERAL,      /* (literal P) = (path P) */
	SB_F_SUBPATH,      /* (subpath P) */
	SB_F_PREFIX,       /* (prefix P) = (path-prefix P) */
	SB_F_REGEX,        /* (regex R) = (path-regex R) */
	SB_F_VNODE_TYPE,   /* (vnode-type T...) */
	SB_F_REQUIRE_ALL,
	SB_F_REQUIRE_ANY,
	SB_F_REQUIRE_NOT,
	SB_F_OPAQUE        /* a filter we keep but cannot decide: "unknown" */
} sb_filter_kind;

enum {
	SB_VNODE_REGULAR = 1 << 0, SB_VNODE_DIRECTORY = 1 << 1, SB_VNODE_SYMLINK = 1 << 2,
	SB_VNODE_CHAR = 1 << 3, SB_VNODE_BLOCK = 1 << 4, SB_VNODE_SOCKET = 1 << 5,
	SB_VNODE_FIFO = 1 << 6, SB_VNODE_TTY = 1 << 7
};
enum { SB_VNODE__COUNT = 8 };
/* The one vnode-type name table (ops.c).  sb_vnode_name: the SBPL spelling
 * of bit `1 << i` (REGULAR-FILE, DIRECTORY, ...), as every writer prints it.
 * sb_vnode_from_name: its bit, read case-insensitively; 0 when unknown.  */
const char *sb_vnode_name(unsigned i);
unsigned sb_vnode_from_name(const char *name);

typedef struct sb_filter {
	sb_filter_kind kind;
	bool in_arena;               /* owned by a profile's arena (sb_profile_new_arena) */
	sb_str *arg;                 /* path filters */
	unsigned vnode_mask;         /* VNODE_TYPE */
	struct sb_filter **kids;     /* REQUIRE_* (NOT has exactly one) */
	size_t nkids;
	char *opaque;                /* OPAQUE: the source text of the filter */
	sb_loc loc;
} sb_filter;

sb_filter *sb_filter_path(sb_filter_kind kind, sb_str *arg, sb_loc loc);
sb_filter *sb_filter_vnode(unsigned mask, sb_loc loc);
sb_filter *sb_filter_logic(sb_filter_kind kind, sb_filter **kids, size_t n, sb_loc loc);
sb_filter *sb_filter_opaque(const char *text, sb_loc loc);
sb_filter *sb_filter_clone(const sb_filter *f);
void sb_filter_free(sb_filter *f);

/* ---- rules ---- */
typedef enum { SB_ALLOW, SB_DENY } sb_action;

typedef struct sb_rule {
	sb_action action;
	/* The profile arena that owns the rule, its arrays and its children
	 * (sb_profile_new_arena), or NULL for a rule on the heap.  */
	struct sb_arena *arena;
	sb_op *ops;                  /* >= 1 */
	char **op_names;             /* spelling as written (for SB_OP_OTHER); NULL (the array
					or an entry): sb_op_name */
	size_t nops;
	sb_filter **filters;         /* ORed; 0 = unfiltered */
	size_t nfilters;
	char **modifiers;            /* "(with report)" etc., text; never change decisions */
	size_t nmodifiers;
	sb_loc loc;                  /* where the rule is in the .sb (or .sbx) */
	/* The policy statement it comes from (origin.h), or NULL: set by the
	 * compiler, and by the reader from the profile's data form (or, for a
	 * profile without one, from sbc's "; policy.sbx:12" comments, for
	 * display: file and line only).  Shared, never owned.  */
	const sb_origin *origin;
	/* Why the compiler added or adjusted this rule, emitted as a comment
	 * after the origin; a static string (not owned), or NULL.  */
	const char *note;
	/* For a rule an SBPL procedure made ((define (allow-fonts) (allow ...))):
	 * where the outermost procedure call is and the procedure's name
	 * (interned in the sb_diag); `loc` is then the (allow ...) form in the
	 * definition.  line 0 / NULL otherwise.  Never emitted.  */
	sb_loc call_loc;
	const char *call_name;
} sb_rule;

sb_rule *sb_rule_new(sb_action action, sb_loc loc);
void sb_rule_add_op(sb_rule *r, sb_op op, const char *spelling);
void sb_rule_add_filter(sb_rule *r, sb_filter *f);
void sb_rule_add_modifier(sb_rule *r, const char *text);
sb_rule *sb_rule_clone(const sb_rule *r);
void sb_rule_free(sb_rule *r);

/* A top-level form the reader kept but does not model (import, if, ...).
 * ACTIVE: it may add rules the IR does not hold, so any query that could
 * depend on it answers "unknown" with `reason`.  INERT: it adds nothing the
 * IR does not already hold (a container whose rules the reader extracted:
 * begin, or if/when/unless with the condition kept as an opaque filter).  */
typedef enum { SB_UNMODELLED_ACTIVE, SB_UNMODELLED_INERT } sb_unmodelled_kind;
typedef struct sb_unmodelled {
	sb_unmodelled_kind kind;
	char *text;
	char *reason;
	sb_loc loc;
} sb_unmodelled;

/* ---- binding ---- */
typedef struct sb_binding {
	char *name;                  /* "HOME", "EXTRA_READ" (list: no '*') */
	char **values;               /* one value for a path, n for a list */
	size_t nvalues;
	bool is_list;
} sb_binding;

typedef struct sb_bindings {
	sb_binding *v;
	size_t n, cap;
} sb_bindings;

/* ---- profiles ---- */
typedef struct sb_profile {
	int version;                 /* 1; 0 when missing */
	/* NULL, or the arena of a profile built in one go (sb_profile_new_arena) */
	struct sb_arena *arena;
	sb_rule **rules;
	size_t nrules;
	sb_unmodelled *unmodelled;
	size_t nunmodelled;
	char **imports;              /* (import "x") names, not followed */
	size_t nimports;
	/* Data the SBPL writer puts in the profile's data form, read back
	 * from there only (compiler/sbpl/emit_sbpl.h; the header comments
	 * beside it are for people): the -D NAME=VALUE params of the macOS
	 * launch form (sbrun --print-profile), and the policy the profile was
	 * compiled from (its name relative to the profile's directory; NULL
	 * when none).  */
	sb_bindings launch_params;
	char *source_policy;
	/* Other header comment lines (without ";"), emitted after those; e.g.
	 * the params the profile needs.  */
	char **header;
	size_t nheader;
	/* Egress by host name (`network allow|deny "HOST"`), in policy order
	 * with the `network on|off` statements; empty when the policy has no
	 * host rule.  Read back from the profile's data form (egress.h).  */
	sb_egress egress;
} sb_profile;

sb_profile *sb_profile_new(void);
/* ---- a profile built in one arena ----
 * The compiler builds its profile once and frees it whole: its rules,
 * filters and strings come from the profile's arena, made by the *_in
 * constructors below, with no allocation and no free per node (for a large
 * policy those were a third of the compile; bench/analysis.md).  *_free of
 * an arena node does nothing (sb_profile_free releases the arena); the
 * sb_rule_add_* functions on an arena rule allocate in its arena, and a
 * heap filter given to one is copied into the arena and freed.  Clones and
 * bound copies are ordinary heap nodes.  An arena node must not outlive its
 * profile, nor be added to another profile.  */
sb_profile *sb_profile_new_arena(void);
sb_rule *sb_rule_new_in(sb_profile *p, sb_action action, sb_loc loc);
sb_filter *sb_filter_path_in(sb_profile *p, sb_filter_kind kind, sb_str *arg, sb_loc loc);
sb_filter *sb_filter_opaque_in(sb_profile *p, const char *text, sb_loc loc);
sb_str *sb_str_lit_in(sb_profile *p, const char *value);
sb_str *sb_str_param_in(sb_profile *p, const sb_param *param);   /* copies param */
sb_str *sb_str_append_in(sb_profile *p, sb_str **parts, size_t n); /* takes the parts */
void sb_profile_add_rule(sb_profile *p, sb_rule *r);
void sb_profile_add_unmodelled(sb_profile *p, sb_unmodelled_kind kind, const char *text,
			       const char *reason, sb_loc loc);
void sb_profile_add_header(sb_profile *p, const char *line);
/* A copy of an (import "x") name.  */
void sb_profile_add_import(sb_profile *p, const char *name);
sb_profile *sb_profile_clone(const sb_profile *p);
void sb_profile_free(sb_profile *p);

void sb_bindings_set(sb_bindings *b, const char *name, const char *value);
void sb_bindings_set_list(sb_bindings *b, const char *name, const char *const *values, size_t n);
const sb_binding *sb_bindings_get(const sb_bindings *b, const char *name);
void sb_bindings_clear(sb_bindings *b);
/* The one parser of a -D argument, for every command: NAME=VALUE with NAME
 * a letter or '_' then letters, digits, '_', and VALUE free of control
 * characters.  Binds it in `b` and returns NULL, or returns why it is
 * malformed (a static string) and binds nothing.  */
const char *sb_bindings_parse_define(sb_bindings *b, const char *arg);

/* Return a copy of `p` with every param replaced by its bound value, list
 * params expanded one filter per element (a rule whose filters all vanish
 * is dropped, never left unfiltered), and A..B ancestor params computed.
 * Unbound params are left in place (decide() answers unknown for them).
 * Names of params that stayed unbound are appended to *unbound (may be NULL).  */
sb_profile *sb_profile_bind(const sb_profile *p, const sb_bindings *b,
			    char ***unbound, size_t *nunbound);

/* The same walk with what a bound param becomes left to `hook`: subst() is
 * called with the param, its value and, for an element of a list or an
 * ancestor param, the element's 1-based index (0 for a single param), and
 * returns the string to put in its place.  Literal appends are not folded.
 * The macOS launch form is one such hook (runtime/common/launch.c).  */
typedef struct sb_param_hook {
	void *ctx;
	sb_str *(*subst)(void *ctx, const sb_param *p, const char *value, size_t index);
} sb_param_hook;
sb_profile *sb_profile_rewrite(const sb_profile *p, const sb_bindings *b,
			       const sb_param_hook *hook, char ***unbound, size_t *nunbound);

/* Params a profile references, each once, sorted by spelling ("HOME",
 * "EXTRA_READ*", "HOME..WORKSPACE").  Free with sb_param_array_free.  */
sb_param *sb_profile_params(const sb_profile *p, size_t *n);

/* The same for rules given one at a time (a streamed compile keeps none:
 * compiler/lower/lower.c): zero the set, add each rule, then take the
 * params (sorted as above; the set is empty afterwards).  */
typedef struct sb_param_set {
	sb_param *v;
	char **spelling;
	size_t n, cap, spcap;   /* cap: of v, spcap: of spelling */
} sb_param_set;
void sb_param_set_add_rule(sb_param_set *s, const sb_rule *r);
sb_param *sb_param_set_take(sb_param_set *s, size_t *n);

#endif
