/* slc.c: the write cache of a drive, from a write pass's timeline. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "slc.h"

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Steps of a fraction of n, at least SLC_MIN_STEPS, at most n. */
static size_t
steps_of(size_t n, double frac)
{
	size_t	k = (size_t)ceil(frac * (double)n);

	if (k < SLC_MIN_STEPS)
		k = SLC_MIN_STEPS;
	return k < n ? k : n;
}

/* The median of v[0..k) (k >= 1), sorted in place. */
static double
median(double *v, size_t k)
{
	qsort(v, k, sizeof(*v), cmp_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/* A pass's steps: each one's speed and time, time before each. */
struct steps {
	const double	*bps;
	const double	*dur;		/* seconds of step i */
	const double	*tt;		/* seconds before step i (n + 1) */
	double		*slow;		/* seconds in steps below thr before i */
	size_t		*runs;		/* longest run not below thr from i */
	size_t		 n;
	uint64_t	 step;
	size_t		 win;		/* steps that hold a jump (1: none) */
	const uint64_t	*t;		/* the timeline */
};

static double
span_rate(const struct steps *p, size_t a, size_t b)
{
	double	s = p->tt[b] - p->tt[a];

	return s > 0 ? (double)(b - a) * (double)p->step / s : 0;
}

/* Is most of the time of steps [a, b) spent below the threshold? */
static int
slow_most(const struct steps *p, size_t a, size_t b)
{
	return 2 * (p->slow[b] - p->slow[a]) > p->tt[b] - p->tt[a];
}

/*
 * Is most of the time below the threshold from step i to each step of
 * the next w? A pause (one slow step, or a few) followed by steps at the
 * speed before it is no drop, even when a drop comes within w after it.
 */
static int
stays_slow(const struct steps *p, size_t i, size_t w)
{
	size_t	x;

	for (x = i + 1; x <= i + w; x++)
		if (!slow_most(p, i, x))
			return 0;
	return 1;
}

/* The end of the round of completions that step j ended in. */
static size_t
round_end(const struct steps *p, size_t j)
{
	size_t	k;

	for (k = j + 1; k < p->n && p->t[k + 1] == p->t[j + 1]; k++)
		;
	return k;
}

/*
 * Step i's speed, or where a jump (two or more steps in one round) comes
 * within `win` steps after i's own round, the rate from i to that jump's
 * end: a step held back is no slower than the jump after it is fast.
 */
static double
held_rate(const struct steps *p, size_t i)
{
	size_t	j, k, lim = i + p->win < p->n ? i + p->win : p->n;

	for (j = round_end(p, i); j < lim; j = k)
		if ((k = round_end(p, j)) - j > 1)
			return span_rate(p, i, k);
	return p->bps[i];
}

/*
 * Is step i of [a + 1, n - w] a knee: below the threshold, and so up to
 * the end of a jump soon after it (held_rate: a step held back is no
 * knee), after which most of the time up to each of the next `w` steps,
 * and of the rest of the pass, is spent below it, and the pass after it
 * is slower than [a, i) by SLC_KNEE_FRAC? A slow spell the pass recovers
 * from is no knee however long; nor is a drop in the last `w` steps, with
 * too little pass left to show that it lasts (a pass's tail is often
 * slow for other reasons: the last flush, the host's writeback); nor a
 * start whose few steps came in a burst (a small pass's steps, shorter
 * than what is in flight, can end many in one round) and
 * made its median too high; nor is one whose fast stretch before it is
 * no longer than one after it (stalls that come from the pass's start
 * on: the stretch before the first is no cache).
 */
static int
is_knee(const struct steps *p, size_t a, size_t w, double thr, size_t i)
{
	if (!(p->bps[i] < thr) || !(held_rate(p, i) < thr))
		return 0;
	return stays_slow(p, i, w) && slow_most(p, i, p->n) &&
	    p->runs[i] < i - a &&
	    span_rate(p, i, p->n) < SLC_KNEE_FRAC * span_rate(p, a, i);
}

/*
 * Is most of the time of steps [a, b) (b past the pass: to its end) in
 * stalls, steps below `stall`?
 */
static int
stalls_most(const struct steps *p, size_t a, size_t b, double stall)
{
	double	in = 0;
	size_t	i;

	if (b > p->n)
		b = p->n;
	for (i = a; i < b; i++)
		if (p->bps[i] < stall)
			in += p->dur[i];
	return 2 * in > p->tt[b] - p->tt[a];
}

/*
 * The knee from knee i: where i is a stall (below SLC_STALL_FRAC of the
 * start, a tenth of thr / SLC_KNEE_FRAC) with fast steps after it, and
 * the first slow step after them, within `w` of i, is a knee that is no
 * stall (a stall at each, the fast steps between at the level's speed:
 * a cache folding, whose first stall is its end), that one: a pause of
 * the host's shortly before a level's end, long enough to outweigh the
 * fast steps between, is not where the speed fell. Unless stalls hold
 * most of the time of the `w` steps from that slow step: then i was the
 * first of a cache's folds, and the slow step the host's, in a gust.
 */
static size_t
past_pause(const struct steps *p, size_t a, size_t w, double thr,
    size_t i)
{
	double	stall = SLC_STALL_FRAC * thr / SLC_KNEE_FRAC;
	size_t	j = i, lim = i + w < p->n - w ? i + w : p->n - w;

	while (p->bps[j] < stall && j + 1 <= lim && !(p->bps[j + 1] < thr)) {
		for (j++; j <= lim && !(p->bps[j] < thr); j++)
			;
		if (j > lim || !is_knee(p, a, w, thr, j))
			return i;
		if (!(p->bps[j] < stall))
			return stalls_most(p, j, j + w, stall) ? i : j;
	}
	return i;
}

/* The first knee of [a + 1, n - w] (is_knee, past_pause); n if none. */
static size_t
find_knee(const struct steps *p, size_t a, size_t w, double thr)
{
	size_t	i;

	for (i = a + 1; i + w <= p->n; i++)
		if (is_knee(p, a, w, thr, i))
			return past_pause(p, a, w, thr, i);
	return p->n;
}

/*
 * Steps that ended at the same moment (one round of completions took them
 * all) share the time since the step before them ended: each gets their
 * speed together, not one an instant and the others nothing.
 */
int
slc_step_speeds(const uint64_t *t, size_t n, uint64_t step, double *bps)
{
	size_t	i, j, k;

	if (t[n] <= t[0])
		return -1;
	for (i = 0; i < n; i = j) {
		if (t[i + 1] < t[i])
			return -1;
		for (j = i + 1; j < n && t[j + 1] == t[i + 1]; j++)
			;
		/* steps i..j-1 ended at t[i + 1]; step i began at t[i] */
		for (k = i; k < j; k++)
			/* within the clock's resolution: as fast as one ns */
			bps[k] = (double)step * (double)(j - i) * 1e9 /
			    (double)(t[i + 1] > t[i] ? t[i + 1] - t[i] : 1);
	}
	return 0;
}

/* The time prefix of the steps below thr (slow[0..n]), and from each
 * step the longest run of steps not below it (runs[0..n]). */
static void
by_threshold(struct steps *p, double thr)
{
	size_t	i, run = 0;

	p->slow[0] = 0;
	for (i = 0; i < p->n; i++)
		p->slow[i + 1] = p->slow[i] + (p->bps[i] < thr ? p->dur[i] : 0);
	p->runs[p->n] = 0;
	for (i = p->n; i-- > 0;) {
		run = p->bps[i] < thr ? 0 : run + 1;
		p->runs[i] = run > p->runs[i + 1] ? run : p->runs[i + 1];
	}
}

/* The median speed of steps [a, b), b > a. */
static double
median_of(const struct steps *p, size_t a, size_t b, double *tmp)
{
	memcpy(tmp, p->bps + a, (b - a) * sizeof(*tmp));
	return median(tmp, b - a);
}

/*
 * The pace of the m steps from a: their median speed; or, in a pass whose
 * steps ended in jumps, the median rate from a to each of the m steps
 * from the `win`-th on. After a hold, the many steps done meanwhile end
 * at once, each of them as fast as the jump was short; the median of
 * such steps is of the jumps, and a stretch that begins after a hold
 * whose steps came in more than one round has part of its jump without
 * its time. From a, every jump comes with the hold before it.
 */
static double
pace(const struct steps *p, size_t a, size_t m, double *tmp)
{
	size_t	i, b;

	if (p->win <= 1)
		return median_of(p, a, a + m, tmp);
	for (i = 0; i < m; i++) {
		b = a + p->win + i;
		tmp[i] = span_rate(p, a, b < p->n ? b : p->n);
	}
	return median(tmp, m);
}

/*
 * A level's speed from its start a, its first windows m steps each: in a
 * pass of steps one by one, the highest median of the first
 * SLC_START_WINDOWS windows (not past the pass's end), so that the host
 * slowing a level's first few milliseconds (another drive starting on
 * the same CPUs) does not take the level for slower than it is and miss
 * the drop to the next; a level shorter than a window is no slower for
 * it, and the windows after it are slower. Where steps came in jumps,
 * pace()'s rate from a: a window beginning after a hold would have the
 * jump without its time.
 */
static double
level_pace(const struct steps *p, size_t a, size_t m, double *tmp)
{
	double	best = 0, v;
	size_t	j;

	if (p->win > 1)
		return pace(p, a, m, tmp);
	for (j = 0; j < SLC_START_WINDOWS && a + (j + 1) * m <= p->n; j++) {
		v = median_of(p, a + j * m, a + (j + 1) * m, tmp);
		if (v > best)
			best = v;
	}
	return best;
}

/* Twice the most steps that ended in one round of those that began
 * before step b (1: never more than one). */
static size_t
jump_steps(const struct steps *p, size_t b)
{
	size_t	i, j, most = 1;

	for (i = 0; i < b && i < p->n; i = j) {
		j = round_end(p, i);
		if (j - i > most)
			most = j - i;
	}
	return most > 1 ? 2 * most : 1;
}

/* The first step at or after i that begins a round. */
static size_t
round_at(const struct steps *p, size_t i)
{
	size_t	j = 0;

	while (j < i && j < p->n)
		j = round_end(p, j);
	return j;
}

/*
 * The pace of the pass's start (its first windows m steps each): where
 * steps came in jumps, level_pace's from the pass's start; or, where
 * faster, the median pace of the SLC_START_WINDOWS windows after the
 * first, whose window that holds a jump whole is sized on the rounds of
 * the start, not on the pass's largest (a cache folding later ends 30
 * steps in one round; a window that long is most of a short first
 * level). A hold of the host's early in the pass slows every stretch
 * from the start, and one of those windows at most; past the first
 * level they are slower, and the pace from the start stands.
 */
static double
start_pace(const struct steps *p, size_t m, double *tmp)
{
	struct steps	q = *p;
	double		v = level_pace(p, 0, m, tmp), w[SLC_START_WINDOWS];
	size_t		j, s;

	if (p->win <= 1)
		return v;
	q.win = jump_steps(p, p->win + m);
	for (j = 0; j < SLC_START_WINDOWS; j++) {
		s = round_at(&q, q.win + j * m);
		if (s + q.win + m > q.n)
			return v;
		w[j] = pace(&q, s, m, tmp);
	}
	return fmax(v, median(w, SLC_START_WINDOWS));
}

/*
 * Is [a, b) a level of the cache (the first level's pace first_bps, as
 * its start went): steps enough, most of its time within
 * SLC_LEVEL_BAND of its median, and, where that median is the first
 * level's speed (not below SLC_KNEE_FRAC of it: the cache folding, its
 * steps between the folds as fast as before), less than a quarter of it
 * in stalls (steps below SLC_STALL_FRAC of the first level's speed)? A
 * drive's folds take most of the time between them. A slower level's
 * stalls are the host's (a thread kept from a CPU for tens of
 * milliseconds, beside other drives): they take a sliver of a level's
 * time, or on a busy host a quarter, and the level is no less a level.
 */
static int
is_level(const struct steps *p, size_t a, size_t b, double first_bps,
    double *tmp)
{
	double	med, in = 0, stalled = 0, all = p->tt[b] - p->tt[a];
	size_t	i;

	if (b - a < SLC_MIN_STEPS)
		return 0;
	med = median_of(p, a, b, tmp);
	for (i = a; i < b; i++) {
		if (p->bps[i] < SLC_STALL_FRAC * first_bps)
			stalled += p->dur[i];
		if (fabs(p->bps[i] - med) <= SLC_LEVEL_BAND * med)
			in += p->dur[i];
	}
	return 2 * in > all &&
	    (med < SLC_KNEE_FRAC * first_bps || 4 * stalled < all);
}

/*
 * Where the cache ends: the knee from the start's pace, then, when the
 * stretch after it is a level that ends in a knee of its own, that one.
 */
static size_t
cache_end(struct steps *p, double start, double *tmp, size_t *k1)
{
	size_t	w = steps_of(p->n, SLC_STAY_FRAC), k2, m;
	double	s2;

	by_threshold(p, SLC_KNEE_FRAC * start);
	*k1 = find_knee(p, 0, w, SLC_KNEE_FRAC * start);
	if (*k1 >= p->n)
		return p->n;
	m = steps_of(p->n - *k1, SLC_START_FRAC);
	s2 = level_pace(p, *k1, m, tmp);
	by_threshold(p, SLC_KNEE_FRAC * s2);
	k2 = find_knee(p, *k1, w, SLC_KNEE_FRAC * s2);
	if (k2 < p->n && is_level(p, *k1, k2, start, tmp))
		return k2;
	return *k1;
}

/*
 * The stalls after the cache (from step k): gusts, when there are two or
 * more and a quarter of the steps after the cache went at its speed. A
 * stall is a run of rounds of completions (a step, or the steps that
 * ended together) that took longer than their bytes at the cache's speed
 * by more than a step below SLC_STALL_FRAC of it would (a stall across a
 * step's end is one); its time, less the time its bytes take at the
 * cache's speed. By rounds, not steps: a stall followed by a jump (steps
 * that completed during it, reaped at its end)
 * shares its time with them, each of them fast, the round slow. The median is the drive's stall; the
 * longest may have met a flush as well. In gusts, the count is of stalls
 * of that length the runs hold: one shorter than half of it is the host's (a
 * pause of a thread), none of the drive's; one as long as several counts
 * as that many: at a queue deeper than the stretch between two, a step
 * held back past the next stall hides the gust between them (it comes in
 * the jump after), and the two stalls meet in the timeline.
 */
static void
gusts(const struct steps *p, size_t k, double *tmp,
    struct slc_estimate *out)
{
	double		one = (double)p->step / out->level_bps[0], ex;
	double		run = 0, all = 0;
	size_t		i, j, nfast = 0;
	unsigned	runs;

	for (i = k; i <= p->n; i = j) {
		j = i < p->n ? round_end(p, i) : p->n + 1;
		/* a round's time beyond its bytes at the cache's speed */
		ex = i < p->n ? p->tt[j] - p->tt[i] - (double)(j - i) * one : 0;
		if (ex > (1 / SLC_STALL_FRAC - 1) * one) {
			run += ex;
			continue;
		}
		if (run > 0) {
			tmp[out->stalls++] = run;
			all += run;
			run = 0;
		}
		if (i < p->n && p->bps[i] >= SLC_KNEE_FRAC * out->level_bps[0])
			nfast += j - i;
	}
	out->stall_share = p->tt[p->n] > p->tt[k] ?
	    all / (p->tt[p->n] - p->tt[k]) : 0;
	out->stall_s = out->stalls ? median(tmp, out->stalls) : 0;
	out->gusts = out->stalls >= 2 && 4 * nfast >= p->n - k;
	if (!out->gusts)
		return;
	for (i = 0, runs = out->stalls, out->stalls = 0; i < runs; i++)
		out->stalls += (unsigned)lround(tmp[i] / out->stall_s);
}

/* The figures of a cache ending at step k, its first level at k1 (k == n:
 * none). */
static void
fill(const struct steps *p, size_t k, size_t k1, double *tmp,
    struct slc_estimate *out)
{
	out->knee = k < p->n;
	out->cache_bytes = out->knee ? (uint64_t)k * p->step : 0;
	out->avg_bps = span_rate(p, 0, p->n);
	out->in_bps = out->knee ? span_rate(p, 0, k) : out->avg_bps;
	out->post_bps = out->knee ? span_rate(p, k, p->n) : 0;
	if (!out->knee)
		return;
	out->levels = k1 < k ? 2 : 1;
	out->level_bytes[0] = (uint64_t)k1 * p->step;
	out->level_bps[0] = span_rate(p, 0, k1);
	if (out->levels == 2) {
		out->level_bytes[1] = (uint64_t)(k - k1) * p->step;
		out->level_bps[1] = span_rate(p, k1, k);
	}
	gusts(p, k, tmp, out);
}

int
slc_estimate(const uint64_t *t, size_t n, uint64_t step_bytes,
    struct slc_estimate *out)
{
	double		*bps, *tmp, *dur, *tt, *slow;
	size_t		*runs;
	struct steps	 p;
	size_t		 i, k, k1;
	int		 rc = -1;

	memset(out, 0, sizeof(*out));
	if (n < 2 * SLC_MIN_STEPS || n > SLC_MAX_STEPS || step_bytes == 0)
		return -1;
	bps = malloc(n * sizeof(*bps));
	tmp = malloc(n * sizeof(*tmp));
	dur = malloc(n * sizeof(*dur));
	tt = malloc((n + 1) * sizeof(*tt));
	slow = malloc((n + 1) * sizeof(*slow));
	runs = malloc((n + 1) * sizeof(*runs));
	if (bps == NULL || tmp == NULL || dur == NULL || tt == NULL ||
	    slow == NULL || runs == NULL || slc_step_speeds(t, n, step_bytes, bps) == -1)
		goto out;
	tt[0] = 0;
	for (i = 0; i < n; i++) {
		dur[i] = (double)step_bytes / bps[i];
		tt[i + 1] = tt[i] + dur[i];
	}
	p = (struct steps){ bps, dur, tt, slow, runs, n, step_bytes, 1, t };
	p.win = jump_steps(&p, n);
	out->start_bps = median_of(&p, 0, steps_of(n, SLC_START_FRAC), tmp);
	k = cache_end(&p, start_pace(&p, steps_of(n, SLC_START_FRAC), tmp),
	    tmp, &k1);
	fill(&p, k, k1, tmp, out);
	rc = 0;
out:
	free(bps);
	free(tmp);
	free(dur);
	free(tt);
	free(slow);
	free(runs);
	return rc;
}
