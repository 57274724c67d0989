/*
 * test_lathist.c: the latency histogram keeps its 1 % over the whole
 * range (every bucket's both ends, a dense geometric grid, random
 * values), answers the percentiles of known distributions, merges and
 * subtracts snapshots exactly, counts what is above its top, and says
 * nothing of an empty set.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lathist.h"

#define US		1000ULL
#define MS		1000000ULL
#define SEC		1000000000ULL
#define BOUND		0.01		/* the relative error promised */
#define TOP_NS		(1ULL << LATHIST_TOP_BITS)

static struct lathist *
hist_new(void)
{
	struct lathist	*h = calloc(1, sizeof(*h));

	assert_non_null(h);
	return h;
}

/* |got - want| <= BOUND * want */
static void
assert_near(uint64_t got, uint64_t want)
{
	double	err = fabs((double)got - (double)want) / (double)want;

	if (err > BOUND)
		fail_msg("%llu answered for %llu: %.3f %% off",
		    (unsigned long long)got, (unsigned long long)want,
		    err * 100);
}

/* The smallest value that falls in bucket i or above (indexes grow). */
static uint64_t
bucket_low(unsigned i)
{
	uint64_t	lo = 0, hi = TOP_NS;

	while (lo < hi) {
		uint64_t	mid = lo + (hi - lo) / 2;

		if (lathist_index(mid) >= i)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Every bucket from the one of 1 us up to the last below the top: its
 * lowest and its highest value are within the bound of what it answers,
 * so every value between is; the buckets tile the range without a gap.
 */
static void
test_bound_every_bucket(void **st)
{
	unsigned	i, first = lathist_index(US);
	uint64_t	lo, hi, v;

	(void)st;
	assert_int_equal(lathist_index(TOP_NS - 1), LATHIST_BUCKETS - 1);
	for (i = first; i < LATHIST_BUCKETS; i++) {
		lo = i == first ? US : bucket_low(i);
		hi = i + 1 < LATHIST_BUCKETS ? bucket_low(i + 1) - 1 :
		    TOP_NS - 1;
		assert_true(lo <= hi);
		assert_int_equal(lathist_index(lo), i);
		assert_int_equal(lathist_index(hi), i);
		v = lathist_bucket_value(i);
		assert_int_equal(lathist_index(v), i);	/* inside it */
		assert_near(v, lo);
		assert_near(v, hi);
	}
}

/* A geometric grid from 1 us to 20 s, 0.05 % apart. */
static void
test_bound_grid(void **st)
{
	struct lathist	*h = hist_new();
	double		 x;
	uint64_t	 v;
	unsigned	 n = 0;

	(void)st;
	for (x = (double)US; x <= 20.0 * SEC; x *= 1.0005, n++) {
		v = (uint64_t)x;
		assert_near(lathist_bucket_value(lathist_index(v)), v);
		/* as a percentile too: v, then one value far above it */
		memset(h, 0, sizeof(*h));
		lathist_record(h, v);
		lathist_record(h, 30 * SEC);
		assert_near(lathist_percentile(h, 50), v);
	}
	assert_true(n > 30000);
	free(h);
}

/* Random values, alone in a histogram: every percentile is them. */
static void
test_bound_random(void **st)
{
	struct lathist	*h = hist_new();
	unsigned	 seed = 14, k;
	uint64_t	 v;

	(void)st;
	for (k = 0; k < 20000; k++) {
		/* log-uniform over 1 us .. 20 s */
		v = (uint64_t)((double)US * exp((double)rand_r(&seed) /
		    RAND_MAX * log(20.0 * SEC / US)));
		memset(h, 0, sizeof(*h));
		lathist_record(h, v);
		assert_int_equal(h->max_ns, v);
		assert_near(lathist_percentile(h, 1), v);
		assert_near(lathist_percentile(h, 99), v);
		assert_int_equal(lathist_percentile(h, 100), v);
	}
	free(h);
}

/* 1 .. 100000 us once each: the value of rank r is r us. */
static void
test_uniform(void **st)
{
	static const double pct[] = { 50, 90, 99, 99.9, 99.99 };
	struct lathist	*h = hist_new();
	uint64_t	 v;
	size_t		 i;

	(void)st;
	for (v = 1; v <= 100000; v++)
		lathist_record(h, v * US);
	assert_int_equal(h->count, 100000);
	assert_int_equal(h->max_ns, 100000 * US);
	assert_true(lathist_mean(h) == 50000.5 * US);	/* exact sum */
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		assert_near(lathist_percentile(h, pct[i]),
		    (uint64_t)(pct[i] * 1000) * US);
	assert_int_equal(lathist_percentile(h, 100), 100000 * US);
	assert_near(lathist_percentile(h, 0.001), 1 * US);
	free(h);
}

/* n1 values of 1 ms, then n10 of 10 ms. */
static void
record_two(struct lathist *h, unsigned n1, unsigned n10)
{
	memset(h, 0, sizeof(*h));
	while (n1-- > 0)
		lathist_record(h, 1 * MS);
	while (n10-- > 0)
		lathist_record(h, 10 * MS);
}

/*
 * The rank is ceil(pct * n / 100), not one above it by a rounding of
 * pct * n in binary: 3000 * 1.1 / 100 and 10000 * 99.93 / 100 come out
 * a hair over 33 and 9993.
 */
static void
test_rank(void **st)
{
	struct lathist	*h = hist_new();
	uint64_t	 v;

	(void)st;
	for (v = 1; v <= 10; v++)
		lathist_record(h, v * MS);
	assert_near(lathist_percentile(h, 90), 9 * MS);
	assert_near(lathist_percentile(h, 10), 1 * MS);
	assert_near(lathist_percentile(h, 10.5), 2 * MS);
	record_two(h, 999, 1);
	assert_near(lathist_percentile(h, 99.9), 1 * MS);
	assert_near(lathist_percentile(h, 99.91), 10 * MS);
	record_two(h, 33, 2967);
	assert_near(lathist_percentile(h, 1.1), 1 * MS);
	record_two(h, 9993, 7);
	assert_near(lathist_percentile(h, 99.93), 1 * MS);
	assert_near(lathist_percentile(h, 99.94), 10 * MS);
	free(h);
}

/* n values of a spread of latencies, from seed. */
static void
record_random(struct lathist *h, unsigned seed, unsigned n, uint64_t scale)
{
	while (n-- > 0)
		lathist_record(h, (uint64_t)rand_r(&seed) % scale + US);
}

/* The histogram of A merged with that of B is the histogram of both. */
static void
test_merge(void **st)
{
	struct lathist	*a = hist_new(), *b = hist_new(), *u = hist_new();

	(void)st;
	record_random(a, 1, 5000, 10 * MS);
	record_random(b, 2, 7000, 3 * SEC);
	record_random(u, 1, 5000, 10 * MS);
	record_random(u, 2, 7000, 3 * SEC);
	lathist_add(a, b);
	assert_memory_equal(a, u, sizeof(*u));
	assert_int_equal(a->count, 12000);
	/* the max from either side */
	memset(a, 0, sizeof(*a));
	lathist_add(a, u);
	assert_memory_equal(a, u, sizeof(*u));
	free(a);
	free(b);
	free(u);
}

/*
 * Two snapshots of one cumulative histogram, A recorded before the
 * first and B between: their difference is the histogram of B. Its max
 * is exact when B raised it, else within the bound of B's max.
 */
static void
check_delta(uint64_t scale_a, uint64_t scale_b)
{
	struct lathist	*s1 = hist_new(), *s2 = hist_new(), *b = hist_new();
	struct lathist	*d = hist_new();

	record_random(s1, 3, 4000, scale_a);
	*s2 = *s1;
	record_random(s2, 4, 3000, scale_b);
	record_random(b, 4, 3000, scale_b);
	lathist_delta(d, s2, s1);
	assert_int_equal(d->count, b->count);
	assert_int_equal(d->sum_ns, b->sum_ns);
	assert_memory_equal(d->bucket, b->bucket, sizeof(b->bucket));
	if (b->max_ns > s1->max_ns)
		assert_int_equal(d->max_ns, b->max_ns);
	else
		assert_near(d->max_ns, b->max_ns);
	assert_near(lathist_percentile(d, 99), lathist_percentile(b, 99));
	lathist_delta(s2, s2, s1);	/* in place */
	assert_memory_equal(s2, d, sizeof(*d));
	lathist_delta(d, s1, s1);	/* nothing in between */
	assert_int_equal(d->count, 0);
	assert_int_equal(d->max_ns, 0);
	assert_int_equal(lathist_percentile(d, 99), 0);
	free(s1);
	free(s2);
	free(b);
	free(d);
}

static void
test_delta(void **st)
{
	(void)st;
	check_delta(1 * MS, 50 * MS);	/* B raised the max */
	check_delta(50 * MS, 1 * MS);	/* B stayed below it */
}

/* Above the top: in the last bucket, counted; their ranks answer max. */
static void
test_above_top(void **st)
{
	struct lathist	*h = hist_new();

	(void)st;
	lathist_record(h, 1 * MS);
	lathist_record(h, 40 * SEC);
	lathist_record(h, 100 * SEC);
	lathist_record(h, UINT64_MAX / 2);
	assert_int_equal(h->count, 4);
	assert_int_equal(h->bucket[LATHIST_BUCKETS - 1], 3);
	assert_int_equal(h->sum_ns, 1 * MS + 140 * SEC + UINT64_MAX / 2);
	assert_int_equal(h->max_ns, UINT64_MAX / 2);
	assert_near(lathist_percentile(h, 25), 1 * MS);
	/* not the middle of the last bucket, below the top */
	assert_int_equal(lathist_percentile(h, 50), UINT64_MAX / 2);
	assert_int_equal(lathist_percentile(h, 100), UINT64_MAX / 2);
	/* just below the top: the bound still holds in the last bucket */
	memset(h, 0, sizeof(*h));
	lathist_record(h, TOP_NS - TOP_NS / 128);
	lathist_record(h, TOP_NS - 1);
	lathist_record(h, TOP_NS - 1);
	assert_int_equal(h->bucket[LATHIST_BUCKETS - 1], 3);
	assert_near(lathist_percentile(h, 30), TOP_NS - TOP_NS / 128);
	free(h);
}

static void
test_empty(void **st)
{
	struct lathist	*h = hist_new(), *d = hist_new();

	(void)st;
	assert_int_equal(h->count, 0);
	assert_true(lathist_mean(h) == 0);
	assert_int_equal(lathist_percentile(h, 50), 0);
	assert_int_equal(lathist_percentile(h, 100), 0);
	lathist_add(d, h);
	assert_memory_equal(d, h, sizeof(*h));
	lathist_delta(d, h, h);
	assert_memory_equal(d, h, sizeof(*h));
	free(h);
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound_every_bucket),
		cmocka_unit_test(test_bound_grid),
		cmocka_unit_test(test_bound_random),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_above_top),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
