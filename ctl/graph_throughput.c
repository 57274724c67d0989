/*
 * graph_throughput.c: ssdctl graph --what throughput: the write and read
 * rates of each second (their MIN..MAX band, a 30 s average) and the
 * seconds at 0 MB/s amid I/O.
 */
#include <stddef.h>

#include "graph_priv.h"
#include "palette.h"

struct rate {
	const char	*v, *label, *colour, *dark;
	int		 ds;
};

static const struct rate rates[] = {
	{ "w", "write", BLUE, DARKBLUE, DS_WBPS },
	{ "r", "read", GREEN, DARKGREEN, DS_RBPS },
};

/* A rate in MB/s: v_mb (AVERAGE), v_lo (MIN), v_hi (MAX), v_30 (30 s). */
static void
rate_defs(struct graph *g, const struct rate *r)
{
	const char	*v = r->v;

	graph_def(g, v, r->ds, "AVERAGE");
	graph_el(g, "DEF:%s_min=%s:%s:MIN", v, g->efile, graph_ds_name[r->ds]);
	graph_el(g, "DEF:%s_max=%s:%s:MAX", v, g->efile, graph_ds_name[r->ds]);
	graph_el(g, "CDEF:%s_mb=%s,1000000,/", v, v);
	graph_el(g, "CDEF:%s_lo=%s_min,1000000,/", v, v);
	graph_el(g, "CDEF:%s_hi=%s_max,1000000,/", v, v);
	graph_el(g, "CDEF:%s_band=%s_hi,%s_lo,-", v, v, v);
	graph_el(g, "CDEF:%s_30=%s_mb,30,TRENDNAN", v, v);
	graph_el(g, "VDEF:%s_avg=%s_mb,AVERAGE", v, v);
	graph_el(g, "VDEF:%s_peak=%s_hi,MAXIMUM", v, v);
	graph_el(g, "VDEF:%s_last=%s_mb,LAST", v, v);
}

/* The MIN..MAX band (a pixel is several seconds over a long period). */
static void
rate_band(struct graph *g, const struct rate *r)
{
	graph_el(g, "AREA:%s_lo", r->v);
	graph_el(g, "AREA:%s_band%s28::STACK", r->v, r->colour);
}

static void
rate_line(struct graph *g, const struct rate *r)
{
	graph_el(g, "LINE1:%s_mb%s90:%-6s", r->v, r->colour, r->label);
	graph_gp(g, r->ds, 0, "GPRINT:%s_avg:avg %%7.1lf", r->v);
	graph_gp(g, r->ds, 0, "GPRINT:%s_peak:max %%7.1lf", r->v);
	graph_gp(g, r->ds, 1, "GPRINT:%s_last:last %%7.1lf MB/s\\l", r->v);
}

/*
 * A second at 0 MB/s (MIN of both) within 30 s of I/O: a red tick. The
 * legend is an empty area's: rrdtool 1.7 drops the first character of a
 * TICK's own legend.
 */
static void
stalls(struct graph *g)
{
	graph_el(g, "CDEF:io=w,r,+");
	graph_el(g, "CDEF:io30=io,30,TRENDNAN");
	graph_el(g, "CDEF:st0=w_min,r_min,+,0,LE,io30,0,GT,*");
	graph_el(g, "CDEF:stall=st0,UN,UNKN,st0,1,UNKN,IF,IF");
	graph_el(g, "CDEF:none=w,POP,UNKN");
	graph_el(g, "TICK:stall" RED ":0.08");
	graph_el(g, "AREA:none" RED ":stall\\: a second at 0 MB/s within 30 s of "
	    "I/O\\l");
}

static void
build_throughput(struct graph *g)
{
	size_t	i, n = sizeof(rates) / sizeof(rates[0]);

	graph_opt(g, "--vertical-label=MB/s (10^6 bytes/s)");
	graph_opt(g, "--lower-limit=0");
	graph_opt(g, "--units-exponent=0");
	for (i = 0; i < n; i++)
		rate_defs(g, &rates[i]);
	for (i = 0; i < n; i++)
		rate_band(g, &rates[i]);
	for (i = 0; i < n; i++)
		rate_line(g, &rates[i]);
	for (i = 0; i < n; i++)
		graph_el(g, "LINE2:%s_30%s:%s, 30 s average%s", rates[i].v,
		    rates[i].dark, rates[i].label, i + 1 == n ? "\\l" : "");
	stalls(g);
}

const struct graph_kind graph_kind_throughput = {
	.name = "throughput", .title = "throughput", .span = 3600,
	.mask = GRAPH_BIT(DS_WBPS) | GRAPH_BIT(DS_RBPS),
	.nodata = "no throughput recorded in this period",
	.build = build_throughput,
};
