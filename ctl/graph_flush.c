/*
 * graph_flush.c: ssdctl graph --what flush: how long the drive takes to
 * flush its write cache.
 */
#include "graph_priv.h"
#include "palette.h"

/* How long the drive takes to flush its write cache (once a second). */
static void
build_flush(struct graph *g)
{
	graph_opt(g, "--vertical-label=cache flush latency (ms)");
	graph_opt(g, "--lower-limit=0");
	graph_opt(g, "--units-exponent=0");
	graph_us_in_ms(g, "f", DS_FLUSH, ORANGE ":flush latency");
}

const struct graph_kind graph_kind_flush = {
	.name = "flush", .title = "cache flush latency", .span = 3600,
	.mask = GRAPH_BIT(DS_FLUSH),
	.nodata = "no cache flush recorded in this period",
	.build = build_flush,
};
