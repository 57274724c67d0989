/*
 * drive_ckpt.c: a drive's performance checkpoints (the phase is
 * phase_checkpoint.c; this is what the lifecycle does around its steps):
 * the device's unit and the SMART figures at its start, probes that
 * cannot run on this device passed over with the reason, each probe's
 * result as one line of checkpoints.jsonl compared with the drive's
 * baseline (the first checkpoint that measured it), regressions as
 * events, and the operator's request for one.
 *
 * A probe whose measuring window was not the drive's (the daemon stopped
 * or kept from every CPU for a stretch, or the system suspended in it:
 * probes.h) has been measured again by
 * the worker; when every window was void, its line says so ("void", with
 * the reason) and has no figures: no baseline, no regression, no speed.
 * It also says "skipped", as a probe that cannot run does, so that a
 * reader that knows no void takes no figure from it either.
 *
 * A line is appended when its probe has ended and the state that counts
 * it (the next step, the file's length) is saved after it: a crash before
 * that save cuts the line off at the next start (the file is opened cut
 * to the length the state knows) and the probe runs again; a line is
 * never recorded half, nor twice.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "ckpt_line.h"
#include "ckpt_read.h"
#include "ckpt_seen.h"
#include "drive_ckpt.h"
#include "drive_features.h"
#include "ckpt_long.h"
#include "drive_priv.h"
#include "probegen.h"

/* A probe flagged: throughput under this share of its baseline ... */
#define FLAG_THROUGHPUT	0.8
/* ... or its p99.9 latency over this multiple of it. */
#define FLAG_LATENCY	2.0

#define ADD(k, v) json_object_object_add(o, k, v)

/* Open checkpoints.jsonl cut to `keep` bytes. */
static void
drive_ckpt_open(struct drive *d, uint64_t keep)
{
	char	path[PATH_MAX + 32];

	if (d->results.path != NULL)
		return;
	statedir_path(path, sizeof(path), d->dir, STATEDIR_CHECKPOINTS);
	if (events_open(&d->results, path, keep, d->conf.name,
	    d->conf.serial) == -1) {
		drive_log(d, LOG_WARNING, errno, "cannot open %s", path);
		events_close(&d->results);
	}
}

/* A length of time in words: "45 s", "38 min". */
static const char *
minutes(uint64_t sec, char *buf, size_t len)
{
	if (sec < 120)
		snprintf(buf, len, "%" PRIu64 " s", sec);
	else
		snprintf(buf, len, "%" PRIu64 " min", (sec + 59) / 60);
	return buf;
}

/* The probes this checkpoint runs, and the time they take. */
static void
ckpt_plan(const struct drive *d, uint64_t *probes, uint64_t *sec)
{
	*probes = sched_ckpt_probes_from(&d->conf, CKPT_STEP_FILL);
	*sec = *probes * (d->conf.probe_seconds + d->conf.probe_ramp) +
	    sched_ckpt_long_seconds(&d->st, &d->conf, CKPT_STEP_FILL);
}

/* A phase was entered: the checkpoint's, its unit, SMART then, its event. */
static void
drive_ckpt_started(struct drive *d)
{
	json_object	*o;
	uint64_t	 probes, sec;
	char		 t[32];

	if (d->st.prog.phase != PHASE_CHECKPOINT)
		return;
	o = drive_ev_obj(d);
	d->st.prog.probe_unit = d->tgt.logical_block;
	ckpt_seen_reset(d);
	d->st.ckpt_pu_x100 = ckpt_smart_x100(d, 0);
	d->st.ckpt_temp_x100 = ckpt_smart_x100(d, 1);
	ckpt_plan(d, &probes, &sec);
	json_object_object_add(o, "checkpoint",
	    json_object_new_uint64(d->st.ckpt_done + 1));
	json_object_object_add(o, "probes", json_object_new_uint64(probes));
	json_object_object_add(o, "probe_seconds",
	    json_object_new_uint64(sec));
	json_object_object_add(o, "region_bytes",
	    json_object_new_uint64(d->st.prog.probe_len));
	json_object_object_add(o, "full",
	    json_object_new_boolean(d->st.ckpt_full));
	events_add(&d->log, LOG_NOTICE, "checkpoint_start", o, -1,
	    (long long)d->st.host_bytes_written, "checkpoint %" PRIu64 ": %"
	    PRIu64 " probes over %.1f GiB%s, %s timed (plus a fill, a "
	    "check and a rewrite of the region%s)", d->st.ckpt_done + 1, probes,
	    (double)d->st.prog.probe_len / (1ULL << 30), d->st.ckpt_full ?
	    " and the long tests over the whole area" : "",
	    minutes(sec, t, sizeof(t)), d->st.ckpt_full ? "; the long tests' "
	    "fills, checks, TRIMs and passes" : "");
}

/* A number of a line, or `dflt`. */
static double
num(json_object *o, const char *k, double dflt)
{
	json_object	*v;

	return json_object_object_get_ex(o, k, &v) && v != NULL &&
	    (json_object_is_type(v, json_type_double) ||
	    json_object_is_type(v, json_type_int)) ?
	    json_object_get_double(v) : dflt;
}

/*
 * The figures a probe is judged by, from its line (one rule for lines
 * read back and lines being written): throughput, both directions
 * together; the highest p99.9 of its directions (0: none).
 */
static void
line_headline(json_object *line, double *tput, double *p999)
{
	static const char *const dirs[] = { "read_lat_us", "write_lat_us" };
	json_object	*lat;
	size_t		 i;
	double		 v;

	*tput = num(line, "read_bytes_per_sec", 0) +
	    num(line, "write_bytes_per_sec", 0);
	*p999 = 0;
	for (i = 0; i < 2; i++)
		if (json_object_object_get_ex(line, dirs[i], &lat) &&
		    (v = num(lat, "p99.9", 0)) > *p999)
			*p999 = v;
}

/* The table's index of a probe. */
static size_t
probe_index(const struct probe *p)
{
	return (size_t)(p - probe_at(0));
}

/* A line read back: the first of its probe is that probe's baseline. */
static void
base_take(json_object *line, void *arg)
{
	struct drive		*d = arg;
	json_object		*id;
	const struct probe	*p;
	struct ckpt_base	*b;

	if (!json_object_object_get_ex(line, "probe", &id) ||
	    (p = probe_find(json_object_get_string(id))) == NULL ||
	    json_object_object_get_ex(line, "skipped", NULL) ||
	    json_object_object_get_ex(line, "void", NULL))
		return;		/* no figure of the drive's */
	b = &d->base[probe_index(p)];
	if (b->number != 0)
		return;
	b->number = (uint64_t)num(line, "checkpoint", 0);
	line_headline(line, &b->tput, &b->p999);
}

/* The baselines of the probes, from checkpoints.jsonl as it is now. */
static void
drive_ckpt_load(struct drive *d)
{
	struct ckpt_skipped	sk;

	if (d->base == NULL &&
	    (d->base = calloc(probe_count(), sizeof(*d->base))) == NULL)
		return;
	if (d->results.path == NULL)
		return;
	if (ckpt_each(d->results.path, base_take, d, &sk) == -1)
		log_drive(LOG_WARNING, d->conf.name, d->conf.serial, errno,
		    "%s: cannot read the baselines", d->results.path);
	else if (sk.lines > 0)
		log_drive(LOG_WARNING, d->conf.name, d->conf.serial, 0,
		    "%s: %zu line(s) skipped, the first (line %zu): %s",
		    d->results.path, sk.lines, sk.first, sk.why);
}

/* An event's object naming the checkpoint under way and probe p. */
static json_object *
probe_ev_obj(struct drive *d, const struct probe *p)
{
	json_object	*o = drive_ev_obj(d);

	json_object_object_add(o, "checkpoint",
	    json_object_new_uint64(d->st.ckpt_done + 1));
	json_object_object_add(o, "probe", json_object_new_string(p->id));
	return o;
}

/* A regression, as an event. */
static void
regression_event(struct drive *d, const struct probe *p, uint64_t base,
    const char *what, double ratio)
{
	json_object	*o = probe_ev_obj(d, p);

	json_object_object_add(o, "figure", json_object_new_string(what));
	json_object_object_add(o, "vs_baseline", json_object_new_double(ratio));
	json_object_object_add(o, "baseline", json_object_new_uint64(base));
	events_add(&d->log, LOG_WARNING, "probe_regression", o, -1,
	    (long long)d->st.host_bytes_written, "checkpoint %" PRIu64 ": %s: "
	    "%s %.2f times its baseline (checkpoint %" PRIu64 ")",
	    d->st.ckpt_done + 1, p->id, what, ratio, base);
}

/* Against the probe's baseline: ratios and flags; the first is it. */
static void
line_compare(json_object *o, struct drive *d, const struct probe *p)
{
	struct ckpt_base	*b = &d->base[probe_index(p)];
	json_object		*vs, *flags = json_object_new_array();
	double			 tput, p999, rt, rl;

	line_headline(o, &tput, &p999);
	ADD("flags", flags);
	if (b->number == 0) {
		b->number = d->st.ckpt_done + 1;
		b->tput = tput;
		b->p999 = p999;
		return;
	}
	rt = b->tput > 0 ? tput / b->tput : 1;
	rl = b->p999 > 0 ? p999 / b->p999 : 1;
	ADD("baseline", json_object_new_uint64(b->number));
	vs = json_object_new_object();
	json_object_object_add(vs, "throughput", json_object_new_double(rt));
	json_object_object_add(vs, "p99.9", json_object_new_double(rl));
	ADD("vs_baseline", vs);
	if (rt < FLAG_THROUGHPUT) {
		json_object_array_add(flags, json_object_new_string("throughput"));
		regression_event(d, p, b->number, "throughput", rt);
	}
	if (rl > FLAG_LATENCY) {
		json_object_array_add(flags, json_object_new_string("latency"));
		regression_event(d, p, b->number, "p99.9 latency", rl);
	}
}

/* A probe whose every window was void, as an event. */
static void
void_event(struct drive *d, const struct probe *p, unsigned attempts,
    const char *why)
{
	json_object	*o = probe_ev_obj(d, p);

	json_object_object_add(o, "attempts", json_object_new_uint64(attempts));
	json_object_object_add(o, "why", json_object_new_string(why));
	events_add(&d->log, LOG_WARNING, "probe_void", o, -1,
	    (long long)d->st.host_bytes_written, "checkpoint %" PRIu64 ": %s: "
	    "no figure, %u window%s void, the last: %s", d->st.ckpt_done + 1,
	    p->id, attempts, attempts == 1 ? "" : "s", why);
}

/* The line of a probe whose every window was void: why, no figures. */
static json_object *
line_void(struct drive *d, const struct probe *p,
    const struct probe_result *r)
{
	json_object	*o = ckpt_line_identity(d, p);
	char		 why[256], skip[272];

	(void)probe_window_void(&r->voided[r->nvoid - 1], why, sizeof(why));
	snprintf(skip, sizeof(skip), "void: %s", why);
	ckpt_line_workload(o, d, p);
	ADD("void", json_object_new_string(why));
	ADD("skipped", json_object_new_string(skip));
	ckpt_line_errors(o, r);
	ckpt_line_window(o, r);
	void_event(d, p, r->attempts, why);
	return o;
}

/* The probe of the step ended: its result, whole. */
static void
probe_recorded(struct drive *d, const struct probe *p)
{
	struct probe_result	 r;
	json_object		*o;

	if (ckpt_result_take(d, p, p->id, &r) == -1)
		return;
	if (r.attempts > 0 && r.nvoid == r.attempts) {
		drive_ckpt_append(d, line_void(d, p, &r));
		return;
	}
	o = ckpt_line_measured(d, p, p->id, &r);
	if (d->base != NULL)
		line_compare(o, d, p);
	drive_ckpt_append(d, o);
}

/* A probe this device cannot run: its line says why. */
static void
probe_skipped(struct drive *d, const struct probe *p, const char *why)
{
	json_object	*o = ckpt_line_identity(d, p);
	const char	*id = sched_ckpt_word(d->st.ckpt_step);

	ADD("probe", json_object_new_string(id));
	ckpt_line_workload(o, d, p);
	ADD("skipped", json_object_new_string(why));
	drive_log(d, LOG_INFO, 0, "probe %s passed over: %s", id, why);
	drive_ckpt_append(d, o);
}

/* The probe the current step runs and the bytes it runs over; NULL when
 * it runs none. */
static const struct probe *
step_probe(const struct drive *d, uint64_t *len)
{
	int		l = sched_ckpt_long(d->st.ckpt_step);
	uint64_t	off;

	*len = d->st.prog.probe_len;
	if (l < 0)
		return sched_ckpt_probe(d->st.ckpt_step);
	sched_long_region(&d->st, l, &off, len);
	return sched_long_probe(l);
}

/*
 * Before a checkpoint step's job is handed out: probes the device cannot
 * run passed over (recorded), `j` the job of the step that runs.
 */
static void
drive_ckpt_prepare(struct drive *d, struct job *j)
{
	const struct probe	*p;
	struct sched_step	 s;
	char			 why[160];
	uint64_t		 len;
	int			 skipped = 0;

	if (d->st.prog.phase != PHASE_CHECKPOINT)
		return;
	if (d->st.prog.probe_unit == 0)	/* a state of an older version */
		d->st.prog.probe_unit = j->pj.unit = d->tgt.logical_block;
	while ((p = step_probe(d, &len)) != NULL &&
	    probegen_check(p, len, d->st.prog.probe_unit,
	    why, sizeof(why)) == -1) {
		probe_skipped(d, p, why);
		(void)sched_ckpt_next(&d->st, &d->conf);  /* check follows */
		sched_next(&d->st, &d->conf, j, &s);
		skipped = 1;
	}
	d->st.ckpt_step_at = (uint64_t)time(NULL);
	if (j->kind == JOB_PROBE_RUN && sched_ckpt_long(d->st.ckpt_step) < 0)
		j->pj.reruns = PROBE_RERUNS;	/* the suite's: short, alike */
	if (skipped)	/* the step the job is of, on disk before it runs */
		d->core->checkpoint(d);
	ckpt_long_prepare(d, sched_ckpt_long(d->st.ckpt_step));
}

/* The checkpoint is complete. */
static void
ckpt_end_event(struct drive *d)
{
	json_object	*o = drive_ev_obj(d);
	uint64_t	 sec = (uint64_t)time(NULL) - d->st.ckpt_started;
	char		 t[32];

	json_object_object_add(o, "checkpoint",
	    json_object_new_uint64(d->st.ckpt_done));
	json_object_object_add(o, "seconds", json_object_new_uint64(sec));
	events_add(&d->log, LOG_NOTICE, "checkpoint_end", o, -1,
	    (long long)d->st.host_bytes_written, "checkpoint %" PRIu64
	    " done in %s; ssdctl checkpoints %s compares it",
	    d->st.ckpt_done, minutes(sec, t, sizeof(t)), d->conf.name);
}

/*
 * A checkpoint step's job is done: its result recorded, the next step or
 * the phase's end; 0 when the job was not a checkpoint's.
 */
static int
drive_ckpt_step_done(struct drive *d, int err)
{
	const struct probe	*p = sched_ckpt_probe(d->st.ckpt_step);
	struct probe_result	 r;

	if (d->st.prog.phase != PHASE_CHECKPOINT)
		return 0;

	if (p != NULL)
		probe_recorded(d, p);
	else if (sched_ckpt_long(d->st.ckpt_step) >= 0)
		ckpt_long_done(d, sched_ckpt_long(d->st.ckpt_step), err);
	else
		(void)engine_probe_result(d->eng, &r);	/* none to keep */
	if (sched_ckpt_next(&d->st, &d->conf)) {
		d->core->checkpoint(d);
		drive_notify(d);
		return 1;
	}
	ckpt_end_event(d);
	d->core->phase_done(d, JOB_DONE);
	return 1;
}

json_object *
drive_ckpt_status(const struct drive *d)
{
	json_object	*o = json_object_new_object();
	const struct dstate *st = &d->st;
	int		 in = st->prog.phase == PHASE_CHECKPOINT;
	uint64_t	 n = sched_ckpt_steps(st, &d->conf), every;

	every = d->conf.checkpoint_every;
	ADD("number", json_object_new_uint64(st->ckpt_done + (uint64_t)in));
	ADD("step", json_object_new_string(in ?
	    sched_ckpt_word(st->ckpt_step) : ""));
	ADD("full", json_object_new_boolean(in ? st->ckpt_full :
	    sched_ckpt_full_due(st, &d->conf)));
	ADD("index", json_object_new_uint64(in ?
	    n - sched_ckpt_steps_left(st, &d->conf) + 1 : 0));
	ADD("steps", json_object_new_uint64(in ? n : 0));
	/* a run that has ended runs none (drive_cmd.c refuses to ask for
	 * one) until it is started again */
	ADD("pending", json_object_new_boolean(!in && st->run != RUN_FINISHED &&
	    st->run != RUN_FAILED && sched_ckpt_due(st, &d->conf)));
	ADD("next_at_bytes", json_object_new_uint64(
	    d->conf.checkpoint == CKPT_OFF || every == 0 ? 0 :
	    st->ckpt_done == 0 ? st->host_bytes_written :
	    (st->ckpt_at / every + 1) * every));
#undef ADD
	return o;
}

/* The drive's state is loaded: checkpoints.jsonl cut to what the state
 * knows of (all of it for a new run), the baselines from it. */
static void
ckpt_loaded(struct drive *d, int owned)
{
	drive_ckpt_open(d, owned ? d->st.ckpt_results_bytes : UINT64_MAX);
	drive_ckpt_load(d);
}

/* A tick's rates are in: the series of a long test's step running. */
static void
ckpt_tick(struct drive *d, int rated)
{
	if (rated)
		ckpt_long_tick(d);
}

static void
ckpt_release(struct drive *d)
{
	events_close(&d->results);
	free(d->base);
	d->base = NULL;
	ckpt_seen_free(d);
	ckpt_long_free(d);
}

/* Performance checkpoints, their probes and long tests (ckpt_long.c). */
const struct drive_feature drive_ckpt_feature = {
	.name = "checkpoints",
	.loaded = ckpt_loaded,
	.phase_started = drive_ckpt_started,
	.job_prepare = drive_ckpt_prepare,
	.step_done = drive_ckpt_step_done,
	.seen_before = drive_ckpt_found_before,
	.tick = ckpt_tick,
	.release = ckpt_release,
};
