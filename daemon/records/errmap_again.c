/*
 * errmap_again.c: the blocks a verify pass found bad that an earlier pass
 * had found bad too: where the flash fails again, pass after pass (the
 * map of a drive wearing out). The earlier passes' maps are merged into
 * one sorted list of bad spans (their classes aside), and the pass's
 * extents are cut down to what lies in it.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "errmap_again.h"

/* The bad spans of the earlier passes; sorted and merged once read. */
struct spans {
	struct errext	*v;
	size_t		 n, cap;
};

static int
spans_add(const struct errext *x, void *arg)
{
	struct spans	*s = arg;
	struct errext	*nv;
	size_t		 cap;

	if (s->n == s->cap) {
		if (s->cap >= ERRMAP_AGAIN_MAX) {
			errno = E2BIG;
			return -1;
		}
		cap = s->cap ? s->cap * 2 : 1024;
		if ((nv = realloc(s->v, cap * sizeof(*nv))) == NULL)
			return -1;
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = *x;
	return 0;
}

static int
by_start(const void *a, const void *b)
{
	const struct errext	*x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sort and join overlapping or touching spans. */
static void
spans_merge(struct spans *s)
{
	size_t	i, m = 0;

	if (s->n == 0)
		return;
	qsort(s->v, s->n, sizeof(*s->v), by_start);
	for (i = 1; i < s->n; i++) {
		struct errext	*h = &s->v[m];

		if (s->v[i].start <= h->start + h->len) {
			if (s->v[i].start + s->v[i].len > h->start + h->len)
				h->len = s->v[i].start + s->v[i].len - h->start;
		} else
			s->v[++m] = s->v[i];
	}
	s->n = m + 1;
}

/* Every earlier pass's map that exists, read into `s`. */
static int
spans_read(struct spans *s, const char *drive_dir, uint64_t pass)
{
	char		path[PATH_MAX + 64];
	uint64_t	p;

	for (p = 1; p < pass; p++) {
		errmap_path(path, sizeof(path), drive_dir, p);
		if (errmap_read(path, UINT64_MAX, spans_add, s, NULL) == -1 &&
		    errno != ENOENT)
			return -1;	/* a pass without a map has none */
	}
	spans_merge(s);
	return 0;
}

struct again {
	const struct spans	*u;
	errmap_fn		 fn;
	void			*arg;
	struct errmap_counts	*c;
};

/* The first span that ends after block b (u->n: none). */
static size_t
first_after(const struct spans *u, uint64_t b)
{
	size_t	lo = 0, hi = u->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (u->v[mid].start + u->v[mid].len <= b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Count a piece handed on, as errmap_parse counts extents. */
static void
count(struct errmap_counts *c, const struct errext *x)
{
	if (c->blocks[x->cls] == 0 || x->start < c->first[x->cls])
		c->first[x->cls] = x->start;
	if (x->start + x->len > c->end[x->cls])
		c->end[x->cls] = x->start + x->len;
	c->blocks[x->cls] += x->len;
	c->extents[x->cls]++;
}

/* An extent of the pass: the parts of it the earlier passes had bad. */
static int
again_extent(const struct errext *x, void *arg)
{
	struct again	*a = arg;
	const struct spans *u = a->u;
	uint64_t	 end = x->start + x->len, lo, hi;
	size_t		 j;
	struct errext	 piece;

	for (j = first_after(u, x->start); j < u->n && u->v[j].start < end;
	    j++) {
		lo = u->v[j].start > x->start ? u->v[j].start : x->start;
		hi = u->v[j].start + u->v[j].len < end ?
		    u->v[j].start + u->v[j].len : end;
		piece.start = lo;
		piece.len = hi - lo;
		piece.cls = x->cls;
		count(a->c, &piece);
		if (a->fn(&piece, a->arg) != 0)
			return -1;
	}
	return 0;
}

int
errmap_read_again(const char *drive_dir, uint64_t pass, uint64_t limit,
    errmap_fn fn, void *arg, struct errmap_counts *c)
{
	struct spans		 u = { NULL, 0, 0 };
	struct errmap_counts	 whole;
	struct again		 a = { &u, fn, arg, c };
	char			 path[PATH_MAX + 64];
	int			 rc = -1, saved;

	memset(c, 0, sizeof(*c));
	if (spans_read(&u, drive_dir, pass) == 0) {
		errmap_path(path, sizeof(path), drive_dir, pass);
		rc = errmap_read(path, limit, again_extent, &a, &whole);
		c->block_size = whole.block_size;
	}
	saved = errno;
	free(u.v);
	errno = saved;
	return rc;
}
