/*
 * graph_checkpoints.c: ssdctl graph --what checkpoints: the performance
 * checkpoints' results, from the daemon or --state-dir (ckptgraph.c
 * draws).
 */
#include <stdio.h>
#include <string.h>

#include "ckpt.h"
#include "ckptgraph.h"
#include "graph_priv.h"

/* The checkpoint results, from the daemon or --state-dir: ckptgraph.c. */
static int
draw_checkpoints(struct graph *g, const char *title)
{
	const struct opts	*o = g->o;
	struct ckptgraph_in	 in = { .out = o->out, .svg = o->svg,
	    .width = o->width, .height = o->height, .figure = o->figure,
	    .nprobes = o->nprobes };
	int			 rc;

	in.title = title;
	memcpy(in.probes, o->probes, sizeof(in.probes));
	if (o->state_dir != NULL) {
		in.lines = json_object_new_array();
		if (ckpt_load_dir(o->state_dir, o->drive, in.lines) == -1) {
			json_object_put(in.lines);
			return EXIT_ERR;
		}
	} else if (g->src == NULL || g->src->ckpt == NULL) {
		fprintf(stderr, "ssdctl graph: no daemon to ask for the "
		    "checkpoint results\n");
		return EXIT_ERR;
	} else if ((in.lines = g->src->ckpt(g->src->arg, o->drive)) == NULL)
		return EXIT_ERR;
	rc = ckptgraph_draw(&in);
	json_object_put(in.lines);
	return rc;
}

const struct graph_kind graph_kind_checkpoints = {
	.name = "checkpoints", .title = "performance checkpoints",
	.own = draw_checkpoints,
	.takes = GRAPH_TAKES_PROBES | GRAPH_TAKES_STATE_DIR,
};
