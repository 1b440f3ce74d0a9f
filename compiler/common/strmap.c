/* strmap.c - open-addressing hash map, word-at-a-time hash, linear probing
 * (strmap.h).  */
#include "compiler/common/strmap.h"
#include "compiler/common/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	char *key;      /* NULL: empty */
	size_t len;
	uint64_t hash;
	void *value;
} slot;

/* Keys live in chunks freed together: maps get many small keys.  The
 * first chunk is small and each next one twice the last (up to 64 KiB):
 * the lowering makes a map per re-allowed rule, for a few keys.  */
typedef struct chunk {
	struct chunk *next;
	size_t used, cap;
	char data[];
} chunk;

struct sb_strmap {
	slot *v;
	size_t cap;     /* a power of two */
	size_t n;
	chunk *keys;
};

static char *key_copy(sb_strmap *m, const void *key, size_t len)
{
	chunk *c = m->keys;
	if (!c || c->cap - c->used < len + 1) {
		size_t cap = c ? (c->cap < 65536 / 2 ? 2 * c->cap : 65536) : 256;
		if (cap < len + 1)
			cap = len + 1;
		c = xmalloc(sizeof *c + cap);
		c->next = m->keys;
		c->used = 0;
		c->cap = cap;
		m->keys = c;
	}
	char *k = c->data + c->used;
	memcpy(k, key, len);
	k[len] = '\0';
	c->used += len + 1;
	return k;
}

/* Eight bytes a step (unaligned loads through memcpy), each word mixed by
 * a multiply and a rotate; the tail is padded with zeros and the length
 * mixed in, so keys that differ only in trailing NULs differ.  Keys of
 * large policies are long paths: a byte-wise hash was a tenth of a
 * compile.  */
static uint64_t mix(uint64_t h, uint64_t w)
{
	h ^= w * 0x9e3779b97f4a7c15ull;
	h = (h << 27) | (h >> 37);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t hash_of(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = 0xcbf29ce484222325ull ^ len;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = mix(h, w);
	}
	if (i < len) {
		uint64_t w = 0;
		memcpy(&w, p + i, len - i);
		h = mix(h, w);
	}
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

sb_strmap *sb_strmap_new(void)
{
	sb_strmap *m = xcalloc(1, sizeof *m);
	m->cap = 16;
	m->v = xcalloc(m->cap, sizeof *m->v);
	return m;
}

void sb_strmap_free(sb_strmap *m)
{
	if (!m)
		return;
	while (m->keys) {
		chunk *next = m->keys->next;
		free(m->keys);
		m->keys = next;
	}
	free(m->v);
	free(m);
}

void sb_strmap_clear(sb_strmap *m)
{
	/* the oldest chunk is the smallest: keep it, free the others */
	while (m->keys && m->keys->next) {
		chunk *next = m->keys->next;
		free(m->keys);
		m->keys = next;
	}
	if (m->keys)
		m->keys->used = 0;
	if (m->cap > 64) {
		free(m->v);
		m->cap = 16;
		m->v = xcalloc(m->cap, sizeof *m->v);
	} else {
		memset(m->v, 0, m->cap * sizeof *m->v);
	}
	m->n = 0;
}

static slot *find(slot *v, size_t cap, const void *key, size_t len, uint64_t h)
{
	for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1)) {
		if (!v[i].key || (v[i].hash == h && v[i].len == len && memcmp(v[i].key, key, len) == 0))
			return &v[i];
	}
}

static void grow(sb_strmap *m)
{
	size_t cap = m->cap * 2;
	slot *v = xcalloc(cap, sizeof *v);
	sb_hint_huge(v, cap * sizeof *v);   /* the indexes of large policies: MBs */
	for (size_t i = 0; i < m->cap; i++)
		if (m->v[i].key)
			*find(v, cap, m->v[i].key, m->v[i].len, m->v[i].hash) = m->v[i];
	free(m->v);
	m->v = v;
	m->cap = cap;
}

void **sb_strmap_slot(sb_strmap *m, const void *key, size_t len, bool create)
{
	uint64_t h = hash_of(key, len);
	slot *s = find(m->v, m->cap, key, len, h);
	if (s->key)
		return &s->value;
	if (!create)
		return NULL;
	if ((m->n + 1) * 4 > m->cap * 3) {
		grow(m);
		s = find(m->v, m->cap, key, len, h);
	}
	s->key = key_copy(m, key, len);
	s->len = len;
	s->hash = h;
	s->value = NULL;
	m->n++;
	return &s->value;
}

void sb_strmap_each(sb_strmap *m, void (*fn)(void *value))
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->v[i].key)
			fn(m->v[i].value);
}
