/* loop.h: the main loop, every turn's work timed. */
#ifndef SSDT_LOOP_H
#define SSDT_LOOP_H

#include <stdint.h>

#include <systemd/sd-event.h>

/* A turn longer than this kept the control socket and the tick waiting. */
#define LOOP_SLOW_NS	100000000ULL

/* Owned by the main thread, like the loop itself. */
struct loop_stats {
	uint64_t	turns;		/* event sources dispatched */
	uint64_t	slow;		/* turns longer than LOOP_SLOW_NS */
	uint64_t	max_ns;		/* the longest turn since start */
	uint64_t	max_cpu_ns;	/* of it, on this thread's CPU: the rest
					 * is waiting (the disk, or a CPU) */
};

/* sd_event_loop, timing each dispatch: the exit code, or a negative errno. */
int	loop_run(sd_event *, struct loop_stats *);

#endif
