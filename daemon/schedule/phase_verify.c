/*
 * phase_verify.c: the verify pass of a cycle, over static and dynamic
 * areas against what the schedule says each block holds. After a write
 * pass cut by stop_at_tbw it is the run's last: the schedule goes back to
 * the cut pass (so that a raised limit goes on from there) and finishes.
 */
#include "schedule.h"

static uint64_t
verify_items(const struct layout *l)
{
	return l->nblocks;
}

static int
verify_job(const struct dstate *st, const struct drive_conf *c,
    struct job *j)
{
	(void)c;
	j->kind = JOB_VERIFY;
	j->count = st->lay.nblocks;
	return 0;
}

static int
verify_done(struct dstate *st, const struct drive_conf *c, enum job_end end,
    struct sched_step *s)
{
	(void)c;
	(void)end;
	st->verify_passes++;
	if (!st->final_verify)
		return 0;
	st->final_verify = 0;
	st->prog.phase = PHASE_WRITE;
	st->prog.position = st->prog.written;
	s->move = MOVE_FINISH;
	s->why = "stop_at_tbw reached";
	return 1;
}

const struct phase_kind phase_verify = {
	.phase = PHASE_VERIFY,
	.flags = PK_VERIFY | PK_ETA,
	.items = verify_items,
	.job = verify_job,
	.done = verify_done,
};
