/*
 * phase_prepare.c: a fresh run begins from a known state (prepare; the
 * SNIA Performance Test Specification purges a drive before each test):
 * with prepare = trim the whole span is discarded, in chunks of
 * TRIM_CHUNK bytes, before the static area is first written. Once, at
 * the run's start only: a run that resumes has passed it.
 */
#include "schedule.h"

static int
prepare_wanted(const struct dstate *st, const struct drive_conf *c)
{
	(void)st;
	return c->prepare == PREPARE_TRIM;
}

static uint64_t
prepare_items(const struct layout *l)
{
	return (l->span_bytes + TRIM_CHUNK - 1) / TRIM_CHUNK;
}

static int
prepare_job(const struct dstate *st, const struct drive_conf *c,
    struct job *j)
{
	(void)c;
	j->kind = JOB_TRIM;
	j->base = 0;
	j->trim_chunk = TRIM_CHUNK;
	j->count = prepare_items(&st->lay);
	return 0;
}

/* No static area to write next: it is as good as written (as a run that
 * begins without this phase has it, sched_init). */
static int
prepare_done(struct dstate *st, const struct drive_conf *c, enum job_end end,
    struct sched_step *s)
{
	(void)c;
	(void)end;
	(void)s;
	if (st->lay.static_blocks == 0)
		st->prog.static_done = 1;
	return 0;
}

const struct phase_kind phase_prepare = {
	.phase = PHASE_PREPARE,
	.flags = PK_ONCE | PK_ETA,
	.wanted = prepare_wanted,
	.items = prepare_items,
	.job = prepare_job,
	.done = prepare_done,
};
