/*
 * graph_timeline.c: ssdctl graph --what timeline (write passes against
 * the GB written in them) and --what slc (the write-cache estimates of the
 * kept passes against TBW), from the daemon or --state-dir, which share
 * the reading of the timelines (tlgraph.c draws).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "graph_priv.h"
#include "statedir.h"
#include "tl_read.h"
#include "tlgraph.h"

/* From --state-dir: the passes in `want` (n; 0: all kept). */
static json_object *
timelines_dir(const struct opts *o, const long *want, size_t n, int whole)
{
	json_object	*arr = json_object_new_array();
	char		 dir[PATH_MAX];
	uint64_t	 p[TLGRAPH_PASSES_MAX];
	size_t		 i;

	for (i = 0; i < n; i++)
		p[i] = (uint64_t)want[i];
	if (statedir_drive_dir(dir, sizeof(dir), o->state_dir, o->drive) == 0 &&
	    tl_read(dir, p, n, whole, arr) == 0)
		return arr;
	fprintf(stderr, "ssdctl graph: %s/%s/timelines: %s\n", o->state_dir,
	    o->drive, strerror(errno));
	json_object_put(arr);
	return NULL;
}

/* From the daemon: every kept pass's figures (n 0), or each of `want`
 * whole, one call each. */
static json_object *
timelines_daemon(struct graph *g, const long *want, size_t n)
{
	const struct graph_src	*src = g->src;
	json_object		*arr, *one;
	size_t			 i;

	if (src == NULL || src->timelines == NULL) {
		fprintf(stderr, "ssdctl graph: no daemon to ask for the "
		    "timelines\n");
		return NULL;
	}
	if (n == 0)
		return src->timelines(src->arg, g->o->drive, -1);
	arr = json_object_new_array();
	for (i = 0; i < n; i++) {
		if ((one = src->timelines(src->arg, g->o->drive,
		    want[i])) == NULL) {
			json_object_put(arr);
			return NULL;
		}
		if (json_object_array_length(one) > 0)
			json_object_array_add(arr, json_object_get(
			    json_object_array_get_idx(one, 0)));
		json_object_put(one);
	}
	return arr;
}

/* The timelines of the passes in `want` (n; 0: all kept, as figures);
 * NULL after a message. */
static json_object *
timelines_of(struct graph *g, const long *want, size_t n)
{
	if (g->o->state_dir != NULL)
		return timelines_dir(g->o, want, n, n > 0);
	return timelines_daemon(g, want, n);
}

/* The passes drawn when none is chosen: the first of the cycles (the
 * static fill when there is none) and the latest. */
static size_t
default_passes(json_object *figures, long *out)
{
	size_t	n = json_object_array_length(figures), i, k = 0;
	long	p, first = -1, last = -1;

	for (i = 0; i < n; i++) {
		p = (long)json_object_get_int64(json_object_object_get(
		    json_object_array_get_idx(figures, i), "pass"));
		if (first == -1 || (first == 0 && p > 0))
			first = p;
		last = p > last ? p : last;
	}
	if (first >= 0)
		out[k++] = first;
	if (last > first)
		out[k++] = last;
	return k;
}

/* Write passes against the GB written in them: tlgraph.c. */
static int
draw_timeline(struct graph *g, const char *title)
{
	const struct opts	*o = g->o;
	struct tlgraph_in	 in = { .out = o->out, .svg = o->svg,
	    .width = o->width, .height = o->height };
	long			 want[TLGRAPH_PASSES_MAX];
	size_t			 n = o->npasses, i;
	json_object		*figs;
	int			 rc;

	in.title = title;
	for (i = 0; i < n; i++)
		want[i] = o->passes[i];
	if (n == 0) {
		if ((figs = timelines_of(g, NULL, 0)) == NULL)
			return EXIT_ERR;
		n = default_passes(figs, want);
		json_object_put(figs);
	}
	if (n == 0) {
		fprintf(stderr, "ssdctl graph: no write pass timelines yet\n");
		return EXIT_ERR;
	}
	if ((in.tls = timelines_of(g, want, n)) == NULL)
		return EXIT_ERR;
	if (json_object_array_length(in.tls) < n)
		fprintf(stderr, "ssdctl graph: %zu of the passes asked for "
		    "have no timeline kept (timeline_every), or one that "
		    "cannot be read\n", n - json_object_array_length(in.tls));
	rc = tlgraph_draw(&in);
	json_object_put(in.tls);
	return rc;
}

/* The write-cache estimates of the kept passes against TBW: tlgraph.c. */
static int
draw_slc(struct graph *g, const char *title)
{
	struct tlgraph_in	in = { .out = g->o->out, .svg = g->o->svg,
	    .width = g->o->width, .height = g->o->height };
	int			rc;

	in.title = title;
	if ((in.tls = timelines_of(g, NULL, 0)) == NULL)
		return EXIT_ERR;
	rc = tlgraph_draw_slc(&in);
	json_object_put(in.tls);
	return rc;
}

const struct graph_kind graph_kind_timeline = {
	.name = "timeline", .title = "write passes and their cache",
	.own = draw_timeline,
	.takes = GRAPH_TAKES_PASSES | GRAPH_TAKES_STATE_DIR,
};

const struct graph_kind graph_kind_slc = {
	.name = "slc", .title = "write cache estimate", .own = draw_slc,
	.takes = GRAPH_TAKES_STATE_DIR,
};
