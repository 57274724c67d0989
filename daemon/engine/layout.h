/*
 * layout.h: where blocks live and what each must hold at a given point of
 * the schedule. Pure functions: nothing per block is kept anywhere.
 */
#ifndef SSDT_LAYOUT_H
#define SSDT_LAYOUT_H

#include <stdint.h>

#include "block.h"
#include "perm.h"

enum phase {
	PHASE_STATIC = 0,	/* first start: write the static area once */
	PHASE_WRITE,		/* write the whole dynamic area */
	PHASE_VERIFY,		/* read and check static and dynamic areas */
	PHASE_TRIM,		/* discard the dynamic area */
	PHASE_IDLE,		/* rest */
	PHASE_CHECKPOINT,	/* a performance checkpoint (phase_checkpoint.c) */
	PHASE_PREPARE,		/* fresh run: the span brought to a known state */
	PHASE_NONE
};

struct layout {
	uint32_t	block_size;
	uint64_t	span_bytes;	/* nblocks * block_size */
	uint64_t	nblocks;
	uint64_t	static_blocks;	/* blocks [0, static_blocks) */
};

/* Where the schedule stands; enough to derive every block's expectation. */
struct progress {
	uint64_t	instance;
	enum phase	phase;
	uint64_t	cycle;		/* 1-based; 0 before the first write pass */
	uint64_t	position;	/* completed items of the current phase */
	uint64_t	written;	/* dynamic blocks written in this cycle's pass */
	uint64_t	trimmed_bytes;	/* dynamic bytes discarded in this cycle */
	int		static_done;
	int		prev_trimmed;	/* dynamic area discarded at the end of cycle-1 */
	int		pass_random;	/* this cycle's write pass is a permutation */
	/*
	 * A performance checkpoint's region, while its blocks may hold the
	 * probes' units (of probe_unit bytes, generation probe_gen) instead
	 * of what the cycle wrote there: from the checkpoint's start until
	 * the cycle's data is written back and flushed. 0: none.
	 */
	uint64_t	probe_off, probe_len;	/* bytes */
	uint32_t	probe_unit;
	uint64_t	probe_gen;
	/* the region was discarded since (a full checkpoint's TRIM): any
	 * unit of it may read blank until the cycle's data is back */
	int		probe_trimmed;
};

const char	*phase_name(enum phase);
int		 phase_from_name(const char *);
/* Compute the layout; returns -1 with a message when it does not fit. */
int		 layout_init(struct layout *, uint64_t capacity, uint64_t span,
		    uint32_t block_size, double static_fraction,
		    char *err, size_t errlen);
uint64_t	 layout_dynamic_blocks(const struct layout *);
/* The permutation of the write pass of a cycle. */
void		 layout_pass_perm(const struct layout *, uint64_t instance,
		    uint64_t cycle, int random, struct perm *);
/* What block number `block` must hold now; `pass` is the current cycle's
 * layout_pass_perm(). */
void		 layout_expect(const struct layout *, const struct progress *,
		    const struct perm *pass, uint64_t block, struct blk_expect *);

#endif
