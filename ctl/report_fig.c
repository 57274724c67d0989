/* report_fig.c: a report page's figures (report_fig.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graph.h"
#include "report_fig.h"
#include "report_gp.h"
#include "statedir.h"

#define SVG_MAX		(16 * 1024 * 1024)	/* one figure, at most */
#define MSG_MAX		4096
#define GRAPH_ARGS	24

void
html_text(FILE *fp, const char *s)
{
	for (; s != NULL && *s != '\0'; s++) {
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default:
			if ((unsigned char)*s >= ' ' || *s == '\n')
				fputc(*s, fp);
		}
	}
}

int
figs_open(struct figs *f, const struct report_src *src, FILE *page)
{
	const char	*tmp = getenv("TMPDIR");

	memset(f, 0, sizeof(*f));
	if (tmp == NULL || tmp[0] == '\0' || strlen(tmp) > 40)
		tmp = "/tmp";
	snprintf(f->dir, sizeof(f->dir), "%s/ssdctl-report.XXXXXX", tmp);
	if (mkdtemp(f->dir) == NULL) {
		fprintf(stderr, "ssdctl report: %s: %s\n", f->dir,
		    strerror(errno));
		return -1;
	}
	f->src = src;
	f->page = page;
	return 0;
}

void
figs_close(struct figs *f)
{
	DIR		*d = opendir(f->dir);
	struct dirent	*e;

	while (d != NULL && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			(void)unlinkat(dirfd(d), e->d_name, 0);
	if (d != NULL)
		closedir(d);
	rmdir(f->dir);
}

/*
 * The SVG document `text` as an element of the page: from its <svg on,
 * every id and reference to one (href="#..", url(#..)) prefixed with
 * "fN-", so that two figures' ids (gnuplot's and cairo's are the same in
 * each) never meet.
 */
/* The root element's own start tag, its sizes in pixels: cairo gives
 * them in points ("900pt"), which HTML does not take (the viewBox keeps
 * the figure's proportions). Returns where the tag ends. */
static const char *
svg_root(FILE *fp, const char *p)
{
	const char	*end = strchr(p, '>'), *q;

	if (end == NULL)
		return p;
	for (q = p; q < end; q++) {
		if (q + 3 <= end && strncmp(q, "pt\"", 3) == 0 && q > p &&
		    q[-1] >= '0' && q[-1] <= '9')
			q += 2;		/* the unit dropped, the quote kept */
		fputc(*q, fp);
	}
	return end;
}

static void
svg_inline(FILE *fp, const char *text, unsigned n)
{
	static const char *const marks[] = { "id=\"", "id='", "href=\"#",
	    "href='#", "url(#", NULL };
	const char	*p = strstr(text, "<svg"), *best;
	size_t		 i, blen = 0;

	if (p != NULL)
		p = svg_root(fp, p);
	while (p != NULL && *p != '\0') {
		best = NULL;
		for (i = 0; marks[i] != NULL; i++) {
			const char *q = strstr(p, marks[i]);

			if (q != NULL && (best == NULL || q < best)) {
				best = q;
				blen = strlen(marks[i]);
			}
		}
		if (best == NULL) {
			fputs(p, fp);
			break;
		}
		fwrite(p, 1, (size_t)(best - p) + blen, fp);
		fprintf(fp, "f%u-", n);
		p = best + blen;
	}
	fputc('\n', fp);
}

/* The first line of what the drawing said (its reason), or "". */
static void
first_line(const char *path, char *buf, size_t len)
{
	FILE	*fp = fopen(path, "re");
	char	*nl;

	buf[0] = '\0';
	if (fp == NULL)
		return;
	if (fgets(buf, (int)len, fp) != NULL && (nl = strchr(buf, '\n')))
		*nl = '\0';
	fclose(fp);
}

/* The figure in `svg` into the page, or why it is not there. */
static int
put(struct figs *f, int rc, const char *svg, const char *errf,
    const char *caption)
{
	char	*text = rc == 0 ? statedir_slurp(svg, SVG_MAX) : NULL;
	char	 msg[MSG_MAX];

	fprintf(f->page, "<figure>\n");
	if (text != NULL && strstr(text, "<svg") != NULL)
		svg_inline(f->page, text, f->n);
	else {
		first_line(errf, msg, sizeof(msg));
		fprintf(f->page, "<p class=\"nofig\">Not drawn: ");
		html_text(f->page, msg[0] != '\0' ? msg : "no data");
		fprintf(f->page, ".</p>\n");
		rc = rc == 0 ? 1 : rc;
	}
	fprintf(f->page, "<figcaption>");
	html_text(f->page, caption);
	fprintf(f->page, "</figcaption>\n</figure>\n");
	free(text);
	return rc;
}

/*
 * Run `draw` with stderr (and gnuplot's, which inherits it) going to the
 * figure's file, whose first line the page shows when nothing is drawn.
 * Where stderr cannot be moved and put back, it is left alone.
 */
static int
captured(const char *errf, int (*draw)(void *), void *arg)
{
	int	saved, fd, rc;

	fflush(stderr);
	if ((saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)) == -1)
		return draw(arg);
	if ((fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1 || dup2(fd, STDERR_FILENO) == -1) {
		if (fd != -1)
			close(fd);
		close(saved);
		return draw(arg);
	}
	close(fd);
	rc = draw(arg);
	fflush(stderr);
	if (dup2(saved, STDERR_FILENO) == -1)
		rc = rc == 0 ? 1 : rc;	/* stderr is the file: nothing to say */
	close(saved);
	return rc;
}

struct graph_call {
	int			 ac;
	char			*av[GRAPH_ARGS];
	const struct graph_src	*gs;
};

static int
draw_graph(void *arg)
{
	struct graph_call	*c = arg;

	return graph_main(c->ac, c->av, c->gs);
}

/* The archive's period: the drive's life as its records tell it. */
static void
period(struct graph_call *c, json_object *model, char since[32],
    char until[32])
{
	json_object	*v;

	if (json_object_object_get_ex(model, "created", &v) &&
	    json_object_get_int64(v) > 0 && c->ac + 4 <= GRAPH_ARGS) {
		snprintf(since, 32, "@%lld", (long long)json_object_get_int64(v));
		c->av[c->ac++] = "--since";
		c->av[c->ac++] = since;
		if (json_object_object_get_ex(model, "updated", &v) &&
		    json_object_get_int64(v) > 0) {
			snprintf(until, 32, "@%lld",
			    (long long)json_object_get_int64(v) + 5);
			c->av[c->ac++] = "--until";
			c->av[c->ac++] = until;
		}
	}
}

int
fig_graph(struct figs *f, json_object *model, const char *kind,
    const char *const *extra, const char *caption)
{
	struct graph_call	 c;
	char			 svg[96], errf[96], since[32], until[32];
	json_object		*v;
	const char		*drive = json_object_object_get_ex(model, "name",
				    &v) ? json_object_get_string(v) : "";

	memset(&c, 0, sizeof(c));
	snprintf(svg, sizeof(svg), "%s/%u.svg", f->dir, ++f->n);
	snprintf(errf, sizeof(errf), "%s/%u.err", f->dir, f->n);
	c.av[c.ac++] = (char *)drive;
	c.av[c.ac++] = "--what";
	c.av[c.ac++] = (char *)kind;
	c.av[c.ac++] = "-o";
	c.av[c.ac++] = svg;
	c.av[c.ac++] = "--width";
	c.av[c.ac++] = "900";
	c.av[c.ac++] = "--height";
	c.av[c.ac++] = "330";
	for (; extra != NULL && *extra != NULL && c.ac < GRAPH_ARGS - 6; extra++)
		c.av[c.ac++] = (char *)*extra;
	if (graph_kind_from_archive(kind))
		period(&c, model, since, until);
	c.gs = f->src->graph(f->src->arg, drive, kind, c.av, &c.ac,
	    GRAPH_ARGS - 1);
	return put(f, captured(errf, draw_graph, &c), svg, errf, caption);
}

struct gp_call {
	const char	*out;
	json_object	*what;
	int		(*fn)(const char *, json_object *);
};

static int
draw_gp(void *arg)
{
	struct gp_call	*c = arg;

	return c->fn(c->out, c->what);
}

static int
fig_gp(struct figs *f, int (*fn)(const char *, json_object *),
    json_object *what, const char *caption)
{
	char		svg[96], errf[96];
	struct gp_call	c = { svg, what, fn };

	snprintf(svg, sizeof(svg), "%s/%u.svg", f->dir, ++f->n);
	snprintf(errf, sizeof(errf), "%s/%u.err", f->dir, f->n);
	return put(f, captured(errf, draw_gp, &c), svg, errf, caption);
}

int
fig_wear(struct figs *f, json_object *models, const char *caption)
{
	return fig_gp(f, rp_wear, models, caption);
}

int
fig_bars(struct figs *f, json_object *probe, const char *caption)
{
	return fig_gp(f, rp_bars, probe, caption);
}
