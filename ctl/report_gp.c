/*
 * report_gp.c: the report's own graphs, drawn by gnuplot in the style of
 * ssdctl graph (gnuplot.h, palette.h): wear against the TB written (a
 * curve per drive; one drive's spare beside it) and, for several drives,
 * a probe's figure at a milestone as one bar per drive.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gnuplot.h"
#include "palette.h"
#include "report_gp.h"
#include "report_model.h"

static const char *const series_colour[] = { PAL_SERIES };

/* o[key] as a string; `def` when it is none. */
static const char *
str_or(json_object *o, const char *key, const char *def)
{
	json_object	*v = rj_get(o, key);

	return json_object_is_type(v, json_type_string) ?
	    json_object_get_string(v) : def;
}
#define NCOLOURS	(sizeof(series_colour) / sizeof(*series_colour))

/* One block per drive (then its spare, for one drive): "TB percent". */
static size_t
wear_data(FILE *fp, json_object *models, int spare)
{
	json_object	*snaps, *s, *y;
	size_t		 d, i, n = 0, mine;
	const char	*field = spare ? "available_spare" : "percent_used";

	for (d = 0; d < json_object_array_length(models); d++) {
		snaps = rj_get(json_object_array_get_idx(models, d), "snapshots");
		mine = n;
		for (i = 0; i < json_object_array_length(snaps); i++) {
			s = json_object_array_get_idx(snaps, i);
			if (!rj_is_num(y = rj_get(s, field)))
				continue;
			fprintf(fp, "%.9g %.9g\n", json_object_get_double(rj_get(s,
			    "host_bytes_written")) / 1e12,
			    json_object_get_double(y));
			n++;
		}
		fprintf(fp, "%s\n\n", n > mine ? "" : "nan nan\n");
	}
	return n;
}

static void
wear_script(FILE *fp, const char *out, const char *data, json_object *models,
    int spare)
{
	size_t	d, n = json_object_array_length(models);

	gp_head(fp, 1, 900, 330, out, n == 1 ? "wear against TB written" :
	    "wear of each drive against TB written", "TB written (host)");
	fprintf(fp, "set ylabel 'percent' textcolor rgb '" PAL_INK "'\n"
	    "set yrange [0:*]\nplot ");
	for (d = 0; d < n; d++) {
		fprintf(fp, "%s", d ? ", " : "");
		gp_quoted(fp, data);
		fprintf(fp, " index %zu using 1:2 with linespoints pt 7 "
		    "ps 0.5 lw 2 lc rgb '%s' title ", d,
		    series_colour[d % NCOLOURS]);
		gp_quoted(fp, n == 1 ? "percent used" : str_or(
		    json_object_array_get_idx(models, d), "name", "?"));
	}
	if (spare) {
		fprintf(fp, ", ");
		gp_quoted(fp, data);
		fprintf(fp, " index 1 using 1:2 with linespoints pt 5 ps 0.5 "
		    "lw 2 dt 2 lc rgb '%s' title 'available spare'",
		    series_colour[1]);
	}
	fprintf(fp, "\n");
}

/* Write the script (the data is written) and run gnuplot on it. */
static int
run(struct gp_files *f, void (*script)(FILE *, const char *, const char *,
    json_object *, int), const char *out, json_object *models, int flag)
{
	FILE	*fp = fopen(f->script, "we");

	if (fp == NULL)
		return 1;
	script(fp, out, f->data, models, flag);
	return fclose(fp) == EOF ? 1 : gp_run(f->script, "the report");
}

int
rp_wear(const char *out, json_object *models)
{
	struct gp_files	 f;
	FILE		*fp;
	size_t		 n;
	int		 spare = 0, rc = 1;

	if (gp_files_make(&f) == -1)
		return 1;
	if ((fp = fopen(f.data, "we")) != NULL) {
		n = wear_data(fp, models, 0);
		if (json_object_array_length(models) == 1)
			spare = wear_data(fp, models, 1) > 0;
		if (fclose(fp) == 0 && n > 0)
			rc = run(&f, wear_script, out, models, spare);
		else if (n == 0)
			fprintf(stderr, "no SMART wear reading in the "
			    "snapshots\n");
	}
	gp_files_remove(&f);
	return rc;
}

/* s as one quoted column of gnuplot's data file: no quote, no control. */
static const char *
gp_word(const char *s, char *buf, size_t len)
{
	size_t	i;

	for (i = 0; s[i] != '\0' && i + 1 < len; i++)
		buf[i] = s[i] == '"' || (unsigned char)s[i] < ' ' ? '_' : s[i];
	buf[i] = '\0';
	return buf;
}

/* A bar's label: the figure as the tables print it (12070, 812.5, 3.25),
 * never in e-notation short of a damaged record's 10^15; "no knee" for a
 * pass without one (its bar empty); "" without a figure. */
static void
bar_label(json_object *v, char *buf, size_t len)
{
	double	d = json_object_get_double(v), a = fabs(d);

	if (rj_is_no_knee(v))
		snprintf(buf, len, "%s", RJ_NO_KNEE);
	else if (!rj_is_num(v) || !isfinite(d))
		buf[0] = '\0';
	else
		snprintf(buf, len, a >= 1e15 ? "%.3g" : a >= 100 ? "%.0f" :
		    a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3g", d);
}

/* "index drive value label" lines: one bar each, in drive order. */
static size_t
bar_data(FILE *fp, json_object *probe)
{
	json_object	*bars = rj_get(probe, "drives"), *b, *v;
	size_t		 i, n = 0;
	char		 name[128], label[64];

	for (i = 0; i < json_object_array_length(bars); i++) {
		b = json_object_array_get_idx(bars, i);
		v = rj_get(b, "value");
		bar_label(v, label, sizeof(label));
		fprintf(fp, "%zu \"%s\" %.9g \"%s\"\n", i, gp_word(str_or(b,
		    "drive", "?"), name, sizeof(name)), rj_is_num(v) ?
		    json_object_get_double(v) : rj_is_no_knee(v) ? 0 : NAN,
		    label);
		n += rj_is_figure(v);
	}
	return n;
}

static void
bar_script(FILE *fp, const char *out, const char *data, json_object *probe,
    int ndrives)
{
	char	title[256];

	snprintf(title, sizeof(title), "%s (%s)", str_or(probe, "title",
	    str_or(probe, "probe", "?")), str_or(probe, "unit", "?"));
	gp_head(fp, 1, 900, 60 + 28 * (ndrives + 2), out, title, "");
	fprintf(fp, "unset key\nset style fill solid 0.85 border -1\n"
	    "set yrange [-0.7:%d.7] reverse\nset xrange [0:*]\n"
	    "set offsets 0, graph 0.12, 0, 0\nunset grid\n"
	    "set grid xtics lc rgb '" PAL_GRID "' lt 1\n"
	    "set palette defined (", ndrives - 1);
	for (int i = 0; i < ndrives; i++)
		fprintf(fp, "%s%d '%s'", i ? ", " : "", i,
		    series_colour[i % NCOLOURS]);
	fprintf(fp, ")\nset cbrange [0:%d]\nunset colorbox\nplot ",
	    ndrives > 1 ? ndrives - 1 : 1);
	gp_quoted(fp, data);
	fprintf(fp, " using (0):1:(0):($3):($1-0.35):($1+0.35):1:ytic(2) "
	    "with boxxyerror lc palette, '' using 3:1:4 "
	    "with labels left offset 0.5,0 textcolor rgb '" PAL_INK "'\n");
}

int
rp_bars(const char *out, json_object *probe)
{
	struct gp_files	 f;
	FILE		*fp;
	size_t		 n = 0;
	int		 rc = 1, nd = (int)json_object_array_length(rj_get(probe,
			    "drives"));

	if (gp_files_make(&f) == -1)
		return 1;
	if ((fp = fopen(f.data, "we")) != NULL) {
		n = bar_data(fp, probe);
		if (fclose(fp) == 0 && n > 0)
			rc = run(&f, bar_script, out, probe, nd);
		else if (n == 0)
			fprintf(stderr, "no drive has this probe at the "
			    "milestone\n");
	}
	gp_files_remove(&f);
	return rc;
}
