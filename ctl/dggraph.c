/*
 * dggraph.c: the degradation run and its recoveries through gnuplot
 * (dggraph.h). The x axis is minutes from the run's start; each run
 * after the degradation run begins where the one before ended, a gap of
 * DG_GAP_S between (the idle time and the TRIM are not to scale). Points
 * and averages differ by shape and dash as well as colour.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "degrade.h"
#include "dggraph.h"
#include "gnuplot.h"
#include "palette.h"

#define DG_GAP_S	60	/* seconds drawn between two runs */

/* The runs in the order drawn, and how each looks. */
static const struct {
	const char	*step, *title, *colour;
	int		 pt;
} runs[] = {
	{ "degrade", "4 KiB random write QD32", BLUE, 7 },
	{ "recover-idle", "after idle time", GREEN, 5 },
	{ "recover-trim", "after TRIM", ORANGE, 9 },
};
#define NRUNS	(sizeof(runs) / sizeof(runs[0]))

/* The series of a step in the checkpoint's, or NULL. */
static json_object *
series_of(json_object *all, const char *step)
{
	json_object	*o, *v;
	size_t		 i;

	for (i = 0; i < json_object_array_length(all); i++) {
		o = json_object_array_get_idx(all, i);
		if (json_object_object_get_ex(o, "step", &v) &&
		    strcmp(json_object_get_string(v), step) == 0)
			return o;
	}
	return NULL;
}

/* The IOPS of a series: n figures, NULL when it has none. */
static double *
iops_of(json_object *s, size_t *n)
{
	json_object	*a;
	double		*v;
	size_t		 i;

	*n = 0;
	if (s == NULL || !json_object_object_get_ex(s, "iops", &a) ||
	    (*n = json_object_array_length(a)) == 0 ||
	    (v = malloc(*n * sizeof(*v))) == NULL)
		return NULL;
	for (i = 0; i < *n; i++)
		v[i] = json_object_get_double(json_object_array_get_idx(a, i));
	return v;
}

/* One block per run ("minute IOPS average"), blank lines between; the
 * runs' block numbers into idx (-1: not there). 0, or -1 with errno. */
static int
write_data(const char *path, json_object *all, int idx[NRUNS], size_t *nb)
{
	FILE	*fp = fopen(path, "we");
	double	*v, *avg;
	size_t	 r, i, n;
	double	 x0 = 0;

	if (fp == NULL)
		return -1;
	*nb = 0;
	for (r = 0; r < NRUNS; r++) {
		idx[r] = -1;
		if ((v = iops_of(series_of(all, runs[r].step), &n)) == NULL)
			continue;
		if ((avg = malloc(n * sizeof(*avg))) != NULL) {
			degrade_moving_avg(v, n, DEGRADE_AVG_S, avg);
			fprintf(fp, "%s", *nb > 0 ? "\n\n" : "");
			for (i = 0; i < n; i++)
				fprintf(fp, "%.6g %.9g %.9g\n",
				    (x0 + (double)i + 1) / 60, v[i], avg[i]);
			idx[r] = (int)(*nb)++;
			x0 += (double)n + DG_GAP_S;
		}
		free(avg);
		free(v);
	}
	return fclose(fp) == EOF ? -1 : 0;
}

static int
write_script(const struct dggraph_in *in, const struct gp_files *f,
    const int idx[NRUNS])
{
	FILE	*fp = fopen(f->script, "we");
	size_t	 r;
	int	 first = 1;

	if (fp == NULL)
		return -1;
	gp_head(fp, in->svg, in->width, in->height, in->out, in->title,
	    "minutes");
	fprintf(fp, "set xrange [0:*]\nset yrange [0:*]\n"
	    "set ylabel 'IOPS' textcolor rgb '" PAL_INK "'\nplot ");
	for (r = 0; r < NRUNS; r++) {
		if (idx[r] < 0)
			continue;
		fprintf(fp, "%s", first ? "" : ", \\\n     ");
		first = 0;
		gp_quoted(fp, f->data);
		fprintf(fp, " index %d using 1:2 with points pt %d ps 0.3 "
		    "lc rgb '%s' title ", idx[r], runs[r].pt, runs[r].colour);
		gp_quoted(fp, runs[r].title);
		fprintf(fp, ", \\\n     ");
		gp_quoted(fp, f->data);
		fprintf(fp, " index %d using 1:3 with lines lw 2 dt %d lc rgb "
		    "'" PAL_INK "' title ", idx[r], (int)r + 1);
		gp_quoted(fp, r == 0 ? "30 s average" : "");
	}
	fprintf(fp, "\n");
	return fclose(fp) == EOF ? -1 : 0;
}

int
dggraph_draw(const struct dggraph_in *in)
{
	struct gp_files	f;
	int		idx[NRUNS], rc = 1;
	size_t		nb;

	if (gp_files_make(&f) == -1)
		return 1;
	if (write_data(f.data, in->series, idx, &nb) == -1 ||
	    (nb > 0 && write_script(in, &f, idx) == -1))
		fprintf(stderr, "ssdctl graph: %s: %s\n", f.dir,
		    strerror(errno));
	else if (nb == 0)
		fprintf(stderr, "ssdctl graph: no degradation run recorded "
		    "(checkpoint = full)\n");
	else
		rc = gp_run(f.script, "--what degradation");
	gp_files_remove(&f);
	return rc;
}
