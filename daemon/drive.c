/*
 * drive.c: one drive under test. The main thread owns everything here;
 * the worker (engine.c) only runs the job it is handed and publishes
 * counters and findings, which drive_poll() folds into the durable state.
 *
 * A cycle is: write the dynamic area (generation = cycle), verify static
 * and dynamic areas, trim the dynamic area, idle. Before the first cycle
 * the static area is written once (generation 0).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "drive.h"
#include "drive_priv.h"
#include "rrd_layout.h"
#include "engine.h"
#include "events.h"
#include "log.h"
#include "reserve.h"
#include "safety.h"
#include "statedir.h"
#include "units.h"

#define FINDINGS_BATCH	256


static void	phase_done(struct drive *, enum job_end);

uint64_t
mono_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Wall clock in milliseconds: the idle deadline survives restarts. */
static uint64_t
wall_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}


/* Every change of what the worker does goes through here. */
void
drive_work_to(struct drive *d, enum work to)
{
	if (!sched_work_allowed(d->work, to)) {
		log_warnx("%s: worker: move from %s to %s refused",
		    d->conf.name, work_name(d->work), work_name(to));
		return;
	}
	d->work = to;
}

/* A job is running, or stopping (hung or not). */
static int
job_active(const struct drive *d)
{
	return d->work != WORK_NONE;
}

/* A job whose I/O is expected to complete: the stall watchdog's. */
static int
job_watched(const struct drive *d)
{
	return d->work != WORK_NONE && d->work != WORK_HUNG;
}

const char *
drive_name(const struct drive *d)
{
	return d->conf.name;
}

void
drive_events_path(const struct drive *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s/events.jsonl", d->dir);
}

static uint64_t
err_sum(const uint64_t *e)
{
	uint64_t	s = 0;
	int		i;

	for (i = 1; i < BLK_NCLASS; i++)
		s += e[i];
	return s;
}

uint64_t
drive_errors_total(const struct drive *d)
{
	return err_sum(d->st.errors);
}

/* Copy a configuration, owning its strings. */
static int
conf_copy(struct drive_conf *dst, const struct drive_conf *src)
{
	*dst = *src;
	dst->device = strdup(src->device);
	dst->serial = src->serial ? strdup(src->serial) : NULL;
	return dst->device == NULL || (src->serial && !dst->serial) ? -1 : 0;
}

static void
conf_release(struct drive_conf *c)
{
	free(c->device);
	free(c->serial);
	c->device = c->serial = NULL;
}

struct drive *
drive_new(const struct drive_conf *c, const char *state_dir, sd_event *ev,
    drive_changed_fn fn, void *arg)
{
	struct drive	*d;

	if ((d = calloc(1, sizeof(*d))) == NULL)
		return NULL;
	if (conf_copy(&d->conf, c) == -1) {
		conf_release(&d->conf);
		free(d);
		return NULL;
	}
	snprintf(d->dir, sizeof(d->dir), "%s/%s", state_dir, c->name);
	snprintf(d->state_path, sizeof(d->state_path), "%s/state", d->dir);
	d->ev = sd_event_ref(ev);
	d->changed = fn;
	d->changed_arg = arg;
	d->tgt.fd = -1;
	d->log.fd = -1;
	d->emap.fd = -1;
	d->smart.log.fd = -1;
	return d;
}

void
drive_free(struct drive *d)
{
	if (d == NULL)
		return;
	drive_smart_stop(d);
	sd_event_source_disable_unref(d->notify_src);
	sd_event_source_disable_unref(d->idle_src);
	if (d->work == WORK_HUNG)
		engine_abandon(d->eng);	/* its thread may never come back */
	else
		engine_free(d->eng);
	safety_close(&d->tgt);
	errmap_close(&d->emap);
	events_close(&d->log);
	events_close(&d->smart.log);
	sd_event_unref(d->ev);
	conf_release(&d->conf);
	free(d);
}

static void
notify_changed(struct drive *d)
{
	if (d->changed != NULL)
		d->changed(d, d->changed_arg);
}

/* An event with the common fields: cycle, phase, TBW. */
json_object *
drive_ev_obj(struct drive *d)
{
	json_object	*o = json_object_new_object();

	json_object_object_add(o, "serial", json_object_new_string(
	    d->tgt.serial[0] ? d->tgt.serial : d->st.serial));
	json_object_object_add(o, "cycle",
	    json_object_new_uint64(d->st.prog.cycle));
	json_object_object_add(o, "phase",
	    json_object_new_string(phase_name(d->st.prog.phase)));
	json_object_object_add(o, "host_bytes_written",
	    json_object_new_uint64(d->st.host_bytes_written));
	return o;
}

/* Write the checkpoint: events first (synced), then the state file. */
static void
drive_checkpoint(struct drive *d)
{
	if (!d->active)
		return;
	findings_flush(d);
	drive_errors_checkpoint(d);
	/* the state never runs ahead of the events it records */
	if (records_sync(d) == -1) {
		records_failed(d, errno);
		return;
	}
	d->st.events_bytes = d->log.size;
	d->st.updated = (uint64_t)time(NULL);
	if (state_save(d->state_path, &d->st) == -1) {
		records_failed(d, errno);
		if (!d->rec.save_warned)
			log_warn("%s: cannot save state %s (will retry)",
			    d->conf.name, d->state_path);
		d->rec.save_warned = 1;
		return;
	}
	if (d->rec.save_warned)
		log_info("%s: state saved again", d->conf.name);
	d->rec.save_warned = 0;
	records_saved(d);
}

/* Fold one snapshot of the worker into the state. */
static void
drive_account(struct drive *d, const struct engine_stats *s)
{
	const struct engine_stats *o = &d->last;
	int	i;

	d->st.host_bytes_written += s->bytes_written - o->bytes_written;
	d->st.host_bytes_read += s->bytes_read - o->bytes_read;
	d->st.host_bytes_trimmed += s->bytes_trimmed - o->bytes_trimmed;
	d->st.write_ops += s->write_ops - o->write_ops;
	d->st.read_ops += s->read_ops - o->read_ops;
	for (i = 1; i < BLK_NCLASS; i++)
		d->st.errors[i] += s->errors[i] - o->errors[i];
	d->st.flushes += s->flushes - o->flushes;
	if (d->work == WORK_PHASE || d->work == WORK_VERIFY_NEXT)
		sched_account(&d->st, s->durable, s->position);
	d->last = *s;
}

/* Take the worker's counters and findings; consistent when it returns. */
void
drive_poll(struct drive *d)
{
	struct finding		f[FINDINGS_BATCH];
	struct engine_stats	s;
	size_t			n, i;

	if (d->eng == NULL)
		return;
	do {
		n = engine_poll(d->eng, &s, f, FINDINGS_BATCH);
		for (i = 0; i < n; i++)
			findings_add(d, &f[i]);
		drive_account(d, &s);
	} while (n == FINDINGS_BATCH);
}

/* Has a configured stop condition been reached? */
static const char *
stop_reached(const struct drive *d)
{
	return sched_stop(&d->st, &d->conf);
}

/* Change the run state, with an event and a checkpoint. */
void
drive_set_run(struct drive *d, enum run_state r, const char *reason)
{
	json_object	*o;
	int		 prio = r == RUN_FAILED ? LOG_CRIT : LOG_NOTICE;

	if (!sched_run_allowed(d->st.run, r)) {
		log_warnx("%s: run state: move from %s to %s refused",
		    d->conf.name, run_state_name(d->st.run), run_state_name(r));
		return;
	}
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
	notify_changed(d);
}

/* Record the start of a phase, for its phase_end figures. */
void
drive_mark_phase(struct drive *d)
{
	d->mark.t0 = mono_ns();
	d->mark.bytes = d->st.host_bytes_written + d->st.host_bytes_read +
	    d->st.host_bytes_trimmed;
	d->mark.ops = d->st.write_ops + d->st.read_ops;
	d->mark.cpu_ns = d->last.cpu_ns;
	d->mark.errors = err_sum(d->st.errors);
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
	json_object_object_add(o, "what", json_object_new_string(what));
	json_object_object_add(o, "bytes", json_object_new_uint64(bytes));
	json_object_object_add(o, "ops", json_object_new_uint64(ops));
	json_object_object_add(o, "seconds", json_object_new_double(sec));
	json_object_object_add(o, "bytes_per_sec",
	    json_object_new_double((double)bytes / sec));
	json_object_object_add(o, "iops", json_object_new_double(ops / sec));
	json_object_object_add(o, "cpu_seconds", json_object_new_double(cpu));
	json_object_object_add(o, "errors", json_object_new_uint64(
	    err_sum(d->st.errors) - d->mark.errors));
	events_add(&d->log, LOG_INFO, "phase_end", o, -1,
	    (long long)d->st.host_bytes_written, "%s done: %.1f MB/s, %.0f "
	    "IOPS, %.1f s, %" PRIu64 " errors", what, (double)bytes / sec / 1e6,
	    ops / sec, sec, err_sum(d->st.errors) - d->mark.errors);
}

/* The schedule entered a phase: its event, a SMART reading, a checkpoint. */
static void
phase_started(struct drive *d)
{
	drive_mark_phase(d);
	events_add(&d->log, LOG_INFO, "phase_start", drive_ev_obj(d), -1,
	    (long long)d->st.host_bytes_written, "cycle %" PRIu64 ": %s",
	    d->st.prog.cycle, phase_name(d->st.prog.phase));
	drive_smart_poll(d);	/* a reading at every phase change */
	drive_checkpoint(d);
	notify_changed(d);
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
			drive_errors_begin(d, 0);
		phase_started(d);
		break;
	case MOVE_CYCLE_END:
		events_add(&d->log, LOG_NOTICE, "cycle_end", drive_ev_obj(d), -1,
		    (long long)d->st.host_bytes_written, "cycle %" PRIu64
		    " done, TBW %.6f TB, %" PRIu64 " verify errors in all",
		    d->st.prog.cycle, (double)d->st.host_bytes_written / 1e12,
		    err_sum(d->st.errors));
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

/* Fail the drive: it stays failed until an operator starts it again. */
static void
drive_fail(struct drive *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
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
	phase_done(d, JOB_DONE);
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
		log_warnx("%s: idle timer: %s", d->conf.name, strerror(-rc));
}

/* Hand the worker the job of the current phase, if the drive runs. */
void
drive_schedule(struct drive *d)
{
	struct job		j;
	struct sched_step	s;

	if (!d->active || job_active(d) || d->st.run != RUN_RUNNING ||
	    d->shutting_down || d->hold)
		return;
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
		drive_errors_resume(d);	/* its map, cut back to the checkpoint */
	if (engine_submit(d->eng, &j) == -1) {
		drive_fail(d, "cannot hand a job to the worker: %s",
		    strerror(errno));
		return;
	}
	drive_work_to(d, WORK_PHASE);
}

/* The current phase ran to its end (or to the write budget). */
static void
phase_done(struct drive *d, enum job_end end)
{
	struct sched_step	 s;
	char			 why[512];
	int			 bad = 0;

	if (phase_verifies(d)) {
		findings_flush(d);	/* its last run counts in the pass */
		bad = drive_errors_end(d, 1, why, sizeof(why));
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
	char	why[512];
	int	bad;

	findings_flush(d);	/* while its events still say on_demand */
	bad = drive_errors_end(d, end == JOB_DONE, why, sizeof(why));
	drive_work_to(d, WORK_NONE);
	if (end == JOB_FAILED) {
		drive_fail(d, "I/O error during verify: %s", strerror(err));
		return;
	}
	phase_end_event(d, end == JOB_DONE ? "verify_now" :
	    "verify_now (interrupted)");
	if (end == JOB_DONE)
		d->st.verify_passes++;
	if (bad)
		drive_fail(d, "%s", why);
	drive_checkpoint(d);
	notify_changed(d);
	drive_schedule(d);
}

/* Start the on-demand verify pass against what the drive holds now. */
void
drive_verify_start(struct drive *d)
{
	struct job	j;

	sched_verify_job(&d->st, &d->conf, &j);
	drive_mark_phase(d);
	drive_errors_begin(d, 1);
	events_add(&d->log, LOG_NOTICE, "verify_now", drive_ev_obj(d), -1,
	    (long long)d->st.host_bytes_written, "verify pass on demand "
	    "(read only)");
	if (engine_submit(d->eng, &j) == -1) {
		drive_work_to(d, WORK_NONE);
		log_warn("%s: cannot start verify", d->conf.name);
		return;
	}
	drive_work_to(d, WORK_VERIFY);
	notify_changed(d);
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
	findings_flush(d);
	log_info("%s: the device answered again; the job given up after "
	    "io_timeout %s", d->conf.name, end == JOB_FAILED ? "failed" :
	    "ended");
	drive_checkpoint(d);
	notify_changed(d);
}

/* The phase job ended (done, cut, stopped or failed). */
static void
phase_job_ended(struct drive *d, enum job_end end, int err)
{
	switch (end) {
	case JOB_DONE:
		if (d->st.prog.phase == PHASE_TRIM && err != 0)
			trim_unsupported(d);
		/* FALLTHROUGH */
	case JOB_BUDGET:
		phase_done(d, end);
		break;
	case JOB_STOPPED:
		drive_checkpoint(d);
		notify_changed(d);
		break;
	case JOB_FAILED:
		if (err == RESERVE_CONFLICT_ERRNO)
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

/* The worker's eventfd: findings are waiting, or the job ended. */
static int
on_worker(sd_event_source *s, int fd, uint32_t revents, void *arg)
{
	struct drive	*d = arg;
	enum job_end	 end;
	int		 err;

	(void)s;
	(void)fd;
	(void)revents;
	engine_ack(d->eng);	/* before looking: a later notice wakes us again */
	drive_poll(d);
	if (engine_job_done(d->eng, &end, &err)) {
		drive_poll(d);
		drive_job_ended(d, end, err);
	}
	return 0;
}

/* A new drive: fresh instance id, static phase first. */
static int
state_init(struct drive *d, const struct layout *l)
{
	memset(&d->st, 0, sizeof(d->st));
	if (getrandom(&d->st.instance, sizeof(d->st.instance), 0) !=
	    sizeof(d->st.instance))
		return -1;
	d->st.instance |= 1;	/* never 0 */
	snprintf(d->st.device, sizeof(d->st.device), "%s", d->conf.device);
	snprintf(d->st.serial, sizeof(d->st.serial), "%s",
	    d->tgt.serial[0] ? d->tgt.serial : "none");
	d->st.lay = *l;
	sched_init(&d->st, &d->conf);
	d->st.created = (uint64_t)time(NULL);
	return 0;
}

/* A refusal: nothing was written; say why, everywhere. */
static int
drive_refuse(struct drive *d, const char *why)
{
	json_object	*o = json_object_new_object();

	d->refused = 1;
	d->st.run = RUN_FAILED;
	snprintf(d->st.reason, sizeof(d->st.reason), "refused: %s", why);
	json_object_object_add(o, "device",
	    json_object_new_string(d->conf.device));
	json_object_object_add(o, "reason", json_object_new_string(why));
	if (d->log.path != NULL)
		events_add(&d->log, LOG_ERR, "refused", o, -1, -1,
		    "refusing %s: %s", d->conf.device, why);
	else {
		struct log_fields lf = { d->conf.name, d->conf.serial, NULL,
		    -1, -1 };
		log_fields(LOG_ERR, &lf, "refusing %s: %s", d->conf.device, why);
		json_object_put(o);
	}
	safety_discard(&d->tgt, d->conf.device);
	notify_changed(d);
	return -1;
}

/* The stored layout must be what the configuration gives now. */
static int
layout_matches(const struct drive *d, const struct layout *l, char *why,
    size_t len)
{
	const struct layout *o = &d->st.lay;

	if (strcmp(d->st.device, d->conf.device) != 0)
		snprintf(why, len, "the state belongs to %s, not %s",
		    d->st.device, d->conf.device);
	else if (o->block_size != l->block_size || o->nblocks != l->nblocks ||
	    o->static_blocks != l->static_blocks)
		snprintf(why, len, "the layout (block_size, span or "
		    "static_fraction) differs from the one under test since %s; "
		    "restore it, or remove %s to start over", "the first start",
		    d->dir);
	else
		return 1;
	return 0;
}

/* Load the state when there is one; *owned tells. */
static int
state_read(struct drive *d, int *owned, char *why, size_t len)
{
	char	err[256];

	*owned = 0;
	if (state_load(d->state_path, &d->st, err, sizeof(err)) == 0) {
		*owned = 1;
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	snprintf(why, len, "cannot read %s: %s", d->state_path, err);
	return -1;
}

/* What a drive that has state does on activation. */
static void
resume_owned(struct drive *d)
{
	sched_resume(&d->st, &d->conf);
	events_add(&d->log, LOG_NOTICE, "resume", drive_ev_obj(d), -1,
	    (long long)d->st.host_bytes_written, "resuming %s: %s, cycle %"
	    PRIu64 ", %s at item %" PRIu64 ", TBW %.6f TB", d->conf.device,
	    run_state_name(d->st.run), d->st.prog.cycle,
	    phase_name(d->st.prog.phase), d->st.prog.position,
	    (double)d->st.host_bytes_written / 1e12);
}

/* Open events.jsonl, cut back to what the last checkpoint knew. */
static void
drive_open_events(struct drive *d, uint64_t keep)
{
	char	path[PATH_MAX + 16];

	if (d->log.path != NULL)
		return;
	snprintf(path, sizeof(path), "%s/events.jsonl", d->dir);
	if (events_open(&d->log, path, keep, d->conf.name,
	    d->conf.serial) == -1) {
		log_warn("%s: cannot open %s", d->conf.name, path);
		events_close(&d->log);
	}
}

/* A drive seen for the first time. */
static void
announce_new(struct drive *d)
{
	json_object	*o = drive_ev_obj(d);
	char		 hex[20], a[32];

	snprintf(hex, sizeof(hex), "%016" PRIx64, d->st.instance);
	json_object_object_add(o, "instance", json_object_new_string(hex));
	json_object_object_add(o, "capacity",
	    json_object_new_uint64(d->tgt.capacity));
	json_object_object_add(o, "span_bytes",
	    json_object_new_uint64(d->st.lay.span_bytes));
	events_add(&d->log, LOG_NOTICE, "created", o, -1, 0, "new run on %s "
	    "(%s span, instance %s)", d->conf.device,
	    units_fmt_bin(d->st.lay.span_bytes, a, sizeof(a)), hex);
}

void
drive_set_owner_check(struct drive *d, drive_owner_fn fn)
{
	d->owner = fn;
}

int
drive_target_id(const struct drive *d, struct target_id *id)
{
	if (d->tgt.fd >= 0)
		return safety_fd_target_id(d->tgt.fd, id);
	return safety_target_id(d->conf.device, id);
}

/*
 * One drive, one owner: refused when another drive of the daemon has the
 * same target under another path, or when the state directory holds the
 * run of a device another drive has (sections renamed or swapped).
 */
static int
drive_claimed(struct drive *d, int owned, char *why, size_t len)
{
	struct target_id	id;
	char			who[PATH_MAX / 2];

	if (d->owner == NULL)
		return 0;
	if (d->owner(d, d->conf.device, who, sizeof(who), d->changed_arg) &&
	    safety_target_id(d->conf.device, &id) == 0) {
		snprintf(why, len, "%s is the same %s as %s; a target is tested "
		    "by one drive section only", d->conf.device,
		    id.is_blockdev ? "device" : "file", who);
		return 1;
	}
	if (owned && strcmp(d->st.device, d->conf.device) != 0 &&
	    d->owner(d, d->st.device, who, sizeof(who), d->changed_arg)) {
		snprintf(why, len, "its state directory %s holds the run on %s, "
		    "which %s has (a drive section renamed? remove that "
		    "directory to start over)", d->dir, d->st.device, who);
		return 1;
	}
	return 0;
}

/*
 * How the run recorded in `sf` names the target a fresh drive is to take:
 * by its path or as the same device or file (before the open, so that a
 * file is not made for nothing), or, once a block device is open, by its
 * serial; NULL when it names another target or is no run at all.
 */
static const char *
state_claims(const char *sf, const struct drive *d, const struct target_id *id,
    int by_serial)
{
	static struct dstate	s;	/* large; only the main loop calls this */
	struct target_id	other;
	char			err[256];

	if (state_load(sf, &s, err, sizeof(err)) == -1)
		return NULL;
	if (by_serial)
		return d->tgt.serial[0] != '\0' && strcmp(s.serial, "none") &&
		    strcmp(s.serial, d->tgt.serial) == 0 ? "serial" : NULL;
	if (strcmp(s.device, d->conf.device) == 0)
		return "path";
	if (id != NULL && safety_target_id(s.device, &other) == 0 &&
	    safety_same_target(id, &other))
		return id->is_blockdev ? "device" : "file";
	return NULL;
}

/*
 * A drive about to start fresh must not take a target whose run another
 * directory of the state directory records (a section renamed): the fresh
 * run would overwrite that run's blocks.
 */
static int
claimed_by_record(struct drive *d, int by_serial, char *why, size_t len)
{
	char			 parent[PATH_MAX], sf[2 * PATH_MAX];
	const char		*how = NULL;
	struct dirent		*e;
	struct target_id	 id;
	int			 have_id;
	DIR			*dp;

	snprintf(parent, sizeof(parent), "%.*s", (int)(strlen(d->dir) -
	    strlen(d->conf.name) - 1), d->dir);
	have_id = drive_target_id(d, &id) == 0;
	if ((dp = opendir(parent)) == NULL)
		return 0;
	while (how == NULL && (e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, d->conf.name) == 0)
			continue;
		snprintf(sf, sizeof(sf), "%s/%s/state", parent, e->d_name);
		if ((how = state_claims(sf, d, have_id ? &id : NULL,
		    by_serial)) != NULL)
			snprintf(why, len, "%s/%s holds a run on %s (the same "
			    "%s); rename the section back to %s to resume it, "
			    "or remove %s/%s%s to start over", parent,
			    e->d_name, d->conf.device, how, e->d_name, parent,
			    e->d_name, have_id && !id.is_blockdev ?
			    " and the file" : "");
	}
	closedir(dp);
	return how != NULL;
}

/* Target, layout and state: refuse with a reason, or be ready to run. */
static int
drive_prepare(struct drive *d)
{
	struct layout	l;
	char		why[3 * PATH_MAX];
	int		owned;

	d->tgt.created = 0;	/* only a file made by this start is undone */
	if (statedir_mkdirs(d->dir, 0750) == -1) {
		snprintf(why, sizeof(why), "cannot create %s: %s", d->dir,
		    strerror(errno));
		return drive_refuse(d, why);
	}
	if (state_read(d, &owned, why, sizeof(why)) == -1) {
		drive_open_events(d, UINT64_MAX);
		return drive_refuse(d, why);
	}
	drive_open_events(d, owned ? d->st.events_bytes : UINT64_MAX);
	if (drive_claimed(d, owned, why, sizeof(why)) ||
	    (!owned && claimed_by_record(d, 0, why, sizeof(why))))
		return drive_refuse(d, why);
	if (safety_open(&d->conf, owned, d->st.instance, d->conf.block_size,
	    &d->tgt, why, sizeof(why)) == -1)
		return drive_refuse(d, why);
	if (!owned && d->tgt.is_blockdev &&
	    claimed_by_record(d, 1, why, sizeof(why)))
		return drive_refuse(d, why);
	if (layout_init(&l, d->tgt.capacity, config_span_bytes(&d->conf,
	    d->tgt.capacity), d->conf.block_size, d->conf.static_fraction,
	    why, sizeof(why)) == -1)
		return drive_refuse(d, why);
	if (owned && !layout_matches(d, &l, why, sizeof(why)))
		return drive_refuse(d, why);
	if (d->conf.reservation && safety_reserve(&d->tgt, d->conf.name, why,
	    sizeof(why)) == -1)
		return drive_refuse(d, why);
	if (!owned && state_init(d, &l) == -1)
		return drive_refuse(d, "cannot make an instance id");
	return owned;
}

int
drive_worker_new(struct drive *d, struct engine **e, sd_event_source **src,
    char *err, size_t len)
{
	*src = NULL;
	if ((*e = engine_start(d->tgt.fd, d->conf.name, d->conf.block_size,
	    d->conf.queue_depth, err, len)) == NULL)
		return -1;
	if (sd_event_add_io(d->ev, src, engine_notify_fd(*e), EPOLLIN,
	    on_worker, d) < 0) {
		engine_free(*e);
		*e = NULL;
		return -2;
	}
	return 0;
}

int
drive_activate(struct drive *d, int schedule)
{
	char	err[256];
	int	owned, rc;

	d->refused = 0;
	if ((owned = drive_prepare(d)) == -1)
		return -1;
	if ((rc = drive_worker_new(d, &d->eng, &d->notify_src, err,
	    sizeof(err))) < 0)
		return drive_refuse(d, rc == -2 ? "cannot watch the worker" :
		    err);
	memset(&d->last, 0, sizeof(d->last));
	memset(d->rates.hist, 0, sizeof(d->rates.hist));
	d->active = 1;
	d->tgt.created = 0;	/* the drive's file from now on, never undone */
	d->errors_at_start = err_sum(d->st.errors);
	drive_smart_start(d);
	if (owned)
		resume_owned(d);
	else
		announce_new(d);
	drive_checkpoint(d);
	drive_mark_phase(d);
	rates_reset(d);
	if (schedule)
		drive_schedule(d);
	notify_changed(d);
	return 0;
}

/*
 * A read or write that never completes leaves the worker stuck in the
 * kernel (rates_stalled): the job is told to stop, the drive fails, the
 * other drives go on.
 */
static void
drive_watch_stall(struct drive *d)
{
	char	why[256];

	if (!job_watched(d) || !rates_stalled(d, why, sizeof(why)))
		return;
	drive_work_to(d, WORK_HUNG);
	engine_stop_job(d->eng);
	drive_fail(d, "%s", why);
}

void
drive_tick(struct drive *d)
{
	enum job_end	end;
	int		err;

	if (!d->active)
		return;
	drive_poll(d);
	if (job_active(d) && engine_job_done(d->eng, &end, &err)) {
		drive_poll(d);		/* never miss the end of a job */
		drive_job_ended(d, end, err);
	}
	drive_watch_stall(d);
	rates_tick(d);
	if (job_active(d) || !records_current(d))
		drive_checkpoint(d);
	records_tick(d);
}

/* Fraction done and time left of the current phase. */
static void
phase_progress(const struct drive *d, double *frac, uint64_t *eta)
{
	int	on_demand = d->work == WORK_VERIFY;

	sched_progress(&d->st, &d->conf, on_demand, on_demand ?
	    d->last.position : d->st.prog.position, job_active(d) ?
	    d->rates.wbps + d->rates.rbps : 0, wall_ms(), frac, eta);
}

void
drive_status(const struct drive *d, struct drive_status *s)
{
	int	i;

	memset(s, 0, sizeof(*s));
	s->name = d->conf.name;
	s->device = d->conf.device;
	s->serial = d->tgt.serial[0] ? d->tgt.serial : d->st.serial;
	s->model = d->tgt.model;
	s->run = d->st.run;
	s->refused = d->refused;
	s->verifying = d->work == WORK_VERIFY_NEXT || d->work == WORK_VERIFY;
	s->phase = d->st.prog.phase;
	phase_progress(d, &s->phase_progress, &s->eta_sec);
	s->cycle = d->st.prog.cycle;
	s->cycles_done = d->st.cycles_done;
	s->host_bytes_written = d->st.host_bytes_written;
	s->host_bytes_read = d->st.host_bytes_read;
	s->write_bps = job_active(d) ? d->rates.wbps : 0;
	s->read_bps = job_active(d) ? d->rates.rbps : 0;
	for (i = 0; i < BLK_NCLASS; i++)
		s->errors[i] = d->st.errors[i];
	s->errors_total = err_sum(d->st.errors);
	s->errors_this_run = s->errors_total - d->errors_at_start;
	s->reason = d->st.reason;
	s->capacity = d->tgt.capacity;
	s->span_bytes = d->st.lay.span_bytes;
	s->flushes = d->st.flushes;
	s->flush_known = d->eng != NULL && d->last.flushes > 0;
	s->flush_lat_sec = (double)d->last.flush_lat_last_us / 1e6;
	s->flush_lat_max_sec = (double)d->last.flush_lat_max_us / 1e6;
	records_status(d, s);
}

int
drive_settled(const struct drive *d)
{
	/* a hung job may never end: its drive has failed all the same */
	if (d->refused || d->work == WORK_HUNG)
		return 1;
	if (job_active(d))
		return 0;
	return d->st.run == RUN_FINISHED || d->st.run == RUN_FAILED ||
	    d->st.run == RUN_STOPPED;
}

/* Stop the worker's job (if any) and the idle timer; keep the position. */
void
drive_halt(struct drive *d)
{
	if (job_active(d))
		engine_stop_job(d->eng);
	sd_event_source_set_enabled(d->idle_src, SD_EVENT_OFF);
}

/* Keys that define what is on the drive: they cannot change under test. */
static const char *
layout_key_changed(const struct drive_conf *a, const struct drive_conf *b)
{
	if (strcmp(a->device, b->device) != 0)
		return "device";
	if (a->block_size != b->block_size)
		return "block_size";
	if (a->span != b->span || a->span_percent != b->span_percent)
		return "span";
	if (a->static_fraction != b->static_fraction)
		return "static_fraction";
	if (a->reservation != b->reservation)
		return "reservation";
	if (a->size != b->size)
		return "size";
	if ((a->serial == NULL) != (b->serial == NULL) ||
	    (a->serial && strcmp(a->serial, b->serial) != 0))
		return "serial";
	if (b->queue_depth > a->queue_depth)
		return "queue_depth (only a decrease applies without restart)";
	return NULL;
}

int
drive_reconfigure(struct drive *d, const struct drive_conf *c, char *err,
    size_t len)
{
	struct drive_conf	nc;
	const char		*key;

	if (d->active && (key = layout_key_changed(&d->conf, c)) != NULL) {
		snprintf(err, len, "%s: %s cannot change while the drive is "
		    "under test; old settings kept", d->conf.name, key);
		return -1;
	}
	if (conf_copy(&nc, c) == -1) {
		conf_release(&nc);
		snprintf(err, len, "out of memory");
		return -1;
	}
	conf_release(&d->conf);
	d->conf = nc;
	if (d->active && d->st.run == RUN_FINISHED && stop_reached(d) == NULL) {
		drive_set_run(d, RUN_RUNNING, "stop condition raised by reload");
		drive_schedule(d);
	}
	return 0;
}

void
drive_shutdown_begin(struct drive *d)
{
	d->shutting_down = 1;
	drive_halt(d);
}

int
drive_busy(struct drive *d)
{
	enum job_end	end;
	int		err;

	if (!d->active || !job_watched(d))
		return 0;	/* nothing to wait for, or nothing that will end */
	drive_poll(d);
	if (engine_job_done(d->eng, &end, &err)) {
		drive_poll(d);
		drive_job_ended(d, end, err);
	}
	return job_active(d);
}

void
drive_shutdown_end(struct drive *d)
{
	if (!d->active)
		return;
	drive_poll(d);
	if (!job_active(d))
		events_add(&d->log, LOG_INFO, "shutdown", drive_ev_obj(d), -1,
		    (long long)d->st.host_bytes_written, "checkpoint at %s "
		    "item %" PRIu64, phase_name(d->st.prog.phase),
		    d->st.prog.position);
	drive_checkpoint(d);
}

int
drive_quiet(const struct drive *d)
{
	return !job_active(d);
}

void
drive_hold(struct drive *d, int hold)
{
	d->hold = hold;
}
