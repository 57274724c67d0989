/*
 * ckpt_line.c: the lines of checkpoints.jsonl, as every probe writes one
 * (the checkpoints' own probes, drive_ckpt.c, and the long tests',
 * ckpt_long.c): which checkpoint and probe, the workload as fio would
 * be told it, the figures and latencies the worker measured, what it
 * found bad, its windows; and the appending of a line.
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
#include "drive_priv.h"
#include "probegen.h"

#define ADD(k, v) json_object_object_add(o, k, v)

/* The percentiles of a direction's latency in a line, in order. */
static const struct {
	const char	*key;
	double		 pct;
} lat_keys[] = {
	{ "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99.9", 99.9 },
	{ "p99.99", 99.99 },
};

/* A SMART figure of the latest reading, x100; CKPT_UNKNOWN when none. */
uint64_t
ckpt_smart_x100(const struct drive *d, int temperature)
{
	const struct smart	*s = &d->smart.latest;

	if (!d->smart.have_latest)
		return CKPT_UNKNOWN;
	if (temperature)
		return s->has_temperature && s->temperature_c >= 0 ?
		    (uint64_t)s->temperature_c * 100 : CKPT_UNKNOWN;
	return s->has_percent_used ?
	    (uint64_t)llround(s->percent_used * 100) : CKPT_UNKNOWN;
}

static json_object *
x100_json(uint64_t v)
{
	return v == CKPT_UNKNOWN ? NULL : json_object_new_double(v / 100.0);
}

/* The fields every line of a probe has: which checkpoint, which probe. */
json_object *
ckpt_line_identity(const struct drive *d, const struct probe *p)
{
	json_object	*o = json_object_new_object();

	ADD("checkpoint", json_object_new_uint64(d->st.ckpt_done + 1));
	ADD("time", json_object_new_uint64((uint64_t)time(NULL)));
	ADD("started", json_object_new_uint64(d->st.ckpt_started));
	ADD("host_bytes_written", json_object_new_uint64(d->st.ckpt_at));
	ADD("probe_bytes_written",
	    json_object_new_uint64(d->st.probe_bytes_written));
	ADD("cycle", json_object_new_uint64(d->st.prog.cycle));
	ADD("percent_used_start", x100_json(d->st.ckpt_pu_x100));
	ADD("percent_used_end", x100_json(ckpt_smart_x100(d, 0)));
	ADD("temperature_start", x100_json(d->st.ckpt_temp_x100));
	ADD("temperature_end", x100_json(ckpt_smart_x100(d, 1)));
	ADD("probe", json_object_new_string(p->id));
	ADD("family", json_object_new_string(probe_family_name(p->family)));
	ADD("title", json_object_new_string(p->title));
	return o;
}

/* The probe's workload, as fio would be told it. */
void
ckpt_line_workload(json_object *o, const struct drive *d, const struct probe *p)
{
	json_object	*split, *pair;
	unsigned	 i;

	ADD("rw", json_object_new_string(probe_rw(p)));
	if (p->nsplit == 1)
		ADD("block_size", json_object_new_uint64(p->split[0].size));
	else {
		split = json_object_new_array();
		for (i = 0; i < p->nsplit; i++) {
			pair = json_object_new_array();
			json_object_array_add(pair,
			    json_object_new_uint64(p->split[i].size));
			json_object_array_add(pair,
			    json_object_new_uint64(p->split[i].weight));
			json_object_array_add(split, pair);
		}
		ADD("split", split);
	}
	ADD("queue_depth", json_object_new_uint64(p->queue_depth));
	ADD("workers", json_object_new_uint64(p->workers));
	ADD("read_percent", json_object_new_uint64(p->read_percent));
	ADD("random_percent", json_object_new_uint64(p->random_percent));
	ADD("region_bytes", json_object_new_uint64(d->st.prog.probe_len));
	ADD("unit", json_object_new_uint64(d->st.prog.probe_unit));
}

json_object *
drive_ckpt_lat(const struct lathist *h)
{
	json_object	*o;
	size_t		 i;

	if (h->count == 0)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "mean",
	    json_object_new_double(lathist_mean(h) / 1e3));
	for (i = 0; i < sizeof(lat_keys) / sizeof(lat_keys[0]); i++)
		json_object_object_add(o, lat_keys[i].key,
		    json_object_new_double((double)lathist_percentile(h,
		    lat_keys[i].pct) / 1e3));
	json_object_object_add(o, "max",
	    json_object_new_double((double)h->max_ns / 1e3));
	return o;
}

/* What the probe found bad, over the whole job. */
void
ckpt_line_errors(json_object *o, const struct probe_result *r)
{
	json_object	*cls = json_object_new_object();
	uint64_t	 n = 0;
	int		 i;

	for (i = 1; i < BLK_NCLASS; i++) {
		n += r->errors[i];
		if (r->errors[i] != 0)
			json_object_object_add(cls, blk_class_name(i),
			    json_object_new_uint64(r->errors[i]));
	}
	ADD("errors", json_object_new_uint64(n));
	ADD("error_classes", cls);
}

/* Seconds of a length in ns; null for one not known. */
static json_object *
seconds_json(uint64_t ns)
{
	return ns == PROBE_WAIT_UNKNOWN ? NULL :
	    json_object_new_double((double)ns / 1e9);
}

/* The windows found void, each with its reason. */
static json_object *
void_windows(const struct probe_result *r)
{
	json_object	*a = json_object_new_array(), *w;
	char		 why[256];
	unsigned	 i;

	for (i = 0; i < r->nvoid; i++) {
		w = json_object_new_object();
		(void)probe_window_void(&r->voided[i], why, sizeof(why));
		json_object_object_add(w, "seconds",
		    seconds_json(r->voided[i].wall_ns));
		json_object_object_add(w, "why", json_object_new_string(why));
		json_object_array_add(a, w);
	}
	return a;
}

/*
 * How the window was measured: attempts, the void ones, its edges, the
 * longest gap between the I/O thread's rounds; a host so busy that the
 * thread waited for a CPU over PROBE_BUSY_PERCENT of it (probes.h) is
 * noted: the figure is the drive's as that host could drive it.
 */
void
ckpt_line_window(json_object *o, const struct probe_result *r)
{
	ADD("attempts", json_object_new_uint64(r->attempts));
	if (r->nvoid > 0)
		ADD("void_windows", void_windows(r));
	ADD("suspended_seconds", seconds_json(r->window.suspended_ns));
	ADD("cpu_wait_seconds", seconds_json(r->window.runq_ns));
	ADD("round_gap_seconds", seconds_json(r->window.gap_ns));
	if (probe_window_busy(&r->window))
		ADD("host_busy", json_object_new_boolean(1));
}

/* What the probe measured. */
static void
line_figures(json_object *o, const struct drive *d,
    const struct probe_result *r)
{
	ADD("seconds", json_object_new_double((double)r->window_ns / 1e9));
	ADD("ramp_seconds", json_object_new_double((double)d->conf.probe_ramp));
	ADD("wait", json_object_new_string(r->poll ? "poll" : "sleep"));
	ADD("read_iops", json_object_new_double(r->iops[LAT_READ]));
	ADD("write_iops", json_object_new_double(r->iops[LAT_WRITE]));
	ADD("read_bytes_per_sec",
	    json_object_new_double(r->bytes_per_sec[LAT_READ]));
	ADD("write_bytes_per_sec",
	    json_object_new_double(r->bytes_per_sec[LAT_WRITE]));
	if (r->lat[LAT_READ].count > 0)
		ADD("read_lat_us", drive_ckpt_lat(&r->lat[LAT_READ]));
	if (r->lat[LAT_WRITE].count > 0)
		ADD("write_lat_us", drive_ckpt_lat(&r->lat[LAT_WRITE]));
	ckpt_line_errors(o, r);
	if (r->attempts > 0)
		ckpt_line_window(o, r);
}

/* One line of checkpoints.jsonl, consumed. */
void
drive_ckpt_append(struct drive *d, json_object *o)
{
	events_append(&d->results, json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

/* The worker's result of probe p; -1 (logged) when it has none. */
int
ckpt_result_take(struct drive *d, const struct probe *p, const char *id,
    struct probe_result *r)
{
	if (engine_probe_result(d->eng, r) == -1 || strcmp(r->id, p->id) != 0) {
		drive_log(d, LOG_WARNING, 0, "checkpoint: no result of probe "
		    "%s", id);
		return -1;
	}
	return 0;
}

/* The line of a probe's figures. */
json_object *
ckpt_line_measured(struct drive *d, const struct probe *p, const char *id,
    const struct probe_result *r)
{
	json_object	*o = ckpt_line_identity(d, p);

	ADD("probe", json_object_new_string(id));
	ckpt_line_workload(o, d, p);
	line_figures(o, d, r);
	drive_log(d, LOG_INFO, 0, "probe %s: %.0f read + %.0f write IOPS, "
	    "%.1f MB/s%s", id, r->iops[LAT_READ], r->iops[LAT_WRITE],
	    (r->bytes_per_sec[LAT_READ] + r->bytes_per_sec[LAT_WRITE]) / 1e6,
	    r->attempts > 0 && probe_window_busy(&r->window) ? " (host busy: "
	    "the I/O thread waited for a CPU much of the window)" : "");
	return o;
}

json_object *
drive_ckpt_line(struct drive *d, const struct probe *p, const char *id)
{
	struct probe_result	 r;

	if (ckpt_result_take(d, p, id, &r) == -1)
		return NULL;
	return ckpt_line_measured(d, p, id, &r);
}
#undef ADD
