/*
 * errgraph.c: ssdctl graph --what errormap (see errgraph.h).
 *
 * However many extents a map holds, drawing is bounded by the picture:
 * each pass's extents are counted into one difference array a class over
 * the pixels of the plot (an extent covers every pixel it touches, at
 * least one), then folded into a row of class bits; passes share a row
 * when there are more of them than pixel rows. One <rect> is written per
 * run of pixels of one class in a row. The daemon is asked for its maps
 * at the plot's width (ErrorMap's resolution), so a reply stays small too.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "errgraph.h"
#include "palette.h"
#include "errmap.h"
#include "statedir.h"

#define EXIT_ERR	1
#define LEFT		84		/* pass labels */
#define RIGHT		20
#define TOP		36		/* title */
#define BOTTOM		92		/* offsets, axis title, legend, notes */
#define LABEL_PX	12		/* least room a row label needs */
#define FONT		"DejaVu Sans, Verdana, sans-serif"

/* Drawn in this order (a later class covers an earlier one in a pixel). */
static const char *const colour[] = {
	[BLK_OK] = NULL,
	[BLK_CORRUPT] = RED,
	[BLK_MISDIRECTED] = PURPLE,
	[BLK_STALE] = ORANGE,
	[BLK_FOREIGN] = BROWN,
	[BLK_UNWRITTEN] = GREY,
	[BLK_IO_ERROR] = BLACK,
	[BLK_LOST_FLUSH] = SKYBLUE,
	[BLK_TORN] = DARKPURPLE,
};
_Static_assert(sizeof(colour) / sizeof(colour[0]) == BLK_NCLASS,
    "a colour for each class of block.h");

struct view {
	const struct errgraph_in *in;
	int		 px, py, pw, ph;	/* the plot */
	uint64_t	 npass, rows;
	uint64_t	 span;
	uint32_t	 bs;
	unsigned char	*cell;		/* rows * pw: bit 1 << class */
	int64_t		*diff;		/* BLK_NCLASS * (pw + 1) */
	uint64_t	 blocks[BLK_NCLASS];	/* summed over the passes */
	uint64_t	 live;		/* the pass still running (0: none) */
	uint64_t	 missing;	/* passes without a map */
	int		 truncated;
};

/* ------------------------------------------------------------ the raster */

static int
view_alloc(struct view *v, uint64_t npass)
{
	v->npass = npass;
	v->rows = npass < (uint64_t)v->ph ? npass : (uint64_t)v->ph;
	v->cell = calloc(v->rows > 0 ? v->rows : 1, (size_t)v->pw);
	v->diff = calloc(BLK_NCLASS * ((size_t)v->pw + 1), sizeof(*v->diff));
	if (v->cell == NULL || v->diff == NULL) {
		fprintf(stderr, "ssdctl graph: out of memory\n");
		return -1;
	}
	return 0;
}

/* Bytes [off, off + len) of class cls: every pixel it touches. */
static void
view_extent(struct view *v, uint64_t off, uint64_t len, int cls)
{
	unsigned __int128	pw = (unsigned)v->pw;
	uint64_t		a, b, end = off + len;

	if (cls <= BLK_OK || cls >= BLK_NCLASS || len == 0 || v->span == 0)
		return;
	a = (uint64_t)((unsigned __int128)off * pw / v->span);
	b = (uint64_t)(((unsigned __int128)end * pw + v->span - 1) / v->span);
	if (a >= (uint64_t)v->pw)
		a = (uint64_t)v->pw - 1;
	if (b > (uint64_t)v->pw)
		b = (uint64_t)v->pw;
	if (b <= a)
		b = a + 1;
	v->diff[cls * (v->pw + 1) + (int)a]++;
	v->diff[cls * (v->pw + 1) + (int)b]--;
}

/* The extents of `pass` counted: into its row, the counts cleared. */
static void
view_pass_end(struct view *v, uint64_t pass)
{
	unsigned char	*row = v->cell + (pass - 1) * v->rows / v->npass *
	    (uint64_t)v->pw;
	int64_t		*d, n;
	int		 c, x;

	for (c = 1; c < BLK_NCLASS; c++) {
		d = v->diff + c * (v->pw + 1);
		for (x = 0, n = 0; x < v->pw; x++) {
			n += d[x];
			if (n > 0)
				row[x] |= (unsigned char)(1u << c);
		}
		memset(d, 0, ((size_t)v->pw + 1) * sizeof(*d));
	}
}

/* ------------------------------------------------------------ the daemon */

static uint64_t
ju(json_object *o, const char *key)
{
	json_object	*v;

	return json_object_object_get_ex(o, key, &v) ?
	    json_object_get_uint64(v) : 0;
}

/* One ErrorMap reply as pass `pass`. */
static void
view_reply(struct view *v, json_object *r, uint64_t pass)
{
	json_object	*ext, *counts, *e, *cl;
	uint64_t	 bs = ju(r, "block_size");
	size_t		 i;
	int		 c;

	if (json_object_object_get_ex(r, "counts", &counts)) {
		json_object_object_foreach(counts, k, n) {
			if ((c = blk_class_from_name(k)) > BLK_OK)
				v->blocks[c] += json_object_get_uint64(n);
		}
	}
	if (json_object_object_get_ex(r, "extents", &ext))
		for (i = 0; i < json_object_array_length(ext); i++) {
			e = json_object_array_get_idx(ext, i);
			if (!json_object_object_get_ex(e, "class", &cl))
				continue;
			view_extent(v, ju(e, "offset"), ju(e, "blocks") * bs,
			    blk_class_from_name(json_object_get_string(cl)));
		}
	if (json_object_object_get_ex(r, "in_progress", &e) &&
	    json_object_get_boolean(e))
		v->live = pass;
	if (json_object_object_get_ex(r, "truncated", &e) &&
	    json_object_get_boolean(e))
		v->truncated = 1;
	view_pass_end(v, pass);
}

/* Every pass the daemon has a map of, oldest first. */
static int
load_daemon(struct view *v)
{
	const struct errgraph_in *in = v->in;
	json_object	*latest, *r;
	uint64_t	 p, last;
	int		 nomap = 0;

	if ((latest = in->fetch(in->arg, 0, (uint32_t)v->pw, &nomap)) == NULL)
		return nomap ? view_alloc(v, 0) : -1;	/* no pass yet */
	last = ju(latest, "pass");
	v->span = ju(latest, "span_bytes");
	v->bs = (uint32_t)ju(latest, "block_size");
	if (view_alloc(v, ju(latest, "passes")) == -1) {
		json_object_put(latest);
		return -1;
	}
	for (p = 1; p <= v->npass; p++) {
		r = p == last ? latest :
		    in->fetch(in->arg, p, (uint32_t)v->pw, &nomap);
		if (r == NULL && !nomap)
			break;
		if (r == NULL)
			v->missing++;
		else
			view_reply(v, r, p);
		if (r != latest)
			json_object_put(r);
	}
	json_object_put(latest);
	return p > v->npass ? 0 : -1;
}

/* ------------------------------------------------------------ a directory */

/* span_bytes from DIR/state (a "key value" file); 0 if not there. */
static uint64_t
dir_span(const char *dir)
{
	char			 path[4096], line[256];
	unsigned long long	 n = 0;
	FILE			*fp;

	statedir_path(path, sizeof(path), dir, STATEDIR_STATE);
	if ((fp = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "span_bytes %llu", &n) == 1)
			break;
	fclose(fp);
	return n;
}

/* The highest N of DIR/errors/pass-N.map (0: none). */
static uint64_t
dir_passes(const char *dir)
{
	char			 path[4096];
	struct dirent		*de;
	unsigned long long	 n, max = 0;
	DIR			*dp;
	int			 len;

	statedir_path(path, sizeof(path), dir, STATEDIR_ERRMAPS);
	if ((dp = opendir(path)) == NULL)
		return 0;
	while ((de = readdir(dp)) != NULL) {
		len = 0;
		if (sscanf(de->d_name, "pass-%llu.map%n", &n, &len) == 1 &&
		    len > 0 && de->d_name[len] == '\0' && n > max)
			max = n;
	}
	closedir(dp);
	return max;
}

struct dir_read {
	struct view		*v;
	struct errmap_counts	 c;
};

static int
dir_extent(const struct errext *x, void *arg)
{
	struct dir_read	*d = arg;
	uint64_t	 bs = d->c.block_size;

	view_extent(d->v, x->start * bs, x->len * bs, (int)x->cls);
	return 0;
}

/* Every errors/pass-N.map of a drive's state directory (a copy of it). */
static int
load_dir(struct view *v)
{
	struct dir_read	 d = { .v = v };
	char		 path[4096];
	uint64_t	 p;
	int		 c;

	if ((v->span = dir_span(v->in->map_dir)) == 0) {
		fprintf(stderr, "ssdctl graph: %s/state: no span_bytes (is it "
		    "a drive's state directory?)\n", v->in->map_dir);
		return -1;
	}
	if (view_alloc(v, dir_passes(v->in->map_dir)) == -1)
		return -1;
	for (p = 1; p <= v->npass; p++) {
		errmap_path(path, sizeof(path), v->in->map_dir, p);
		if (errmap_read(path, UINT64_MAX, dir_extent, &d, &d.c) == -1) {
			if (errno != ENOENT) {
				fprintf(stderr, "ssdctl graph: %s: %s\n", path,
				    strerror(errno));
				return -1;
			}
			v->missing++;
			continue;
		}
		v->bs = d.c.block_size;
		for (c = 1; c < BLK_NCLASS; c++)
			v->blocks[c] += d.c.blocks[c];
		view_pass_end(v, p);
	}
	return 0;
}

/* ------------------------------------------------------------ SVG */

/* Text for XML: & < > " escaped. */
static void
xml_text(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++)
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default: fputc(*s, fp); break;
		}
}

/* "0", "512 KiB", "1.5 TiB" */
static void
fmt_bytes(char *buf, size_t len, uint64_t n)
{
	static const char *const unit[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"
	};
	double	 v = (double)n;
	int	 u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (n == 0)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%.4g %s", v, unit[u]);
}

static int
row_y(const struct view *v, uint64_t r)
{
	return v->py + (int)(r * (uint64_t)v->ph / v->rows);
}

/* First and last pass drawn in row r. */
static void
row_passes(const struct view *v, uint64_t r, uint64_t *a, uint64_t *b)
{
	*a = (r * v->npass + v->rows - 1) / v->rows + 1;
	*b = ((r + 1) * v->npass + v->rows - 1) / v->rows;
}

/* One row: its label (when there is room), its runs of each class. */
static void
svg_row(FILE *fp, const struct view *v, uint64_t r, uint64_t every)
{
	const unsigned char	*cell = v->cell + r * (uint64_t)v->pw;
	uint64_t		 a, b;
	int			 y0 = row_y(v, r), y1 = row_y(v, r + 1), c, x, x0;

	row_passes(v, r, &a, &b);
	fprintf(fp, "<g class=\"pass\" data-first=\"%llu\" data-last=\"%llu\">"
	    "\n", (unsigned long long)a, (unsigned long long)b);
	if (r % 2 == 1)
		fprintf(fp, "<rect class=\"stripe\" x=\"%d\" y=\"%d\" width=\"%d\""
		    " height=\"%d\" fill=\"#F4F4F4\"/>\n", v->px, y0, v->pw,
		    y1 - y0);
	if (r % every == 0)
		fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
		    "font-size=\"10\">%s%llu%s</text>\n", v->px - 6,
		    (y0 + y1) / 2 + 4, a == b ? "pass " : "",
		    (unsigned long long)a, a <= v->live && v->live <= b ?
		    " (running)" : "");
	for (c = 1; c < BLK_NCLASS; c++)
		for (x = 0; x < v->pw; x++) {
			if (!(cell[x] & (1u << c)))
				continue;
			for (x0 = x; x < v->pw && cell[x] & (1u << c); x++)
				;
			fprintf(fp, "<rect class=\"%s\" x=\"%d\" y=\"%d\" "
			    "width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
			    blk_class_name(c), v->px + x0, y0, x - x0, y1 - y0,
			    colour[c]);
		}
	fputs("</g>\n", fp);
}

/* Offsets at each quarter of the span, with the share of it. */
static void
svg_axis(FILE *fp, const struct view *v)
{
	char	b[32], s[32];
	int	i, x, y = v->py + v->ph;

	for (i = 0; i <= 4; i++) {
		x = v->px + i * v->pw / 4;
		fmt_bytes(b, sizeof(b), (uint64_t)((unsigned __int128)v->span *
		    (unsigned)i / 4));
		fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		    "stroke=\"#666666\"/>\n<text x=\"%d\" y=\"%d\" "
		    "text-anchor=\"middle\" font-size=\"10\">%s</text>\n"
		    "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
		    "font-size=\"9\" fill=\"#777777\">%d%%</text>\n", x, y,
		    x, y + 4, x, y + 15, b, x, y + 26, 25 * i);
	}
	fmt_bytes(s, sizeof(s), v->span);
	fprintf(fp, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
	    "font-size=\"11\">offset on the drive (span %s", v->px + v->pw / 2,
	    y + 42, s);
	if (v->bs > 0)
		fprintf(fp, ", %u-byte blocks", v->bs);
	fprintf(fp, "); verify passes from the top, oldest first</text>\n");
}

/* Class colours and their bad blocks; what else a reader must know. */
static void
svg_legend(FILE *fp, const struct view *v)
{
	int	c, x = v->px, y = v->py + v->ph + 60;

	for (c = 1; c < BLK_NCLASS; c++) {
		if (v->blocks[c] == 0)
			continue;
		fprintf(fp, "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"10\""
		    " height=\"10\" fill=\"%s\"/>\n<text x=\"%d\" y=\"%d\" "
		    "font-size=\"11\">%s: %llu bad block%s</text>\n", x, y - 9,
		    colour[c], x + 14, y, blk_class_name(c),
		    (unsigned long long)v->blocks[c], v->blocks[c] == 1 ? "" :
		    "s");
		x += 14 + 7 * (int)(strlen(blk_class_name(c)) + 24);
	}
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#555555\">"
	    "%llu verify pass%s; counts summed over them", v->px, y + 16,
	    (unsigned long long)v->npass, v->npass == 1 ? "" : "es");
	if (v->missing > 0)
		fprintf(fp, "; %llu without a map", (unsigned long long)
		    v->missing);
	if (v->live > 0)
		fprintf(fp, "; pass %llu is running (drawn to its last "
		    "checkpoint)", (unsigned long long)v->live);
	if (v->truncated)
		fprintf(fp, "; a map longer than a reply is drawn in part");
	fputs("</text>\n", fp);
}

static void
svg_nodata(FILE *fp, const struct view *v)
{
	fprintf(fp, "<text id=\"nodata\" x=\"%d\" y=\"%d\" text-anchor=\"middle\""
	    " font-size=\"16\" fill=\"" GREEN "\">no errors recorded", v->px +
	    v->pw / 2, v->py + v->ph / 2);
	if (v->npass == 0)
		fprintf(fp, ": no verify pass yet");
	else
		fprintf(fp, " in %llu verify pass%s", (unsigned long long)
		    v->npass, v->npass == 1 ? "" : "es");
	fputs("</text>\n", fp);
}

static void
svg_write(FILE *fp, const struct view *v)
{
	uint64_t	r, bad = 0, every;
	int		c;

	for (c = 1; c < BLK_NCLASS; c++)
		bad += v->blocks[c];
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns="
	    "\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	    "viewBox=\"0 0 %d %d\" font-family=\"" FONT "\" fill=\"#222222\">"
	    "\n<rect width=\"100%%\" height=\"100%%\" fill=\"#FFFFFF\"/>\n"
	    "<text x=\"%d\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">",
	    v->in->width, v->in->height, v->in->width, v->in->height,
	    v->in->width / 2);
	xml_text(fp, v->in->title);
	fputs("</text>\n", fp);
	every = v->rows == 0 ? 1 : (LABEL_PX * v->rows + (uint64_t)v->ph - 1) /
	    (uint64_t)v->ph;
	for (r = 0; r < v->rows; r++)
		svg_row(fp, v, r, every);
	svg_axis(fp, v);
	fprintf(fp, "<rect id=\"plot\" x=\"%d\" y=\"%d\" width=\"%d\" "
	    "height=\"%d\" fill=\"none\" stroke=\"#666666\"/>\n", v->px, v->py,
	    v->pw, v->ph);
	if (bad == 0)
		svg_nodata(fp, v);
	svg_legend(fp, v);
	fputs("</svg>\n", fp);
}

int
errgraph_draw(const struct errgraph_in *in)
{
	struct view	 v = { .in = in, .px = LEFT, .py = TOP,
	    .pw = in->width - LEFT - RIGHT, .ph = in->height - TOP - BOTTOM };
	FILE		*fp = NULL;
	int		 rc = EXIT_ERR;

	if (v.pw < 16 || v.ph < 4)
		fprintf(stderr, "ssdctl graph: %dx%d is too small for the error "
		    "map\n", in->width, in->height);
	else if ((in->map_dir != NULL ? load_dir(&v) : load_daemon(&v)) == 0) {
		if ((fp = fopen(in->out, "w")) == NULL)
			fprintf(stderr, "ssdctl graph: %s: %s\n", in->out,
			    strerror(errno));
		else {
			svg_write(fp, &v);
			rc = ferror(fp) ? EXIT_ERR : 0;
			if (fclose(fp) == EOF || rc != 0) {
				fprintf(stderr, "ssdctl graph: %s: cannot write"
				    "\n", in->out);
				rc = EXIT_ERR;
			}
		}
	}
	free(v.cell);
	free(v.diff);
	return rc;
}
