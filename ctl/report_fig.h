/*
 * report_fig.h: the figures of a report page: each drawn as SVG in a
 * temporary directory (by ssdctl graph's own code, or report_gp.c) and
 * written into the page inline, its ids made its own; a figure that
 * cannot be drawn is said so in its place, with the reason.
 */
#ifndef SSDT_REPORT_FIG_H
#define SSDT_REPORT_FIG_H

#include <stdio.h>

#include <json-c/json.h>

#include "report.h"

struct figs {
	char			 dir[64];	/* the temporary directory */
	unsigned		 n;		/* figures so far */
	const struct report_src	*src;
	FILE			*page;
};

int	figs_open(struct figs *, const struct report_src *, FILE *page);
void	figs_close(struct figs *);

/*
 * ssdctl graph --what KIND of the drive `model` (its name, and its life
 * for an archive's period), with `extra` options (NULL-ended, or NULL)
 * into the page, with a caption. 0 when drawn.
 */
int	fig_graph(struct figs *, json_object *model, const char *kind,
	    const char *const *extra, const char *caption);
/* report_gp.c's: wear against TB written of `models` (an array). */
int	fig_wear(struct figs *, json_object *models, const char *caption);
/* report_gp.c's: one bar per drive of a comparison's probe. */
int	fig_bars(struct figs *, json_object *probe, const char *caption);

/* Text for the page: & < > " escaped. */
void	html_text(FILE *, const char *);

#endif
