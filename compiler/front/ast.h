/* ast.h - the policy (.sbx) as parsed: statements in source order, with
 * includes already spliced in at the point of the include.  This is the
 * policy-level IR the check passes run on; lower.c turns it into the
 * profile IR (ir.h).  Language reference: docs/language.md.
 *
 * Semantics (the "text" model): for an access and a path, the LAST rule
 * statement whose access set covers it and one of whose targets matches
 * decides; when none does, the `default`.  The emitter produces SBPL that
 * decides the same under Seatbelt's per-operation model (order-robust form).  */
#ifndef SB_AST_H
#define SB_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "compiler/common/diag.h"
#include "compiler/ir/ir.h"

/* Access classes a rule names (bit set).  */
enum {
	SBX_ACC_READ = 1 << 0,   /* file-read*: data, listing, metadata, xattrs */
	SBX_ACC_WRITE = 1 << 1,  /* file-write* */
	SBX_ACC_STAT = 1 << 2,   /* stat-only: file-read-metadata */
	SBX_ACC_EXEC = 1 << 3,   /* process-exec */
};

typedef enum {
	SBX_BASE_ABS,        /* "/usr/lib": rel holds the absolute path */
	SBX_BASE_HOME,       /* home, $HOME, ~ ; rel is the suffix ("" or "a/b") */
	SBX_BASE_WORKSPACE,  /* workspace, $WORKSPACE */
	SBX_BASE_TMPDIR,     /* tmpdir, $TMPDIR */
	SBX_BASE_PARAM,      /* $NAME bound with -D at compile time or at launch */
	SBX_BASE_LIST        /* $NAME declared with `list` (EXTRA_WRITE, EXTRA_READ
				predeclared): filled by sbrun from OMP_SANDBOX_NAME */
} sbx_base;

typedef struct sbx_target {
	sbx_base base;
	char *name;          /* PARAM / LIST: the name without '$'; else NULL */
	char *rel;           /* ABS: absolute normal path; others: relative suffix or "" */
	bool exact;          /* `exactly`: the node only (SBPL literal), else subtree */
	sb_loc loc;
} sbx_target;

enum { SBX_ACK_SENSITIVE = 1 << 0, SBX_ACK_WIDE = 1 << 1 };

typedef enum {
	SBX_STMT_DEFAULT,    /* default allow|deny; */
	SBX_STMT_NETWORK,    /* network on|off; */
	SBX_STMT_RULE,       /* [allow|deny] ACCESS... [TARGET...] [acknowledge ...]; */
	SBX_STMT_LIST,       /* list $NAME; */
	SBX_STMT_HOSTS       /* network allow|deny "HOST"...; */
} sbx_stmt_kind;

typedef struct sbx_stmt {
	sbx_stmt_kind kind;
	sb_action action;    /* DEFAULT, RULE; NETWORK: ALLOW = on */
	unsigned access;     /* RULE: SBX_ACC_* */
	sbx_target *targets; /* RULE: 0 targets = everywhere (unfiltered) */
	size_t ntargets;
	unsigned acks;       /* SBX_ACK_* acknowledged at this rule */
	char *ack_reason;    /* the reason string given with `acknowledge` */
	char *name;          /* LIST: declared name */
	sb_host_pat *hosts;  /* HOSTS: the patterns, parsed (compiler/ir/egress.h) */
	sb_loc *host_locs;   /* HOSTS: where each pattern is written */
	size_t nhosts;
	sb_loc loc;          /* the statement's first token; loc.file is the
				name for diagnostics (as given / as resolved) */
	/* Where it is written (compiler/ir/origin.h): the file name profiles
	 * use (the top file's basename, includes relative to the top file's
	 * directory), the first token's line and column, and the text from
	 * there through the ';', made at parse time; the rules and host rules
	 * it lowers to share it.  NULL for a statement made by hand.  */
	const sb_origin *origin;
	int include_depth;   /* 0 for the top file */
	/* RULE: the preset that gates it (`preset "git";` earlier in its file or
	 * in a file including it), interned, or NULL.  Lowered as a list param
	 * prefix (ir.h: TOOL_NAME*) that the launcher binds to one empty string
	 * when the preset is selected and to nothing when it is not.  */
	const char *preset;
} sbx_stmt;

typedef struct sbx_policy {
	sbx_stmt *stmts;
	size_t nstmts;
	const char *file;    /* top-level file (interned) */
} sbx_policy;

/* Compile-time bindings from -D NAME=VALUE.  */
typedef sb_bindings sbx_defines;

/* Parse a policy file (and its includes, resolved relative to the including
 * file, depth <= 16, cycles refused).  All errors go to `d`; on any error
 * returns NULL.  `text` may be NULL to read `file` from disk.  */
sbx_policy *sbx_parse(const char *file, const char *text, size_t len, sb_diag *d);
void sbx_policy_free(sbx_policy *p);

/* Print the policy as normalised .sbx text, one statement a line with its
 * origin (sbc --dump-ast).  */
void sbx_policy_dump(const sbx_policy *p, FILE *out);

/* Lower to the profile IR.  Compile-time -D bindings are interpolated as
 * escaped literals; everything else stays a (param ...).  */
sb_profile *sbx_lower(const sbx_policy *p, const sbx_defines *defs, sb_diag *d);

/* Where a streamed lowering puts each rule, in profile order; the rule is
 * valid during the call only.  */
typedef struct sbx_rule_sink {
	void *ctx;
	void (*rule)(void *ctx, const sb_rule *r);
} sbx_rule_sink;

/* sbx_lower for a compile that writes the profile as it is made (sbc):
 * each rule goes to `sink` and is not kept, so a large policy's profile is
 * never whole in memory (bench/analysis.md, section 1).  Returns the
 * profile without its rules (the header, source and egress that go
 * around them), or NULL after errors, when some rules may have gone to
 * the sink already.  */
sb_profile *sbx_lower_stream(const sbx_policy *p, const sbx_defines *defs, sb_diag *d,
			     const sbx_rule_sink *sink);

#endif
