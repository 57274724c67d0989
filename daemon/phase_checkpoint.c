/*
 * phase_checkpoint.c: a performance checkpoint, after a cycle's verify
 * pass (the drive full of data just checked: the used, filled drive the
 * reviews measure). It runs the first time the drive holds its data (the
 * baseline), each time the host bytes written pass a multiple of
 * checkpoint_every, and when asked for (ssdctl checkpoint).
 *
 * Its steps, one engine job each: fill the region with the probes' units
 * (flushed: what the probes read is there after a power cut too); each
 * probe of the suite, timed; a read of the whole region that checks every
 * unit; the cycle's data written back over the region (generation =
 * cycle, flushed), so that the cycles go on as if nothing had happened
 * and every later verify pass expects what it always did. From the
 * checkpoint's start until that write is durable the state says the
 * region may hold units (progress.probe_*), so that a verify pass then,
 * on demand or after a crash, accepts them instead of calling them
 * corrupt. A step cut short (stop, crash) runs again from its start: a
 * probe's result is recorded only whole.
 */
#include <string.h>

#include "perm.h"
#include "schedule.h"

static uint64_t
ckpt_items(const struct layout *l)
{
	(void)l;
	return CKPT_STEP_RESTORE + 1;
}

int
sched_ckpt_due(const struct dstate *st, const struct drive_conf *c)
{
	uint64_t	every = c->checkpoint_every;

	if (c->checkpoint == CKPT_OFF)
		return 0;
	return st->ckpt_asked || st->ckpt_done == 0 ||
	    (every != 0 && st->host_bytes_written / every > st->ckpt_at / every);
}

/* Due, after a whole write pass (one cut short leaves the area mixed). */
static int
ckpt_wanted(const struct dstate *st, const struct drive_conf *c)
{
	return sched_ckpt_due(st, c) &&
	    st->prog.written >= layout_dynamic_blocks(&st->lay);
}

void
sched_ckpt_region(const struct dstate *st, const struct drive_conf *c,
    uint64_t *off, uint64_t *len)
{
	const struct layout	*l = &st->lay;
	uint64_t		 area = layout_dynamic_blocks(l) * l->block_size;

	*off = l->static_blocks * l->block_size;
	*len = c->checkpoint_region < area ? c->checkpoint_region : area;
	*len -= *len % l->block_size;
}

const struct probe *
sched_ckpt_probe(uint64_t step)
{
	return step > CKPT_STEP_FILL && step < CKPT_STEP_CHECK ?
	    probe_at((size_t)step - 1) : NULL;
}

/* Does the configuration run this step? */
static int
step_runs(const struct drive_conf *c, uint64_t step)
{
	const struct probe	*p = sched_ckpt_probe(step);

	return p == NULL || probe_spec_has(c->checkpoint_probes, p);
}

uint64_t
sched_ckpt_probes_from(const struct drive_conf *c, uint64_t step)
{
	uint64_t	s, n = 0;

	for (s = step; s < CKPT_STEP_CHECK; s++)
		n += (uint64_t)(sched_ckpt_probe(s) != NULL && step_runs(c, s));
	return n;
}

uint64_t
sched_ckpt_steps(const struct drive_conf *c)
{
	uint64_t	s, n = 0;

	for (s = CKPT_STEP_FILL; s <= CKPT_STEP_RESTORE; s++)
		n += (uint64_t)step_runs(c, s);
	return n;
}

uint64_t
sched_ckpt_steps_left(const struct dstate *st, const struct drive_conf *c)
{
	uint64_t	s, n = 0;

	for (s = st->ckpt_step; s <= CKPT_STEP_RESTORE; s++)
		n += (uint64_t)(step_runs(c, s) || s == st->ckpt_step);
	return n;
}

int
sched_ckpt_next(struct dstate *st, const struct drive_conf *c)
{
	st->prog.position = 0;
	if (st->ckpt_step == CKPT_STEP_RESTORE) {
		/* the cycle's data is back and flushed: no units left */
		st->prog.probe_off = st->prog.probe_len = 0;
		st->ckpt_step = 0;
		st->ckpt_done++;
		return 0;
	}
	do
		st->ckpt_step++;
	while (!step_runs(c, st->ckpt_step));
	return 1;
}

/* The checkpoint begins: its number, region and generation. */
static void
ckpt_enter(struct dstate *st, const struct drive_conf *c, uint64_t now_ms)
{
	st->ckpt_step = CKPT_STEP_FILL;
	st->ckpt_asked = 0;
	st->ckpt_at = st->host_bytes_written;
	st->ckpt_started = now_ms / 1000;
	sched_ckpt_region(st, c, &st->prog.probe_off, &st->prog.probe_len);
	st->prog.probe_gen = CKPT_GEN(st->ckpt_done + 1);
	/* the unit is the device's: the lifecycle sets prog.probe_unit */
}

/* The last step: the cycle's blocks over the region again, in order. */
static int
restore_job(const struct dstate *st, struct job *j)
{
	uint32_t	bs = st->lay.block_size;

	j->kind = JOB_WRITE;
	j->base = st->prog.probe_off / bs;
	j->count = st->prog.probe_len / bs;
	j->generation = st->prog.cycle;
	perm_init(&j->perm, j->count, 0, 1);
	return 0;
}

static int
ckpt_job(const struct dstate *st, const struct drive_conf *c, struct job *j)
{
	struct probe_job	*pj = &j->pj;
	uint64_t		 step = st->ckpt_step;

	if (step == CKPT_STEP_RESTORE)
		return restore_job(st, j);
	j->start = 0;		/* a probe step runs again from its start */
	pj->region_off = st->prog.probe_off;
	pj->region_len = st->prog.probe_len;
	pj->unit = st->prog.probe_unit;
	pj->gen_lo = pj->gen_hi = j->generation = st->prog.probe_gen;
	/* one stamp for the checkpoint: a unit's writes are the same bytes */
	pj->stamp_ns = st->ckpt_started * 1000000000ULL;
	if (step == CKPT_STEP_FILL)
		j->kind = JOB_PROBE_FILL;
	else if (step == CKPT_STEP_CHECK)
		j->kind = JOB_PROBE_CHECK;
	else if ((pj->probe = sched_ckpt_probe(step)) == NULL)
		return -1;
	else {
		j->kind = JOB_PROBE_RUN;
		pj->ramp_ns = c->probe_ramp * 1000000000ULL;
		pj->duration_ns = c->probe_seconds * 1000000000ULL;
		pj->seed = st->instance ^ (st->prog.probe_gen << 8) ^ step;
	}
	return 0;
}

/*
 * By steps; the time left is the probes' (ramp and measure each), the
 * region's fill, check and write-back not counted: their speed is the
 * drive's to tell.
 */
static void
ckpt_progress(const struct dstate *st, const struct drive_conf *c,
    double *frac, uint64_t *eta)
{
	uint64_t	n = sched_ckpt_steps(c), left;

	left = sched_ckpt_steps_left(st, c);
	*frac = n > 0 && left <= n ? (double)(n - left) / (double)n : 0;
	*eta = sched_ckpt_probes_from(c, st->ckpt_step) *
	    (c->probe_seconds + c->probe_ramp);
}

const struct phase_kind phase_checkpoint = {
	.phase = PHASE_CHECKPOINT,
	.wanted = ckpt_wanted,
	.items = ckpt_items,
	.job = ckpt_job,
	.enter = ckpt_enter,
	.progress = ckpt_progress,
};
