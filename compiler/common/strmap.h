/* strmap.h - a hash map from byte strings to a pointer-sized value, for the
 * indexes that keep the checks, the lowering and the evaluator near-linear.
 * Keys are copied; values are not owned (the caller frees what they point
 * to).  Iteration order is unspecified: never let it reach the output.  */
#ifndef SB_STRMAP_H
#define SB_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sb_strmap sb_strmap;

sb_strmap *sb_strmap_new(void);
void sb_strmap_free(sb_strmap *m);
/* Remove every key, keeping a small map's storage for the next use (the
 * lowering fills a map per re-allowed rule).  */
void sb_strmap_clear(sb_strmap *m);
/* The value slot of key (len bytes), or NULL when absent and !create; a
 * created slot holds NULL.  Slots move when the map grows: use a slot
 * before the next call with create.  */
void **sb_strmap_slot(sb_strmap *m, const void *key, size_t len, bool create);
/* Call fn on every value (to free them).  */
void sb_strmap_each(sb_strmap *m, void (*fn)(void *value));

#endif
