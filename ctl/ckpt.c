/* ckpt.c: the figures, grid and table of a drive's performance checkpoints. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ckpt.h"
#include "ckpt_read.h"
#include "probes.h"
#include "statedir.h"

static const char *const figure_words[CKPT_NFIGURES] = {
	[CKPT_IOPS] = "iops", [CKPT_MBPS] = "mbps",
	[CKPT_P99] = "p99", [CKPT_P999] = "p99.9", [CKPT_CACHE] = "cache"
};
static const char *const figure_units[CKPT_NFIGURES] = {
	[CKPT_IOPS] = "IOPS", [CKPT_MBPS] = "MB/s",
	[CKPT_P99] = "us p99", [CKPT_P999] = "us p99.9",
	[CKPT_CACHE] = "GB cache"
};

/* A number of the line (int or float); NAN when absent or not a number. */
static double
num(json_object *o, const char *key)
{
	json_object	*v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) ||
	    json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

static int
has(json_object *o, const char *key)
{
	json_object	*v;

	return o != NULL && json_object_object_get_ex(o, key, &v) && v != NULL;
}

enum ckpt_figure
ckpt_headline(json_object *line)
{
	double	bs = num(line, "block_size");

	if (has(line, "slc_knee"))
		return CKPT_CACHE;
	if (has(line, "split") || isnan(bs) || bs <= CKPT_IOPS_MAX_BS)
		return CKPT_IOPS;
	return CKPT_MBPS;
}

/* The higher of a percentile of the two directions; NAN when neither. */
static double
latency(json_object *line, const char *pct)
{
	static const char *const dirs[] = { "read_lat_us", "write_lat_us" };
	json_object	*lat;
	double		 v, best = NAN;
	size_t		 i;

	for (i = 0; i < 2; i++) {
		if (!json_object_object_get_ex(line, dirs[i], &lat))
			continue;
		v = num(lat, pct);
		if (!isnan(v) && (isnan(best) || v > best))
			best = v;
	}
	return best;
}

/*
 * A pass's cache in GB; CKPT_NO_KNEE when it showed no knee (none to
 * tell: the cache may be larger than the pass), NAN without a figure.
 */
static double
cache_gb(json_object *line)
{
	json_object	*v;

	if (!json_object_object_get_ex(line, "slc_knee", &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return NAN;
	return json_object_get_boolean(v) ?
	    num(line, "slc_cache_bytes") / 1e9 : CKPT_NO_KNEE;
}

/* Was the line measured on a busy host (drive_ckpt.c's host_busy)? */
static int
host_busy(json_object *line)
{
	json_object	*v;

	return line != NULL && json_object_object_get_ex(line, "host_busy",
	    &v) && json_object_get_boolean(v);
}

int
ckpt_void(json_object *line)
{
	return has(line, "void");
}

double
ckpt_value(json_object *line, enum ckpt_figure f)
{
	/* a void line's figures, should it have any, are not the drive's */
	if (line == NULL || has(line, "skipped") || ckpt_void(line))
		return NAN;
	switch (f) {
	case CKPT_IOPS:
		return num(line, "read_iops") + num(line, "write_iops");
	case CKPT_MBPS:
		return (num(line, "read_bytes_per_sec") +
		    num(line, "write_bytes_per_sec")) / 1e6;
	case CKPT_P99:
		return latency(line, "p99");
	case CKPT_P999:
		return latency(line, "p99.9");
	case CKPT_CACHE:
		return cache_gb(line);
	default:
		return NAN;
	}
}

double
ckpt_change(double base, double now)
{
	double	c;

	if (!isfinite(base) || !isfinite(now) || base <= 0 || now < 0)
		return NAN;
	c = (now / base - 1.0) * 100.0;
	return isfinite(c) ? c : NAN;
}

const char *
ckpt_figure_word(enum ckpt_figure f)
{
	return figure_words[f];
}

const char *
ckpt_figure_unit(enum ckpt_figure f)
{
	return figure_units[f];
}

int
ckpt_figure_parse(const char *word)
{
	int	i;

	for (i = 0; i < CKPT_NFIGURES; i++)
		if (strcmp(figure_words[i], word) == 0)
			return i;
	return -1;
}

/* Beyond this a figure is no drive's (a damaged or forged line). */
#define FIGURE_MAX	1e12

void
ckpt_format(double v, enum ckpt_figure f, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (f == CKPT_CACHE && v == CKPT_NO_KNEE)
		snprintf(buf, len, "no knee");
	else if (!isfinite(v) || v < 0 || v >= FIGURE_MAX)
		snprintf(buf, len, "?");
	else if (f == CKPT_CACHE)
		snprintf(buf, len, "%.3g", v);
	else if (f == CKPT_IOPS || v >= 1000)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.1f", v);
}

void
ckpt_tbw(double bytes, char *buf, size_t len)
{
	double		 tb = bytes / 1e12, v = tb;
	const char	*u = "TB";

	if (!isfinite(tb) || tb < 0 || tb >= FIGURE_MAX) {
		snprintf(buf, len, "? TB");
		return;
	}
	if (tb < 1) {		/* early checkpoints apart: in GB */
		v = bytes / 1e9;
		u = "GB";
	}
	snprintf(buf, len, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" :
	    "%.0f %s", v, u);
}

void
ckpt_flag_mark(json_object *line, char *buf, size_t len)
{
	json_object	*flags, *f;
	size_t		 i, at = 0;
	int		 n;

	buf[0] = '\0';
	if (line == NULL || !json_object_object_get_ex(line, "flags", &flags) ||
	    !json_object_is_type(flags, json_type_array))
		return;
	for (i = 0; i < json_object_array_length(flags) && at < len; i++) {
		f = json_object_array_get_idx(flags, i);
		if (!json_object_is_type(f, json_type_string))
			continue;
		n = snprintf(buf + at, len - at, "%s%s", at ? "," : "!",
		    json_object_get_string(f));
		at = n < 0 ? len : at + (size_t)n;
	}
}

/* ------------------------------------------------------------ the grid */

/* A row's place: its probe's in the suite; after them, ids the suite no
 * longer has, in the order they came. */
struct row_key {
	const char	*id;
	size_t		 order, seen;
};

static size_t
suite_order(const char *id)
{
	size_t	i, n = probe_count();

	for (i = 0; i < n; i++)
		if (strcmp(probe_at(i)->id, id) == 0)
			return i;
	return n;
}

static int
row_cmp(const void *a, const void *b)
{
	const struct row_key	*x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->seen < y->seen ? -1 : x->seen > y->seen;
}

static int
num_cmp(const void *a, const void *b)
{
	long long	x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static const char *
line_id(json_object *o)
{
	json_object	*v;

	return json_object_object_get_ex(o, "probe", &v) ?
	    json_object_get_string(v) : "";
}

static long long
line_number(json_object *o)
{
	json_object	*v;

	return json_object_object_get_ex(o, "checkpoint", &v) ?
	    (long long)json_object_get_int64(v) : 0;
}

/* The distinct ids and checkpoint numbers of the lines, sorted. */
static int
grid_axes(json_object *lines, struct ckpt_grid *g, struct row_key *rows)
{
	size_t		 i, j, n = json_object_array_length(lines);
	json_object	*o;
	long long	 k;

	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(lines, i);
		if (ckpt_line_problem(o) != NULL)
			continue;
		for (j = 0; j < g->nrows; j++)
			if (strcmp(rows[j].id, line_id(o)) == 0)
				break;
		if (j == g->nrows) {
			rows[j].id = line_id(o);
			rows[j].order = suite_order(rows[j].id);
			rows[j].seen = g->nrows++;
		}
		k = line_number(o);
		for (j = 0; j < g->ncols && g->numbers[j] != k; j++)
			;
		if (j == g->ncols)
			g->numbers[g->ncols++] = k;
	}
	qsort(rows, g->nrows, sizeof(*rows), row_cmp);
	qsort(g->numbers, g->ncols, sizeof(*g->numbers), num_cmp);
	for (i = 0; i < g->nrows; i++)
		g->ids[i] = rows[i].id;
	return 0;
}

static size_t
find_row(const struct ckpt_grid *g, const char *id)
{
	size_t	i;

	for (i = 0; i < g->nrows && strcmp(g->ids[i], id) != 0; i++)
		;
	return i;
}

static size_t
find_col(const struct ckpt_grid *g, long long number)
{
	size_t	lo = 0, hi = g->ncols, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->numbers[mid] < number)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
ckpt_grid_build(json_object *lines, struct ckpt_grid *g)
{
	size_t		 i, n = json_object_array_length(lines), r, c;
	struct row_key	*rows;
	json_object	*o;

	memset(g, 0, sizeof(*g));
	rows = calloc(n + 1, sizeof(*rows));
	g->ids = calloc(n + 1, sizeof(*g->ids));
	g->numbers = calloc(n + 1, sizeof(*g->numbers));
	g->hbw = calloc(n + 1, sizeof(*g->hbw));
	if (rows == NULL || g->ids == NULL || g->numbers == NULL ||
	    g->hbw == NULL || grid_axes(lines, g, rows) == -1 ||
	    (g->cell = calloc(g->nrows * g->ncols + 1,
	    sizeof(*g->cell))) == NULL) {
		free(rows);
		ckpt_grid_free(g);
		return -1;
	}
	free(rows);
	for (c = 0; c < g->ncols; c++)
		g->hbw[c] = NAN;
	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(lines, i);
		if (ckpt_line_problem(o) != NULL)
			continue;
		r = find_row(g, line_id(o));
		c = find_col(g, line_number(o));
		g->cell[r * g->ncols + c] = o;	/* a later line wins */
		if (isnan(g->hbw[c]))
			g->hbw[c] = num(o, "host_bytes_written");
	}
	return 0;
}

void
ckpt_grid_free(struct ckpt_grid *g)
{
	free(g->ids);
	free(g->numbers);
	free(g->hbw);
	free(g->cell);
	memset(g, 0, sizeof(*g));
}

json_object *
ckpt_cell(const struct ckpt_grid *g, size_t row, size_t col)
{
	return g->cell[row * g->ncols + col];
}

/* Has the line figures (a probe that ran, its window not void)? */
static int
measured(json_object *o)
{
	return o != NULL && !has(o, "skipped") && !ckpt_void(o);
}

long
ckpt_baseline_col(const struct ckpt_grid *g, size_t row)
{
	long		 latest = ckpt_latest_col(g, row);
	double		 b;
	size_t		 c;

	/* the number the latest line names, when it is a column that ran */
	if (latest >= 0) {
		b = num(ckpt_cell(g, row, (size_t)latest), "baseline");
		if (isfinite(b) && b >= 1 && b < (double)LLONG_MAX) {
			c = find_col(g, (long long)b);
			if (c < g->ncols && g->numbers[c] == (long long)b &&
			    measured(ckpt_cell(g, row, c)))
				return (long)c;
		}
	}
	for (c = 0; c < g->ncols; c++)
		if (measured(ckpt_cell(g, row, c)))
			return (long)c;
	return -1;
}

long
ckpt_latest_col(const struct ckpt_grid *g, size_t row)
{
	size_t	c;

	for (c = g->ncols; c > 0; c--)
		if (ckpt_cell(g, row, c - 1) != NULL)
			return (long)c - 1;
	return -1;
}

/* ------------------------------------------------------------ the table */

#define CELL_W		10

/* The columns shown: all, or the first and then the latest CKPT_COLS - 1. */
static size_t
shown_cols(const struct ckpt_grid *g, size_t *cols)
{
	size_t	c, n = 0;

	for (c = 0; c < g->ncols; c++)
		if (g->ncols <= CKPT_COLS || c == 0 ||
		    c >= g->ncols - (CKPT_COLS - 1))
			cols[n++] = c;
	return n;
}

/* The last column: "-12.5%", "n/a", "-", then the latest line's flags. */
static void
change_text(const struct ckpt_grid *g, size_t row, enum ckpt_figure f,
    char *buf, size_t len, char *mark, size_t mlen)
{
	long	b = ckpt_baseline_col(g, row), l = ckpt_latest_col(g, row);
	double	c;

	mark[0] = '\0';
	if (l >= 0 && ckpt_void(ckpt_cell(g, row, (size_t)l))) {
		snprintf(buf, len, "void");	/* no figure to compare */
		return;
	}
	if (l < 0 || !measured(ckpt_cell(g, row, (size_t)l)) || b < 0) {
		snprintf(buf, len, "n/a");
		return;
	}
	ckpt_flag_mark(ckpt_cell(g, row, (size_t)l), mark, mlen);
	if (host_busy(ckpt_cell(g, row, (size_t)l)))	/* a note, no flag */
		snprintf(mark + strlen(mark), mlen - strlen(mark), "%s",
		    mark[0] ? " (host busy)" : "(host busy)");
	c = b == l ? NAN : ckpt_change(ckpt_value(ckpt_cell(g, row,
	    (size_t)b), f), ckpt_value(ckpt_cell(g, row, (size_t)l), f));
	if (isnan(c))
		snprintf(buf, len, "-");
	else if (fabs(c) >= 1e6)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%+.1f%%", c);
}

static void
table_row(FILE *fp, const struct ckpt_grid *g, size_t row, int latency,
    const size_t *cols, size_t ncols, int idw)
{
	json_object		*first = NULL, *o;
	enum ckpt_figure	 f;
	char			 cell[32], change[32], mark[64];
	size_t			 i;

	for (i = 0; i < g->ncols && first == NULL; i++)
		first = ckpt_cell(g, row, i);
	f = latency ? CKPT_P999 : ckpt_headline(first);
	fprintf(fp, "%-*s  %-8s", idw, g->ids[row], ckpt_figure_unit(f));
	for (i = 0; i < ncols; i++) {
		o = ckpt_cell(g, row, cols[i]);
		if (ckpt_void(o))
			snprintf(cell, sizeof(cell), "void");
		else if (o != NULL && !measured(o))
			snprintf(cell, sizeof(cell), "n/a");
		else
			ckpt_format(ckpt_value(o, f), f, cell, sizeof(cell));
		fprintf(fp, "  %*s", CELL_W, cell);
	}
	change_text(g, row, f, change, sizeof(change), mark, sizeof(mark));
	fprintf(fp, "  %8s%s%s\n", change, mark[0] ? "  " : "", mark);
}

void
ckpt_table(FILE *fp, const struct ckpt_grid *g, int latency)
{
	size_t	*cols = calloc(g->ncols + 1, sizeof(*cols)), n, i;
	char	 h[32];
	int	 idw = 5;

	if (cols == NULL)
		return;
	n = shown_cols(g, cols);
	for (i = 0; i < g->nrows; i++)
		if ((int)strlen(g->ids[i]) > idw)
			idw = (int)strlen(g->ids[i]);
	fprintf(fp, "%-*s  %-8s", idw, "PROBE", "UNIT");
	for (i = 0; i < n; i++) {
		ckpt_tbw(g->hbw[cols[i]], h, sizeof(h));
		fprintf(fp, "  %*s", CELL_W, h);
	}
	fprintf(fp, "  %8s\n", "CHANGE");
	for (i = 0; i < g->nrows; i++)
		table_row(fp, g, i, latency, cols, n, idw);
	if (n < g->ncols)
		fprintf(fp, "(checkpoints %lld to %lld not shown: the first, "
		    "then the latest %d; --json has them all)\n",
		    g->numbers[1], g->numbers[g->ncols - CKPT_COLS],
		    CKPT_COLS - 1);
	fprintf(fp, "(columns: checkpoints at the bytes written; CHANGE: the "
	    "latest against the probe's baseline;\n !throughput: below 0.8x "
	    "the baseline's, !latency: p99.9 above 2x; n/a: the probe could "
	    "not run;\n void: no window of the probe was the drive's, the "
	    "daemon stopped or kept from every CPU\n for a stretch, or the "
	    "system suspended: --json says why; (host busy): the latest\n "
	    "window's I/O thread waited for a CPU over %d %% of it, the "
	    "figure the drive's as that host could drive it)\n",
	    PROBE_BUSY_PERCENT);
	free(cols);
}

int
ckpt_load_dir(const char *state_dir, const char *drive, json_object *lines)
{
	struct ckpt_skipped	sk;
	char			dir[PATH_MAX], path[PATH_MAX + 32];
	int			err;

	if (statedir_drive_dir(dir, sizeof(dir), state_dir, drive) == -1 ||
	    statedir_path(path, sizeof(path), dir, STATEDIR_CHECKPOINTS) == -1) {
		fprintf(stderr, "ssdctl: %s/%s: path too long\n", state_dir,
		    drive);
		return -1;
	}
	if (ckpt_read(path, lines, &sk) == -1) {
		err = errno;	/* the caller's to name too */
		fprintf(stderr, "ssdctl: %s: %s\n", path, strerror(err));
		errno = err;
		return -1;
	}
	if (sk.lines > 0)
		fprintf(stderr, "ssdctl: %s: %zu line%s skipped, the first "
		    "(line %zu): %s\n", path, sk.lines, sk.lines == 1 ? "" : "s",
		    sk.first, sk.why);
	return 0;
}
