/*
 * drive_run.c: the moves of a drive's run state and of what its worker
 * does, each as schedule.c's tables allow, the lowest of the drive's
 * core: the lifecycle (drive.c), the jobs (drive_job.c) and the commands
 * (drive_cmd.c) change them through here.
 */
#include <stdarg.h>
#include <stdio.h>

#include <json-c/json.h>

#include "drive_features.h"
#include "drive_priv.h"
#include "drive_work.h"
#include "events.h"

/* Every change of what the worker does goes through here. */
void
drive_work_to(struct drive *d, enum work to)
{
	if (!sched_work_allowed(d->work, to)) {
		drive_log(d, LOG_WARNING, 0, "worker: move from %s to %s "
		    "refused", work_name(d->work), work_name(to));
		return;
	}
	d->work = to;
}

/* Change the run state, with an event and a checkpoint. */
void
drive_set_run(struct drive *d, enum run_state r, const char *reason)
{
	json_object	*o;
	int		 prio = r == RUN_FAILED ? LOG_CRIT : LOG_NOTICE;

	if (!sched_run_allowed(d->st.run, r)) {
		drive_log(d, LOG_WARNING, 0, "run state: move from %s to %s "
		    "refused", run_state_name(d->st.run), run_state_name(r));
		return;
	}
	if (r == RUN_STOPPED || r == RUN_FINISHED || r == RUN_FAILED)
		features_run_ended(d, run_state_name(r));
	d->st.run = r;
	snprintf(d->st.reason, sizeof(d->st.reason), "%s", reason ? reason : "");
	if (r == RUN_FAILED)
		d->st.failed_at_tbw = d->st.host_bytes_written;
	o = drive_ev_obj(d);
	json_object_object_add(o, "state",
	    json_object_new_string(run_state_name(r)));
	if (reason != NULL)
		json_object_object_add(o, "reason", json_object_new_string(reason));
	events_add(&d->log, prio, run_state_name(r), o, -1,
	    (long long)d->st.host_bytes_written, "%s%s%s (TBW %.6f TB)",
	    run_state_name(r), reason ? ": " : "", reason ? reason : "",
	    (double)d->st.host_bytes_written / 1e12);
	drive_checkpoint(d);
	drive_notify(d);
}

void
drive_fail(struct drive *d, const char *fmt, ...)
{
	char	why[256];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	sd_event_source_set_enabled(d->idle_src, SD_EVENT_OFF);
	drive_set_run(d, RUN_FAILED, why);
}

/* Stop the worker's job (if any) and the idle timer; keep the position. */
void
drive_halt(struct drive *d)
{
	if (drive_job_active(d))
		engine_stop_job(d->eng);
	sd_event_source_set_enabled(d->idle_src, SD_EVENT_OFF);
}
