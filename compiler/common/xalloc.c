/* xalloc.c - allocation that never returns NULL (xalloc.h).  */
#include "compiler/common/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#ifndef __APPLE__
#include <errno.h>   /* program_invocation_short_name (GNU) */
#endif

static const char *program_name(void)
{
#ifdef __APPLE__
	return getprogname();
#else
	return program_invocation_short_name;
#endif
}

_Noreturn void sb_out_of_memory(void)
{
	/* fputs allocates nothing on an unbuffered stderr.  */
	fputs(program_name(), stderr);
	fputs(": fatal: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		sb_out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		sb_out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		sb_out_of_memory();
	return q;
}

void sb_strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

bool sb_strv_has(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

void sb_strv_push_unique(char ***v, size_t *n, const char *s)
{
	if (sb_strv_has(*v, *n, s))
		return;
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

void *sb_grow(void *v, size_t n, size_t *cap, size_t size, size_t first)
{
	if (n < *cap)
		return v;
	size_t c = *cap ? *cap : (first ? first : 1);
	while (c <= n) {
		if (c > SIZE_MAX / 2)
			sb_out_of_memory();
		c *= 2;
	}
	if (size && c > SIZE_MAX / size)
		sb_out_of_memory();
	v = xrealloc(v, c * size);
	*cap = c;
	return v;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		sb_out_of_memory();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s ? s : "", n);
	if (!p)
		sb_out_of_memory();
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		sb_out_of_memory();
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void sb_hint_huge(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	const uintptr_t huge = (uintptr_t)2 << 20;
	if (!p || n < 2 * huge)
		return;
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(huge - 1);
	if (e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);   /* a hint: failure is fine */
#else
	(void)p;
	(void)n;
#endif
}

FILE *xopen_memstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	if (!f)
		sb_out_of_memory();
	return f;
}
