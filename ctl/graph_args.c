/*
 * graph_args.c: what every kind of ssdctl graph builds rrd_graph's argv
 * with: options, graph elements, legend values, the archive's sources
 * (DEF, and SMART's held at their last reading).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_priv.h"

/* Data sources in archive order (rrd_layout.h). */
#define DS_NAME(id, name, kind)	name,
const char *const graph_ds_name[] = { RRD_SOURCES(DS_NAME) };
#undef DS_NAME

static void	add(struct graph *, struct arglist *, const char *, va_list)
		    __attribute__((format(printf, 3, 0)));

static void
add(struct graph *g, struct arglist *l, const char *fmt, va_list ap)
{
	va_list	 ap2;
	char	*s;
	int	 len;

	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (len < 0 || l->n >= MAX_ARGS ||
	    (s = malloc((size_t)len + 1)) == NULL) {
		g->full = 1;
		return;
	}
	vsnprintf(s, (size_t)len + 1, fmt, ap);
	l->v[l->n++] = s;
}

/* An option of rrd_graph (before the graph elements). */
void
graph_opt(struct graph *g, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	add(g, &g->opt, fmt, ap);
	va_end(ap);
}

/* A graph element: DEF, CDEF, VDEF, LINE, GPRINT... */
void
graph_el(struct graph *g, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	add(g, &g->el, fmt, ap);
	va_end(ap);
}

/*
 * A GPRINT of a value of ds, left out when the period holds no value of
 * it (it would read "nan"); eol: the last of a legend line, which then
 * says so instead.
 */
void
graph_gp(struct graph *g, int ds, int eol, const char *fmt, ...)
{
	va_list	ap;

	if (!(g->sc.have & GRAPH_BIT(ds))) {
		if (eol)
			graph_el(g, "COMMENT:  (no data)\\l");
		return;
	}
	va_start(ap, fmt);
	add(g, &g->el, fmt, ap);
	va_end(ap);
}

void
graph_arglist_free(struct arglist *l)
{
	while (l->n > 0)
		free(l->v[--l->n]);
}

/* DEF:v=FILE:ds:CF */
void
graph_def(struct graph *g, const char *v, int ds, const char *cf)
{
	graph_el(g, "DEF:%s=%s:%s:%s", v, g->efile, graph_ds_name[ds], cf);
}

/*
 * A SMART source as v: held at its last reading (PREV) while the daemon
 * was recording (write_bps known), so that readings every N seconds draw
 * a line, and a stopped daemon leaves a gap.
 */
void
graph_smart_def(struct graph *g, const char *v, int ds, const char *cf)
{
	if (!g->have_alive) {
		graph_def(g, "alive", DS_WBPS, "AVERAGE");
		g->have_alive = 1;
	}
	graph_el(g, "DEF:%s_raw=%s:%s:%s", v, g->efile, graph_ds_name[ds], cf);
	graph_el(g, "CDEF:%s=alive,UN,UNKN,%s_raw,UN,PREV,%s_raw,IF,IF", v, v, v);
}

/* A file name for DEF: ':' and '\' escaped. NULL without memory. */
char *
graph_escape_colons(const char *s)
{
	char	*e = malloc(2 * strlen(s) + 1), *p = e;

	if (e == NULL)
		return NULL;
	for (; *s != '\0'; s++) {
		if (*s == ':' || *s == '\\')
			*p++ = '\\';
		*p++ = *s;
	}
	*p = '\0';
	return e;
}

/*
 * A source in microseconds drawn in ms as v_ms: its average line (colour
 * and legend in `line`), and the average, the highest (from the MAX
 * archive) and the last value in the legend.
 */
void
graph_us_in_ms(struct graph *g, const char *v, int ds, const char *line)
{
	graph_def(g, v, ds, "AVERAGE");
	graph_el(g, "DEF:%s_max=%s:%s:MAX", v, g->efile, graph_ds_name[ds]);
	graph_el(g, "CDEF:%s_ms=%s,1000,/", v, v);
	graph_el(g, "CDEF:%s_hi=%s_max,1000,/", v, v);
	graph_el(g, "VDEF:%s_avg=%s_ms,AVERAGE", v, v);
	graph_el(g, "VDEF:%s_peak=%s_hi,MAXIMUM", v, v);
	graph_el(g, "VDEF:%s_last=%s_ms,LAST", v, v);
	graph_el(g, "LINE1:%s_ms%s", v, line);
	graph_gp(g, ds, 0, "GPRINT:%s_avg:avg %%8.3lf", v);
	graph_gp(g, ds, 0, "GPRINT:%s_peak:max %%8.3lf", v);
	graph_gp(g, ds, 1, "GPRINT:%s_last:last %%8.3lf ms\\l", v);
}
