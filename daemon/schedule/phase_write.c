/*
 * phase_write.c: the write passes. The static area is written once before
 * the first cycle (generation 0, in order); each cycle begins with a pass
 * over the dynamic area (generation = cycle, in order or permuted), which
 * stop_at_tbw may cut short: the verify pass that follows is then the run's
 * last.
 */
#include "perm.h"
#include "schedule.h"

static uint64_t
static_items(const struct layout *l)
{
	return l->static_blocks;
}

static int
static_job(const struct dstate *st, const struct drive_conf *c,
    struct job *j)
{
	(void)c;
	j->kind = JOB_WRITE;
	j->base = 0;
	j->count = st->lay.static_blocks;
	j->generation = 0;
	perm_init(&j->perm, j->count, 0, 1);
	return 0;
}

static int
static_done(struct dstate *st, const struct drive_conf *c, enum job_end end,
    struct sched_step *s)
{
	(void)c;
	(void)end;
	(void)s;
	st->prog.static_done = 1;
	return 0;
}

const struct phase_kind phase_static = {
	.phase = PHASE_STATIC,
	.flags = PK_ONCE | PK_ETA,
	.items = static_items,
	.job = static_job,
	.done = static_done,
};

int
phase_write_budget(const struct dstate *st, const struct drive_conf *c,
    uint64_t *budget)
{
	*budget = 0;
	if (c->stop_at_tbw == 0)
		return 0;
	if (st->host_bytes_written >= c->stop_at_tbw)
		return -1;
	*budget = c->stop_at_tbw - st->host_bytes_written;
	return 0;
}

static int
write_job(const struct dstate *st, const struct drive_conf *c,
    struct job *j)
{
	const struct layout *l = &st->lay;

	j->kind = JOB_WRITE;
	j->base = l->static_blocks;
	j->count = layout_dynamic_blocks(l);
	j->generation = st->prog.cycle;
	layout_pass_perm(l, st->instance, st->prog.cycle, st->prog.pass_random,
	    &j->perm);
	return phase_write_budget(st, c, &j->write_budget);
}

/* The next cycle begins with this pass. */
static void
write_enter(struct dstate *st, const struct drive_conf *c, uint64_t now_ms)
{
	struct progress	*p = &st->prog;
	uint64_t	 area = layout_dynamic_blocks(&st->lay) *
	    st->lay.block_size;

	(void)now_ms;
	p->prev_trimmed = p->cycle > 0 && p->trimmed_bytes >= area;
	p->cycle++;
	p->written = 0;
	p->trimmed_bytes = 0;
	p->pass_random = c->order_random;
}

/* What the pass wrote: all, or up to the budget (then a last verify). */
static int
write_done(struct dstate *st, const struct drive_conf *c, enum job_end end,
    struct sched_step *s)
{
	(void)c;
	(void)s;
	st->prog.written = end == JOB_BUDGET ? st->prog.position :
	    layout_dynamic_blocks(&st->lay);
	st->final_verify = end == JOB_BUDGET;
	return 0;
}

const struct phase_kind phase_write = {
	.phase = PHASE_WRITE,
	.flags = PK_CYCLE_START | PK_ETA | PK_STOPS,
	.items = layout_dynamic_blocks,
	.job = write_job,
	.enter = write_enter,
	.done = write_done,
};
