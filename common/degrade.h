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
#include <stdint.h>

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
 * The clock of a run's per-second series, from the main loop's ticks
 * (about a second each, ending anywhere in the run's seconds). The run
 * began at t0 (ns) with its counters then (when its job was handed out);
 * a tick that ended at t with the counters then brings the series to the
 * time since t0 in whole seconds (rounded), each second it adds the rates
 * since the end of the last figure. So the first figure counts from the
 * run's start: the first tick that began after it would leave out up to a
 * second of the run, after idle its fastest part. A tick that brings no
 * second is counted with the next.
 */
#define SERIES_NCOUNT	2

struct series_clock {
	uint64_t	t0;		/* the run's start */
	uint64_t	mark_ns;	/* the end of the last figure's time */
	double		mark[SERIES_NCOUNT];	/* the counters then */
	size_t		n;		/* figures so far */
};

void	series_clock_start(struct series_clock *c, uint64_t t0,
	    const double *counts);
/* The figures a tick ending at t adds (0 or more), each with rates[]. */
size_t	series_clock_tick(struct series_clock *c, uint64_t t,
	    const double *counts, double *rates);

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
 * where there is one: the series ends at the main loop's last tick of
 * the run, so its mean leaves out the run's last (partial) second and may
 * differ from the same run's write_iops. 0, or -1 for an empty run.
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
