/*
 * ckptgraph.h: ssdctl graph --what checkpoints: a figure of chosen probes
 * against the TB written at each checkpoint, drawn by gnuplot (PNG or
 * SVG). gnuplot is run, never linked: the data and the script go to a
 * temporary directory that is removed after.
 */
#ifndef SSDT_CKPTGRAPH_H
#define SSDT_CKPTGRAPH_H

#include <stddef.h>

#include <json-c/json.h>

/* Most --probe options one graph takes (lines a reader can tell apart). */
#define CKPTGRAPH_PROBES_MAX	12

struct ckptgraph_in {
	const char	*out;		/* FILE.png or FILE.svg */
	int		 svg;
	int		 width, height;	/* pixels */
	const char	*title;		/* "NAME (MODEL SERIAL)" */
	const char	*probes[CKPTGRAPH_PROBES_MAX];
	size_t		 nprobes;	/* 0: the headline probes */
	int		 figure;	/* enum ckpt_figure; -1: each headline */
	json_object	*lines;		/* the results */
};

/* The probes drawn when none is chosen; a NULL ends the list. */
extern const char *const ckptgraph_default_probes[];

/* Draw; 0, or 1 after a message on stderr. */
int	ckptgraph_draw(const struct ckptgraph_in *);

#endif
