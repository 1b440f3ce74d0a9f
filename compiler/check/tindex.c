/* tindex.c - the place index of the check passes (tindex.h).  */
#include "compiler/check/tindex.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/arena.h"
#include "compiler/common/xalloc.h"

/* 8 bytes: an index of a large policy holds about five per place.  */
typedef struct {
	uint32_t k;             /* statement number (sbx_tindex_new checks the range) */
	unsigned char action;   /* sb_action */
	unsigned char atoms;    /* SBX_ATOM_* of the rule */
} entry;

/* Entries in statement order (a rule with several places may repeat).
 * Sized exactly before they are filled (sbx_tindex_new): `cap` first
 * counts what will be pushed.  */
struct sbx_tlist {
	entry *v;
	uint32_t n, cap;
};
typedef struct sbx_tlist tlist;

/* One normalised path of one domain.  */
typedef struct tnode {
	struct tnode *parent;   /* NULL for a domain's root */
	tlist sub;     /* subtree places naming this path */
	tlist exact;   /* `exactly` places naming this path */
	tlist below;   /* places strictly below this path */
	const char *key;        /* domain NUL path (node_key), in the index's arena */
	uint32_t len;           /* of key */
} tnode;

/* Nodes are allocated in blocks, freed together.  */
typedef struct nblock {
	struct nblock *next;
	size_t used;
	tnode v[256];
} nblock;

struct sbx_tindex {
	sb_arena mem;       /* the lists' arrays and the keys: freed at once with the index */
	/* The nodes by key, open addressing: a slot is the node and 32 bits
	 * of its key's hash, in two arrays (a probe reads no node unless the
	 * hash matches); the key is in the node (a strmap's 32-byte slots and
	 * copied keys were 12 MB at 100k statements, in the compile's peak).  */
	tnode **table;
	uint32_t *thash;
	size_t tcap, tn;    /* tcap: 0 or a power of two */
	nblock *blocks;
	bool with_below;
	tlist any;          /* unfiltered rules */
	tlist nonlist;      /* rules with a place that is not a list */
	const tnode *abs_root;
	/* The node of each indexed place, by its position in the places'
	 * array (NULL for a list or ANY): the passes query with their own
	 * places, over a dozen times per rule, and building and hashing the
	 * key each time was a tenth of a compile (bench/analysis.md).  */
	const sbx_place *all;
	size_t nall;
	tnode **node_of;
	/* While the index is built: the hash of each place's node key, made
	 * first so that the table slot of a place some way ahead can be asked
	 * for (each new node's slot is a cache miss on a large policy).  */
	uint32_t *place_hash;
};

/* How many places ahead sbx_tindex_new asks for a slot.  */
enum { NODE_AHEAD = 16 };

/* Count one entry to come (the first pass), or add it (the second, into
 * the array sized by the count).  */
static void push(tlist *l, size_t k, const sbx_stmt *s, bool counting)
{
	if (counting) {
		l->cap++;   /* a repeat of the last statement is counted: room to spare */
		return;
	}
	if (l->n && l->v[l->n - 1].k == k)
		return;
	if (l->n == l->cap)
		abort();   /* the count pass and this one disagree */
	l->v[l->n++] = (entry){(uint32_t)k, (unsigned char)s->action,
			       (unsigned char)sbx_atoms(s->access)};
}

static void list_alloc(sbx_tindex *ix, tlist *l)
{
	l->v = l->cap ? sb_arena_alloc(&ix->mem, l->cap * sizeof *l->v) : NULL;
}

/* "domain" NUL "c1/c2/..." with empty and "." components dropped, as
 * sbx_path_relation compares them.  *full is the key length, *base the
 * offset of the path part.  In `buf` (bufsz bytes) when it fits, else
 * allocated: free it when it is not buf.  */
static char *node_key(const sbx_place *pl, size_t *full, size_t *base, char *buf, size_t bufsz)
{
	const char *root = pl->kind == SBX_PLACE_ROOT ? pl->root : "";
	size_t rn = strlen(root), pn = strlen(pl->path);
	char *k = rn + pn + 3 <= bufsz ? buf : xmalloc(rn + pn + 3);
	k[0] = pl->kind == SBX_PLACE_ROOT ? 'R' : 'A';
	memcpy(k + 1, root, rn);
	k[rn + 1] = '\0';
	size_t n = rn + 2;
	*base = n;
	for (const char *p = pl->path; *p;) {
		while (*p == '/')
			p++;
		const char *c = p;
		while (*p && *p != '/')
			p++;
		size_t cn = (size_t)(p - c);
		if (cn == 0 || (cn == 1 && c[0] == '.'))
			continue;
		if (n > *base)
			k[n++] = '/';
		memcpy(k + n, c, cn);
		n += cn;
	}
	*full = n;
	return k;
}

static tnode *node_new(sbx_tindex *ix)
{
	if (!ix->blocks || ix->blocks->used == sizeof ix->blocks->v / sizeof *ix->blocks->v) {
		nblock *b = xcalloc(1, sizeof *b);
		b->next = ix->blocks;
		ix->blocks = b;
	}
	return &ix->blocks->v[ix->blocks->used++];
}

/* 64 bits of a key, eight bytes a step, each word multiplied in and the
 * result finished as MurmurHash3's fmix64 does, so that keys differing in
 * their last bytes (paths counting up) differ in the low bits the tables
 * index by.  */
static uint64_t key_hash(const char *k, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len;
	for (size_t i = 0; i < len; i += 8) {
		uint64_t w = 0;
		memcpy(&w, k + i, len - i < 8 ? len - i : 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h = (h << 31) | (h >> 33);
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

static uint32_t node_hash(const char *k, size_t len)
{
	return (uint32_t)key_hash(k, len);
}

/* The slot of key: its node's, or the empty one where it would go.  */
static size_t table_slot(tnode *const *table, const uint32_t *thash, size_t cap, const char *key,
			 size_t len, uint32_t h)
{
	for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1)) {
		const tnode *n = table[i];
		if (!n || (thash[i] == h && n->len == len && !memcmp(n->key, key, len)))
			return i;
	}
}

static tnode *node_find(const sbx_tindex *ix, const char *key, size_t len)
{
	return ix->tcap ? ix->table[table_slot(ix->table, ix->thash, ix->tcap, key, len,
					       node_hash(key, len))]
			: NULL;
}

/* The node of key[0..len), created with its ancestors (the path part
 * starts at `base`).  */
static tnode *node_make_hashed(sbx_tindex *ix, const char *key, size_t len, size_t base,
			       uint32_t h);

static tnode *node_make(sbx_tindex *ix, const char *key, size_t len, size_t base)
{
	return node_make_hashed(ix, key, len, base, node_hash(key, len));
}

/* node_make with the key's hash known.  */
static tnode *node_make_hashed(sbx_tindex *ix, const char *key, size_t len, size_t base,
			       uint32_t h)
{
	size_t at = ix->tcap ? table_slot(ix->table, ix->thash, ix->tcap, key, len, h) : 0;
	if (ix->tcap && ix->table[at])
		return ix->table[at];
	if ((ix->tn + 1) * 4 > ix->tcap * 3) {   /* at most 3/4 full */
		size_t cap = ix->tcap ? 2 * ix->tcap : 64;
		tnode **t = xcalloc(cap, sizeof *t);
		uint32_t *th = xmalloc(cap * sizeof *th);
		for (size_t i = 0; i < ix->tcap; i++)
			if (ix->table[i]) {
				size_t j = table_slot(t, th, cap, ix->table[i]->key, ix->table[i]->len,
						      ix->thash[i]);
				t[j] = ix->table[i];
				th[j] = ix->thash[i];
			}
		free(ix->table);
		free(ix->thash);
		ix->table = t;
		ix->thash = th;
		ix->tcap = cap;
		at = table_slot(t, th, cap, key, len, h);
	}
	if (len > UINT32_MAX)
		abort();   /* a path of 4 GiB: sbc reads no such policy */
	tnode *n = node_new(ix);
	n->key = sb_arena_strndup(&ix->mem, key, len);
	n->len = (uint32_t)len;
	ix->table[at] = n;
	ix->thash[at] = h;
	ix->tn++;
	if (len > base) {
		size_t up = len;
		while (up > base && key[up - 1] != '/')
			up--;
		n->parent = node_make(ix, key, up > base ? up - 1 : base, base);
	}
	return n;
}

static bool comparable_kind(const sbx_place *pl)
{
	return pl->kind == SBX_PLACE_ABS || pl->kind == SBX_PLACE_ROOT;
}

/* First pass (counting): make the place's node and count its entries;
 * second: push them.  */
static void add_place(sbx_tindex *ix, size_t k, const sbx_stmt *s, const sbx_place *pl,
		      bool counting)
{
	if (pl->kind == SBX_PLACE_LIST)
		return;   /* a list never certainly covers nor overlaps */
	push(&ix->nonlist, k, s, counting);
	if (pl->kind == SBX_PLACE_ANY) {
		push(&ix->any, k, s, counting);
		return;
	}
	size_t at = (size_t)(pl - ix->all);
	tnode *n = ix->node_of[at];
	if (!n) {
		if (at + NODE_AHEAD < ix->nall && ix->tcap) {
			size_t slot = ix->place_hash[at + NODE_AHEAD] & (ix->tcap - 1);
			__builtin_prefetch(&ix->table[slot], 1);
			__builtin_prefetch(&ix->thash[slot], 1);
		}
		size_t full, base;
		char buf[512];
		char *key = node_key(pl, &full, &base, buf, sizeof buf);
		n = node_make_hashed(ix, key, full, base, ix->place_hash[at]);
		ix->node_of[at] = n;
		if (key != buf)
			free(key);
	}
	push(pl->exact ? &n->exact : &n->sub, k, s, counting);
	if (ix->with_below)
		for (tnode *a = n->parent; a; a = a->parent)
			push(&a->below, k, s, counting);
}

sbx_tindex *sbx_tindex_new(const sbx_policy *p, const sbx_places *pp, bool below)
{
	sbx_tindex *ix = xcalloc(1, sizeof *ix);
	ix->mem.min_block = 16384;
	ix->mem.max_block = 4u << 20;   /* 2 MiB and up: huge pages (arena.h) */
	ix->with_below = below;
	ix->all = pp->all;
	for (size_t k = 0; k < pp->n; k++)
		if (pp->of[k])
			ix->nall = (size_t)(pp->of[k] - pp->all) + pp->count[k];
	ix->node_of = xcalloc(ix->nall ? ix->nall : 1, sizeof *ix->node_of);
	ix->place_hash = xcalloc(ix->nall ? ix->nall : 1, sizeof *ix->place_hash);
	for (size_t j = 0; j < ix->nall; j++) {
		if (!comparable_kind(&ix->all[j]))
			continue;
		size_t full, base;
		char buf[512];
		char *key = node_key(&ix->all[j], &full, &base, buf, sizeof buf);
		ix->place_hash[j] = node_hash(key, full);
		if (key != buf)
			free(key);
	}
	/* the table at the size the places' own nodes need, so that it
	 * rarely grows while the slots asked for ahead are in it */
	ix->tcap = 64;
	while (ix->tcap * 3 < ix->nall * 4)
		ix->tcap *= 2;
	ix->table = xcalloc(ix->tcap, sizeof *ix->table);
	ix->thash = xmalloc(ix->tcap * sizeof *ix->thash);
	if (p->nstmts > UINT32_MAX)
		abort();   /* entry.k; sbc refuses far smaller policies */
	/* Count, size every list exactly, fill: lists that grew by doubling
	 * left their old arrays in the arena, and most nodes hold one entry
	 * (about half the index's 55 MB at 100k statements).  */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < p->nstmts && k < pp->n; k++)
			for (size_t t = 0; pp->of[k] && t < pp->count[k]; t++)
				add_place(ix, k, &p->stmts[k], &pp->of[k][t], pass == 0);
		if (pass == 0) {
			list_alloc(ix, &ix->any);
			list_alloc(ix, &ix->nonlist);
			for (nblock *b = ix->blocks; b; b = b->next)
				for (size_t i = 0; i < b->used; i++) {
					list_alloc(ix, &b->v[i].sub);
					list_alloc(ix, &b->v[i].exact);
					list_alloc(ix, &b->v[i].below);
				}
		}
	}
	free(ix->place_hash);
	ix->place_hash = NULL;
	char root[2] = {'A', '\0'};
	ix->abs_root = node_find(ix, root, 2);
	return ix;
}

void sbx_tindex_free(sbx_tindex *ix)
{
	if (!ix)
		return;
	while (ix->blocks) {
		nblock *b = ix->blocks;
		ix->blocks = b->next;
		free(b);
	}
	free(ix->table);
	free(ix->thash);
	sb_arena_clear(&ix->mem);
	free(ix->node_of);
	free(ix);
}

void sbx_tquery_init(sbx_tquery *q, unsigned actions, unsigned atoms)
{
	memset(q, 0, sizeof *q);
	q->actions = actions;
	q->atoms = atoms;
	q->lists = q->inl;
	q->cap = sizeof q->inl / sizeof q->inl[0];
}

void sbx_tquery_clear(sbx_tquery *q)
{
	if (q->lists != q->inl)
		free(q->lists);
	q->lists = q->inl;
	q->n = 0;
	q->cap = sizeof q->inl / sizeof q->inl[0];
}

static void want(sbx_tquery *q, const tlist *l)
{
	if (!l || !l->n)
		return;
	if (q->n == q->cap) {
		q->cap *= 2;
		if (q->lists == q->inl) {
			q->lists = xmalloc(q->cap * sizeof *q->lists);
			memcpy(q->lists, q->inl, sizeof q->inl);
		} else {
			q->lists = xrealloc(q->lists, q->cap * sizeof *q->lists);
		}
	}
	q->lists[q->n++] = l;
}

/* When x is one of the indexed places, set *n to its node and return
 * true.  Compared as addresses: x may be a copy or a place of its own.  */
static bool cached_node(const sbx_tindex *ix, const sbx_place *x, const tnode **n)
{
	uintptr_t a = (uintptr_t)ix->all, p = (uintptr_t)x;
	if (!ix->nall || p < a || p - a >= ix->nall * sizeof *x || (p - a) % sizeof *x)
		return false;
	*n = ix->node_of[(p - a) / sizeof *x];
	return true;
}

/* Add the lists of x's domain: `sub` of the strict ancestors, the lists
 * of x's own node chosen by `own`, and `below` of x when `desc`.  */
static void want_line(sbx_tquery *q, const sbx_tindex *ix, const sbx_place *x, bool own_sub,
		      bool own_exact, bool desc)
{
	size_t full, base;
	char buf[512];
	char *key = NULL;
	const tnode *n = NULL, *up = NULL;
	if (cached_node(ix, x, &n)) {
		up = n ? n->parent : NULL;
	} else {
		key = node_key(x, &full, &base, buf, sizeof buf);
		/* The strict ancestors in the index are the parent chain of the
		 * deepest indexed prefix (node_make makes every ancestor of a
		 * node): one lookup when x itself is indexed, instead of one per
		 * component.  */
		n = node_find(ix, key, full);
		up = n ? n->parent : NULL;
		for (size_t i = full; !n && i-- > base;)
			if ((i == base || key[i] == '/') && (up = node_find(ix, key, i)))
				break;
	}
	for (const tnode *a = up; a; a = a->parent)
		if (a != ix->abs_root)
			want(q, &a->sub);
	if (n) {
		if (own_sub && n != ix->abs_root)
			want(q, &n->sub);
		if (own_exact)
			want(q, &n->exact);
		if (desc) {
			if (!ix->with_below)
				abort();   /* built without: a caller's mistake */
			want(q, &n->below);
		}
	}
	if (key && key != buf)
		free(key);
}

void sbx_tquery_covering(sbx_tquery *q, const sbx_tindex *ix, const sbx_place *x, bool unfiltered)
{
	if (unfiltered)
		want(q, &ix->any);
	if (ix->abs_root)
		want(q, &ix->abs_root->sub);   /* "/" covers everything */
	if (comparable_kind(x))
		want_line(q, ix, x, true, x->exact, false);
}

void sbx_tquery_overlapping(sbx_tquery *q, const sbx_tindex *ix, const sbx_place *x)
{
	if (x->kind == SBX_PLACE_LIST)
		return;
	want(q, &ix->any);
	if (ix->abs_root)
		want(q, &ix->abs_root->sub);
	size_t full = 0, base = 0;
	bool everything = x->kind == SBX_PLACE_ANY;
	const tnode *own;
	if (x->kind == SBX_PLACE_ABS && !x->exact && cached_node(ix, x, &own)) {
		everything = own == ix->abs_root;   /* "/": the root node itself */
	} else if (x->kind == SBX_PLACE_ABS && !x->exact) {
		char buf[512], *key = node_key(x, &full, &base, buf, sizeof buf);
		if (key != buf)
			free(key);
		everything = full == base;
	}
	if (everything)
		want(q, &ix->nonlist);
	else if (comparable_kind(x))
		want_line(q, ix, x, true, true, !x->exact);
}

void sbx_tquery_inside(sbx_tquery *q, const sbx_tindex *ix, const sbx_place *x)
{
	if (x->kind == SBX_PLACE_ANY) {
		want(q, &ix->nonlist);
		return;
	}
	if (!comparable_kind(x))
		return;
	size_t full = 0, base = 0;
	char buf[512];
	char *key = NULL;
	const tnode *n = NULL;
	bool root;   /* x is "/" */
	if (cached_node(ix, x, &n)) {
		root = n == ix->abs_root;
	} else {
		key = node_key(x, &full, &base, buf, sizeof buf);
		root = full == base;
		n = node_find(ix, key, full);
	}
	if (x->kind == SBX_PLACE_ABS && !x->exact && root) {
		want(q, &ix->nonlist);   /* "/" covers every place */
	} else {
		if (n) {
			want(q, &n->exact);
			if (!x->exact) {
				if (!ix->with_below)
					abort();   /* built without: a caller's mistake */
				want(q, &n->sub);
				want(q, &n->below);
			}
		}
	}
	if (key && key != buf)
		free(key);
}

static bool matches(const sbx_tquery *q, const entry *e)
{
	return (q->actions & (1u << e->action)) && (q->atoms & e->atoms);
}

size_t sbx_tquery_prev(const sbx_tquery *q, size_t hi)
{
	size_t best = SIZE_MAX;
	for (size_t i = 0; i < q->n; i++) {
		const tlist *l = q->lists[i];
		size_t lo = 0, up = l->n;   /* first entry with k >= hi */
		while (lo < up) {
			size_t mid = lo + (up - lo) / 2;
			if (l->v[mid].k < hi)
				lo = mid + 1;
			else
				up = mid;
		}
		while (lo-- > 0) {
			if (best != SIZE_MAX && l->v[lo].k <= best)
				break;
			if (matches(q, &l->v[lo])) {
				best = l->v[lo].k;
				break;
			}
		}
	}
	return best;
}

size_t sbx_tquery_next(const sbx_tquery *q, size_t lo)
{
	size_t best = SIZE_MAX;
	for (size_t i = 0; i < q->n; i++) {
		const tlist *l = q->lists[i];
		size_t a = 0, up = l->n;   /* first entry with k > lo */
		while (a < up) {
			size_t mid = a + (up - a) / 2;
			if (l->v[mid].k <= lo)
				a = mid + 1;
			else
				up = mid;
		}
		for (; a < l->n && l->v[a].k < best; a++) {
			if (matches(q, &l->v[a])) {
				best = l->v[a].k;
				break;
			}
		}
	}
	return best;
}

/* ---- same rules ---- */

/* Keys are binary (fixed-size fields copied as bytes): built by memcpy,
 * not formatted, since they are made once per rule of large policies.  */
static size_t put(char *k, size_t n, const void *v, size_t len)
{
	memcpy(k + n, v, len);
	return n + len;
}

/* The most bytes target_key_put writes for t.  */
static size_t target_key_max(const sbx_target *t)
{
	const char *rel = t->rel ? t->rel : "";
	return sizeof(int) + 1 + sizeof(size_t) + (t->name ? strlen(t->name) : 0) + 1 +
	       strlen(rel) + 1;
}

/* Write t's key into k (target_key_max bytes); returns its length.  */
static size_t target_key_put(char *k, const sbx_target *t)
{
	/* base, exactness, name (with its length; none is SIZE_MAX), then the
	 * normalised suffix */
	const char *rel = t->rel ? t->rel : "";
	size_t nn = t->name ? strlen(t->name) : SIZE_MAX;
	int base = (int)t->base;
	char exact = t->exact ? 1 : 0;
	size_t n = put(k, 0, &base, sizeof base);
	n = put(k, n, &exact, 1);
	n = put(k, n, &nn, sizeof nn);
	if (t->name)
		n = put(k, n, t->name, nn);
	k[n++] = '.';
	size_t start = n;
	for (const char *p = rel; *p;) {
		while (*p == '/')
			p++;
		const char *c = p;
		while (*p && *p != '/')
			p++;
		size_t cn = (size_t)(p - c);
		if (cn == 0 || (cn == 1 && c[0] == '.'))
			continue;
		if (n > start)
			k[n++] = '/';
		memcpy(k + n, c, cn);
		n += cn;
	}
	k[n] = '\0';
	return n;
}

char *sbx_target_key(const sbx_target *t, size_t *len)
{
	char *k = xmalloc(target_key_max(t));
	*len = target_key_put(k, t);
	return k;
}

typedef struct {
	char *key;
	size_t len;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
	const keyed *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->key, y->key, n);
	return c ? c : x->len < y->len ? -1 : x->len > y->len;
}

/* Room for n bytes in a scratch buffer that only grows.  */
static char *scratch(char **buf, size_t *cap, size_t n)
{
	if (n > *cap) {
		*cap = n > 2 * *cap ? n : 2 * *cap;
		free(*buf);
		*buf = xmalloc(*cap);
	}
	return *buf;
}

/* action, access, then the sorted distinct target keys, each with its
 * length: equal exactly when sbx_rule_same.  In *buf (grown as needed:
 * one key is made per rule of a large policy, so none is allocated).  */
static size_t rule_key(const sbx_stmt *s, char **buf, size_t *cap)
{
	int action = (int)s->action;
	unsigned access = s->access;
	char filtered = s->ntargets ? 1 : 0;
	const size_t head = sizeof action + sizeof access + 1;
	if (s->ntargets <= 1) {
		size_t tmax = s->ntargets ? target_key_max(&s->targets[0]) : 0;
		char *k = scratch(buf, cap, head + sizeof(size_t) + tmax);
		size_t n = put(k, 0, &action, sizeof action);
		n = put(k, n, &access, sizeof access);
		n = put(k, n, &filtered, 1);
		if (s->ntargets) {
			/* the length goes before the key: written after it */
			size_t at = n;
			n += sizeof(size_t);
			size_t tn = target_key_put(k + n, &s->targets[0]);
			put(k, at, &tn, sizeof tn);
			n += tn;
		}
		return n;
	}
	keyed *t = xcalloc(s->ntargets, sizeof *t);
	size_t total = head;
	for (size_t i = 0; i < s->ntargets; i++) {
		t[i].key = sbx_target_key(&s->targets[i], &t[i].len);
		total += t[i].len + sizeof(size_t);
	}
	qsort(t, s->ntargets, sizeof *t, keyed_cmp);
	char *k = scratch(buf, cap, total);
	size_t n = put(k, 0, &action, sizeof action);
	n = put(k, n, &access, sizeof access);
	n = put(k, n, &filtered, 1);
	for (size_t i = 0; i < s->ntargets; i++) {
		if (i == 0 || keyed_cmp(&t[i - 1], &t[i]) != 0) {
			n = put(k, n, &t[i].len, sizeof t[i].len);
			n = put(k, n, t[i].key, t[i].len);
		}
	}
	for (size_t i = 0; i < s->ntargets; i++)
		free(t[i].key);
	free(t);
	return n;
}

/* The rule statements by the hash of their key, open addressing: a slot
 * is 32 bits of the hash and the last statement with it (+ 1; 0: empty).
 * Keys are not held (a map of every key was the peak of a large compile's
 * memory: bench/analysis.md, section 1); a hash match is confirmed on the
 * key, made again.  */
typedef struct {
	uint32_t hash, last;
} twin_slot;

/* How far ahead the twins' loop asks for the slot it will probe: a large
 * policy's table is megabytes, and each rule's slot is a miss otherwise.  */
enum { TWIN_AHEAD = 16 };

void sbx_rule_twins(const sbx_policy *p, size_t **first, bool **later)
{
	size_t n = p->nstmts ? p->nstmts : 1;
	*first = xmalloc(n * sizeof **first);
	*later = xcalloc(n, sizeof **later);
	if (p->nstmts >= UINT32_MAX)
		abort();   /* twin_slot.last; sbc refuses far smaller policies */
	/* the rules and their keys' hashes, in statement order */
	uint32_t *rule = xmalloc(n * sizeof *rule);
	uint64_t *hash = xmalloc(n * sizeof *hash);
	size_t nrules = 0;
	char *kbuf = NULL, *lbuf = NULL;
	size_t kcap = 0, lcap = 0;
	for (size_t i = 0; i < p->nstmts; i++) {
		(*first)[i] = SIZE_MAX;
		if (p->stmts[i].kind != SBX_STMT_RULE)
			continue;
		size_t len = rule_key(&p->stmts[i], &kbuf, &kcap);
		rule[nrules] = (uint32_t)i;
		hash[nrules++] = key_hash(kbuf, len);
	}
	size_t cap = 16;
	while (cap < 2 * nrules)   /* at most half full */
		cap *= 2;
	twin_slot *t = xcalloc(cap, sizeof *t);
	for (size_t r = 0; r < nrules; r++) {
		if (r + TWIN_AHEAD < nrules)
			__builtin_prefetch(&t[hash[r + TWIN_AHEAD] & (cap - 1)], 1);
		size_t i = rule[r], len = 0;
		bool have_key = false;
		uint32_t h32 = (uint32_t)(hash[r] >> 32);
		for (size_t at = hash[r] & (cap - 1);; at = (at + 1) & (cap - 1)) {
			if (!t[at].last) {
				t[at] = (twin_slot){h32, (uint32_t)(i + 1)};
				(*first)[i] = i;
				break;
			}
			if (t[at].hash != h32)
				continue;
			if (!have_key) {
				len = rule_key(&p->stmts[i], &kbuf, &kcap);
				have_key = true;
			}
			size_t last = t[at].last - 1;
			size_t ln = rule_key(&p->stmts[last], &lbuf, &lcap);
			if (ln != len || memcmp(kbuf, lbuf, len))
				continue;
			(*first)[i] = (*first)[last];
			(*later)[last] = true;
			t[at].last = (uint32_t)(i + 1);
			break;
		}
	}
	free(t);
	free(rule);
	free(hash);
	free(kbuf);
	free(lbuf);
}
