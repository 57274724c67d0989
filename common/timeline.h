/*
 * timeline.h: a write pass's timeline, the time at which the bytes written
 * crossed each step of the pass. Steps are whole blocks and all of one
 * size, at most TL_STEPS of them (0.05 % of the pass, or one block each
 * in a pass of fewer blocks); the tail below one step is not a step. The
 * writer notes the bytes whose writes have completed, in whatever order,
 * after each round of completions; the crossings get the round's time.
 */
#ifndef SSDT_TIMELINE_H
#define SSDT_TIMELINE_H

#include <stdint.h>

#define TL_STEPS	2000

struct timeline {
	uint64_t	pass_bytes;	/* the whole pass */
	uint64_t	step_bytes;	/* one step: whole blocks */
	uint32_t	nsteps;		/* whole steps in the pass */
	uint32_t	first;		/* t[0] is the end of step `first` - 1 */
	uint32_t	n;		/* crossings noted after t[0] */
	int		started;	/* t[0] is set */
	/* t[i]: CLOCK_MONOTONIC ns when step first + i - 1 ended (t[0]:
	 * the start of step `first`; the pass's start when first == 0) */
	uint64_t	t[TL_STEPS + 1];
};

/*
 * A pass of pass_bytes in blocks of `block`, begun at `from` bytes (a
 * resumed pass: > 0) at time t0. A resumed pass's timeline begins at the
 * first step boundary at or past `from`.
 */
void	tl_begin(struct timeline *, uint64_t pass_bytes, uint32_t block,
	    uint64_t from, uint64_t t0);
/* `done` bytes of the pass are written in order, at time t. */
void	tl_note(struct timeline *, uint64_t done, uint64_t t);
/* Every step of the pass is in it, from the pass's start. */
int	tl_whole(const struct timeline *);

#endif
