/*
 * lathist.c: the log-linear latency histogram (the layout and its error
 * bound are in lathist.h). Everything here runs once per tick or per
 * report, never per I/O.
 */
#include "lathist.h"

uint64_t
lathist_bucket_value(unsigned i)
{
	unsigned	g = i >> LATHIST_SUB_BITS;
	/* the power of two of the bucket's group: 0 in the linear part */
	unsigned	sh = g > 0 ? g - 1 : 0;
	uint64_t	lo = (uint64_t)(i - (sh << LATHIST_SUB_BITS)) << sh;

	return (lo << LATHIST_UNIT_BITS) +
	    ((1ULL << (sh + LATHIST_UNIT_BITS)) >> 1);
}

/*
 * What a rank in bucket i answers, given the max: its middle, never above
 * the max (which is then closer to every value below it); the last bucket
 * holding values past the top answers the max.
 */
static uint64_t
bucket_answer(unsigned i, uint64_t max)
{
	uint64_t	v = lathist_bucket_value(i);

	if (i == LATHIST_BUCKETS - 1 && (max >> LATHIST_TOP_BITS) != 0)
		return max;
	return v < max ? v : max;
}

void
lathist_add(struct lathist *dst, const struct lathist *src)
{
	unsigned	i;

	for (i = 0; i < LATHIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

/* out may be later or earlier itself. */
void
lathist_delta(struct lathist *out, const struct lathist *later,
    const struct lathist *earlier)
{
	uint64_t	lmax = later->max_ns, emax = earlier->max_ns;
	unsigned	i, top = 0;

	for (i = 0; i < LATHIST_BUCKETS; i++) {
		out->bucket[i] = later->bucket[i] - earlier->bucket[i];
		if (out->bucket[i] != 0)
			top = i;
	}
	out->count = later->count - earlier->count;
	out->sum_ns = later->sum_ns - earlier->sum_ns;
	if (lmax > emax)
		out->max_ns = lmax;	/* set in between: exact */
	else
		out->max_ns = out->count == 0 ? 0 : bucket_answer(top, lmax);
}

double
lathist_mean(const struct lathist *h)
{
	return h->count == 0 ? 0 : (double)h->sum_ns / (double)h->count;
}

/* The rank (1 .. n) of percentile pct among n values. */
static uint64_t
rank_of(uint64_t n, double pct)
{
	double		x = (double)n * pct / 100;
	uint64_t	r;

	/* 99.9 % of 1000 is rank 999, not the 1000 of a rounding above it */
	x -= x * 1e-12;
	if (!(x > 1))		/* NaN too */
		return 1;
	if (x >= (double)n)
		return n;
	r = (uint64_t)x;
	return (double)r < x ? r + 1 : r;
}

uint64_t
lathist_percentile(const struct lathist *h, double pct)
{
	uint64_t	rank, acc = 0;
	unsigned	i;

	if (h->count == 0)
		return 0;
	if ((rank = rank_of(h->count, pct)) == h->count)
		return h->max_ns;
	for (i = 0; i < LATHIST_BUCKETS; i++)
		if ((acc += h->bucket[i]) >= rank)
			return bucket_answer(i, h->max_ns);
	return h->max_ns;	/* buckets short of the count: not from us */
}
