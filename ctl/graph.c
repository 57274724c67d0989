/*
 * graph.c: ssdctl graph: draw a drive's RRD archive with librrd's graph
 * API (rrd_graph_v, argv built here; rrdtool is never run).
 *
 * The layout is common/rrd_layout.h. Each --what kind is a row of kinds[],
 * in a file of its own (graph_priv.h), with a builder that adds its
 * options, DEF/CDEF/VDEF and drawing elements (graph_args.c). Before drawing, the archive is fetched once (scan) to learn
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
#include "graph_priv.h"
#include "palette.h"

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

#define MAX_SECONDS	(100L * 366 * 86400)

/* The kinds, in the order --help lists them. */
static const struct graph_kind *const kinds[] = {
	&graph_kind_throughput, &graph_kind_tbw, &graph_kind_wear,
	&graph_kind_temperature, &graph_kind_latency, &graph_kind_errors,
	&graph_kind_flush, &graph_kind_errormap, &graph_kind_checkpoints,
	&graph_kind_timeline, &graph_kind_slc, &graph_kind_degradation,
};
#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))


/* The synopsis; full: what every option takes. */
static void
usage(FILE *fp, int full)
{
	size_t	i;

	fprintf(fp, "usage: ssdctl graph DRIVE --what KIND -o FILE.png|FILE.svg"
	    "\n\t[--since DURATION|TIME] [--until now|DURATION|TIME]\n"
	    "\t[--width N] [--height N] [--rrd FILE] [--daemon ADDR]\n"
	    "\t[--map-dir DIR] [--probe ID]... [--figure iops|mbps|p99|p99.9|cache]"
	    "\n\t[--pass N]... [--checkpoint N] [--state-dir DIR]\nKIND:");
	for (i = 0; i < NKINDS; i++)
		fprintf(fp, " %s%s", kinds[i]->name, kinds[i]->svg_only ?
		    " (SVG only)" : "");
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

static const struct graph_kind *
find_kind(const char *name)
{
	size_t	i;

	for (i = 0; i < NKINDS; i++)
		if (strcmp(kinds[i]->name, name) == 0)
			return kinds[i];
	return NULL;
}

int
graph_kind_from_archive(const char *kind)
{
	const struct graph_kind	*k = find_kind(kind);

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
	unsigned	 takes = o->kind != NULL ? o->kind->takes : 0;

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
	else if (!(takes & GRAPH_TAKES_MAP_DIR) && o->map_dir != NULL)
		what = "--map-dir is for --what errormap";
	else if (!(takes & GRAPH_TAKES_PROBES) && (o->nprobes > 0 ||
	    o->figure != -1))
		what = "--probe and --figure are for --what checkpoints";
	else if (!(takes & GRAPH_TAKES_PASSES) && o->npasses > 0)
		what = "--pass is for --what timeline";
	else if (!(takes & GRAPH_TAKES_CHECKPOINT) && o->checkpoint > 0)
		what = "--checkpoint is for --what degradation";
	else if (!(takes & GRAPH_TAKES_STATE_DIR) && o->state_dir != NULL)
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
	if ((g->efile = graph_escape_colons(g->file)) == NULL) {
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
		if (strcmp(graph_ds_name[i], name) == 0)
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
			sc->have |= GRAPH_BIT(ds);
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
	graph_opt(g, "--title=%s", t);
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

	graph_opt(g, "graph");
	graph_opt(g, "%s", g->o->out);
	graph_opt(g, "--imgformat=%s", g->o->svg ? "SVG" : "PNG");
	graph_opt(g, "--width=%d", g->o->width);
	graph_opt(g, "--height=%d", g->o->height);
	graph_opt(g, "--start=%lld", (long long)g->start);
	graph_opt(g, "--end=%lld", (long long)g->end);
	for (i = 0; look[i] != NULL; i++)
		graph_opt(g, "%s", look[i]);
	if (g->daemon != NULL)
		graph_opt(g, "--daemon=%s", g->daemon);
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
		graph_el(g, "COMMENT:%s\\l", g->o->kind->nodata);
	graph_el(g, "COMMENT:%s to %s\\r", a, b);
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









int
graph_main(int argc, char **argv, const struct graph_src *src)
{
	struct opts	o;
	struct graph	g;
	char		t[1024];
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
	if (o.kind->own != NULL) {
		title_text(&g, t, sizeof(t));
		return o.kind->own(&g, t);
	}
	if (resolve_range(&g) == -1)
		return EXIT_USAGE;
	if (locate(&g) == -1)
		return EXIT_ERR;
	if ((rc = scan_and_fit(&g)) == 0)
		rc = draw(&g);
	graph_arglist_free(&g.opt);
	graph_arglist_free(&g.el);
	free(g.efile);
	return rc;
}

