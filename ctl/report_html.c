/*
 * report_html.c: the report page, rendered from the models alone
 * (report_model.c): one self-contained HTML5 file, its styles inline, its
 * figures inline SVG (report_fig.c), no script; readable printed on A4.
 * Written to FILE.tmp, then renamed over FILE.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ckpt.h"
#include "palette.h"
#include "proto.h"
#include "report_fig.h"
#include "report_html.h"
#include "report_model.h"
#include "report_tables.h"

static const char style[] =
    "body{font-family:'" PAL_FONT "',Verdana,sans-serif;color:" PAL_INK ";"
    "margin:1.5em auto;max-width:62em;padding:0 1em;line-height:1.35}"
    "h1{font-size:1.6em;margin-bottom:.2em}"
    "h2{font-size:1.3em;border-bottom:2px solid " BLUE ";padding-bottom:.2em;"
    "margin-top:2em}"
    "h3{font-size:1.05em;margin:1.4em 0 .4em}"
    ".meta{color:" PAL_AXIS ";font-size:.9em}"
    "table{border-collapse:collapse;font-size:.85em;margin:.4em 0 1em}"
    "th,td{border:1px solid " PAL_GRID ";padding:.2em .5em;text-align:right}"
    "th{background:#F4F4F4}td.l,th.l{text-align:left}"
    "tr.flag td{background:#FBE3D6}"
    "figure{margin:.5em 0 1.2em;break-inside:avoid}"
    "figure svg{max-width:100%;height:auto;display:block}"
    "figcaption{font-size:.85em;color:" PAL_AXIS "}"
    ".nofig,.none{color:" PAL_AXIS ";font-style:italic}"
    ".bad{color:" RED ";font-weight:bold}"
    "section.drive{break-before:page}"
    "@page{size:A4;margin:12mm}"
    "@media print{body{max-width:none;margin:0;padding:0;font-size:10pt}"
    "table{font-size:7pt}th,td{padding:.1em .25em}"
    "h2,h3{break-after:avoid}}";

static const char *
str(json_object *o, const char *key)
{
	const char	*s = json_object_get_string(rj_get(o, key));

	return s != NULL ? s : "";
}

static void
head(FILE *fp, json_object *r)
{
	json_object	*drives = rj_get(r, "drives");
	size_t		 i, n = json_object_array_length(drives);
	char		 when[64];
	time_t		 t = (time_t)json_object_get_int64(rj_get(r, "generated"));

	fprintf(fp, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n"
	    "<meta name=\"generator\" content=\"ssdctl %s\">\n<title>",
	    PROTO_VERSION);
	fprintf(fp, "ssdtorture report: ");
	for (i = 0; i < n; i++) {
		fprintf(fp, "%s", i ? ", " : "");
		html_text(fp, str(json_object_array_get_idx(drives, i), "name"));
	}
	fprintf(fp, "</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n"
	    "<h1>ssdtorture report</h1>\n<p class=\"meta\">", style);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&t));
	fprintf(fp, "%zu drive%s, written %s by ssdctl %s from ", n,
	    n == 1 ? "" : "s", when, PROTO_VERSION);
	html_text(fp, str(r, "source"));
	fprintf(fp, ".</p>\n</header>\n");
}

/* Several drives: the summary rows, each probe's bars, wear curves. */
static void
side_by_side(FILE *fp, struct figs *f, json_object *r)
{
	json_object	*drives = rj_get(r, "drives"), *cmp = rj_get(r, "comparison");
	json_object	*probes = rj_get(cmp, "probes"), *p;
	size_t		 i;
	char		 cap[256];

	fprintf(fp, "<section id=\"drives\">\n<h2>Drives</h2>\n");
	rt_summary_rows(fp, drives);
	fprintf(fp, "<h3>Wear against TB written</h3>\n");
	fig_wear(f, drives, "SMART percent used at each snapshot, a curve "
	    "per drive.");
	fprintf(fp, "<h3>Performance at checkpoint: %s</h3>\n",
	    strcmp(str(cmp, "at"), "0") == 0 ? "the first" : str(cmp, "at"));
	if (json_object_array_length(probes) == 0)
		fprintf(fp, "<p class=\"none\">No drive has a performance "
		    "checkpoint yet.</p>\n");
	for (i = 0; i < json_object_array_length(probes); i++) {
		p = json_object_array_get_idx(probes, i);
		snprintf(cap, sizeof(cap), "%s: %s, one bar per drive at the "
		    "milestone.", str(p, "probe"), str(p, "unit"));
		fig_bars(f, p, cap);
	}
	fprintf(fp, "</section>\n");
}

/* A section heading, and whether the drive has what it shows. */
static int
sub(FILE *fp, const char *id, const char *name, const char *title, int have,
    const char *none)
{
	fprintf(fp, "<section id=\"");
	html_text(fp, name);
	fprintf(fp, "-%s\">\n<h3>%s</h3>\n", id, title);
	if (!have) {
		fprintf(fp, "<p class=\"none\">");
		html_text(fp, none);
		fprintf(fp, "</p>\n");
	}
	return have;
}

/* Why the drive's records `key` (events, snapshots, checkpoints) were
 * left out, as "Not read: ...", in buf; NULL when they were read. */
static const char *
unread(json_object *m, const char *key, char *buf, size_t len)
{
	json_object	*why = rj_get(rj_get(m, "unread"), key);

	if (!json_object_is_type(why, json_type_string))
		return NULL;
	snprintf(buf, len, "Not read: %s.", json_object_get_string(why));
	return buf;
}

/* Has the drive a line of the long test `probe`? */
static int
has_long(json_object *m, const char *probe)
{
	json_object	*a = rj_get(m, "long_tests");
	size_t		 i;

	for (i = 0; i < rj_len(rj_get(m, "long_tests")); i++)
		if (strcmp(str(json_object_array_get_idx(a, i), "probe"),
		    probe) == 0)
			return 1;
	return 0;
}

/* The drive's performance: the graph, the table, the long tests. */
static void
drive_performance(FILE *fp, struct figs *f, json_object *m, const char *nm)
{
	int		 have = rj_len(rj_get(m, "probes")) > 0;
	char		 buf[640];
	const char	*why = unread(m, "checkpoints", buf, sizeof(buf));

	if (sub(fp, "performance", nm, "Performance against TB written", have,
	    why != NULL ? why : "No performance checkpoint has run yet "
	    "(checkpoint = quick or full).")) {
		fig_graph(f, m, "checkpoints", NULL, "The main probes' headline "
		    "figures at each checkpoint; flagged points (below 0.8 of "
		    "the first or p99.9 above twice it) are regressions.");
		rt_probes(fp, m);
	}
	fprintf(fp, "</section>\n");
	if (sub(fp, "latency", nm, "Latency percentiles, latest checkpoint",
	    have, why != NULL ? why : "No performance checkpoint has run yet."))
		rt_latency(fp, m);
	fprintf(fp, "</section>\n");
	if (sub(fp, "long", nm, "Degradation, recovery and the long tests",
	    rj_len(rj_get(m, "long_tests")) > 0, why != NULL ? why : "No long "
	    "test or aged-data read has run yet (checkpoint = full; the "
	    "aged-data reads at every checkpoint).")) {
		if (has_long(m, "degrade"))
			fig_graph(f, m, "degradation", NULL, "4 KiB random "
			    "writes at QD32: each second's IOPS and the 30 s "
			    "average, then the recovery runs.");
		else
			fprintf(fp, "<p class=\"none\">No degradation run yet "
			    "(checkpoint = full).</p>\n");
		rt_long(fp, m);
	}
	fprintf(fp, "</section>\n");
}

/* One drive's part of the page. */
static void
drive_section(FILE *fp, struct figs *f, json_object *m, int several)
{
	const char	*nm = str(m, "name"), *why;
	json_object	*one = json_object_new_array();
	char		 buf[640];

	fprintf(fp, "<section class=\"%s\" id=\"drive-", several ? "drive" :
	    "only");
	html_text(fp, nm);
	fprintf(fp, "\">\n<h2>");
	html_text(fp, nm);
	fprintf(fp, "</h2>\n");
	rt_summary(fp, m);
	sub(fp, "tbw", nm, "TB written over time", 1, "");
	fig_graph(f, m, "tbw", NULL, "Host bytes written, from the archive.");
	fprintf(fp, "</section>\n");
	why = unread(m, "snapshots", buf, sizeof(buf));
	if (sub(fp, "wear", nm, "Wear and spare against TB written",
	    why == NULL, why)) {
		json_object_array_add(one, json_object_get(m));
		fig_wear(f, one, "SMART percent used and available spare at "
		    "each snapshot.");
	}
	json_object_put(one);
	fprintf(fp, "</section>\n");
	drive_performance(fp, f, m, nm);
	sub(fp, "cache", nm, "Write cache (SLC) against TB written", 1, "");
	fig_graph(f, m, "slc", NULL, "Each kept write pass's cache estimate.");
	fig_graph(f, m, "timeline", NULL, "Write speed against GB written in "
	    "the first and the latest pass, the estimated cache marked.");
	fprintf(fp, "</section>\n");
	sub(fp, "temperature", nm, "Temperature and throttling", 1, "");
	fig_graph(f, m, "temperature", NULL, "SMART temperature, from the "
	    "archive; throttle events marked.");
	fprintf(fp, "</section>\n");
	if (sub(fp, "smart", nm, "SMART snapshots",
	    rj_len(rj_get(m, "snapshots")) > 0, why != NULL ? why : "No SMART "
	    "reading (a file target, or none taken yet)."))
		rt_snapshots(fp, m);
	fprintf(fp, "</section>\n");
	why = unread(m, "events", buf, sizeof(buf));
	if (sub(fp, "events", nm, "Events that matter, newest first",
	    rj_len(rj_get(m, "events")) > 0, why != NULL ? why : "None: no "
	    "failure, verify error, throttling or SMART mismatch recorded."))
		rt_events(fp, m);
	fprintf(fp, "</section>\n</section>\n");
}

static int
render(FILE *fp, json_object *r, const struct report_src *src)
{
	json_object	*drives = rj_get(r, "drives");
	size_t		 i, n = json_object_array_length(drives);
	struct figs	 f;

	if (figs_open(&f, src, fp) == -1)
		return -1;
	head(fp, r);
	fprintf(fp, "<main>\n");
	if (n > 1)
		side_by_side(fp, &f, r);
	for (i = 0; i < n; i++)
		drive_section(fp, &f, json_object_array_get_idx(drives, i),
		    n > 1);
	fprintf(fp, "</main>\n</body>\n</html>\n");
	figs_close(&f);
	return ferror(fp) ? -1 : 0;
}

int
report_html(const char *out, json_object *r, const struct report_src *src)
{
	char	tmp[4096];
	FILE	*fp = NULL;
	int	 rc, fd = -1;

	/* a new file beside it (never one planted there), renamed over it */
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", out) >= (int)sizeof(tmp) ||
	    (fd = mkostemp(tmp, O_CLOEXEC)) == -1 ||
	    fchmod(fd, 0644) == -1 || (fp = fdopen(fd, "w")) == NULL) {
		fprintf(stderr, "ssdctl report: %s: %s\n", out,
		    strerror(errno));
		if (fd != -1) {
			close(fd);
			unlink(tmp);
		}
		return 1;
	}
	rc = render(fp, r, src);
	if (fclose(fp) == EOF || rc == -1 || rename(tmp, out) == -1) {
		fprintf(stderr, "ssdctl report: %s: %s\n", out,
		    strerror(errno));
		unlink(tmp);
		return 1;
	}
	return 0;
}
