/*
 * test_slc.c: the write-cache estimate of a pass's timeline finds the
 * knee of a known drop at its step, with the speeds inside and after it;
 * finds none in a flat pass, one with short slow spells, one with a long
 * spell it recovers from, or one whose drop comes too late to last; reads steps ended in one round of
 * completions as sharing its time; follows a gradual fall to where it
 * crosses the threshold; names the whole of a two-level cache with its
 * levels, and not a slower stretch that is no level, nor one as fast as
 * the stretch before it (after a start whose steps came in bursts), nor
 * a step held back before a jump, nor a pause shortly before a level's
 * end; holds the levels of a pass whose start the host slowed, or whose
 * levels it paused; sees the gusts of a
 * cache that folds when full (stalls between stretches at its speed) as
 * such, with the cache before them, every stall counted where they come
 * in rounds of completions; and refuses timelines it cannot read.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "slc.h"

#define N	2000		/* steps of a timeline, as a pass keeps them */
#define STEP	(64ULL << 20)	/* 64 MiB a step: a pass of 125 GiB */
#define GBPS	1e9

/* The timeline of steps of speeds bps[i] (bytes/s), from t = 1 s. */
static uint64_t *
timeline(const double *bps, size_t n)
{
	uint64_t	*t = malloc((n + 1) * sizeof(*t));
	size_t		 i;

	assert_non_null(t);
	t[0] = 1000000000ULL;
	for (i = 0; i < n; i++)
		t[i + 1] = t[i] + (uint64_t)llround((double)STEP * 1e9 / bps[i]);
	return t;
}

/* A speed around v: off by up to +-frac, deterministically. */
static double
noisy(double v, double frac, size_t i)
{
	return v * (1 + frac * sin((double)i * 12.9898));
}

static void
assert_rel(double got, double want, double tol)
{
	if (fabs(got - want) > tol * want)
		fail_msg("%.6g is not within %.1f %% of %.6g", got, tol * 100,
		    want);
}

static struct slc_estimate
estimate(const double *bps, size_t n)
{
	struct slc_estimate	 e;
	uint64_t		*t = timeline(bps, n);

	assert_int_equal(slc_estimate(t, n, STEP, &e), 0);
	free(t);
	return e;
}

/* 3 GB/s for the first 30 %, then 0.8 GB/s: the knee at step 600. */
static void
test_knee_exact(void **state)
{
	double			bps[N];
	struct slc_estimate	e;
	size_t			i;

	(void)state;
	for (i = 0; i < N; i++)
		bps[i] = i < 600 ? 3 * GBPS : 0.8 * GBPS;
	e = estimate(bps, N);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, 600 * STEP);
	assert_rel(e.start_bps, 3 * GBPS, 1e-6);
	assert_rel(e.in_bps, 3 * GBPS, 1e-6);
	assert_rel(e.post_bps, 0.8 * GBPS, 1e-6);
	/* the harmonic mean by bytes: 1 / (0.3 / 3 + 0.7 / 0.8) */
	assert_rel(e.avg_bps, GBPS / (0.3 / 3 + 0.7 / 0.8), 1e-6);
}

/* The same with +-15 % noise on every step: the knee within a step. */
static void
test_knee_noisy(void **state)
{
	double			bps[N];
	struct slc_estimate	e;
	size_t			i;

	(void)state;
	for (i = 0; i < N; i++)
		bps[i] = noisy(i < 600 ? 3 * GBPS : 0.8 * GBPS, 0.15, i);
	e = estimate(bps, N);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, 600 * STEP);
	assert_rel(e.in_bps, 3 * GBPS, 0.05);
	assert_rel(e.post_bps, 0.8 * GBPS, 0.05);
}

/* A flat pass, noisy, and one with a slow step in every 20: no knee. */
static void
test_no_knee(void **state)
{
	double			bps[N];
	struct slc_estimate	e;
	size_t			i;

	(void)state;
	for (i = 0; i < N; i++)
		bps[i] = noisy(2 * GBPS, 0.2, i);
	e = estimate(bps, N);
	assert_false(e.knee);
	assert_int_equal(e.cache_bytes, 0);
	assert_rel(e.in_bps, e.avg_bps, 1e-9);
	assert_true(e.post_bps == 0);
	for (i = 0; i < N; i++)
		bps[i] = i % 20 == 7 || i % 20 == 8 ? 0.1 * GBPS : 2 * GBPS;
	e = estimate(bps, N);
	assert_false(e.knee);
	assert_rel(e.start_bps, 2 * GBPS, 1e-6);
}

/*
 * Slow spells shorter than half the stretch that must follow a knee (5 %
 * of the pass, 100 steps) are none; so is a longer one (60 slow steps
 * within 100) that the pass recovers from. A drop that lasts, with fast
 * blips in it (one step in 10), is one, at its start.
 */
static void
test_stretch(void **state)
{
	double			bps[N];
	struct slc_estimate	e;
	size_t			i;

	(void)state;
	for (i = 0; i < N; i++)
		bps[i] = i >= 1000 && i < 1040 ? 0.5 * GBPS : 2 * GBPS;
	e = estimate(bps, N);
	assert_false(e.knee);
	for (i = 0; i < N; i++)
		bps[i] = i >= 1000 && i < 1060 ? 0.5 * GBPS : 2 * GBPS;
	e = estimate(bps, N);
	assert_false(e.knee);
	for (i = 0; i < N; i++)
		bps[i] = i >= 1000 && i % 10 != 5 ? 0.5 * GBPS : 2 * GBPS;
	e = estimate(bps, N);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, 1000 * STEP);
}

/*
 * Completions in rounds: each round ends 8 steps at once (the steps'
 * times equal), 3 GB/s for the first 600 steps, 0.8 GB/s after. Every
 * step of a round gets the round's speed: the knee at step 600.
 */
static void
test_rounds(void **state)
{
	double			bps[N];
	struct slc_estimate	e;
	uint64_t		*t;
	size_t			i;

	(void)state;
	for (i = 0; i < N; i++)
		bps[i] = i < 600 ? 3 * GBPS : 0.8 * GBPS;
	t = timeline(bps, N);
	for (i = 1; i <= N; i++)	/* the round's end for all its steps */
		t[i] = t[(i + 7) / 8 * 8 < N ? (i + 7) / 8 * 8 : N];
	assert_int_equal(slc_estimate(t, N, STEP, &e), 0);
	free(t);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, 600 * STEP);
	assert_rel(e.start_bps, 3 * GBPS, 1e-6);
	assert_rel(e.post_bps, 0.8 * GBPS, 1e-6);
}

/*
 * A device of one speed whose first 80 steps reached the in-order
 * position unevenly (a step, then seven together a moment later, as a
 * small pass's steps do when more is in flight than a step holds): the
 * start's median is a burst's speed, the rest is at the device's speed,
 * below 0.7 times that median; but the pass is no slower after step 80
 * than before it: no knee.
 */
static void
test_burst_start(void **state)
{
	uint64_t		*t = malloc((N + 1) * sizeof(*t));
	const uint64_t		 round = 1100000, step_ns = round / 8;
	struct slc_estimate	 e;
	size_t			 i;

	(void)state;
	assert_non_null(t);
	t[0] = 1000000000ULL;
	for (i = 1; i <= 80; i++)	/* 1 step after 1 ms, 7 after 0.1 more */
		t[i] = t[0] + (i - 1) / 8 * round + (i % 8 == 1 ? 1000000 :
		    round);
	for (; i <= N; i++)
		t[i] = t[i - 1] + step_ns;
	assert_int_equal(slc_estimate(t, N, STEP, &e), 0);
	free(t);
	assert_true(e.start_bps > 5 * (double)STEP * 1e9 / (double)step_ns);
	assert_false(e.knee);
}

/*
 * A two-level cache written at a queue depth that holds more than a step:
 * the first 80 steps reach the in-order position unevenly (a step, then
 * seven together a moment later, as in test_burst_start), the rest at
 * the device's speed: one step each 137.5 us up to step 640, 275 us up
 * to 1280, then 1.1 ms. The start's median is a burst's speed, so the
 * steps after the bursts, at the first level's speed, are below 0.7 times
 * it, and the pass after them is much slower (the rest of the cache and
 * what follows): a knee by the rule, with a "level" after it as fast as
 * the stretch before it. That is no level of the cache: the first level
 * goes on to the real drop, and the cache is both levels, 1280 steps.
 */
static void
test_burst_levels(void **state)
{
	uint64_t		*t = malloc((N + 1) * sizeof(*t));
	const uint64_t		 round = 1100000, step_ns = round / 8;
	struct slc_estimate	 e;
	size_t			 i;

	(void)state;
	assert_non_null(t);
	t[0] = 1000000000ULL;
	for (i = 1; i <= 80; i++)	/* 1 step after 1 ms, 7 after 0.1 more */
		t[i] = t[0] + (i - 1) / 8 * round + (i % 8 == 1 ? 1000000 :
		    round);
	for (; i <= N; i++)
		t[i] = t[i - 1] + (i <= 640 ? step_ns : i <= 1280 ?
		    2 * step_ns : 8 * step_ns);
	assert_int_equal(slc_estimate(t, N, STEP, &e), 0);
	free(t);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, 1280 * STEP);
	assert_int_equal(e.levels, 2);
	assert_int_equal(e.level_bytes[0], 640 * STEP);
	assert_int_equal(e.level_bytes[1], 640 * STEP);
	assert_rel(e.level_bps[0], (double)STEP * 1e9 / (double)step_ns, 0.02);
	assert_rel(e.level_bps[1], (double)STEP * 1e9 / (double)step_ns / 2,
	    0.02);
	assert_rel(e.post_bps, (double)STEP * 1e9 / (double)step_ns / 8,
	    0.02);
}

/*
 * The cache of test_burst_levels with a start as a loaded host gives it
 * at a queue depth: step 0 after 3 step times, step 1 held back for 30,
 * then 12 steps in one round 3 step times later and 21 more in the next,
 * 1 step time after it. Stretches that begin after the hold have the
 * jumps without the time they took; from the pass's start they have
 * both: both levels, whole.
 */
static void
test_held_start(void **state)
{
	uint64_t		*t = malloc((N + 1) * sizeof(*t));
	const uint64_t		 step_ns = 137500;
	struct slc_estimate	 e;
	size_t			 i;

	(void)state;
	assert_non_null(t);
	t[0] = 1000000000ULL;
	t[1] = t[0] + 3 * step_ns;
	t[2] = t[1] + 30 * step_ns;
	for (i = 3; i <= 14; i++)
		t[i] = t[2] + 3 * step_ns;
	for (; i <= 35; i++)
		t[i] = t[14] + step_ns;
	for (; i <= N; i++)
		t[i] = t[i - 1] + (i <= 640 ? step_ns : i <= 1280 ?
		    2 * step_ns : 8 * step_ns);
	assert_int_equal(slc_estimate(t, N, STEP, &e), 0);
	free(t);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, 1280 * STEP);
	assert_int_equal(e.levels, 2);
	assert_int_equal(e.level_bytes[0], 640 * STEP);
}

/*
 * The same cache, steps in order but for one held back near the first
 * level's end: step 630 ends when step 635 would have, and 631 to 640 (the
 * last of them the second level's first) in one round with 640. The held
 * step is slower than the threshold, and so is the stretch after it (the
 * second level), but it is no knee: the jump after it makes up for it.
 * The first level ends at the round's end, one step late, not ten early.
 */
static void
test_held_step(void **state)
{
	uint64_t		*t = malloc((N + 1) * sizeof(*t));
	const uint64_t		 step_ns = 137500;
	struct slc_estimate	 e;
	size_t			 i;

	(void)state;
	assert_non_null(t);
	t[0] = 1000000000ULL;
	for (i = 1; i <= N; i++)
		t[i] = t[i - 1] + (i <= 640 ? step_ns : i <= 1280 ?
		    2 * step_ns : 8 * step_ns);
	t[631] = t[636];
	for (i = 632; i < 641; i++)
		t[i] = t[641];
	assert_int_equal(slc_estimate(t, N, STEP, &e), 0);
	free(t);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, 1280 * STEP);
	assert_int_equal(e.levels, 2);
	assert_int_equal(e.level_bytes[0], 641 * STEP);
	assert_rel(e.level_bps[0], (double)STEP * 1e9 / (double)step_ns, 0.02);
}

/*
 * A drop in the last steps: a knee while the stretch that shows it lasts
 * (SLC_STAY_FRAC of the pass) is left, none in a shorter tail.
 */
static void
test_late_drop(void **state)
{
	double			bps[N];
	struct slc_estimate	e;
	size_t			i, w = (size_t)(SLC_STAY_FRAC * N);

	(void)state;
	for (i = 0; i < N; i++)
		bps[i] = i < N - w ? 2 * GBPS : 0.5 * GBPS;
	e = estimate(bps, N);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, (N - w) * STEP);
	for (i = 0; i < N; i++)
		bps[i] = i < N - w + 1 ? 2 * GBPS : 0.5 * GBPS;
	e = estimate(bps, N);
	assert_false(e.knee);
	for (i = 0; i < N; i++)
		bps[i] = i < N - 10 ? 2 * GBPS : 0.5 * GBPS;
	e = estimate(bps, N);
	assert_false(e.knee);
}

/*
 * A linear fall from 2 to 1 GB/s, no cliff: no knee before the speed
 * passes 0.7 times the start's, and none before the rest of the pass is
 * 0.7 times as fast as what came before it: the first step where both
 * hold (the speed after the knee then just below 0.7 times the speed
 * before it).
 */
static void
test_gradual(void **state)
{
	double			bps[N], t_in, t_post;
	struct slc_estimate	e;
	size_t			i, k, cross;

	(void)state;
	for (i = 0; i < N; i++)
		bps[i] = 2 * GBPS - GBPS * (double)i / (N - 1);
	e = estimate(bps, N);
	assert_true(e.knee);
	/* the start's median: the middle of the first 40 steps */
	cross = (size_t)ceil((2 * GBPS - 0.7 * e.start_bps) / GBPS * (N - 1));
	assert_in_range(cross, 1190, 1215);
	k = (size_t)(e.cache_bytes / STEP);
	assert_true(k >= cross);
	assert_true(e.post_bps < 0.7 * e.in_bps);
	/* one step earlier the rest was not yet slow enough */
	for (t_in = 0, i = 0; i < k - 1; i++)
		t_in += (double)STEP / bps[i];
	for (t_post = 0; i < N; i++)
		t_post += (double)STEP / bps[i];
	assert_true((double)(N - k + 1) / t_post >=
	    0.7 * (double)(k - 1) / t_in);
}

/*
 * Full speed (3 GB/s) for 500 steps, 1.5 GB/s for 500, then 0.4 GB/s: a
 * cache of 1000 steps in two levels. With the second stretch jumping
 * between 2 and 0.9 GB/s (no level) the cache is its first 500 steps.
 */
static void
test_two_levels(void **state)
{
	double			bps[N];
	struct slc_estimate	e;
	size_t			i;

	(void)state;
	for (i = 0; i < N; i++)
		bps[i] = noisy(i < 500 ? 3 * GBPS : i < 1000 ? 1.5 * GBPS :
		    0.4 * GBPS, 0.05, i);
	e = estimate(bps, N);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, 1000 * STEP);
	assert_int_equal(e.levels, 2);
	assert_int_equal(e.level_bytes[0], 500 * STEP);
	assert_int_equal(e.level_bytes[1], 500 * STEP);
	assert_rel(e.level_bps[0], 3 * GBPS, 0.02);
	assert_rel(e.level_bps[1], 1.5 * GBPS, 0.02);
	assert_rel(e.post_bps, 0.4 * GBPS, 0.02);
	assert_false(e.gusts);
	/* a host's hiccup in the second level (one step at a twentieth of
	 * the first level's speed): still two levels */
	bps[700] = 0.15 * GBPS;
	e = estimate(bps, N);
	assert_int_equal(e.levels, 2);
	assert_int_equal(e.cache_bytes, 1000 * STEP);
	for (i = 500; i < 1000; i++)
		bps[i] = i / 25 % 2 ? 2 * GBPS : 0.9 * GBPS;
	e = estimate(bps, N);
	assert_true(e.knee);
	assert_int_equal(e.levels, 1);
	assert_int_equal(e.cache_bytes, 500 * STEP);
}

/*
 * The SM2258XT-like pass of tests/known/t_cache_levels.sh at QD1, in
 * 1024 steps: two cache levels of 171 steps each at 146 and 89 (MB/s,
 * here GB/s), then direct writes at 26 up to three quarters of the pass,
 * then 8; every step +-10 %. The host slow for the first 3 % of the pass
 * (two drives starting at once on two CPUs: each step there at 0.6 of its
 * speed) must not lower the start's speed below what the second level
 * falls under, nor a slower spell at the second level's start (0.35)
 * hide its end:
 * the two levels stay two, and the direct writes after them are no
 * level.
 */
static void
sm2258xt_pass(double *bps, size_t n, const double *spell)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		bps[i] = noisy(i < 171 ? 0.146 * GBPS : i < 342 ?
		    0.089 * GBPS : i < 768 ? 0.026 * GBPS : 0.008 * GBPS,
		    0.10, i);
		if (i >= spell[0] * (double)n && i < spell[1] * (double)n)
			bps[i] *= spell[2];
	}
}

static void
test_slow_start(void **state)
{
	double			bps[1024];
	struct slc_estimate	e;
	double			s;
	size_t			i, k;
	static const double	spells[][3] = {	/* from, to, factor */
		{ 0, 0, 1 }, { 0, 0.03, 0.6 }, { 0.01, 0.05, 0.6 },
		{ 0.17, 0.20, 0.35 },
	};

	(void)state;
	for (k = 0; k < sizeof(spells) / sizeof(spells[0]); k++) {
		sm2258xt_pass(bps, 1024, spells[k]);
		e = estimate(bps, 1024);
		assert_true(e.knee);
		assert_int_equal(e.levels, 2);
		assert_int_equal(e.level_bytes[0], 171 * STEP);
		assert_int_equal(e.cache_bytes, 342 * STEP);
		/* the second level's rate is what its steps took, slowed
		 * or not */
		for (i = 171, s = 0; i < 342; i++)
			s += 1 / bps[i];
		assert_rel(e.level_bps[1], 171 / s, 1e-6);
	}
}

/*
 * The same pass (no slow start) with the host's pauses of a busy CPU (the
 * QD1 thread kept from it for 20 ms at a time): one 25 steps long at the
 * first level's speed 11 steps before its end, which outweighs the fast
 * steps between it and the drop; and four in the second level, each 16
 * steps long at its speed, together over a quarter of its time. The
 * levels still end where the drive's speed fell, and the second is still
 * a level: its steps between the pauses are slower than the first's, so
 * its stalls are no fold.
 */
static void
test_host_pauses(void **state)
{
	static const double	none[3] = { 0, 0, 1 };
	static const size_t	at[] = { 192, 230, 270, 310 };
	double			bps[1024];
	struct slc_estimate	e;
	size_t			i;

	(void)state;
	sm2258xt_pass(bps, 1024, none);
	bps[160] /= 25;
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		bps[at[i]] /= 16;
	e = estimate(bps, 1024);
	assert_true(e.knee);
	assert_int_equal(e.levels, 2);
	assert_int_equal(e.level_bytes[0], 171 * STEP);
	assert_int_equal(e.cache_bytes, 342 * STEP);
	assert_false(e.gusts);
}

/*
 * The two-level cache of test_two_levels with one slow step (a pause of
 * the host's, 0.3 GB/s) 20 steps before the end of each level: what
 * follows each is slow enough (the next level, or after the cache) to
 * hold most of the time of the next 5 % of the pass, but the steps right
 * after it are not: a pause, not a knee; the levels end where they do.
 */
static void
test_pause_before(void **state)
{
	double			bps[N];
	struct slc_estimate	e;
	size_t			i;

	(void)state;
	for (i = 0; i < N; i++)
		bps[i] = i == 480 || i == 980 ? 0.3 * GBPS : i < 500 ?
		    3 * GBPS : i < 1000 ? 1.5 * GBPS : 0.4 * GBPS;
	e = estimate(bps, N);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, 1000 * STEP);
	assert_int_equal(e.levels, 2);
	assert_int_equal(e.level_bytes[0], 500 * STEP);
	assert_int_equal(e.level_bytes[1], 500 * STEP);
}

/*
 * A cache of 300 steps at 2 GB/s that folds when full: from then on a
 * stall of 2 s (writes stop while 40 steps' worth moves to TLC at a
 * fraction of the cache's speed), then 40 steps at the cache's speed,
 * and again. The cache ends at the first stall; the rest is gusts, each
 * stall seen whole.
 */
static void
test_gusts(void **state)
{
	double			bps[N], stall = 2;
	struct slc_estimate	e;
	size_t			i, nstall = 0;

	(void)state;
	for (i = 0; i < N; i++) {
		bps[i] = 2 * GBPS;
		if (i >= 300 && (i - 300) % 41 == 0) {
			bps[i] = (double)STEP / (stall + STEP / (2 * GBPS));
			nstall++;
		}
	}
	e = estimate(bps, N);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, 300 * STEP);
	assert_int_equal(e.levels, 1);
	assert_rel(e.in_bps, 2 * GBPS, 1e-6);
	assert_true(e.gusts);
	assert_int_equal(e.stalls, nstall);
	assert_rel(e.stall_s, stall, 1e-6);
	assert_rel(e.stall_share, stall / (stall + 41 * STEP / (2 * GBPS)),
	    0.03);
	/* the host slows the last step but one of the gust after the
	 * first fold (to a quarter of the cache's speed: no stall, yet
	 * below the knee's threshold, and the fold right after it makes it
	 * look like a drop that lasts): the cache still ends at the first
	 * fold */
	bps[300 + 41 + 39] = 0.5 * GBPS;
	e = estimate(bps, N);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, 300 * STEP);
	assert_true(e.gusts);
	/* the same stalls from the pass's start: no cache, no gusts */
	for (i = 0; i < N; i++)
		bps[i] = i % 41 == 20 ? (double)STEP / stall : 2 * GBPS;
	e = estimate(bps, N);
	assert_false(e.knee);
	assert_false(e.gusts);
}

/*
 * The folding cache of test_gusts written at a queue deeper than a step:
 * a stall's step reaches the in-order position with the 7 after it, which
 * completed during the stall (one round: each of the 8 as fast as the
 * round was long, above a tenth of the cache's speed), then 33 steps at
 * the cache's speed; and every fourth time a step held back past the next
 * stall hides the gust between two (the second stall's round ends all 40
 * of its steps). Each stall is still seen: by rounds, the two that meet
 * as one twice as long. A pause of the host's in a gust (0.5 s, a quarter
 * of a stall, but slower than a tenth of the cache's speed) is none.
 */
static void
test_gusts_deep(void **state)
{
	uint64_t		*t = malloc((N + 1) * sizeof(*t));
	const double		 one = STEP / (2 * GBPS), stall = 2;
	struct slc_estimate	 e;
	size_t			 i, p, g, nstall = 0;

	(void)state;
	assert_non_null(t);
	t[0] = 1000000000ULL;
	for (i = 1; i <= 300; i++)
		t[i] = t[i - 1] + (uint64_t)llround(one * 1e9);
	for (p = 0; i + 41 <= N; p++) {
		/* rounds of the period: (steps, seconds) */
		double	r[34][2], sec;
		size_t	nr = 0, k;

		if (p % 4 == 3) {
			r[nr][0] = 1, r[nr++][1] = stall + one;
			r[nr][0] = 40, r[nr++][1] = stall + 40 * one;
			nstall += 2;
		} else {
			r[nr][0] = 8, r[nr++][1] = stall + 8 * one;
			for (k = 0; k < 33; k++)	/* a pause of the host's */
				r[nr][0] = 1, r[nr++][1] = one +
				    (p % 4 == 1 && k == 20 ? 0.5 : 0);
			nstall++;
		}
		for (k = 0; k < nr; k++) {
			sec = r[k][1];
			for (g = 0; g < (size_t)r[k][0]; g++, i++)
				t[i] = t[i - 1 - g] + (uint64_t)llround(sec * 1e9);
		}
	}
	for (; i <= N; i++)
		t[i] = t[i - 1] + (uint64_t)llround(one * 1e9);
	assert_int_equal(slc_estimate(t, N, STEP, &e), 0);
	free(t);
	assert_true(e.knee);
	assert_int_equal(e.cache_bytes, 300 * STEP);
	assert_true(e.gusts);
	assert_int_equal(e.stalls, nstall);
	assert_rel(e.stall_s, stall, 0.01);
}

/*
 * A QD32 pass of 128 KiB steps on the SM2258XT-like drive 90 % full as
 * ssdtortured timed it (t_cache_full90): the queue filling first (the
 * first 23 steps in 20 ms, 18 of them in one round), a level of 86
 * steps at 0.755 ms a step, one of 85 at 1.41 ms, then 5.3 ms a step;
 * and the host holding it 15 ms once early on (at step 23 or 40). Both
 * levels are still found: the pace of the start is not the first
 * round's (the queue filling is no speed of the drive's), nor is it
 * taken from one window only, which a hold of the host's slows.
 */
static void
test_qd32_levels(void **state)
{
	enum { NS = 512 };
	static const uint32_t	fill[23] = { 1509, 650, 5295, 0, 0, 12831 };
	static const size_t	holds[] = { 0, 23, 40 };
	uint64_t		t[NS + 1];
	struct slc_estimate	e;
	size_t			h, i;

	(void)state;
	for (h = 0; h < sizeof(holds) / sizeof(holds[0]); h++) {
		t[0] = 1000000000ULL;
		for (i = 0; i < NS; i++) {
			t[i + 1] = t[i] + 1000ULL * (i < 23 ? fill[i] :
			    i < 86 ? 755 : i < 171 ? 1410 : 5300);
			if (holds[h] != 0 && i == holds[h])
				t[i + 1] += 15000000ULL;
		}
		assert_int_equal(slc_estimate(t, NS, 131072, &e), 0);
		assert_true(e.knee);
		assert_int_equal(e.cache_bytes, 171 * 131072ULL);
		if (e.levels != 2)
			fail_msg("hold at step %zu: %u level(s)", holds[h],
			    e.levels);
		assert_int_equal(e.level_bytes[0], 86 * 131072ULL);
	}
}

/* What it cannot read: too few or too many steps, a pass of no time,
 * times that go back, steps of no bytes. */
static void
test_refused(void **state)
{
	uint64_t		t[8] = { 5, 6, 7, 8, 9, 10, 11, 12 };
	uint64_t		flat[8] = { 5, 5, 5, 5, 5, 5, 5, 5 };
	uint64_t		back[8] = { 5, 6, 7, 6, 9, 10, 11, 12 };
	struct slc_estimate	e;

	(void)state;
	assert_int_equal(slc_estimate(t, 5, STEP, &e), -1);
	assert_int_equal(slc_estimate(t, 6, STEP, &e), 0);
	assert_false(e.knee);
	assert_int_equal(slc_estimate(t, SLC_MAX_STEPS + 1, STEP, &e), -1);
	assert_int_equal(slc_estimate(flat, 7, STEP, &e), -1);
	assert_int_equal(slc_estimate(back, 7, STEP, &e), -1);
	assert_int_equal(slc_estimate(t, 7, 0, &e), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knee_exact),
		cmocka_unit_test(test_knee_noisy),
		cmocka_unit_test(test_no_knee),
		cmocka_unit_test(test_stretch),
		cmocka_unit_test(test_late_drop),
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_burst_start),
		cmocka_unit_test(test_burst_levels),
		cmocka_unit_test(test_held_start),
		cmocka_unit_test(test_held_step),
		cmocka_unit_test(test_gradual),
		cmocka_unit_test(test_two_levels),
		cmocka_unit_test(test_slow_start),
		cmocka_unit_test(test_host_pauses),
		cmocka_unit_test(test_pause_before),
		cmocka_unit_test(test_gusts),
		cmocka_unit_test(test_gusts_deep),
		cmocka_unit_test(test_qd32_levels),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
