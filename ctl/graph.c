/*
 * graph.c: ssdctl graph: draw a drive's RRD archive with librrd's graph
 * API (rrd_graph_v, argv built here; rrdtool is never run).
 *
 * The layout is common/rrd_layout.h. Each --what kind is a row of kinds[]
 * with a builder that adds its options, DEF/CDEF/VDEF and drawing
 * elements. Before drawing, the archive is fetched once (scan) to learn
 * which sources have data in the period, their maxima (to choose units and
 * scales) and where the data starts (a default period starts there).
 *
 * The SMART sources are UNKNOWN between readings: they are drawn held at
 * their last reading while the per-second sources show the daemon was
 * writing the archive (the rate of write_bps is known).
 *
 * A kind with its own drawer (errormap: not RRD data) skips all of that;
 * it draws SVG only.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <json-c/json.h>
#include <rrd.h>

#include "ckpt.h"
#include "ckptgraph.h"
#include "errgraph.h"
#include "graph.h"
#include "palette.h"
#include "rrd_layout.h"
#include "statedir.h"
#include "series_read.h"
#include "tl_read.h"
#include "tlgraph.h"
#include "dggraph.h"

/* Built with AddressSanitizer (make SANITIZE=1): gcc says so with
 * __SANITIZE_ADDRESS__, clang through __has_feature. */
#if defined(__SANITIZE_ADDRESS__)
#define GRAPH_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRAPH_ASAN	1
#endif
#endif
#ifdef GRAPH_ASAN
#include <sanitizer/lsan_interface.h>
#endif

#define EXIT_ERR	1
#define EXIT_USAGE	2
#define MAX_ARGS	120		/* per list: options, elements */
#define MAX_SECONDS	(100L * 366 * 86400)
#define HOT_C		70		/* typical throttling onset, deg C */


/* Data sources in archive order (rrd_layout.h). */
#define DS_NAME(id, name, kind)	name,
static const char *const ds_name[] = { RRD_SOURCES(DS_NAME) };
#undef DS_NAME
#define BIT(ds)		(1u << (ds))

struct opts {
	const char		*drive, *since, *until, *out, *rrd, *daemon;
	const char		*map_dir, *state_dir;
	const char		*probes[CKPTGRAPH_PROBES_MAX];
	size_t			 nprobes;
	long			 passes[TLGRAPH_PASSES_MAX];
	size_t			 npasses;
	long			 checkpoint;	/* degradation; 0: the latest */
	int			 figure;	/* enum ckpt_figure; -1 none */
	const struct kind	*kind;
	int			 width, height, svg, help;
};

/* What the archive holds in the period (AVERAGE). */
struct scan {
	unsigned	have;		/* BIT(ds): some value is known */
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

struct kind {
	const char	*name;
	const char	*title;
	long		 span;		/* default period, seconds */
	unsigned	 mask;		/* its sources */
	const char	*nodata;
	void		(*build)(struct graph *);
	int		(*own)(struct graph *);	/* draws it all */
	int		 svg_only;
};

static void	build_throughput(struct graph *);
static void	build_tbw(struct graph *);
static void	build_wear(struct graph *);
static void	build_temperature(struct graph *);
static void	build_latency(struct graph *);
static void	build_errors(struct graph *);
static void	build_flush(struct graph *);
static int	draw_errormap(struct graph *);
static int	draw_checkpoints(struct graph *);
static int	draw_timeline(struct graph *);
static int	draw_slc(struct graph *);
static int	draw_degradation(struct graph *);

static const struct kind kinds[] = {
	{ "throughput", "throughput", 3600, BIT(DS_WBPS) | BIT(DS_RBPS),
	    "no throughput recorded in this period", build_throughput, NULL, 0 },
	{ "tbw", "total bytes written", 30 * 86400, BIT(DS_HOSTW),
	    "no bytes written recorded in this period", build_tbw, NULL, 0 },
	{ "wear", "wear", 30 * 86400, BIT(DS_PUSED) | BIT(DS_SPARE),
	    "no SMART wear readings in this period", build_wear, NULL, 0 },
	{ "temperature", "temperature", 86400, BIT(DS_TEMP),
	    "no temperature readings in this period", build_temperature, NULL, 0 },
	{ "latency", "p99 write latency", 3600, BIT(DS_LAT),
	    "no latency recorded in this period", build_latency, NULL, 0 },
	{ "errors", "media errors and write amplification", 30 * 86400,
	    BIT(DS_MERR) | BIT(DS_WAF),
	    "no SMART error readings in this period", build_errors, NULL, 0 },
	{ "flush", "cache flush latency", 3600, BIT(DS_FLUSH),
	    "no cache flush recorded in this period", build_flush, NULL, 0 },
	{ "errormap", "where verify passes found bad blocks", 0, 0, NULL,
	    NULL, draw_errormap, 1 },
	{ "checkpoints", "performance checkpoints", 0, 0, NULL, NULL,
	    draw_checkpoints, 0 },
	{ "timeline", "write passes and their cache", 0, 0, NULL, NULL,
	    draw_timeline, 0 },
	{ "slc", "write cache estimate", 0, 0, NULL, NULL, draw_slc, 0 },
	{ "degradation", "degradation run and recovery", 0, 0, NULL, NULL,
	    draw_degradation, 0 },
	{ NULL, NULL, 0, 0, NULL, NULL, NULL, 0 }
};

/* ------------------------------------------------------------ arguments */

static void	add(struct graph *, struct arglist *, const char *, va_list)
		    __attribute__((format(printf, 3, 0)));
static void	opt(struct graph *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	el(struct graph *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	gp(struct graph *, int, int, const char *, ...)
		    __attribute__((format(printf, 4, 5)));

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
static void
opt(struct graph *g, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	add(g, &g->opt, fmt, ap);
	va_end(ap);
}

/* A graph element: DEF, CDEF, VDEF, LINE, GPRINT... */
static void
el(struct graph *g, const char *fmt, ...)
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
static void
gp(struct graph *g, int ds, int eol, const char *fmt, ...)
{
	va_list	ap;

	if (!(g->sc.have & BIT(ds))) {
		if (eol)
			el(g, "COMMENT:  (no data)\\l");
		return;
	}
	va_start(ap, fmt);
	add(g, &g->el, fmt, ap);
	va_end(ap);
}

static void
arglist_free(struct arglist *l)
{
	while (l->n > 0)
		free(l->v[--l->n]);
}

/* DEF:v=FILE:ds:CF */
static void
def(struct graph *g, const char *v, int ds, const char *cf)
{
	el(g, "DEF:%s=%s:%s:%s", v, g->efile, ds_name[ds], cf);
}

/*
 * A SMART source as v: held at its last reading (PREV) while the daemon
 * was recording (write_bps known), so that readings every N seconds draw
 * a line, and a stopped daemon leaves a gap.
 */
static void
smart_def(struct graph *g, const char *v, int ds, const char *cf)
{
	if (!g->have_alive) {
		def(g, "alive", DS_WBPS, "AVERAGE");
		g->have_alive = 1;
	}
	el(g, "DEF:%s_raw=%s:%s:%s", v, g->efile, ds_name[ds], cf);
	el(g, "CDEF:%s=alive,UN,UNKN,%s_raw,UN,PREV,%s_raw,IF,IF", v, v, v);
}

/* A file name for DEF: ':' and '\' escaped. NULL without memory. */
static char *
escape_colons(const char *s)
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

/* ------------------------------------------------------------ the kinds */

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

	def(g, v, r->ds, "AVERAGE");
	el(g, "DEF:%s_min=%s:%s:MIN", v, g->efile, ds_name[r->ds]);
	el(g, "DEF:%s_max=%s:%s:MAX", v, g->efile, ds_name[r->ds]);
	el(g, "CDEF:%s_mb=%s,1000000,/", v, v);
	el(g, "CDEF:%s_lo=%s_min,1000000,/", v, v);
	el(g, "CDEF:%s_hi=%s_max,1000000,/", v, v);
	el(g, "CDEF:%s_band=%s_hi,%s_lo,-", v, v, v);
	el(g, "CDEF:%s_30=%s_mb,30,TRENDNAN", v, v);
	el(g, "VDEF:%s_avg=%s_mb,AVERAGE", v, v);
	el(g, "VDEF:%s_peak=%s_hi,MAXIMUM", v, v);
	el(g, "VDEF:%s_last=%s_mb,LAST", v, v);
}

/* The MIN..MAX band (a pixel is several seconds over a long period). */
static void
rate_band(struct graph *g, const struct rate *r)
{
	el(g, "AREA:%s_lo", r->v);
	el(g, "AREA:%s_band%s28::STACK", r->v, r->colour);
}

static void
rate_line(struct graph *g, const struct rate *r)
{
	el(g, "LINE1:%s_mb%s90:%-6s", r->v, r->colour, r->label);
	gp(g, r->ds, 0, "GPRINT:%s_avg:avg %%7.1lf", r->v);
	gp(g, r->ds, 0, "GPRINT:%s_peak:max %%7.1lf", r->v);
	gp(g, r->ds, 1, "GPRINT:%s_last:last %%7.1lf MB/s\\l", r->v);
}

/*
 * A second at 0 MB/s (MIN of both) within 30 s of I/O: a red tick. The
 * legend is an empty area's: rrdtool 1.7 drops the first character of a
 * TICK's own legend.
 */
static void
stalls(struct graph *g)
{
	el(g, "CDEF:io=w,r,+");
	el(g, "CDEF:io30=io,30,TRENDNAN");
	el(g, "CDEF:st0=w_min,r_min,+,0,LE,io30,0,GT,*");
	el(g, "CDEF:stall=st0,UN,UNKN,st0,1,UNKN,IF,IF");
	el(g, "CDEF:none=w,POP,UNKN");
	el(g, "TICK:stall" RED ":0.08");
	el(g, "AREA:none" RED ":stall\\: a second at 0 MB/s within 30 s of "
	    "I/O\\l");
}

static void
build_throughput(struct graph *g)
{
	size_t	i, n = sizeof(rates) / sizeof(rates[0]);

	opt(g, "--vertical-label=MB/s (10^6 bytes/s)");
	opt(g, "--lower-limit=0");
	opt(g, "--units-exponent=0");
	for (i = 0; i < n; i++)
		rate_defs(g, &rates[i]);
	for (i = 0; i < n; i++)
		rate_band(g, &rates[i]);
	for (i = 0; i < n; i++)
		rate_line(g, &rates[i]);
	for (i = 0; i < n; i++)
		el(g, "LINE2:%s_30%s:%s, 30 s average%s", rates[i].v,
		    rates[i].dark, rates[i].label, i + 1 == n ? "\\l" : "");
	stalls(g);
}

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
	el(g, "CDEF:%s_u=%s,%g,/", v, v, u->div);
	el(g, "VDEF:%s_first=%s_u,FIRST", v, v);
	el(g, "VDEF:%s_last=%s_u,LAST", v, v);
	el(g, "LINE2:%s_u%s:%-27s%s", v, colour, label, style);
	gp(g, ds, 0, "GPRINT:%s_first:first %%9.3lf", v);
	gp(g, ds, 1, "GPRINT:%s_last:last %%9.3lf %s\\l", v, u->name);
}

static void
build_tbw(struct graph *g)
{
	const struct scan	*sc = &g->sc;
	const struct unit	*u;
	double			 m = sc->max[DS_HOSTW];

	if (sc->have & BIT(DS_DEVW) && !(sc->max[DS_DEVW] <= m))
		m = sc->max[DS_DEVW];
	u = bytes_unit(m);
	opt(g, "--vertical-label=%s written (10^%d bytes)", u->name,
	    (int)lround(log10(u->div)));
	opt(g, "--lower-limit=0");
	opt(g, "--units-exponent=0");
	def(g, "hw", DS_HOSTW, "AVERAGE");
	bytes_line(g, "hw", DS_HOSTW, BLUE, "host writes (ssdtorture)", "", u);
	if (sc->have & BIT(DS_DEVW)) {
		smart_def(g, "dw", DS_DEVW, "AVERAGE");
		bytes_line(g, "dw", DS_DEVW, ORANGE, "host writes (drive SMART)",
		    ":dashes", u);
	}
	if (sc->have & BIT(DS_NANDW)) {
		smart_def(g, "nw", DS_NANDW, "AVERAGE");
		bytes_line(g, "nw", DS_NANDW, PURPLE, "NAND writes (drive SMART)", "",
		    u);
	}
	if (!(sc->have & (BIT(DS_DEVW) | BIT(DS_NANDW))))
		el(g, "COMMENT:no SMART write counters in this period\\l");
}

/* A SMART percentage v: line, first and last. */
static void
percent_line(struct graph *g, const char *v, int ds, const char *colour,
    const char *label)
{
	smart_def(g, v, ds, "AVERAGE");
	el(g, "VDEF:%s_first=%s,FIRST", v, v);
	el(g, "VDEF:%s_last=%s,LAST", v, v);
	el(g, "LINE2:%s%s:%-17s", v, colour, label);
	gp(g, ds, 0, "GPRINT:%s_first:first %%5.1lf %%%%", v);
	gp(g, ds, 1, "GPRINT:%s_last:last %%5.1lf %%%%\\l", v);
}

static void
build_wear(struct graph *g)
{
	opt(g, "--vertical-label=percent");
	opt(g, "--lower-limit=0");
	opt(g, "--upper-limit=100");
	opt(g, "--units-exponent=0");
	percent_line(g, "pu", DS_PUSED, RED, "percent used");
	percent_line(g, "sp", DS_SPARE, GREEN, "available spare");
	def(g, "hw", DS_HOSTW, "AVERAGE");
	el(g, "CDEF:hw_tb=hw,1000000000000,/");
	el(g, "VDEF:tbw=hw_tb,LAST");
	if (!(g->sc.have & BIT(DS_HOSTW)))
		return;
	el(g, "VRULE:tbw#888888:host writes (TBW) at the end\\::dashes");
	el(g, "GPRINT:tbw:%%.3lf TB\\l");
}

/* Whether the temperature reached HOT_C, from the scan. */
static void
throttle_comment(struct graph *g)
{
	double	m = g->sc.max[DS_TEMP];

	if (!(g->sc.have & BIT(DS_TEMP)))
		return;
	if (m >= HOT_C)
		el(g, "COMMENT:reached %.0f °C\\: the drive may have throttled "
		    "writes (see its warning/critical temperature time in "
		    "ssdctl smart)\\l", m);
	else
		el(g, "COMMENT:stayed below %d °C\\: thermal throttling is "
		    "unlikely\\l", HOT_C);
}

static void
build_temperature(struct graph *g)
{
	opt(g, "--vertical-label=°C");
	opt(g, "--lower-limit=20");
	opt(g, "--upper-limit=%d", HOT_C + 10);
	opt(g, "--units-exponent=0");
	smart_def(g, "t", DS_TEMP, "AVERAGE");
	smart_def(g, "tx", DS_TEMP, "MAX");
	el(g, "VDEF:t_avg=t,AVERAGE");
	el(g, "VDEF:t_max=tx,MAXIMUM");
	el(g, "VDEF:t_last=t,LAST");
	el(g, "CDEF:hot=t,%d,GE,60,/", HOT_C);
	el(g, "VDEF:hot_min=hot,TOTAL");
	el(g, "LINE2:t" ORANGE ":temperature");
	gp(g, DS_TEMP, 0, "GPRINT:t_avg:avg %%3.0lf °C");
	gp(g, DS_TEMP, 0, "GPRINT:t_max:max %%3.0lf °C");
	gp(g, DS_TEMP, 1, "GPRINT:t_last:last %%3.0lf °C\\l");
	el(g, "HRULE:%d" RED "A0:%d °C\\: where many drives start to "
	    "throttle:dashes", HOT_C, HOT_C);
	gp(g, DS_TEMP, 1, "GPRINT:hot_min:(at or above it for %%.1lf min)"
	    "\\l");
	throttle_comment(g);
}

/*
 * A source in microseconds drawn in ms as v_ms: its average line (colour
 * and legend in `line`), and the average, the highest (from the MAX
 * archive) and the last value in the legend.
 */
static void
us_in_ms(struct graph *g, const char *v, int ds, const char *line)
{
	def(g, v, ds, "AVERAGE");
	el(g, "DEF:%s_max=%s:%s:MAX", v, g->efile, ds_name[ds]);
	el(g, "CDEF:%s_ms=%s,1000,/", v, v);
	el(g, "CDEF:%s_hi=%s_max,1000,/", v, v);
	el(g, "VDEF:%s_avg=%s_ms,AVERAGE", v, v);
	el(g, "VDEF:%s_peak=%s_hi,MAXIMUM", v, v);
	el(g, "VDEF:%s_last=%s_ms,LAST", v, v);
	el(g, "LINE1:%s_ms%s", v, line);
	gp(g, ds, 0, "GPRINT:%s_avg:avg %%8.3lf", v);
	gp(g, ds, 0, "GPRINT:%s_peak:max %%8.3lf", v);
	gp(g, ds, 1, "GPRINT:%s_last:last %%8.3lf ms\\l", v);
}

/* The p99 write latency of each second, and its 30 s average. */
static void
build_latency(struct graph *g)
{
	opt(g, "--vertical-label=p99 write latency (ms)");
	opt(g, "--lower-limit=0");
	opt(g, "--units-exponent=0");
	us_in_ms(g, "l", DS_LAT, PURPLE "90:p99 of each second");
	el(g, "CDEF:l_30=l_ms,30,TRENDNAN");
	el(g, "LINE2:l_30" DARKPURPLE ":30 s average\\l");
}

/* How long the drive takes to flush its write cache (once a second). */
static void
build_flush(struct graph *g)
{
	opt(g, "--vertical-label=cache flush latency (ms)");
	opt(g, "--lower-limit=0");
	opt(g, "--units-exponent=0");
	us_in_ms(g, "f", DS_FLUSH, ORANGE ":flush latency");
}

/* Left axis 0..top (media errors), 5 grid lines. */
static double
errors_top(const struct scan *sc)
{
	double	m = sc->max[DS_MERR];

	if (!(sc->have & BIT(DS_MERR)) || isnan(m) || m <= 4)
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
	opt(g, "--right-axis=%g:0", wtop / top);
	opt(g, "--right-axis-label=write amplification (WAF)");
	opt(g, "--right-axis-format=%%.2lf");
	smart_def(g, "waf", DS_WAF, "AVERAGE");
	el(g, "CDEF:waf_s=waf,%g,/", wtop / top);
	el(g, "VDEF:waf_last=waf,LAST");
	el(g, "LINE2:waf_s" BLUE ":write amplification (right axis)");
	gp(g, DS_WAF, 1, "GPRINT:waf_last:last %%5.2lf\\l");
}

static void
build_errors(struct graph *g)
{
	double	top = errors_top(&g->sc);

	opt(g, "--vertical-label=media errors");
	opt(g, "--lower-limit=0");
	opt(g, "--upper-limit=%g", top);
	opt(g, "--rigid");
	opt(g, "--y-grid=%g:1", top / 5);
	opt(g, "--left-axis-format=%%.0lf");
	opt(g, "--units-exponent=0");
	smart_def(g, "me", DS_MERR, "AVERAGE");
	el(g, "VDEF:me_first=me,FIRST");
	el(g, "VDEF:me_last=me,LAST");
	el(g, "LINE2:me" RED ":media errors%21s", "");
	gp(g, DS_MERR, 0, "GPRINT:me_first:first %%6.0lf");
	gp(g, DS_MERR, 1, "GPRINT:me_last:last %%6.0lf\\l");
	if (g->sc.have & BIT(DS_WAF))
		waf_axis(g, top);
	else
		el(g, "COMMENT:no write amplification (WAF) readings in this "
		    "period\\l");
}

/* ------------------------------------------------------------ options */

/* The synopsis; full: what every option takes. */
static void
usage(FILE *fp, int full)
{
	const struct kind	*k;

	fprintf(fp, "usage: ssdctl graph DRIVE --what KIND -o FILE.png|FILE.svg"
	    "\n\t[--since DURATION|TIME] [--until now|DURATION|TIME]\n"
	    "\t[--width N] [--height N] [--rrd FILE] [--daemon ADDR]\n"
	    "\t[--map-dir DIR] [--probe ID]... [--figure iops|mbps|p99|p99.9|cache]"
	    "\n\t[--pass N]... [--checkpoint N] [--state-dir DIR]\nKIND:");
	for (k = kinds; k->name != NULL; k++)
		fprintf(fp, " %s%s", k->name, k->svg_only ? " (SVG only)" : "");
	if (!full) {
		fprintf(fp, "\n(ssdctl graph --help: more)\n");
		return;
	}
	fprintf(fp, "\nDURATION: 90s, 30m, 2h, 7d, 2w, 1h30m (before --until)"
	    "\nTIME: seconds since 1970, @SECONDS, YYYY-MM-DD[ HH:MM[:SS]] "
	    "or an rrdtool at-style time\n--width/--height: the image in "
	    "pixels (default 1000x450)\n--rrd FILE: graph that archive "
	    "instead of asking the daemon; --daemon ADDR: read it through "
	    "rrdcached (unix:/path or host:port)\n--map-dir DIR: draw the "
	    "error maps of DIR/errors (a copy of a drive's state directory) "
	    "instead of asking the daemon\n--what checkpoints: --probe ID "
	    "(repeated, up to %d; default: the 4 KiB random QD1/QD32 and "
	    "128 KiB sequential reads and writes), --figure (default: each "
	    "probe's headline, IOPS or MB/s), --state-dir DIR: read "
	    "DIR/DRIVE/checkpoints.jsonl instead of asking the daemon\n"
	    "--what timeline: --pass N (repeated, up to %d; 0: the static "
	    "fill; default: the first pass and the latest), --state-dir DIR: "
	    "read DIR/DRIVE/timelines instead of asking the daemon\n"
	    "--what slc: the estimate of every pass kept against the TB "
	    "written; --state-dir DIR as for timeline\n--what degradation: "
	    "the degradation run of a full checkpoint and the recovery runs "
	    "after it, --checkpoint N (default: the latest that ran one), "
	    "--state-dir DIR: read DIR/DRIVE/series\n",
	    CKPTGRAPH_PROBES_MAX, TLGRAPH_PASSES_MAX);
}

static const struct kind *
find_kind(const char *name)
{
	const struct kind	*k;

	for (k = kinds; k->name != NULL; k++)
		if (strcmp(k->name, name) == 0)
			return k;
	return NULL;
}

int
graph_kind_from_archive(const char *kind)
{
	const struct kind	*k = find_kind(kind);

	return k != NULL && k->own == NULL;
}

/* Is pass p among the --pass options so far? (Each is drawn once.) */
static int
pass_given(const struct opts *o, long p)
{
	size_t	i;

	for (i = 0; i < o->npasses; i++)
		if (o->passes[i] == p)
			return 1;
	return 0;
}

/* A control character (a name the graph programs would not write). */
static int
has_control(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return 1;
	return 0;
}

/* A pass number, 0 to INT32_MAX. */
static int
parse_long(const char *s, long *out)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0 || v > INT32_MAX)
		return -1;
	*out = v;
	return 0;
}

static int
parse_size(const char *s, int lo, int hi, int *out)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

/* The format from the extension of -o: 0 PNG, 1 SVG, -1 neither. */
static int
out_format(const char *path)
{
	const char	*dot = strrchr(path, '.');

	if (dot == NULL || strchr(dot, '/') != NULL)
		return -1;
	if (strcasecmp(dot, ".png") == 0)
		return 0;
	if (strcasecmp(dot, ".svg") == 0)
		return 1;
	return -1;
}

/* One option; -1 with a message (unless quiet) when its value is bad. */
static int
set_opt(struct opts *o, int ch, const char *arg, int quiet)
{
	const char	*what = NULL;

	switch (ch) {
	case 'w':
		if ((o->kind = find_kind(arg)) == NULL)
			what = "--what: unknown kind";
		break;
	case 's': o->since = arg; break;
	case 'u': o->until = arg; break;
	case 'r': o->rrd = arg; break;
	case 'd': o->daemon = arg; break;
	case 'm': o->map_dir = arg; break;
	case 'S': o->state_dir = arg; break;
	case 'P':
		if (o->nprobes == CKPTGRAPH_PROBES_MAX)
			what = "--probe: too many probes for one graph";
		else
			o->probes[o->nprobes++] = arg;
		break;
	case 'p':
		if (o->npasses == TLGRAPH_PASSES_MAX)
			what = "--pass: too many passes for one graph";
		else if (parse_long(arg, &o->passes[o->npasses]) == -1)
			what = "--pass: expected a pass number (0: the static fill)";
		else if (!pass_given(o, o->passes[o->npasses]))
			o->npasses++;
		break;
	case 'C':
		if (parse_long(arg, &o->checkpoint) == -1 || o->checkpoint == 0)
			what = "--checkpoint: expected a checkpoint number from 1";
		break;
	case 'F':
		if ((o->figure = ckpt_figure_parse(arg)) == -1)
			what = "--figure: expected iops, mbps, p99, p99.9 or "
			    "cache";
		break;
	case 'o':
		o->out = arg;
		if ((o->svg = out_format(arg)) == -1)
			what = "-o: the file name must end in .png or .svg";
		else if (has_control(arg))
			what = "-o: a control character in the file name";
		break;
	case 'W':
		if (parse_size(arg, 200, 10000, &o->width) == -1)
			what = "--width: expected 200 to 10000 pixels";
		break;
	case 'H':
		if (parse_size(arg, 120, 10000, &o->height) == -1)
			what = "--height: expected 120 to 10000 pixels";
		break;
	case 'h': o->help = 1; break;
	default: what = ""; break;
	}
	if (what != NULL && what[0] != '\0' && !quiet)
		fprintf(stderr, "ssdctl graph: %s: '%s'\n", what, arg);
	return what == NULL ? 0 : -1;
}

/*
 * Parse argv (DRIVE and options in any order). Returns 0, or -1 on a
 * usage error (messages unless quiet; parsing goes on to the end).
 */
static int
parse_opts(int argc, char **argv, struct opts *o, int quiet)
{
	static const struct option longopts[] = {
		{ "what", required_argument, NULL, 'w' },
		{ "since", required_argument, NULL, 's' },
		{ "until", required_argument, NULL, 'u' },
		{ "output", required_argument, NULL, 'o' },
		{ "width", required_argument, NULL, 'W' },
		{ "height", required_argument, NULL, 'H' },
		{ "rrd", required_argument, NULL, 'r' },
		{ "daemon", required_argument, NULL, 'd' },
		{ "map-dir", required_argument, NULL, 'm' },
		{ "state-dir", required_argument, NULL, 'S' },
		{ "probe", required_argument, NULL, 'P' },
		{ "pass", required_argument, NULL, 'p' },
		{ "figure", required_argument, NULL, 'F' },
		{ "checkpoint", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char	**av = calloc((size_t)argc + 2, sizeof(*av));
	int	  ch, bad = 0, saved = opterr;

	memset(o, 0, sizeof(*o));
	o->width = 1000;
	o->height = 450;
	o->figure = -1;
	if (av == NULL)
		return -1;
	av[0] = "ssdctl graph";
	memcpy(av + 1, argv, (size_t)argc * sizeof(*av));
	optind = 0;		/* a full re-initialisation (GNU) */
	opterr = !quiet;
	while ((ch = getopt_long(argc + 1, av, "o:h", longopts, NULL)) != -1)
		bad |= set_opt(o, ch, optarg, quiet);
	opterr = saved;
	if (optind + 1 == argc + 1)
		o->drive = av[optind];
	free(av);
	return bad ? -1 : 0;
}

/* What is wrong with the options for graph_main, or NULL. */
static const char *
opts_problem(const struct opts *o)
{
	const char	*what = NULL;

	if (o->drive == NULL)
		what = "one DRIVE expected";
	else if (o->kind == NULL)
		what = "--what KIND is required";
	else if (o->out == NULL)
		what = "-o FILE.png|FILE.svg is required";
	else if (o->kind->svg_only && !o->svg)
		what = "--what errormap draws SVG only: give -o FILE.svg";
	else if (o->kind->own != NULL && (o->rrd != NULL ||
	    o->daemon != NULL || o->since != NULL || o->until != NULL))
		what = "--rrd, --daemon, --since and --until are for the "
		    "archive; errormap draws every verify pass (--map-dir DIR: "
		    "from a state directory), checkpoints every checkpoint, "
		    "timeline the passes chosen, slc the passes kept, "
		    "degradation a checkpoint's runs (--state-dir DIR: from a "
		    "state directory)";
	else if (o->kind->own != draw_errormap && o->map_dir != NULL)
		what = "--map-dir is for --what errormap";
	else if (o->kind->own != draw_checkpoints && (o->nprobes > 0 ||
	    o->figure != -1))
		what = "--probe and --figure are for --what checkpoints";
	else if (o->kind->own != draw_timeline && o->npasses > 0)
		what = "--pass is for --what timeline";
	else if (o->kind->own != draw_degradation && o->checkpoint > 0)
		what = "--checkpoint is for --what degradation";
	else if ((o->kind->own == NULL || o->kind->own == draw_errormap) &&
	    o->state_dir != NULL)
		what = "--state-dir is for --what checkpoints, timeline, slc "
		    "and degradation";
	return what;
}

/* Everything graph_main needs; -1 with a message on a usage error. */
static int
check_opts(const struct opts *o)
{
	const char	*what = opts_problem(o);

	if (what != NULL)
		fprintf(stderr, "ssdctl graph: %s\n", what);
	return what == NULL ? 0 : -1;
}

int
graph_needs_daemon(int argc, char **argv)
{
	struct opts	o;

	return parse_opts(argc, argv, &o, 1) == 0 && !o.help &&
	    opts_problem(&o) == NULL && o.rrd == NULL && o.map_dir == NULL &&
	    o.state_dir == NULL;
}

/* ------------------------------------------------------------ time */

/* "90s", "30m", "2h", "1h30m", "7d", "2w" in seconds; -1 if not one. */
static long
duration(const char *s)
{
	static const char	 units[] = "smhdw";
	static const long	 mult[] = { 1, 60, 3600, 86400, 604800 };
	const char		*u;
	char			*end;
	long			 n, total = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	while (*s != '\0') {
		if (!isdigit((unsigned char)*s))
			return -1;
		errno = 0;
		n = strtol(s, &end, 10);
		if (errno != 0 || *end == '\0' ||
		    (u = strchr(units, *end)) == NULL)
			return -1;
		if (n > MAX_SECONDS / mult[u - units])
			return -1;
		total += n * mult[u - units];
		if (total > MAX_SECONDS)
			return -1;
		s = end + 1;
	}
	return total;
}

/* YYYY-MM-DD[( |T)HH:MM[:SS]], local time. */
static int
iso_time(const char *s, time_t *t)
{
	struct tm	tm;
	int		n = 0;

	memset(&tm, 0, sizeof(tm));
	if (sscanf(s, "%4d-%2d-%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
	    &n) != 3 || n == 0)
		return -1;
	s += n;
	if (*s == ' ' || *s == 'T') {
		n = 0;
		if (sscanf(s + 1, "%2d:%2d%n", &tm.tm_hour, &tm.tm_min,
		    &n) != 2 || n == 0)
			return -1;
		s += 1 + n;
		n = 0;
		if (*s == ':' && (sscanf(s + 1, "%2d%n", &tm.tm_sec, &n) != 1 ||
		    n == 0))
			return -1;
		s += *s == ':' ? 1 + n : 0;
	}
	if (*s != '\0')
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_isdst = -1;
	*t = mktime(&tm);
	return *t == (time_t)-1 ? -1 : 0;
}

/* A --since/--until value as an rrdtool time; durations count back from
 * base ("end" for --since, "now" for --until). */
static void
time_spec(const char *s, const char *base, char *buf, size_t len)
{
	long	d;
	time_t	t;

	if ((d = duration(s)) >= 0)
		snprintf(buf, len, "%s-%ld", base, d);
	else if (iso_time(s, &t) == 0)
		snprintf(buf, len, "%lld", (long long)t);
	else if (s[0] == '@' && isdigit((unsigned char)s[1]))
		snprintf(buf, len, "%s", s + 1);
	else
		snprintf(buf, len, "%s", s);
}

/* --since and --until to g->start, g->end; -1 with a message. */
static int
resolve_range(struct graph *g)
{
	const struct opts	*o = g->o;
	rrd_time_value_t	 st, et;
	char			 s[128], e[128];
	const char		*err;

	time_spec(o->until != NULL ? o->until : "now", "now", e, sizeof(e));
	if (o->since != NULL)
		time_spec(o->since, "end", s, sizeof(s));
	else
		snprintf(s, sizeof(s), "end-%ld", o->kind->span);
	if ((err = rrd_parsetime(e, &et)) != NULL ||
	    (err = rrd_parsetime(s, &st)) != NULL) {
		fprintf(stderr, "ssdctl graph: --since/--until: %s\n", err);
		return -1;
	}
	rrd_clear_error();
	if (rrd_proc_start_end(&st, &et, &g->start, &g->end) == -1 ||
	    g->start >= g->end) {
		fprintf(stderr, "ssdctl graph: --since/--until: %s\n",
		    rrd_test_error() ? rrd_get_error() :
		    "the start must come before the end");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ archive */

static const char *
jstr(json_object *o, const char *key)
{
	json_object	*v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) || v == NULL)
		return "";
	return json_object_get_string(v);
}

/* Which file, read how: --rrd, else the drive's archive. */
static int
locate(struct graph *g)
{
	json_object	*a = NULL;
	const char	*d = g->o->daemon;

	if (g->o->rrd != NULL)
		g->file = g->o->rrd;
	else if (g->drive != NULL &&
	    json_object_object_get_ex(g->drive, "archive", &a) &&
	    jstr(a, "file")[0] != '\0') {
		g->file = jstr(a, "file");
		if (d == NULL)
			d = jstr(a, "daemon");
	} else {
		fprintf(stderr, "ssdctl graph: %s: %s (give one with --rrd "
		    "FILE)\n", g->o->drive, g->drive == NULL ? "no drive status"
		    : "the daemon reports no RRD archive for this drive");
		return -1;
	}
	g->daemon = d != NULL && d[0] != '\0' ? d : NULL;
	if ((g->efile = escape_colons(g->file)) == NULL) {
		fprintf(stderr, "ssdctl graph: out of memory\n");
		return -1;
	}
	return 0;
}

/* librrd's error, with a hint for what trips people up. */
static int
rrd_failed(const struct graph *g, const char *what)
{
	const char	*d = g->daemon;

	fprintf(stderr, "ssdctl graph: %s%s%s: %s: %s\n", g->file,
	    d != NULL ? " via " : "", d != NULL ? d : "", what,
	    rrd_test_error() ? rrd_get_error() : "failed");
	if (d != NULL && g->file[0] != '/' &&
	    (d[0] == '/' || strncmp(d, "unix:", 5) == 0))
		fprintf(stderr, "ssdctl graph: (with rrdcached on a unix "
		    "socket, librrd resolves a relative file name in the "
		    "current directory: give the archive's absolute path)\n");
	return EXIT_ERR;
}

struct fetched {
	time_t		 start, end;
	unsigned long	 step, nds;
	char		**names;
	rrd_value_t	*data;
};

static void
fetched_free(struct fetched *f)
{
	unsigned long	i;

	for (i = 0; f->names != NULL && i < f->nds; i++)
		rrd_freemem(f->names[i]);
	rrd_freemem(f->names);
	rrd_freemem(f->data);
	memset(f, 0, sizeof(*f));
}

static int
ds_index(const char *name)
{
	int	i;

	for (i = 0; i < RRD_NDS; i++)
		if (strcmp(ds_name[i], name) == 0)
			return i;
	return -1;
}

/* Presence, maxima and first time of the fetched AVERAGE rows. */
static void
scan_rows(struct scan *sc, const struct fetched *f)
{
	unsigned long	 r, c, rows = (f->end - f->start) / f->step;
	double		 v;
	int		 ds;

	memset(sc, 0, sizeof(*sc));
	for (c = 0; c < RRD_NDS; c++)
		sc->max[c] = NAN;
	for (c = 0; c < f->nds; c++) {
		if ((ds = ds_index(f->names[c])) < 0)
			continue;
		for (r = 0; r < rows; r++) {
			v = f->data[r * f->nds + c];
			if (isnan(v))
				continue;
			if (!(v <= sc->max[ds]))
				sc->max[ds] = v;
			if ((sc->first == 0 ||
			    f->start + (time_t)(r * f->step) < sc->first))
				sc->first = f->start + (time_t)(r * f->step);
			sc->have |= BIT(ds);
		}
	}
}

/* Fetch g->start..g->end (AVERAGE) and scan it. */
static int
scan(struct graph *g)
{
	struct fetched	 f;
	char		 s[32], e[32];
	char		*av[] = { "fetch", (char *)g->file, "AVERAGE",
			    "--start", s, "--end", e, "--daemon",
			    (char *)g->daemon, NULL };

	memset(&f, 0, sizeof(f));
	snprintf(s, sizeof(s), "%lld", (long long)g->start);
	snprintf(e, sizeof(e), "%lld", (long long)g->end);
	rrd_clear_error();
	if (rrd_fetch(g->daemon ? 9 : 7, av, &f.start, &f.end, &f.step,
	    &f.nds, &f.names, &f.data) == -1 || f.step == 0) {
		fetched_free(&f);
		return rrd_failed(g, "reading");
	}
	scan_rows(&g->sc, &f);
	fetched_free(&f);
	return 0;
}

/*
 * Without --since, the period starts where the data does (at most the
 * kind's default span back, at least 10 minutes): scan, move the start,
 * scan again (a shorter period reads a finer archive).
 */
static int
scan_and_fit(struct graph *g)
{
	time_t	first, margin;

	if (scan(g) != 0)
		return EXIT_ERR;
	first = g->sc.first;
	if (g->o->since != NULL || first == 0 || first <= g->start)
		return 0;
	margin = (g->end - first) / 40;
	first -= margin < 30 ? 30 : margin;
	if (g->end - first < 600)
		first = g->end - 600;
	if (first <= g->start)
		return 0;
	g->start = first;
	return scan(g);
}

/* ------------------------------------------------------------ drawing */

/* "NAME (MODEL SERIAL): what the kind shows" */
static void
title_text(const struct graph *g, char *buf, size_t len)
{
	const char	*name = jstr(g->drive, "name"), *model, *serial;

	model = jstr(g->drive, "model");
	serial = jstr(g->drive, "serial");
	if (name[0] == '\0')
		name = g->o->drive;
	if (model[0] != '\0' || serial[0] != '\0')
		snprintf(buf, len, "%s (%s%s%s): %s", name, model,
		    model[0] != '\0' && serial[0] != '\0' ? " " : "", serial,
		    g->o->kind->title);
	else
		snprintf(buf, len, "%s: %s", name, g->o->kind->title);
}

static void
title(struct graph *g)
{
	char	t[1024];

	title_text(g, t, sizeof(t));
	opt(g, "--title=%s", t);
}

/* Size, period, fonts and colours: the same for every kind. */
static void
common_opts(struct graph *g)
{
	static const char *const look[] = {
		"--full-size-mode", "--disable-rrdtool-tag", "--border=0",
		"--font=DEFAULT:" PAL_FONT_SIZE ":" PAL_FONT,
		"--font=TITLE:" PAL_TITLE_SIZE ":" PAL_FONT,
		"--font=LEGEND:" PAL_FONT_SIZE ":" PAL_FONT " Mono",
		"--color=BACK#FFFFFF", "--color=CANVAS#FFFFFF",
		"--color=SHADEA#FFFFFF", "--color=SHADEB#FFFFFF",
		"--color=GRID" PAL_GRID "80", "--color=MGRID#BBBBBBA0",
		"--color=FONT" PAL_INK, "--color=AXIS" PAL_AXIS,
		"--color=ARROW" PAL_AXIS, "--color=FRAME" PAL_AXIS, NULL
	};
	int	i;

	opt(g, "graph");
	opt(g, "%s", g->o->out);
	opt(g, "--imgformat=%s", g->o->svg ? "SVG" : "PNG");
	opt(g, "--width=%d", g->o->width);
	opt(g, "--height=%d", g->o->height);
	opt(g, "--start=%lld", (long long)g->start);
	opt(g, "--end=%lld", (long long)g->end);
	for (i = 0; look[i] != NULL; i++)
		opt(g, "%s", look[i]);
	if (g->daemon != NULL)
		opt(g, "--daemon=%s", g->daemon);
	title(g);
}

/* The period, right-aligned under the legend. */
static void
period_comment(struct graph *g)
{
	char	a[40], b[40];

	strftime(a, sizeof(a), "%Y-%m-%d %H\\:%M\\:%S", localtime(&g->start));
	strftime(b, sizeof(b), "%Y-%m-%d %H\\:%M\\:%S", localtime(&g->end));
	if (!(g->sc.have & g->o->kind->mask))
		el(g, "COMMENT:%s\\l", g->o->kind->nodata);
	el(g, "COMMENT:%s to %s\\r", a, b);
}

static int
render(struct graph *g)
{
	char		*av[2 * MAX_ARGS + 1];
	rrd_info_t	*info;
	int		 n = 0, i;

	for (i = 0; i < g->opt.n; i++)
		av[n++] = g->opt.v[i];
	for (i = 0; i < g->el.n; i++)
		av[n++] = g->el.v[i];
	av[n] = NULL;
	rrd_clear_error();
#ifdef GRAPH_ASAN
	/* librrd 1.7 leaks strings of its own (vasprintf) in rrd_graph_v;
	 * with no frame pointers in librrd no suppression can match them */
	__lsan_disable();
#endif
	info = rrd_graph_v(n, av);
#ifdef GRAPH_ASAN
	__lsan_enable();
#endif
	if (info == NULL || rrd_test_error()) {
		rrd_info_free(info);
		return rrd_failed(g, "drawing");
	}
	rrd_info_free(info);
	return 0;
}

static int
draw(struct graph *g)
{
	common_opts(g);
	g->o->kind->build(g);
	period_comment(g);
	if (g->full) {
		fprintf(stderr, "ssdctl graph: out of memory\n");
		return EXIT_ERR;
	}
	return render(g);
}

/* The error maps, from the daemon or from --map-dir: errgraph.c. */
static int
draw_errormap(struct graph *g)
{
	struct errgraph_in	in = { .out = g->o->out, .width = g->o->width,
	    .height = g->o->height, .map_dir = g->o->map_dir };
	char			t[1024];

	title_text(g, t, sizeof(t));
	in.title = t;
	if (g->src != NULL) {
		in.fetch = g->src->fetch;
		in.arg = g->src->arg;
	}
	if (in.map_dir == NULL && in.fetch == NULL) {
		fprintf(stderr, "ssdctl graph: no daemon to ask for the error "
		    "maps\n");
		return EXIT_ERR;
	}
	return errgraph_draw(&in);
}

/* The checkpoint results, from the daemon or --state-dir: ckptgraph.c. */
static int
draw_checkpoints(struct graph *g)
{
	const struct opts	*o = g->o;
	struct ckptgraph_in	 in = { .out = o->out, .svg = o->svg,
	    .width = o->width, .height = o->height, .figure = o->figure,
	    .nprobes = o->nprobes };
	char			 t[1024];
	int			 rc;

	title_text(g, t, sizeof(t));
	in.title = t;
	memcpy(in.probes, o->probes, sizeof(in.probes));
	if (o->state_dir != NULL) {
		in.lines = json_object_new_array();
		if (ckpt_load_dir(o->state_dir, o->drive, in.lines) == -1) {
			json_object_put(in.lines);
			return EXIT_ERR;
		}
	} else if (g->src == NULL || g->src->ckpt == NULL) {
		fprintf(stderr, "ssdctl graph: no daemon to ask for the "
		    "checkpoint results\n");
		return EXIT_ERR;
	} else if ((in.lines = g->src->ckpt(g->src->arg, o->drive)) == NULL)
		return EXIT_ERR;
	rc = ckptgraph_draw(&in);
	json_object_put(in.lines);
	return rc;
}

/* From --state-dir: the passes in `want` (n; 0: all kept). */
static json_object *
timelines_dir(const struct opts *o, const long *want, size_t n, int whole)
{
	json_object	*arr = json_object_new_array();
	char		 dir[PATH_MAX];
	uint64_t	 p[TLGRAPH_PASSES_MAX];
	size_t		 i;

	for (i = 0; i < n; i++)
		p[i] = (uint64_t)want[i];
	if (statedir_drive_dir(dir, sizeof(dir), o->state_dir, o->drive) == 0 &&
	    tl_read(dir, p, n, whole, arr) == 0)
		return arr;
	fprintf(stderr, "ssdctl graph: %s/%s/timelines: %s\n", o->state_dir,
	    o->drive, strerror(errno));
	json_object_put(arr);
	return NULL;
}

/* From the daemon: every kept pass's figures (n 0), or each of `want`
 * whole, one call each. */
static json_object *
timelines_daemon(struct graph *g, const long *want, size_t n)
{
	const struct graph_src	*src = g->src;
	json_object		*arr, *one;
	size_t			 i;

	if (src == NULL || src->timelines == NULL) {
		fprintf(stderr, "ssdctl graph: no daemon to ask for the "
		    "timelines\n");
		return NULL;
	}
	if (n == 0)
		return src->timelines(src->arg, g->o->drive, -1);
	arr = json_object_new_array();
	for (i = 0; i < n; i++) {
		if ((one = src->timelines(src->arg, g->o->drive,
		    want[i])) == NULL) {
			json_object_put(arr);
			return NULL;
		}
		if (json_object_array_length(one) > 0)
			json_object_array_add(arr, json_object_get(
			    json_object_array_get_idx(one, 0)));
		json_object_put(one);
	}
	return arr;
}

/* The timelines of the passes in `want` (n; 0: all kept, as figures);
 * NULL after a message. */
static json_object *
timelines_of(struct graph *g, const long *want, size_t n)
{
	if (g->o->state_dir != NULL)
		return timelines_dir(g->o, want, n, n > 0);
	return timelines_daemon(g, want, n);
}

/* The passes drawn when none is chosen: the first of the cycles (the
 * static fill when there is none) and the latest. */
static size_t
default_passes(json_object *figures, long *out)
{
	size_t	n = json_object_array_length(figures), i, k = 0;
	long	p, first = -1, last = -1;

	for (i = 0; i < n; i++) {
		p = (long)json_object_get_int64(json_object_object_get(
		    json_object_array_get_idx(figures, i), "pass"));
		if (first == -1 || (first == 0 && p > 0))
			first = p;
		last = p > last ? p : last;
	}
	if (first >= 0)
		out[k++] = first;
	if (last > first)
		out[k++] = last;
	return k;
}

/* Write passes against the GB written in them: tlgraph.c. */
static int
draw_timeline(struct graph *g)
{
	const struct opts	*o = g->o;
	struct tlgraph_in	 in = { .out = o->out, .svg = o->svg,
	    .width = o->width, .height = o->height };
	long			 want[TLGRAPH_PASSES_MAX];
	size_t			 n = o->npasses, i;
	json_object		*figs;
	char			 t[1024];
	int			 rc;

	title_text(g, t, sizeof(t));
	in.title = t;
	for (i = 0; i < n; i++)
		want[i] = o->passes[i];
	if (n == 0) {
		if ((figs = timelines_of(g, NULL, 0)) == NULL)
			return EXIT_ERR;
		n = default_passes(figs, want);
		json_object_put(figs);
	}
	if (n == 0) {
		fprintf(stderr, "ssdctl graph: no write pass timelines yet\n");
		return EXIT_ERR;
	}
	if ((in.tls = timelines_of(g, want, n)) == NULL)
		return EXIT_ERR;
	if (json_object_array_length(in.tls) < n)
		fprintf(stderr, "ssdctl graph: %zu of the passes asked for "
		    "have no timeline kept (timeline_every), or one that "
		    "cannot be read\n", n - json_object_array_length(in.tls));
	rc = tlgraph_draw(&in);
	json_object_put(in.tls);
	return rc;
}

/* The write-cache estimates of the kept passes against TBW: tlgraph.c. */
static int
draw_slc(struct graph *g)
{
	struct tlgraph_in	in = { .out = g->o->out, .svg = g->o->svg,
	    .width = g->o->width, .height = g->o->height };
	char			t[1024];
	int			rc;

	title_text(g, t, sizeof(t));
	in.title = t;
	if ((in.tls = timelines_of(g, NULL, 0)) == NULL)
		return EXIT_ERR;
	rc = tlgraph_draw_slc(&in);
	json_object_put(in.tls);
	return rc;
}

int
graph_main(int argc, char **argv, const struct graph_src *src)
{
	struct opts	o;
	struct graph	g;
	int		rc;

	if (parse_opts(argc, argv, &o, 0) == -1 || (!o.help &&
	    check_opts(&o) == -1)) {
		usage(stderr, 0);
		return EXIT_USAGE;
	}
	if (o.help) {
		usage(stdout, 1);
		return 0;
	}
	memset(&g, 0, sizeof(g));
	g.o = &o;
	g.src = src;
	g.drive = src != NULL ? src->drive : NULL;
	if (o.kind->own != NULL)
		return o.kind->own(&g);
	if (resolve_range(&g) == -1)
		return EXIT_USAGE;
	if (locate(&g) == -1)
		return EXIT_ERR;
	if ((rc = scan_and_fit(&g)) == 0)
		rc = draw(&g);
	arglist_free(&g.opt);
	arglist_free(&g.el);
	free(g.efile);
	return rc;
}

/* A full checkpoint's degradation run and recoveries: dggraph.c. */
static int
draw_degradation(struct graph *g)
{
	const struct opts	*o = g->o;
	struct dggraph_in	 in = { .out = o->out, .svg = o->svg,
	    .width = o->width, .height = o->height };
	char			 t[1024], dir[PATH_MAX];
	int			 rc;

	title_text(g, t, sizeof(t));
	in.title = t;
	if (o->state_dir != NULL) {
		in.series = json_object_new_array();
		if (statedir_drive_dir(dir, sizeof(dir), o->state_dir,
		    o->drive) == -1 || series_read(dir, (uint64_t)o->checkpoint,
		    in.series) == -1) {
			fprintf(stderr, "ssdctl graph: %s/%s/series: %s\n",
			    o->state_dir, o->drive, strerror(errno));
			json_object_put(in.series);
			return EXIT_ERR;
		}
	} else if (g->src == NULL || g->src->series == NULL) {
		fprintf(stderr, "ssdctl graph: no daemon to ask for the "
		    "series\n");
		return EXIT_ERR;
	} else if ((in.series = g->src->series(g->src->arg, o->drive,
	    o->checkpoint)) == NULL)
		return EXIT_ERR;
	rc = dggraph_draw(&in);
	json_object_put(in.series);
	return rc;
}
