/*
 * test_degrade.c: the figures of a degradation run: a two-hour decay to a
 * floor reaches steady state in the window SNIA's rule picks out of the
 * rounds, computed here from the seconds on their own; its initial IOPS
 * and worst second are the ones planted; a run still falling never gets
 * there; rounds of another length: a step from fast to slow is steady
 * exactly when its first window of slow rounds ends; the moving average
 * is the brute-force one; a run's per-second series counts from the
 * run's start, not from the first tick after it; a recovery run's
 * shares; what cannot be a run is refused.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "degrade.h"

#define HOURS2	7200

static void
assert_near(double got, double want)
{
	if (fabs(got - want) > 1e-9 * (fabs(want) + 1))
		fail_msg("%.12g is not %.12g", got, want);
}

/* A drive's IOPS falling from 100000 to a floor of 20000, +-3 % noise. */
static double *
decay_run(size_t n)
{
	double	*y = malloc(n * sizeof(*y));
	size_t	 i;

	assert_non_null(y);
	for (i = 0; i < n; i++)
		y[i] = (20000 + 80000 * exp(-(double)i / 540)) *
		    (1 + 0.03 * sin((double)i * 78.233));
	return y;
}

static void
test_decay(void **state)
{
	double			*y = decay_run(HOURS2), rounds[HOURS2 / 60];
	struct degrade_figures	 f;
	struct steady		 s;
	double			 init = 0;
	size_t			 i, r;

	(void)state;
	y[4000] = 5000;			/* a stall: the worst second */
	assert_int_equal(degrade_figures(y, HOURS2, DEGRADE_ROUND_S, &f), 0);
	for (i = 0; i < 60; i++)
		init += y[i] / 60;
	assert_near(f.initial_iops, init);
	assert_near(f.worst_iops, 5000);
	assert_int_equal(f.worst_s, 4000);
	for (r = 0; r < HOURS2 / 60; r++) {
		rounds[r] = 0;
		for (i = 0; i < 60; i++)
			rounds[r] += y[r * 60 + i] / 60;
	}
	assert_int_equal(steady_find(rounds, HOURS2 / 60, 5, 0.2, 0.1, &s), 0);
	assert_true(s.reached);
	assert_true(f.steady);
	assert_int_equal(f.window.first, s.first);
	assert_int_equal(f.steady_at_s, (s.first + 5) * 60);
	assert_near(f.steady_iops, s.mean);
	/* e^(-t/540) within reach of the 20 % and 10 % rules: tens of minutes */
	assert_in_range(f.steady_at_s, 20 * 60, 60 * 60);
	assert_in_range((uint64_t)f.steady_iops, 20000, 26000);
	free(y);
}

/* Falling 3 % a minute for 20 minutes: within the range rule, but the
 * fitted line falls 12 % across any window of five: never steady. */
static void
test_never(void **state)
{
	double			y[1200];
	struct degrade_figures	f;
	size_t			i;

	(void)state;
	for (i = 0; i < 1200; i++)
		y[i] = 100000 * pow(0.97, (double)i / 60);
	assert_int_equal(degrade_figures(y, 1200, DEGRADE_ROUND_S, &f), 0);
	assert_false(f.steady);
	assert_int_equal(f.steady_at_s, 0);
	assert_int_equal(f.worst_s, 1199);
}

/* 1000 IOPS for 8 s, then 300. In rounds of 2 s the first window of five
 * slow rounds is rounds 4..8: steady at 18 s at 300 IOPS. In rounds of
 * 3 s round 2 (6..8 s) mixes the two: the window is rounds 3..7, steady
 * at 24 s. In rounds of 5 s: 1000, 720, then 300 six times: rounds 2..6,
 * 35 s. The initial IOPS is the first round's. Fast for five rounds, the
 * drive is steady at once: SNIA's rule takes the first steady window. */
static void
test_round_length(void **state)
{
	double			y[40];
	struct degrade_figures	f;
	size_t			i;

	(void)state;
	for (i = 0; i < 40; i++)
		y[i] = i < 8 ? 1000 : 300;
	assert_int_equal(degrade_figures(y, 40, 2, &f), 0);
	assert_true(f.steady);
	assert_int_equal(f.window.first, 4);
	assert_int_equal(f.steady_at_s, 18);
	assert_near(f.steady_iops, 300);
	assert_near(f.initial_iops, 1000);
	assert_int_equal(degrade_figures(y, 40, 3, &f), 0);
	assert_true(f.steady);
	assert_int_equal(f.window.first, 3);
	assert_int_equal(f.steady_at_s, 24);
	assert_int_equal(degrade_figures(y, 40, 5, &f), 0);
	assert_int_equal(f.steady_at_s, 35);
	assert_int_equal(degrade_figures(y, 40, 0, &f), -1);
	assert_int_equal(degrade_figures(y, 40, 41, &f), -1);
	assert_int_equal(degrade_figures(y, 40, 1, &f), 0);
	assert_int_equal(f.steady_at_s, 5);
	assert_near(f.steady_iops, 1000);
}

static void
test_moving_avg(void **state)
{
	const double	y[6] = { 3, 6, 9, 0, 3, 30 };
	const double	want[6] = { 3, 4.5, 6, 5, 4, 11 };
	double		avg[6], *z = decay_run(HOURS2), *za, sum;
	size_t		i, k;

	(void)state;
	degrade_moving_avg(y, 6, 3, avg);
	for (i = 0; i < 6; i++)
		assert_near(avg[i], want[i]);
	za = malloc(HOURS2 * sizeof(*za));
	assert_non_null(za);
	degrade_moving_avg(z, HOURS2, DEGRADE_AVG_S, za);
	for (i = 0; i < HOURS2; i += 37) {
		sum = 0;
		for (k = i + 1 > DEGRADE_AVG_S ? i + 1 - DEGRADE_AVG_S : 0;
		    k <= i; k++)
			sum += z[k];
		if (fabs(za[i] - sum / (double)(i + 1 > DEGRADE_AVG_S ?
		    DEGRADE_AVG_S : i + 1)) > 1e-6)
			fail_msg("second %zu: %.9g", i, za[i]);
	}
	free(z);
	free(za);
}

static void
test_recovery(void **state)
{
	const double		y[8] = { 90, 80, 70, 60, 50, 40, 40, 40 };
	struct recovery_figures	r;

	(void)state;
	assert_int_equal(recovery_figures(y, 8, 0, 100, &r), 0);
	assert_near(r.first_iops, 70);
	assert_near(r.all_iops, 58.75);		/* no count of the run's */
	assert_near(r.first_share, 0.7);
	assert_near(r.all_share, 0.5875);
	assert_int_equal(recovery_figures(y, 3, 0, 0, &r), 0);
	assert_near(r.first_iops, 80);
	assert_near(r.first_share, 0);
	assert_int_equal(recovery_figures(y, 0, 0, 100, &r), -1);
}

/*
 * The whole run's IOPS is the run's own: its I/Os over its time, as its
 * line's write_iops. A recovered drive's run of 8.5 s, its first half
 * second at 200 IOPS (100 I/Os) and then the series' eight whole seconds
 * of y: 570 I/Os in 8.5 s. The series leaves out that half second, the
 * fastest: its mean (58.75) is below the run's 67.06.
 */
static void
test_recovery_whole_run(void **state)
{
	const double		y[8] = { 90, 80, 70, 60, 50, 40, 40, 40 };
	const double		run = (100.0 + 470.0) / 8.5;
	struct recovery_figures	r;

	(void)state;
	assert_int_equal(recovery_figures(y, 8, run, 100, &r), 0);
	assert_near(r.all_iops, run);
	assert_near(r.all_share, run / 100);
	assert_near(r.first_iops, 70);		/* the series' first seconds */
	assert_int_equal(recovery_figures(y, 8, NAN, 100, &r), 0);
	assert_near(r.all_iops, 58.75);		/* no count: the series' */
}

/* A recovered drive's I/Os by time t (s since its run began): 10000 a
 * second for its first second, then 2000 (idle gave back a second's
 * worth). */
static double
recovered_ios(double t)
{
	return t <= 1 ? 10000 * t : 10000 + 2000 * (t - 1);
}

/*
 * Its series from the main loop's ticks on the whole seconds of the
 * clock, the run begun `phase` s after one: from the run's start, not
 * from the first tick after it. The first figure is its I/Os up to the
 * tick the first second is due at, over that time; the series' seconds
 * hold all of the run's I/Os to its last tick.
 */
static void
series_of(double phase, size_t first_tick, double first)
{
	struct series_clock	c;
	double			cnt[SERIES_NCOUNT] = { 0, 0 }, rate[SERIES_NCOUNT];
	double			y[16], sum = 0, t;
	uint64_t		t0 = 10 * 1000000000ULL + (uint64_t)(phase * 1e9);
	size_t			n = 0, k, tick;

	series_clock_start(&c, t0, cnt);
	for (tick = 10; tick <= 16; tick++) {	/* the run ends at 16.5 s */
		t = (double)tick - 10 - phase;
		cnt[0] = t > 0 ? recovered_ios(t) : 0;
		cnt[1] = cnt[0] * 4096;
		k = series_clock_tick(&c, tick * 1000000000ULL, cnt, rate);
		if (tick < first_tick)
			assert_int_equal(k, 0);
		for (; k > 0; k--) {
			assert_near(rate[1], rate[0] * 4096);
			y[n++] = rate[0];
		}
	}
	assert_near(y[0], first);
	/* every second but the first is the ticks' own */
	for (k = 1; k < n; k++)
		sum += y[k];
	assert_near(sum + y[0] * (11 - 10 - phase + (first_tick - 11)),
	    recovered_ios(16 - 10 - phase));
	assert_int_equal(n, (size_t)llround(16 - 10 - phase));
}

static void
test_series_start(void **state)
{
	(void)state;
	/* begun 0.3 s before a tick: too little for a second; its I/Os
	 * (3000) counted in the next: 10000 + 0.3 s at 2000 over 1.3 s */
	series_of(0.7, 12, (10000 + 600) / 1.3);
	/* begun 0.6 s before one: that 0.6 s is the first second */
	series_of(0.4, 11, 10000);
}

static void
test_refused(void **state)
{
	double			y[60];
	struct degrade_figures	f;
	size_t			i;

	(void)state;
	for (i = 0; i < 60; i++)
		y[i] = 1000;
	assert_int_equal(degrade_figures(y, 59, DEGRADE_ROUND_S, &f), -1);
	assert_int_equal(degrade_figures(y, 60, DEGRADE_ROUND_S, &f), 0);
	assert_near(f.initial_iops, 1000);
	assert_false(f.steady);		/* one round is no window */
	y[30] = NAN;
	assert_int_equal(degrade_figures(y, 60, DEGRADE_ROUND_S, &f), -1);
	y[30] = -1;
	assert_int_equal(degrade_figures(y, 60, DEGRADE_ROUND_S, &f), -1);
}

/*
 * A drive that heats up and throttles (like the reviews' drive at 70 C):
 * 2000 MB/s for 100 s while it warms 1 C a second from 40 C, then 800
 * MB/s at 70 C; the counters grow at second 100.
 */
static void
test_thermal(void **state)
{
	double			 bps[300], temp[300];
	struct thermal_figures	 f;
	size_t			 i;

	(void)state;
	for (i = 0; i < 300; i++) {
		bps[i] = i < 100 ? 2e9 : 8e8;
		temp[i] = i < 30 ? 40 + (double)i : 70;
	}
	temp[5] = -1;			/* a second without a reading */
	thermal_figures(bps, temp, 300, 100, &f);
	assert_float_equal(f.peak_c, 70, 1e-9);
	assert_float_equal(f.before_bps, 2e9, 1);
	assert_float_equal(f.after_bps, 8e8, 1);
	thermal_figures(bps, temp, 300, -1, &f);	/* never throttled */
	assert_float_equal(f.before_bps, (100 * 2e9 + 200 * 8e8) / 300, 1);
	assert_float_equal(f.after_bps, 0, 1e-9);
	for (i = 0; i < 300; i++)
		temp[i] = -1;		/* no temperature at all */
	thermal_figures(bps, temp, 300, 1000, &f);
	assert_float_equal(f.peak_c, -1, 1e-9);
	assert_float_equal(f.after_bps, 0, 1e-9);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay),
		cmocka_unit_test(test_never),
		cmocka_unit_test(test_round_length),
		cmocka_unit_test(test_moving_avg),
		cmocka_unit_test(test_recovery),
		cmocka_unit_test(test_recovery_whole_run),
		cmocka_unit_test(test_series_start),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_thermal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
