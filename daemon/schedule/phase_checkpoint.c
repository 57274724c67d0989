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
 *
 * A full checkpoint's long tests (schedule.h, CL_*) widen that region to
 * the whole dynamic area at their first step. The degradation run needs
 * every block of it in units first (CL_FILL): a block part cycle data,
 * part units could be checked by neither. From a TRIM of the area until
 * the cycle's data is back (CL_RESTORE, flushed), progress.probe_trimmed
 * says any unit may read blank. The write-back is the clean pass whose
 * timeline shows the write cache; the dirty pass writes the same again.
 */
#include <stddef.h>
#include <string.h>

#include "perm.h"
#include "schedule.h"

#define B(part)		(1u << (part))

#define F90_TRIM	(1u << CL_F90_TRIM)

/*
 * The long tests, step by step in the order they run: a step's row says
 * when it runs, what its job is and what its end records. A step writes
 * its units over the whole dynamic area unless full90.
 */
static const struct long_step long_steps[CL_COUNT] = {
	/* whatever writes units over the area needs it in units first */
	[CL_FILL] = { "long-fill", B(LP_DEGRADE) | B(LP_THERMAL) | B(LP_TRIM) |
	    B(LP_FULL90), JOB_PROBE_FILL, .area = 1, .any = 1 },
	[CL_THERMAL_WRITE] = { "thermal-write", B(LP_THERMAL), JOB_PROBE_RUN,
	    .area = 1, .probe = "seq-write-128k-qd32", .time = LT_THERMAL,
	    .record = LREC_THERMAL },
	[CL_THERMAL_READ] = { "thermal-read", B(LP_THERMAL), JOB_PROBE_RUN,
	    .area = 1, .probe = "seq-read-128k-qd32", .time = LT_THERMAL,
	    .record = LREC_THERMAL },
	[CL_DEGRADE] = { "degrade", B(LP_DEGRADE), JOB_PROBE_RUN, .area = 1,
	    .probe = "degrade", .time = LT_DEGRADE, .record = LREC_DEGRADE },
	[CL_GC_IDLE] = { "gc-idle", B(LP_DEGRADE) | B(LP_RECOVERY),
	    JOB_PROBE_IDLE, .area = 1, .time = LT_GC_IDLE },
	[CL_GC_RECOVER] = { "recover-idle", B(LP_DEGRADE) | B(LP_RECOVERY),
	    JOB_PROBE_RUN, .area = 1, .probe = "degrade", .time = LT_RECOVERY,
	    .idle_before = 1, .record = LREC_RECOVERY },
	[CL_CHECK] = { "long-check", B(LP_DEGRADE) | B(LP_THERMAL),
	    JOB_PROBE_CHECK, .area = 1, .any = 1 },
	[CL_TRIM] = { "trim", B(LP_TRIM), JOB_TRIM, .area = 1 },
	[CL_TRIM_RECOVER] = { "recover-trim", B(LP_TRIM), JOB_PROBE_RUN,
	    .area = 1, .probe = "degrade", .time = LT_RECOVERY,
	    .after_trim = 1u << CL_TRIM, .record = LREC_RECOVERY },
	[CL_TRIM_CHECK] = { "trim-check", B(LP_TRIM), JOB_PROBE_CHECK,
	    .area = 1 },
	[CL_F90_TRIM] = { "full90-trim", B(LP_FULL90), JOB_TRIM, .area = 1,
	    .full90 = 1 },
	[CL_F90_RAND] = { "full90-rand-write-4k-qd32", B(LP_FULL90),
	    JOB_PROBE_RUN, .area = 1, .probe = "degrade", .time = LT_PROBE,
	    .full90 = 1, .after_trim = F90_TRIM, .record = LREC_FULL90 },
	[CL_F90_SEQ] = { "full90-seq-write-128k-qd32", B(LP_FULL90),
	    JOB_PROBE_RUN, .area = 1, .probe = "seq-write-128k-qd32",
	    .time = LT_PROBE, .full90 = 1, .after_trim = F90_TRIM,
	    .record = LREC_FULL90 },
	[CL_F90_CHECK] = { "full90-check", B(LP_FULL90), JOB_PROBE_CHECK,
	    .area = 1, .full90 = 1 },
	[CL_CACHE_TRIM] = { "cache-trim", B(LP_CACHE), JOB_TRIM, .area = 1 },
	[CL_CACHE_IDLE] = { "cache-idle", B(LP_CACHE), JOB_PROBE_IDLE,
	    .area = 1, .time = LT_GC_IDLE },
	/* the write-back; after cache-trim and cache-idle, the clean pass */
	[CL_RESTORE] = { "clean-pass", 0, JOB_WRITE, .area = 1,
	    .after_trim = 1u << CL_CACHE_TRIM, .record = LREC_PASS,
	    .title = "sequential pass" },
	[CL_DIRTY] = { "dirty-pass", B(LP_CACHE), JOB_WRITE, .record = LREC_PASS,
	    .title = "sequential pass, no TRIM before" },
	[CL_FRESH_READ] = { "fresh-read", 0, JOB_VERIFY, .every = 1,
	    .record = LREC_FRESH, .title = "fresh data: the dynamic area's "
	    "start, written last" },
	[CL_AGED_READ] = { "aged-read", 0, JOB_VERIFY, .every = 1, .aged = 1,
	    .record = LREC_AGED, .title = "aged data: the static area's "
	    "start, written first" },
};

/* The key of each long_time, in seconds. */
static const size_t long_time_key[LT_COUNT] = {
	[LT_DEGRADE] = offsetof(struct drive_conf, degrade_duration),
	[LT_RECOVERY] = offsetof(struct drive_conf, recovery_duration),
	[LT_PROBE] = offsetof(struct drive_conf, probe_seconds),
	[LT_THERMAL] = offsetof(struct drive_conf, thermal_duration),
	[LT_GC_IDLE] = offsetof(struct drive_conf, gc_idle),
};

const struct long_step *
sched_long_step(int l)
{
	return l >= 0 && l < CL_COUNT ? &long_steps[l] : NULL;
}

const struct probe ckpt_degrade_probe = {
	.id = "degrade",
	.title = "4 KiB random write QD32, whole area",
	.family = PF_RAND,
	.read_percent = 0,
	.random_percent = 100,
	.nsplit = 1,
	.split = { { 4096, 100 } },
	.queue_depth = 32,
	.workers = 1,
};

const struct probe *
sched_long_probe(int step)
{
	const struct long_step	*ls = sched_long_step(step);

	if (ls == NULL || ls->probe == NULL)
		return NULL;
	return strcmp(ls->probe, ckpt_degrade_probe.id) == 0 ?
	    &ckpt_degrade_probe : probe_find(ls->probe);
}

void
sched_long_region(const struct dstate *st, int step, uint64_t *off,
    uint64_t *len)
{
	const struct long_step	*ls = sched_long_step(step);

	if (ls != NULL && ls->full90) {
		sched_f90_region(st, off, len);
		return;
	}
	*off = st->prog.probe_off;
	*len = st->prog.probe_len;
}

void
sched_f90_region(const struct dstate *st, uint64_t *off, uint64_t *len)
{
	const struct layout	*l = &st->lay;
	uint64_t		 start = l->nblocks - l->nblocks / 10;

	if (start < l->static_blocks)
		start = l->static_blocks;
	*off = start * l->block_size;
	*len = (l->nblocks - start) * l->block_size;
}

static uint64_t
ckpt_items(const struct layout *l)
{
	(void)l;
	return CKPT_STEP_LAST + 1;
}

int
sched_ckpt_long(uint64_t step)
{
	return step > CKPT_STEP_RESTORE && step <= CKPT_STEP_LAST ?
	    (int)(step - CKPT_STEP_LONG(0)) : -1;
}

const char *
sched_ckpt_word(uint64_t step)
{
	const struct probe	*p = sched_ckpt_probe(step);
	int			 l = sched_ckpt_long(step);

	if (p != NULL)
		return p->id;
	if (l >= 0)
		return long_steps[l].word;
	return step == CKPT_STEP_FILL ? "fill" :
	    step == CKPT_STEP_CHECK ? "check" : "restore";
}

int
sched_ckpt_due(const struct dstate *st, const struct drive_conf *c)
{
	uint64_t	every = c->checkpoint_every;

	if (c->checkpoint == CKPT_OFF)
		return 0;
	return st->ckpt_asked || st->ckpt_done == 0 ||
	    (every != 0 && st->host_bytes_written / every > st->ckpt_at / every) ||
	    sched_ckpt_full_due(st, c);
}

int
sched_ckpt_full_due(const struct dstate *st, const struct drive_conf *c)
{
	uint64_t	every = c->full_checkpoint_every;

	if (c->checkpoint != CKPT_FULL)
		return 0;
	return st->full_done == 0 || (every != 0 &&
	    st->host_bytes_written / every > st->full_at / every);
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

uint64_t
sched_ckpt_aged_blocks(const struct dstate *st, const struct drive_conf *c)
{
	const struct layout	*l = &st->lay;
	uint64_t		 n;

	if (l->block_size == 0)
		return 0;	/* no layout yet (a drive refused at start) */
	n = c->checkpoint_region / l->block_size;
	if (n > l->static_blocks)
		n = l->static_blocks;
	return n < layout_dynamic_blocks(l) ? n : layout_dynamic_blocks(l);
}

const struct probe *
sched_ckpt_probe(uint64_t step)
{
	return step > CKPT_STEP_FILL && step < CKPT_STEP_CHECK ?
	    probe_at((size_t)step - 1) : NULL;
}

/* Is there a last tenth of the span to write in, in the dynamic area? */
static int
f90_fits(const struct dstate *st)
{
	uint64_t	off, len;

	sched_f90_region(st, &off, &len);
	return len > 0;
}

/* Does the configuration run this step of this checkpoint? */
static int
step_runs(const struct dstate *st, const struct drive_conf *c, uint64_t step)
{
	const struct probe	*p = sched_ckpt_probe(step);
	int			 l = sched_ckpt_long(step);
	/* the parts of the checkpoint running, fixed at its start */
	unsigned		 want, tests = st->prog.phase == PHASE_CHECKPOINT ?
	    st->ckpt_tests : c->full_checkpoint_tests;

	if (l >= 0 && long_steps[l].every)
		return sched_ckpt_aged_blocks(st, c) > 0;
	if (l >= 0 && long_steps[l].full90 && !f90_fits(st))
		return 0;	/* a span of under ten blocks has no tenth */
	if (l >= 0) {
		want = long_steps[l].parts;
		return st->ckpt_full && (long_steps[l].any ?
		    (tests & want) != 0 : (tests & want) == want);
	}
	if (step == CKPT_STEP_RESTORE)
		return !st->ckpt_full;	/* CL_RESTORE writes it all back */
	return p == NULL || probe_spec_has(c->checkpoint_probes, p);
}

uint64_t
sched_ckpt_probes_from(const struct drive_conf *c, uint64_t step)
{
	uint64_t	s, n = 0;
	const struct probe *p;

	for (s = step; s < CKPT_STEP_CHECK; s++)
		n += (uint64_t)((p = sched_ckpt_probe(s)) != NULL &&
		    probe_spec_has(c->checkpoint_probes, p));
	return n;
}

/* A timed long step's run (or idle), measured: its ramp apart. */
static uint64_t
long_run_seconds(const struct drive_conf *c, int l)
{
	enum long_time	t = long_steps[l].time;

	return t == LT_NONE ? 0 :
	    *(const uint64_t *)((const char *)c + long_time_key[t]);
}

/* A timed long step's seconds (0: its length is the drive's to tell). */
static uint64_t
long_seconds(const struct drive_conf *c, int l)
{
	return long_run_seconds(c, l) +
	    (long_steps[l].full90 && long_steps[l].time != LT_NONE ?
	    c->probe_ramp : 0);
}

uint64_t
sched_ckpt_long_seconds(const struct dstate *st, const struct drive_conf *c,
    uint64_t step)
{
	uint64_t	s, n = 0;

	for (s = step; s <= CKPT_STEP_LAST; s++)
		if (sched_ckpt_long(s) >= 0 && step_runs(st, c, s))
			n += long_seconds(c, sched_ckpt_long(s));
	return n;
}

/* The state the next checkpoint starts from: full or not as due. */
static struct dstate
next_state(const struct dstate *st, const struct drive_conf *c)
{
	struct dstate	n = *st;

	if (st->prog.phase != PHASE_CHECKPOINT) {
		n.ckpt_full = sched_ckpt_full_due(st, c);
		n.ckpt_tests = c->full_checkpoint_tests;
	}
	return n;
}

uint64_t
sched_ckpt_steps(const struct dstate *st, const struct drive_conf *c)
{
	struct dstate	n = next_state(st, c);
	uint64_t	s, k = 0;

	for (s = CKPT_STEP_FILL; s <= CKPT_STEP_LAST; s++)
		k += (uint64_t)step_runs(&n, c, s);
	return k;
}

uint64_t
sched_ckpt_steps_left(const struct dstate *st, const struct drive_conf *c)
{
	uint64_t	s, n = 0;

	for (s = st->ckpt_step; s <= CKPT_STEP_LAST; s++)
		n += (uint64_t)(step_runs(st, c, s) || s == st->ckpt_step);
	return n;
}

/* A long step begins: the region it may leave units in, a TRIM's mark. */
static void
long_enter(struct dstate *st, int l)
{
	const struct layout	*lay = &st->lay;

	st->prog.probe_off = lay->static_blocks * lay->block_size;
	st->prog.probe_len = layout_dynamic_blocks(lay) * lay->block_size;
	if (st->prog.probe_unit != 0)
		st->prog.probe_len -= st->prog.probe_len % st->prog.probe_unit;
	if (long_steps[l].kind == JOB_TRIM)
		st->prog.probe_trimmed = 1;
}

/* The step that wrote the cycle's data back, flushed, is done. */
static int
restored(const struct dstate *st)
{
	return st->ckpt_step == CKPT_STEP_RESTORE ||
	    st->ckpt_step == CKPT_STEP_LONG(CL_RESTORE);
}

int
sched_ckpt_next(struct dstate *st, const struct drive_conf *c)
{
	st->prog.position = 0;
	if (restored(st)) {	/* no units left, nothing discarded */
		/* written again: a block lost there is no longer (state.h) */
		if (st->lay.block_size != 0)
			lost_forget(&st->lost, st->prog.probe_off /
			    st->lay.block_size, (st->prog.probe_len +
			    st->lay.block_size - 1) / st->lay.block_size);
		st->prog.probe_off = st->prog.probe_len = 0;
		st->prog.probe_trimmed = 0;
	}
	do
		st->ckpt_step++;
	while (st->ckpt_step <= CKPT_STEP_LAST && !step_runs(st, c,
	    st->ckpt_step));
	if (st->ckpt_step > CKPT_STEP_LAST) {
		st->ckpt_step = 0;
		st->prog.probe_trimmed = 0;
		st->ckpt_done++;
		if (st->ckpt_full) {
			st->full_done++;
			st->full_at = st->ckpt_at;
		}
		st->ckpt_full = 0;
		return 0;
	}
	if (sched_ckpt_long(st->ckpt_step) >= 0 &&
	    long_steps[sched_ckpt_long(st->ckpt_step)].area)
		long_enter(st, sched_ckpt_long(st->ckpt_step));
	return 1;
}

/* The checkpoint begins: its number, region and generation. */
static void
ckpt_enter(struct dstate *st, const struct drive_conf *c, uint64_t now_ms)
{
	st->ckpt_step = CKPT_STEP_FILL;
	st->ckpt_full = sched_ckpt_full_due(st, c);
	st->ckpt_tests = c->full_checkpoint_tests;
	st->prog.probe_trimmed = 0;
	st->degrade_initial_x100 = 0;
	st->ckpt_trim_failed = 0;
	st->fresh_bps = st->fresh_p999_ns = 0;
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

/*
 * The clean pass and the dirty pass: the cycle's blocks over the area, in
 * order. The clean pass after a crash goes on where it was (it is the
 * write-back); the dirty pass writes the area again from its start.
 */
static int
pass_job(const struct dstate *st, int l, struct job *j)
{
	if (l == CL_RESTORE) {
		j->start = st->prog.position;
		return restore_job(st, j);
	}
	restore_job(st, j);
	j->base = st->lay.static_blocks;
	j->count = layout_dynamic_blocks(&st->lay);
	return 0;
}

/* A long step's job: over the whole area, from its start. */
static int
long_job(const struct dstate *st, const struct drive_conf *c, int l,
    struct job *j)
{
	struct probe_job	*pj = &j->pj;
	int			 f90 = l >= 0 && l < CL_COUNT &&
	    long_steps[l].full90;

	if (l < 0 || l >= CL_COUNT)
		return -1;
	j->kind = long_steps[l].kind;
	j->start = 0;
	if (f90)
		sched_f90_region(st, &pj->region_off, &pj->region_len);
	switch (j->kind) {
	case JOB_WRITE:
		return pass_job(st, l, j);
	case JOB_TRIM:
		phase_trim.job(st, c, j);
		if (f90) {	/* from the region's start to the span's end */
			j->base = pj->region_off / st->lay.block_size;
			j->count = (pj->region_len + TRIM_CHUNK - 1) / TRIM_CHUNK;
		}
		return 0;
	case JOB_PROBE_IDLE:
		pj->duration_ns = long_run_seconds(c, l) * 1000000000ULL;
		return 0;
	case JOB_PROBE_RUN:
		if ((pj->probe = sched_long_probe(l)) == NULL)
			return -1;
		pj->duration_ns = long_run_seconds(c, l) * 1000000000ULL;
		pj->ramp_ns = f90 ? c->probe_ramp * 1000000000ULL : 0;
		pj->seed = st->instance ^ (st->prog.probe_gen << 8) ^
		    (uint64_t)l;
		return 0;
	case JOB_PROBE_CHECK:
		pj->allow_blank = st->prog.probe_trimmed;
		return 0;
	case JOB_VERIFY:
		/* the start of the static area, or as much of the dynamic */
		j->base = long_steps[l].aged ? 0 : st->lay.static_blocks;
		j->count = sched_ckpt_aged_blocks(st, c);
		return 0;
	default:
		return 0;
	}
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
	pj->poll = c->probe_wait == PROBE_POLL;
	if (sched_ckpt_long(step) >= 0)
		return long_job(st, c, sched_ckpt_long(step), j);
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
 * By steps; the time left is the probes' (ramp and measure each) and
 * the long tests' timed steps, the fills, checks, TRIMs and write-backs
 * not counted: their speed is the drive's to tell.
 */
static void
ckpt_progress(const struct dstate *st, const struct drive_conf *c,
    uint64_t now_ms, double *frac, uint64_t *eta)
{
	uint64_t	n = sched_ckpt_steps(st, c), left, in, gone;
	int		l = sched_ckpt_long(st->ckpt_step);

	left = sched_ckpt_steps_left(st, c);
	*frac = n > 0 && left <= n ? (double)(n - left) / (double)n : 0;
	*eta = sched_ckpt_probes_from(c, st->ckpt_step) *
	    (c->probe_seconds + c->probe_ramp) +
	    sched_ckpt_long_seconds(st, c, st->ckpt_step);
	/* the part of a timed step already run (a 2 h run counts down) */
	in = l >= 0 ? long_seconds(c, l) : sched_ckpt_probes_from(c,
	    st->ckpt_step) > sched_ckpt_probes_from(c, st->ckpt_step + 1) ?
	    c->probe_seconds + c->probe_ramp : 0;
	gone = st->ckpt_step_at != 0 && now_ms / 1000 > st->ckpt_step_at ?
	    now_ms / 1000 - st->ckpt_step_at : 0;
	*eta -= gone < in ? gone : in;
}

const struct phase_kind phase_checkpoint = {
	.phase = PHASE_CHECKPOINT,
	.wanted = ckpt_wanted,
	.items = ckpt_items,
	.job = ckpt_job,
	.enter = ckpt_enter,
	.progress = ckpt_progress,
};
