/*
 * drive_priv.h: the insides of a drive, shared by drive.c (schedule,
 * state, events) and drive_smart.c (SMART polls, wear rules). Nobody
 * else includes this.
 */
#ifndef SSDT_DRIVE_PRIV_H
#define SSDT_DRIVE_PRIV_H

#include <limits.h>

#include "drive.h"
#include "engine.h"
#include "errmap.h"
#include "events.h"
#include "safety.h"
#include "schedule.h"
#include "smart.h"
#include "smart_read.h"

struct drive {
	struct drive_conf conf;
	char		 dir[PATH_MAX];
	char		 state_path[PATH_MAX + 16];
	sd_event	*ev;
	drive_changed_fn changed;
	void		*changed_arg;	/* also for `owner` */
	drive_owner_fn	 owner;

	struct target	 tgt;
	struct engine	*eng;
	sd_event_source	*notify_src;
	sd_event_source	*idle_src;
	struct eventlog	 log;
	struct dstate	 st;
	int		 active;	/* target open, state loaded, worker up */
	int		 refused;
	enum work	 work;
	struct engine_stats last;

	/* phase accounting, for the phase_end event */
	uint64_t	 phase_t0;	/* monotonic ns */
	uint64_t	 phase_bytes0;
	uint64_t	 phase_ops0;
	uint64_t	 phase_cpu0;
	uint64_t	 phase_err0;
	/* rates */
	uint64_t	 rate_t, rate_w, rate_r;
	double		 wbps, rbps;
	int		 save_warned;
	int		 shutting_down;
	uint64_t	 rate_wops, rate_rops;
	double		 wiops, riops;
	uint64_t	 rate_hist[LAT_BUCKETS];
	double		 lat_p99_us;	/* -1: no writes in the last tick */
	uint64_t	 rate_flushes;
	double		 flush_lat_us;	/* -1: no flush completed in the last tick */
	int		 hold;		/* --verify: never hand out a phase job */
	int		 archived;	/* its RRD archive was opened */
	struct finding	 pend;		/* run being merged, not yet an event */
	int		 has_pend;
	enum phase	 pend_phase;	/* where the run was found */
	uint64_t	 pend_cycle;
	int		 pend_on_demand;
	uint64_t	 errors_at_start; /* to tell this run's findings */
	/* the verify pass's records (drive_errors.c) */
	struct errmap	 emap;		/* of the pass running (fd -1: none) */
	uint64_t	 em_runs;	/* verify_error runs of the pass so far */
	int		 em_on_demand;	/* the open map is an on-demand pass's */

	/* SMART (drive_smart.c) */
	struct smart_poller *smart;
	sd_event_source	*smart_src;
	sd_event_source	*smart_timer;
	int		 have_baseline, have_latest;
	struct smart	 baseline;	/* first sight */
	struct smart	 latest;
	uint64_t	 baseline_host_written;	/* our counter at baseline */
	uint64_t	 baseline_host_lo;	/* ... when its read began */
	uint64_t	 poll_host_written;	/* our counter when the read began */
	int		 mismatch_reported;
	int		 smart_warned;
	struct eventlog	 smartlog;	/* smart.jsonl, kept like events */

	/* records (records.c) */
	uint64_t	 rec_since;	/* monotonic ns: a checkpoint failed */
	int		 rec_err;	/* its errno */
	int		 rec_paused;	/* paused until they are on disk */
};

/* drive.c, for drive_smart.c */
/* Fresh counters and findings from the worker. */
void		 drive_poll(struct drive *);
json_object	*drive_ev_obj(struct drive *);
void		 drive_set_run(struct drive *, enum run_state, const char *);
void		 drive_halt(struct drive *);

/* drive_errors.c, for drive.c */
/* A verify pass starts: a new pass number and its map. */
void		 drive_errors_begin(struct drive *, int on_demand);
/* The scheduled verify pass goes on: its map, cut back to the checkpoint. */
void		 drive_errors_resume(struct drive *);
/* Every finding goes into the map of the pass. */
void		 drive_errors_map(struct drive *, const struct finding *);
/*
 * May the next verify_error run be an event? 0: no (over max_error_events,
 * only mapped and counted), 1: yes, 2: yes but not in the journal.
 */
int		 drive_errors_detail(struct drive *);
/* Before the state is saved: the map synced, its length recorded. */
void		 drive_errors_checkpoint(struct drive *);
/*
 * The pass ended (`whole`: every block was verified): summary events,
 * map closed. 1 and the reason when the bad blocks pass max_bad_fraction.
 */
int		 drive_errors_end(struct drive *, int whole, char *why, size_t);

/* records.c, for drive.c */
void		 records_failed(struct drive *, int err);
void		 records_saved(struct drive *);
/* Write and sync the kept lines of events and smart.jsonl. */
int		 records_sync(struct drive *);
int		 records_current(const struct drive *);
void		 records_tick(struct drive *);
void		 records_status(const struct drive *, struct drive_status *);
int		 records_refuse_resume(const struct drive *, char *, size_t);

/* drive_smart.c, for drive.c */
void		 drive_smart_start(struct drive *);
void		 drive_smart_stop(struct drive *);
/* Ask for a SMART read now (phase change), unless one is in flight. */
void		 drive_smart_poll(struct drive *);
json_object	*drive_smart_delta(const struct drive *);
/* Write amplification since the baseline (smart_waf), -1 when unknown. */
double		 drive_waf(const struct drive *);

#endif
