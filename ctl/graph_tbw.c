/*
 * graph_tbw.c: ssdctl graph --what tbw: the bytes written, ours and the
 * drive's SMART host and NAND counters, in TB, GB or MB.
 */
#include <math.h>
#include <stddef.h>

#include "graph_priv.h"
#include "palette.h"

struct unit {
	double		 div;
	const char	*name;
};

/* TB, GB or MB, whichever suits the largest value. */
static const struct unit *
bytes_unit(double max)
{
	static const struct unit units[] = {
		{ 1e12, "TB" }, { 1e9, "GB" }, { 1e6, "MB" }
	};
	size_t	i;

	for (i = 0; i < 2; i++)
		if (!isnan(max) && max >= units[i].div)
			break;
	return &units[i];
}

/* A cumulative byte counter v (of ds) in unit u: line, first, last. */
static void
bytes_line(struct graph *g, const char *v, int ds, const char *colour,
    const char *label, const char *style, const struct unit *u)
{
	graph_el(g, "CDEF:%s_u=%s,%g,/", v, v, u->div);
	graph_el(g, "VDEF:%s_first=%s_u,FIRST", v, v);
	graph_el(g, "VDEF:%s_last=%s_u,LAST", v, v);
	graph_el(g, "LINE2:%s_u%s:%-27s%s", v, colour, label, style);
	graph_gp(g, ds, 0, "GPRINT:%s_first:first %%9.3lf", v);
	graph_gp(g, ds, 1, "GPRINT:%s_last:last %%9.3lf %s\\l", v, u->name);
}

static void
build_tbw(struct graph *g)
{
	const struct scan	*sc = &g->sc;
	const struct unit	*u;
	double			 m = sc->max[DS_HOSTW];

	if (sc->have & GRAPH_BIT(DS_DEVW) && !(sc->max[DS_DEVW] <= m))
		m = sc->max[DS_DEVW];
	u = bytes_unit(m);
	graph_opt(g, "--vertical-label=%s written (10^%d bytes)", u->name,
	    (int)lround(log10(u->div)));
	graph_opt(g, "--lower-limit=0");
	graph_opt(g, "--units-exponent=0");
	graph_def(g, "hw", DS_HOSTW, "AVERAGE");
	bytes_line(g, "hw", DS_HOSTW, BLUE, "host writes (ssdtorture)", "", u);
	if (sc->have & GRAPH_BIT(DS_DEVW)) {
		graph_smart_def(g, "dw", DS_DEVW, "AVERAGE");
		bytes_line(g, "dw", DS_DEVW, ORANGE, "host writes (drive SMART)",
		    ":dashes", u);
	}
	if (sc->have & GRAPH_BIT(DS_NANDW)) {
		graph_smart_def(g, "nw", DS_NANDW, "AVERAGE");
		bytes_line(g, "nw", DS_NANDW, PURPLE, "NAND writes (drive SMART)", "",
		    u);
	}
	if (!(sc->have & (GRAPH_BIT(DS_DEVW) | GRAPH_BIT(DS_NANDW))))
		graph_el(g, "COMMENT:no SMART write counters in this period\\l");
}

const struct graph_kind graph_kind_tbw = {
	.name = "tbw", .title = "total bytes written", .span = 30 * 86400,
	.mask = GRAPH_BIT(DS_HOSTW),
	.nodata = "no bytes written recorded in this period",
	.build = build_tbw,
};
