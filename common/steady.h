/*
 * steady.h: steady state as SNIA's Solid State Storage Performance Test
 * Specification defines it, over a series of rounds (one figure per
 * round: the IOPS of a 60 s round of a degradation run, say).
 *
 * A window of `window` consecutive rounds is steady when
 *  - its range (largest minus smallest figure) is at most range_frac of
 *    the window's mean (SNIA: 20 %), and
 *  - the least-squares line through it changes across the window (its
 *    slope times the rounds it spans, window - 1) by at most slope_frac
 *    of the mean (SNIA: 10 %).
 * The drive has reached steady state at the first such window (SNIA: five
 * rounds); the rounds before it are its way there.
 */
#ifndef SSDT_STEADY_H
#define SSDT_STEADY_H

#include <stddef.h>

#define STEADY_WINDOW		5
#define STEADY_RANGE_FRAC	0.20
#define STEADY_SLOPE_FRAC	0.10

struct steady {
	int	reached;	/* 1: a steady window was found */
	size_t	first;		/* its first round */
	double	mean;		/* its mean figure */
	double	range;		/* largest minus smallest in it */
	double	excursion;	/* the fitted line's change across it */
};

/*
 * The first steady window of y[0..n) (figures of rounds in order). 0,
 * with out->reached 0 when none is (yet); -1 when the rules cannot apply
 * (a window under 2 rounds, a fraction not above 0, a figure that is not
 * a finite number of at least 0).
 */
int	steady_find(const double *y, size_t n, size_t window,
	    double range_frac, double slope_frac, struct steady *out);

#endif
