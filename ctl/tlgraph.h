/*
 * tlgraph.h: ssdctl graph --what timeline: write passes' throughput
 * against the GB written in the pass, several passes overlaid, each
 * pass's estimated write cache marked; --what slc: the estimate of the
 * passes kept against the TB written. Drawn by gnuplot (PNG or SVG).
 */
#ifndef SSDT_TLGRAPH_H
#define SSDT_TLGRAPH_H

#include <json-c/json.h>

/* Most passes one graph overlays (lines a reader can tell apart). */
#define TLGRAPH_PASSES_MAX	8

struct tlgraph_in {
	const char	*out;		/* FILE.png or FILE.svg */
	int		 svg;
	int		 width, height;	/* pixels */
	const char	*title;
	json_object	*tls;		/* whole timelines (tl_read.h), by pass */
};

/* Draw; 0, or 1 after a message on stderr. */
int	tlgraph_draw(const struct tlgraph_in *);
/* --what slc: tls holds every kept pass's figures (no times needed). */
int	tlgraph_draw_slc(const struct tlgraph_in *);

#endif
