#include "compiler/common/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include "compiler/common/xalloc.h"

struct sb_arena_block {
	sb_arena_block *next;
	size_t used, cap;
	max_align_t data[];
};

enum { HUGE_PAGE = 2u << 20 };

/* A block of `total` bytes (header included).  A huge one is 2 MiB-aligned
 * so that the kernel can back it with huge pages; MADV_HUGEPAGE asks for
 * them where transparent huge pages are enabled "madvise" (the default of
 * most distributions); elsewhere the call fails harmlessly.  */
static sb_arena_block *block_new(size_t total)
{
	if (total < HUGE_PAGE)
		return xmalloc(total);
	void *p = aligned_alloc(HUGE_PAGE, total);
	if (!p)
		sb_out_of_memory();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	(void)madvise(p, total, MADV_HUGEPAGE);
#endif
	return p;
}

/* Objects are aligned to 8 bytes, not to max_align_t (16 here): what the
 * arenas hold (arena.h) has pointers, size_t and double at most, and the
 * compile of a large policy makes over a million allocations, whose
 * rounding to 16 cost 17 MB at 100k statements (bench/analysis.md).
 * Strings take no alignment at all.  */
enum { OBJ_ALIGN = 8 };
_Static_assert(_Alignof(void *) <= OBJ_ALIGN && _Alignof(size_t) <= OBJ_ALIGN &&
		       _Alignof(double) <= OBJ_ALIGN && _Alignof(long long) <= OBJ_ALIGN,
	       "arena objects need more than 8-byte alignment");

/* n bytes at an offset that is a multiple of `align` (a power of two, at
 * most max_align_t's, which block data has).  */
static void *bump(sb_arena *a, size_t n, size_t align)
{
	sb_arena_block *b = a->head;
	size_t at = b ? (b->used + align - 1) & ~(align - 1) : 0;
	if (!b || at > b->cap || n > b->cap - at) {
		size_t want = a->min_block ? a->min_block : 16384;
		if (a->max_block) {
			if (a->next_block < want)
				a->next_block = want;
			want = a->next_block;
			if (a->next_block < a->max_block)
				a->next_block *= 2;
		}
		/* the header counts in the block: a 2 MiB block is 2 MiB */
		size_t total = sizeof *b + n;
		if (total < want)
			total = want;
		if (total >= HUGE_PAGE)
			total = (total + HUGE_PAGE - 1) & ~((size_t)HUGE_PAGE - 1);
		b = block_new(total);
		b->cap = total - sizeof *b;
		b->used = 0;
		b->next = a->head;
		a->head = b;
		at = 0;
	}
	void *p = (unsigned char *)b->data + at;
	b->used = at + n;
	a->used += n;
	return p;
}

void *sb_arena_alloc(sb_arena *a, size_t n)
{
	void *p = bump(a, n, OBJ_ALIGN);
	memset(p, 0, n);
	return p;
}

char *sb_arena_strndup(sb_arena *a, const char *s, size_t n)
{
	char *p = bump(a, n + 1, 1);   /* written whole: no zeroing */
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *sb_arena_strdup(sb_arena *a, const char *s)
{
	return s ? sb_arena_strndup(a, s, strlen(s)) : sb_arena_strndup(a, "", 0);
}

static void free_blocks(sb_arena_block *b)
{
	for (sb_arena_block *next; b; b = next) {
		next = b->next;
		free(b);
	}
}

void sb_arena_clear(sb_arena *a)
{
	free_blocks(a->head);
	a->head = NULL;
	a->next_block = 0;
	a->used = 0;
}

void sb_arena_rewind(sb_arena *a)
{
	sb_arena_block *keep = a->head;
	if (!keep)
		return;
	free_blocks(keep->next);
	keep->next = NULL;
	keep->used = 0;
	a->used = 0;
}
