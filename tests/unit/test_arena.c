/* Unit tests for the compiler's arena storage: the arena's growing blocks
 * (compiler/common/arena.c), a profile built in one arena
 * (sb_profile_new_arena, compiler/ir/ir.c), the strmap that the lowering
 * reuses (sb_strmap_clear) and the lowering's shared param strings.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/arena.h"
#include "compiler/common/strmap.h"
#include "compiler/sbpl/emit_sbpl.h"
#include "frontend_util.h"

Test(arena, blocks_grow_and_huge_blocks_are_aligned)
{
	sb_arena a = { .min_block = 4096, .max_block = 4u << 20 };
	unsigned char *prev = NULL;
	size_t total = 0;
	/* 12 MiB in 1000-byte pieces: zeroed, distinct, 8-byte aligned */
	for (int i = 0; i < 12 * 1024; i++) {
		unsigned char *p = sb_arena_alloc(&a, 1000);
		cr_assert(eq(sz, (uintptr_t)p % 8, 0));
		for (int k = 0; k < 1000; k++)
			cr_assert(eq(u8, p[k], 0));
		memset(p, 0xab, 1000);
		cr_assert(ne(ptr, p, prev));
		prev = p;
		total += 1000;
	}
	cr_assert(ge(sz, a.used, total));
	/* the last blocks reached the 4 MiB cap; such blocks are 2 MiB-aligned */
	cr_assert(eq(sz, a.next_block, (size_t)4 << 20));
	unsigned char *big = sb_arena_alloc(&a, 3u << 20);   /* larger than what is left */
	memset(big, 1, 3u << 20);
	char *s = sb_arena_strdup(&a, "abc");
	cr_assert(eq(str, s, "abc"));
	cr_assert(eq(str, sb_arena_strdup(&a, NULL), ""));
	/* strings are packed; the object after one is aligned again */
	char *s2 = sb_arena_strdup(&a, "de");
	cr_assert(eq(ptr, s2, s + 4 + 1));
	void **after = sb_arena_alloc(&a, sizeof *after);
	cr_assert(eq(sz, (uintptr_t)after % 8, 0));
	cr_assert(eq(ptr, *after, NULL));
	sb_arena_clear(&a);
	cr_assert(eq(ptr, a.head, NULL));
	cr_assert(eq(sz, a.used, 0));
	/* reusable after a clear, from the first block size again */
	cr_assert(eq(str, sb_arena_strndup(&a, "xyz", 2), "xy"));
	sb_arena_clear(&a);
}

Test(strmap, clear_empties_and_map_is_reusable)
{
	sb_strmap *m = sb_strmap_new();
	char key[32];
	for (int round = 0; round < 3; round++) {
		int n = round == 1 ? 1000 : 10;   /* a large round, then small again */
		for (int i = 0; i < n; i++) {
			snprintf(key, sizeof key, "k%d-%d", round, i);
			*sb_strmap_slot(m, key, strlen(key), true) = (void *)(intptr_t)(i + 1);
		}
		for (int i = 0; i < n; i++) {
			snprintf(key, sizeof key, "k%d-%d", round, i);
			void **v = sb_strmap_slot(m, key, strlen(key), false);
			cr_assert(not(eq(ptr, v, NULL)));
			cr_assert(eq(ptr, *v, (void *)(intptr_t)(i + 1)));
		}
		sb_strmap_clear(m);
		snprintf(key, sizeof key, "k%d-0", round);
		cr_assert(eq(ptr, sb_strmap_slot(m, key, strlen(key), false), NULL));
	}
	sb_strmap_free(m);
}

Test(ir, arena_profile_owns_its_nodes)
{
	sb_profile *p = sb_profile_new_arena();
	sb_loc loc = { 0 };
	sb_rule *r = sb_rule_new_in(p, SB_ALLOW, loc);
	for (int i = 0; i < 5; i++)   /* growth inside the arena */
		sb_rule_add_op(r, i ? SB_OP_FILE_READ_DATA : SB_OP_FILE_READ, NULL);
	sb_rule_add_op(r, SB_OP_OTHER, "mach-lookup");
	sb_param home = sb_param_single("HOME");
	sb_str *parts[2] = { sb_str_param_in(p, &home), sb_str_lit_in(p, "/a") };
	sb_rule_add_filter(r, sb_filter_path_in(p, SB_F_SUBPATH, sb_str_append_in(p, parts, 2), loc));
	/* a heap filter given to an arena rule is copied in (and the copy freed) */
	sb_rule_add_filter(r, sb_filter_path(SB_F_LITERAL, sb_str_lit("/b"), loc));
	sb_rule_add_modifier(r, "(with report)");
	sb_profile_add_rule(p, r);
	/* a heap rule in an arena profile is still freed with it */
	sb_rule *h = sb_rule_new(SB_DENY, loc);
	sb_rule_add_op(h, SB_OP_FILE_WRITE, NULL);
	sb_profile_add_rule(p, h);
	cr_assert(eq(ptr, r->arena, p->arena));
	cr_assert(r->filters[1]->in_arena);
	cr_assert(r->filters[1]->arg->in_arena);
	cr_assert(eq(sz, r->nops, 6));
	cr_assert(eq(str, r->op_names[5], "mach-lookup"));
	cr_assert(eq(ptr, r->op_names[0], NULL));
	sb_rule_free(r);   /* an arena rule: nothing happens */
	char *text = sb_emit_sbpl(p, NULL, NULL);
	cr_assert(not(eq(ptr, strstr(text, "mach-lookup (with report)\n"
					   "    (subpath (string-append (param \"HOME\") \"/a\"))\n"
					   "    (literal \"/b\")\n)\n(deny file-write*)"),
			 NULL)), "%s", text);
	/* a clone is on the heap and outlives the arena */
	sb_profile *c = sb_profile_clone(p);
	sb_param_clear(&home);
	sb_profile_free(p);
	cr_assert(eq(ptr, c->arena, NULL));
	cr_assert(eq(ptr, c->rules[0]->arena, NULL));
	cr_assert(not(c->rules[0]->filters[0]->in_arena));
	char *again = sb_emit_sbpl(c, NULL, NULL);
	cr_assert(eq(str, again, text));
	free(again);
	free(text);
	sb_profile_free(c);
}

Test(lower, filters_on_one_param_share_its_string)
{
	fe_run r = fe_compile("default allow;\n"
			      "deny read ~/a ~/b workspace/c;\n"
			      "allow read ~/a/x;\n");
	cr_assert(not(eq(ptr, r.prof, NULL)), "%s", r.diag);
	cr_assert(not(eq(ptr, r.prof->arena, NULL)));
	const sb_rule *deny = r.prof->rules[1];
	cr_assert(eq(sz, deny->nfilters, 3));
	const sb_str *a = deny->filters[0]->arg, *b = deny->filters[1]->arg, *w = deny->filters[2]->arg;
	cr_assert(eq(int, a->kind, SB_STR_APPEND));
	cr_assert(eq(ptr, a->parts[0], b->parts[0]), "one (param \"HOME\") node for both");
	cr_assert(not(eq(ptr, a->parts[0], w->parts[0])), "WORKSPACE is another param");
	cr_assert(eq(str, w->parts[0]->param.name, "WORKSPACE"));
	cr_assert(not(eq(ptr, strstr(r.text, "(subpath (string-append (param \"HOME\") \"/b\"))"), NULL)),
		  "%s", r.text);
	fe_done(&r);
}

/* sb_arena_rewind keeps the newest block, empty, and frees the others: a
 * streamed compile reuses one scratch block per rule (lower.c).  */
Test(arena, rewind_keeps_one_block)
{
	sb_arena a = { .min_block = 4096 };
	char *first = sb_arena_alloc(&a, 100);
	for (int i = 0; i < 200; i++)
		sb_arena_alloc(&a, 100);   /* past the first block */
	char *last = sb_arena_alloc(&a, 8);
	sb_arena_rewind(&a);
	cr_assert(eq(sz, a.used, 0));
	char *again = sb_arena_alloc(&a, 8);
	cr_assert(not(eq(ptr, again, first)), "the first block was freed, not reused");
	cr_assert(le(ptr, (void *)again, (void *)last), "the newest block is reused from its start");
	cr_assert(eq(int, again[0] | again[7], 0), "zeroed as ever");
	sb_arena_rewind(&a);
	sb_arena_rewind(&a);   /* twice: still one empty block */
	sb_arena_clear(&a);
	sb_arena_rewind(&a);   /* empty: nothing to keep */
	cr_assert(eq(ptr, a.head, NULL));
}
