/*
 * schedule.h: what a drive does next, decided from its durable state and
 * its configuration alone. No I/O, no threads, no sd-event, no struct
 * drive: the lifecycle (drive.c) asks, does what the answer says (events,
 * checkpoints, the worker's job, timers) and tells the schedule how the
 * job ended.
 *
 * A run is the phases of the table in schedule.c in their order: the
 * phases marked PK_ONCE before the first cycle, then cycles of the others;
 * the phase marked PK_CYCLE_START begins a cycle, the one marked
 * PK_AFTER_CYCLE follows its close. A new kind of phase is one entry of
 * that table and one file (daemon/phase_*.c) defining its struct
 * phase_kind. A phase without a job is timed: it ends at the deadline its
 * enter() sets in the state (idle_until_ms).
 */
#ifndef SSDT_SCHEDULE_H
#define SSDT_SCHEDULE_H

#include <stdint.h>

#include "config.h"
#include "engine.h"
#include "probes.h"
#include "state.h"

#define TRIM_CHUNK	(1ULL << 30)	/* bytes of one discard call */

/* Flags of a phase kind. */
#define PK_ONCE		0x01	/* before the first cycle only */
#define PK_CYCLE_START	0x02	/* entering it begins the next cycle */
#define PK_AFTER_CYCLE	0x04	/* the cycle closes before it */
#define PK_VERIFY	0x08	/* a verify pass: findings, its error map */
#define PK_ETA		0x10	/* the throughput tells the time it has left */
#define PK_STOPS	0x20	/* a stop condition ends the run before it runs */

/* What the lifecycle does next. */
enum sched_move {
	MOVE_NONE,	/* nothing to do now (rest: checkpoint only) */
	MOVE_RUN,	/* hand the worker the job filled in */
	MOVE_WAIT,	/* no job: the phase ends at `until_ms` (wall clock) */
	MOVE_ENTER,	/* the state has entered `phase` (at its start) */
	MOVE_CYCLE_END,	/* the cycle is complete: close it (sched_cycle_close) */
	MOVE_FINISH	/* the run is done: `why` */
};

struct sched_step {
	enum sched_move	 move;
	enum phase	 phase;		/* MOVE_ENTER */
	uint64_t	 until_ms;	/* MOVE_WAIT */
	const char	*why;		/* MOVE_FINISH */
};

/* One kind of phase: how its job is made, counted, ended and followed. */
struct phase_kind {
	enum phase	 phase;
	unsigned	 flags;		/* PK_* */
	/* In the run, with this configuration? NULL: always. */
	int		(*wanted)(const struct dstate *, const struct drive_conf *);
	/* Items of its pass (blocks, trim chunks); NULL: none (no job). */
	uint64_t	(*items)(const struct layout *);
	/* Its job (common fields already set); -1: nothing left to do. */
	int		(*job)(const struct dstate *, const struct drive_conf *,
			    struct job *);
	/* A timed phase's length in seconds (progress); NULL: not timed. */
	uint64_t	(*seconds)(const struct drive_conf *);
	/* Entered at its start (state already says this phase). */
	void		(*enter)(struct dstate *, const struct drive_conf *,
			    uint64_t now_ms);
	/* The worker's position in its pass (progress beyond `position`). */
	void		(*account)(struct dstate *, uint64_t position);
	/*
	 * Its job ended `end`: record what it did. 1 when it decided what
	 * follows (in *step), 0 for the next phase of the table.
	 */
	int		(*done)(struct dstate *, const struct drive_conf *,
			    enum job_end, struct sched_step *);
	/* Its fraction done and seconds left (at now_ms, wall clock), when
	 * neither its items nor its deadline tell them; NULL: they do. */
	void		(*progress)(const struct dstate *,
			    const struct drive_conf *, uint64_t now_ms,
			    double *frac, uint64_t *eta);
};

/* The kinds (phase_*.c); looked up through sched_kind(). */
/* Bytes the write pass may still write before stop_at_tbw (0: unlimited);
 * -1 when none are left (phase_write.c). */
int		 phase_write_budget(const struct dstate *,
		    const struct drive_conf *, uint64_t *budget);
extern const struct phase_kind phase_prepare, phase_static, phase_write,
    phase_verify, phase_checkpoint, phase_trim, phase_idle;

/*
 * A performance checkpoint (phase_checkpoint.c) is steps, one job each:
 * fill its region, each probe of the suite in its order (the probe of
 * step s is probe_at(s - 1); those checkpoint_probes leaves out are
 * passed over), check the region, write the cycle's data back over it.
 * The units the probes write are of a generation no cycle uses.
 *
 * A full checkpoint (checkpoint = full, at full_checkpoint_every) goes on
 * with the long tests over the whole dynamic area, the steps CL_* below
 * (CKPT_STEP_LONG(i)) of the parts full_checkpoint_tests names; their
 * own write-back (CL_RESTORE) takes the place of the quick suite's. Every
 * checkpoint ends with the two reads of CL_FRESH_READ and CL_AGED_READ.
 */
#define CKPT_STEP_FILL		0
#define CKPT_STEP_CHECK		(probe_count() + 1)
#define CKPT_STEP_RESTORE	(probe_count() + 2)
#define CKPT_GEN(n)		((1ULL << 62) | (n))

enum ckpt_long {
	CL_FILL,	/* the area in units, flushed: all a verify can check */
	CL_THERMAL_WRITE, /* 128 KiB sequential writes, thermal_duration */
	CL_THERMAL_READ, /* 128 KiB sequential reads, as long */
	CL_DEGRADE,	/* 4 KiB random writes at QD32, degrade_duration */
	CL_GC_IDLE,	/* no I/O for gc_idle */
	CL_GC_RECOVER,	/* the same workload for recovery_duration */
	CL_CHECK,	/* every unit of the area read and checked */
	CL_TRIM,	/* the area discarded */
	CL_TRIM_RECOVER, /* the workload again, for recovery_duration */
	CL_TRIM_CHECK,	/* every unit again; blank (discarded) ones are ok */
	CL_F90_TRIM,	/* the last tenth of the span discarded: 90 % full */
	CL_F90_RAND,	/* 4 KiB random writes at QD32 inside it */
	CL_F90_SEQ,	/* 128 KiB sequential writes at QD32 inside it */
	CL_F90_CHECK,	/* every unit of it; blank ones are ok */
	CL_CACHE_TRIM,	/* discarded again: the clean pass starts empty */
	CL_CACHE_IDLE,	/* no I/O for gc_idle */
	CL_RESTORE,	/* the cycle's data, in order: the clean pass */
	CL_DIRTY,	/* the same again at once, no TRIM: the dirty pass */
	/* every checkpoint's, full or not: reads of data written minutes
	 * ago and of the static area's, written at the start (aged data) */
	CL_FRESH_READ,
	CL_AGED_READ,
	CL_COUNT
};
#define CKPT_STEP_LONG(i)	(CKPT_STEP_RESTORE + 1 + (uint64_t)(i))
#define CKPT_STEP_LAST		CKPT_STEP_LONG(CL_COUNT - 1)

/* What a long step's end records (the long tests' feature, one handler
 * each: features/ckpt_long.c). */
enum long_record {
	LREC_NONE,	/* nothing of its own */
	LREC_DEGRADE,	/* the degradation run: its series and figures */
	LREC_RECOVERY,	/* a recovery run: its series and shares */
	LREC_THERMAL,	/* a thermal run: its series and throttling */
	LREC_FULL90,	/* a write probe on the drive 90 % full */
	LREC_PASS,	/* a sequential pass: its write cache */
	LREC_FRESH,	/* the read of fresh data */
	LREC_AGED,	/* the read of aged data, against the fresh */
	LREC_COUNT
};

/* The key of the configuration that times a long step. */
enum long_time { LT_NONE, LT_DEGRADE, LT_RECOVERY, LT_PROBE, LT_THERMAL,
    LT_GC_IDLE, LT_COUNT };

/*
 * A step of the long tests: one row of the table in phase_checkpoint.c,
 * everything the schedule and the long tests' feature know of it.
 */
struct long_step {
	const char	*word;		/* its id in checkpoints.jsonl */
	unsigned	 parts;		/* LP_* bits that must all be on (0:
					 * the write-back: whenever long tests
					 * run), or with `any` one of them */
	enum job_kind	 kind;
	int		 area;		/* may leave units or discarded blocks
					 * in the area (the state says so) */
	int		 every;		/* every checkpoint's, not only full */
	int		 any;
	const char	*probe;		/* the probe it runs ("degrade": the
					 * degradation workload), or NULL */
	enum long_time	 time;		/* how long it runs (or idles) */
	int		 full90;	/* over the last tenth of the span,
					 * after a ramp of probe_ramp */
	int		 aged;		/* reads the static area's data */
	int		 idle_before;	/* comes after an idle of gc_idle */
	unsigned	 after_trim;	/* 1 << the CL_* TRIM its line says was
					 * done (or not), 0: none */
	enum long_record record;
	const char	*title;		/* its line's title, where its own */
};

/* The row of long step `l` (CL_*), NULL past them. */
const struct long_step *sched_long_step(int l);
/* The workload of the degradation run and its recovery runs. */
extern const struct probe ckpt_degrade_probe;
/* The probe of a long step that runs one (CL_DEGRADE...), or NULL. */
const struct probe *sched_long_probe(int step);
/* A long step's bytes: the area's, or the 90 %-full region's. */
void		 sched_long_region(const struct dstate *, int step,
		    uint64_t *off, uint64_t *len);
/* The region of the 90 %-full steps: offset and length in bytes. */
void		 sched_f90_region(const struct dstate *, uint64_t *off,
		    uint64_t *len);

/* Is a checkpoint due (at the next boundary after a whole write pass)? */
int		 sched_ckpt_due(const struct dstate *, const struct drive_conf *);
/* Is the next one full (checkpoint = full, first or full_checkpoint_every)? */
int		 sched_ckpt_full_due(const struct dstate *,
		    const struct drive_conf *);
/* The region a checkpoint probes: offset and length in bytes. */
void		 sched_ckpt_region(const struct dstate *,
		    const struct drive_conf *, uint64_t *off, uint64_t *len);
/* The blocks each of the aged-data reads covers (0: no static area). */
uint64_t	 sched_ckpt_aged_blocks(const struct dstate *,
		    const struct drive_conf *);
/* The probe a step runs; NULL for fill, check, restore and long steps. */
const struct probe *sched_ckpt_probe(uint64_t step);
/* The long test of a step (CL_*), or -1 for a step of the quick suite. */
int		 sched_ckpt_long(uint64_t step);
/* A step's word: "fill", a probe's id, "check", "restore", "degrade"... */
const char	*sched_ckpt_word(uint64_t step);
/* Steps the running (or next) checkpoint runs in all, and of them still
 * to run (the current one included), with this configuration. */
uint64_t	 sched_ckpt_steps(const struct dstate *,
		    const struct drive_conf *);
/* The probes the configuration runs from step `step` on. */
uint64_t	 sched_ckpt_probes_from(const struct drive_conf *, uint64_t step);
/* Seconds the timed long steps take from step `step` on. */
uint64_t	 sched_ckpt_long_seconds(const struct dstate *,
		    const struct drive_conf *, uint64_t step);
uint64_t	 sched_ckpt_steps_left(const struct dstate *,
		    const struct drive_conf *);
/*
 * The current step ended: the state moves to the next one the
 * configuration runs; 1 when there is one, 0 when the checkpoint is
 * complete (counted; its region holds the cycle's data again).
 */
int		 sched_ckpt_next(struct dstate *, const struct drive_conf *);

/* The kind of a phase; NULL for none. */
const struct phase_kind *sched_kind(enum phase);

/* A new run's schedule: its first phase, and running unless not autostarted. */
void		 sched_init(struct dstate *, const struct drive_conf *);
/* A run found on disk: what the configuration now says of its run state. */
void		 sched_resume(struct dstate *, const struct drive_conf *);
/* A stop condition reached (cycles, stop_at_tbw): its reason, else NULL. */
const char	*sched_stop(const struct dstate *, const struct drive_conf *);
/* stop_at_wear reached by a reading of percent used: its reason, else NULL. */
const char	*sched_wear_stop(const struct drive_conf *, int has_percent_used,
		    double percent_used);

/* A running drive without a job: what it does now. */
void		 sched_next(const struct dstate *, const struct drive_conf *,
		    struct job *, struct sched_step *);
/* The job of an on-demand verify pass of what the drive holds now. */
void		 sched_verify_job(const struct dstate *, const struct drive_conf *,
		    struct job *);
/* The worker's counters of the phase job: durable and in-order positions. */
void		 sched_account(struct dstate *, uint64_t durable, uint64_t position);
/* Does the end of the current phase get a phase_end event? */
int		 sched_reported(const struct dstate *, const struct drive_conf *);
/* The current phase ended `end`: the state moves on; what follows. */
void		 sched_phase_done(struct dstate *, const struct drive_conf *,
		    enum job_end, uint64_t now_ms, struct sched_step *);
/* After MOVE_CYCLE_END: the cycle recorded; finish, rest or enter a phase. */
void		 sched_cycle_close(struct dstate *, const struct drive_conf *,
		    uint64_t now_ms, struct sched_step *);
/*
 * Fraction done and seconds left of the current phase, or of an
 * on-demand verify pass (`on_demand`, at `position`); `rate` is the
 * throughput in bytes a second (0: unknown).
 */
void		 sched_progress(const struct dstate *, const struct drive_conf *,
		    int on_demand, uint64_t position, double rate,
		    uint64_t now_ms, double *frac, uint64_t *eta);

/*
 * What the worker does for the drive, beside its run state. A job ends
 * (to none) from any of them.
 */
enum work {
	WORK_NONE,		/* no job: the worker waits for one */
	WORK_PHASE,		/* the job of the current phase */
	WORK_VERIFY_NEXT,	/* the phase job stops; on-demand verify follows */
	WORK_VERIFY,		/* an on-demand verify pass */
	WORK_CUT_NEXT,		/* the write job stops unflushed; a power cut
				 * follows (drive_cut.c) */
	WORK_HUNG		/* no I/O completed for io_timeout: the job was
				 * told to stop, its worker is stuck in the device */
};

const char	*work_name(enum work);
/*
 * The moves of the run state and of the work, each in its table: 1 when
 * the table allows from -> to, else 0.
 */
int		 sched_run_allowed(enum run_state from, enum run_state to);
int		 sched_work_allowed(enum work from, enum work to);

#endif
