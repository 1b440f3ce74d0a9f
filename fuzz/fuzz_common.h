/* fuzz_common.h - helpers shared by the libFuzzer harnesses (fuzz/fuzz_*.c):
 * a diagnostics sink that discards output, the bindings a launch would
 * supply, and a probe set of (operation, path) questions derived from a
 * bound profile.  Header-only: each harness is one translation unit.  */
#ifndef SB_FUZZ_COMMON_H
#define SB_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compiler/common/diag.h"
#include "compiler/eval/eval.h"
#include "compiler/ir/ir.h"

/* One sink per input: diagnostics are rendered (that code is fuzzed too)
 * into /dev/null.  */
/* One question in a fresh evaluation context (eval.h); only the kind is
 * used by the fuzzers.  */
static inline sb_decision_kind fuzz_decide(const sb_profile *p, sb_op op, const char *path, unsigned vnode)
{
	sb_eval *ev = sb_eval_new(p, 0);
	sb_decision_kind k = sb_eval_decide(ev, op, path, vnode).kind;
	sb_eval_free(ev);
	return k;
}

static FILE *fuzz_devnull(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

/* NUL-terminated copy of the fuzzer's bytes.  */
static char *fuzz_text(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);
	if (!t)
		abort();
	memcpy(t, data, size);
	t[size] = '\0';
	return t;
}

/* What sbrun would bind at launch for a user "u".  */
static void fuzz_bindings(sb_bindings *b)
{
	static const char *const extra_read[] = {"/home/u/r", "/home/u/a b/\"q\""};
	static const char *const extra_write[] = {"/home/u/wx"};
	sb_bindings_set(b, "HOME", "/home/u");
	sb_bindings_set(b, "WORKSPACE", "/home/u/src/w");
	sb_bindings_set(b, "TMPDIR", "/private/tmp/t");
	sb_bindings_set_list(b, "EXTRA_READ", extra_read, 2);
	sb_bindings_set_list(b, "EXTRA_WRITE", extra_write, 1);
}

/* ---- probe set ---- */
typedef struct fuzz_probes {
	char **v;
	size_t n, cap;
} fuzz_probes;

static void fuzz_probe_add(fuzz_probes *ps, const char *p)
{
	if (!p || p[0] != '/' || ps->n >= 512)
		return;
	for (size_t i = 0; i < ps->n; i++)
		if (strcmp(ps->v[i], p) == 0)
			return;
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 64;
		ps->v = realloc(ps->v, ps->cap * sizeof *ps->v);
		if (!ps->v)
			abort();
	}
	ps->v[ps->n] = strdup(p);
	if (!ps->v[ps->n])
		abort();
	ps->n++;
}

/* A path, its parent, a child, a sibling sharing its name as a prefix and
 * the same with a trailing slash: the boundaries where rules differ.  */
static void fuzz_probe_around(fuzz_probes *ps, const char *p)
{
	size_t n = strlen(p);
	if (n == 0 || n > 1024 || p[0] != '/')
		return;
	char *buf = malloc(n + 8);
	if (!buf)
		abort();
	fuzz_probe_add(ps, p);
	snprintf(buf, n + 8, "%s/x", p);
	fuzz_probe_add(ps, buf);
	snprintf(buf, n + 8, "%sx", p);
	fuzz_probe_add(ps, buf);
	snprintf(buf, n + 8, "%s/", p);
	fuzz_probe_add(ps, buf);
	memcpy(buf, p, n + 1);
	char *slash = strrchr(buf, '/');
	if (slash && slash != buf)
		*slash = '\0';
	else
		buf[1] = '\0';
	fuzz_probe_add(ps, buf);
	free(buf);
}

static void fuzz_probe_filter(fuzz_probes *ps, const sb_filter *f)
{
	if (!f)
		return;
	if (f->arg) {
		char *v = sb_str_value(f->arg);
		if (v)
			fuzz_probe_around(ps, v);
		free(v);
	}
	for (size_t i = 0; i < f->nkids; i++)
		fuzz_probe_filter(ps, f->kids[i]);
}

static void fuzz_probes_from(fuzz_probes *ps, const sb_profile *p)
{
	static const char *const fixed[] = {
		"/", "/home", "/home/u", "/home/u/.ssh/id_rsa", "/home/u/.aws/credentials",
		"/home/u/.omp", "/home/u/.omp/agent/x", "/home/u/src", "/home/u/src/w",
		"/home/u/src/w/f", "/home/u/r/f", "/home/u/wx/f", "/home/u/notes.txt",
		"/tmp/x", "/private/tmp/x", "/private/tmp/t/y", "/etc/passwd",
		"/private/etc/hosts", "/usr/bin/ls", "/dev/null", "/var/folders/a",
	};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		fuzz_probe_add(ps, fixed[i]);
	if (!p)
		return;
	for (size_t r = 0; r < p->nrules; r++)
		for (size_t f = 0; f < p->rules[r]->nfilters; f++)
			fuzz_probe_filter(ps, p->rules[r]->filters[f]);
}

static void fuzz_probes_free(fuzz_probes *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->v[i]);
	free(ps->v);
	ps->v = NULL;
	ps->n = ps->cap = 0;
}

/* The operations probed: every file operation, exec and the network roots.  */
static const sb_op fuzz_ops[] = {
	SB_OP_FILE_READ_DATA, SB_OP_FILE_READ_METADATA, SB_OP_FILE_READ_XATTR,
	SB_OP_FILE_WRITE_DATA, SB_OP_FILE_WRITE_CREATE, SB_OP_FILE_WRITE_UNLINK,
	SB_OP_FILE_WRITE_MODE, SB_OP_FILE_IOCTL, SB_OP_FILE_MKNOD, SB_OP_FILE_LINK,
	SB_OP_PROCESS_EXEC, SB_OP_NETWORK_OUTBOUND,
};
#define FUZZ_NOPS (sizeof fuzz_ops / sizeof fuzz_ops[0])

#endif
