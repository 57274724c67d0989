/*
 * ckpt_long.c: what the lifecycle does around the long tests of a full
 * checkpoint (the steps are the rows of phase_checkpoint.c's table; each
 * row's `record` names the handler below that records its end): the per-second
 * series of the degradation run and of the recovery runs, each kept in
 * STATE_DIR/NAME/series/ckpt-N-STEP.json, and their lines in
 * checkpoints.jsonl with the figures of degrade.h; the write-cache
 * estimate of the clean and the dirty pass; the reads of fresh and of
 * aged data that end every checkpoint, the aged compared with the fresh.
 *
 * The series is the drive's IOPS and bytes a second from the step's job
 * handed out (the counters then; degrade.h's series clock), each second
 * the rates since the last figure at the ticks of the main loop, and the
 * p99 latency and temperature of the tick (rates.c: the same figures the
 * RRD archive gets): no second of the step before holds a share, and the
 * step's first (partial) second is in its first figure.
 * A step cut short (a stop, a crash) runs again whole, its series anew.
 * The degradation run's initial IOPS are kept in the state, for the
 * recovery runs' shares after a restart too.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "clock.h"
#include "degrade.h"
#include "ckpt_line.h"
#include "ckpt_long.h"
#include "drive_priv.h"
#include "series_read.h"
#include "statedir.h"
#include "tl_estimate.h"

/* The longest series kept: a day of seconds (degrade_duration's bound). */
#define SERIES_MAX	(86400 + 600)

/* What a step's end records (its row's `record`). */
static enum long_record
step_record(int step)
{
	const struct long_step	*ls = sched_long_step(step);

	return ls != NULL ? ls->record : LREC_NONE;
}

/* Does the step record a series? */
static int
series_step(int step)
{
	enum long_record	r = step_record(step);

	return r == LREC_DEGRADE || r == LREC_RECOVERY || r == LREC_THERMAL;
}

/* Aged data falls behind fresh: throughput under this share of it ... */
#define AGED_THROUGHPUT	0.8
/* ... or p99.9 latency over this multiple of it. */
#define AGED_LATENCY	2.0

static int
read_step(int step)
{
	enum long_record	r = step_record(step);

	return r == LREC_FRESH || r == LREC_AGED;
}

/* Was the TRIM the step's line speaks of (its row's after_trim) run in
 * this checkpoint, and done? */
static int
trim_done(const struct drive *d, int step)
{
	const struct long_step	*ls = sched_long_step(step), *t;

	if (ls == NULL || ls->after_trim == 0)
		return 0;
	t = sched_long_step(__builtin_ctz(ls->after_trim));
	return t != NULL && (d->st.ckpt_tests & t->parts) == t->parts &&
	    !(d->st.ckpt_trim_failed & ls->after_trim);
}

void
ckpt_long_free(struct drive *d)
{
	struct drive_series	*s = &d->series;

	free(s->iops);
	free(s->bps);
	free(s->p99);
	free(s->temp);
	s->iops = s->bps = s->p99 = s->temp = NULL;
	s->n = s->cap = 0;
	memset(&s->clk, 0, sizeof(s->clk));
	s->step = -1;
}

/* The blocks the worker found bad so far, every class. */
static uint64_t
bad_blocks(const struct drive *d)
{
	uint64_t	n = 0;
	int		i;

	for (i = 1; i < BLK_NCLASS; i++)
		if (blk_class_is_error(i))
			n += d->last.errors[i];
	return n;
}

/* What the series counts: the worker's I/Os and bytes, both directions. */
static void
series_counts(const struct drive *d, double *cnt)
{
	cnt[0] = (double)(d->st.write_ops + d->st.read_ops);
	cnt[1] = (double)(d->st.host_bytes_written + d->st.host_bytes_read);
}

void
ckpt_long_prepare(struct drive *d, int step)
{
	struct drive_series	*s = &d->series;
	double			 cnt[SERIES_NCOUNT];

	ckpt_long_free(d);
	if (!series_step(step) && !read_step(step))
		return;
	s->step = step;
	s->t0 = mono_ns();
	series_counts(d, cnt);
	series_clock_start(&s->clk, s->t0, cnt);
	s->rd_ops0 = d->last.read_ops;
	s->rd_bytes0 = d->last.bytes_read;
	s->rd_lat0 = d->last.lat[LAT_READ];
	s->rd_errors0 = bad_blocks(d);
	s->have_th0 = d->smart.have_latest;
	if (s->have_th0)
		s->th0 = d->smart.latest;
	s->throttle_tick = -1;
	s->throttle_s = -1;
	s->clear_ns = s->have_th0 ? d->smart.latest_ns : s->t0;
}

/* Room for one more figure; -1 when the series is full or memory short. */
static int
series_grow(struct drive_series *s)
{
	size_t	cap = s->cap == 0 ? 256 : s->cap * 2;
	double	**arr[] = { &s->iops, &s->bps, &s->p99, &s->temp }, *a;
	size_t	 i;

	if (s->n < s->cap)
		return 0;
	if (s->cap >= SERIES_MAX)
		return -1;
	for (i = 0; i < sizeof(arr) / sizeof(arr[0]); i++) {
		if ((a = realloc(*arr[i], cap * sizeof(*a))) == NULL)
			return -1;	/* those grown stay: cap is theirs' floor */
		*arr[i] = a;
	}
	s->cap = cap;
	return 0;
}

static int	series_second(struct drive *, struct drive_series *,
		    const double *);

void
ckpt_long_tick(struct drive *d)
{
	struct drive_series	*s = &d->series;
	double			 cnt[SERIES_NCOUNT], rate[SERIES_NCOUNT];
	size_t			 k;

	if (s->step < 0 || !series_step(s->step) || d->work != WORK_PHASE ||
	    d->st.prog.phase != PHASE_CHECKPOINT ||
	    sched_ckpt_long(d->st.ckpt_step) != s->step)
		return;
	/* a second each: a tick longer than one (a slow turn of the loop)
	 * gives each second it brought the same rates */
	series_counts(d, cnt);
	k = series_clock_tick(&s->clk, d->rates.t, cnt, rate);
	while (k-- > 0 && series_second(d, s, rate) == 0)
		;
}

/*
 * Seconds from the step's start to the throttle's onset, by the first
 * reading (at r_ns) whose thermal counters grew: after the last reading
 * that showed no growth, and at least as long before r_ns as the
 * counters' seconds in thermal management say (the drive may have left
 * it again before r_ns); the middle of the two.
 */
static double
throttle_onset(const struct drive_series *s, uint64_t r_ns,
    const struct thermal_growth *g)
{
	uint64_t	in = ((uint64_t)g->seconds[0] + g->seconds[1]) *
	    1000000000ULL;
	uint64_t	lo = s->clear_ns > s->t0 ? s->clear_ns : s->t0;
	uint64_t	hi = r_ns > in ? r_ns - in : 0;

	if (hi < lo)	/* counted longer than since the clear reading */
		hi = lo;
	return (double)(lo + (hi - lo) / 2 - s->t0) / 1e9;
}

/* One second of the series: its rates, the tick's latency and reading. */
static int
series_second(struct drive *d, struct drive_series *s, const double *rate)
{
	struct thermal_growth	 g;

	if (series_grow(s) == -1)
		return -1;
	s->iops[s->n] = rate[0];
	s->bps[s->n] = rate[1];
	s->p99[s->n] = d->rates.lat_p99_us > d->rates.rlat_p99_us ?
	    d->rates.lat_p99_us : d->rates.rlat_p99_us;
	s->temp[s->n] = d->smart.have_latest &&
	    d->smart.latest.has_temperature ?
	    d->smart.latest.temperature_c : -1;
	if (s->throttle_tick < 0 && s->have_th0 && d->smart.have_latest) {
		if (smart_throttled(&s->th0, &d->smart.latest, &g)) {
			s->throttle_tick = (long)s->n;
			s->throttle_s = throttle_onset(s, d->smart.latest_ns,
			    &g);
		} else
			s->clear_ns = d->smart.latest_ns;
	}
	s->n++;
	return 0;
}

void
ckpt_long_series(struct drive *d, uint64_t ckpt, json_object *out)
{
	if (series_read(d->dir, ckpt, out) == -1)
		drive_log(d, LOG_WARNING, errno, "cannot read its series");
}

static json_object *
num_array(const double *v, size_t n, int negative_is_none)
{
	json_object	*a = json_object_new_array_ext((int)n);
	size_t		 i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, negative_is_none && v[i] < 0 ? NULL :
		    json_object_new_double(round(v[i] * 10) / 10));
	return a;
}

static int
put_json(FILE *fp, void *arg)
{
	return fputs(json_object_to_json_string_ext(arg,
	    JSON_C_TO_STRING_PLAIN), fp) == EOF ? -1 : 0;
}

/* Save the series; its file's name into the line, when it was saved. */
static void
series_save(struct drive *d, json_object *line)
{
	const struct drive_series *s = &d->series;
	char		 dir[PATH_MAX], path[PATH_MAX + 64];
	json_object	*o = json_object_new_object();

	json_object_object_add(o, "checkpoint",
	    json_object_new_uint64(d->st.ckpt_done + 1));
	json_object_object_add(o, "step", json_object_new_string(
	    sched_ckpt_word(d->st.ckpt_step)));
	json_object_object_add(o, "interval_seconds",
	    json_object_new_double(1));
	json_object_object_add(o, "iops", num_array(s->iops, s->n, 0));
	json_object_object_add(o, "bytes_per_sec", num_array(s->bps, s->n, 0));
	json_object_object_add(o, "p99_us", num_array(s->p99, s->n, 1));
	json_object_object_add(o, "temperature_c", num_array(s->temp, s->n,
	    1));
	if (statedir_path(dir, sizeof(dir), d->dir, STATEDIR_SERIES) == -1 ||
	    series_file_path(path, sizeof(path), d->dir, d->st.ckpt_done + 1,
	    sched_ckpt_word(d->st.ckpt_step)) == -1 ||
	    statedir_mkdirs(dir, 0750) == -1 ||
	    statedir_replace(path, 0640, put_json, o) == -1)
		drive_log(d, LOG_WARNING, errno, "cannot save the series of "
		    "%s", sched_ckpt_word(d->st.ckpt_step));
	else
		json_object_object_add(line, "series", json_object_new_string(
		    strrchr(path, '/') + 1));
	json_object_put(o);
}

#define ADD(k, v) json_object_object_add(line, k, v)

static json_object *
share(double v)
{
	return v > 0 ? json_object_new_double(v) : NULL;
}

/* The degradation run's figures (degrade.h), by SNIA's rule. */
static void
degrade_line(struct drive *d, json_object *line)
{
	const struct drive_series *s = &d->series;
	size_t			 round_s = d->conf.degrade_round;
	struct degrade_figures	 f;

	d->st.degrade_initial_x100 = 0;
	ADD("round_seconds", json_object_new_uint64(round_s));
	if (degrade_figures(s->iops, s->n, round_s, &f) == -1) {
		ADD("steady", NULL);
		ADD("figures", json_object_new_string("the run is shorter "
		    "than a round (degrade_round): no initial or steady-state "
		    "IOPS"));
		return;
	}
	d->st.degrade_initial_x100 = (uint64_t)llround(f.initial_iops * 100);
	ADD("initial_iops", json_object_new_double(f.initial_iops));
	/* fewer rounds than the rule's window: not "never", unknown */
	ADD("steady", f.steady || s->n / round_s >= STEADY_WINDOW ?
	    json_object_new_boolean(f.steady) : NULL);
	if (f.steady) {
		ADD("steady_iops", json_object_new_double(f.steady_iops));
		ADD("steady_at_seconds", json_object_new_uint64(f.steady_at_s));
	}
	ADD("worst_iops", json_object_new_double(f.worst_iops));
	ADD("worst_second", json_object_new_uint64(f.worst_s));
	drive_log(d, LOG_INFO, 0, "degradation run: %.0f IOPS at first, %s",
	    f.initial_iops, f.steady ? "steady state reached" :
	    "no steady state");
}

/* A number of the line; 0 when it has none. */
static double
line_num(json_object *line, const char *key)
{
	json_object	*v;

	return json_object_object_get_ex(line, key, &v) ?
	    json_object_get_double(v) : 0;
}

/* A recovery run's figures against the degradation run's initial IOPS;
 * the whole run's, the line's own (its probe's count over its window). */
static void
recovery_line(struct drive *d, json_object *line)
{
	const struct drive_series *s = &d->series;
	struct recovery_figures	 f;

	if (recovery_figures(s->iops, s->n, line_num(line, "write_iops") +
	    line_num(line, "read_iops"), d->st.degrade_initial_x100 / 100.0,
	    &f) == -1)
		return;
	ADD("first_iops", json_object_new_double(f.first_iops));
	ADD("all_iops", json_object_new_double(f.all_iops));
	ADD("first_share", share(f.first_share));
	ADD("all_share", share(f.all_share));
	ADD("idle_seconds", json_object_new_uint64(
	    sched_long_step(s->step)->idle_before ? d->conf.gc_idle : 0));
	if (sched_long_step(s->step)->after_trim != 0)
		ADD("trimmed", json_object_new_boolean(trim_done(d, s->step)));
}

/* A write probe on the drive 90 % full ended: its line. */
static void
f90_done(struct drive *d, int step)
{
	json_object	*line;
	uint64_t	 off, len;

	line = drive_ckpt_line(d, sched_long_probe(step),
	    sched_ckpt_word(d->st.ckpt_step));
	if (line == NULL)
		return;
	sched_long_region(&d->st, step, &off, &len);
	ADD("family", json_object_new_string("full90"));
	ADD("trimmed", json_object_new_boolean(trim_done(d, step)));
	ADD("region_offset", json_object_new_uint64(off));
	ADD("region_bytes", json_object_new_uint64(len));
	drive_ckpt_append(d, line);
}

/*
 * A thermal run's figures: the peak temperature of the readings during
 * it, whether the drive's thermal counters (NVMe) grew and after how
 * many seconds, the speed before and after. Unknown stays null: a drive
 * without temperature or counters says nothing of throttling.
 */
static void
thermal_line(struct drive *d, json_object *line)
{
	const struct drive_series *s = &d->series;
	struct thermal_figures	 f;
	int			 counters = s->have_th0 &&
	    s->th0.source == SMART_NVME;

	thermal_figures(s->bps, s->temp, s->n, s->throttle_tick, &f);
	ADD("temperature_start_c", s->have_th0 && s->th0.has_temperature ?
	    json_object_new_int(s->th0.temperature_c) : NULL);
	ADD("peak_temperature_c", f.peak_c >= 0 ?
	    json_object_new_double(f.peak_c) : NULL);
	ADD("thermal_counters", json_object_new_boolean(counters));
	ADD("throttled", counters ? json_object_new_boolean(
	    s->throttle_tick >= 0) : NULL);
	if (!counters || s->throttle_tick < 0)
		return;
	ADD("seconds_to_throttle",
	    json_object_new_double(round(s->throttle_s * 10) / 10));
	ADD("unthrottled_bytes_per_sec", json_object_new_double(f.before_bps));
	ADD("throttled_bytes_per_sec", json_object_new_double(f.after_bps));
}

/* The figures of a run with a series, by what it records. */
static void (*const series_line[LREC_COUNT])(struct drive *, json_object *) = {
	[LREC_DEGRADE] = degrade_line,
	[LREC_RECOVERY] = recovery_line,
	[LREC_THERMAL] = thermal_line,
};

/* A run with a series ended: its line and series. */
static void
series_done(struct drive *d, int step)
{
	json_object	*line;

	line = drive_ckpt_line(d, sched_long_probe(step),
	    sched_ckpt_word(d->st.ckpt_step));
	if (line == NULL)
		return;
	ADD("family", json_object_new_string("long"));
	series_line[step_record(step)](d, line);
	series_save(d, line);
	drive_ckpt_append(d, line);
}

/* The fields every line of a long step has: which checkpoint, which step. */
static json_object *
long_identity(struct drive *d, const char *title)
{
	json_object	*line = json_object_new_object();

	ADD("checkpoint", json_object_new_uint64(d->st.ckpt_done + 1));
	ADD("probe", json_object_new_string(sched_ckpt_word(d->st.ckpt_step)));
	ADD("family", json_object_new_string("long"));
	ADD("title", json_object_new_string(title));
	ADD("time", json_object_new_uint64((uint64_t)time(NULL)));
	ADD("host_bytes_written", json_object_new_uint64(d->st.ckpt_at));
	ADD("cycle", json_object_new_uint64(d->st.prog.cycle));
	return line;
}

/* The workload fields of a line whose I/O is the cycle's block, in order. */
static void
block_workload(struct drive *d, json_object *line, int reads)
{
	ADD("rw", json_object_new_string(reads ? "read" : "write"));
	ADD("block_size", json_object_new_uint64(d->st.lay.block_size));
	ADD("unit", json_object_new_uint64(d->st.lay.block_size));
	ADD("queue_depth", json_object_new_uint64(d->conf.queue_depth));
	ADD("workers", json_object_new_uint64(1));
	ADD("read_percent", json_object_new_uint64(reads ? 100 : 0));
	ADD("random_percent", json_object_new_uint64(0));
}

/* The clean or the dirty pass ended: the write cache it showed. */
static void
pass_done(struct drive *d, int step)
{
	json_object	*line = long_identity(d, sched_long_step(step)->title);

	block_workload(d, line, 0);
	ADD("region_bytes", json_object_new_uint64(d->st.prog.probe_len != 0 ?
	    d->st.prog.probe_len : layout_dynamic_blocks(&d->st.lay) *
	    d->st.lay.block_size));
	ADD("after_trim", json_object_new_boolean(trim_done(d, step)));
	if (tl_estimate_job(d, line) == 0) {
		ADD("read_bytes_per_sec", json_object_new_double(0));
		ADD("write_bytes_per_sec", json_object_new_double(
		    json_object_get_double(json_object_object_get(line,
		    "pass_bytes_per_sec"))));
		drive_ckpt_append(d, line);
		return;
	}
	drive_log(d, LOG_INFO, 0, "%s: no write-cache estimate (a pass "
	    "resumed, or too few steps)", sched_ckpt_word(d->st.ckpt_step));
	json_object_put(line);
}
/* {"throughput": t, "p99.9": l} */
static json_object *
ratios(double t, double l)
{
	json_object	*o = json_object_new_object();

	json_object_object_add(o, "throughput", json_object_new_double(t));
	json_object_object_add(o, "p99.9", json_object_new_double(l));
	return o;
}

/*
 * The aged read's throughput and p99.9 as ratios of the fresh read's;
 * flagged against the drive's first such ratios (its baseline: a new
 * drive's fresh data may sit in its write cache, aged data not), so that
 * what is flagged is aged data reading worse than it did.
 */
static void
aged_compare(struct drive *d, json_object *line, double bps, uint64_t p999)
{
	struct dstate	*st = &d->st;
	json_object	*flags = json_object_new_array();
	double		 rt, rl, bt, bl;

	ADD("flags", flags);
	if (st->fresh_bps == 0 || st->fresh_p999_ns == 0 || p999 == 0)
		return;
	rt = bps / (double)st->fresh_bps;
	rl = (double)p999 / (double)st->fresh_p999_ns;
	ADD("vs_fresh", ratios(rt, rl));
	if (st->aged_base_tput_x1000 == 0 || st->aged_base_p999_x1000 == 0) {
		st->aged_base_tput_x1000 = (uint64_t)llround(rt * 1000) + 1;
		st->aged_base_p999_x1000 = (uint64_t)llround(rl * 1000) + 1;
		return;		/* the baseline (+1: never 0) */
	}
	bt = (double)(st->aged_base_tput_x1000 - 1) / 1000;
	bl = (double)(st->aged_base_p999_x1000 - 1) / 1000;
	ADD("baseline_vs_fresh", ratios(bt, bl));
	if (rt < AGED_THROUGHPUT * bt)
		json_object_array_add(flags, json_object_new_string("throughput"));
	if (rl > AGED_LATENCY * bl)
		json_object_array_add(flags, json_object_new_string("latency"));
	if (json_object_array_length(flags) > 0)
		events_add(&d->log, LOG_WARNING, "aged_data_slow",
		    ratios(rt, rl), -1, (long long)st->host_bytes_written,
		    "checkpoint %" PRIu64 ": data written at the start reads at "
		    "%.2f times the throughput of fresh data (at first %.2f), "
		    "p99.9 %.2f times (at first %.2f)", st->ckpt_done + 1, rt, bt,
		    rl, bl);
}

/* A read of fresh or aged data ended: its figures, the aged compared. */
static void
read_done(struct drive *d, int step)
{
	struct drive_series	*s = &d->series;
	struct lathist		 lat;
	json_object		*line;
	double			 sec = (double)(mono_ns() - s->t0) / 1e9, bps;
	uint64_t		 p999;

	lathist_delta(&lat, &d->last.lat[LAT_READ], &s->rd_lat0);
	if (s->step != step || sec <= 0 || lat.count == 0)
		return;
	bps = (double)(d->last.bytes_read - s->rd_bytes0) / sec;
	p999 = lathist_percentile(&lat, 99.9);
	line = long_identity(d, sched_long_step(step)->title);
	ADD("family", json_object_new_string("aged"));
	block_workload(d, line, 1);
	ADD("region_bytes", json_object_new_uint64(sched_ckpt_aged_blocks(
	    &d->st, &d->conf) * d->st.lay.block_size));
	ADD("seconds", json_object_new_double(sec));
	ADD("read_iops", json_object_new_double(
	    (double)(d->last.read_ops - s->rd_ops0) / sec));
	ADD("read_bytes_per_sec", json_object_new_double(bps));
	ADD("write_bytes_per_sec", json_object_new_double(0));
	ADD("read_lat_us", drive_ckpt_lat(&lat));
	ADD("errors", json_object_new_uint64(bad_blocks(d) - s->rd_errors0));
	if (step_record(step) == LREC_FRESH) {
		d->st.fresh_bps = (uint64_t)llround(bps);
		d->st.fresh_p999_ns = p999;
	} else
		aged_compare(d, line, bps, p999);
	drive_ckpt_append(d, line);
}
#undef ADD

/* A TRIM of the long tests the target could not do: said, and marked for
 * the lines after it (their figures are of an area not discarded). */
static void
trim_failed(struct drive *d, int step, int err)
{
	json_object	*o = drive_ev_obj(d);

	d->st.ckpt_trim_failed |= 1u << step;
	json_object_object_add(o, "step", json_object_new_string(
	    sched_ckpt_word(d->st.ckpt_step)));
	events_add(&d->log, LOG_WARNING, "trim_unsupported", o, -1,
	    (long long)d->st.host_bytes_written, "checkpoint %" PRIu64 ": %s: "
	    "discard is not supported by the target (%s); what follows runs "
	    "on an area not discarded", d->st.ckpt_done + 1,
	    sched_ckpt_word(d->st.ckpt_step), strerror(err));
}

/* What each kind of step records at its end (NULL: its figures are
 * dropped). */
static void (*const record_done[LREC_COUNT])(struct drive *, int step) = {
	[LREC_DEGRADE] = series_done,
	[LREC_RECOVERY] = series_done,
	[LREC_THERMAL] = series_done,
	[LREC_FULL90] = f90_done,
	[LREC_PASS] = pass_done,
	[LREC_FRESH] = read_done,
	[LREC_AGED] = read_done,
};

void
ckpt_long_done(struct drive *d, int step, int err)
{
	struct probe_result	r;

	if (sched_long_step(step) != NULL &&
	    sched_long_step(step)->kind == JOB_TRIM) {
		if (err != 0)
			trim_failed(d, step, err);
		else
			d->st.ckpt_trim_failed &= ~(1u << step);
	}

	if (record_done[step_record(step)] != NULL)
		record_done[step_record(step)](d, step);
	else
		(void)engine_probe_result(d->eng, &r);	/* none to keep */
	ckpt_long_free(d);
}
