/* denial_internal.h - what the parts of the denial tracer share (denial.h;
 * only runtime/common includes it): the tracer's state and its entries
 * (denial.c: classification), the fixes proposed for them (denial_fix.c),
 * the reports (denial_report.c) and --learn's fragment (denial_learn.c).  */
#ifndef SB_DENIAL_INTERNAL_H
#define SB_DENIAL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>
#include "runtime/common/denial.h"
#include "compiler/common/sensitive.h"
#include "compiler/common/strmap.h"
#include "compiler/eval/eval.h"

typedef struct entry {
	sb_access access;
	char *path;
	char *process;
	int pid;
	size_t count;
	bool platform_only;
	/* The deciding rule's policy statement (compiler/ir/origin.h), from
	 * the profile, or `own` when the platform named a rule the profile
	 * does not hold (own.file is then owned).  NULL: none.  */
	const sb_origin *origin;
	sb_origin own;
	char *rule_text;           /* "deny read home", or the SBPL rule */
	int port;                  /* CONNECT: the first refused port */
	char *detail;              /* CONNECT: the proxy's reason */
	bool absent;               /* hidden by a mask: ENOENT inside, not EACCES */
	bool link_source;          /* WRITE: a hard link to it was refused (write gate) */
} entry;

struct sb_tracer {
	sb_tracer_cfg cfg;
	sb_strmap *seen;           /* access byte + path -> entry */
	entry **v;
	size_t n, cap;
	sb_tracer_counts counts;
	double tokens;
	struct timespec last;
	sb_eval *ev;               /* decides for cfg.bound, NULL without one */
	const char *unobserved[SB_TRACER_MAX_UNOBSERVED];
	size_t nunobserved;
};

/* ---- denial_fix.c ---- */
bool sb_den_is_read(sb_access a);
bool sb_den_is_write(sb_access a);
/* "/" or the home or an ancestor of it.  */
bool sb_den_is_wide(const sb_tracer *t, const char *p);
const sb_sensitive_entry *sb_den_sensitive(const sb_tracer *t, const char *p);
/* "~/rel" or "~" in the home directory, else a copy.  Caller frees.  */
char *sb_den_display_path(const sb_tracer *t, const char *p);
/* A path as a policy target (compiler/common/sbx_text.h).  Caller frees.  */
char *sb_den_target_text(const sb_tracer *t, const char *p);
/* Creating `path` is granted on the path itself, not its directory.  */
bool sb_den_create_self(const sb_tracer *t, sb_access a, const char *path);
/* What a grant for this denial names.  Caller frees.  */
char *sb_den_grant_target(const sb_tracer *t, sb_access a, const char *path);
/* The walked unit to grant instead of `target`, or NULL.  Caller frees.  */
char *sb_den_unit_for(const sb_tracer *t, bool write, const char *target);
/* "read", "read exactly", "write", "exec".  */
const char *sb_den_verb_of(sb_access a);
/* What sbc --check's sensitive pass says of a grant, or NULL.  */
const sb_sensitive_entry *sb_den_grant_sensitive(const sb_tracer *t, const char *verb,
						 const char *target);
/* The fix for an entry, as text.  Caller frees.  */
char *sb_den_entry_fix(const sb_tracer *t, const entry *e);

/* ---- denial_report.c ---- */
/* Escaped text (runtime/common/textesc.h) and an origin "file:line".  */
void sb_den_put_text(FILE *f, const char *s);
void sb_den_put_origin(FILE *f, const sb_origin *o);
/* One live report of `e`, text or JSON as configured.  */
void sb_den_report(const sb_tracer *t, const entry *e, const char *syscall, FILE *f);

#endif
