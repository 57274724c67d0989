/*
 * drive.h: one drive under test, run by the main thread: its state
 * machine (states, phases, cycles, stop conditions), its worker, its
 * checkpoints and events. Services read drives; a drive does not know
 * who reads it.
 */
#ifndef SSDT_DRIVE_H
#define SSDT_DRIVE_H

#include <stdint.h>
#include <time.h>

#include <json-c/json.h>
#include <systemd/sd-event.h>

#include "block.h"
#include "config.h"
#include "state.h"

struct smart_summary;		/* smart.h */

struct drive;
struct target_id;

/* Called whenever a drive's run state or phase changes. */
typedef void (*drive_changed_fn)(struct drive *, void *arg);

/* What a reader of a drive may see. */
struct drive_status {
	const char	*name;
	const char	*device;
	const char	*serial;	/* as reported by the device */
	const char	*model;
	enum run_state	 run;
	int		 refused;	/* safety checks failed: never touched */
	int		 verifying;	/* an on-demand verify pass is running */
	enum phase	 phase;
	double		 phase_progress; /* 0..1 */
	uint64_t	 eta_sec;	/* of the phase; 0 = unknown */
	uint64_t	 cycle;
	uint64_t	 cycles_done;
	uint64_t	 host_bytes_written;
	uint64_t	 host_bytes_read;
	double		 write_bps;
	double		 read_bps;
	uint64_t	 errors[BLK_NCLASS];
	uint64_t	 errors_total;
	uint64_t	 errors_this_run; /* found since the daemon started */
	const char	*reason;
	uint64_t	 capacity;
	uint64_t	 span_bytes;
	uint64_t	 flushes;	/* cache flushes completed, all runs */
	int		 flush_known;	/* one completed since the worker started */
	double		 flush_lat_sec;	/* the last one's latency */
	double		 flush_lat_max_sec; /* the slowest since the worker started */
	uint64_t	 power_losses;	/* seen at activation (drive_power.c) */
	uint64_t	 unflushed_kept; /* in the verifies after them */
	int		 power_verify;	/* the verify after one is owed */
	uint64_t	 power_cuts;	/* power cuts on purpose (drive_cut.c) */
	const char	*power_cut_state; /* of one under way; NULL: none */
	/* state and events on disk, or how far behind and why */
	int		 records_current;
	uint64_t	 records_behind_sec;
	const char	*records_why;	/* "disk full", ...; "" when current */
	uint64_t	 records_kept;	/* lines kept in memory */
	uint64_t	 probe_bytes_written;	/* by checkpoints, all runs */
	uint64_t	 rated_tbw;		/* rated_tbw; 0: not given */
	uint64_t	 created;		/* the run began, epoch s */
	uint64_t	 checkpoints_done;	/* performance checkpoints */
};

/*
 * Does another drive have the target `path` names? 1 and that drive in
 * `who` ("drive NAME (DEVICE)"), else 0. Asked before a drive is opened.
 */
typedef int (*drive_owner_fn)(const struct drive *, const char *path,
		    char *who, size_t len, void *arg);

struct drive	*drive_new(const struct drive_conf *, const char *state_dir,
		    sd_event *, drive_changed_fn, void *arg);
void		 drive_free(struct drive *);
/* Who else may have its target (asked with the `arg` of drive_new). */
void		 drive_set_owner_check(struct drive *, drive_owner_fn);
/* The target it has open, else the one its device path names; -1: none. */
int		 drive_target_id(const struct drive *, struct target_id *);
/* Safety checks, state load or creation, worker start; then run if asked. */
int		 drive_activate(struct drive *, int schedule);
/* Hand the worker the job of the current phase, if the drive runs. */
void		 drive_schedule(struct drive *);
/* Once a second: counters, findings, rates... */
void		 drive_tick(struct drive *);
/* ...then the checkpoints of those that need one, synced together... */
void		 drives_checkpoint_tick(struct drive **, size_t);
/* At exit: the checkpoints' sync queue. */
void		 checkpoint_queue_free(void);
void		 drive_status_get(const struct drive *, struct drive_status *);
const char	*drive_name(const struct drive *);
/* Path of the drive's events.jsonl. */
void		 drive_events_path(const struct drive *, char *, size_t);
/* Terminal for --oneshot: finished, failed, stopped or refused, and idle. */
int		 drive_settled(const struct drive *);
/* One RRD update line "TIME:values..." (see rrd_layout.h); -1 when the
 * drive is not open. */
int		 drive_archive_values(const struct drive *, time_t now,
		    char *buf, size_t len);
/* 1 the first time it is asked of an open drive: its archive is due. */
int		 drive_archive_due(struct drive *);
/* Seconds between SMART readings (for the archive's heartbeat). */
uint64_t	 drive_smart_interval(const struct drive *);
/* On hold, a drive runs only on-demand verify passes (--verify). */
void		 drive_hold(struct drive *, int);
/* No job running or queued (the worker is idle). */
int		 drive_quiet(const struct drive *);
/* A verify error was ever counted. */
uint64_t	 drive_errors_total(const struct drive *);

/* New settings from a reload; layout keys may not change. */
int		 drive_reconfigure(struct drive *, const struct drive_conf *,
		    char *err, size_t);

/*
 * At start: the free space of state_dir against what the drives' records
 * need (archives not yet created: `archive_bytes`, 0 when they are not
 * kept there), and a warning when it will not last a month.
 */
void		 records_space_check(const char *state_dir,
		    struct drive *const *, size_t n, uint64_t archive_bytes);
/* Bytes of a drive's RRD archive (its size is fixed at creation). */
uint64_t	 records_archive_bytes(void);

/* Shutdown: ask the worker to stop, wait (bounded), checkpoint. */
void		 drive_shutdown_begin(struct drive *);
int		 drive_busy(struct drive *);
void		 drive_shutdown_end(struct drive *);

#endif
