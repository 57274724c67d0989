/*
 * ckpt_seen.c: the bad units a checkpoint's probes found, so that a unit
 * found again by a later probe of the same checkpoint counts once, and is
 * told once (the core asks at each finding; drive_ckpt.c starts each
 * checkpoint empty).
 */
#include <stdlib.h>
#include <string.h>

#include "ckpt_seen.h"
#include "drive_priv.h"

/*
 * The bad units of the checkpoint: an open-addressing set of offsets + 1
 * (0 is free), SEEN_CAP of them; once half full, later finds count as
 * new (a drive that bad is failing anyway, and the memory stays bounded).
 */
#define SEEN_CAP	(1u << 16)

/* Add a unit's offset; 1 when it was there already. */
static int
seen_add(struct drive *d, uint64_t off)
{
	size_t	i = (size_t)((off * 0x9e3779b97f4a7c15ULL) >> 48) % SEEN_CAP;

	if (d->seen == NULL && (d->seen = calloc(SEEN_CAP,
	    sizeof(*d->seen))) == NULL)
		return 0;
	for (; d->seen[i] != 0; i = (i + 1) % SEEN_CAP)
		if (d->seen[i] == off + 1)
			return 1;
	if (d->nseen >= SEEN_CAP / 2)
		return 0;
	d->seen[i] = off + 1;
	d->nseen++;
	return 0;
}

uint64_t
drive_ckpt_found_before(struct drive *d, const struct finding *f)
{
	uint64_t	i, n = 0;

	for (i = 0; i < f->nblocks; i++)
		n += (uint64_t)seen_add(d, f->offset + i * f->unit);
	d->dup[f->cls] += n;
	return n;
}

void
ckpt_seen_reset(struct drive *d)
{
	if (d->seen != NULL)
		memset(d->seen, 0, SEEN_CAP * sizeof(*d->seen));
	d->nseen = 0;
}

void
ckpt_seen_free(struct drive *d)
{
	free(d->seen);
	d->seen = NULL;
	d->nseen = 0;
}
