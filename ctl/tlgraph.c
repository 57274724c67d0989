/*
 * tlgraph.c: the write timelines through gnuplot. Each pass is a line of
 * its steps' speeds (MB/s; steps ended by one round of completions share
 * its time, as in the estimate) at the GB written in the pass; where the
 * pass showed a knee, a dashed vertical line of its colour marks the
 * estimated cache, and the key says its size. Lines differ by dash and
 * colour, for readers who do not tell the colours apart.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "palette.h"
#include "slc.h"
#include "tlgraph.h"

static const struct {
	const char	*colour;
	int		 dt;
} looks[TLGRAPH_PASSES_MAX] = {
	{ BLUE, 1 }, { ORANGE, 1 }, { GREEN, 1 }, { PURPLE, 1 },
	{ DARKBLUE, 3 }, { DARKGREEN, 3 }, { DARKPURPLE, 3 }, { RED, 3 },
};

static uint64_t
get_u64(json_object *o, const char *key)
{
	json_object	*v;

	return json_object_object_get_ex(o, key, &v) ?
	    (uint64_t)json_object_get_int64(v) : 0;
}

static double
jdouble(json_object *o, const char *key)
{
	json_object	*v;

	return json_object_object_get_ex(o, key, &v) ?
	    json_object_get_double(v) : NAN;
}

/* A pass's step times in ns (t_us scaled), n steps; NULL if unreadable. */
static uint64_t *
step_times(json_object *tl, size_t *n)
{
	json_object	*a;
	uint64_t	*t;
	size_t		 i, len;

	if (!json_object_object_get_ex(tl, "t_us", &a) ||
	    (len = json_object_array_length(a)) < 2 ||
	    (t = malloc(len * sizeof(*t))) == NULL)
		return NULL;
	for (i = 0; i < len; i++)
		t[i] = (uint64_t)json_object_get_int64(
		    json_object_array_get_idx(a, i)) * 1000;
	*n = len - 1;
	return t;
}

/* One block (gnuplot's index) of "GB MB/s" per step; 1 if none. */
static int
write_pass(FILE *fp, json_object *tl)
{
	uint64_t	 step = get_u64(tl, "step_bytes");
	uint64_t	 first = get_u64(tl, "first_step");
	uint64_t	*t;
	double		*bps;
	size_t		 n, i;
	int		 rc = 1;

	if ((t = step_times(tl, &n)) == NULL) {
		fprintf(fp, "nan nan\n\n\n");	/* its index all the same */
		return 1;
	}
	if ((bps = malloc(n * sizeof(*bps))) != NULL &&
	    slc_step_speeds(t, n, step, bps) == 0) {
		for (i = 0; i < n; i++)
			fprintf(fp, "%.9g %.9g\n",
			    (double)(first + i + 1) * (double)step / 1e9,
			    bps[i] / 1e6);
		rc = 0;
	}
	fprintf(fp, "%s\n\n", rc ? "nan nan\n" : "");
	free(bps);
	free(t);
	return rc;
}

static int
write_data(const char *path, json_object *tls)
{
	FILE	*fp = fopen(path, "we");
	size_t	 i, drawn = 0;

	if (fp == NULL)
		return -1;
	for (i = 0; i < json_object_array_length(tls); i++)
		drawn += write_pass(fp, json_object_array_get_idx(tls, i)) == 0;
	if (fclose(fp) == EOF)
		return -1;
	return drawn > 0 ? 0 : 1;
}

/* The key's words for a pass: which, and its cache estimate. */
static void
pass_title(json_object *tl, char *buf, size_t len)
{
	json_object	*v = NULL, *lv, *g;
	uint64_t	 pass = get_u64(tl, "pass");
	char		 which[32];

	if (pass == 0)
		snprintf(which, sizeof(which), "static fill");
	else
		snprintf(which, sizeof(which), "pass %" PRIu64, pass);
	if (json_object_object_get_ex(tl, "slc_knee", &v) &&
	    json_object_get_boolean(v))
		snprintf(buf, len, "%s: cache %.3g GB%s%s", which,
		    (double)get_u64(tl, "slc_cache_bytes") / 1e9,
		    json_object_object_get_ex(tl, "slc_levels", &lv) &&
		    json_object_array_length(lv) > 1 ? " in 2 levels" : "",
		    json_object_object_get_ex(tl, "post_cache_gusts", &g) &&
		    json_object_get_boolean(g) ? ", then gusts" : "");
	else if (v != NULL)
		snprintf(buf, len, "%s: no knee", which);
	else
		snprintf(buf, len, "%s%s", which, json_object_object_get_ex(tl,
		    "whole", &v) && !json_object_get_boolean(v) ?
		    " (resumed: no estimate)" : "");
}

/* The cache marks, then one line per pass. */
static void
script_plot(FILE *fp, const char *data, json_object *tls)
{
	json_object	*tl, *v;
	size_t		 i, n = json_object_array_length(tls);
	char		 t[96];

	for (i = 0; i < n; i++) {
		tl = json_object_array_get_idx(tls, i);
		if (json_object_object_get_ex(tl, "slc_knee", &v) &&
		    json_object_get_boolean(v))
			fprintf(fp, "set arrow from %.9g, graph 0 to %.9g, "
			    "graph 1 nohead dt 2 lw 1.5 lc rgb '%s'\n",
			    (double)get_u64(tl, "slc_cache_bytes") / 1e9,
			    (double)get_u64(tl, "slc_cache_bytes") / 1e9,
			    looks[i].colour);
	}
	fprintf(fp, "plot ");
	for (i = 0; i < n; i++) {
		fprintf(fp, "%s", i ? ", \\\n     " : "");
		gp_quoted(fp, data);
		fprintf(fp, " index %zu using 1:2 with lines lw 1.5 lc rgb '%s' "
		    "dt %d title ", i, looks[i].colour, looks[i].dt);
		pass_title(json_object_array_get_idx(tls, i), t, sizeof(t));
		gp_quoted(fp, t);
	}
	fprintf(fp, "\n");
}

static int
write_script(const struct tlgraph_in *in, const struct gp_files *f)
{
	FILE	*fp = fopen(f->script, "we");

	if (fp == NULL)
		return -1;
	gp_head(fp, in->svg, in->width, in->height, in->out, in->title,
	    "GB written in the pass");
	fprintf(fp, "set xrange [0:*]\nset yrange [0:*]\n"
	    "set ylabel 'MB/s' textcolor rgb '" PAL_INK "'\n");
	script_plot(fp, f->data, in->tls);
	return fclose(fp) == EOF ? -1 : 0;
}

int
tlgraph_draw(const struct tlgraph_in *in)
{
	struct gp_files	f;
	int		rc = 1, w;

	if (json_object_array_length(in->tls) == 0) {
		fprintf(stderr, "ssdctl graph: no write pass timelines to "
		    "draw\n");
		return 1;
	}
	if (json_object_array_length(in->tls) > TLGRAPH_PASSES_MAX) {
		fprintf(stderr, "ssdctl graph: at most %d passes in one "
		    "graph\n", TLGRAPH_PASSES_MAX);
		return 1;
	}
	if (gp_files_make(&f) == -1)
		return 1;
	if ((w = write_data(f.data, in->tls)) == 1)
		fprintf(stderr, "ssdctl graph: the passes' timelines hold no "
		    "steps to draw\n");
	else if (w == -1 || write_script(in, &f) == -1)
		fprintf(stderr, "ssdctl graph: %s: %s\n", f.dir,
		    strerror(errno));
	else
		rc = gp_run(f.script, "--what timeline");
	gp_files_remove(&f);
	return rc;
}

/* ------------------------------------------------------------ slc */

/* "TB cacheGB inMB/s postMB/s" per kept pass of the cycles; the passes
 * without a knee (or an estimate) have NaN for the cache. */
static int
write_slc(const char *path, json_object *tls, size_t *knees)
{
	FILE		*fp = fopen(path, "we");
	json_object	*tl, *v;
	size_t		 i, points = 0;
	int		 knee;

	*knees = 0;
	if (fp == NULL)
		return -1;
	for (i = 0; i < json_object_array_length(tls); i++) {
		tl = json_object_array_get_idx(tls, i);
		if (get_u64(tl, "pass") == 0 ||
		    !json_object_object_get_ex(tl, "slc_knee", &v))
			continue;	/* the static fill, or no estimate */
		knee = json_object_get_boolean(v);
		*knees += knee != 0;
		fprintf(fp, "%.9g ", (double)get_u64(tl,
		    "host_bytes_written") / 1e12);
		if (knee)
			fprintf(fp, "%.9g %.9g %.9g\n",
			    (double)get_u64(tl, "slc_cache_bytes") / 1e9,
			    jdouble(tl, "in_cache_bytes_per_sec") / 1e6,
			    jdouble(tl, "post_cache_bytes_per_sec") / 1e6);
		else
			fprintf(fp, "nan %.9g nan\n",
			    jdouble(tl, "pass_bytes_per_sec") / 1e6);
		points++;
	}
	if (fclose(fp) == EOF)
		return -1;
	return points > 0 ? 0 : 1;
}

/* The lines of the slc graph: without any knee, the passes' speed alone
 * (gnuplot refuses a line without a point). */
static void
slc_plot(FILE *fp, const char *data, size_t knees)
{
	if (knees == 0) {
		fprintf(fp, "set ylabel 'MB/s' textcolor rgb '" PAL_INK "'\n"
		    "plot ");
		gp_quoted(fp, data);
		fprintf(fp, " using 1:3 with linespoints lw 1.5 dt 2 pt 5 lc "
		    "rgb '" ORANGE "' title 'the pass, no knee (MB/s)'\n");
		return;
	}
	fprintf(fp, "set y2range [0:*]\nset y2tics\nset border 11 lc rgb '"
	    PAL_AXIS "'\nset ylabel 'GB' textcolor rgb '" PAL_INK "'\n"
	    "set y2label 'MB/s' textcolor rgb '" PAL_INK "'\nplot ");
	gp_quoted(fp, data);
	fprintf(fp, " using 1:2 with linespoints lw 2 pt 7 lc rgb '" BLUE
	    "' title 'write cache (GB)', \\\n     ");
	gp_quoted(fp, data);
	fprintf(fp, " using 1:3 axes x1y2 with linespoints lw 1.5 dt 2 pt 5 "
	    "lc rgb '" ORANGE "' title 'in the cache, or the pass without "
	    "a knee (MB/s)', \\\n     ");
	gp_quoted(fp, data);
	fprintf(fp, " using 1:4 axes x1y2 with linespoints lw 1.5 dt 3 pt 9 "
	    "lc rgb '" DARKPURPLE "' title 'after the cache (MB/s)'\n");
}

static int
write_slc_script(const struct tlgraph_in *in, const struct gp_files *f,
    size_t knees)
{
	FILE	*fp = fopen(f->script, "we");

	if (fp == NULL)
		return -1;
	gp_head(fp, in->svg, in->width, in->height, in->out, in->title,
	    "TB written (host)");
	fprintf(fp, "set xrange [0:*]\nset yrange [0:*]\n");
	slc_plot(fp, f->data, knees);
	return fclose(fp) == EOF ? -1 : 0;
}

int
tlgraph_draw_slc(const struct tlgraph_in *in)
{
	struct gp_files	f;
	size_t		knees;
	int		rc = 1, w;

	if (gp_files_make(&f) == -1)
		return 1;
	if ((w = write_slc(f.data, in->tls, &knees)) == 1)
		fprintf(stderr, "ssdctl graph: no write pass of the cycles has "
		    "a cache estimate kept yet\n");
	else if (w == -1 || write_slc_script(in, &f, knees) == -1)
		fprintf(stderr, "ssdctl graph: %s: %s\n", f.dir,
		    strerror(errno));
	else
		rc = gp_run(f.script, "--what slc");
	gp_files_remove(&f);
	return rc;
}
