/*
 * drive.c: one drive under test, its lifecycle: made, activated (its
 * target opened by drive_open.c, its worker started), ticked once a
 * second, checkpointed, its run state changed, reconfigured, shut down.
 * The main thread owns everything here; the worker (engine.c) only runs
 * the job it is handed (drive_job.c hands them out, as schedule.c says)
 * and publishes counters and findings, which drive_poll() folds into the
 * durable state.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "drive.h"
#include "drive_features.h"
#include "drive_priv.h"
#include "drive_work.h"
#include "engine.h"
#include "statedir.h"
#include "events.h"
#include "log.h"
#include "safety.h"

#define FINDINGS_BATCH	256

/* What the features ask of the core (drive_priv.h), defined below. */
static const struct drive_core_ops core_ops;

const char *
drive_name(const struct drive *d)
{
	return d->conf.name;
}

struct drive *
drive_new(const struct drive_conf *c, const char *state_dir, sd_event *ev,
    drive_changed_fn fn, void *arg)
{
	struct drive	*d;

	if ((d = calloc(1, sizeof(*d))) == NULL)
		return NULL;
	d->series.step = -1;
	if (config_drive_copy(&d->conf, c) == -1 || statedir_drive_dir(d->dir,
	    sizeof(d->dir), state_dir, c->name) == -1 ||
	    statedir_path(d->state_path, sizeof(d->state_path), d->dir,
	    STATEDIR_STATE) == -1) {
		config_drive_release(&d->conf);
		free(d);
		return NULL;
	}
	d->ev = sd_event_ref(ev);
	d->changed = fn;
	d->changed_arg = arg;
	d->core = &core_ops;
	d->tgt.fd = -1;
	d->log.fd = -1;
	d->smart.log.fd = -1;
	d->results.fd = -1;
	features_made(d);
	return d;
}

void
drive_free(struct drive *d)
{
	if (d == NULL)
		return;
	checkpoint_forget(d);
	features_closing(d);
	features_release(d);
	sd_event_source_disable_unref(d->notify_src);
	sd_event_source_disable_unref(d->idle_src);
	if (d->work == WORK_HUNG)
		engine_abandon(d->eng);	/* its thread may never come back */
	else
		engine_free(d->eng);
	safety_close(&d->tgt);
	events_close(&d->log);
	events_close(&d->smart.log);
	sd_event_unref(d->ev);
	config_drive_release(&d->conf);
	free(d);
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
	for (i = 1; i < BLK_NCLASS; i++) {
		/* a unit the checkpoint's probes read bad again counts once */
		uint64_t n = s->errors[i] - o->errors[i];

		n -= d->dup[i] < n ? d->dup[i] : n;
		d->dup[i] = 0;
		d->st.errors[i] += n;
	}
	d->st.flushes += s->flushes - o->flushes;
	d->st.unflushed_kept += s->unflushed_kept - o->unflushed_kept;
	if (d->work == WORK_VERIFY)
		features_verify_progress(d, s->position);
	if (d->work == WORK_PHASE || d->work == WORK_VERIFY_NEXT ||
	    d->work == WORK_CUT_NEXT) {
		/* a checkpoint's writes, the probes' and the region's rewrite */
		if (d->st.prog.phase == PHASE_CHECKPOINT)
			d->st.probe_bytes_written +=
			    s->bytes_written - o->bytes_written;
		sched_account(&d->st, s->durable, s->position);
	}
	d->last = *s;
}

/* A checkpoint's probe found only units a feature counted and told
 * already: not a finding again. */
static int
told_before(struct drive *d, const struct finding *f)
{
	return d->st.prog.phase == PHASE_CHECKPOINT && d->work != WORK_VERIFY &&
	    features_seen_before(d, f) == f->nblocks;
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
			if (!told_before(d, &f[i]))
				features_found(d, &f[i]);
		drive_account(d, &s);
	} while (n == FINDINGS_BATCH);
}

/* Has a configured stop condition been reached? */
static const char *
stop_reached(const struct drive *d)
{
	return sched_stop(&d->st, &d->conf);
}

/*
 * A job that has ended and whose end the main loop has not handled yet
 * (its eventfd, the tick) is handled now, so that a command acts on the
 * drive as it is: 1 when there was one.
 */
int
drive_job_end_seen(struct drive *d)
{
	enum job_end	end;
	int		err;

	if (d->eng == NULL)
		return 0;
	drive_poll(d);
	if (!engine_job_done(d->eng, &end, &err))
		return 0;
	drive_poll(d);
	drive_job_ended(d, end, err);
	return 1;
}

/* The worker's eventfd: findings are waiting, or the job ended. */
static int
on_worker(sd_event_source *s, int fd, uint32_t revents, void *arg)
{
	struct drive	*d = arg;

	(void)s;
	(void)fd;
	(void)revents;
	engine_ack(d->eng);	/* before looking: a later notice wakes us again */
	drive_job_end_seen(d);
	return 0;
}

int
drive_worker_new(struct drive *d, struct engine **e, sd_event_source **src,
    char *err, size_t len)
{
	*src = NULL;
	if ((*e = engine_start(d->tgt.fd, d->conf.name, d->log.serial,
	    d->conf.block_size, d->conf.queue_depth, err, len)) == NULL)
		return -1;
	engine_set_tear_unit(*e, d->tgt.logical_block);
	if (sd_event_add_io(d->ev, src, engine_notify_fd(*e), EPOLLIN,
	    on_worker, d) < 0) {
		engine_free(*e);
		*e = NULL;
		return -2;
	}
	return 0;
}

/* SMART fails or finishes the drive: its job stops, its state says why. */
static void
verdict(struct drive *d, enum run_state r, const char *why)
{
	drive_halt(d);
	drive_set_run(d, r, why);
}

static uint64_t
written_now(struct drive *d)
{
	uint64_t	live;

	if (d->eng == NULL)
		return d->st.host_bytes_written;
	live = engine_written_live(d->eng);
	return d->st.host_bytes_written + (live > d->last.bytes_written ?
	    live - d->last.bytes_written : 0);
}

/*
 * Open the drive: its target, state and worker; `reopen` when a feature
 * that closed it opens it again (a power cut's return: not a new run of
 * the daemon, its errors so far still this run's).
 */
static int
activate(struct drive *d, int schedule, int reopen)
{
	char	err[256];
	int	owned, rc, lost;

	d->refused = 0;
	if ((owned = drive_prepare(d)) < 0) {
		if (owned == -2)	/* a cut under way: power on, wait */
			features_bring_back(d);
		return -1;
	}
	if ((rc = drive_worker_new(d, &d->eng, &d->notify_src, err,
	    sizeof(err))) < 0)
		return drive_refuse(d, rc == -2 ? "cannot watch the worker" :
		    err);
	memset(&d->last, 0, sizeof(d->last));
	memset(d->rates.hist, 0, sizeof(d->rates.hist));
	d->active = 1;
	d->tgt.created = 0;	/* the drive's file from now on, never undone */
	if (!reopen)
		d->errors_at_start = drive_errors_total(d);
	features_opening(d);
	/* before the announce: its resume may raise a finished drive's
	 * limits, and a finished drive owes no verify */
	lost = features_power_check(d, owned);
	drive_announce(d, owned);
	features_activated(d, lost);	/* the findings' note first */
	drive_checkpoint(d);
	drive_mark_phase(d);
	rates_reset(d);
	if (schedule)
		drive_schedule(d);
	drive_notify(d);
	return 0;
}

int
drive_activate(struct drive *d, int schedule)
{
	return activate(d, schedule, 0);
}

static int
reopen(struct drive *d)
{
	return activate(d, 1, 1);
}

/* Close the drive, as if it were never opened (reopen() opens it). */
static void
close_drive(struct drive *d)
{
	features_closing(d);
	d->notify_src = sd_event_source_disable_unref(d->notify_src);
	engine_free(d->eng);
	d->eng = NULL;
	safety_close(&d->tgt);
	d->active = 0;
}

/* A feature saw the device's power lost (a cut): the features that keep
 * the verify it owes are told, the loss counted ... */
static void
power_lost(struct drive *d, int bounded, uint64_t kept_end)
{
	features_power_lost(d, 1, bounded, kept_end);
}

/* ... or not counted (not known to be one). */
static void
power_owed(struct drive *d)
{
	features_power_lost(d, 0, 0, 0);
}

static int
records_on_disk(const struct drive *d)
{
	return !features_behind(d);
}

static const struct drive_core_ops core_ops = {
	.poll = drive_poll,
	.schedule = drive_schedule,
	.phase_done = drive_phase_done,
	.work_to = drive_work_to,
	.close = close_drive,
	.reopen = reopen,
	.verdict = verdict,
	.written_now = written_now,
	.job_end_seen = drive_job_end_seen,
	.power_lost = power_lost,
	.power_owed = power_owed,
	.flush_findings = features_flush,
	.told = features_told,
	.records_on_disk = records_on_disk,
	.checkpoint = drive_checkpoint,
};

/*
 * A read or write that never completes leaves the worker stuck in the
 * kernel (rates_stalled): the job is told to stop, the drive fails, the
 * other drives go on.
 */
static void
drive_watch_stall(struct drive *d)
{
	char	why[256];

	if (!drive_job_watched(d) || !rates_stalled(d, why, sizeof(why)))
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
	uint64_t	t0;

	if (!d->active)
		return;
	drive_poll(d);
	if (drive_job_active(d) && engine_job_done(d->eng, &end, &err)) {
		drive_poll(d);		/* never miss the end of a job */
		drive_job_ended(d, end, err);
	}
	drive_watch_stall(d);
	t0 = d->rates.t;
	rates_tick(d);
	features_tick(d, d->rates.t != t0);
}

/* Fraction done and time left of the current phase. */
static void
phase_progress(const struct drive *d, double *frac, uint64_t *eta)
{
	int	on_demand = d->work == WORK_VERIFY;

	sched_progress(&d->st, &d->conf, on_demand, on_demand ?
	    d->last.position : d->st.prog.position, drive_job_active(d) ?
	    d->rates.wbps + d->rates.rbps : 0, wall_ms(), frac, eta);
}

void
drive_status_get(const struct drive *d, struct drive_status *s)
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
	s->write_bps = drive_job_active(d) ? d->rates.wbps : 0;
	s->read_bps = drive_job_active(d) ? d->rates.rbps : 0;
	for (i = 0; i < BLK_NCLASS; i++)
		s->errors[i] = d->st.errors[i];
	s->errors_total = drive_errors_total(d);
	s->errors_this_run = s->errors_total - d->errors_at_start;
	s->reason = d->st.reason;
	s->capacity = d->tgt.capacity;
	s->span_bytes = d->st.lay.span_bytes;
	s->flushes = d->st.flushes;
	s->flush_known = d->eng != NULL && d->last.flushes > 0;
	s->flush_lat_sec = (double)d->last.flush_lat_last_us / 1e6;
	s->flush_lat_max_sec = (double)d->last.flush_lat_max_us / 1e6;
	s->power_losses = d->st.power_losses;
	s->unflushed_kept = d->st.unflushed_kept;
	s->power_verify = d->st.power_verify;
	s->power_cuts = d->st.power_cuts;
	s->probe_bytes_written = d->st.probe_bytes_written;
	s->rated_tbw = d->conf.rated_tbw;
	s->created = d->st.created;
	s->checkpoints_done = d->st.ckpt_done;
	features_status(d, s);	/* the records' health first */
}

int
drive_settled(const struct drive *d)
{
	/* a power cut under way ends with the drive open again, or failed */
	if (features_holding(d) != NULL)
		return 0;
	/* a hung job may never end: its drive has failed all the same */
	if (d->refused || d->work == WORK_HUNG)
		return 1;
	if (drive_job_active(d))
		return 0;
	return d->st.run == RUN_FINISHED || d->st.run == RUN_FAILED ||
	    d->st.run == RUN_STOPPED;
}

int
drive_reconfigure(struct drive *d, const struct drive_conf *c, char *err,
    size_t len)
{
	struct drive_conf	nc;
	char			keys[256];

	/* what is on the drive stays as the test began: conf_keys.c says
	 * which keys define it */
	if (d->active && config_drive_fixed(&d->conf, c, keys,
	    sizeof(keys)) != NULL) {
		snprintf(err, len, "%s: %s cannot change while the drive is "
		    "under test; old settings kept", d->conf.name, keys);
		return -1;
	}
	if (config_drive_copy(&nc, c) == -1) {
		config_drive_release(&nc);
		snprintf(err, len, "out of memory");
		return -1;
	}
	config_drive_release(&d->conf);
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
	if (!d->active || !drive_job_watched(d))
		return 0;	/* nothing to wait for, or nothing that will end */
	drive_job_end_seen(d);
	return drive_job_active(d);
}

void
drive_shutdown_end(struct drive *d)
{
	if (!d->active)
		return;
	drive_poll(d);
	features_shutdown(d);	/* a cut's event still waiting for SMART */
	if (!drive_job_active(d)) {
		features_stopped(d);
		events_add(&d->log, LOG_INFO, "shutdown", drive_ev_obj(d), -1,
		    (long long)d->st.host_bytes_written, "state saved at %s "
		    "item %" PRIu64, phase_name(d->st.prog.phase),
		    d->st.prog.position);
	}
	drive_checkpoint(d);
}

int
drive_quiet(const struct drive *d)
{
	return !drive_job_active(d) && features_holding(d) == NULL;
}

void
drive_hold(struct drive *d, int hold)
{
	d->hold = hold;
}
