/*
 * test_schedule.c: the schedule of a drive, run against a simulated
 * worker: the phase sequences, the stops and the half-pass budget, resume
 * and pause/stop from every phase, progress, and the moves the run-state
 * and work tables allow or refuse.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "schedule.h"

#define BS	4096u
#define NBLK	100u		/* 25 static, 75 dynamic */
#define DYN	75u
#define NOSTOP	UINT64_MAX

/* A drive as the lifecycle would run it, without the I/O. */
struct sim {
	struct dstate		st;
	struct drive_conf	c;
	uint64_t		now_ms;
	char			log[2048];	/* what the lifecycle was told */
	int			reported;	/* phase_end events */
};

static void
say(struct sim *m, const char *fmt, ...)
{
	size_t	n = strlen(m->log);
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(m->log + n, sizeof(m->log) - n, fmt, ap);
	va_end(ap);
}

static void
sim_init(struct sim *m, double static_fraction)
{
	char	err[256];

	memset(m, 0, sizeof(*m));
	m->c.queue_depth = 4;
	m->c.autostart = 1;
	m->c.trim = 1;
	m->c.idle_sec = 5;
	m->c.cycles = 2;
	m->now_ms = 1000000;
	m->st.instance = 0x5eed;
	assert_int_equal(layout_init(&m->st.lay, 1ULL << 30, NBLK * BS, BS,
	    static_fraction, err, sizeof(err)), 0);
	sched_init(&m->st, &m->c);
}

/* What drive.c's sched_apply does with a step, in words. */
static void
apply(struct sim *m, const struct sched_step *s)
{
	struct sched_step	next;

	switch (s->move) {
	case MOVE_ENTER:
		assert_int_equal(s->phase, m->st.prog.phase);
		assert_int_equal(m->st.prog.position, 0);
		say(m, " %s%" PRIu64, phase_name(s->phase), m->st.prog.cycle);
		break;
	case MOVE_CYCLE_END:
		say(m, " |");
		sched_cycle_close(&m->st, &m->c, m->now_ms, &next);
		apply(m, &next);
		break;
	case MOVE_FINISH:
		say(m, " finish(%s)", s->why);
		m->st.run = RUN_FINISHED;
		break;
	default:
		break;
	}
}

/* The worker: the items of the job from its start, to `stop_at`. */
static enum job_end
work(struct sim *m, const struct job *j, uint64_t stop_at)
{
	uint64_t	pos, wrote = 0;
	enum job_end	end = JOB_DONE;

	if (j->count == 0 && stop_at == 0)
		return JOB_STOPPED;	/* a probe's timed job, stopped */
	for (pos = j->start; pos < j->count; pos++) {
		if (pos == stop_at) {
			end = JOB_STOPPED;
			break;
		}
		if (j->kind != JOB_WRITE)
			continue;
		if (j->write_budget != 0 && wrote >= j->write_budget) {
			end = JOB_BUDGET;
			break;
		}
		wrote += BS;
		m->st.host_bytes_written += BS;
	}
	sched_account(&m->st, pos, pos);
	return end;
}

/* The phase ended: what drive.c's phase_done does. */
static void
phase_end(struct sim *m, enum job_end end)
{
	struct sched_step	s;

	m->reported += sched_reported(&m->st, &m->c);
	sched_phase_done(&m->st, &m->c, end, m->now_ms, &s);
	apply(m, &s);
}

/* A checkpoint's step ended: what drive_ckpt_step_done does. */
static int
ckpt_step(struct sim *m, const struct job *j)
{
	(void)j;
	say(m, " %s", sched_ckpt_word(m->st.ckpt_step));
	if (!sched_ckpt_next(&m->st, &m->c))
		phase_end(m, JOB_DONE);
	return 1;
}

/*
 * One turn of drive_schedule() and of the job it hands out; `stop_at`
 * stops the job there. 0 when the drive no longer runs.
 */
static int
turn(struct sim *m, uint64_t stop_at)
{
	struct sched_step	s;
	struct job		j;
	enum job_end		end;

	if (m->st.run != RUN_RUNNING)
		return 0;
	sched_next(&m->st, &m->c, &j, &s);
	switch (s.move) {
	case MOVE_WAIT:
		if (s.until_ms > m->now_ms)
			m->now_ms = s.until_ms;	/* the timer fires */
		phase_end(m, JOB_DONE);
		return 1;
	case MOVE_RUN:
		end = work(m, &j, stop_at);
		if (end == JOB_DONE && m->st.prog.phase == PHASE_CHECKPOINT)
			return ckpt_step(m, &j);
		if (end != JOB_STOPPED)
			phase_end(m, end);
		return end != JOB_STOPPED;
	default:
		apply(m, &s);
		return 0;
	}
}

static void
run_all(struct sim *m)
{
	int	n = 0;

	while (turn(m, NOSTOP))
		assert_true(++n < 1000);
}

static void
test_static_then_cycles(void **state)
{
	struct sim	m;

	(void)state;
	sim_init(&m, 0.25);
	assert_int_equal(m.st.prog.phase, PHASE_STATIC);
	assert_int_equal(m.st.prog.cycle, 0);
	run_all(&m);
	assert_string_equal(m.log, " write1 verify1 trim1 | idle1 write2 "
	    "verify2 trim2 | finish(cycles reached)");
	assert_int_equal(m.st.cycles_done, 2);
	assert_int_equal(m.st.verify_passes, 2);
	assert_int_equal(m.st.prog.phase, PHASE_IDLE);
	assert_int_equal(m.st.idle_until_ms, 0);
	assert_true(m.st.prog.static_done);
	assert_int_equal(m.st.host_bytes_written, (25 + 2 * DYN) * BS);
	/* static, and per cycle write, verify, trim; the idle between */
	assert_int_equal(m.reported, 1 + 2 * 3 + 1);
}

static void
test_no_static(void **state)
{
	struct sim	m;

	(void)state;
	sim_init(&m, 0);
	assert_int_equal(m.st.prog.phase, PHASE_WRITE);
	assert_int_equal(m.st.prog.cycle, 1);
	assert_true(m.st.prog.static_done);
	m.c.cycles = 1;
	run_all(&m);
	assert_string_equal(m.log, " verify1 trim1 | finish(cycles reached)");
}

/* prepare = trim: the whole span discarded first, once, then the static
 * area (or, without one, the first cycle); the run's first phase only
 * (tests/integration/t_prepare.sh: not again at a resume) */
static void
test_prepare_trim(void **state)
{
	struct sim	m;
	struct job	j;
	struct sched_step s;
	int		with_static;

	(void)state;
	for (with_static = 1; with_static >= 0; with_static--) {
		sim_init(&m, with_static ? 0.25 : 0);
		m.c.prepare = PREPARE_TRIM;
		m.c.cycles = 1;
		memset(&m.st.prog, 0, sizeof(m.st.prog));	/* a fresh state */
		sched_init(&m.st, &m.c);
		assert_int_equal(m.st.prog.phase, PHASE_PREPARE);
		assert_int_equal(m.st.prog.cycle, 0);
		assert_false(m.st.prog.static_done);
		sched_next(&m.st, &m.c, &j, &s);
		assert_int_equal(s.move, MOVE_RUN);
		assert_int_equal(j.kind, JOB_TRIM);
		assert_int_equal(j.base, 0);	/* the whole span */
		assert_int_equal(j.count * j.trim_chunk,
		    (m.st.lay.span_bytes + TRIM_CHUNK - 1) / TRIM_CHUNK *
		    TRIM_CHUNK);
		run_all(&m);
		assert_string_equal(m.log, with_static ?
		    " static0 write1 verify1 trim1 | finish(cycles reached)" :
		    " write1 verify1 trim1 | finish(cycles reached)");
		assert_true(m.st.prog.static_done);
		/* the static area and a pass over the dynamic one */
		assert_int_equal(m.st.host_bytes_written, NBLK * BS);
	}
	/* prepare = none: the run begins as it always did */
	sim_init(&m, 0.25);
	assert_int_equal(m.st.prog.phase, PHASE_STATIC);
}

static void
test_no_trim_no_idle(void **state)
{
	struct sim	m;

	(void)state;
	sim_init(&m, 0.25);
	m.c.trim = 0;
	m.c.idle_sec = 0;
	m.c.cycles = 3;
	run_all(&m);
	/* without rest the idle phase is passed through, without events */
	assert_string_equal(m.log, " write1 verify1 | write2 verify2 | write3 "
	    "verify3 | finish(cycles reached)");
	assert_int_equal(m.reported, 1 + 3 * 2);
	assert_int_equal(m.st.prog.trimmed_bytes, 0);
}

static void
test_trim_only_or_idle_only(void **state)
{
	struct sim	m;

	(void)state;
	sim_init(&m, 0.25);
	m.c.idle_sec = 0;
	run_all(&m);
	assert_string_equal(m.log, " write1 verify1 trim1 | write2 verify2 "
	    "trim2 | finish(cycles reached)");
	sim_init(&m, 0.25);
	m.c.trim = 0;
	run_all(&m);
	assert_string_equal(m.log, " write1 verify1 | idle1 write2 verify2 | "
	    "finish(cycles reached)");
}

/* The trim of a cycle is what the next cycle's write pass expects. */
static void
test_trim_accounting(void **state)
{
	struct sim	m;

	(void)state;
	sim_init(&m, 0.25);
	m.c.cycles = 0;
	while (m.st.prog.cycle < 2)
		assert_true(turn(&m, NOSTOP));
	assert_int_equal(m.st.prog.phase, PHASE_WRITE);
	assert_true(m.st.prog.prev_trimmed);
	assert_int_equal(m.st.prog.trimmed_bytes, 0);
	assert_int_equal(m.st.prog.written, 0);
	m.c.trim = 0;
	while (m.st.prog.cycle < 3)
		assert_true(turn(&m, NOSTOP));
	assert_false(m.st.prog.prev_trimmed);
}

static void
test_cycles_forever(void **state)
{
	struct sim	m;
	int		n = 0;

	(void)state;
	sim_init(&m, 0.25);
	m.c.cycles = 0;
	while (m.st.prog.cycle < 10 || m.st.prog.phase != PHASE_IDLE)
		assert_true(turn(&m, NOSTOP) && ++n < 100);
	assert_int_equal(n, 1 + 10 * 4 - 1);	/* no idle after the last */
	assert_int_equal(m.st.run, RUN_RUNNING);
	assert_int_equal(m.st.cycles_done, 10);
	assert_null(sched_stop(&m.st, &m.c));
}

/* stop_at_tbw in a write pass: cut there, the last verify, finished. */
static void
test_stop_at_tbw_half_pass(void **state)
{
	struct sim		m;
	struct sched_step	s;
	struct job		j;

	(void)state;
	sim_init(&m, 0.25);
	m.c.cycles = 0;
	m.c.stop_at_tbw = (25 + DYN + 30) * BS;
	while (m.st.prog.cycle < 2)
		assert_true(turn(&m, NOSTOP));
	sched_next(&m.st, &m.c, &j, &s);
	assert_int_equal(s.move, MOVE_RUN);
	assert_int_equal(j.write_budget, 30 * BS);	/* what is left */
	run_all(&m);
	assert_string_equal(m.log, " write1 verify1 trim1 | idle1 write2 "
	    "verify2 finish(stop_at_tbw reached)");
	assert_int_equal(m.st.host_bytes_written, m.c.stop_at_tbw);
	/* back to the cut write pass, so that a raised limit goes on */
	assert_int_equal(m.st.prog.phase, PHASE_WRITE);
	assert_int_equal(m.st.prog.position, 30);
	assert_int_equal(m.st.prog.written, 30);
	assert_int_equal(m.st.prog.cycle, 2);
	assert_false(m.st.final_verify);
	assert_int_equal(m.st.verify_passes, 2);
	assert_int_equal(m.st.cycles_done, 1);
	assert_string_equal(sched_stop(&m.st, &m.c), "stop_at_tbw reached");
	/* raised by a reload: the pass goes on where it was cut */
	m.c.stop_at_tbw += 10 * BS;
	assert_null(sched_stop(&m.st, &m.c));
	sched_next(&m.st, &m.c, &j, &s);
	assert_int_equal(s.move, MOVE_RUN);
	assert_int_equal(j.kind, JOB_WRITE);
	assert_int_equal(j.start, 30);
	assert_int_equal(j.write_budget, 10 * BS);
	assert_int_equal(j.generation, 2);
}

/* stop_at_tbw reached just as a cycle completes: no half pass. */
static void
test_stop_at_tbw_cycle_end(void **state)
{
	struct sim	m;

	(void)state;
	sim_init(&m, 0.25);
	m.c.cycles = 0;
	m.c.stop_at_tbw = (25 + DYN) * BS;
	run_all(&m);
	assert_string_equal(m.log, " write1 verify1 trim1 | "
	    "finish(stop_at_tbw reached)");
	assert_int_equal(m.st.prog.phase, PHASE_IDLE);
}

/* A budget spent before a write pass starts (a restart, a reload). */
static void
test_budget_spent(void **state)
{
	struct sim		m;
	struct sched_step	s;
	struct job		j;
	uint64_t		b;

	(void)state;
	sim_init(&m, 0);
	m.c.stop_at_tbw = 1000;
	m.st.host_bytes_written = 1000;
	sched_next(&m.st, &m.c, &j, &s);
	assert_int_equal(s.move, MOVE_FINISH);
	assert_string_equal(s.why, "stop_at_tbw reached");
	assert_int_equal(phase_write_budget(&m.st, &m.c, &b), -1);
	m.c.stop_at_tbw = 0;
	assert_int_equal(phase_write_budget(&m.st, &m.c, &b), 0);
	assert_int_equal(b, 0);		/* unlimited */
	m.c.cycles = 3;
	m.st.cycles_done = 3;
	sched_next(&m.st, &m.c, &j, &s);
	assert_int_equal(s.move, MOVE_FINISH);
	assert_string_equal(s.why, "cycles reached");
	/* stops end the run before a write pass only */
	m.st.prog.phase = PHASE_VERIFY;
	sched_next(&m.st, &m.c, &j, &s);
	assert_int_equal(s.move, MOVE_RUN);
}

static void
test_wear_stop(void **state)
{
	struct drive_conf	c;

	(void)state;
	memset(&c, 0, sizeof(c));
	assert_null(sched_wear_stop(&c, 1, 99));
	c.stop_at_wear = 50;
	assert_null(sched_wear_stop(&c, 1, 49.9));
	assert_null(sched_wear_stop(&c, 0, 80));
	assert_string_equal(sched_wear_stop(&c, 1, 50), "stop_at_wear reached");
}

/*
 * Stopped (pause, stop, shutdown) halfway through each phase of a run and
 * resumed from the state alone: each job goes on where it stopped, and
 * the run ends as an uninterrupted one does.
 */
static void
test_stop_and_resume_every_phase(void **state)
{
	struct sim		m, whole;
	struct sched_step	s;
	struct job		j, again;
	int			seen[PHASE_NONE] = { 0 }, n = 0;

	(void)state;
	sim_init(&whole, 0.25);
	run_all(&whole);
	sim_init(&m, 0.25);
	while (m.st.run == RUN_RUNNING) {
		assert_true(++n < 1000);
		sched_next(&m.st, &m.c, &j, &s);
		if (s.move == MOVE_RUN && m.st.prog.position == 0) {
			struct dstate saved;

			seen[m.st.prog.phase]++;
			assert_int_equal(work(&m, &j, j.count / 2), JOB_STOPPED);
			assert_int_equal(m.st.prog.position, j.count / 2);
			saved = m.st;		/* checkpoint, restart */
			m.st = saved;
			sched_next(&m.st, &m.c, &again, &s);
			assert_int_equal(s.move, MOVE_RUN);
			assert_int_equal(again.kind, j.kind);
			assert_int_equal(again.count, j.count);
			assert_int_equal(again.base, j.base);
			assert_int_equal(again.generation, j.generation);
			assert_int_equal(again.start, j.count / 2);
			assert_memory_equal(&again.perm, &j.perm, sizeof(j.perm));
		}
		turn(&m, NOSTOP);
	}
	assert_string_equal(m.log, whole.log);
	assert_int_equal(m.st.host_bytes_written, whole.st.host_bytes_written);
	assert_int_equal(seen[PHASE_STATIC], 1);
	assert_int_equal(seen[PHASE_WRITE], 2);
	assert_int_equal(seen[PHASE_VERIFY], 2);
	assert_int_equal(seen[PHASE_TRIM], 2);
}

/* Idle resumed after a restart: the deadline in the state holds. */
static void
test_resume_idle(void **state)
{
	struct sim		m;
	struct sched_step	s;
	struct job		j;
	uint64_t		until;

	(void)state;
	sim_init(&m, 0.25);
	while (m.st.prog.phase != PHASE_IDLE)
		assert_true(turn(&m, NOSTOP));
	until = m.st.idle_until_ms;
	assert_int_equal(until, m.now_ms + m.c.idle_sec * 1000);
	sched_next(&m.st, &m.c, &j, &s);
	assert_int_equal(s.move, MOVE_WAIT);
	assert_int_equal(s.until_ms, until);
	m.now_ms += 2000;		/* a restart, 2 s later */
	sched_next(&m.st, &m.c, &j, &s);
	assert_int_equal(s.until_ms, until);
	m.now_ms = until + 1;
	assert_true(turn(&m, NOSTOP));
	assert_int_equal(m.st.prog.phase, PHASE_WRITE);
	assert_int_equal(m.st.prog.cycle, 2);
}

static void
test_resume_run_state(void **state)
{
	struct sim	m;

	(void)state;
	sim_init(&m, 0.25);
	m.c.autostart = 0;
	sched_resume(&m.st, &m.c);
	assert_int_equal(m.st.run, RUN_STOPPED);
	assert_string_equal(m.st.reason, "autostart = no");
	m.st.run = RUN_FINISHED;
	strcpy(m.st.reason, "cycles reached");
	m.st.cycles_done = 2;
	sched_resume(&m.st, &m.c);	/* still reached */
	assert_int_equal(m.st.run, RUN_FINISHED);
	m.c.cycles = 3;			/* raised while it was down */
	sched_resume(&m.st, &m.c);
	assert_int_equal(m.st.run, RUN_RUNNING);
	assert_string_equal(m.st.reason, "");
	sim_init(&m, 0.25);
	m.c.autostart = 0;
	sched_init(&m.st, &m.c);
	assert_int_equal(m.st.run, RUN_STOPPED);
}

static void
test_progress(void **state)
{
	struct sim	m;
	double		f;
	uint64_t	eta;

	(void)state;
	sim_init(&m, 0.25);
	m.c.cycles = 0;
	while (m.st.prog.phase != PHASE_WRITE)
		assert_true(turn(&m, NOSTOP));
	sched_progress(&m.st, &m.c, 0, 30, 0, m.now_ms, &f, &eta);
	assert_float_equal(f, 30.0 / DYN, 1e-9);
	assert_int_equal(eta, 0);	/* no throughput, no ETA */
	sched_progress(&m.st, &m.c, 0, 30, BS, m.now_ms, &f, &eta);
	assert_int_equal(eta, DYN - 30);
	/* an on-demand pass counts the whole span */
	sched_progress(&m.st, &m.c, 1, 50, BS, m.now_ms, &f, &eta);
	assert_float_equal(f, 0.5, 1e-9);
	assert_int_equal(eta, 50);
	while (m.st.prog.phase != PHASE_TRIM)
		assert_true(turn(&m, NOSTOP));
	sched_progress(&m.st, &m.c, 0, 0, BS, m.now_ms, &f, &eta);
	assert_float_equal(f, 0, 1e-9);
	assert_int_equal(eta, 0);	/* a trim's speed says nothing */
	while (m.st.prog.phase != PHASE_IDLE)
		assert_true(turn(&m, NOSTOP));
	sched_progress(&m.st, &m.c, 0, 0, 0, m.now_ms + 1000, &f, &eta);
	assert_float_equal(f, 0.2, 1e-9);
	assert_int_equal(eta, 4);
	sched_progress(&m.st, &m.c, 0, 0, 0, m.now_ms + 9000, &f, &eta);
	assert_int_equal(eta, 0);
}

/* Every phase kind is in the table once, and the lookup finds it. */
static void
test_kinds(void **state)
{
	enum phase	p;

	(void)state;
	for (p = PHASE_STATIC; p < PHASE_NONE; p++) {
		assert_non_null(sched_kind(p));
		assert_int_equal(sched_kind(p)->phase, p);
	}
	assert_null(sched_kind(PHASE_NONE));
	assert_int_equal(sched_kind(PHASE_TRIM)->items(&(struct layout){
	    .block_size = BS, .nblocks = (TRIM_CHUNK / BS) + 1 }), 2);
}

static void
test_run_moves(void **state)
{
	enum run_state	r;

	(void)state;
	/* pause and stop, from each state */
	assert_true(sched_run_allowed(RUN_RUNNING, RUN_PAUSED));
	assert_true(sched_run_allowed(RUN_RUNNING, RUN_STOPPED));
	assert_true(sched_run_allowed(RUN_PAUSED, RUN_STOPPED));
	assert_true(sched_run_allowed(RUN_PAUSED, RUN_RUNNING));
	for (r = RUN_PAUSED; r <= RUN_FAILED; r++)
		assert_false(sched_run_allowed(r, RUN_PAUSED));
	assert_false(sched_run_allowed(RUN_STOPPED, RUN_STOPPED));
	assert_false(sched_run_allowed(RUN_FINISHED, RUN_STOPPED));
	assert_false(sched_run_allowed(RUN_FAILED, RUN_STOPPED));
	/* a start leaves any state but running */
	assert_false(sched_run_allowed(RUN_RUNNING, RUN_RUNNING));
	for (r = RUN_PAUSED; r <= RUN_FAILED; r++)
		assert_true(sched_run_allowed(r, RUN_RUNNING));
	/* a failure follows anything; a failed drive does not finish */
	for (r = RUN_RUNNING; r <= RUN_FAILED; r++)
		assert_true(sched_run_allowed(r, RUN_FAILED));
	assert_false(sched_run_allowed(RUN_FAILED, RUN_FINISHED));
	assert_false(sched_run_allowed(RUN_FINISHED, RUN_FINISHED));
	/* a job that completed as the drive was stopped may finish it */
	assert_true(sched_run_allowed(RUN_STOPPED, RUN_FINISHED));
	assert_true(sched_run_allowed(RUN_PAUSED, RUN_FINISHED));
	assert_false(sched_run_allowed(RUN_FAILED + 1, RUN_RUNNING));
}

static void
test_work_moves(void **state)
{
	enum work	w;

	(void)state;
	for (w = WORK_NONE; w <= WORK_HUNG; w++)
		assert_true(sched_work_allowed(w, WORK_NONE));
	assert_true(sched_work_allowed(WORK_NONE, WORK_PHASE));
	assert_true(sched_work_allowed(WORK_NONE, WORK_VERIFY));
	assert_true(sched_work_allowed(WORK_PHASE, WORK_VERIFY_NEXT));
	assert_true(sched_work_allowed(WORK_PHASE, WORK_HUNG));
	assert_true(sched_work_allowed(WORK_VERIFY, WORK_HUNG));
	assert_false(sched_work_allowed(WORK_NONE, WORK_HUNG));
	assert_false(sched_work_allowed(WORK_PHASE, WORK_PHASE));
	assert_false(sched_work_allowed(WORK_VERIFY, WORK_VERIFY_NEXT));
	assert_false(sched_work_allowed(WORK_VERIFY_NEXT, WORK_VERIFY));
	/* a power cut comes only out of a phase job, and leads to none */
	assert_true(sched_work_allowed(WORK_PHASE, WORK_CUT_NEXT));
	assert_false(sched_work_allowed(WORK_VERIFY, WORK_CUT_NEXT));
	assert_false(sched_work_allowed(WORK_CUT_NEXT, WORK_PHASE));
	assert_true(sched_work_allowed(WORK_CUT_NEXT, WORK_NONE));
	assert_false(sched_work_allowed(WORK_HUNG, WORK_PHASE));
	assert_false(sched_work_allowed(WORK_HUNG, WORK_VERIFY));
	assert_string_equal(work_name(WORK_VERIFY_NEXT), "verify-next");
}

/* A drive that runs checkpoints of two probes, the region capped. */
static void
sim_ckpt(struct sim *m, uint64_t every)
{
	sim_init(m, 0.25);
	m->c.checkpoint = CKPT_QUICK;
	m->c.checkpoint_every = every;
	m->c.checkpoint_region = 40 * BS;
	m->c.checkpoint_probes = "rand-read-4k-qd1, desktop";
	m->c.probe_seconds = 3;
	m->c.probe_ramp = 1;
}

#define CKPT_LOG(c) " checkpoint" #c " fill rand-read-4k-qd1 desktop " \
	"check restore fresh-read aged-read"

/*
 * The baseline after the first write and verify; then one each time the
 * host bytes pass a multiple of checkpoint_every, the checkpoints' own
 * writes (here the region's rewrite) counted.
 */
static void
test_checkpoint_milestones(void **state)
{
	struct sim	m;

	(void)state;
	sim_ckpt(&m, 250 * BS);
	m.c.cycles = 4;
	run_all(&m);
	assert_string_equal(m.log, " write1 verify1" CKPT_LOG(1) " trim1 | "
	    "idle1 write2 verify2 trim2 | idle2 write3 verify3" CKPT_LOG(3)
	    " trim3 | idle3 write4 verify4 trim4 | finish(cycles reached)");
	assert_int_equal(m.st.ckpt_done, 2);
	assert_int_equal(m.st.ckpt_at, (25 + 3 * DYN + 40) * BS);
	assert_int_equal(m.st.host_bytes_written, (25 + 4 * DYN + 80) * BS);
	assert_int_equal(m.st.prog.probe_gen, CKPT_GEN(2));
	assert_int_equal(m.st.prog.probe_len, 0);	/* the cycle's data back */
	/* a phase_end for each checkpoint, not one per step */
	assert_int_equal(m.reported, 1 + 4 * 3 + 3 + 2);
}

/* Off: none, whatever is asked; asked: one at the next boundary. */
static void
test_checkpoint_off_and_asked(void **state)
{
	struct sim	m;

	(void)state;
	sim_ckpt(&m, 1ULL << 50);
	m.c.checkpoint = CKPT_OFF;
	m.st.ckpt_asked = 1;
	run_all(&m);
	assert_string_equal(m.log, " write1 verify1 trim1 | idle1 write2 "
	    "verify2 trim2 | finish(cycles reached)");
	sim_ckpt(&m, 1ULL << 50);
	m.c.cycles = 3;
	while (m.st.prog.cycle < 2)
		assert_true(turn(&m, NOSTOP));
	m.st.ckpt_asked = 1;
	assert_true(sched_ckpt_due(&m.st, &m.c));
	run_all(&m);
	assert_string_equal(m.log, " write1 verify1" CKPT_LOG(1) " trim1 | "
	    "idle1 write2 verify2" CKPT_LOG(2) " trim2 | idle2 write3 verify3 "
	    "trim3 | finish(cycles reached)");
	assert_false(m.st.ckpt_asked);
}

/* The jobs of the steps: the region, the units, the probe, the rewrite. */
static void
test_checkpoint_jobs(void **state)
{
	struct sim		m;
	struct sched_step	s;
	struct job		j;
	uint64_t		stamp;

	(void)state;
	sim_ckpt(&m, 1ULL << 50);
	while (m.st.prog.phase != PHASE_CHECKPOINT)
		assert_true(turn(&m, NOSTOP));
	m.st.prog.probe_unit = 512;	/* the lifecycle's, from the device */
	sched_next(&m.st, &m.c, &j, &s);
	assert_int_equal(s.move, MOVE_RUN);
	assert_int_equal(j.kind, JOB_PROBE_FILL);
	assert_int_equal(j.pj.region_off, 25 * BS);	/* the dynamic area */
	assert_int_equal(j.pj.region_len, 40 * BS);	/* capped */
	assert_int_equal(j.pj.unit, 512);
	assert_int_equal(j.pj.gen_lo, CKPT_GEN(1));
	assert_int_equal(j.pj.gen_hi, CKPT_GEN(1));
	stamp = j.pj.stamp_ns;
	assert_true(stamp != 0);
	assert_true(sched_ckpt_next(&m.st, &m.c));
	sched_next(&m.st, &m.c, &j, &s);
	assert_int_equal(j.kind, JOB_PROBE_RUN);
	assert_string_equal(j.pj.probe->id, "rand-read-4k-qd1");
	assert_int_equal(j.pj.duration_ns, 3000000000ULL);
	assert_int_equal(j.pj.ramp_ns, 1000000000ULL);
	assert_int_equal(j.pj.stamp_ns, stamp);	/* one stamp for all */
	while (m.st.ckpt_step != CKPT_STEP_RESTORE)
		assert_true(sched_ckpt_next(&m.st, &m.c));
	m.st.prog.position = 7;		/* a rewrite stopped there goes on */
	sched_next(&m.st, &m.c, &j, &s);
	assert_int_equal(j.kind, JOB_WRITE);
	assert_int_equal(j.base, 25);
	assert_int_equal(j.count, 40);
	assert_int_equal(j.start, 7);
	assert_int_equal(j.generation, m.st.prog.cycle);
	assert_int_equal(j.write_budget, 0);
}

/* A checkpoint stopped in a step runs that step again; progress by steps. */
static void
test_checkpoint_stop_resume(void **state)
{
	struct sim	m;
	double		f;
	uint64_t	eta;

	(void)state;
	sim_ckpt(&m, 1ULL << 50);
	m.c.cycles = 1;
	while (m.st.prog.phase != PHASE_CHECKPOINT)
		assert_true(turn(&m, NOSTOP));
	sched_progress(&m.st, &m.c, 0, 0, 0, m.now_ms, &f, &eta);
	assert_float_equal(f, 0, 1e-9);
	assert_int_equal(eta, 2 * (3 + 1));
	assert_true(turn(&m, NOSTOP));		/* fill */
	assert_string_equal(sched_ckpt_probe(m.st.ckpt_step)->id,
	    "rand-read-4k-qd1");
	assert_int_equal(sched_ckpt_steps(&m.st, &m.c), 7);
	sched_progress(&m.st, &m.c, 0, 0, 0, m.now_ms, &f, &eta);
	assert_float_equal(f, 1.0 / 7, 1e-9);
	assert_false(turn(&m, 0));		/* stopped in the probe */
	assert_string_equal(sched_ckpt_probe(m.st.ckpt_step)->id,
	    "rand-read-4k-qd1");
	sched_resume(&m.st, &m.c);
	run_all(&m);
	assert_string_equal(m.log, " write1 verify1" CKPT_LOG(1)
	    " trim1 | finish(cycles reached)");
}

/* A full checkpoint: the quick suite, then the long tests, first only. */
static void
sim_full(struct sim *m, unsigned parts)
{
	sim_ckpt(m, 1ULL << 50);
	m->c.checkpoint = CKPT_FULL;
	m->c.full_checkpoint_every = 1ULL << 50;
	m->c.full_checkpoint_tests = parts;
	m->c.degrade_duration = 7;
	m->c.gc_idle = 2;
	m->c.recovery_duration = 3;
	m->c.thermal_duration = 5;
	m->c.cycles = 2;
}

#define FULL_LOG " checkpoint1 fill rand-read-4k-qd1 desktop check " \
	"long-fill thermal-write thermal-read degrade gc-idle recover-idle long-check trim " \
	"recover-trim trim-check full90-trim full90-rand-write-4k-qd32 " \
	"full90-seq-write-128k-qd32 full90-check cache-trim cache-idle " \
	"clean-pass dirty-pass " \
	"fresh-read aged-read"

static void
test_checkpoint_full(void **state)
{
	struct sim	m;

	(void)state;
	sim_full(&m, LP_ALL);
	run_all(&m);
	assert_string_equal(m.log, " write1 verify1" FULL_LOG " trim1 | "
	    "idle1 write2 verify2 trim2 | finish(cycles reached)");
	assert_int_equal(m.st.ckpt_done, 1);
	assert_int_equal(m.st.full_done, 1);
	assert_int_equal(m.st.prog.probe_len, 0);
	assert_int_equal(m.st.prog.probe_trimmed, 0);
	/* each part alone: the write-back always, the rest as chosen */
	sim_full(&m, 1u << LP_CACHE);
	run_all(&m);
	assert_non_null(strstr(m.log, " check cache-trim cache-idle "
	    "clean-pass dirty-pass fresh-read aged-read trim1"));
	sim_full(&m, 1u << LP_RECOVERY);	/* needs the degradation run */
	run_all(&m);
	assert_non_null(strstr(m.log, " check clean-pass fresh-read aged-read "
	    "trim1"));
	/* a span of under ten blocks has no tenth to be 90 % full in */
	sim_full(&m, 1u << LP_FULL90);
	m.st.lay.nblocks = 9;
	m.st.lay.static_blocks = 2;
	while (m.st.prog.phase != PHASE_CHECKPOINT)
		assert_true(turn(&m, NOSTOP));
	m.st.lay.nblocks = 9;
	m.st.lay.static_blocks = 2;
	while (sched_ckpt_next(&m.st, &m.c))
		assert_null(strstr(sched_ckpt_word(m.st.ckpt_step), "full90"));
	/* a reload in the checkpoint changes the next one, not this one */
	sim_full(&m, LP_ALL);
	while (m.st.prog.phase != PHASE_CHECKPOINT)
		assert_true(turn(&m, NOSTOP));
	m.c.full_checkpoint_tests = 1u << LP_CACHE;
	run_all(&m);
	assert_non_null(strstr(m.log, FULL_LOG));
	sim_full(&m, 1u << LP_TRIM);	/* the area in units before it too */
	run_all(&m);
	assert_non_null(strstr(m.log, " check long-fill trim recover-trim "
	    "trim-check clean-pass fresh-read aged-read trim1"));
	sim_full(&m, 1u << LP_THERMAL);	/* its units checked too */
	run_all(&m);
	assert_non_null(strstr(m.log, " check long-fill thermal-write "
	    "thermal-read long-check clean-pass fresh-read aged-read trim1"));
	sim_full(&m, (1u << LP_DEGRADE) | (1u << LP_TRIM));
	run_all(&m);
	assert_non_null(strstr(m.log, " check long-fill degrade long-check "
	    "trim recover-trim trim-check clean-pass fresh-read aged-read trim1"));
}

/* Walk a full checkpoint to the step named, checking the turns between. */
static void
full_to(struct sim *m, const char *word, struct job *j)
{
	struct sched_step	s;

	while (strcmp(sched_ckpt_word(m->st.ckpt_step), word) != 0)
		assert_true(sched_ckpt_next(&m->st, &m->c));
	sched_next(&m->st, &m->c, j, &s);
	assert_int_equal(s.move, MOVE_RUN);
}

/* The long tests' jobs: the whole area, the marks a verify relies on. */
static void
test_checkpoint_full_jobs(void **state)
{
	struct sim	m;
	struct job	j;
	double		f;
	uint64_t	eta;

	(void)state;
	sim_full(&m, LP_ALL);
	while (m.st.prog.phase != PHASE_CHECKPOINT)
		assert_true(turn(&m, NOSTOP));
	assert_true(m.st.ckpt_full);
	sched_progress(&m.st, &m.c, 0, 0, 0, m.now_ms, &f, &eta);
	assert_int_equal(eta, 2 * (3 + 1) + 2 * 5 + 7 + 2 * 2 + 2 * 3 +
	    2 * (3 + 1));
	/* in a timed step, the time it has run is off the time left */
	m.st.ckpt_step = CKPT_STEP_LONG(CL_DEGRADE);
	m.st.ckpt_step_at = 1000;
	sched_progress(&m.st, &m.c, 0, 0, 0, 1004000, &f, &eta);
	assert_int_equal(eta, 7 + 2 * 2 + 2 * 3 + 2 * (3 + 1) - 4);
	sched_progress(&m.st, &m.c, 0, 0, 0, 1060000, &f, &eta);
	assert_int_equal(eta, 2 * 2 + 2 * 3 + 2 * (3 + 1));	/* not below */
	m.st.ckpt_step = CKPT_STEP_FILL;
	m.st.ckpt_step_at = 0;
	full_to(&m, "long-fill", &j);
	assert_int_equal(j.kind, JOB_PROBE_FILL);
	assert_int_equal(j.pj.region_off, 25 * BS);
	assert_int_equal(j.pj.region_len, 75 * BS);	/* all of it */
	assert_int_equal(m.st.prog.probe_len, 75 * BS);
	full_to(&m, "thermal-write", &j);
	assert_int_equal(j.kind, JOB_PROBE_RUN);
	assert_string_equal(j.pj.probe->id, "seq-write-128k-qd32");
	assert_int_equal(j.pj.duration_ns, 5000000000ULL);
	assert_int_equal(j.pj.region_len, 75 * BS);
	full_to(&m, "thermal-read", &j);
	assert_string_equal(j.pj.probe->id, "seq-read-128k-qd32");
	full_to(&m, "degrade", &j);
	assert_int_equal(j.kind, JOB_PROBE_RUN);
	assert_ptr_equal(j.pj.probe, &ckpt_degrade_probe);
	assert_int_equal(j.pj.duration_ns, 7000000000ULL);
	assert_int_equal(j.pj.ramp_ns, 0);
	full_to(&m, "gc-idle", &j);
	assert_int_equal(j.kind, JOB_PROBE_IDLE);
	assert_int_equal(j.pj.duration_ns, 2000000000ULL);
	full_to(&m, "long-check", &j);
	assert_int_equal(j.kind, JOB_PROBE_CHECK);
	assert_false(j.pj.allow_blank);
	assert_false(m.st.prog.probe_trimmed);
	full_to(&m, "trim", &j);
	assert_int_equal(j.kind, JOB_TRIM);
	assert_true(m.st.prog.probe_trimmed);	/* before any discard */
	full_to(&m, "recover-trim", &j);
	assert_int_equal(j.pj.duration_ns, 3000000000ULL);
	full_to(&m, "trim-check", &j);
	assert_true(j.pj.allow_blank);
	/* 90 % full: the last tenth of the span discarded, then written */
	full_to(&m, "full90-trim", &j);
	assert_int_equal(j.kind, JOB_TRIM);
	assert_int_equal(j.base, 90);
	assert_int_equal(j.count, 1);
	full_to(&m, "full90-rand-write-4k-qd32", &j);
	assert_int_equal(j.kind, JOB_PROBE_RUN);
	assert_ptr_equal(j.pj.probe, &ckpt_degrade_probe);
	assert_int_equal(j.pj.region_off, 90 * BS);
	assert_int_equal(j.pj.region_len, 10 * BS);
	assert_int_equal(j.pj.duration_ns, 3000000000ULL);
	assert_int_equal(j.pj.ramp_ns, 1000000000ULL);
	full_to(&m, "full90-seq-write-128k-qd32", &j);
	assert_string_equal(j.pj.probe->id, "seq-write-128k-qd32");
	assert_int_equal(j.pj.region_off, 90 * BS);
	full_to(&m, "full90-check", &j);
	assert_int_equal(j.kind, JOB_PROBE_CHECK);
	assert_int_equal(j.pj.region_len, 10 * BS);
	assert_true(j.pj.allow_blank);
	full_to(&m, "clean-pass", &j);
	m.st.prog.position = 9;		/* a write-back stopped there goes on */
	full_to(&m, "clean-pass", &j);
	assert_int_equal(j.kind, JOB_WRITE);
	assert_int_equal(j.base, 25);
	assert_int_equal(j.count, 75);
	assert_int_equal(j.start, 9);
	assert_int_equal(j.generation, m.st.prog.cycle);
	assert_true(m.st.prog.probe_trimmed);
	assert_true(sched_ckpt_next(&m.st, &m.c));	/* it is durable */
	assert_int_equal(m.st.prog.probe_len, 0);
	assert_false(m.st.prog.probe_trimmed);
	full_to(&m, "dirty-pass", &j);
	assert_int_equal(j.kind, JOB_WRITE);
	assert_int_equal(j.base, 25);
	assert_int_equal(j.count, 75);
	assert_int_equal(j.start, 0);
	/* the reads of fresh and aged data: as many blocks of each, read
	 * only, the area untouched */
	full_to(&m, "fresh-read", &j);
	assert_int_equal(j.kind, JOB_VERIFY);
	assert_int_equal(j.base, 25);
	assert_int_equal(j.count, 25);	/* the static area is smaller */
	assert_int_equal(m.st.prog.probe_len, 0);
	full_to(&m, "aged-read", &j);
	assert_int_equal(j.kind, JOB_VERIFY);
	assert_int_equal(j.base, 0);
	assert_int_equal(j.count, 25);
	assert_false(sched_ckpt_next(&m.st, &m.c));
	assert_int_equal(m.st.full_done, 1);
	assert_false(m.st.ckpt_full);
}

/* A drive without a layout (refused at start): its status asks the
 * checkpoint's steps too, and must get an answer, not a division by 0. */
static void
test_checkpoint_no_layout(void **state)
{
	struct dstate		st;
	struct drive_conf	c;
	double			f;
	uint64_t		eta;

	(void)state;
	memset(&st, 0, sizeof(st));
	memset(&c, 0, sizeof(c));
	c.checkpoint = CKPT_FULL;
	c.full_checkpoint_tests = LP_ALL;
	c.checkpoint_probes = "all";
	c.checkpoint_region = 1 << 20;
	assert_int_equal(sched_ckpt_aged_blocks(&st, &c), 0);
	assert_true(sched_ckpt_steps(&st, &c) > 0);
	st.prog.phase = PHASE_CHECKPOINT;
	sched_progress(&st, &c, 0, 0, 0, 1000, &f, &eta);
}

/* Full at first and at each full_checkpoint_every; quick in between. */
static void
test_checkpoint_full_due(void **state)
{
	struct sim	m;

	(void)state;
	sim_full(&m, LP_ALL);
	m.st.full_done = 1;
	m.st.full_at = 10;
	m.c.full_checkpoint_every = 100;
	m.st.host_bytes_written = 99;
	assert_false(sched_ckpt_full_due(&m.st, &m.c));
	m.st.host_bytes_written = 100;
	assert_true(sched_ckpt_full_due(&m.st, &m.c));
	m.st.ckpt_done = 1;
	m.st.ckpt_at = 100;	/* a quick one is not due, the full one is */
	assert_true(sched_ckpt_due(&m.st, &m.c));
	m.c.checkpoint = CKPT_QUICK;
	assert_false(sched_ckpt_full_due(&m.st, &m.c));
	assert_false(sched_ckpt_due(&m.st, &m.c));
}

/* A write pass cut by stop_at_tbw: no checkpoint over a mixed area. */
static void
test_checkpoint_cut_pass(void **state)
{
	struct sim	m;

	(void)state;
	sim_ckpt(&m, 1ULL << 50);
	m.c.stop_at_tbw = (25 + 30) * BS;
	run_all(&m);
	assert_int_equal(m.st.ckpt_done, 0);
	assert_null(strstr(m.log, "checkpoint"));
}

/* The on-demand pass reads everything, from the first block. */
static void
test_verify_job(void **state)
{
	struct sim	m;
	struct job	j;

	(void)state;
	sim_init(&m, 0.25);
	m.st.prog.position = 17;
	m.c.on_io_error = ON_ERROR_CONTINUE;
	sched_verify_job(&m.st, &m.c, &j);
	assert_int_equal(j.kind, JOB_VERIFY);
	assert_int_equal(j.start, 0);
	assert_int_equal(j.count, NBLK);
	assert_int_equal(j.expect.instance, m.st.instance);
	assert_int_equal(j.expect.position, 17);
	assert_int_equal(j.queue_depth, 4);
	assert_true(j.continue_on_error);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_then_cycles),
		cmocka_unit_test(test_no_static),
		cmocka_unit_test(test_prepare_trim),
		cmocka_unit_test(test_no_trim_no_idle),
		cmocka_unit_test(test_trim_only_or_idle_only),
		cmocka_unit_test(test_trim_accounting),
		cmocka_unit_test(test_cycles_forever),
		cmocka_unit_test(test_stop_at_tbw_half_pass),
		cmocka_unit_test(test_stop_at_tbw_cycle_end),
		cmocka_unit_test(test_budget_spent),
		cmocka_unit_test(test_wear_stop),
		cmocka_unit_test(test_stop_and_resume_every_phase),
		cmocka_unit_test(test_resume_idle),
		cmocka_unit_test(test_resume_run_state),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_run_moves),
		cmocka_unit_test(test_work_moves),
		cmocka_unit_test(test_verify_job),
		cmocka_unit_test(test_checkpoint_milestones),
		cmocka_unit_test(test_checkpoint_off_and_asked),
		cmocka_unit_test(test_checkpoint_jobs),
		cmocka_unit_test(test_checkpoint_stop_resume),
		cmocka_unit_test(test_checkpoint_cut_pass),
		cmocka_unit_test(test_checkpoint_full),
		cmocka_unit_test(test_checkpoint_full_jobs),
		cmocka_unit_test(test_checkpoint_full_due),
		cmocka_unit_test(test_checkpoint_no_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
