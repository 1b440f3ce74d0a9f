/* arena.h - many small objects freed at once (a bump allocator): the SBPL
 * reader's nodes (compiler/sbpl/sexp.c) and the Scheme evaluator's values
 * (compiler/sbpl/sbpl_scheme.c).  Storage the caller owns: zero it (set
 * `min_block` for larger blocks), allocate, release with sb_arena_clear.  */
#ifndef SB_COMMON_ARENA_H
#define SB_COMMON_ARENA_H

#include <stddef.h>

typedef struct sb_arena_block sb_arena_block;

typedef struct sb_arena {
	sb_arena_block *head;
	size_t min_block;   /* bytes per block; 0: 16 KiB */
} sb_arena;

/* Zeroed, aligned for any type; aborts when out of memory, as xmalloc.  */
void *sb_arena_alloc(sb_arena *a, size_t n);
/* A NUL-terminated copy of the n bytes at s.  */
char *sb_arena_strndup(sb_arena *a, const char *s, size_t n);
/* Free every block; the arena is empty (and reusable) afterwards.  */
void sb_arena_clear(sb_arena *a);

#endif
