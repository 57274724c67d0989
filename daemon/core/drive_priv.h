/*
 * drive_priv.h: the insides of a drive, shared by its core (drive.c,
 * drive_job.c, drive_run.c, drive_cmd.c, drive_open.c, checkpoint.c,
 * rates.c, drive_archive.c, records_space.c) and the features of its
 * table (drive_features.h), each of which keeps its part of struct drive.
 * Nobody else includes this.
 */
#ifndef SSDT_DRIVE_PRIV_H
#define SSDT_DRIVE_PRIV_H

#include <limits.h>

#include "clock.h"
#include "cutproc.h"
#include "degrade.h"
#include "drive.h"
#include "engine.h"
#include "errmap.h"
#include "events.h"
#include "log.h"
#include "safety.h"
#include "schedule.h"
#include "smart.h"
#include "smart_read.h"
#include "statedir.h"

/* Where the phase (or on-demand pass) began, for its phase_end event. */
struct drive_mark {
	uint64_t	 t0;		/* monotonic ns */
	uint64_t	 bytes, ops, cpu_ns, errors;
	/* a job of the phase went to the worker: t0 is that moment, not the
	 * mark's (an activation's mark waits for every drive's activation
	 * and the new host's archives before the first job) */
	int		 begun;
};

/* Rates over the last tick, and the counters at its start (rates.c). */
struct drive_rates {
	uint64_t	 t, w, r, wops, rops, flushes;
	struct lathist	 hist[LAT_NDIR];	/* the worker's, at the start */
	double		 wbps, rbps, wiops, riops;
	double		 lat_p99_us;	/* -1: no writes in the last tick */
	double		 rlat_p99_us;	/* reads; -1: none (not published yet) */
	double		 flush_lat_us;	/* -1: no flush completed in the last tick */
};

/* The run of findings being merged, not yet an event (findings.c). */
struct drive_findings {
	struct finding	 pend;
	int		 has_pend;
	enum phase	 phase;		/* where the run was found */
	uint64_t	 cycle;
	int		 on_demand;
};

/*
 * What a feature asks of the drive's core: the one way a feature
 * (drive_features.h, drive_smart.c) moves the lifecycle, through d->core.
 * The core's files define them; a feature names none of them.
 */
struct drive_core_ops {
	/* Fresh counters and findings from the worker. */
	void		(*poll)(struct drive *);
	/* Hand out the current phase's job, as the schedule says. */
	void		(*schedule)(struct drive *);
	/* The current phase ran to its end. */
	void		(*phase_done)(struct drive *, enum job_end);
	/* Change what the worker does (as its table allows). */
	void		(*work_to)(struct drive *, enum work);
	/* Close the drive, as if it were never opened: its SMART reading
	 * stopped, its worker freed, its target closed (a power cut's). */
	void		(*close)(struct drive *);
	/* Open the drive again after the feature closed it (a power cut's
	 * return): not a new run of the daemon; -1 refused. */
	int		(*reopen)(struct drive *);
	/* Stop the drive's job and set its run state, with why (SMART's
	 * readings fail or finish it). */
	void		(*verdict)(struct drive *, enum run_state, const char *);
	/* Our host bytes written as they are now, ahead of the counters
	 * poll folded in: the bound a reading just taken is held to. */
	uint64_t	(*written_now)(struct drive *);
	/* A job that ended and whose end the main loop has not handled yet,
	 * handled now: 1 when there was one. */
	int		(*job_end_seen)(struct drive *);
	/* The device lost its power (a cut the feature made, seen gone and
	 * back): the verify of a power loss is owed, the loss counted; writes
	 * count as kept only below the pass's item kept_end when bounded. */
	void		(*power_lost)(struct drive *, int bounded, uint64_t kept_end);
	/* The verify of a power loss owed, no loss counted (not known to be
	 * one: a cut under way found at a start with its device there). */
	void		(*power_owed)(struct drive *);
	/* The worker's findings held for merging written as their event. */
	void		(*flush_findings)(struct drive *);
	/* How a finding's event is told, as the features' told hooks say
	 * (drive_features.h): 0 an event and a journal line, 1 an event
	 * only, 2 not at all. */
	int		(*told)(struct drive *, const struct finding *);
	/* Are the drive's records on disk (no checkpoint failing)? */
	int		(*records_on_disk)(const struct drive *);
	/* Save the drive's state with its logs (checkpoint.c): now, or as
	 * soon as the one in flight is on disk. */
	void		(*checkpoint)(struct drive *);
};

/* SMART of the drive (drive_smart.c). */
struct drive_smart {
	struct smart_poller *poller;
	sd_event_source	*src;
	sd_event_source	*timer;
	int		 have_baseline, have_latest;
	struct smart	 baseline;	/* first sight */
	struct smart	 latest;
	uint64_t	 baseline_host_written;	/* our counter at baseline */
	uint64_t	 baseline_host_lo;	/* ... when its read began */
	uint64_t	 poll_host_written;	/* our counter when the read began */
	int		 mismatch_reported;
	int		 warned;
	uint64_t	 readings;	/* good readings taken since the start */
	int		 nvme;		/* read often while it works: thermal_interval */
	/* monotonic ns: when the read in flight was asked for; the latest
	 * reading's time, halfway between its asking and its answer (the
	 * drive answered somewhere in between) */
	uint64_t	 poll_ns, latest_ns;
	double		 bps_at_latest;	/* the drive's throughput then */
	uint64_t	 job_at_latest;	/* and the job it was of (job_token) */
	struct eventlog	 log;		/* smart.jsonl, kept like events */
};

/* Whether the records are on disk (records.c). */
struct drive_records {
	uint64_t	 since;		/* monotonic ns: a checkpoint failed */
	int		 err;		/* its errno */
	int		 paused;	/* paused until they are on disk */
	int		 save_warned;
};

/* A checkpoint between its steps (checkpoint.c). */
enum ckpt_step { CKPT_NONE, CKPT_STAGED, CKPT_COMMITTED };

/*
 * A checkpoint asked for on the loop (checkpoint.c), kept across
 * checkpoints: `want` until one is staged; `wait` (drive_checkpoint_then)
 * until one staged after the ask (`covers`) is finished, `released` from
 * then until `then` runs, on the loop's next turn; `retry` when that one
 * failed (the tick stages it again). A tick that found a batch in
 * flight asks with `want` alone.
 */
struct ckpt_ask {
	int		 want, wait, covers, released, retry;
	int		 listed;	/* in checkpoint.c's list */
	void		(*then)(struct drive *);
};

struct drive_ckpt {
	enum ckpt_step	 step;
	int		 err;		/* the logs' errno: no state saved */
	int		 state_err;	/* the state file's errno */
	int		 log_fd, smart_fd, map_fd, res_fd; /* -1: nothing to sync */
	int		 log_res, smart_res, map_res, res_res; /* 0 or -errno */
	int		 map_begun;	/* the map's flush awaits its end */
	int		 staged;	/* `state` holds a new state file */
	struct staged	 state;
	/* the last checkpoint's directory sync succeeded: the spare is not
	 * the state file on disk (statedir_stage); kept across checkpoints */
	int		 spare_ok;
	struct ckpt_ask	 ask;
};

/*
 * The per-second figures of a long test's run (ckpt_long.c): IOPS, bytes
 * a second and p99 latency (us; -1: none) of each second in the step,
 * from the step's start (the rates since the last second at each tick,
 * the first from the counters when its job was handed out).
 */
struct drive_series {
	int		 step;		/* CL_*; -1: none being recorded */
	uint64_t	 t0;		/* monotonic ns: the step's start */
	size_t		 n, cap;
	struct series_clock clk;	/* its seconds, from the step's start */
	double		*iops, *bps, *p99;
	double		*temp;		/* the latest reading's, C; -1: none */
	/* a thermal run: the reading at its start, the tick at which the
	 * drive's thermal counters first grew from it (-1: never), the
	 * onset's seconds from t0 those counters and the readings' times
	 * give, and the time of the last reading that showed no growth */
	struct smart	 th0;
	int		 have_th0;
	long		 throttle_tick;
	double		 throttle_s;
	uint64_t	 clear_ns;
	/* an aged-data read's start: the worker's read counters then */
	uint64_t	 rd_ops0, rd_bytes0, rd_errors0;
	struct lathist	 rd_lat0;

};

/* A probe's baseline: the first checkpoint that measured it (drive_ckpt.c). */
struct ckpt_base {
	uint64_t	 number;	/* 0: none yet */
	double		 tput;		/* bytes a second, both directions */
	double		 p999;		/* us, the higher direction's */
};

/* A power cut under way (drive_cut.c). */
enum cut_step { CUT_NONE, CUT_DRAIN, CUT_OFF, CUT_GOING, CUT_ON,
	CUT_RETURNING, CUT_SMART };

struct drive_cut {
	enum cut_step	 step;
	struct cutproc	 proc;		/* the command running */
	char		*cmd;		/* power_cut_command, kept for the cut */
	sd_event_source	*timer;		/* the waits for the device */
	uint64_t	 t_off, t_on, t_back, deadline;	/* monotonic ns */
	double		 off_sec, gone_sec, back_sec;
	uint64_t	 cycle, position, durable;	/* items at the cut */
	int		 asked;		/* by the operator */
	int		 resumed;	/* taken over at a start: no position */
	int		 gone;		/* the device was seen to go away */
	int		 returned;	/* drive_activate called at its return */
	int		 unsafe_known;	/* unsafe_before is the drive's count */
	uint64_t	 unsafe_before;
	uint64_t	 readings_back;	/* SMART readings when it came back */
	char		 trouble[256];	/* what went wrong, "" if nothing */
};

struct drive {
	struct drive_conf conf;
	char		 dir[PATH_MAX];
	char		 state_path[PATH_MAX + 16];
	sd_event	*ev;
	drive_changed_fn changed;
	void		*changed_arg;	/* also for `owner` */
	drive_owner_fn	 owner;
	const struct drive_core_ops *core;	/* for the features */

	/* the lifecycle (drive.c): target, worker, state, schedule */
	struct target	 tgt;
	/* prepare = format | sanitize: how (drive_open.c finds it) */
	struct purge	 purge;
	struct engine	*eng;
	sd_event_source	*notify_src;
	sd_event_source	*idle_src;
	struct eventlog	 log;
	struct dstate	 st;
	int		 active;	/* target open, state loaded, worker up */
	int		 refused;
	enum work	 work;
	struct engine_stats last;
	int		 shutting_down;
	int		 hold;		/* --verify: never hand out a phase job */
	int		 archived;	/* its RRD archive was opened */
	uint64_t	 errors_at_start; /* to tell this run's findings */
	struct drive_mark mark;

	struct drive_rates rates;
	struct drive_findings find;
	/* the verify pass's records (drive_errors.c) */
	struct errmap	 emap;		/* of the pass running (fd -1: none) */
	uint64_t	 em_runs;	/* verify_error runs of the pass so far */
	uint64_t	 ph_runs;	/* ... of the phase, outside a verify pass */
	uint64_t	 ph_quiet_runs, ph_quiet_blocks;	/* beyond the bound */
	int		 em_on_demand;	/* the open map is an on-demand pass's */
	struct drive_smart smart;
	struct drive_records rec;
	struct drive_ckpt ckpt;
	/* the figures of the kept timelines, by pass; NULL until asked for
	 * (drive_timeline.c) */
	json_object	*tl_figs;
	/* performance checkpoints (drive_ckpt.c) */
	struct eventlog	 results;	/* checkpoints.jsonl, kept like events */
	struct ckpt_base *base;		/* per probe of the table */
	struct drive_series series;
	/* the bad units this checkpoint found (each counts once), and the
	 * finds of units found before, to take off the worker's counts */
	uint64_t	*seen;
	size_t		 nseen;
	uint64_t	 dup[BLK_NCLASS];
	/* the power-loss verify running went on from where an earlier run
	 * of it stopped (drive_power.c): the core's verify_end is told it
	 * was not a whole pass */
	int		 power_resumed;
	struct drive_cut cut;
};

/*
 * A line about drive d for the journal (DRIVE= and SERIAL= set); err an
 * errno to append, or 0. The one way the drive's files log.
 */
#define drive_log(d, prio, err, ...) \
	log_drive((prio), (d)->conf.name, (d)->log.serial, (err), __VA_ARGS__)

/*
 * The drive's core, for its own files: drive.c (the lifecycle), drive_job.c
 * (the jobs of the schedule), drive_run.c (the run state's moves),
 * drive_cmd.c (the commands), drive_open.c (the opening). The features
 * (drive_features.h) ask the core through d->core, and use only the
 * services of drive_core.c and checkpoint.c below.
 */
/* drive.c */
/* Fresh counters and findings from the worker. */
void		 drive_poll(struct drive *);
/* A job's end not handled yet, handled now: 1 when there was one. */
int		 drive_job_end_seen(struct drive *);
/*
 * A worker for the open target, watched by the main loop: 0, or -1 (the
 * worker did not start, `err` says why) or -2 (it cannot be watched).
 */
int		 drive_worker_new(struct drive *, struct engine **,
		    sd_event_source **, char *err, size_t);
/* drive_job.c */
/* Start the on-demand verify pass against what the drive holds now;
 * -1 (errno) when the worker would not take it. */
int		 drive_verify_start(struct drive *);
/* Record the start of a phase, for its phase_end figures. */
void		 drive_mark_phase(struct drive *);
/* The worker finished its job: what comes next depends on what it was. */
void		 drive_job_ended(struct drive *, enum job_end, int err);
/* The current phase ran to its end (or the write budget). */
void		 drive_phase_done(struct drive *, enum job_end);
/* drive_run.c */
/* Change the run state (as its table allows), with an event, a checkpoint. */
void		 drive_set_run(struct drive *, enum run_state, const char *);
/* Stop the worker's job (if any) and the idle timer; keep the position. */
void		 drive_halt(struct drive *);
/* Every change of what the worker does (as its table allows). */
void		 drive_work_to(struct drive *, enum work);
/* Fail the drive: it stays failed until an operator starts it again. */
void		 drive_fail(struct drive *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));

/* The services below the core and the features. */
/* drive_core.c: tell the daemon the drive's run state or phase changed. */
void		 drive_notify(struct drive *);
/* An event's object with the common fields: cycle, phase, TBW. */
json_object	*drive_ev_obj(struct drive *);
/* checkpoint.c: write the checkpoint now: events first (synced), then
 * the state file (a batch in flight drained first). */
void		 drive_checkpoint(struct drive *);
/* The same on the loop (a batch of its own once the one in flight has
 * ended; the tick's when that comes first): then(d) on the loop's turn
 * after it is on disk, never from inside this call. While it waits,
 * d->ckpt.ask.wait is set. */
void		 drive_checkpoint_then(struct drive *,
		    void (*then)(struct drive *));
/* The drive is going away: its checkpoint in flight ended, nothing of
 * it asked for or waiting any more. */
void		 checkpoint_forget(struct drive *);
/* The tick's batch of checkpoints in flight, ended here and now (its
 * syncs waited for): before a drive's own checkpoint, its end, or a write
 * to a file a sync in flight covers. */
void		 checkpoint_drain(void);

/* drive_open.c, for drive.c */
/* Target, layout and state: -1 refused (with a reason), -2 a power cut
 * under way left the device away, else 1 when the drive had a run on
 * disk, 0 for a new one. */
int		 drive_prepare(struct drive *);
/* A refusal: nothing was written; say why, everywhere. Returns -1. */
int		 drive_refuse(struct drive *, const char *why);
/* The activation's event: "resume" of a run on disk, or "created". */
void		 drive_announce(struct drive *, int owned);

/* rates.c */
/* The counters the next tick's rates start from. */
void		 rates_reset(struct drive *);
/* Throughput, IOPS and latencies over the last tick. */
void		 rates_tick(struct drive *);
/*
 * I/Os the kernel took and has not completed, none completing for
 * io_timeout: 1 and the reason. A worker with nothing in flight (busy,
 * starting, or waiting for us) is never the device's fault.
 */
int		 rates_stalled(const struct drive *, char *why, size_t);

#endif
