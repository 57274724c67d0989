/*
 * graph_priv.h: the insides of ssdctl graph, shared by the command
 * (graph.c: options, the period, the archive's scan, rendering) and its
 * kinds, one file each (graph_throughput.c ... graph_degradation.c), each
 * a `struct graph_kind` row of graph.c's table; graph_args.c builds the
 * argv they all add to. Nobody else includes this.
 */
#ifndef SSDT_GRAPH_PRIV_H
#define SSDT_GRAPH_PRIV_H

#include <stddef.h>
#include <time.h>

#include <json-c/json.h>

#include "ckptgraph.h"
#include "graph.h"
#include "rrd_layout.h"
#include "tlgraph.h"

#define EXIT_ERR	1
#define EXIT_USAGE	2
#define MAX_ARGS	120		/* per list: options, elements */
#define GRAPH_HOT_C	70		/* typical throttling onset, deg C */
#define GRAPH_BIT(ds)	(1u << (ds))

/* What a kind takes beyond the archive's options (graph_kind.takes). */
#define GRAPH_TAKES_MAP_DIR	0x01	/* --map-dir */
#define GRAPH_TAKES_PROBES	0x02	/* --probe, --figure */
#define GRAPH_TAKES_PASSES	0x04	/* --pass */
#define GRAPH_TAKES_CHECKPOINT	0x08	/* --checkpoint */
#define GRAPH_TAKES_STATE_DIR	0x10	/* --state-dir */

struct graph_kind;

struct opts {
	const char		*drive, *since, *until, *out, *rrd, *daemon;
	const char		*map_dir, *state_dir;
	const char		*probes[CKPTGRAPH_PROBES_MAX];
	size_t			 nprobes;
	long			 passes[TLGRAPH_PASSES_MAX];
	size_t			 npasses;
	long			 checkpoint;	/* degradation; 0: the latest */
	int			 figure;	/* enum ckpt_figure; -1 none */
	const struct graph_kind	*kind;
	int			 width, height, svg, help;
};

/* What the archive holds in the period (AVERAGE). */
struct scan {
	unsigned	have;		/* GRAPH_BIT(ds): some value is known */
	time_t		first;		/* of the first known value */
	double		max[RRD_NDS];
};

struct arglist {
	char	*v[MAX_ARGS];
	int	 n;
};

struct graph {
	const struct opts	*o;
	json_object		*drive;
	const struct graph_src	*src;
	const char		*file;		/* as given */
	const char		*daemon;	/* NULL: read the file */
	char			*efile;		/* ':' escaped, for DEF */
	time_t			 start, end;
	struct scan		 sc;
	struct arglist		 opt, el;	/* options; graph elements */
	int			 full;		/* out of room or memory */
	int			 have_alive;
};

/*
 * A --what kind: drawn from the archive by rrd_graph (build adds its
 * options and elements; span its default period, mask its sources,
 * nodata what the graph says when none has data), or by its own drawer
 * from the daemon's records or a state directory (own, with the title).
 */
struct graph_kind {
	const char	*name;
	const char	*title;
	long		 span;		/* default period, seconds */
	unsigned	 mask;		/* its sources */
	const char	*nodata;
	void		(*build)(struct graph *);
	int		(*own)(struct graph *, const char *title);
	int		 svg_only;
	unsigned	 takes;		/* GRAPH_TAKES_* */
};

/* The kinds, each in its own file; graph.c's table lists them. */
extern const struct graph_kind graph_kind_throughput, graph_kind_tbw,
		    graph_kind_wear, graph_kind_temperature, graph_kind_latency,
		    graph_kind_errors, graph_kind_flush, graph_kind_errormap,
		    graph_kind_checkpoints, graph_kind_timeline, graph_kind_slc,
		    graph_kind_degradation;

/* graph_args.c: rrd_graph's argv */
/* The archive's data sources in its order (rrd_layout.h). */
extern const char *const graph_ds_name[];
/* An option of rrd_graph (before the graph elements). */
void	graph_opt(struct graph *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* A graph element: DEF, CDEF, VDEF, LINE, GPRINT... */
void	graph_el(struct graph *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
/* A GPRINT of a value of ds, left out when the period holds none. */
void	graph_gp(struct graph *, int ds, int eol, const char *, ...)
	    __attribute__((format(printf, 4, 5)));
void	graph_arglist_free(struct arglist *);
/* DEF:v=FILE:ds:CF */
void	graph_def(struct graph *, const char *v, int ds, const char *cf);
/* A SMART source as v, held at its last reading while the daemon ran. */
void	graph_smart_def(struct graph *, const char *v, int ds, const char *cf);
/* A file name for DEF: ':' and '\' escaped. NULL without memory. */
char	*graph_escape_colons(const char *);
/* A source in microseconds drawn in ms as v_ms, with its legend. */
void	graph_us_in_ms(struct graph *, const char *v, int ds,
	    const char *line);

#endif
