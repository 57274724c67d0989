/* degrade.c: the figures of a degradation run and its recovery runs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "degrade.h"

static double
mean(const double *v, size_t n)
{
	double	sum = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return n > 0 ? sum / (double)n : 0;
}

/* The rounds' means, and the steady state over them. */
static int
steady_rounds(const double *iops, size_t n, size_t round_s,
    struct degrade_figures *out)
{
	size_t	nr = n / round_s, r;
	double	*rounds = malloc(nr * sizeof(*rounds));

	if (rounds == NULL)
		return -1;
	for (r = 0; r < nr; r++)
		rounds[r] = mean(iops + r * round_s, round_s);
	if (steady_find(rounds, nr, STEADY_WINDOW, STEADY_RANGE_FRAC,
	    STEADY_SLOPE_FRAC, &out->window) == -1) {
		free(rounds);
		return -1;
	}
	free(rounds);
	out->steady = out->window.reached;
	if (out->steady) {
		out->steady_iops = out->window.mean;
		out->steady_at_s = (out->window.first + STEADY_WINDOW) *
		    round_s;
	}
	return 0;
}

int
degrade_figures(const double *iops, size_t n, size_t round_s,
    struct degrade_figures *out)
{
	size_t	i;

	memset(out, 0, sizeof(*out));
	if (round_s == 0 || n < round_s)
		return -1;
	for (i = 0; i < n; i++)
		if (!isfinite(iops[i]) || iops[i] < 0)
			return -1;
	out->initial_iops = mean(iops, round_s);
	out->worst_iops = iops[0];
	for (i = 1; i < n; i++)
		if (iops[i] < out->worst_iops) {
			out->worst_iops = iops[i];
			out->worst_s = i;
		}
	return steady_rounds(iops, n, round_s, out);
}

void
degrade_moving_avg(const double *iops, size_t n, size_t span, double *avg)
{
	double	sum = 0;
	size_t	i;

	if (span == 0)
		span = 1;
	/* a running sum: one add and one subtract a second, hours long */
	for (i = 0; i < n; i++) {
		sum += iops[i];
		if (i >= span)
			sum -= iops[i - span];
		avg[i] = sum / (double)(i + 1 < span ? i + 1 : span);
	}
}

int
recovery_figures(const double *iops, size_t n, double run_iops,
    double initial_iops, struct recovery_figures *out)
{
	memset(out, 0, sizeof(*out));
	if (n == 0)
		return -1;
	out->first_iops = mean(iops, n < RECOVERY_FIRST_S ? n :
	    RECOVERY_FIRST_S);
	/* the run's own count, where there is one (degrade.h says why) */
	out->all_iops = isfinite(run_iops) && run_iops > 0 ? run_iops :
	    mean(iops, n);
	if (initial_iops > 0) {
		out->first_share = out->first_iops / initial_iops;
		out->all_share = out->all_iops / initial_iops;
	}
	return 0;
}

/* The mean of v[from, to); 0 for none. */
static double
mean_of(const double *v, size_t from, size_t to)
{
	double	sum = 0;
	size_t	i;

	for (i = from; i < to; i++)
		sum += v[i];
	return to > from ? sum / (double)(to - from) : 0;
}

void
thermal_figures(const double *bps, const double *temp_c, size_t n,
    long throttle_s, struct thermal_figures *out)
{
	size_t	i, at = throttle_s < 0 || (size_t)throttle_s > n ? n :
	    (size_t)throttle_s;

	out->peak_c = -1;
	for (i = 0; i < n; i++)
		if (temp_c[i] >= 0 && temp_c[i] > out->peak_c)
			out->peak_c = temp_c[i];
	out->before_bps = mean_of(bps, 0, at);
	out->after_bps = mean_of(bps, at, n);
}

void
series_clock_start(struct series_clock *c, uint64_t t0, const double *counts)
{
	memset(c, 0, sizeof(*c));
	c->t0 = c->mark_ns = t0;
	memcpy(c->mark, counts, sizeof(c->mark));
}

size_t
series_clock_tick(struct series_clock *c, uint64_t t, const double *counts,
    double *rates)
{
	double	covered, dt;
	size_t	k = 0, i;

	if (t <= c->mark_ns)
		return 0;
	covered = (double)(t - c->t0) / 1e9;
	while ((double)(c->n + k) + 1 <= covered + 0.5)
		k++;
	if (k == 0)
		return 0;	/* counted with the next tick */
	dt = (double)(t - c->mark_ns) / 1e9;
	for (i = 0; i < SERIES_NCOUNT; i++) {
		rates[i] = (counts[i] - c->mark[i]) / dt;
		c->mark[i] = counts[i];
	}
	c->mark_ns = t;
	c->n += k;
	return k;
}
