/*
 * report_model.c: a drive's records (report.h: its status, events, SMART
 * snapshots and checkpoint results) as the model a report shows: what
 * `ssdctl report --json` writes and the page is rendered from. A figure
 * the records do not hold is null, never 0.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ckpt.h"
#include "ckpt_read.h"
#include "units.h"
#include "report.h"
#include "report_model.h"

#define ADD(o, k, v)	json_object_object_add(o, k, v)

/* The events a report lists (the rest are the routine of the cycles). */
static const char *const notable[] = {
	"failed", "refused", "verify_error", "verify_errors_summarized",
	"errors_summarized", "throttle", "smart_failed", "smart_error",
	"smart_mismatch", "probe_regression", "aged_data_slow",
	"trim_unsupported", "paused", "power_loss", "power_loss_verified",
	"power_cut", "power_cut_failed", "power_cut_dropped", NULL,
};

/* The long tests' lines the report shows, and their figures. */
static const struct {
	const char	*probe;
	const char	*fields[8];
} long_lines[] = {
	{ "degrade", { "initial_iops", "steady", "steady_iops",
	    "steady_at_seconds", "worst_iops", "round_seconds", NULL } },
	{ "recover-idle", { "first_share", "all_share", "idle_seconds",
	    NULL } },
	{ "recover-trim", { "first_share", "all_share", NULL } },
	{ "clean-pass", { "slc_knee", "slc_cache_bytes",
	    "in_cache_bytes_per_sec", "post_cache_bytes_per_sec",
	    "slc_levels", "post_cache_gusts", "post_cache_stall_seconds",
	    NULL } },
	{ "dirty-pass", { "slc_knee", "slc_cache_bytes",
	    "in_cache_bytes_per_sec", "post_cache_bytes_per_sec",
	    "slc_levels", "post_cache_gusts", "post_cache_stall_seconds",
	    NULL } },
	{ "thermal-write", { "peak_temperature_c", "throttled",
	    "seconds_to_throttle", "unthrottled_bytes_per_sec",
	    "throttled_bytes_per_sec", NULL } },
	{ "thermal-read", { "peak_temperature_c", "throttled",
	    "seconds_to_throttle", "unthrottled_bytes_per_sec",
	    "throttled_bytes_per_sec", NULL } },
	{ "aged-read", { "vs_fresh", "baseline_vs_fresh", "flags", NULL } },
};

json_object *
rj_get(json_object *o, const char *key)
{
	json_object	*v;

	return o != NULL && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* A copy of o[key] (null when missing). */
static json_object *
copy(json_object *o, const char *key)
{
	return json_object_get(rj_get(o, key));
}

int
rj_is_num(json_object *v)
{
	return json_object_is_type(v, json_type_int) ||
	    json_object_is_type(v, json_type_double);
}

int
rj_is_no_knee(json_object *v)
{
	return json_object_is_type(v, json_type_string) &&
	    strcmp(json_object_get_string(v), RJ_NO_KNEE) == 0;
}

int
rj_is_figure(json_object *v)
{
	return rj_is_num(v) || rj_is_no_knee(v);
}

static json_object *
num_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

size_t
rj_len(json_object *a)
{
	return json_object_is_type(a, json_type_array) ?
	    json_object_array_length(a) : 0;
}

/* The latest snapshot's reading, or NULL. */
static json_object *
latest_reading(json_object *snaps)
{
	size_t	n = rj_len(snaps);

	return n > 0 ? rj_get(json_object_array_get_idx(snaps, n - 1), "smart") :
	    NULL;
}

/* The name of event e; "" for what is not an event (a daemon's Events
 * reply passes on any line of its file). */
static const char *
event_name(json_object *e)
{
	json_object	*v = rj_get(e, "event");

	return json_object_is_type(v, json_type_string) ?
	    json_object_get_string(v) : "";
}

/* The last `failed` event: when, at what TBW, and why. */
static json_object *
failure(json_object *events)
{
	size_t		 i = rj_len(events);
	json_object	*e, *f;

	while (i-- > 0) {
		e = json_object_array_get_idx(events, i);
		if (strcmp(event_name(e), "failed") != 0)
			continue;
		f = json_object_new_object();
		ADD(f, "time", copy(e, "time"));
		ADD(f, "host_bytes_written", copy(e, "host_bytes_written"));
		ADD(f, "cause", copy(e, "message"));
		return f;
	}
	return NULL;
}

/* How the run began, from its created event (prepare, and prepare_by:
 * the drive's own command); NULL when the log no longer holds it. */
static json_object *
began(json_object *events)
{
	size_t		 i, n = rj_len(events);
	json_object	*e;
	const char	*p, *by;
	char		 buf[160];

	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(events, i);
		if (strcmp(event_name(e), "created") != 0)
			continue;
		p = json_object_get_string(rj_get(e, "prepare"));
		by = json_object_get_string(rj_get(e, "prepare_by"));
		if (p == NULL || strcmp(p, "none") == 0)
			return json_object_new_string("as the drive was found "
			    "(prepare = none)");
		if (strcmp(p, "trim") == 0)
			return json_object_new_string("the whole span "
			    "discarded first (prepare = trim)");
		snprintf(buf, sizeof(buf), "the whole drive erased first by "
		    "%s (prepare = %s)", by != NULL ? by : "its own command", p);
		return json_object_new_string(buf);
	}
	return NULL;
}

/* The time of the first event (ISO 8601, UTC) in seconds; 0 for none. */
static long long
first_event_time(json_object *events)
{
	struct tm	 tm;
	const char	*s;

	if (rj_len(events) == 0)
		return 0;
	s = json_object_get_string(rj_get(json_object_array_get_idx(events, 0),
	    "time"));
	memset(&tm, 0, sizeof(tm));
	if (s == NULL || strptime(s, "%Y-%m-%dT%H:%M:%S", &tm) == NULL)
		return 0;
	return (long long)timegm(&tm);
}

/* A snapshot's TB written and percent used; 0 when it lacks either. */
static int
wear_point(json_object *s, double *w, double *p)
{
	json_object	*hw = rj_get(s, "host_bytes_written");
	json_object	*pu = rj_get(rj_get(s, "smart"), "percent_used");

	if (!rj_is_num(hw) || !rj_is_num(pu))
		return 0;
	*w = json_object_get_double(hw);
	*p = json_object_get_double(pu);
	return isfinite(*w) && isfinite(*p);
}

/* The TB written at which percent used would reach 100 at the rate from
 * the first snapshot to the latest (a drive may not start at 0 %); null
 * before it has moved a whole percent. */
static json_object *
projected(json_object *snaps)
{
	size_t	i, n = rj_len(snaps);
	double	w0 = 0, p0 = 0, w1 = 0, p1 = 0;
	int	have = 0;

	for (i = 0; i < n && !(have = wear_point(
	    json_object_array_get_idx(snaps, i), &w0, &p0)); i++)
		;
	while (have && n-- > i && !wear_point(json_object_array_get_idx(snaps,
	    n), &w1, &p1))
		;
	if (!have || p1 - p0 < 1 || w1 <= w0 || p1 >= 100)
		return NULL;
	return json_object_new_double(w1 + (100 - p1) * (w1 - w0) / (p1 - p0));
}

/* The maker's rated endurance (the daemon's rated_tbw, or the one the
 * latest snapshot kept), and the share of it written. */
static void
rated(json_object *m, json_object *status, json_object *snaps)
{
	size_t		 n = rj_len(snaps);
	json_object	*r = rj_get(status, "rated_tbw_bytes");
	json_object	*w = rj_get(status, "host_bytes_written");

	if (!rj_is_num(r) && n > 0)
		r = rj_get(json_object_array_get_idx(snaps, n - 1),
		    "rated_tbw_bytes");
	r = rj_is_num(r) && json_object_get_double(r) > 0 ? r : NULL;
	ADD(m, "rated_tbw_bytes", json_object_get(r));
	ADD(m, "rated_share_percent", r != NULL && rj_is_num(w) ?
	    num_or_null(100 * json_object_get_double(w) /
	    json_object_get_double(r)) : NULL);
}

/* Who the drive is and how it stands. */
static void
summary(json_object *m, json_object *status, json_object *snaps,
    json_object *events)
{
	json_object	*smart = latest_reading(snaps), *st_smart;
	static const char *const from_status[] = { "name", "state", "reason",
	    "device", "serial", "capacity", "span_bytes", "host_bytes_written",
	    "host_bytes_read", "probe_bytes_written", "cycles_done",
	    "errors", "errors_total", "power_losses", "power_cuts",
	    "unflushed_kept", NULL };
	static const char *const from_smart[] = { "model", "firmware",
	    "percent_used", "available_spare", "temperature_c",
	    "media_errors", NULL };
	size_t		 i;

	for (i = 0; from_status[i] != NULL; i++)
		ADD(m, from_status[i], copy(status, from_status[i]));
	if (rj_get(status, "host") != NULL)	/* a report across hosts */
		ADD(m, "host", copy(status, "host"));
	st_smart = rj_get(status, "smart");
	for (i = 0; from_smart[i] != NULL; i++)
		ADD(m, from_smart[i], copy(rj_get(st_smart, from_smart[i]) ?
		    st_smart : smart, from_smart[i]));
	if (rj_get(m, "model") == NULL)
		ADD(m, "model", copy(status, "model"));
	ADD(m, "waf", rj_len(snaps) > 0 ? copy(json_object_array_get_idx(snaps,
	    rj_len(snaps) - 1), "waf") : NULL);
	ADD(m, "projected_endurance_bytes", projected(snaps));
	rated(m, status, snaps);
	ADD(m, "failure", failure(events));
	ADD(m, "began", began(events));
	ADD(m, "created", json_object_get_int64(rj_get(status, "created")) > 0 ?
	    copy(status, "created") :
	    first_event_time(events) > 0 ? json_object_new_int64(
	    first_event_time(events)) : NULL);
	ADD(m, "updated", copy(status, "updated"));
}

/* One row of the SMART table: the snapshot's own figures. */
static json_object *
snapshot_row(json_object *s)
{
	json_object	*r = json_object_new_object(), *smart = rj_get(s, "smart");
	static const char *const own[] = { "time", "why",
	    "host_bytes_written", "cycle", "write_bytes_per_sec", "waf", NULL };
	static const char *const read[] = { "percent_used",
	    "available_spare", "temperature_c", "media_errors", "reallocated",
	    "device_bytes_written", "nand_bytes_written", "power_on_hours",
	    "unsafe_shutdowns", NULL };
	size_t		 i;

	for (i = 0; own[i] != NULL; i++)
		ADD(r, own[i], copy(s, own[i]));
	for (i = 0; read[i] != NULL; i++)
		ADD(r, read[i], copy(smart, read[i]));
	return r;
}

static json_object *
snapshots(json_object *snaps)
{
	json_object	*a = json_object_new_array();
	size_t		 i, n = rj_len(snaps);

	for (i = 0; i < n; i++)
		json_object_array_add(a,
		    snapshot_row(json_object_array_get_idx(snaps, i)));
	return a;
}

/* A line's flags ("throughput", "latency"): its strings only. */
static json_object *
flags(json_object *line)
{
	json_object	*in = rj_get(line, "flags"), *out = json_object_new_array();
	json_object	*f;
	size_t		 i;

	for (i = 0; i < rj_len(in); i++)
		if (json_object_is_type(f = json_object_array_get_idx(in, i),
		    json_type_string))
			json_object_array_add(out, json_object_get(f));
	return out;
}

/* A checkpoint's headline figure: a number, "no knee" for a pass whose
 * cache showed no knee (ckpt.h's CKPT_NO_KNEE is no size of a cache), or
 * null. */
static json_object *
cell_value(json_object *c, enum ckpt_figure f)
{
	double	v;

	if (c == NULL)
		return NULL;
	v = ckpt_value(c, f);
	if (f == CKPT_CACHE && v == CKPT_NO_KNEE)
		return json_object_new_string(RJ_NO_KNEE);
	return num_or_null(v);
}

/* A probe's headline figure at each checkpoint, and its change. */
static json_object *
probe_row(const struct ckpt_grid *g, size_t r)
{
	json_object		*o = json_object_new_object(), *vals, *c;
	enum ckpt_figure	 f = CKPT_IOPS;
	long			 base = ckpt_baseline_col(g, r);
	long			 last = ckpt_latest_col(g, r);
	size_t			 k;

	vals = json_object_new_array();
	for (k = 0; k < g->ncols; k++)
		if ((c = ckpt_cell(g, r, k)) != NULL) {
			f = ckpt_headline(c);
			break;
		}
	for (k = 0; k < g->ncols; k++)
		json_object_array_add(vals, cell_value(ckpt_cell(g, r, k), f));
	ADD(o, "probe", json_object_new_string(g->ids[r]));
	c = last >= 0 ? ckpt_cell(g, r, (size_t)last) : NULL;
	ADD(o, "title", copy(c, "title"));
	ADD(o, "family", copy(c, "family"));
	ADD(o, "figure", json_object_new_string(ckpt_figure_word(f)));
	ADD(o, "unit", json_object_new_string(ckpt_figure_unit(f)));
	ADD(o, "values", vals);
	ADD(o, "change_percent", base >= 0 && last > base ? num_or_null(
	    ckpt_change(ckpt_value(ckpt_cell(g, r, (size_t)base), f),
	    ckpt_value(c, f))) : NULL);
	ADD(o, "flags", flags(c));
	ADD(o, "void", copy(c, "void"));	/* the latest: no figure, why */
	/* the latest measured on a busy host: a note, no flag of the drive's */
	ADD(o, "host_busy", copy(c, "host_busy"));
	ADD(o, "read_lat_us", copy(c, "read_lat_us"));
	ADD(o, "write_lat_us", copy(c, "write_lat_us"));
	return o;
}

/* The checkpoints (columns) and the probes (rows) of the results. */
static void
performance(json_object *m, json_object *lines)
{
	struct ckpt_grid	 g;
	json_object		*cols = json_object_new_array(), *rows, *c;
	size_t			 k, r;

	rows = json_object_new_array();
	if (lines != NULL && ckpt_grid_build(lines, &g) == 0) {
		for (k = 0; k < g.ncols; k++) {
			c = json_object_new_object();
			ADD(c, "checkpoint", json_object_new_int64(
			    g.numbers[k]));
			ADD(c, "host_bytes_written", num_or_null(g.hbw[k]));
			json_object_array_add(cols, c);
		}
		for (r = 0; r < g.nrows; r++)
			json_object_array_add(rows, probe_row(&g, r));
		ckpt_grid_free(&g);
	}
	ADD(m, "checkpoints", cols);
	ADD(m, "probes", rows);
}

/* The latest line of each long test the report shows, with its figures. */
static json_object *
long_tests(json_object *lines)
{
	json_object	*a = json_object_new_array(), *o, *l, *best;
	size_t		 t, i, n = rj_len(lines);
	const char	*const *f;

	for (t = 0; t < sizeof(long_lines) / sizeof(*long_lines); t++) {
		for (best = NULL, i = 0; i < n; i++) {
			l = json_object_array_get_idx(lines, i);
			if (ckpt_line_problem(l) == NULL && strcmp(
			    json_object_get_string(rj_get(l, "probe")),
			    long_lines[t].probe) == 0)
				best = l;
		}
		if (best == NULL)
			continue;
		o = json_object_new_object();
		ADD(o, "probe", json_object_new_string(long_lines[t].probe));
		ADD(o, "checkpoint", copy(best, "checkpoint"));
		ADD(o, "host_bytes_written", copy(best, "host_bytes_written"));
		for (f = long_lines[t].fields; *f != NULL; f++)
			ADD(o, *f, copy(best, *f));
		json_object_array_add(a, o);
	}
	return a;
}

static int
is_notable(json_object *e)
{
	const char	*name = event_name(e);
	size_t		 i;

	for (i = 0; notable[i] != NULL; i++)
		if (strcmp(name, notable[i]) == 0)
			return 1;
	return 0;
}

/* The events that matter, newest first, at most REPORT_EVENTS_MAX. */
static json_object *
events_model(json_object *events, size_t *more)
{
	json_object	*a = json_object_new_array();
	size_t		 i = rj_len(events);

	*more = 0;
	while (i-- > 0) {
		json_object *e = json_object_array_get_idx(events, i);

		if (!is_notable(e))
			continue;
		if (json_object_array_length(a) < REPORT_EVENTS_MAX)
			json_object_array_add(a, json_object_get(e));
		else
			(*more)++;
	}
	return a;
}

json_object *
report_model(json_object *status, json_object *events, json_object *snaps,
    json_object *lines)
{
	json_object	*m = json_object_new_object();
	size_t		 more;

	summary(m, status, snaps, events);
	ADD(m, "snapshots", snapshots(snaps));
	performance(m, lines);
	ADD(m, "long_tests", long_tests(lines));
	ADD(m, "events", events_model(events, &more));
	ADD(m, "events_not_listed", json_object_new_uint64(more));
	return m;
}

int
report_at_parse(const char *s, struct report_at *at)
{
	memset(at, 0, sizeof(*at));
	snprintf(at->word, sizeof(at->word), "%s", s);
	if (strcmp(s, "0") == 0)
		at->kind = AT_FIRST;
	else if (strcmp(s, "latest") == 0)
		at->kind = AT_LATEST;
	else if (strlen(s) < sizeof(at->word) &&
	    units_parse_decimal(s, &at->bytes) == 0)
		at->kind = AT_BYTES;
	else
		return -1;
	return 0;
}

/* The checkpoint (column) of a probe's row the milestone picks, among
 * those the probe ran at: the first, the latest, or the first at or
 * after so many bytes written; -1 for none. */
static long
at_column(json_object *cols, json_object *values, const struct report_at *at)
{
	size_t	k, n = rj_len(values) < rj_len(cols) ? rj_len(values) : rj_len(cols);
	long	pick = -1;

	for (k = 0; k < n; k++) {
		if (!rj_is_figure(json_object_array_get_idx(values, k)))
			continue;
		if (at->kind == AT_BYTES && !(json_object_get_double(rj_get(
		    json_object_array_get_idx(cols, k), "host_bytes_written")) >=
		    (double)at->bytes))
			continue;
		pick = (long)k;
		if (at->kind != AT_LATEST)
			break;
	}
	return pick;
}

/* A probe's row of a drive's model, or NULL. */
static json_object *
probe_of(json_object *model, const char *id)
{
	json_object	*rows = rj_get(model, "probes"), *r;
	size_t		 i;

	for (i = 0; i < rj_len(rows); i++) {
		r = json_object_array_get_idx(rows, i);
		if (strcmp(json_object_get_string(rj_get(r, "probe")), id) == 0)
			return r;
	}
	return NULL;
}

/* One drive's bar of a probe: its figure at the milestone. */
static json_object *
bar(json_object *model, json_object *row, const struct report_at *at)
{
	json_object	*b = json_object_new_object(), *cols, *v = NULL, *c;
	long		 k;

	cols = rj_get(model, "checkpoints");
	k = at_column(cols, rj_get(row, "values"), at);
	ADD(b, "drive", copy(model, "name"));
	if (k >= 0)
		v = json_object_array_get_idx(rj_get(row, "values"), (size_t)k);
	c = k >= 0 ? json_object_array_get_idx(cols, (size_t)k) : NULL;
	ADD(b, "value", json_object_get(v));
	ADD(b, "checkpoint", v != NULL ? copy(c, "checkpoint") : NULL);
	ADD(b, "host_bytes_written", v != NULL ? copy(c, "host_bytes_written") :
	    NULL);
	return b;
}

/* Every probe id of the models, in the order first seen. */
static json_object *
probe_ids(json_object *models)
{
	json_object	*ids = json_object_new_object(), *rows, *r;
	size_t		 d, i;

	for (d = 0; d < rj_len(models); d++) {
		rows = rj_get(json_object_array_get_idx(models, d), "probes");
		for (i = 0; i < rj_len(rows); i++) {
			r = json_object_array_get_idx(rows, i);
			if (rj_get(ids, json_object_get_string(rj_get(r, "probe"))) ==
			    NULL)
				ADD(ids, json_object_get_string(rj_get(r, "probe")),
				    json_object_get(r));
		}
	}
	return ids;
}

json_object *
report_compare(json_object *models, const struct report_at *at)
{
	json_object	*c = json_object_new_object(), *probes, *ids, *p, *bars;
	size_t		 d;

	probes = json_object_new_array();
	ADD(c, "at", json_object_new_string(at->word));
	ids = probe_ids(models);
	json_object_object_foreach(ids, id, row) {
		p = json_object_new_object();
		bars = json_object_new_array();
		ADD(p, "probe", json_object_new_string(id));
		ADD(p, "title", copy(row, "title"));
		ADD(p, "figure", copy(row, "figure"));
		ADD(p, "unit", copy(row, "unit"));
		for (d = 0; d < json_object_array_length(models); d++) {
			json_object *m = json_object_array_get_idx(models, d);

			json_object_array_add(bars, bar(m, probe_of(m, id), at));
		}
		ADD(p, "drives", bars);
		json_object_array_add(probes, p);
	}
	json_object_put(ids);
	ADD(c, "probes", probes);
	return c;
}
