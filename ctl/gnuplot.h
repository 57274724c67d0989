/*
 * gnuplot.h: what ssdctl's gnuplot graphs share (checkpoints, timelines):
 * a temporary directory for the data and the script, removed after; the
 * script's head in the graphs' common style (palette.h); running gnuplot
 * (run, never linked).
 */
#ifndef SSDT_GNUPLOT_H
#define SSDT_GNUPLOT_H

#include <stdio.h>

struct gp_files {
	char	dir[64], data[96], script[96];
};

/* Make the directory; -1 after a message. */
int	gp_files_make(struct gp_files *);
void	gp_files_remove(const struct gp_files *);
/* A gnuplot single-quoted string. */
void	gp_quoted(FILE *, const char *);
/* Terminal and output, title, border, grid, key below, the x label. */
void	gp_head(FILE *, int svg, int width, int height, const char *out,
	    const char *title, const char *xlabel);
/* Run gnuplot on the script; 0, or 1 after a message (`what`: the graph,
 * for the message when gnuplot is missing). */
int	gp_run(const char *script, const char *what);

#endif
