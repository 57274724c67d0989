/* clock.h: nanoseconds of a clock, for intervals and deadlines. */
#ifndef SSDT_CLOCK_H
#define SSDT_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t
clock_ns(clockid_t clk)
{
	struct timespec	ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* CLOCK_MONOTONIC: intervals, unaffected by the wall clock being set. */
static inline uint64_t
mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

#endif
