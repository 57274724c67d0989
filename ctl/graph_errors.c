/*
 * graph_errors.c: ssdctl graph --what errors: SMART's media errors, and
 * the write amplification on the right axis.
 */
#include <math.h>

#include "graph_priv.h"
#include "palette.h"

/* Left axis 0..top (media errors), 5 grid lines. */
static double
errors_top(const struct scan *sc)
{
	double	m = sc->max[DS_MERR];

	if (!(sc->have & GRAPH_BIT(DS_MERR)) || isnan(m) || m <= 4)
		return 5;
	return ceil(m * 1.2 / 5) * 5;
}

/* WAF on the right axis, scaled onto the left one. */
static void
waf_axis(struct graph *g, double top)
{
	double	wtop = ceil(g->sc.max[DS_WAF] * 1.2 / 0.5) * 0.5;

	if (isnan(wtop) || wtop < 2.5)
		wtop = 2.5;
	graph_opt(g, "--right-axis=%g:0", wtop / top);
	graph_opt(g, "--right-axis-label=write amplification (WAF)");
	graph_opt(g, "--right-axis-format=%%.2lf");
	graph_smart_def(g, "waf", DS_WAF, "AVERAGE");
	graph_el(g, "CDEF:waf_s=waf,%g,/", wtop / top);
	graph_el(g, "VDEF:waf_last=waf,LAST");
	graph_el(g, "LINE2:waf_s" BLUE ":write amplification (right axis)");
	graph_gp(g, DS_WAF, 1, "GPRINT:waf_last:last %%5.2lf\\l");
}

static void
build_errors(struct graph *g)
{
	double	top = errors_top(&g->sc);

	graph_opt(g, "--vertical-label=media errors");
	graph_opt(g, "--lower-limit=0");
	graph_opt(g, "--upper-limit=%g", top);
	graph_opt(g, "--rigid");
	graph_opt(g, "--y-grid=%g:1", top / 5);
	graph_opt(g, "--left-axis-format=%%.0lf");
	graph_opt(g, "--units-exponent=0");
	graph_smart_def(g, "me", DS_MERR, "AVERAGE");
	graph_el(g, "VDEF:me_first=me,FIRST");
	graph_el(g, "VDEF:me_last=me,LAST");
	graph_el(g, "LINE2:me" RED ":media errors%21s", "");
	graph_gp(g, DS_MERR, 0, "GPRINT:me_first:first %%6.0lf");
	graph_gp(g, DS_MERR, 1, "GPRINT:me_last:last %%6.0lf\\l");
	if (g->sc.have & GRAPH_BIT(DS_WAF))
		waf_axis(g, top);
	else
		graph_el(g, "COMMENT:no write amplification (WAF) readings in this "
		    "period\\l");
}

const struct graph_kind graph_kind_errors = {
	.name = "errors", .title = "media errors and write amplification",
	.span = 30 * 86400, .mask = GRAPH_BIT(DS_MERR) | GRAPH_BIT(DS_WAF),
	.nodata = "no SMART error readings in this period",
	.build = build_errors,
};
