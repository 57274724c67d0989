/*
 * phase_trim.c: discard the dynamic area after its verify (trim = yes), in
 * chunks of TRIM_CHUNK bytes. What it discarded decides what the next
 * cycle's verify expects of the blocks its write pass has not reached.
 */
#include "schedule.h"

static int
trim_wanted(const struct dstate *st, const struct drive_conf *c)
{
	(void)st;
	return c->trim;
}

static uint64_t
trim_items(const struct layout *l)
{
	return (layout_dynamic_blocks(l) * l->block_size + TRIM_CHUNK - 1) /
	    TRIM_CHUNK;
}

static int
trim_job(const struct dstate *st, const struct drive_conf *c, struct job *j)
{
	(void)c;
	j->kind = JOB_TRIM;
	j->base = st->lay.static_blocks;
	j->trim_chunk = TRIM_CHUNK;
	j->count = trim_items(&st->lay);
	return 0;
}

static void
trim_account(struct dstate *st, uint64_t position)
{
	uint64_t	area = layout_dynamic_blocks(&st->lay) *
	    st->lay.block_size;

	st->prog.trimmed_bytes = position * TRIM_CHUNK > area ? area :
	    position * TRIM_CHUNK;
}

const struct phase_kind phase_trim = {
	.phase = PHASE_TRIM,
	.wanted = trim_wanted,
	.items = trim_items,
	.job = trim_job,
	.account = trim_account,
};
