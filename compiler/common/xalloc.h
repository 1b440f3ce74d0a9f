/* xalloc.h - the one allocation policy of omp-sandbox.
 *
 * Out of memory is not an error a caller can handle usefully (the tools hold
 * a policy, a profile and a few paths): every allocation in the compiler and
 * the runtime goes through these functions, and when the system refuses one
 * they print one message, "PROGRAM: fatal: out of memory", to stderr and
 * abort().  No library function chooses an exit status for it and no caller
 * checks for NULL.  (docs/architecture.md, "Errors and ownership".)  */
#ifndef SB_XALLOC_H
#define SB_XALLOC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

_Noreturn void sb_out_of_memory(void);

/* As malloc/calloc/realloc, never NULL; a size of 0 allocates 1 byte.  */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* A copy of `s`; NULL copies as "".  */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* The one growable array: make room for element `n` of an array of
 * `size`-byte elements with *cap allocated.  When n has reached *cap the
 * array doubles (to `first` elements at first, or more if n needs it) and
 * *cap says so.  Returns the array, moved or not.  Use SB_GROW:
 *     SB_GROW(s->v, s->n, s->cap, 16);
 *     s->v[s->n++] = x;  */
void *sb_grow(void *v, size_t n, size_t *cap, size_t size, size_t first);
/* The test for room is inline: a push that fits costs one comparison.  */
#define SB_GROW(v, n, cap, first) \
	((void)((n) < (cap) || ((v) = sb_grow((v), (n), &(cap), sizeof *(v), (first)), 0)))
/* Free the n strings of v, then v (either may be NULL when n is 0).  */
void sb_strv_free(char **v, size_t n);
/* Is s one of the n strings of v?  */
bool sb_strv_has(char *const *v, size_t n, const char *s);
/* Append a copy of s to *v unless it is there already (linear: short lists).  */
void sb_strv_push_unique(char ***v, size_t *n, const char *s);
/* A hint for a large buffer that will be filled densely (n bytes at p): ask
 * for transparent huge pages on its 2 MiB-aligned part, so that filling it
 * takes one page fault per 2 MiB instead of 512 (the compile of a large
 * policy spent a fifth of its time in page faults).  Nothing below 4 MiB,
 * nothing where the system has no such pages.  Not for a buffer that
 * grows by realloc while filled at its end (the emitter's text): there it
 * cost 14 MB of peak RSS at 10^5 statements (bench/analysis.md).  Changes
 * no contents.  */
void sb_hint_huge(void *p, size_t n);
/* An in-memory stream (open_memstream); close it before reading *buf.  */
FILE *xopen_memstream(char **buf, size_t *len);

#endif
