/*
 * degrade.h: the figures of a degradation run (4 KiB random writes at
 * QD32 for hours, one IOPS figure a second) and of the recovery runs
 * after it, as the SSD reviews report them:
 *  - the initial IOPS: the mean of the first round (SNIA: 60 s,
 *    DEGRADE_ROUND_S; the drive's degrade_round);
 *  - steady state by SNIA's rule (steady.h) over such rounds (each
 *    round its mean): the steady IOPS (the
 *    window's mean) and when the rule could first say so, the end of
 *    that window; or that the run never got there;
 *  - the worst second and when it was;
 *  - a trailing moving average (the reviews plot 30 s);
 *  - a recovery run's IOPS over its first seconds and over all of it, as
 *    a share of the initial IOPS: what idle time or a TRIM gave back.
 */
#ifndef SSDT_DEGRADE_H
#define SSDT_DEGRADE_H

#include <stddef.h>

#include "steady.h"

#define DEGRADE_ROUND_S		60	/* SNIA's round, in seconds */
#define DEGRADE_AVG_S		30	/* the moving average's span */
#define RECOVERY_FIRST_S	5	/* a recovery run's first seconds */

struct degrade_figures {
	double		initial_iops;
	int		steady;		/* 1: steady state was reached */
	double		steady_iops;	/* the steady window's mean */
	size_t		steady_at_s;	/* the end of that window, in s */
	double		worst_iops;
	size_t		worst_s;	/* which second (from 0) */
	struct steady	window;		/* the rule's figures, in rounds */
};

struct recovery_figures {
	double	first_iops;		/* the mean of the series' first
					 * RECOVERY_FIRST_S seconds */
	double	all_iops;		/* over the whole run: its I/Os over
					 * its time, as the line's write_iops */
	double	first_share;		/* of the initial IOPS (0: none) */
	double	all_share;
};

/*
 * The figures of iops[0..n) (a figure a second, n at least round_s, in
 * rounds of round_s seconds). 0, or -1 when the run is shorter than a
 * round, round_s is 0 or a figure is not a finite number of at least 0.
 */
int	degrade_figures(const double *iops, size_t n, size_t round_s,
	    struct degrade_figures *out);

/* avg[i]: the mean of the last `span` figures up to i (fewer at first). */
void	degrade_moving_avg(const double *iops, size_t n, size_t span,
	    double *avg);

/*
 * A recovery run's iops[0..n) (a figure a second) and run_iops (its I/Os
 * over its measured time, the probe's own count; 0 or less: none) against
 * the degradation run's initial IOPS. The whole run's figure is run_iops
 * where there is one: the series starts at the main loop's first whole
 * second after the run began, so its mean leaves out the run's first
 * (partial) second, a recovered drive's fastest, and would say less than
 * the same run's write_iops. 0, or -1 for an empty run.
 */
int	recovery_figures(const double *iops, size_t n, double run_iops,
	    double initial_iops, struct recovery_figures *out);

/*
 * A thermal run (sequential writes or reads for minutes): each second's
 * bytes a second and temperature (C; below 0: no reading), and the second
 * at which the drive's thermal counters first grew (-1: never). The peak
 * temperature (-1: none known), and the mean speed before and from that
 * second (after: 0 when it never throttled).
 */
struct thermal_figures {
	double	peak_c;
	double	before_bps, after_bps;
};

void	thermal_figures(const double *bps, const double *temp_c, size_t n,
	    long throttle_s, struct thermal_figures *out);

#endif
