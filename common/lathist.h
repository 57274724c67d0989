/*
 * lathist.h: a log-linear histogram of latencies in nanoseconds, with at
 * most 1 % relative error from 1 us to 2^35 ns (34.4 s). Recording is
 * constant time, without division or allocation: the I/O worker records
 * every completion. The count, the sum and the max are exact.
 *
 * The layout (HdrHistogram's, on a unit of 2^LATHIST_UNIT_BITS ns): a
 * value v is taken as u = v >> UNIT_BITS. Below 2^(SUB_BITS + 1) units,
 * every unit has its own bucket; above, each power of two [2^e, 2^(e+1))
 * is cut into 2^SUB_BITS buckets of width 2^(e - SUB_BITS) units.
 *
 * Why it meets the bound: a bucket answers its middle, lo + width / 2,
 * so a value in it is at most width / 2 away. Past the linear part the
 * width is 2^(e - SUB_BITS) and the value at least 2^e: an error of at
 * most 2^-(SUB_BITS + 1) = 1/128 = 0.78 %. In the linear part a bucket is
 * 16 ns wide, 8 ns from its middle: 0.8 % of 1000 ns, less above. It is
 * the smallest that keeps the bound: five sub-bits would give 1.6 %, a
 * unit of 32 ns 1.6 % at 1 us. The top, 2^35 ns rather than the 2^34
 * just past 10 s, holds a 20 s stall; the stall rule (io_timeout) speaks
 * for longer ones.
 * 1664 buckets, 13 KiB.
 *
 * Values at or above the top go in the last bucket: counted, never
 * dropped; a rank among them answers the exact max.
 */
#ifndef SSDT_LATHIST_H
#define SSDT_LATHIST_H

#include <stdint.h>

#define LATHIST_UNIT_BITS	4	/* the finest step: 16 ns */
#define LATHIST_SUB_BITS	6	/* 64 buckets per power of two */
#define LATHIST_TOP_BITS	35	/* the top: 2^35 ns, 34.4 s */
/* the linear part, then one group of 2^SUB_BITS per power of two above */
#define LATHIST_BUCKETS \
	((LATHIST_TOP_BITS - LATHIST_UNIT_BITS - LATHIST_SUB_BITS + 1) << \
	    LATHIST_SUB_BITS)

struct lathist {
	uint64_t	count;
	uint64_t	sum_ns;		/* exact, modulo 2^64 (584 years) */
	uint64_t	max_ns;		/* exact */
	uint64_t	bucket[LATHIST_BUCKETS];
};

/* The bucket of a value (the last one for a value above the top). */
static inline unsigned
lathist_index(uint64_t ns)
{
	uint64_t	u = ns >> LATHIST_UNIT_BITS;
	/* the power of two above the linear part: 0 inside it */
	unsigned	sh = 63 - (unsigned)__builtin_clzll(u |
			    (1ULL << LATHIST_SUB_BITS)) - LATHIST_SUB_BITS;
	unsigned	i;

	i = (sh << LATHIST_SUB_BITS) + (unsigned)(u >> sh);
	return i < LATHIST_BUCKETS ? i : LATHIST_BUCKETS - 1;
}

/* Count one latency; per I/O, in the worker. */
static inline void
lathist_record(struct lathist *h, uint64_t ns)
{
	h->bucket[lathist_index(ns)]++;
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

/* The value bucket i answers: its middle (ns). */
uint64_t	lathist_bucket_value(unsigned i);
/* dst += src: the histogram of both sets of values. */
void		lathist_add(struct lathist *dst, const struct lathist *src);
/*
 * out = later - earlier, two snapshots of one cumulative histogram: the
 * values recorded in between. The max is exact when they raised it;
 * otherwise it is the middle of the highest bucket they reached, capped
 * at the max (within the bound).
 */
void		lathist_delta(struct lathist *out, const struct lathist *later,
		    const struct lathist *earlier);
/* Mean latency (ns), 0 when empty. */
double		lathist_mean(const struct lathist *);
/*
 * The latency at percentile pct (0 < pct <= 100) in ns: within the bound
 * of the value of rank ceil(pct / 100 * count), and never above the max
 * (100 answers the max); 0 when empty.
 */
uint64_t	lathist_percentile(const struct lathist *, double pct);

#endif
