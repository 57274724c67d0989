/*
 * graph_latency.c: ssdctl graph --what latency: the p99 write latency of
 * each second and its 30 s average.
 */
#include "graph_priv.h"
#include "palette.h"

/* The p99 write latency of each second, and its 30 s average. */
static void
build_latency(struct graph *g)
{
	graph_opt(g, "--vertical-label=p99 write latency (ms)");
	graph_opt(g, "--lower-limit=0");
	graph_opt(g, "--units-exponent=0");
	graph_us_in_ms(g, "l", DS_LAT, PURPLE "90:p99 of each second");
	graph_el(g, "CDEF:l_30=l_ms,30,TRENDNAN");
	graph_el(g, "LINE2:l_30" DARKPURPLE ":30 s average\\l");
}

const struct graph_kind graph_kind_latency = {
	.name = "latency", .title = "p99 write latency", .span = 3600,
	.mask = GRAPH_BIT(DS_LAT),
	.nodata = "no latency recorded in this period",
	.build = build_latency,
};
