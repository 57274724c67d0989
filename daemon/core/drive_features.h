/*
 * drive_features.h: the drive core's one table of features. The core
 * (drive.c, drive_run.c, drive_job.c, drive_cmd.c, drive_open.c,
 * checkpoint.c) knows a feature only through the hooks below, called for
 * every feature of the table in its order; a feature reaches the core
 * only through the ops it
 * finds in d->core (struct drive_core_ops, drive_priv.h) and the core's
 * services below it (drive_core.c, tl_estimate.c, the event log). No
 * feature calls another feature's hooks.
 *
 * Every hook may be NULL. Adding a feature: its own files, its entry
 * `const struct drive_feature drive_X_feature` in them, and one line of
 * the table in drive_features.c.
 */
#ifndef SSDT_DRIVE_FEATURES_H
#define SSDT_DRIVE_FEATURES_H

#include "drive_priv.h"

/* What a feature asks of the run once a second (its run_check hook). */
enum run_ask {
	ASK_GO_ON,
	ASK_PAUSE,		/* halt the I/O, paused for `why` */
	ASK_RESUME		/* what the feature paused resumes */
};

/* One source's value of an archive line; unknown is RRD's "U". */
struct archive_val {
	int	known;
	double	v;
	int	decimals;
};

struct drive_feature {
	const char	*name;
	/* The drive is made (nothing open yet). */
	void		(*made)(struct drive *);
	/* The drive's state was loaded at its opening (owned: a run on
	 * disk, not a new one): the feature's own files opened. */
	void		(*loaded)(struct drive *, int owned);
	/* Still at the opening: the state says the feature took the device
	 * away (a power cut under way) and it is not there. */
	int		(*away)(const struct drive *);
	/* The opening stopped there: bring the device back (1: it is
	 * coming; 0: the drive was refused, with why). */
	int		(*bring_back)(struct drive *);
	/* The target and the worker are up; the activation's event is not
	 * written yet. */
	void		(*opening)(struct drive *);
	/* The drive closes (a power cut takes the device away, or the drive
	 * is freed): what reads the device stops. */
	void		(*closing)(struct drive *);
	/* Still at the opening, after `opening`, before the activation's
	 * event: 1 when the drive went through a power loss since the daemon
	 * last ran it (owned: its run was on disk); `activated` is told so. */
	int		(*power_check)(struct drive *, int owned);
	/* The drive is open (lost: the activation saw a power loss). */
	void		(*activated)(struct drive *, int lost);
	/* The figures of a phase count from here (a phase entered, the
	 * drive opened, an on-demand verify begun). */
	void		(*mark)(struct drive *);
	/* A phase was entered (its phase_start written). */
	void		(*phase_started)(struct drive *);
	/* A phase's job is about to be handed to the worker. */
	void		(*job_prepare)(struct drive *, struct job *);
	/* A phase's phase_end event is being made: what the feature adds. */
	void		(*phase_ended)(struct drive *, json_object *ev);
	/* A phase job ended (`was` what the worker did): 1 when the ending
	 * is the feature's (it goes on with it), 0 when the core handles it. */
	int		(*job_taken)(struct drive *, enum work was, enum job_end);
	/* A phase job ran to its end: 1 when it was one step of the
	 * feature's phase (the feature moves the phase on), 0 if not. */
	int		(*step_done)(struct drive *, int err);
	/* Once a second, after the rates (rated: a new tick of them). */
	void		(*tick)(struct drive *, int rated);
	/* The run ends (stopped, finished or failed; `state` its word). */
	void		(*run_ended)(struct drive *, const char *state);
	/* The operator asked for the feature's action (its command set the
	 * state): begin now when it can. */
	void		(*asked)(struct drive *);
	/* What the feature is doing that holds the drive (a power cut under
	 * way: its step's word); NULL when nothing. */
	const char	*(*holding)(const struct drive *);
	/* ... and whether that keeps a verify pass from starting now. */
	int		(*holds_verify)(const struct drive *);
	/* What the feature adds to Status ... */
	void		(*status)(const struct drive *, struct drive_status *);
	/* ... and to the archive's line (v: its sources, rrd_layout.h). */
	void		(*archive)(const struct drive *, struct archive_val *v);
	/* A verify pass begins (on_demand: the on-demand one or the verify
	 * after a power loss, 0: the cycle's scheduled pass) ... */
	void		(*verify_begin)(struct drive *, int on_demand);
	/* ... the scheduled pass's job is handed to the worker again (at a
	 * start or a resume): its records go on from the last checkpoint ... */
	void		(*verify_resume)(struct drive *);
	/* ... it ended (whole: every block was read): 1 and why when what it
	 * found fails the drive. */
	int		(*verify_end)(struct drive *, int whole, char *why,
			    size_t len);
	/* The on-demand verify's job (or the one a power loss owes) is
	 * built, before its mark and verify_begin: what the feature sets in
	 * it ... */
	void		(*verify_job)(struct drive *, struct job *);
	/* ... its position, at each poll of the worker ... */
	void		(*verify_progress)(struct drive *, uint64_t position);
	/* ... and its phase_end written (done: it read to its last block):
	 * 1 and why when what the feature records then fails the drive. */
	int		(*verify_closed)(struct drive *, int done, char *why,
			    size_t len);
	/* A feature saw the device lose its power and come back (a cut):
	 * the verify of a power loss is owed; counted: a loss to count (0:
	 * not known to be one); bounded: writes count as kept only below the
	 * pass's item kept_end. The core's power_lost and power_owed ops. */
	void		(*power_lost)(struct drive *, int counted, int bounded,
			    uint64_t kept_end);
	/* A finding of the worker, run by run as it comes ... */
	void		(*found)(struct drive *, const struct finding *);
	/* ... and how the run it is part of is told when written: 0 an event
	 * and a journal line, 1 an event only, 2 not at all (the feature
	 * counted it and sums it up later); asked through the core's told. */
	int		(*told)(struct drive *, const struct finding *);
	/* What the feature holds of the worker's findings (a run being
	 * merged) written as events now: before a checkpoint, the end of a
	 * phase or a verify pass, a new worker (the core's flush_findings). */
	void		(*flush)(struct drive *);
	/* A checkpoint stages the state: the feature's records written, fd
	 * (or -1) what to fdatasync before the state may be renamed; 0 or
	 * the errno that keeps the state from being saved (the features
	 * begun before it are ended then, told -errno: not synced) ... */
	int		(*sync_begin)(struct drive *, int *fd);
	/* ... and the sync's result (0 or -errno): 0 or that errno. At most
	 * one feature's file rides with a checkpoint (the error map's). */
	int		(*sync_end)(struct drive *, int res);
	/* A checkpoint ended: err the logs' errno (no state saved),
	 * state_err the state file's; both 0 when it is on disk ... */
	void		(*checkpointed)(struct drive *, int err, int state_err);
	/* ... 1 while some of the drive's records are not on disk (the
	 * checkpoint is retried each second; the core's records_on_disk). */
	int		(*behind)(const struct drive *);
	/* Once a second, after the tick's checkpoints: what the feature asks
	 * of the run (a pause with `why`, or the resume of its pause); the
	 * core does it (drives_records_tick). */
	enum run_ask	(*run_check)(struct drive *, char *why, size_t len);
	/* The operator's resume of a paused drive: -1 (errno set, err says
	 * why) when the feature's pause is not the operator's to lift. */
	int		(*refuse_resume)(const struct drive *, char *err,
			    size_t len);
	/* A finding of the worker: how many of its units the feature has
	 * counted already (a checkpoint's probe reading one again). */
	uint64_t	(*seen_before)(struct drive *, const struct finding *);
	/* The daemon stops ... */
	void		(*shutdown)(struct drive *);
	/* ... and the drive's worker has no job left: it stopped cleanly. */
	void		(*stopped)(struct drive *);
	/* The drive is freed. */
	void		(*release)(struct drive *);
};

/* The core's calls of every feature's hook (drive_features.c). */
void		 features_made(struct drive *);
void		 features_loaded(struct drive *, int owned);
int		 features_away(const struct drive *);
int		 features_bring_back(struct drive *);
void		 features_opening(struct drive *);
void		 features_closing(struct drive *);
int		 features_power_check(struct drive *, int owned);
void		 features_activated(struct drive *, int lost);
void		 features_mark(struct drive *);
void		 features_phase_started(struct drive *);
void		 features_job_prepare(struct drive *, struct job *);
void		 features_phase_ended(struct drive *, json_object *ev);
int		 features_job_taken(struct drive *, enum work, enum job_end);
int		 features_step_done(struct drive *, int err);
void		 features_tick(struct drive *, int rated);
void		 features_run_ended(struct drive *, const char *state);
void		 features_asked(struct drive *);
const char	*features_holding(const struct drive *);
int		 features_hold_verify(const struct drive *);
void		 features_status(const struct drive *, struct drive_status *);
void		 features_archive(const struct drive *, struct archive_val *);
void		 features_verify_begin(struct drive *, int on_demand);
void		 features_verify_resume(struct drive *);
int		 features_verify_end(struct drive *, int whole, char *why,
		    size_t len);
void		 features_verify_job(struct drive *, struct job *);
void		 features_verify_progress(struct drive *, uint64_t position);
int		 features_verify_closed(struct drive *, int done, char *why,
		    size_t len);
void		 features_power_lost(struct drive *, int counted, int bounded,
		    uint64_t kept_end);
void		 features_found(struct drive *, const struct finding *);
int		 features_told(struct drive *, const struct finding *);
void		 features_flush(struct drive *);
int		 features_sync_begin(struct drive *, int *fd);
int		 features_sync_end(struct drive *, int res);
void		 features_checkpointed(struct drive *, int err, int state_err);
int		 features_behind(const struct drive *);
enum run_ask	 features_run_check(struct drive *, char *why, size_t len);
int		 features_refuse_resume(const struct drive *, char *err,
		    size_t len);
uint64_t	 features_seen_before(struct drive *, const struct finding *);
void		 features_shutdown(struct drive *);
void		 features_stopped(struct drive *);
void		 features_release(struct drive *);

#endif
