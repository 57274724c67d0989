/*
 * dggraph.h: ssdctl graph --what degradation: a full checkpoint's
 * degradation run as the SSD reviews draw it, each second's IOPS as a
 * point and their 30 s moving average as a line, the recovery runs after
 * it (after idle time, after a TRIM) to the right. Drawn by gnuplot.
 */
#ifndef SSDT_DGGRAPH_H
#define SSDT_DGGRAPH_H

#include <json-c/json.h>

struct dggraph_in {
	const char	*out;		/* FILE.png or FILE.svg */
	int		 svg;
	int		 width, height;	/* pixels */
	const char	*title;
	json_object	*series;	/* one checkpoint's (series_read.h) */
};

/* Draw; 0, or 1 after a message on stderr. */
int	dggraph_draw(const struct dggraph_in *);

#endif
