/*
 * graph_errormap.c: ssdctl graph --what errormap: where verify passes
 * found bad blocks, from the daemon or --map-dir (errgraph.c draws).
 */
#include <stdio.h>

#include "errgraph.h"
#include "graph_priv.h"

/* The error maps, from the daemon or from --map-dir: errgraph.c. */
static int
draw_errormap(struct graph *g, const char *title)
{
	struct errgraph_in	in = { .out = g->o->out, .width = g->o->width,
	    .height = g->o->height, .map_dir = g->o->map_dir };

	in.title = title;
	if (g->src != NULL) {
		in.fetch = g->src->fetch;
		in.arg = g->src->arg;
	}
	if (in.map_dir == NULL && in.fetch == NULL) {
		fprintf(stderr, "ssdctl graph: no daemon to ask for the error "
		    "maps\n");
		return EXIT_ERR;
	}
	return errgraph_draw(&in);
}

const struct graph_kind graph_kind_errormap = {
	.name = "errormap", .title = "where verify passes found bad blocks",
	.own = draw_errormap, .svg_only = 1, .takes = GRAPH_TAKES_MAP_DIR,
};
