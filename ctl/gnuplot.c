/* gnuplot.c: running gnuplot for ssdctl's graphs (gnuplot.h). */
#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"
#include "palette.h"

extern char	**environ;

#define GNUPLOT		"gnuplot"

int
gp_files_make(struct gp_files *f)
{
	const char	*tmp = getenv("TMPDIR");

	if (tmp == NULL || tmp[0] == '\0' || strlen(tmp) > 40)
		tmp = "/tmp";
	snprintf(f->dir, sizeof(f->dir), "%s/ssdctl-graph.XXXXXX", tmp);
	if (mkdtemp(f->dir) == NULL) {
		fprintf(stderr, "ssdctl graph: %s: %s\n", f->dir,
		    strerror(errno));
		return -1;
	}
	snprintf(f->data, sizeof(f->data), "%s/data", f->dir);
	snprintf(f->script, sizeof(f->script), "%s/plot.gp", f->dir);
	return 0;
}

void
gp_files_remove(const struct gp_files *f)
{
	unlink(f->data);
	unlink(f->script);
	rmdir(f->dir);
}

/* Only a quote needs escaping (doubled); control characters are left out. */
void
gp_quoted(FILE *fp, const char *s)
{
	fputc('\'', fp);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputc('\'', fp);
		if ((unsigned char)*s >= ' ')
			fputc(*s, fp);
	}
	fputc('\'', fp);
}

void
gp_head(FILE *fp, int svg, int width, int height, const char *out,
    const char *title, const char *xlabel)
{
	fprintf(fp, "set terminal %s size %d,%d noenhanced font '" PAL_FONT
	    "," PAL_FONT_SIZE "' background '#ffffff'\nset output ",
	    svg ? "svg" : "pngcairo", width, height);
	gp_quoted(fp, out);
	fprintf(fp, "\nset title ");
	gp_quoted(fp, title);
	fprintf(fp, " font '," PAL_TITLE_SIZE "' textcolor rgb '" PAL_INK
	    "'\nset border 3 lc rgb '" PAL_AXIS "'\n"
	    "set grid lc rgb '" PAL_GRID "' lt 1\n"
	    "set key below horizontal textcolor rgb '" PAL_INK "'\n"
	    "set xlabel ");
	gp_quoted(fp, xlabel);
	fprintf(fp, " textcolor rgb '" PAL_INK "'\nset tics nomirror\n");
}

int
gp_run(const char *script, const char *what)
{
	char	*argv[] = { GNUPLOT, (char *)script, NULL };
	pid_t	 pid;
	int	 rc, st;

	rc = posix_spawnp(&pid, GNUPLOT, NULL, NULL, argv, environ);
	if (rc == ENOENT) {
		fprintf(stderr, "ssdctl graph: gnuplot is not installed: "
		    "%s draws with it (Debian: apt-get install gnuplot-nox)\n",
		    what);
		return 1;
	}
	if (rc != 0) {
		fprintf(stderr, "ssdctl graph: cannot run gnuplot: %s\n",
		    strerror(rc));
		return 1;
	}
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return 1;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "ssdctl graph: gnuplot failed (%s %d)\n",
		    WIFEXITED(st) ? "exit status" : "signal",
		    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return 1;
	}
	return 0;
}
