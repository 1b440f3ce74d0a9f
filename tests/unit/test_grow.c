/* Unit tests for sb_grow / SB_GROW (compiler/common/xalloc.h), the one
 * growable array.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>

#include "compiler/common/xalloc.h"

Test(grow, first_size_then_doubling_contents_kept)
{
	int *v = NULL;
	size_t n = 0, cap = 0;
	size_t caps[100];
	for (int i = 0; i < 100; i++) {
		SB_GROW(v, n, cap, 4);
		v[n++] = i * 3;
		caps[i] = cap;
	}
	cr_assert(eq(sz, caps[0], 4));    /* the first size */
	cr_assert(eq(sz, caps[3], 4));
	cr_assert(eq(sz, caps[4], 8));    /* doubled when full */
	cr_assert(eq(sz, caps[8], 16));
	cr_assert(eq(sz, caps[99], 128));
	for (int i = 0; i < 100; i++)
		cr_assert(eq(int, v[i], i * 3));
	free(v);
}

Test(grow, room_is_left_alone_and_a_far_index_is_reached)
{
	long *v = NULL;
	size_t cap = 0;
	SB_GROW(v, 0, cap, 8);
	long *before = v;
	SB_GROW(v, 7, cap, 8);            /* index 7 fits: nothing moves */
	cr_assert(v == before);
	cr_assert(eq(sz, cap, 8));
	SB_GROW(v, 100, cap, 8);          /* room for index 100 at once */
	cr_assert(gt(sz, cap, 100));
	cr_assert(eq(sz, cap, 128));
	v[100] = 1;
	free(v);
}

Test(grow, overflow_is_out_of_memory, .signal = SIGABRT)
{
	char *v = NULL;
	size_t cap = 0;
	SB_GROW(v, SIZE_MAX - 1, cap, 8);   /* no size_t holds the doubled count */
}
