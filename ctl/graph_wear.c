/*
 * graph_wear.c: ssdctl graph --what wear: SMART's percent used and
 * available spare, and the TBW at the period's end.
 */
#include "graph_priv.h"
#include "palette.h"

/* A SMART percentage v: line, first and last. */
static void
percent_line(struct graph *g, const char *v, int ds, const char *colour,
    const char *label)
{
	graph_smart_def(g, v, ds, "AVERAGE");
	graph_el(g, "VDEF:%s_first=%s,FIRST", v, v);
	graph_el(g, "VDEF:%s_last=%s,LAST", v, v);
	graph_el(g, "LINE2:%s%s:%-17s", v, colour, label);
	graph_gp(g, ds, 0, "GPRINT:%s_first:first %%5.1lf %%%%", v);
	graph_gp(g, ds, 1, "GPRINT:%s_last:last %%5.1lf %%%%\\l", v);
}

static void
build_wear(struct graph *g)
{
	graph_opt(g, "--vertical-label=percent");
	graph_opt(g, "--lower-limit=0");
	graph_opt(g, "--upper-limit=100");
	graph_opt(g, "--units-exponent=0");
	percent_line(g, "pu", DS_PUSED, RED, "percent used");
	percent_line(g, "sp", DS_SPARE, GREEN, "available spare");
	graph_def(g, "hw", DS_HOSTW, "AVERAGE");
	graph_el(g, "CDEF:hw_tb=hw,1000000000000,/");
	graph_el(g, "VDEF:tbw=hw_tb,LAST");
	if (!(g->sc.have & GRAPH_BIT(DS_HOSTW)))
		return;
	graph_el(g, "VRULE:tbw#888888:host writes (TBW) at the end\\::dashes");
	graph_el(g, "GPRINT:tbw:%%.3lf TB\\l");
}

const struct graph_kind graph_kind_wear = {
	.name = "wear", .title = "wear", .span = 30 * 86400,
	.mask = GRAPH_BIT(DS_PUSED) | GRAPH_BIT(DS_SPARE),
	.nodata = "no SMART wear readings in this period",
	.build = build_wear,
};
