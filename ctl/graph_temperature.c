/*
 * graph_temperature.c: ssdctl graph --what temperature: the drive's
 * temperature against where many drives throttle (GRAPH_HOT_C).
 */
#include "graph_priv.h"
#include "palette.h"

/* Whether the temperature reached GRAPH_HOT_C, from the scan. */
static void
throttle_comment(struct graph *g)
{
	double	m = g->sc.max[DS_TEMP];

	if (!(g->sc.have & GRAPH_BIT(DS_TEMP)))
		return;
	if (m >= GRAPH_HOT_C)
		graph_el(g, "COMMENT:reached %.0f °C\\: the drive may have throttled "
		    "writes (see its warning/critical temperature time in "
		    "ssdctl smart)\\l", m);
	else
		graph_el(g, "COMMENT:stayed below %d °C\\: thermal throttling is "
		    "unlikely\\l", GRAPH_HOT_C);
}

static void
build_temperature(struct graph *g)
{
	graph_opt(g, "--vertical-label=°C");
	graph_opt(g, "--lower-limit=20");
	graph_opt(g, "--upper-limit=%d", GRAPH_HOT_C + 10);
	graph_opt(g, "--units-exponent=0");
	graph_smart_def(g, "t", DS_TEMP, "AVERAGE");
	graph_smart_def(g, "tx", DS_TEMP, "MAX");
	graph_el(g, "VDEF:t_avg=t,AVERAGE");
	graph_el(g, "VDEF:t_max=tx,MAXIMUM");
	graph_el(g, "VDEF:t_last=t,LAST");
	graph_el(g, "CDEF:hot=t,%d,GE,60,/", GRAPH_HOT_C);
	graph_el(g, "VDEF:hot_min=hot,TOTAL");
	graph_el(g, "LINE2:t" ORANGE ":temperature");
	graph_gp(g, DS_TEMP, 0, "GPRINT:t_avg:avg %%3.0lf °C");
	graph_gp(g, DS_TEMP, 0, "GPRINT:t_max:max %%3.0lf °C");
	graph_gp(g, DS_TEMP, 1, "GPRINT:t_last:last %%3.0lf °C\\l");
	graph_el(g, "HRULE:%d" RED "A0:%d °C\\: where many drives start to "
	    "throttle:dashes", GRAPH_HOT_C, GRAPH_HOT_C);
	graph_gp(g, DS_TEMP, 1, "GPRINT:hot_min:(at or above it for %%.1lf min)"
	    "\\l");
	throttle_comment(g);
}

const struct graph_kind graph_kind_temperature = {
	.name = "temperature", .title = "temperature", .span = 86400,
	.mask = GRAPH_BIT(DS_TEMP),
	.nodata = "no temperature readings in this period",
	.build = build_temperature,
};
