/*
 * drive_smart.c: SMART of a drive under test. A poller thread reads the
 * device every smart_interval (an NVMe drive every thermal_interval while
 * it writes or runs a checkpoint, to see its temperature ramp) and at
 * every phase change; the main thread keeps the first reading (baseline),
 * the latest, and a snapshot every snapshot_every bytes in smart.jsonl,
 * and applies the health rules: a critical warning or a jump of bad
 * blocks fails the drive, stop_at_wear finishes it, the drive's own write
 * counter is checked against ours, and growing thermal counters are a
 * throttle event.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "drive_features.h"
#include "drive_priv.h"
#include "drive_smart.h"
#include "rrd_layout.h"
#include "log.h"
#include "statedir.h"


/*
 * Append one JSON line to smart.jsonl. A line the disk does not take now
 * is kept and written at the next checkpoint (records.c), like events.
 */
static void
append_line(struct drive *d, json_object *o)
{
	char	path[PATH_MAX + 32];

	if (d->smart.log.path == NULL) {
		statedir_path(path, sizeof(path), d->dir, STATEDIR_SMART);
		if (events_open(&d->smart.log, path, UINT64_MAX, d->conf.name,
		    d->conf.serial) == -1) {
			drive_log(d, LOG_WARNING, errno,
			    "cannot append to %s", path);
			return;
		}
	}
	events_append(&d->smart.log, json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
}

/* Write amplification since the baseline (smart_waf), -1 when unknown. */
static double
drive_waf(const struct drive *d)
{
	return smart_waf(d->smart.have_baseline ? &d->smart.baseline : NULL,
	    d->smart.have_latest ? &d->smart.latest : NULL);
}

/* A snapshot line: the milestone record of wear against TBW. */
static void
snapshot(struct drive *d, const char *why)
{
	json_object	*o = json_object_new_object();
	double		 waf = drive_waf(d);

	json_object_object_add(o, "time", json_object_new_uint64(
	    d->smart.latest.time));
	json_object_object_add(o, "why", json_object_new_string(why));
	json_object_object_add(o, "host_bytes_written", json_object_new_uint64(
	    d->st.host_bytes_written));
	json_object_object_add(o, "cycle", json_object_new_uint64(
	    d->st.prog.cycle));
	json_object_object_add(o, "write_bytes_per_sec",
	    json_object_new_double(d->rates.wbps));
	json_object_object_add(o, "waf", waf >= 0 ?
	    json_object_new_double(waf) : NULL);
	json_object_object_add(o, "rated_tbw_bytes", d->conf.rated_tbw > 0 ?
	    json_object_new_uint64(d->conf.rated_tbw) : NULL);
	json_object_object_add(o, "smart", smart_to_json(&d->smart.latest));
	append_line(d, o);
	json_object_put(o);
	d->st.smart_snapshot_at = d->st.host_bytes_written;
}

/* A reported value for the state file, or the "not reported" mark. */
static uint64_t
or_none(int has, uint64_t v)
{
	return has ? v : UINT64_MAX;
}

/* Keep the baseline in the state (for deltas) and in full beside it. */
static void
baseline_take(struct drive *d, const struct smart *s)
{
	json_object	*o;

	d->smart.baseline = *s;
	d->smart.have_baseline = 1;
	d->smart.baseline_host_written = d->core->written_now(d);
	d->smart.baseline_host_lo = d->smart.poll_host_written;
	d->st.sb_host_written_lo = d->smart.poll_host_written;
	d->st.sb_have = 1;
	d->st.sb_time = s->time;
	d->st.sb_host_written = d->smart.baseline_host_written;
	d->st.sb_device_written = or_none(s->has_device_written,
	    s->device_bytes_written);
	d->st.sb_nand_written = or_none(s->has_nand_written,
	    s->nand_bytes_written);
	d->st.sb_media_errors = or_none(s->has_media_errors, s->media_errors);
	d->st.sb_reallocated = or_none(s->has_reallocated, s->reallocated);
	d->st.sb_percent_used_x100 = or_none(s->has_percent_used,
	    (uint64_t)(s->percent_used * 100));
	o = drive_ev_obj(d);
	json_object_object_add(o, "smart", smart_to_json(s));
	events_add(&d->log, LOG_NOTICE, "smart_baseline", o, -1,
	    (long long)d->st.host_bytes_written, "SMART baseline: %s %s, "
	    "firmware %s (%s)", s->model, s->serial, s->firmware,
	    s->read_with);
}

/* The baseline from the state file, after a restart. */
static void
baseline_restore(struct drive *d)
{
	struct smart	*b = &d->smart.baseline;

	if (!d->st.sb_have)
		return;
	memset(b, 0, sizeof(*b));
	b->time = d->st.sb_time;
	b->has_device_written = d->st.sb_device_written != UINT64_MAX;
	b->device_bytes_written = d->st.sb_device_written;
	b->has_nand_written = d->st.sb_nand_written != UINT64_MAX;
	b->nand_bytes_written = d->st.sb_nand_written;
	b->has_media_errors = d->st.sb_media_errors != UINT64_MAX;
	b->media_errors = d->st.sb_media_errors;
	b->has_reallocated = d->st.sb_reallocated != UINT64_MAX;
	b->reallocated = d->st.sb_reallocated;
	b->has_percent_used = d->st.sb_percent_used_x100 != UINT64_MAX;
	b->percent_used = (double)d->st.sb_percent_used_x100 / 100.0;
	d->smart.baseline_host_written = d->st.sb_host_written;
	d->smart.baseline_host_lo = d->st.sb_host_written_lo;
	d->smart.have_baseline = 1;
}

/*
 * The drive's write counter against ours, both since the baseline. Each
 * reading was taken while our counter moved from one value to another
 * (plus what was in flight): the drive's delta must fall in the window
 * those bounds give, within 0.1 % and one unit. The upper bound is our
 * count as the reading arrives (written_now), not as last published.
 */
static void
cross_check(struct drive *d, const struct smart *s)
{
	uint64_t	dev, lo, hi, tol, unit;
	uint64_t	inflight = (uint64_t)d->conf.queue_depth *
	    d->st.lay.block_size;
	json_object	*o;

	if (!s->has_device_written || !d->smart.baseline.has_device_written)
		return;
	unit = s->source == SMART_NVME ? NVME_DATA_UNIT : 1ULL << 30;
	dev = s->device_bytes_written - d->smart.baseline.device_bytes_written;
	lo = d->smart.poll_host_written > d->smart.baseline_host_written + inflight ?
	    d->smart.poll_host_written - d->smart.baseline_host_written - inflight : 0;
	hi = d->core->written_now(d) - d->smart.baseline_host_lo + inflight;
	tol = hi / 1000 + unit;
	if (dev + tol >= lo && dev <= hi + tol) {
		d->smart.mismatch_reported = 0;
		return;
	}
	if (d->smart.mismatch_reported++)
		return;
	o = drive_ev_obj(d);
	json_object_object_add(o, "device_bytes_written_delta",
	    json_object_new_uint64(dev));
	json_object_object_add(o, "host_bytes_written_delta_min",
	    json_object_new_uint64(lo));
	json_object_object_add(o, "host_bytes_written_delta_max",
	    json_object_new_uint64(hi));
	events_add(&d->log, LOG_WARNING, "smart_mismatch", o, -1,
	    (long long)d->st.host_bytes_written, "the drive counts %" PRIu64
	    " bytes written since the baseline, we wrote %" PRIu64 " to %"
	    PRIu64, dev, lo, hi);
}

/* Fail or finish the drive on what SMART says. */
static void
health_rules(struct drive *d, const struct smart *s)
{
	char		 buf[256];
	const char	*why;
	json_object	*o;

	if (d->st.run == RUN_FAILED)
		return;
	if ((why = smart_failure(d->smart.have_latest ? &d->smart.latest : &d->smart.baseline, s,
	    d->conf.max_new_bad_blocks, buf, sizeof(buf))) != NULL) {
		o = drive_ev_obj(d);
		json_object_object_add(o, "smart", smart_to_json(s));
		events_add(&d->log, LOG_CRIT, "smart_failed", o, -1,
		    (long long)d->st.host_bytes_written, "%s at TBW %.6f TB",
		    why, (double)d->st.host_bytes_written / 1e12);
		d->core->verdict(d, RUN_FAILED, why);
		return;
	}
	if ((why = sched_wear_stop(&d->conf, s->has_percent_used,
	    s->percent_used)) != NULL &&
	    (d->st.run == RUN_RUNNING || d->st.run == RUN_PAUSED)) {
		d->core->verdict(d, RUN_FINISHED, why);
	}
}

/* The drive slowed itself down (or ran hot) since the last reading: 1
 * when its counters say so (an event), else 0. */
static int
throttle_check(struct drive *d, const struct smart *s)
{
	struct thermal_growth	 g;
	json_object		*o;

	if (!d->smart.have_latest || !smart_throttled(&d->smart.latest, s, &g))
		return 0;
	o = drive_ev_obj(d);
	json_object_object_add(o, "cause",
	    json_object_new_string("thermal counters"));
	json_object_object_add(o, "temperature_c", s->has_temperature ?
	    json_object_new_int(s->temperature_c) : NULL);
	json_object_object_add(o, "tmt1_transitions",
	    json_object_new_uint64(g.transitions[0]));
	json_object_object_add(o, "tmt1_seconds",
	    json_object_new_uint64(g.seconds[0]));
	json_object_object_add(o, "tmt2_transitions",
	    json_object_new_uint64(g.transitions[1]));
	json_object_object_add(o, "tmt2_seconds",
	    json_object_new_uint64(g.seconds[1]));
	json_object_object_add(o, "warning_temp_minutes",
	    json_object_new_uint64(g.warning_minutes));
	json_object_object_add(o, "critical_temp_minutes",
	    json_object_new_uint64(g.critical_minutes));
	json_object_object_add(o, "write_bytes_per_sec",
	    json_object_new_double(d->rates.wbps));
	json_object_object_add(o, "read_bytes_per_sec",
	    json_object_new_double(d->rates.rbps));
	events_add(&d->log, LOG_WARNING, "throttle", o, -1,
	    (long long)d->st.host_bytes_written, "thermal throttling since the "
	    "last reading: TMT1 +%" PRIu32 " (+%" PRIu32 " s), TMT2 +%" PRIu32
	    " (+%" PRIu32 " s), above warning +%" PRIu32 " min, critical +%"
	    PRIu32 " min; %d C, writing %.1f MB/s", g.transitions[0],
	    g.seconds[0], g.transitions[1], g.seconds[1], g.warning_minutes,
	    g.critical_minutes, s->has_temperature ? s->temperature_c : -1,
	    d->rates.wbps / 1e6);
	return 1;
}

/*
 * Which job the drive runs: its phase, cycle and checkpoint step, and
 * whether it runs one (0: none). Two speeds compare only within one job:
 * another workload is another speed, not a slowdown.
 */
static uint64_t
job_token(const struct drive *d)
{
	if (d->work == WORK_NONE)
		return 0;
	return ((uint64_t)d->st.prog.phase << 56) ^
	    ((uint64_t)d->work << 48) ^ (d->st.prog.cycle << 20) ^
	    d->st.ckpt_step;
}

/*
 * The speed fell sharply at the drive's own temperature limit since the
 * last reading (smart_hot_slowdown), in the same job, which still moves;
 * not when its thermal counters already said so (`counted`).
 */
static void
hot_check(struct drive *d, const struct smart *s, int counted)
{
	double		 now = d->rates.wbps + d->rates.rbps;
	uint64_t	 job = job_token(d);
	json_object	*o;

	if (counted || now <= 0 || job == 0 || job != d->smart.job_at_latest ||
	    !smart_hot_slowdown(s, d->smart.bps_at_latest, now))
		return;
	o = drive_ev_obj(d);
	json_object_object_add(o, "cause",
	    json_object_new_string("temperature limit"));
	json_object_object_add(o, "temperature_c",
	    json_object_new_int(s->temperature_c));
	json_object_object_add(o, "temperature_limit_c",
	    json_object_new_int(s->temp_limit_c));
	json_object_object_add(o, "bytes_per_sec_before",
	    json_object_new_double(d->smart.bps_at_latest));
	json_object_object_add(o, "bytes_per_sec",
	    json_object_new_double(now));
	events_add(&d->log, LOG_WARNING, "throttle", o, -1,
	    (long long)d->st.host_bytes_written, "thermal throttling: %d C, "
	    "at the drive's limit of %d C, and %.1f MB/s where it was %.1f "
	    "MB/s at the last reading", s->temperature_c, s->temp_limit_c,
	    now / 1e6, d->smart.bps_at_latest / 1e6);
}

/* A reading arrived. */
static void
smart_result(struct drive *d, const struct smart *s)
{
	int	first = !d->smart.have_baseline;

	if (first)
		baseline_take(d, s);
	health_rules(d, s);
	cross_check(d, s);
	hot_check(d, s, throttle_check(d, s));
	d->smart.latest = *s;
	d->smart.have_latest = 1;
	d->smart.latest_ns = d->smart.poll_ns +
	    (mono_ns() - d->smart.poll_ns) / 2;
	d->smart.readings++;
	d->smart.bps_at_latest = d->rates.wbps + d->rates.rbps;
	d->smart.job_at_latest = job_token(d);
	if (first || d->st.host_bytes_written >= d->st.smart_snapshot_at +
	    d->conf.snapshot_every)
		snapshot(d, first ? "baseline" : "milestone");
	d->smart.warned = 0;
}

static int
on_smart(sd_event_source *src, int fd, uint32_t revents, void *arg)
{
	struct drive	*d = arg;
	struct smart	 s;
	char		 err[256];
	int		 ok;

	(void)src;
	(void)fd;
	(void)revents;
	if (!smart_poller_take(d->smart.poller, &s, &ok, err, sizeof(err)))
		return 0;
	d->core->poll(d);
	if (ok) {
		/* through a command, what it printed says what the drive is */
		if (d->conf.smart_command != NULL ||
		    d->conf.smart_device_type != NULL)
			d->smart.nvme = s.source == SMART_NVME;
		smart_result(d, &s);
		return 0;
	}
	if (!d->smart.warned++)
		events_add(&d->log, LOG_WARNING, "smart_error", drive_ev_obj(d),
		    -1, (long long)d->st.host_bytes_written, "SMART read "
		    "failed: %s", err);
	return 0;
}

/*
 * Seconds to the next reading: thermal_interval for an NVMe drive that
 * writes or runs a checkpoint (the load that heats it; a reading is one
 * admin command), smart_interval otherwise (smartctl is heavier).
 */
static uint64_t
next_interval(const struct drive *d)
{
	enum phase	p = d->st.prog.phase;

	if (d->smart.nvme && d->st.run == RUN_RUNNING &&
	    (p == PHASE_STATIC || p == PHASE_WRITE || p == PHASE_CHECKPOINT) &&
	    d->conf.thermal_interval < d->conf.smart_interval)
		return d->conf.thermal_interval;
	return d->conf.smart_interval;
}

/* The next timed reading, next_interval() from now. */
static void
timer_arm(struct drive *d)
{
	uint64_t	now;

	if (d->smart.timer == NULL ||
	    sd_event_now(d->ev, CLOCK_MONOTONIC, &now) < 0)
		return;
	sd_event_source_set_time(d->smart.timer,
	    now + next_interval(d) * 1000000);
	sd_event_source_set_enabled(d->smart.timer, SD_EVENT_ONESHOT);
}

static void
drive_smart_poll(struct drive *d)
{
	uint64_t	now, written;

	if (d->smart.poller == NULL || smart_poller_busy(d->smart.poller))
		return;
	d->core->poll(d);
	now = mono_ns();
	written = d->st.host_bytes_written;
	/* a reload may have changed them */
	if (d->conf.smart_command != NULL)
		smart_poller_set_command(d->smart.poller,
		    d->conf.smart_command);
	if (d->conf.smart_device_type != NULL)
		smart_poller_set_type(d->smart.poller,
		    d->conf.smart_device_type);
	/* refused while a reading waits to be taken: that one's times stay */
	if (smart_poller_request(d->smart.poller) == 0) {
		d->smart.poll_host_written = written;
		d->smart.poll_ns = now;
	}
	timer_arm(d);	/* at a phase change: the new phase's interval */
}

static int
on_smart_timer(sd_event_source *src, uint64_t usec, void *arg)
{
	struct drive	*d = arg;

	(void)src;
	(void)usec;
	drive_smart_poll(d);
	timer_arm(d);
	return 0;
}

/* No more readings: the poller, its results source and timer gone. */
static void
drive_smart_stop(struct drive *d)
{
	d->smart.src = sd_event_source_disable_unref(d->smart.src);
	d->smart.timer = sd_event_source_disable_unref(d->smart.timer);
	smart_poller_free(d->smart.poller);
	d->smart.poller = NULL;
}

/*
 * Without its results source the poller is no use: the drive goes on
 * without SMART. Without the timer it is read at phase changes only.
 */
static void
drive_smart_start(struct drive *d)
{
	enum smart_source	src = SMART_NONE;
	uint64_t		now = 0;
	int			rc;

	if (d->smart.poller != NULL || !d->conf.smart)
		return;
	/* a command reads any target, files included; smartctl -d TYPE any
	 * block device (behind a controller or bridge); else the device */
	if (d->conf.smart_command == NULL && (!d->tgt.is_blockdev ||
	    ((src = smart_detect(d->conf.device)) == SMART_NONE &&
	    d->conf.smart_device_type == NULL)))
		return;
	d->smart.nvme = src == SMART_NVME;
	if ((d->smart.poller = smart_poller_new(d->conf.device, src,
	    d->conf.smart_command, d->conf.smart_device_type)) == NULL) {
		drive_log(d, LOG_WARNING, errno, "SMART poller");
		return;
	}
	if ((rc = sd_event_add_io(d->ev, &d->smart.src,
	    smart_poller_fd(d->smart.poller), EPOLLIN, on_smart, d)) < 0) {
		drive_log(d, LOG_WARNING, 0,
		    "SMART: cannot watch the poller: %s; going on "
		    "without SMART", strerror(-rc));
		drive_smart_stop(d);
		return;
	}
	baseline_restore(d);
	if ((rc = sd_event_now(d->ev, CLOCK_MONOTONIC, &now)) < 0 ||
	    (rc = sd_event_add_time(d->ev, &d->smart.timer, CLOCK_MONOTONIC,
	    now + d->conf.smart_interval * 1000000, 1000000, on_smart_timer,
	    d)) < 0)
		drive_log(d, LOG_WARNING, 0,
		    "SMART: cannot set the smart_interval timer: %s; "
		    "reading only at phase changes",
		    strerror(-rc));
	drive_smart_poll(d);
}

void
drive_smart_summary(const struct drive *d, struct smart_summary *m)
{
	smart_summary_fill(m, d->smart.have_latest ? &d->smart.latest : NULL,
	    drive_waf(d));
}

json_object *
drive_smart_status(const struct drive *d)
{
	struct smart_summary	m;

	drive_smart_summary(d, &m);
	return smart_summary_json(&m);
}

/* What changed since the baseline: the wear the run has caused. */
static json_object *
drive_smart_delta(const struct drive *d)
{
	const struct smart *b = &d->smart.baseline, *l = &d->smart.latest;
	json_object	*o = json_object_new_object();

	json_object_object_add(o, "host_bytes_written", json_object_new_uint64(
	    d->st.host_bytes_written - d->smart.baseline_host_written));
	if (l->has_device_written && b->has_device_written)
		json_object_object_add(o, "device_bytes_written",
		    json_object_new_uint64(l->device_bytes_written -
		    b->device_bytes_written));
	if (l->has_nand_written && b->has_nand_written)
		json_object_object_add(o, "nand_bytes_written",
		    json_object_new_uint64(l->nand_bytes_written -
		    b->nand_bytes_written));
	if (l->has_percent_used && b->has_percent_used)
		json_object_object_add(o, "percent_used", json_object_new_double(
		    l->percent_used - b->percent_used));
	if (l->has_media_errors && b->has_media_errors)
		json_object_object_add(o, "media_errors", json_object_new_uint64(
		    l->media_errors - b->media_errors));
	if (l->has_reallocated && b->has_reallocated)
		json_object_object_add(o, "reallocated", json_object_new_uint64(
		    l->reallocated - b->reallocated));
	return o;
}

int
drive_smart_detail(const struct drive *d, json_object *out)
{
	if (!d->smart.have_latest)
		return -1;
	json_object_object_add(out, "latest", smart_to_json(&d->smart.latest));
	json_object_object_add(out, "status", drive_smart_status(d));
	json_object_object_add(out, "baseline_host_bytes_written",
	    json_object_new_uint64(d->smart.baseline_host_written));
	json_object_object_add(out, "baseline", d->smart.baseline.model[0] ?
	    smart_to_json(&d->smart.baseline) : NULL);
	json_object_object_add(out, "delta", drive_smart_delta(d));
	return 0;
}

/* The SMART sources, from the summary: unknown before the first reading. */
static void
smart_archive(const struct drive *d, struct archive_val *v)
{
	static const struct {
		int			ds;
		enum smart_fig	fig;
		int			decimals;
	} map[] = {
		{ DS_PUSED, FIG_PERCENT_USED, 1 }, { DS_SPARE, FIG_SPARE, 0 },
		{ DS_TEMP, FIG_TEMPERATURE, 0 }, { DS_MERR, FIG_MEDIA_ERRORS, 0 },
		{ DS_DEVW, FIG_DEVICE_WRITTEN, 0 },
		{ DS_NANDW, FIG_NAND_WRITTEN, 0 }, { DS_WAF, FIG_WAF, 4 },
	};
	struct smart_summary	m;
	size_t			i;

	drive_smart_summary(d, &m);
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		v[map[i].ds] = (struct archive_val){ m.v[map[i].fig].has,
		    smart_summary_double(&m, map[i].fig), map[i].decimals };
}

/* A reading at every phase change. */
static void
smart_phase_started(struct drive *d)
{
	drive_smart_poll(d);
}

/* SMART: the poller, its readings, baseline, snapshots and health rules. */
const struct drive_feature drive_smart_feature = {
	.name = "SMART",
	.opening = drive_smart_start,
	.closing = drive_smart_stop,
	.phase_started = smart_phase_started,
	.archive = smart_archive,
};
