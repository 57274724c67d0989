/*
 * slc.h: what a write pass's timeline says of the drive's write cache
 * (the SLC cache of TLC and QLC drives): how many bytes went in at the
 * fast speed before the speed fell and stayed down, the speed inside and
 * after, and the pass's average.
 *
 * The timeline is the time at which each of n equal steps of the pass
 * was done: t[0] the pass's start, t[i] when i steps were written, so
 * step i's throughput is step_bytes / (t[i + 1] - t[i]); steps ended by
 * one round of completions (equal times) share that round's time. A pass of a
 * drive without such a cache, or whose cache the pass never filled,
 * shows no knee, and says so.
 *
 * The rule: the start's speed is the highest median of the steps of the
 * pass's first SLC_START_WINDOWS windows of SLC_START_FRAC each (at least
 * SLC_MIN_STEPS steps; where steps came one by one), so that a host slow
 * for the first few milliseconds does not hide the drop to a cache's
 * second level; the knee is the first step below SLC_KNEE_FRAC of it
 * from which most of the time up to each step of the next SLC_STAY_FRAC
 * of the pass (at least SLC_MIN_STEPS steps), and most of the time of
 * the rest of the pass, is spent in steps below it too, and after which
 * the pass is slower than before it by that factor: a slow step (garbage
 * collection, a flush, a pause shortly before the drop) or a slow spell
 * the pass recovers from is no knee, a drop that lasts is, one with less of the
 * pass left to show it is none, and so is a start that only looked fast
 * (its steps came in a burst). A median and majorities, so that a few
 * outliers weigh nothing. Majorities of time, not of steps: after a
 * cache that folds before it takes more (writes stop while part of the
 * cache moves to TLC, then go on at the cache's speed), most steps are
 * fast but most of the time is spent in the stalls. A stall (a step
 * below SLC_STALL_FRAC of the start's speed) with fast steps after it and
 * a knee that is no stall within the next SLC_STAY_FRAC is the host's
 * pause shortly before the drop, and the knee is that drop.
 *
 * Written at a queue deeper than a step, a pass's steps can end in jumps:
 * a hold (the host kept the writer from its completions, or the drive
 * answered nothing for a while), then the many steps done meanwhile in
 * one round of completions. Where they do (a round ended two or more
 * steps), the knee's threshold is from the start's pace, not its median:
 * the median rate from the pass's start to each of as many steps as its
 * median would take, from twice the largest round on (a jump then comes
 * with the hold before it; the second level's start likewise); or,
 * where it is faster, the median of three such paces from after twice
 * the largest round of the start, SLC_START_FRAC apart, each sized on
 * the start's rounds (a hold of the host's early in the pass slows every
 * stretch from the start); and a step below it is no knee when the rate from it to the
 * end of a jump that follows within as many steps is not (a step held
 * back, not a drop).
 *
 * A cache of two levels (full speed for a share, then slower for the
 * rest, then slower still: SM2258XT drives) is one cache: after the
 * knee, the same rule on the rest of the pass, from that level's own
 * start, finds a second knee; the stretch between is the cache's second
 * level when it is a level (most of its time within SLC_LEVEL_BAND of its
 * median; and where that median is as fast as the first level, under a
 * quarter of it in stalls: else the cache folding). The cache then ends
 * at the second knee.
 *
 * After the cache, stalls (steps below SLC_STALL_FRAC of the cache's
 * speed) between steps at the cache's speed again are gusts: the pass
 * says how many stalls, how long the median one was, and which share of
 * the time after the cache they took.
 */
#ifndef SSDT_SLC_H
#define SSDT_SLC_H

#include <stddef.h>
#include <stdint.h>

#define SLC_START_FRAC	0.02	/* the start: the first 2 % of the pass */
#define SLC_START_WINDOWS 3	/* its pace: the best of 3 such windows */
#define SLC_KNEE_FRAC	0.70	/* below 0.7 times the start's speed */
#define SLC_STAY_FRAC	0.05	/* and so over the next 5 % */
#define SLC_MIN_STEPS	3
#define SLC_MAX_STEPS	65536	/* a timeline's steps, at most */
#define SLC_LEVEL_BAND	0.25	/* a level: most of its time within +-25 % */
#define SLC_STALL_FRAC	0.10	/* a stall: below a tenth of the cache's speed */
#define SLC_LEVELS	2

struct slc_estimate {
	int		knee;		/* 1: the speed fell and stayed down */
	uint64_t	cache_bytes;	/* written before the knee (0: none) */
	double		start_bps;	/* the median speed of the start's steps */
	double		in_bps;		/* before the knee (the pass: none) */
	double		post_bps;	/* after it (0: no knee) */
	double		avg_bps;	/* the whole pass */
	/* the cache's levels (1 or 2; 0: no knee), each its bytes, speed */
	int		levels;
	uint64_t	level_bytes[SLC_LEVELS];
	double		level_bps[SLC_LEVELS];
	/* after the cache: gusts (stalls between fast stretches) */
	int		gusts;		/* 1: writing came in gusts */
	unsigned	stalls;		/* how many stalls */
	double		stall_s;	/* the median stall, seconds */
	double		stall_share;	/* of the time after the cache */
};

/*
 * The estimate from t[0..n] (n steps of step_bytes each, times in ns,
 * never decreasing). 0, or -1 when there is too little to say (fewer
 * than 2 * SLC_MIN_STEPS steps, more than SLC_MAX_STEPS, a pass of no
 * time or times that go back).
 */
/* The speed of each of the n steps of timeline t (bytes/s) into bps[n];
 * -1 when a time goes back or the pass took none. */
int	slc_step_speeds(const uint64_t *t, size_t n, uint64_t step_bytes,
	    double *bps);
int	slc_estimate(const uint64_t *t, size_t n, uint64_t step_bytes,
	    struct slc_estimate *out);

#endif
