/*
 * drive_cmd.c: the operator's commands on a drive (also the control
 * socket's): pause, resume, stop, start, verify, checkpoint, powercut.
 * Each is refused, with a message, in a state it does not apply to. The
 * pause and resume a feature asks for (the records', records.c decides)
 * are done here too.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drive_cmd.h"
#include "drive_features.h"
#include "drive_priv.h"
#include "drive_work.h"
#include "log.h"

/*
 * A start or verify after io_timeout. When the job given up has ended in
 * the meantime, the worker is free again. When it is still stuck, that
 * worker is left to the kernel (engine_abandon) and a new one takes the
 * drive: the old one's counters and findings stay in its own engine,
 * which nobody reads, so its late completion cannot count twice.
 */
static int
drive_unhang(struct drive *d, char *err, size_t len)
{
	struct engine	*e;
	sd_event_source	*src;
	int		 rc;

	if (drive_job_end_seen(d))
		return 0;
	if ((rc = drive_worker_new(d, &e, &src, err, len)) == -2)
		snprintf(err, len, "%s: cannot watch the worker", d->conf.name);
	if (rc < 0)
		return -1;
	features_flush(d);
	sd_event_source_disable_unref(d->notify_src);
	engine_abandon(d->eng);
	drive_log(d, LOG_WARNING, 0,
	    "the job given up after io_timeout is still stuck; "
	    "its worker is left behind, a new one takes over");
	d->eng = e;
	d->notify_src = src;
	memset(&d->last, 0, sizeof(d->last));	/* the new engine's counters */
	memset(d->rates.hist, 0, sizeof(d->rates.hist));
	drive_work_to(d, WORK_NONE);
	return 0;
}

static int
cmd_refuse(const struct drive *d, char *err, size_t len, const char *what)
{
	if (features_holding(d) != NULL)
		snprintf(err, len, "%s: cannot %s: a power cut is under way "
		    "(%s)", d->conf.name, what, features_holding(d));
	else
		snprintf(err, len, "%s: cannot %s: drive is %s%s",
		    d->conf.name, what, state_word(d->st.run, d->refused),
		    d->refused ? " (see its reason)" : "");
	errno = EBUSY;
	return -1;
}

/* The drive runs again: its schedule goes on where it stands. */
static int
cmd_run(struct drive *d)
{
	drive_set_run(d, RUN_RUNNING, NULL);
	drive_mark_phase(d);
	drive_schedule(d);
	return 0;
}

int
drive_cmd_pause(struct drive *d, char *err, size_t len)
{
	if (!d->active || d->st.run != RUN_RUNNING)
		return cmd_refuse(d, err, len, "pause");
	drive_halt(d);
	drive_set_run(d, RUN_PAUSED, "paused by operator");
	return 0;
}

int
drive_cmd_resume(struct drive *d, char *err, size_t len)
{
	if (!d->active || d->st.run != RUN_PAUSED)
		return cmd_refuse(d, err, len, "resume");
	if (features_refuse_resume(d, err, len) == -1)
		return -1;
	return cmd_run(d);
}

int
drive_cmd_stop(struct drive *d, char *err, size_t len)
{
	if (!d->active ||
	    (d->st.run != RUN_RUNNING && d->st.run != RUN_PAUSED))
		return cmd_refuse(d, err, len, "stop");
	drive_halt(d);
	drive_set_run(d, RUN_STOPPED, "stopped by operator");
	return 0;
}

int
drive_cmd_start(struct drive *d, char *err, size_t len)
{
	if (features_holding(d) != NULL) /* it opens the drive at its end */
		return cmd_refuse(d, err, len, "start");
	if (d->refused) {
		safety_close(&d->tgt);
		if (drive_activate(d, 0) == -1) {
			/* a power cut under way powers it on: it goes on then */
			if (features_holding(d) != NULL)
				return 0;
			snprintf(err, len, "%s: %s", d->conf.name, d->st.reason);
			return -1;
		}
		/* open now; a run that was under way (or autostarts) goes on */
		if (d->st.run == RUN_RUNNING) {
			drive_mark_phase(d);
			drive_schedule(d);
			return 0;
		}
	}
	if (d->st.run == RUN_RUNNING || d->st.run == RUN_PAUSED ||
	    (d->st.run == RUN_FINISHED && sched_stop(&d->st, &d->conf) != NULL))
		return cmd_refuse(d, err, len, "start");
	if (d->work == WORK_HUNG && drive_unhang(d, err, len) == -1)
		return -1;
	return cmd_run(d);
}

int
drive_cmd_verify(struct drive *d, char *err, size_t len)
{
	if (features_hold_verify(d))
		return cmd_refuse(d, err, len, "verify");
	if (!d->active) {
		snprintf(err, len, "%s: cannot verify: drive is not open%s",
		    d->conf.name, d->refused ? " (refused)" : "");
		return -1;
	}
	if (d->work == WORK_VERIFY_NEXT || d->work == WORK_VERIFY) {
		snprintf(err, len, "%s: a verify pass is already running",
		    d->conf.name);
		return -1;
	}
	if (d->work == WORK_HUNG && drive_unhang(d, err, len) == -1)
		return -1;
	if (d->work == WORK_PHASE) {
		drive_work_to(d, WORK_VERIFY_NEXT);
		engine_stop_job(d->eng);	/* starts when the job stopped */
	} else
		drive_verify_start(d);
	return 0;
}

int
drive_cmd_checkpoint(struct drive *d, char *err, size_t len)
{
	json_object	*o;

	if (d->conf.checkpoint == CKPT_OFF) {
		snprintf(err, len, "%s: cannot run a checkpoint: checkpoint = "
		    "off in its configuration", d->conf.name);
		errno = EBUSY;
		return -1;
	}
	if (!d->active || d->st.run == RUN_FAILED || d->st.run == RUN_FINISHED)
		return cmd_refuse(d, err, len, "run a checkpoint");
	d->st.ckpt_asked = 1;
	o = drive_ev_obj(d);
	events_add(&d->log, LOG_NOTICE, "checkpoint_asked", o, -1,
	    (long long)d->st.host_bytes_written, "performance checkpoint "
	    "asked for: at the next cycle boundary");
	drive_checkpoint(d);
	drive_notify(d);
	return 0;
}

int
drive_cmd_powercut(struct drive *d, char *err, size_t len)
{
	if (d->conf.power_cut_command == NULL) {
		snprintf(err, len, "%s: cannot cut the power: no "
		    "power_cut_command in its configuration", d->conf.name);
		errno = EBUSY;
		return -1;
	}
	if (!d->active || d->st.run != RUN_RUNNING ||
	    features_holding(d) != NULL)
		return cmd_refuse(d, err, len, "cut the power");
	d->st.cut_asked = 1;	/* drive_cut.c cuts in a write pass */
	events_add(&d->log, LOG_NOTICE, "power_cut_asked", drive_ev_obj(d), -1,
	    (long long)d->st.host_bytes_written, "power cut asked for: in "
	    "the write pass running, or at the next one");
	drive_job_end_seen(d);	/* not a pass that has ended already */
	features_asked(d);
	drive_checkpoint(d);
	drive_notify(d);
	return 0;
}

/*
 * What the features (the records', records.c) decided this second, acted
 * on: a pause halts the drive's I/O and says why; a resume is the
 * operator's, which the feature no longer refuses.
 */
void
drives_records_tick(struct drive **dv, size_t n)
{
	char	why[256];
	size_t	i;

	for (i = 0; i < n; i++) {
		if (!dv[i]->active)
			continue;
		switch (features_run_check(dv[i], why, sizeof(why))) {
		case ASK_PAUSE:
			drive_halt(dv[i]);
			drive_set_run(dv[i], RUN_PAUSED, why);
			break;
		case ASK_RESUME:
			if (drive_cmd_resume(dv[i], why, sizeof(why)) == -1)
				log_warnx("%s", why);
			break;
		case ASK_GO_ON:
			break;
		}
	}
}
