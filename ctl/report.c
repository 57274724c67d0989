/*
 * report.c: ssdctl report (report.h): the options, each drive's model
 * from its source, the comparison of several, and the output: the models
 * as JSON, or the page with its graphs (drawn in a temporary directory,
 * then inlined and removed).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "report.h"
#include "report_html.h"
#include "report_model.h"
#include "units.h"

#define EXIT_ERR	1
#define EXIT_USAGE	2

struct ropts {
	const char	*drives[REPORT_DRIVES_MAX];
	size_t		 ndrives;
	const char	*state_dirs[REPORT_HOSTS_MAX];
	size_t		 nstate_dirs;
	const char	*out, *at;
	int		 json, help;
};

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: ssdctl report DRIVE... -o FILE.html [--state-dir "
	    "DIR]... [--at 0|latest|SIZE]\n       ssdctl report DRIVE... --json "
	    "[-o FILE.json] [--state-dir DIR]... [--at ...]\n"
	    "  -o FILE         the page (one self-contained HTML file), or "
	    "with --json the data\n"
	    "  --state-dir DIR read a copy of the state directory instead of "
	    "asking the daemon;\n                  several: one host's each "
	    "(HOST=DIR, else HOST is DIR's\n                  last part), "
	    "drives DRIVE or HOST/DRIVE, shown HOST/DRIVE\n"
	    "  --at MILESTONE  several drives: compare the probes at the first "
	    "checkpoint (0),\n                  the latest (default) or the "
	    "first at or after SIZE written (100TB)\n"
	    "  --json          the content as JSON\n");
}

static int
parse(int argc, char **argv, struct ropts *o, int json, int quiet)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "state-dir", required_argument, NULL, 'd' },
		{ "at", required_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int	ch, saved = opterr;

	memset(o, 0, sizeof(*o));
	o->json = json;
	optind = 0;
	opterr = !quiet;
	while ((ch = getopt_long(argc, argv, "o:jh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o': o->out = optarg; break;
		case 'd':
			if (o->nstate_dirs == REPORT_HOSTS_MAX) {
				fprintf(stderr, "ssdctl report: at most %d "
				    "state directories\n", REPORT_HOSTS_MAX);
				opterr = saved;
				return -1;
			}
			o->state_dirs[o->nstate_dirs++] = optarg;
			break;
		case 'a': o->at = optarg; break;
		case 'j': o->json = 1; break;
		case 'h': o->help = 1; break;
		default: opterr = saved; return -1;
		}
	}
	opterr = saved;
	for (; optind < argc; optind++) {
		if (o->ndrives == REPORT_DRIVES_MAX) {
			fprintf(stderr, "ssdctl report: at most %d drives\n",
			    REPORT_DRIVES_MAX);
			return -1;
		}
		o->drives[o->ndrives++] = argv[optind];
	}
	return 0;
}

/* What is wrong with the options, or NULL. */
static const char *
problem(const struct ropts *o, struct report_at *at)
{
	if (o->ndrives == 0)
		return "one DRIVE or more expected";
	if (o->out == NULL && !o->json)
		return "-o FILE.html is required (or --json)";
	if (!o->json && strcmp(o->out, "-") == 0)
		return "the page goes to a file (-o FILE.html; --json: - for "
		    "standard output)";
	if (report_at_parse(o->at != NULL ? o->at : "latest", at) == -1)
		return "--at: expected 0, latest or a size (100TB)";
	return NULL;
}

int
report_needs_daemon(int argc, char **argv)
{
	struct ropts	o;

	/* a usage error is said by report_main, before any call */
	return parse(argc, argv, &o, 0, 1) == 0 && o.nstate_dirs == 0;
}

/* A list of the drive's records; NULL when it cannot be read, and why
 * under its name in `unread`. */
static json_object *
records(json_object *(*get)(void *, const char *, char *, size_t),
    const struct report_src *s, const char *drive, const char *name,
    json_object *unread)
{
	char		 why[512] = "";
	json_object	*a = get(s->arg, drive, why, sizeof(why));

	if (a == NULL)
		json_object_object_add(unread, name, json_object_new_string(
		    why[0] != '\0' ? why : "cannot be read"));
	return a;
}

/*
 * One drive's model from the source; NULL after a message when the drive
 * has no status. A list of records that cannot be read is left out, the
 * reason in the model's "unread" (events, snapshots, checkpoints): what
 * the others show is still true, so the report goes on.
 */
static json_object *
drive_model(const struct report_src *s, const char *drive)
{
	json_object	*st, *ev = NULL, *sn = NULL, *ck = NULL, *m = NULL;
	json_object	*unread;

	if ((st = s->status(s->arg, drive)) == NULL)
		return NULL;
	unread = json_object_new_object();
	ev = records(s->events, s, drive, "events", unread);
	sn = records(s->snapshots, s, drive, "snapshots", unread);
	ck = records(s->checkpoints, s, drive, "checkpoints", unread);
	m = report_model(st, ev, sn, ck);
	json_object_object_add(m, "unread", unread);
	json_object_put(st);
	json_object_put(ev);
	json_object_put(sn);
	json_object_put(ck);
	return m;
}

/* The whole report's data: every drive's model and their comparison. */
static json_object *
build(const struct ropts *o, const struct report_src *s,
    const struct report_at *at)
{
	json_object	*r = json_object_new_object(), *drives, *m;
	size_t		 i;

	drives = json_object_new_array();
	json_object_object_add(r, "generated",
	    json_object_new_int64((long long)time(NULL)));
	json_object_object_add(r, "source", json_object_new_string(s->what));
	json_object_object_add(r, "drives", drives);
	for (i = 0; i < o->ndrives; i++) {
		if ((m = drive_model(s, o->drives[i])) == NULL) {
			json_object_put(r);
			return NULL;
		}
		json_object_array_add(drives, m);
	}
	json_object_object_add(r, "comparison", report_compare(drives, at));
	return r;
}

static int
write_json(const char *out, json_object *r)
{
	const char	*text = json_object_to_json_string_ext(r,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	FILE		*fp = out == NULL || strcmp(out, "-") == 0 ? stdout :
	    fopen(out, "we");

	if (fp == NULL) {
		fprintf(stderr, "ssdctl report: %s: %s\n", out,
		    strerror(errno));
		return EXIT_ERR;
	}
	fprintf(fp, "%s\n", text);
	if ((fp == stdout ? fflush(fp) : fclose(fp)) == EOF) {
		fprintf(stderr, "ssdctl report: %s: %s\n", out != NULL ? out :
		    "stdout", strerror(errno));
		return EXIT_ERR;
	}
	return 0;
}

/* Several state directories: each drive named HOST/DRIVE from now on. */
static int
hosts_src(struct ropts *o, struct report_hosts *hs, struct report_src *s)
{
	char	err[512];
	size_t	i;

	memset(hs, 0, sizeof(*hs));
	for (i = 0; i < o->nstate_dirs; i++)
		if (report_hosts_add(hs, o->state_dirs[i], err,
		    sizeof(err)) == -1) {
			fprintf(stderr, "ssdctl report: --state-dir %s\n", err);
			return -1;
		}
	for (i = 0; i < o->ndrives; i++)
		if ((o->drives[i] = report_hosts_drive(hs, o->drives[i], err,
		    sizeof(err))) == NULL) {
			fprintf(stderr, "ssdctl report: %s\n", err);
			return -1;
		}
	report_hosts_src(s, hs);
	return 0;
}

int
report_main(int argc, char **argv, const struct report_src *daemon, int json)
{
	static struct report_hosts hosts;	/* the source's, to the end */
	struct ropts		 o;
	struct report_src	 dir;
	struct report_at	 at;
	const struct report_src	*s = daemon;
	const char		*why;
	json_object		*r;
	int			 rc;

	if (parse(argc, argv, &o, json, 0) == -1 || o.help) {
		usage(o.help ? stdout : stderr);
		return o.help ? 0 : EXIT_USAGE;
	}
	if ((why = problem(&o, &at)) != NULL) {
		fprintf(stderr, "ssdctl report: %s\n", why);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (o.nstate_dirs == 1) {
		report_dir_src(&dir, o.state_dirs[0]);
		s = &dir;
	} else if (o.nstate_dirs > 1) {
		if (hosts_src(&o, &hosts, &dir) == -1)
			return EXIT_ERR;
		s = &dir;
	}
	if (s == NULL || (r = build(&o, s, &at)) == NULL)
		return EXIT_ERR;
	rc = o.json ? write_json(o.out, r) : report_html(o.out, r, s);
	json_object_put(r);
	return rc;
}
