/*
 * schedule.c: the table of phase kinds, the order of a run, its stops,
 * and the moves of the run state and of the work. Pure: everything it
 * decides comes from the state and the configuration it is given.
 */
#include <stddef.h>
#include <string.h>

#include "schedule.h"

/*
 * The run, in order: the PK_ONCE phases first, then cycles of the rest.
 * A new kind of phase is one line here (in its place in the order).
 */
static const struct phase_kind *const kinds[] = {
	&phase_prepare,
	&phase_static,
	&phase_write,
	&phase_verify,
	&phase_checkpoint,
	&phase_trim,
	&phase_idle,
};
#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))

/* The index of a phase in the table; NKINDS for none. */
static size_t
kind_index(enum phase p)
{
	size_t	i;

	for (i = 0; i < NKINDS; i++)
		if (kinds[i]->phase == p)
			return i;
	return NKINDS;
}

const struct phase_kind *
sched_kind(enum phase p)
{
	size_t	i = kind_index(p);

	return i < NKINDS ? kinds[i] : NULL;
}

static int
wanted(const struct phase_kind *k, const struct dstate *st,
    const struct drive_conf *c)
{
	return k->wanted == NULL || k->wanted(st, c);
}

/* Does PK_ONCE kind i run at the start of this run? */
static int
once_runs(size_t i, const struct dstate *st, const struct drive_conf *c)
{
	return (kinds[i]->items == NULL || kinds[i]->items(&st->lay) > 0) &&
	    wanted(kinds[i], st, c);
}

void
sched_init(struct dstate *st, const struct drive_conf *c)
{
	size_t	i;

	st->run = c->autostart ? RUN_RUNNING : RUN_STOPPED;
	st->prog.pass_random = c->order_random;
	for (i = 0; i < NKINDS; i++)
		if (!(kinds[i]->flags & PK_ONCE) || once_runs(i, st, c))
			break;
	st->prog.phase = kinds[i]->phase;
	if (kinds[i]->flags & PK_ONCE)
		return;
	/* nothing to do once: the first cycle begins at once */
	st->prog.static_done = 1;
	st->prog.cycle = 1;
}

void
sched_resume(struct dstate *st, const struct drive_conf *c)
{
	if (st->run == RUN_RUNNING && !c->autostart) {
		st->run = RUN_STOPPED;
		strcpy(st->reason, "autostart = no");
	}
	if (st->run == RUN_FINISHED && sched_stop(st, c) == NULL) {
		st->run = RUN_RUNNING;
		st->reason[0] = '\0';
	}
}

const char *
sched_stop(const struct dstate *st, const struct drive_conf *c)
{
	if (c->cycles != 0 && st->cycles_done >= c->cycles)
		return "cycles reached";
	if (c->stop_at_tbw != 0 && st->host_bytes_written >= c->stop_at_tbw)
		return "stop_at_tbw reached";
	return NULL;
}

const char *
sched_wear_stop(const struct drive_conf *c, int has_percent_used,
    double percent_used)
{
	if (c->stop_at_wear > 0 && has_percent_used &&
	    percent_used >= c->stop_at_wear)
		return "stop_at_wear reached";
	return NULL;
}

/* What every job of the drive carries: layout, expectations, limits. */
static void
job_common(const struct dstate *st, const struct drive_conf *c,
    struct job *j)
{
	memset(j, 0, sizeof(*j));
	j->lay = st->lay;
	j->start = st->prog.position;
	j->expect = st->prog;
	j->expect.instance = st->instance;
	j->queue_depth = c->queue_depth;
	j->continue_on_error = c->on_io_error == ON_ERROR_CONTINUE;
}

void
sched_next(const struct dstate *st, const struct drive_conf *c,
    struct job *j, struct sched_step *s)
{
	const struct phase_kind *k = sched_kind(st->prog.phase);

	memset(s, 0, sizeof(*s));
	s->move = MOVE_FINISH;
	s->why = "stop_at_tbw reached";	/* the budget was spent */
	if (k == NULL)
		return;
	if (k->job == NULL) {
		s->move = MOVE_WAIT;
		s->until_ms = st->idle_until_ms;
		return;
	}
	if ((k->flags & PK_STOPS) && (s->why = sched_stop(st, c)) != NULL)
		return;
	s->why = "stop_at_tbw reached";
	job_common(st, c, j);
	if (k->job(st, c, j) == 0)
		s->move = MOVE_RUN;
}

void
sched_verify_job(const struct dstate *st, const struct drive_conf *c,
    struct job *j)
{
	job_common(st, c, j);
	phase_verify.job(st, c, j);
	j->start = 0;		/* a whole pass, wherever the schedule is */
}

void
sched_account(struct dstate *st, uint64_t durable, uint64_t position)
{
	const struct phase_kind *k = sched_kind(st->prog.phase);

	/* never more than the drive was asked to keep */
	st->prog.position = durable;
	if (k != NULL && k->account != NULL)
		k->account(st, position);
}

int
sched_reported(const struct dstate *st, const struct drive_conf *c)
{
	const struct phase_kind *k = sched_kind(st->prog.phase);

	/* a timed phase not wanted was passed through without events */
	return k == NULL || k->job != NULL || wanted(k, st, c);
}

/* Enter kinds[i] at its start. */
static void
enter(struct dstate *st, const struct drive_conf *c, size_t i,
    uint64_t now_ms, struct sched_step *s)
{
	st->prog.phase = kinds[i]->phase;
	st->prog.position = 0;
	if (kinds[i]->enter != NULL)
		kinds[i]->enter(st, c, now_ms);
	s->move = MOVE_ENTER;
	s->phase = kinds[i]->phase;
}

void
sched_phase_done(struct dstate *st, const struct drive_conf *c,
    enum job_end end, uint64_t now_ms, struct sched_step *s)
{
	size_t	i = kind_index(st->prog.phase), n;

	memset(s, 0, sizeof(*s));
	if (i == NKINDS)
		return;
	if (kinds[i]->done != NULL && kinds[i]->done(st, c, end, s))
		return;
	/* after a phase of the run's start, the next one that runs */
	for (n = i + 1; (kinds[i]->flags & PK_ONCE) && n < NKINDS &&
	    (kinds[n]->flags & PK_ONCE); n++)
		if (once_runs(n, st, c)) {
			enter(st, c, n, now_ms, s);
			return;
		}
	/* the next phase of the run that is wanted; after the last, a cycle */
	for (n = (i + 1) % NKINDS; ; n = (n + 1) % NKINDS)
		if (!(kinds[n]->flags & PK_ONCE) &&
		    ((kinds[n]->flags & PK_AFTER_CYCLE) || wanted(kinds[n], st, c)))
			break;
	if (kinds[n]->flags & PK_AFTER_CYCLE)
		s->move = MOVE_CYCLE_END;
	else
		enter(st, c, n, now_ms, s);
}

void
sched_cycle_close(struct dstate *st, const struct drive_conf *c,
    uint64_t now_ms, struct sched_step *s)
{
	size_t	i;

	memset(s, 0, sizeof(*s));
	for (i = 0; !(kinds[i]->flags & PK_AFTER_CYCLE); i++)
		;
	st->cycles_done = st->prog.cycle;
	st->prog.phase = kinds[i]->phase;
	st->prog.position = 0;
	st->idle_until_ms = 0;
	if ((s->why = sched_stop(st, c)) != NULL)
		s->move = MOVE_FINISH;
	else if (wanted(kinds[i], st, c))
		enter(st, c, i, now_ms, s);
	else
		s->move = MOVE_NONE;	/* no rest: no events of it */
}

/* A timed phase: how much of its length has passed. */
static void
timed_progress(const struct dstate *st, const struct drive_conf *c,
    const struct phase_kind *k, uint64_t now_ms, double *frac, uint64_t *eta)
{
	uint64_t	len = k->seconds != NULL ? k->seconds(c) : 0, left;

	if (len == 0 || st->idle_until_ms <= now_ms)
		return;
	left = st->idle_until_ms - now_ms;
	*eta = (left + 999) / 1000;
	*frac = 1.0 - (double)left / ((double)len * 1000.0);
	*frac = *frac < 0 ? 0 : *frac > 1 ? 1 : *frac;
}

void
sched_progress(const struct dstate *st, const struct drive_conf *c,
    int on_demand, uint64_t position, double rate, uint64_t now_ms,
    double *frac, uint64_t *eta)
{
	const struct phase_kind *k = on_demand ? &phase_verify :
	    sched_kind(st->prog.phase);
	uint64_t	items;

	*frac = 0;
	*eta = 0;
	if (k == NULL)
		return;
	if (k->progress != NULL) {
		k->progress(st, c, now_ms, frac, eta);
		return;
	}
	if (k->job == NULL) {
		timed_progress(st, c, k, now_ms, frac, eta);
		return;
	}
	if ((items = k->items(&st->lay)) == 0)
		return;
	*frac = (double)position / (double)items;
	if (rate > 0 && (k->flags & PK_ETA))
		*eta = (uint64_t)((double)(items - position) *
		    st->lay.block_size / rate);
}

const char *
work_name(enum work w)
{
	static const char *const names[] = {
		[WORK_NONE] = "none", [WORK_PHASE] = "phase",
		[WORK_VERIFY_NEXT] = "verify-next", [WORK_VERIFY] = "verify",
		[WORK_CUT_NEXT] = "cut-next", [WORK_HUNG] = "hung",
	};

	return (unsigned)w < sizeof(names) / sizeof(names[0]) ? names[w] :
	    "unknown";
}

#define B(r)	(1u << (r))

/*
 * The run state's moves. A job the worker completed just as the drive
 * was stopped still moves the schedule on, and may finish the run; a
 * failure may follow anything, and a failed drive may fail again (a job
 * given up at io_timeout); only an operator's start leaves a failure.
 */
int
sched_run_allowed(enum run_state from, enum run_state to)
{
	static const unsigned allowed[] = {
		[RUN_RUNNING] = B(RUN_PAUSED) | B(RUN_STOPPED) |
		    B(RUN_FINISHED) | B(RUN_FAILED),
		[RUN_PAUSED] = B(RUN_RUNNING) | B(RUN_STOPPED) |
		    B(RUN_FINISHED) | B(RUN_FAILED),
		[RUN_STOPPED] = B(RUN_RUNNING) | B(RUN_FINISHED) | B(RUN_FAILED),
		[RUN_FINISHED] = B(RUN_RUNNING) | B(RUN_FAILED),
		[RUN_FAILED] = B(RUN_RUNNING) | B(RUN_FAILED),
	};

	return (unsigned)from <= RUN_FAILED && (unsigned)to <= RUN_FAILED &&
	    (allowed[from] & B(to)) != 0;
}

/*
 * The work's moves. A job ends (to none) from any state; a hung job ends
 * when its I/O completes at last, or when a start gives the drive a new
 * worker.
 */
int
sched_work_allowed(enum work from, enum work to)
{
	static const unsigned allowed[] = {
		[WORK_NONE] = B(WORK_NONE) | B(WORK_PHASE) | B(WORK_VERIFY),
		[WORK_PHASE] = B(WORK_NONE) | B(WORK_VERIFY_NEXT) |
		    B(WORK_CUT_NEXT) | B(WORK_HUNG),
		[WORK_VERIFY_NEXT] = B(WORK_NONE) | B(WORK_HUNG),
		[WORK_VERIFY] = B(WORK_NONE) | B(WORK_HUNG),
		[WORK_CUT_NEXT] = B(WORK_NONE) | B(WORK_HUNG),
		[WORK_HUNG] = B(WORK_NONE),
	};

	return (unsigned)from <= WORK_HUNG && (unsigned)to <= WORK_HUNG &&
	    (allowed[from] & B(to)) != 0;
}
