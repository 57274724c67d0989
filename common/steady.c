/* steady.c: SNIA's steady state over a series of rounds. */
#include <math.h>
#include <string.h>

#include "steady.h"

/* Mean, range and the fitted line's change over y[0..w). */
static void
window_figures(const double *y, size_t w, struct steady *s)
{
	double	sum = 0, lo = y[0], hi = y[0], xm, sxy = 0, sxx = 0;
	size_t	i;

	for (i = 0; i < w; i++) {
		sum += y[i];
		lo = y[i] < lo ? y[i] : lo;
		hi = y[i] > hi ? y[i] : hi;
	}
	s->mean = sum / (double)w;
	s->range = hi - lo;
	xm = (double)(w - 1) / 2;
	for (i = 0; i < w; i++) {
		sxy += ((double)i - xm) * (y[i] - s->mean);
		sxx += ((double)i - xm) * ((double)i - xm);
	}
	s->excursion = fabs(sxy / sxx) * (double)(w - 1);
}

static int
figures_ok(const double *y, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (!isfinite(y[i]) || y[i] < 0)
			return 0;
	return 1;
}

int
steady_find(const double *y, size_t n, size_t window, double range_frac,
    double slope_frac, struct steady *out)
{
	struct steady	s;
	size_t		i;

	memset(out, 0, sizeof(*out));
	if (window < 2 || !(range_frac > 0) || !(slope_frac > 0) ||
	    !figures_ok(y, n))
		return -1;
	for (i = 0; i + window <= n; i++) {
		memset(&s, 0, sizeof(s));
		window_figures(y + i, window, &s);
		/* a mean of 0 (nothing done) is steady only as a flat 0 */
		if (s.range <= range_frac * s.mean &&
		    s.excursion <= slope_frac * s.mean) {
			s.reached = 1;
			s.first = i;
			*out = s;
			return 0;
		}
	}
	return 0;
}
