/*
 * test_steady.c: SNIA's steady state over rounds: a decay that settles is
 * steady from the first window whose range and fitted change both fit;
 * a window within range but still falling is not; one that swings too
 * far is not; the figures of the window are right; bad input is refused.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "steady.h"

static int
find(const double *y, size_t n, struct steady *s)
{
	return steady_find(y, n, STEADY_WINDOW, STEADY_RANGE_FRAC,
	    STEADY_SLOPE_FRAC, s);
}

/*
 * IOPS falling from 100000 towards 20000 as a drive runs out of free
 * blocks: y = 20000 + 80000 e^(-r/3). Which window is the first steady
 * one, worked out by hand below, and the figures of it.
 */
static void
test_decay(void **state)
{
	double		y[30];
	struct steady	s;
	size_t		r, w;
	double		mean, range, sxy, sxx;

	(void)state;
	for (r = 0; r < 30; r++)
		y[r] = 20000 + 80000 * exp(-(double)r / 3);
	assert_int_equal(find(y, 30, &s), 0);
	assert_true(s.reached);
	/*
	 * The range fits first from round 8 (4093 against a mean of 23181),
	 * but the fitted line still falls 4050 across that window, 17 % of
	 * the mean; both fit first from round 10 (range 2102, change 2079,
	 * mean 21633). Recomputed directly:
	 */
	for (w = 0; w < 30; w++) {
		mean = range = sxy = sxx = 0;
		for (r = 0; r < 5; r++)
			mean += y[w + r] / 5;
		range = y[w] - y[w + 4];
		for (r = 0; r < 5; r++) {
			sxy += ((double)r - 2) * (y[w + r] - mean);
			sxx += ((double)r - 2) * ((double)r - 2);
		}
		if (range <= 0.2 * mean && fabs(sxy / sxx) * 4 <= 0.1 * mean)
			break;
	}
	assert_int_equal(s.first, w);
	assert_int_equal(w, 10);
	assert_true(fabs(s.mean - mean) < 1e-6 * mean);
	assert_true(fabs(s.range - range) < 1e-6 * range);
	assert_true(fabs(s.excursion - fabs(sxy / sxx) * 4) < 1e-6 * mean);
}

/*
 * One window each, around a mean of 1000: which rule it breaks, and what
 * the figures of a steady one are.
 */
static void
test_windows(void **state)
{
	static const struct {
		double	y[STEADY_WINDOW];
		int	reached;
		double	range, excursion;
	} w[] = {
		/* within range, but falling 15 % across it */
		{ { 1075, 1037.5, 1000, 962.5, 925 }, 0, 150, 150 },
		/* falling 8 % across it */
		{ { 1040, 1020, 1000, 980, 960 }, 1, 80, 80 },
		/* flat, swinging 25 % */
		{ { 1000, 1125, 875, 1125, 875 }, 0, 250, 100 },
		/* flat, swinging 19 % */
		{ { 1000, 1095, 905, 1095, 905 }, 1, 190, 76 },
	};
	struct steady	s;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		assert_int_equal(find(w[i].y, STEADY_WINDOW, &s), 0);
		assert_int_equal(s.reached, w[i].reached);
		if (!s.reached)
			continue;
		assert_int_equal(s.first, 0);
		assert_true(fabs(s.mean - 1000) < 1e-9);
		assert_true(fabs(s.range - w[i].range) < 1e-9);
		assert_true(fabs(s.excursion - w[i].excursion) < 1e-9);
	}
}

/* Fewer rounds than a window: not (yet) steady; bad input refused. */
static void
test_edges(void **state)
{
	const double	y[4] = { 1, 1, 1, 1 };
	double		bad[5] = { 1, 1, 1, 1, 1 };
	struct steady	s;

	(void)state;
	assert_int_equal(find(y, 4, &s), 0);
	assert_false(s.reached);
	assert_int_equal(steady_find(y, 4, 1, 0.2, 0.1, &s), -1);
	assert_int_equal(steady_find(y, 4, 2, 0, 0.1, &s), -1);
	assert_int_equal(steady_find(y, 4, 2, 0.2, NAN, &s), -1);
	bad[3] = NAN;
	assert_int_equal(find(bad, 5, &s), -1);
	bad[3] = -1;
	assert_int_equal(find(bad, 5, &s), -1);
	bad[3] = INFINITY;
	assert_int_equal(find(bad, 5, &s), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
