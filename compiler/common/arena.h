/* arena.h - many small objects freed at once (a bump allocator): the SBPL
 * reader's nodes (compiler/sbpl/sexp.c), the Scheme evaluator's values
 * (compiler/sbpl/sbpl_scheme.c), the compiler's profile IR
 * (sb_profile_new_arena, compiler/ir/ir.h) and its parsed policy
 * (compiler/front/ast.h).  Storage the caller owns: zero it (set
 * `min_block` for larger blocks, `max_block` for blocks that grow),
 * allocate, release with sb_arena_clear.  */
#ifndef SB_COMMON_ARENA_H
#define SB_COMMON_ARENA_H

#include <stddef.h>

typedef struct sb_arena_block sb_arena_block;

typedef struct sb_arena {
	sb_arena_block *head;
	size_t min_block;   /* bytes of the first block; 0: 16 KiB */
	/* 0: every block is min_block.  Otherwise each new block doubles the
	 * last one, up to max_block: a small input stays in one small block,
	 * a large one takes few blocks.  Blocks of 2 MiB or more are aligned
	 * to 2 MiB and offered transparent huge pages where the system has
	 * them (one page fault per 2 MiB instead of 512).  */
	size_t max_block;
	size_t next_block;  /* internal: the size of the next block */
	size_t used;        /* bytes handed out, for statistics */
} sb_arena;

/* Zeroed, aligned to 8 bytes (any type but long double and other
 * over-aligned ones, arena.c); aborts when out of memory, as xmalloc.  */
void *sb_arena_alloc(sb_arena *a, size_t n);
/* A NUL-terminated copy of the n bytes at s, not aligned.  */
char *sb_arena_strndup(sb_arena *a, const char *s, size_t n);
/* A copy of the string s (NULL copies as "", as xstrdup).  */
char *sb_arena_strdup(sb_arena *a, const char *s);
/* Free every block; the arena is empty (and reusable) afterwards.  */
void sb_arena_clear(sb_arena *a);
/* Empty the arena but keep its newest block for what comes next: scratch
 * storage reused many times (a streamed compile's rules, one statement at
 * a time: compiler/lower/lower.c) without a malloc and free each time.  */
void sb_arena_rewind(sb_arena *a);

#endif
