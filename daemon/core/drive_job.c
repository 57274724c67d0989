/*
 * drive_job.c: a drive's schedule on its worker. What the schedule
 * (schedule.c) decides is done here: the job of the phase handed out,
 * the idle timer armed, the events of phases and cycles written; and each
 * job's end (done, cut by the budget, stopped, failed, or hung at
 * io_timeout) moves the drive on.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "drive_features.h"
#include "drive_priv.h"
#include "drive_work.h"
#include "log.h"
#include "reserve.h"


/* Record the start of a phase, for its phase_end figures. */
void
drive_mark_phase(struct drive *d)
{
	d->mark.t0 = mono_ns();
	d->mark.bytes = d->st.host_bytes_written + d->st.host_bytes_read +
	    d->st.host_bytes_trimmed;
	d->mark.ops = d->st.write_ops + d->st.read_ops;
	d->mark.cpu_ns = d->last.cpu_ns;
	d->mark.errors = drive_errors_total(d);
	d->mark.begun = 0;
	features_mark(d);
}

/* The phase_end event: bytes, time, throughput, CPU of the worker. */
static void
phase_end_event(struct drive *d, const char *what)
{
	json_object	*o = drive_ev_obj(d);
	double		 sec = (double)(mono_ns() - d->mark.t0) / 1e9;
	uint64_t	 bytes = d->st.host_bytes_written + d->st.host_bytes_read +
	    d->st.host_bytes_trimmed - d->mark.bytes;
	uint64_t	 ops = d->st.write_ops + d->st.read_ops - d->mark.ops;
	double		 cpu = (double)(d->last.cpu_ns - d->mark.cpu_ns) / 1e9;

	if (sec <= 0)
		sec = 1e-9;
	features_flush(d);	/* the phase's last run, then its summary */
	json_object_object_add(o, "what", json_object_new_string(what));
	json_object_object_add(o, "bytes", json_object_new_uint64(bytes));
	json_object_object_add(o, "ops", json_object_new_uint64(ops));
	json_object_object_add(o, "seconds", json_object_new_double(sec));
	json_object_object_add(o, "bytes_per_sec",
	    json_object_new_double((double)bytes / sec));
	json_object_object_add(o, "iops", json_object_new_double(ops / sec));
	json_object_object_add(o, "cpu_seconds", json_object_new_double(cpu));
	json_object_object_add(o, "errors", json_object_new_uint64(
	    drive_errors_total(d) - d->mark.errors));
	features_phase_ended(d, o);
	events_add(&d->log, LOG_INFO, "phase_end", o, -1,
	    (long long)d->st.host_bytes_written, "%s done: %.1f MB/s, %.0f "
	    "IOPS, %.1f s, %" PRIu64 " errors", what, (double)bytes / sec / 1e6,
	    ops / sec, sec, drive_errors_total(d) - d->mark.errors);
}

/* The schedule entered a phase: its event, a SMART reading, a checkpoint
 * (on disk before the phase's first I/O: a restart goes on in the phase
 * the drive's data is in). */
static void
phase_started(struct drive *d)
{
	drive_mark_phase(d);
	events_add(&d->log, LOG_INFO, "phase_start", drive_ev_obj(d), -1,
	    (long long)d->st.host_bytes_written, "cycle %" PRIu64 ": %s",
	    d->st.prog.cycle, phase_name(d->st.prog.phase));
	features_phase_started(d);	/* SMART's: a reading at each */
	/* the phase's first job waits for it to be on disk, the loop not */
	drive_checkpoint_then(d, drive_schedule);
	drive_notify(d);
}

/* Finish the run: the drive has done what it was configured for. */
static void
drive_finish(struct drive *d, const char *why)
{
	drive_set_run(d, RUN_FINISHED, why);
}

/* Is the current phase a verify pass (findings, its error map)? */
static int
phase_verifies(const struct drive *d)
{
	const struct phase_kind *k = sched_kind(d->st.prog.phase);

	return k != NULL && (k->flags & PK_VERIFY);
}

/* Do what the schedule decided after a phase. */
static void
sched_apply(struct drive *d, const struct sched_step *s)
{
	struct sched_step	next;

	switch (s->move) {
	case MOVE_ENTER:
		if (phase_verifies(d))
			features_verify_begin(d, 0);
		phase_started(d);
		break;
	case MOVE_CYCLE_END:
		events_add(&d->log, LOG_NOTICE, "cycle_end", drive_ev_obj(d), -1,
		    (long long)d->st.host_bytes_written, "cycle %" PRIu64
		    " done, TBW %.6f TB, %" PRIu64 " verify errors in all",
		    d->st.prog.cycle, (double)d->st.host_bytes_written / 1e12,
		    drive_errors_total(d));
		sched_cycle_close(&d->st, &d->conf, wall_ms(), &next);
		sched_apply(d, &next);
		break;
	case MOVE_FINISH:
		drive_finish(d, s->why);
		break;
	case MOVE_NONE:		/* no rest: no idle phase events */
		drive_checkpoint(d);
		break;
	default:
		break;
	}
}

/* A timed phase (idle) is over. */
static int
on_idle_done(sd_event_source *s, uint64_t usec, void *arg)
{
	struct drive		*d = arg;
	const struct phase_kind	*k;

	(void)s;
	(void)usec;
	k = sched_kind(d->st.prog.phase);
	if (d->st.run != RUN_RUNNING || k == NULL || k->job != NULL)
		return 0;
	drive_phase_done(d, JOB_DONE);
	drive_schedule(d);
	return 0;
}

/* Arm the idle timer (absolute wall clock, survives restarts). */
static void
idle_arm(struct drive *d, uint64_t until_ms)
{
	uint64_t	when = until_ms * 1000ULL;
	int		rc;

	if (until_ms <= wall_ms()) {
		on_idle_done(NULL, 0, d);
		return;
	}
	if (d->idle_src != NULL) {
		sd_event_source_set_time(d->idle_src, when);
		sd_event_source_set_enabled(d->idle_src, SD_EVENT_ONESHOT);
		return;
	}
	rc = sd_event_add_time(d->ev, &d->idle_src, CLOCK_REALTIME, when,
	    1000000, on_idle_done, d);
	if (rc < 0)
		drive_log(d, LOG_WARNING, 0, "idle timer: %s", strerror(-rc));
}

/*
 * A purge job gets what the drive's open found (d->purge): 1; 0 when
 * prepare was changed by a reload since (its checks were made for
 * another command, or none), and the drive fails. A job given again
 * (after a pause) knows that its sanitize was started.
 */
static int
purge_job(struct drive *d, struct job *j)
{
	if (d->purge.how == PURGE_NONE || d->purge.prepare != d->conf.prepare) {
		drive_fail(d, "prepare = %s: set by a reload during the prepare "
		    "phase, whose checks were made for prepare = %s; start "
		    "the drive again", config_prepare_name(d->conf.prepare),
		    config_prepare_name(d->purge.prepare));
		return 0;
	}
	j->purge = d->purge;
	d->purge.again = 1;
	return 1;
}

/* Hand the worker the job of the current phase, if the drive runs. */
void
drive_schedule(struct drive *d)
{
	struct job		j;
	struct sched_step	s;

	if (!d->active || drive_job_active(d) || d->st.run != RUN_RUNNING ||
	    d->shutting_down || d->hold || d->ckpt.ask.wait)
		return;
	if (d->st.power_verify) {	/* owed after a power loss: first */
		if (drive_verify_start(d) == -1)
			drive_fail(d, "cannot hand the verify after a power loss "
			    "to the worker: %s", strerror(errno));
		return;
	}
	sched_next(&d->st, &d->conf, &j, &s);
	if (s.move == MOVE_WAIT) {
		idle_arm(d, s.until_ms);
		return;
	}
	if (s.move != MOVE_RUN) {
		drive_finish(d, s.why);
		return;
	}
	if (phase_verifies(d))
		features_verify_resume(d);	/* back to the checkpoint */
	features_job_prepare(d, &j);
	if (j.kind == JOB_PURGE && !purge_job(d, &j))
		return;
	if (!d->mark.begun) {	/* the phase's time runs from its first job */
		d->mark.t0 = mono_ns();
		d->mark.begun = 1;
	}
	if (engine_submit(d->eng, &j) == -1) {
		drive_fail(d, "cannot hand a job to the worker: %s",
		    strerror(errno));
		return;
	}
	drive_work_to(d, WORK_PHASE);
}

/* The current phase ran to its end (or to the write budget). */
void
drive_phase_done(struct drive *d, enum job_end end)
{
	struct sched_step	 s;
	char			 why[512];
	int			 bad = 0;

	if (phase_verifies(d)) {
		features_flush(d);	/* its last run counts in the pass */
		bad = features_verify_end(d, 1, why, sizeof(why));
	}
	if (sched_reported(&d->st, &d->conf))
		phase_end_event(d, phase_name(d->st.prog.phase));
	sched_phase_done(&d->st, &d->conf, end, wall_ms(), &s);
	sched_apply(d, &s);
	if (bad)	/* after the schedule moved on: a start goes on from there */
		drive_fail(d, "%s", why);
}

/* A trim the target cannot do is a warning, not a failure. */
static void
trim_unsupported(struct drive *d)
{
	d->st.prog.trimmed_bytes = 0;
	events_add(&d->log, LOG_WARNING, "trim_unsupported", drive_ev_obj(d), -1,
	    (long long)d->st.host_bytes_written, "discard is not supported "
	    "by the target; trim skipped");
}

/* The on-demand verify pass ended: report it, return to the schedule. */
static void
extra_verify_done(struct drive *d, enum job_end end, int err)
{
	char	why[512], pwhy[256];
	int	bad;

	features_flush(d);	/* while its events still say on_demand */
	/* a power-loss verify that went on from an earlier run: not whole */
	bad = features_verify_end(d, end == JOB_DONE && !d->power_resumed,
	    why, sizeof(why));
	drive_work_to(d, WORK_NONE);
	if (end == JOB_FAILED) {
		drive_fail(d, "I/O error during verify: %s", strerror(err));
		return;
	}
	phase_end_event(d, end == JOB_DONE ? "verify_now" :
	    "verify_now (interrupted)");
	if (end == JOB_DONE)
		d->st.verify_passes++;
	if (features_verify_closed(d, end == JOB_DONE, pwhy, sizeof(pwhy)) &&
	    !bad) {
		snprintf(why, sizeof(why), "%s", pwhy);
		bad = 1;
	}
	if (bad)
		drive_fail(d, "%s", why);
	drive_checkpoint(d);
	drive_notify(d);
	drive_schedule(d);
}

/* Start the on-demand verify pass against what the drive holds now. */
int
drive_verify_start(struct drive *d)
{
	struct job	j;
	int		err;

	sched_verify_job(&d->st, &d->conf, &j);
	features_verify_job(d, &j);	/* the one a power loss owes? */
	drive_mark_phase(d);
	features_verify_begin(d, 1);
	events_add(&d->log, LOG_NOTICE, "verify_now", drive_ev_obj(d), -1,
	    (long long)d->st.host_bytes_written, "verify pass %s (read only)",
	    j.power_lost ? "after a power loss" : "on demand");
	if (engine_submit(d->eng, &j) == -1) {
		err = errno;
		drive_work_to(d, WORK_NONE);
		drive_log(d, LOG_WARNING, err, "cannot start verify");
		errno = err;
		return -1;
	}
	drive_work_to(d, WORK_VERIFY);
	drive_notify(d);
	return 0;
}

/*
 * After a failed I/O: is the device still there? A removed disk often
 * fails with ENOSPC or short reads (its size drops to 0), not ENODEV.
 */
static int
device_gone(const struct drive *d)
{
	struct stat	st;
	uint64_t	size = 0;

	if (!d->tgt.is_blockdev)
		return 0;
	if (stat(d->conf.device, &st) == -1 || st.st_rdev != d->tgt.rdev)
		return 1;
	return ioctl(d->tgt.fd, BLKGETSIZE64, &size) == -1 || size == 0;
}

/*
 * The job given up at io_timeout ended after all: its I/O completed.
 * The drive stays failed; the worker is free for the next start.
 */
static void
hung_job_ended(struct drive *d, enum job_end end)
{
	features_flush(d);
	drive_log(d, LOG_INFO, 0,
	    "the device answered again; the job given up after "
	    "io_timeout %s", end == JOB_FAILED ? "failed" :
	    "ended");
	drive_checkpoint(d);
	drive_notify(d);
}

/* The drive failed to erase itself (prepare = format | sanitize): the
 * run does not begin. */
static void
purge_failed(struct drive *d, int err)
{
	char	why[256];

	purge_strerror(err, why, sizeof(why));
	drive_fail(d, "prepare = %s: %s failed: %s",
	    config_prepare_name(d->conf.prepare), purge_name(d->purge.how),
	    why);
}

/* The phase job ended (done, cut, stopped or failed). */
static void
phase_job_ended(struct drive *d, enum job_end end, int err)
{
	switch (end) {
	case JOB_DONE:
		if (features_step_done(d, err))	/* a step of a phase */
			break;
		if (d->st.prog.phase == PHASE_TRIM && err != 0)
			trim_unsupported(d);
		/* the run was to begin discarded: it does not, then */
		if (d->st.prog.phase == PHASE_PREPARE && err != 0) {
			drive_fail(d, "prepare = trim: the device refused a "
			    "discard (%s)", strerror(err));
			break;
		}
		/* FALLTHROUGH */
	case JOB_BUDGET:
		drive_phase_done(d, end);
		break;
	case JOB_STOPPED:
		drive_checkpoint(d);
		drive_notify(d);
		break;
	case JOB_FAILED:
		if (d->st.prog.phase == PHASE_PREPARE &&
		    d->purge.how != PURGE_NONE)
			purge_failed(d, err);
		else if (err == RESERVE_CONFLICT_ERRNO)
			drive_fail(d, "%s", RESERVE_CONFLICT_REASON);
		else if (err == ENODEV || err == ENXIO || device_gone(d))
			drive_fail(d, "device vanished (%s)", strerror(err));
		else if (d->last.flush_err != 0)
			drive_fail(d, "the drive failed a cache flush: %s",
			    strerror(d->last.flush_err));
		else
			drive_fail(d, "I/O error: %s", strerror(err));
		break;
	}
}

/* The worker finished its job: what comes next depends on what it was. */
void
drive_job_ended(struct drive *d, enum job_end end, int err)
{
	enum work	was = d->work;

	switch (was) {
	case WORK_HUNG:
		drive_work_to(d, WORK_NONE);
		hung_job_ended(d, end);
		return;
	case WORK_VERIFY:
		extra_verify_done(d, end, err);
		return;
	case WORK_PHASE:
	case WORK_CUT_NEXT:
		if (features_job_taken(d, was, end))
			return;
		break;
	default:
		break;
	}
	drive_work_to(d, WORK_NONE);
	phase_job_ended(d, end, err);
	/* a verify pass asked for while the job ran goes first */
	if (was == WORK_VERIFY_NEXT)
		drive_verify_start(d);
	else
		drive_schedule(d);
}
