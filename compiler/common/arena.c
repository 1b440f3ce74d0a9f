#include "compiler/common/arena.h"

#include <stdlib.h>
#include <string.h>
#include "compiler/common/xalloc.h"

struct sb_arena_block {
	sb_arena_block *next;
	size_t used, cap;
	max_align_t data[];
};

void *sb_arena_alloc(sb_arena *a, size_t n)
{
	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	sb_arena_block *b = a->head;
	if (!b || b->used + n > b->cap) {
		size_t want = a->min_block ? a->min_block : 16384;
		size_t cap = n > want ? n : want;
		b = xmalloc(sizeof *b + cap);
		b->cap = cap;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	void *p = (unsigned char *)b->data + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

char *sb_arena_strndup(sb_arena *a, const char *s, size_t n)
{
	char *p = sb_arena_alloc(a, n + 1);
	memcpy(p, s, n);
	return p;
}

void sb_arena_clear(sb_arena *a)
{
	for (sb_arena_block *b = a->head, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
}
