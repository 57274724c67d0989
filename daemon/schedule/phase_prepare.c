/*
 * phase_prepare.c: a fresh run begins from a known state (prepare; the
 * SNIA Performance Test Specification purges a drive before each test):
 * with prepare = trim the whole span is discarded, in chunks of
 * TRIM_CHUNK bytes, before the static area is first written; with
 * format or sanitize the drive erases itself (purge.h), its progress in
 * PURGE_STEPS. Once, at the run's start only: a run that resumes has
 * passed it.
 */
#include "schedule.h"

static int
prepare_wanted(const struct dstate *st, const struct drive_conf *c)
{
	(void)st;
	return c->prepare != PREPARE_NONE;
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
	j->base = 0;
	if (c->prepare != PREPARE_TRIM) {
		j->kind = JOB_PURGE;	/* the drive's core fills j->purge */
		j->count = PURGE_STEPS;
		return 0;
	}
	j->kind = JOB_TRIM;
	j->trim_chunk = TRIM_CHUNK;
	j->count = prepare_items(&st->lay);
	return 0;
}

/* A trim's progress is its items; a purge's is in PURGE_STEPS, with no
 * time left to tell (the drive's pace is its own). */
static void
prepare_progress(const struct dstate *st, const struct drive_conf *c,
    uint64_t now_ms, double *frac, uint64_t *eta)
{
	uint64_t	items = c->prepare == PREPARE_TRIM ?
			    prepare_items(&st->lay) : PURGE_STEPS;

	(void)now_ms;
	*eta = 0;
	*frac = items != 0 ? (double)st->prog.position / (double)items : 0;
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
	.flags = PK_ONCE,
	.wanted = prepare_wanted,
	.items = prepare_items,
	.job = prepare_job,
	.done = prepare_done,
	.progress = prepare_progress,
};
