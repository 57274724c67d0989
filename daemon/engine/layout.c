/*
 * layout.c: where blocks live and what each must hold at a given point of
 * the schedule. The static area is blocks [0, S) written once with
 * generation 0; the dynamic area [S, N) is rewritten every cycle c with
 * generation c, in the order of that cycle's permutation.
 */
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "proto.h"

/* The phases are named as the protocol names them (proto.h), in order. */
_Static_assert(PHASE_NONE + 1 == PROTO_NPHASES, "one name per phase");

const char *
phase_name(enum phase p)
{
	return (unsigned)p <= PHASE_NONE ? proto_phase_names[p] : "unknown";
}

int
phase_from_name(const char *s)
{
	return proto_word(proto_phase_names, PROTO_NPHASES, s);
}

int
layout_init(struct layout *l, uint64_t capacity, uint64_t span,
    uint32_t block_size, double static_fraction, char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	if (span > capacity) {
		snprintf(err, errlen, "span (%llu bytes) is larger than the "
		    "target (%llu bytes)", (unsigned long long)span,
		    (unsigned long long)capacity);
		return -1;
	}
	l->block_size = block_size;
	l->nblocks = span / block_size;
	l->span_bytes = l->nblocks * block_size;
	l->static_blocks = (uint64_t)((double)l->nblocks * static_fraction);
	if (l->nblocks < 2 || l->static_blocks >= l->nblocks) {
		snprintf(err, errlen, "span of %llu bytes holds %llu blocks of "
		    "%u bytes: too small for a static and a dynamic area",
		    (unsigned long long)span, (unsigned long long)l->nblocks,
		    block_size);
		return -1;
	}
	return 0;
}

uint64_t
layout_dynamic_blocks(const struct layout *l)
{
	return l->nblocks - l->static_blocks;
}

void
layout_pass_perm(const struct layout *l, uint64_t instance, uint64_t cycle,
    int random, struct perm *p)
{
	perm_init(p, layout_dynamic_blocks(l),
	    instance ^ (cycle * 0x9e3779b97f4a7c15ULL), !random);
}

static void
expect_gen(struct blk_expect *e, uint64_t lo, uint64_t hi)
{
	e->has_gen = 1;
	e->gen_lo = lo;
	e->gen_hi = hi;
}

/* A static block: generation 0 once the static pass has reached it. */
static void
expect_static(const struct progress *pr, uint64_t block,
    struct blk_expect *e)
{
	expect_gen(e, 0, 0);
	/* not reached yet, or in flight: what the device held before */
	if (!pr->static_done &&
	    !(pr->phase == PHASE_STATIC && block < pr->position))
		e->allow_unwritten = e->allow_any = 1;
}

/* What a dynamic block held before cycle c's write pass reached it. */
static void
expect_before(const struct progress *pr, uint64_t c, struct blk_expect *e)
{
	if (c <= 1) {	/* before our first pass: what the device held */
		e->allow_unwritten = e->allow_any = 1;
		return;
	}
	expect_gen(e, c - 1, c - 1);
	if (pr->prev_trimmed)
		e->allow_unwritten = 1;
}

/* A dynamic block: the current cycle's write, the state before, a trim. */
static void
expect_dynamic(const struct layout *l, const struct progress *pr,
    const struct perm *pass, uint64_t block, struct blk_expect *e)
{
	uint64_t	c = pr->cycle, rel = block - l->static_blocks, seq;

	if (c == 0) {
		e->allow_unwritten = e->allow_any = 1;
		return;
	}
	/* the inverse permutation only matters while a pass is incomplete */
	if (pr->phase == PHASE_WRITE || pr->written < layout_dynamic_blocks(l))
		seq = perm_inv(pass, rel);
	else
		seq = 0;
	if (pr->phase == PHASE_WRITE && seq >= pr->position) {
		expect_before(pr, c, e);	/* or written while in flight */
		expect_gen(e, e->has_gen ? e->gen_lo : c, c);
	} else if (pr->phase != PHASE_WRITE && seq >= pr->written)
		expect_before(pr, c, e);	/* pass ended early */
	else
		expect_gen(e, c, c);
	/* discarded: zeros or old data; during the trim phase any block may
	 * have been discarded already (a discard in flight at a crash) */
	if (pr->phase == PHASE_TRIM ||
	    (pr->phase == PHASE_IDLE && rel * l->block_size < pr->trimmed_bytes))
		e->allow_unwritten = 1;
	/* a checkpoint's probes may have written their units over it */
	if (pr->probe_len != 0 && block * l->block_size >= pr->probe_off &&
	    block * l->block_size < pr->probe_off + pr->probe_len) {
		e->probe_unit = pr->probe_unit;
		e->probe_gen = pr->probe_gen;
		if (pr->probe_trimmed)
			e->allow_unwritten = 1;
	}
}

void
layout_expect(const struct layout *l, const struct progress *pr,
    const struct perm *pass, uint64_t block, struct blk_expect *e)
{
	memset(e, 0, sizeof(*e));
	if (block < l->static_blocks)
		expect_static(pr, block, e);
	else
		expect_dynamic(l, pr, pass, block, e);
}
