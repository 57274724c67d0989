/* report_tables.c: the tables of a report page (report_tables.h). */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "block.h"
#include "ckpt.h"
#include "output.h"
#include "report_fig.h"
#include "report_model.h"
#include "report_tables.h"
#include "units.h"

enum fmt { F_STR, F_BYTES, F_PCT, F_SHARE, F_NUM, F_INT, F_TEMP, F_RATE,
    F_TIME };

struct field {
	const char	*label, *key;
	enum fmt	 fmt;
};

/* The summary of one drive, in order; state, errors and failure after. */
static const struct field summary_fields[] = {
	{ "Model", "model", F_STR },
	{ "Serial", "serial", F_STR },
	{ "Firmware", "firmware", F_STR },
	{ "Device", "device", F_STR },
	{ "Capacity", "capacity", F_BYTES },
	{ "Span tested", "span_bytes", F_BYTES },
	{ "The run began", "began", F_STR },
	{ "Written by the host (TBW)", "host_bytes_written", F_BYTES },
	{ "of it by checkpoint probes", "probe_bytes_written", F_BYTES },
	{ "Rated endurance (rated_tbw)", "rated_tbw_bytes", F_BYTES },
	{ "of it written", "rated_share_percent", F_SHARE },
	{ "Read by the host", "host_bytes_read", F_BYTES },
	{ "Cycles done", "cycles_done", F_INT },
	{ "Power losses", "power_losses", F_INT },
	{ "of them power cuts on purpose", "power_cuts", F_INT },
	{ "Unflushed writes kept through them", "unflushed_kept", F_INT },
	{ "Percent used (SMART)", "percent_used", F_PCT },
	{ "Endurance at 100 % used, at this rate", "projected_endurance_bytes",
	    F_BYTES },
	{ "Available spare", "available_spare", F_PCT },
	{ "Write amplification", "waf", F_NUM },
	{ "Temperature", "temperature_c", F_TEMP },
	{ "Media errors (SMART)", "media_errors", F_INT },
};

/* The columns of several drives' summary. */
static const struct field row_fields[] = {
	{ "Drive", "name", F_STR },
	{ "Model", "model", F_STR },
	{ "Serial", "serial", F_STR },
	{ "State", "state", F_STR },
	{ "TBW", "host_bytes_written", F_BYTES },
	{ "Of rated", "rated_share_percent", F_SHARE },
	{ "Used", "percent_used", F_PCT },
	{ "Spare", "available_spare", F_PCT },
	{ "WAF", "waf", F_NUM },
	{ "Verify errors", "errors_total", F_INT },
};

static const struct field snapshot_fields[] = {
	{ "Time", "time", F_TIME },
	{ "Why", "why", F_STR },
	{ "TBW", "host_bytes_written", F_BYTES },
	{ "Used", "percent_used", F_PCT },
	{ "Spare", "available_spare", F_PCT },
	{ "Temp.", "temperature_c", F_TEMP },
	{ "Media errors", "media_errors", F_INT },
	{ "Reallocated", "reallocated", F_INT },
	{ "Device written", "device_bytes_written", F_BYTES },
	{ "NAND written", "nand_bytes_written", F_BYTES },
	{ "WAF", "waf", F_NUM },
	{ "Write speed", "write_bytes_per_sec", F_RATE },
	{ "Unsafe shutdowns", "unsafe_shutdowns", F_INT },
};

static const char *const lat_cols[] = { "mean", "p50", "p90", "p99",
	"p99.9", "p99.99", "max" };

/* A figure to three digits or more; e-notation only past 10^15 (a
 * damaged record's, which must not stretch a printed table). */
static void
number(FILE *fp, double v)
{
	double	a = fabs(v);

	fprintf(fp, a >= 1e15 ? "%.3g" : a >= 100 ? "%.0f" : a >= 10 ? "%.1f" :
	    a >= 1 ? "%.2f" : "%.3g", v);
}

/* Is v a number the format can show (bytes: from 0 to 2^64; a
 * temperature: from absolute zero to 1000 C)? */
static int
in_range(json_object *v, enum fmt f)
{
	double	d = json_object_get_double(v);

	if (!rj_is_num(v) || !isfinite(d))
		return 0;
	if (f == F_BYTES || f == F_RATE)
		return d >= 0 && d < 0x1p64;
	return f != F_TEMP || (d >= -273.15 && d <= 1000);
}

/* One value as a person reads it; "unknown" when it is not known. */
static void
value(FILE *fp, json_object *v, enum fmt f)
{
	char		buf[64];
	time_t		t;
	struct tm	tm;

	if (f == F_STR) {
		html_text(fp, json_object_get_string(v) != NULL &&
		    *json_object_get_string(v) != '\0' ?
		    json_object_get_string(v) : "unknown");
		return;
	}
	if (!in_range(v, f)) {
		fputs("<span class=\"none\">unknown</span>", fp);
		return;
	}
	switch (f) {
	case F_BYTES:
		fputs(units_fmt_dec((uint64_t)json_object_get_double(v), buf,
		    sizeof(buf)), fp);
		break;
	case F_RATE:
		fprintf(fp, "%s/s", units_fmt_dec((uint64_t)
		    json_object_get_double(v), buf, sizeof(buf)));
		break;
	case F_PCT: fprintf(fp, "%.4g %%", json_object_get_double(v)); break;
	case F_SHARE:	/* of a rating: the multiple past 1000 % */
		fputs(output_share(json_object_get_double(v), buf, sizeof(buf)),
		    fp);
		break;
	case F_NUM: number(fp, json_object_get_double(v)); break;
	case F_TEMP: fprintf(fp, "%.0f &deg;C", json_object_get_double(v));
		break;
	case F_TIME:
		t = (time_t)json_object_get_int64(v);
		if (gmtime_r(&t, &tm) == NULL ||
		    strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M", &tm) == 0)
			fputs("<span class=\"none\">unknown</span>", fp);
		else
			fputs(buf, fp);
		break;
	default:
		fprintf(fp, "%" PRId64, json_object_get_int64(v));
	}
}

static void
verify_errors(FILE *fp, json_object *m)
{
	json_object	*e = rj_get(m, "errors"), *total = rj_get(m, "errors_total");
	int		 first = 1;

	fprintf(fp, "<tr><th class=\"l\">Verify errors</th><td class=\"l\">"
	    "<span class=\"%s\">", json_object_get_int64(total) > 0 ?
	    "bad" : "");
	value(fp, total, F_INT);
	fputs("</span>", fp);
	if (json_object_is_type(e, json_type_object)) {
		json_object_object_foreach(e, cls, n) {
			/* torn blocks are no verify errors: told below */
			if (json_object_get_int64(n) == 0 ||
			    strcmp(cls, blk_class_name(BLK_TORN)) == 0)
				continue;
			fputs(first ? ": " : ", ", fp);
			html_text(fp, cls);
			fputc(' ', fp);
			value(fp, n, F_INT);
			first = 0;
		}
	}
	if (json_object_get_int64(rj_get(e, blk_class_name(BLK_TORN))) > 0) {
		fputs("; torn blocks ", fp);
		value(fp, rj_get(e, blk_class_name(BLK_TORN)), F_INT);
		fputs(" (writes a crash or power loss cut: not counted)", fp);
	}
	fprintf(fp, "</td></tr>\n");
}

void
rt_summary(FILE *fp, json_object *m)
{
	json_object	*fail = rj_get(m, "failure");
	size_t		 i;

	fprintf(fp, "<table class=\"summary\">\n<tr><th class=\"l\">State"
	    "</th><td class=\"l\">");
	value(fp, rj_get(m, "state"), F_STR);
	if (json_object_get_string(rj_get(m, "reason")) != NULL &&
	    *json_object_get_string(rj_get(m, "reason")) != '\0') {
		fputs(": ", fp);
		html_text(fp, json_object_get_string(rj_get(m, "reason")));
	}
	fprintf(fp, "</td></tr>\n");
	for (i = 0; i < sizeof(summary_fields) / sizeof(*summary_fields); i++) {
		fprintf(fp, "<tr><th class=\"l\">%s</th><td class=\"l\">",
		    summary_fields[i].label);
		value(fp, rj_get(m, summary_fields[i].key), summary_fields[i].fmt);
		fprintf(fp, "</td></tr>\n");
	}
	verify_errors(fp, m);
	fprintf(fp, "<tr><th class=\"l\">Failure</th><td class=\"l\">");
	if (fail == NULL)
		fputs("none", fp);
	else {
		fputs("<span class=\"bad\">failed at ", fp);
		value(fp, rj_get(fail, "host_bytes_written"), F_BYTES);
		fputs(" written</span>, ", fp);
		value(fp, rj_get(fail, "time"), F_STR);
		fputs(": ", fp);
		value(fp, rj_get(fail, "cause"), F_STR);
	}
	fprintf(fp, "</td></tr>\n</table>\n");
}

/* Most SMART snapshots a table shows: the first, the latest, and evenly
 * between (a drive of years has thousands; --json has them all). */
#define SNAP_ROWS	60

/* The row of `rows` (n) a table of at most `max` shows as its i-th. */
static size_t
thinned(size_t i, size_t n, size_t max)
{
	return n <= max ? i : (size_t)llround((double)i * (double)(n - 1) /
	    (double)(max - 1));
}

/* A table of `fields` with a row per object of `rows` (at most `max`). */
static void
grid(FILE *fp, const struct field *fields, size_t nf, json_object *rows,
    size_t max)
{
	size_t	i, k, n = json_object_array_length(rows);
	size_t	shown = n < max ? n : max;

	fprintf(fp, "<table>\n<tr>");
	for (k = 0; k < nf; k++)
		fprintf(fp, "<th%s>%s</th>", fields[k].fmt == F_STR ?
		    " class=\"l\"" : "", fields[k].label);
	fprintf(fp, "</tr>\n");
	for (i = 0; i < shown; i++) {
		fprintf(fp, "<tr>");
		for (k = 0; k < nf; k++) {
			fprintf(fp, "<td%s>", fields[k].fmt == F_STR ?
			    " class=\"l\"" : "");
			value(fp, rj_get(json_object_array_get_idx(rows,
			    thinned(i, n, max)), fields[k].key), fields[k].fmt);
			fprintf(fp, "</td>");
		}
		fprintf(fp, "</tr>\n");
	}
	fprintf(fp, "</table>\n");
	if (shown < n)
		fprintf(fp, "<p class=\"none\">%zu of %zu shown: the first, the "
		    "latest and evenly between (--json has all).</p>\n", shown,
		    n);
}

void
rt_summary_rows(FILE *fp, json_object *models)
{
	grid(fp, row_fields, sizeof(row_fields) / sizeof(*row_fields), models,
	    SIZE_MAX);
}

void
rt_snapshots(FILE *fp, json_object *m)
{
	grid(fp, snapshot_fields, sizeof(snapshot_fields) /
	    sizeof(*snapshot_fields), rj_get(m, "snapshots"), SNAP_ROWS);
}

/* The columns shown: the first checkpoint and the latest CKPT_COLS - 1. */
static int
col_shown(size_t k, size_t n)
{
	return k == 0 || k + (CKPT_COLS - 1) >= n;
}

/* The heading row: a column per checkpoint shown, its TB written. */
static void
probes_head(FILE *fp, json_object *cols)
{
	size_t	k, n = json_object_array_length(cols);
	char	tb[32];

	fprintf(fp, "<table>\n<tr><th class=\"l\">Probe</th><th>Unit</th>");
	for (k = 0; k < n; k++) {
		json_object *c = json_object_array_get_idx(cols, k);

		if (!col_shown(k, n))
			continue;
		ckpt_tbw(json_object_get_double(rj_get(c, "host_bytes_written")),
		    tb, sizeof(tb));
		fprintf(fp, "<th>#%" PRId64 "<br>%s</th>",
		    json_object_get_int64(rj_get(c, "checkpoint")), tb);
	}
	fprintf(fp, "<th>Change</th><th class=\"l\">Flags</th></tr>\n");
}

/* A probe's row: its figures at the checkpoints shown, change, flags. */
static void
probe_row(FILE *fp, json_object *r, size_t ncols)
{
	json_object	*vals = rj_get(r, "values"), *fl = rj_get(r, "flags");
	json_object	*v;
	size_t		 k;

	fprintf(fp, "<tr%s><td class=\"l\">", json_object_array_length(fl) >
	    0 ? " class=\"flag\"" : "");
	html_text(fp, json_object_get_string(rj_get(r, "probe")));
	fprintf(fp, "</td><td>");
	html_text(fp, json_object_get_string(rj_get(r, "unit")));
	fprintf(fp, "</td>");
	for (k = 0; k < ncols; k++)
		if (col_shown(k, ncols)) {
			v = json_object_array_get_idx(vals, k);
			fprintf(fp, "<td>");
			if (rj_is_no_knee(v))
				fputs(RJ_NO_KNEE, fp);
			else
				value(fp, v, F_NUM);
			fprintf(fp, "</td>");
		}
	fprintf(fp, "<td>");
	if (in_range(rj_get(r, "change_percent"), F_NUM))
		fprintf(fp, "%+.1f %%", json_object_get_double(rj_get(r,
		    "change_percent")));
	else
		fputs("-", fp);
	fprintf(fp, "</td><td class=\"l\">");
	if (rj_get(r, "void") != NULL) {	/* not a regression: no figure */
		fputs("void: ", fp);
		html_text(fp, json_object_get_string(rj_get(r, "void")));
	}
	for (k = 0; k < json_object_array_length(fl); k++) {
		fputs(k ? ", " : "", fp);
		html_text(fp, json_object_get_string(
		    json_object_array_get_idx(fl, k)));
	}
	if (json_object_get_boolean(rj_get(r, "host_busy")))	/* a note */
		fprintf(fp, "%shost busy (the I/O thread waited for a CPU much "
		    "of the window)", k ? ", " : "");
	fprintf(fp, "</td></tr>\n");
}

void
rt_probes(FILE *fp, json_object *m)
{
	json_object	*cols = rj_get(m, "checkpoints"), *rows = rj_get(m, "probes");
	size_t		 i;

	probes_head(fp, cols);
	for (i = 0; i < json_object_array_length(rows); i++)
		probe_row(fp, json_object_array_get_idx(rows, i),
		    json_object_array_length(cols));
	fprintf(fp, "</table>\n");
}

static void
lat_row(FILE *fp, json_object *r, const char *dir, const char *key)
{
	json_object	*l = rj_get(r, key);
	size_t		 k;

	if (l == NULL)
		return;
	fprintf(fp, "<tr><td class=\"l\">");
	html_text(fp, json_object_get_string(rj_get(r, "probe")));
	fprintf(fp, "</td><td class=\"l\">%s</td>", dir);
	for (k = 0; k < sizeof(lat_cols) / sizeof(*lat_cols); k++) {
		fprintf(fp, "<td>");
		value(fp, rj_get(l, lat_cols[k]), F_NUM);
		fprintf(fp, "</td>");
	}
	fprintf(fp, "</tr>\n");
}

void
rt_latency(FILE *fp, json_object *m)
{
	json_object	*rows = rj_get(m, "probes");
	size_t		 i, k;

	fprintf(fp, "<table>\n<tr><th class=\"l\">Probe</th><th class=\"l\">"
	    "Direction</th>");
	for (k = 0; k < sizeof(lat_cols) / sizeof(*lat_cols); k++)
		fprintf(fp, "<th>%s (&micro;s)</th>", lat_cols[k]);
	fprintf(fp, "</tr>\n");
	for (i = 0; i < json_object_array_length(rows); i++) {
		lat_row(fp, json_object_array_get_idx(rows, i), "read",
		    "read_lat_us");
		lat_row(fp, json_object_array_get_idx(rows, i), "write",
		    "write_lat_us");
	}
	fprintf(fp, "</table>\n");
}

/* A figure of a long test: a number, a flag, or an object of them
 * ("throughput 0.98, p99.9 1.06"). */
static void
figure(FILE *fp, json_object *v)
{
	int	first = 1;

	if (rj_is_num(v))
		number(fp, json_object_get_double(v));
	else if (json_object_is_type(v, json_type_object)) {
		json_object_object_foreach(v, k, x) {
			fprintf(fp, "%s", first ? "" : ", ");
			html_text(fp, k);
			fputc(' ', fp);
			figure(fp, x);
			first = 0;
		}
	} else
		html_text(fp, v == NULL ? "unknown" :
		    json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
}

/* A long test's figures, each "name value". */
void
rt_long(FILE *fp, json_object *m)
{
	json_object	*rows = rj_get(m, "long_tests"), *r;
	size_t		 i;
	int		 first;

	fprintf(fp, "<table>\n<tr><th class=\"l\">Test</th><th>Checkpoint"
	    "</th><th>TBW</th><th class=\"l\">Figures</th></tr>\n");
	for (i = 0; i < json_object_array_length(rows); i++) {
		r = json_object_array_get_idx(rows, i);
		fprintf(fp, "<tr><td class=\"l\">%s</td><td>",
		    json_object_get_string(rj_get(r, "probe")));
		value(fp, rj_get(r, "checkpoint"), F_INT);
		fprintf(fp, "</td><td>");
		value(fp, rj_get(r, "host_bytes_written"), F_BYTES);
		fprintf(fp, "</td><td class=\"l\">");
		first = 1;
		json_object_object_foreach(r, k, v) {
			if (!strcmp(k, "probe") || !strcmp(k, "checkpoint") ||
			    !strcmp(k, "host_bytes_written"))
				continue;
			fprintf(fp, "%s%s ", first ? "" : "; ", k);
			figure(fp, v);
			first = 0;
		}
		fprintf(fp, "</td></tr>\n");
	}
	fprintf(fp, "</table>\n");
}

void
rt_events(FILE *fp, json_object *m)
{
	json_object	*rows = rj_get(m, "events"), *e;
	size_t		 i;

	fprintf(fp, "<table>\n<tr><th class=\"l\">Time</th><th class=\"l\">"
	    "Event</th><th>TBW</th><th class=\"l\">What</th></tr>\n");
	for (i = 0; i < json_object_array_length(rows); i++) {
		e = json_object_array_get_idx(rows, i);
		fprintf(fp, "<tr><td class=\"l\">");
		value(fp, rj_get(e, "time"), F_STR);
		fprintf(fp, "</td><td class=\"l\">");
		value(fp, rj_get(e, "event"), F_STR);
		fprintf(fp, "</td><td>");
		value(fp, rj_get(e, "host_bytes_written"), F_BYTES);
		fprintf(fp, "</td><td class=\"l\">");
		value(fp, rj_get(e, "message"), F_STR);
		fprintf(fp, "</td></tr>\n");
	}
	fprintf(fp, "</table>\n");
	if (json_object_get_int64(rj_get(m, "events_not_listed")) > 0)
		fprintf(fp, "<p class=\"none\">%" PRId64 " older ones not "
		    "listed.</p>\n", json_object_get_int64(rj_get(m,
		    "events_not_listed")));
}
