/*
 * drive_long.c: what the lifecycle does around the long tests of a full
 * checkpoint (the steps are phase_checkpoint.c's CL_*): the per-second
 * series of the degradation run and of the recovery runs, each kept in
 * STATE_DIR/NAME/series/ckpt-N-STEP.json, and their lines in
 * checkpoints.jsonl with the figures of degrade.h; the write-cache
 * estimate of the clean and the dirty pass.
 *
 * The series is the drive's rates of each tick (rates.c: the same figures
 * the RRD archive gets) from the first tick that began after the step's
 * job was handed out, so that no second of the step before holds a share.
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

#include <json-c/json.h>

#include "clock.h"
#include "degrade.h"
#include "drive_priv.h"
#include "series_read.h"
#include "statedir.h"

/* The longest series kept: a day of seconds (degrade_duration's bound). */
#define SERIES_MAX	(86400 + 600)

/* Does the step record a series? */
static int
series_step(int step)
{
	return step == CL_DEGRADE || step == CL_GC_RECOVER ||
	    step == CL_TRIM_RECOVER;
}

void
drive_long_free(struct drive *d)
{
	free(d->series.iops);
	free(d->series.bps);
	free(d->series.p99);
	memset(&d->series, 0, sizeof(d->series));
	d->series.step = -1;
}

void
drive_long_prepare(struct drive *d, int step)
{
	drive_long_free(d);
	if (!series_step(step))
		return;
	d->series.step = step;
	d->series.t0 = mono_ns();
}

/* Room for one more figure; -1 when the series is full or memory short. */
static int
series_grow(struct drive_series *s)
{
	size_t	cap = s->cap == 0 ? 256 : s->cap * 2;
	double	*a, *b, *c;

	if (s->n < s->cap)
		return 0;
	if (s->cap >= SERIES_MAX)
		return -1;
	a = realloc(s->iops, cap * sizeof(*a));
	if (a != NULL)
		s->iops = a;
	b = realloc(s->bps, cap * sizeof(*b));
	if (b != NULL)
		s->bps = b;
	c = realloc(s->p99, cap * sizeof(*c));
	if (c != NULL)
		s->p99 = c;
	if (a == NULL || b == NULL || c == NULL)
		return -1;
	s->cap = cap;
	return 0;
}

void
drive_long_tick(struct drive *d, uint64_t tick_start_ns)
{
	struct drive_series	*s = &d->series;

	if (s->step < 0 || d->work != WORK_PHASE ||
	    d->st.prog.phase != PHASE_CHECKPOINT ||
	    sched_ckpt_long(d->st.ckpt_step) != s->step ||
	    tick_start_ns < s->t0 || series_grow(s) == -1)
		return;
	s->iops[s->n] = d->rates.wiops;
	s->bps[s->n] = d->rates.wbps;
	s->p99[s->n] = d->rates.lat_p99_us;
	s->n++;
}

void
drive_series(struct drive *d, uint64_t ckpt, json_object *out)
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
	struct degrade_figures	 f;

	d->st.degrade_initial_x100 = 0;
	if (degrade_figures(s->iops, s->n, &f) == -1) {
		ADD("steady", NULL);
		ADD("figures", json_object_new_string("the run is shorter "
		    "than a round (60 s): no initial or steady-state IOPS"));
		return;
	}
	d->st.degrade_initial_x100 = (uint64_t)llround(f.initial_iops * 100);
	ADD("initial_iops", json_object_new_double(f.initial_iops));
	ADD("steady", json_object_new_boolean(f.steady));
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

/* A recovery run's figures against the degradation run's initial IOPS. */
static void
recovery_line(struct drive *d, json_object *line)
{
	const struct drive_series *s = &d->series;
	struct recovery_figures	 f;

	if (recovery_figures(s->iops, s->n,
	    d->st.degrade_initial_x100 / 100.0, &f) == -1)
		return;
	ADD("first_iops", json_object_new_double(f.first_iops));
	ADD("all_iops", json_object_new_double(f.all_iops));
	ADD("first_share", share(f.first_share));
	ADD("all_share", share(f.all_share));
	ADD("idle_seconds", json_object_new_uint64(
	    d->series.step == CL_GC_RECOVER ? d->conf.gc_idle : 0));
}

/* A run of the degradation workload ended: its line and series. */
static void
series_done(struct drive *d, int step)
{
	json_object	*line;

	line = drive_ckpt_line(d, &ckpt_degrade_probe,
	    sched_ckpt_word(d->st.ckpt_step));
	if (line == NULL)
		return;
	ADD("family", json_object_new_string("long"));
	if (step == CL_DEGRADE)
		degrade_line(d, line);
	else
		recovery_line(d, line);
	series_save(d, line);
	drive_ckpt_append(d, line);
}

/* The clean or the dirty pass ended: the write cache it showed. */
static void
pass_done(struct drive *d)
{
	json_object	*line = json_object_new_object();

	ADD("checkpoint", json_object_new_uint64(d->st.ckpt_done + 1));
	ADD("probe", json_object_new_string(sched_ckpt_word(d->st.ckpt_step)));
	ADD("family", json_object_new_string("long"));
	ADD("title", json_object_new_string(d->st.ckpt_step ==
	    CKPT_STEP_LONG(CL_DIRTY) ? "sequential pass, no TRIM before" :
	    "sequential pass"));
	ADD("host_bytes_written", json_object_new_uint64(d->st.ckpt_at));
	ADD("cycle", json_object_new_uint64(d->st.prog.cycle));
	ADD("block_size", json_object_new_uint64(d->st.lay.block_size));
	ADD("region_bytes", json_object_new_uint64(d->st.prog.probe_len != 0 ?
	    d->st.prog.probe_len : layout_dynamic_blocks(&d->st.lay) *
	    d->st.lay.block_size));
	ADD("after_trim", json_object_new_boolean(d->st.ckpt_step ==
	    CKPT_STEP_LONG(CL_RESTORE) && (d->conf.full_checkpoint_tests &
	    (1u << LP_CACHE))));
	if (drive_timeline_estimate(d, line) == 0) {
		ADD("read_bytes_per_sec", json_object_new_double(0));
		ADD("write_bytes_per_sec", json_object_new_double(
		    json_object_get_double(json_object_object_get(line,
		    "pass_bytes_per_sec"))));
		drive_ckpt_append(d, line);
		return;
	}
	drive_log(d, LOG_INFO, 0, "%s: resumed, no write-cache estimate",
	    sched_ckpt_word(d->st.ckpt_step));
	json_object_put(line);
}
#undef ADD

void
drive_long_done(struct drive *d, int step)
{
	struct probe_result	r;

	if (series_step(step))
		series_done(d, step);
	else if (step == CL_RESTORE || step == CL_DIRTY)
		pass_done(d);
	else
		(void)engine_probe_result(d->eng, &r);	/* none to keep */
	drive_long_free(d);
}
