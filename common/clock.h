/* clock.h: nanoseconds of a clock, for intervals and deadlines. */
#ifndef SSDT_CLOCK_H
#define SSDT_CLOCK_H

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t
clock_ns(clockid_t clk)
{
	struct timespec	ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Wall clock in milliseconds: a deadline that survives restarts. */
static inline uint64_t
wall_ms(void)
{
	return clock_ns(CLOCK_REALTIME) / 1000000;
}

/* CLOCK_MONOTONIC: intervals, unaffected by the wall clock being set. */
static inline uint64_t
mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/*
 * Sleep until CLOCK_MONOTONIC reaches `end`, in steps of at most `step`
 * ns, so that a set *stop ends the sleep within a step: 0 at `end`, -1
 * once stopped.
 */
static inline int
mono_sleep_until(uint64_t end, uint64_t step, atomic_int *stop)
{
	struct timespec	ts;
	uint64_t	now, left;

	while ((now = mono_ns()) < end) {
		if (atomic_load_explicit(stop, memory_order_relaxed))
			return -1;
		left = end - now < step ? end - now : step;
		ts.tv_sec = (time_t)(left / 1000000000ULL);
		ts.tv_nsec = (long)(left % 1000000000ULL);
		nanosleep(&ts, NULL);
	}
	return 0;
}

#endif
