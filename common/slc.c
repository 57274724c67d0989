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

static double
rate(uint64_t bytes, uint64_t t0, uint64_t t1)
{
	return t1 > t0 ? (double)bytes * 1e9 / (double)(t1 - t0) : 0;
}

/* Is the pass after step k slower than before it, as a knee must be? */
static int
drop_holds(const uint64_t *t, size_t n, uint64_t step, size_t k)
{
	return rate((uint64_t)(n - k) * step, t[k], t[n]) <
	    SLC_KNEE_FRAC * rate((uint64_t)k * step, t[0], t[k]);
}

/*
 * The first step below the threshold (below[i + 1] > below[i]) with bytes
 * before it, after which most of the steps of the next `w`, and most of
 * the rest of the pass, are below it, and the pass after it is slower
 * than before it by the same factor; n when there is none. A slow spell
 * the pass recovers from is no knee however long; nor is a drop in the
 * last `w` steps, with too little pass left to show that it lasts (a
 * pass's tail is often slow for other reasons: the last flush, the
 * host's writeback); nor a start whose few steps came in a burst (a
 * small pass's steps, shorter than what is in flight, reach the in-order
 * position in rounds) and made its median too high. below[i]: how many
 * of the steps before i are below.
 */
static size_t
find_knee(const uint64_t *t, size_t n, uint64_t step, size_t w,
    const size_t *below)
{
	size_t	i;

	for (i = 1; i + w <= n; i++) {
		if (below[i + 1] == below[i])
			continue;	/* step i is not below */
		if (2 * (below[i + w] - below[i]) > w &&
		    2 * (below[n] - below[i]) > n - i &&
		    drop_holds(t, n, step, i))
			return i;
	}
	return n;
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

/* The figures of a knee at step k (k == n: none). */
static void
fill(const uint64_t *t, size_t n, uint64_t step, size_t k,
    struct slc_estimate *out)
{
	out->knee = k < n;
	out->cache_bytes = out->knee ? (uint64_t)k * step : 0;
	out->avg_bps = rate((uint64_t)n * step, t[0], t[n]);
	out->in_bps = out->knee ? rate(out->cache_bytes, t[0], t[k]) :
	    out->avg_bps;
	out->post_bps = out->knee ? rate((uint64_t)(n - k) * step, t[k], t[n]) :
	    0;
}

int
slc_estimate(const uint64_t *t, size_t n, uint64_t step_bytes,
    struct slc_estimate *out)
{
	double	*bps, *tmp;
	size_t	*below, i, k = n;
	int	 rc = -1;

	memset(out, 0, sizeof(*out));
	if (n < 2 * SLC_MIN_STEPS || n > SLC_MAX_STEPS || step_bytes == 0)
		return -1;
	bps = malloc(n * sizeof(*bps));
	tmp = malloc(n * sizeof(*tmp));
	below = malloc((n + 1) * sizeof(*below));
	if (bps == NULL || tmp == NULL || below == NULL ||
	    slc_step_speeds(t, n, step_bytes, bps) == -1)
		goto out;
	memcpy(tmp, bps, n * sizeof(*tmp));
	out->start_bps = median(tmp, steps_of(n, SLC_START_FRAC));
	below[0] = 0;
	for (i = 0; i < n; i++)
		below[i + 1] = below[i] +
		    (bps[i] < SLC_KNEE_FRAC * out->start_bps);
	k = find_knee(t, n, step_bytes, steps_of(n, SLC_STAY_FRAC), below);
	fill(t, n, step_bytes, k, out);
	rc = 0;
out:
	free(bps);
	free(tmp);
	free(below);
	return rc;
}
