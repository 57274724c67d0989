/* timeline.c: a write pass's step crossings (timeline.h). */
#include <stddef.h>
#include <string.h>

#include "timeline.h"

void
tl_begin(struct timeline *tl, uint64_t pass_bytes, uint32_t block,
    uint64_t from, uint64_t t0)
{
	uint64_t	blocks = block > 0 ? pass_bytes / block : 0;
	uint64_t	per = (blocks + TL_STEPS - 1) / TL_STEPS;

	memset(tl, 0, offsetof(struct timeline, t));
	tl->pass_bytes = pass_bytes;
	if (per == 0)
		return;		/* an empty pass: no steps */
	tl->step_bytes = per * block;
	tl->nsteps = (uint32_t)(blocks / per);
	tl->first = (uint32_t)((from + tl->step_bytes - 1) / tl->step_bytes);
	/* begun on a boundary (a new pass is): the first step starts now */
	if (from % tl->step_bytes == 0 && tl->first < tl->nsteps) {
		tl->t[0] = t0;
		tl->started = 1;
	}
}

void
tl_note(struct timeline *tl, uint64_t done, uint64_t t)
{
	uint64_t	end;

	if (tl->step_bytes == 0)
		return;
	end = done / tl->step_bytes;	/* steps ended by now */
	if (end > tl->nsteps)
		end = tl->nsteps;
	if (!tl->started) {	/* resumed inside a step: from the next one */
		if (end < tl->first || end >= tl->nsteps)
			return;
		tl->t[0] = t;
		tl->first = (uint32_t)end;
		tl->started = 1;
		return;
	}
	while (tl->first + tl->n < end)
		tl->t[++tl->n] = t;
}

int
tl_whole(const struct timeline *tl)
{
	return tl->started && tl->first == 0 && tl->n == tl->nsteps;
}
