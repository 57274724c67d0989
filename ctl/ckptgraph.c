/*
 * ckptgraph.c: the checkpoint graph through gnuplot. Each probe is a line
 * with points at the TB written of the checkpoints that measured it (the
 * x axis is wear, not time); a flagged point is ringed in red. Without a
 * chosen figure each probe shows its headline figure (ckpt.h), IOPS on
 * the left axis and MB/s on the right when both are drawn.
 *
 * Lines differ by point shape and dash as well as colour, so that they
 * stay apart for a reader who does not tell the colours apart (or prints
 * the graph in grey).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ckpt.h"
#include "ckptgraph.h"
#include "gnuplot.h"
#include "palette.h"

const char *const ckptgraph_default_probes[] = {
	"rand-read-4k-qd1", "rand-read-4k-qd32", "rand-write-4k-qd1",
	"rand-write-4k-qd32", "seq-read-128k-qd32", "seq-write-128k-qd32",
	NULL
};

/* A line's look: colour, gnuplot point type, dash type. */
static const struct {
	const char	*colour;
	int		 pt, dt;
} looks[] = {
	{ BLUE, 7, 1 }, { ORANGE, 5, 1 }, { GREEN, 9, 1 }, { PURPLE, 11, 1 },
	{ DARKBLUE, 13, 2 }, { DARKGREEN, 15, 2 }, { DARKPURPLE, 4, 2 },
	{ BLUE, 6, 3 }, { ORANGE, 8, 3 }, { GREEN, 10, 3 }, { PURPLE, 12, 3 },
	{ DARKBLUE, 14, 4 },
};
#define NLOOKS	(sizeof(looks) / sizeof(looks[0]))

struct plot {
	const struct ckptgraph_in *in;
	struct ckpt_grid	 g;
	size_t			 rows[CKPTGRAPH_PROBES_MAX];
	enum ckpt_figure	 fig[CKPTGRAPH_PROBES_MAX];
	size_t			 n;
	int			 axes;		/* bit per figure drawn */
	int			 flagged;	/* some point is */
	struct gp_files		 f;
};

static long
row_of(const struct ckpt_grid *g, const char *id)
{
	size_t	r;

	for (r = 0; r < g->nrows; r++)
		if (strcmp(g->ids[r], id) == 0)
			return (long)r;
	return -1;
}

/* The rows drawn: the chosen probes (each must have results), or the
 * default ones that have results. -1 after a message. */
static int
choose(struct plot *p)
{
	const struct ckptgraph_in	*in = p->in;
	const char *const		*ids = in->nprobes ? in->probes :
					    ckptgraph_default_probes;
	size_t				 i, n = in->nprobes;
	long				 r;

	for (i = 0; in->nprobes ? i < n : ids[i] != NULL; i++) {
		if ((r = row_of(&p->g, ids[i])) < 0) {
			if (in->nprobes == 0)
				continue;
			fprintf(stderr, "ssdctl graph: no checkpoint results "
			    "for probe '%s' (ssdctl probes lists them)\n",
			    ids[i]);
			return -1;
		}
		p->rows[p->n] = (size_t)r;
		p->fig[p->n] = in->figure >= 0 ? (enum ckpt_figure)in->figure :
		    ckpt_headline(ckpt_cell(&p->g, (size_t)r,
		    (size_t)ckpt_latest_col(&p->g, (size_t)r)));
		p->axes |= 1 << p->fig[p->n];
		p->n++;
	}
	if (p->n == 0) {
		fprintf(stderr, "ssdctl graph: no checkpoint results to draw\n");
		return -1;
	}
	return 0;
}

/* Has the line a flag? */
static int
flagged(json_object *line)
{
	char	mark[64];

	ckpt_flag_mark(line, mark, sizeof(mark));
	return mark[0] != '\0';
}

/* One block per probe (gnuplot's index): "TB value flagged". */
static int
write_data(struct plot *p)
{
	FILE		*fp = fopen(p->f.data, "we");
	json_object	*o;
	size_t		 i, c, points = 0, mine;
	double		 v, x;

	if (fp == NULL)
		return -1;
	for (i = 0; i < p->n; i++) {
		mine = points;
		for (c = 0; c < p->g.ncols; c++) {
			o = ckpt_cell(&p->g, p->rows[i], c);
			v = ckpt_value(o, p->fig[i]);
			x = p->g.hbw[c] / 1e12;
			/* a pass without a knee has no cache size to draw */
			if (!isfinite(v) || !isfinite(x) || (p->fig[i] ==
			    CKPT_CACHE && v == CKPT_NO_KNEE))
				continue;
			p->flagged |= flagged(o);
			fprintf(fp, "%.9g %.9g %d\n", x, v, flagged(o));
			points++;
		}
		/* a block without points still holds its index */
		fprintf(fp, "%s\n\n", points > mine ? "" : "nan nan 0\n");
	}
	if (fclose(fp) == EOF)
		return -1;
	return points > 0 ? 0 : 1;
}

/* Terminal, fonts, colours, title and axes. */
static void
script_head(FILE *fp, const struct plot *p)
{
	const struct ckptgraph_in	*in = p->in;
	int				 two = p->axes == ((1 << CKPT_IOPS) |
					    (1 << CKPT_MBPS));
	enum ckpt_figure		 left = p->axes & (1 << CKPT_IOPS) ?
					    CKPT_IOPS : p->fig[0];

	gp_head(fp, in->svg, in->width, in->height, in->out, in->title,
	    "TB written (host)");
	fprintf(fp, "set xrange [0:*]\nset yrange [0:*]\n"
	    "set ylabel '%s' textcolor rgb '" PAL_INK "'\n",
	    ckpt_figure_unit(left));
	if (two)
		fprintf(fp, "set y2range [0:*]\nset y2tics\nset border 11 "
		    "lc rgb '" PAL_AXIS "'\nset y2label '%s' textcolor rgb '"
		    PAL_INK "'\n", ckpt_figure_unit(CKPT_MBPS));
}

/* One line with points per probe, then the rings of flagged points. */
static void
script_plot(FILE *fp, const struct plot *p)
{
	int	two = p->axes == ((1 << CKPT_IOPS) | (1 << CKPT_MBPS));
	int	tag = (p->axes & (p->axes - 1)) != 0;	/* units differ */
	char	t[96];
	size_t	i;
	int	ringed = 0;

	fprintf(fp, "plot ");
	for (i = 0; i < p->n; i++) {
		fprintf(fp, "%s", i ? ", \\\n     " : "");
		gp_quoted(fp, p->f.data);
		fprintf(fp, " index %zu using 1:2 with linespoints lw 2 ps 1.2 "
		    "lc rgb '%s' pt %d dt %d axes x1y%d title ", i,
		    looks[i % NLOOKS].colour, looks[i % NLOOKS].pt,
		    looks[i % NLOOKS].dt, two && p->fig[i] == CKPT_MBPS ? 2 : 1);
		snprintf(t, sizeof(t), "%s%s%s%s", p->g.ids[p->rows[i]],
		    tag ? " (" : "", tag ? ckpt_figure_unit(p->fig[i]) : "",
		    tag ? ")" : "");
		gp_quoted(fp, t);
	}
	for (i = 0; p->flagged && i < p->n; i++) {
		fprintf(fp, ", \\\n     ");
		gp_quoted(fp, p->f.data);
		fprintf(fp, " index %zu using 1:($3 > 0 ? $2 : NaN) with points "
		    "pt 6 ps 2.6 lw 2 lc rgb '" RED "' axes x1y%d %s", i,
		    two && p->fig[i] == CKPT_MBPS ? 2 : 1, ringed++ ? "notitle" :
		    "title 'flagged: < 0.8x throughput or > 2x p99.9'");
	}
	fprintf(fp, "\n");
}

static int
write_script(const struct plot *p)
{
	FILE	*fp = fopen(p->f.script, "we");

	if (fp == NULL)
		return -1;
	script_head(fp, p);
	script_plot(fp, p);
	return fclose(fp) == EOF ? -1 : 0;
}

int
ckptgraph_draw(const struct ckptgraph_in *in)
{
	struct plot	p;
	int		rc = 1, w;

	memset(&p, 0, sizeof(p));
	p.in = in;
	if (ckpt_grid_build(in->lines, &p.g) == -1) {
		fprintf(stderr, "ssdctl graph: out of memory\n");
		return 1;
	}
	if (choose(&p) == -1 || gp_files_make(&p.f) == -1) {
		ckpt_grid_free(&p.g);
		return 1;
	}
	if ((w = write_data(&p)) == 1)
		fprintf(stderr, "ssdctl graph: the chosen probes have no %s "
		    "figures to draw\n", in->figure >= 0 ?
		    ckpt_figure_word(in->figure) : "measured");
	else if (w == -1 || write_script(&p) == -1)
		fprintf(stderr, "ssdctl graph: %s: %s\n", p.f.dir,
		    strerror(errno));
	else
		rc = gp_run(p.f.script, "--what checkpoints");
	gp_files_remove(&p.f);
	ckpt_grid_free(&p.g);
	return rc;
}
