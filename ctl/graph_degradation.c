/*
 * graph_degradation.c: ssdctl graph --what degradation: a full
 * checkpoint's degradation run and recoveries, from the daemon or
 * --state-dir (dggraph.c draws).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "dggraph.h"
#include "graph_priv.h"
#include "series_read.h"
#include "statedir.h"

/* A full checkpoint's degradation run and recoveries: dggraph.c. */
static int
draw_degradation(struct graph *g, const char *title)
{
	const struct opts	*o = g->o;
	struct dggraph_in	 in = { .out = o->out, .svg = o->svg,
	    .width = o->width, .height = o->height };
	char			 dir[PATH_MAX];
	int			 rc;

	in.title = title;
	if (o->state_dir != NULL) {
		in.series = json_object_new_array();
		if (statedir_drive_dir(dir, sizeof(dir), o->state_dir,
		    o->drive) == -1 || series_read(dir, (uint64_t)o->checkpoint,
		    in.series) == -1) {
			fprintf(stderr, "ssdctl graph: %s/%s/series: %s\n",
			    o->state_dir, o->drive, strerror(errno));
			json_object_put(in.series);
			return EXIT_ERR;
		}
	} else if (g->src == NULL || g->src->series == NULL) {
		fprintf(stderr, "ssdctl graph: no daemon to ask for the "
		    "series\n");
		return EXIT_ERR;
	} else if ((in.series = g->src->series(g->src->arg, o->drive,
	    o->checkpoint)) == NULL)
		return EXIT_ERR;
	rc = dggraph_draw(&in);
	json_object_put(in.series);
	return rc;
}

const struct graph_kind graph_kind_degradation = {
	.name = "degradation", .title = "degradation run and recovery",
	.own = draw_degradation,
	.takes = GRAPH_TAKES_CHECKPOINT | GRAPH_TAKES_STATE_DIR,
};
