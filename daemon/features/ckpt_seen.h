/*
 * ckpt_seen.h: the bad units a checkpoint found, each counted once
 * (ckpt_seen.c, part of the checkpoints' feature).
 */
#ifndef SSDT_CKPT_SEEN_H
#define SSDT_CKPT_SEEN_H

#include <stdint.h>

struct drive;
struct finding;

/* A probe's finding: how many of its units this checkpoint found before
 * (taken off the counts; all of them: no event either). */
uint64_t	 drive_ckpt_found_before(struct drive *, const struct finding *);
/* A checkpoint begins: none found yet. */
void		 ckpt_seen_reset(struct drive *);
void		 ckpt_seen_free(struct drive *);

#endif
