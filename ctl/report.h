/*
 * report.h: ssdctl report: the story of one drive, or several side by
 * side, as one self-contained HTML file (styles and graphs inline, no
 * script, nothing fetched) or as the same content in JSON.
 *
 * The records come from a source: the daemon (Varlink: Status, Events,
 * Snapshots, Checkpoints, Series; the archive it names) or a state
 * directory copied from anywhere (report_dir.c). Each drive's records
 * become one model (report_model.c, the --json output); the page is
 * rendered from that model alone (report_html.c), with graphs drawn by
 * ssdctl graph's own code (the same styles) and by report_gp.c.
 */
#ifndef SSDT_REPORT_H
#define SSDT_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "graph.h"

#define REPORT_EVENTS_MAX	200	/* events listed, per drive */
#define REPORT_DRIVES_MAX	16	/* drives side by side */

/* The milestone several drives are compared at (--at). */
struct report_at {
	enum { AT_FIRST, AT_LATEST, AT_BYTES } kind;
	uint64_t	bytes;		/* AT_BYTES: the first checkpoint at
					 * or after this many bytes written */
	char		word[32];	/* as given */
};

/*
 * Where a drive's records come from. Each call returns a reference of its
 * own, or NULL after a message on stderr (a drive without such records
 * gets an empty array, not NULL). A list that cannot be read says why in
 * `why` (len bytes): the report leaves out what it would show, with that
 * reason, and goes on.
 */
struct report_src {
	void		*arg;
	const char	*what;		/* "the daemon", or the directory */
	/* The DriveStatus object (daemon); offline, one built from the
	 * state file with the same field names. */
	json_object	*(*status)(void *arg, const char *drive);
	json_object	*(*events)(void *arg, const char *drive, char *why,
		    size_t len);
	json_object	*(*snapshots)(void *arg, const char *drive, char *why,
		    size_t len);
	json_object	*(*checkpoints)(void *arg, const char *drive,
		    char *why, size_t len);
	/* The options of ssdctl graph that draw `kind` of the drive from
	 * this source, appended to av from index *ac (at most `max` in all;
	 * valid until the next call), and the graph source to pass (NULL
	 * offline). */
	const struct graph_src *(*graph)(void *arg, const char *drive,
		    const char *kind, char **av, int *ac, int max);
};

/* The offline source: state directory `dir` (report_dir.c). */
void	report_dir_src(struct report_src *, const char *dir);

/* State directories of several hosts (report_hosts.c). */
#define REPORT_HOSTS_MAX	16
struct report_host {
	char			 name[64];	/* HOST */
	const char		*dir;
	struct report_src	 src;		/* its directory's */
};
struct report_hdrive {
	char			 shown[160];	/* HOST/DRIVE */
	const char		*drive;		/* in the host's directory */
	size_t			 host;
};
struct report_hosts {
	struct report_host	 h[REPORT_HOSTS_MAX];
	size_t			 n;
	struct report_hdrive	 d[REPORT_DRIVES_MAX];
	size_t			 nd;
	char			 what[1024];
};
/* One more host: DIR (named by its last component) or HOST=DIR; -1 and
 * why when it cannot be (too many, a name twice). */
int	report_hosts_add(struct report_hosts *, const char *arg, char *err,
	    size_t len);
/* A drive of the report, DRIVE (held by one directory only) or
 * HOST/DRIVE: its name in the report (HOST/DRIVE), or NULL and why. */
const char *report_hosts_drive(struct report_hosts *, const char *arg,
	    char *err, size_t len);
/* The source that hands each drive's calls to its host's directory. */
void	report_hosts_src(struct report_src *, struct report_hosts *);

/*
 * ssdctl report: argv[0] is "report", then the drives and options.
 * `daemon` is the daemon's source, or NULL when --state-dir is given
 * (report_needs_daemon says which); json: ssdctl's own --json was given
 * (the same as report's). 0, 1 (an error, said on stderr) or 2 (usage).
 */
int	report_main(int argc, char **argv, const struct report_src *daemon,
	    int json);
int	report_needs_daemon(int argc, char **argv);

#endif
