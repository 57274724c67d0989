/*
 * report_hosts.c: a report across hosts. Each --state-dir is one host's
 * state directory (copied from it); its host is the directory's last
 * component, or NAME in --state-dir NAME=DIR. A drive is named DRIVE when
 * one directory holds it, HOST/DRIVE always (and where names collide,
 * only so); the report shows every drive as HOST/DRIVE. The source hands
 * each call to the state directory of the drive's host (report_dir.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "report.h"
#include "statedir.h"

/* A drive's state file in directory `dir`: does the directory hold it? */
static int
holds(const char *dir, const char *drive)
{
	char	ddir[PATH_MAX], path[PATH_MAX + 64];

	if (strchr(drive, '/') != NULL || drive[0] == '\0' ||
	    strcmp(drive, ".") == 0 || strcmp(drive, "..") == 0 ||
	    (size_t)snprintf(ddir, sizeof(ddir), "%s/%s", dir, drive) >=
	    sizeof(ddir))
		return 0;
	statedir_path(path, sizeof(path), ddir, STATEDIR_STATE);
	return access(path, F_OK) == 0;
}

int
report_hosts_add(struct report_hosts *hs, const char *arg, char *err,
    size_t len)
{
	struct report_host	*h;
	const char		*eq = strchr(arg, '='), *base;
	size_t			 n, i;

	if (hs->n == REPORT_HOSTS_MAX) {
		snprintf(err, len, "at most %d state directories", REPORT_HOSTS_MAX);
		return -1;
	}
	h = &hs->h[hs->n];
	memset(h, 0, sizeof(*h));
	if (eq != NULL && eq > arg && memchr(arg, '/', (size_t)(eq - arg)) ==
	    NULL) {		/* NAME=DIR */
		n = (size_t)(eq - arg);
		h->dir = eq + 1;
	} else {		/* DIR: its last component */
		h->dir = arg;
		for (n = strlen(arg); n > 1 && arg[n - 1] == '/'; n--)
			;
		for (base = arg + n; base > arg && base[-1] != '/'; base--)
			;
		n -= (size_t)(base - arg);
		arg = base;
	}
	if (n == 0 || n >= sizeof(h->name) || h->dir[0] == '\0') {
		snprintf(err, len, "%s: expected DIR or HOST=DIR", arg);
		return -1;
	}
	memcpy(h->name, arg, n);
	h->name[n] = '\0';
	for (i = 0; i < hs->n; i++)
		if (strcmp(hs->h[i].name, h->name) == 0) {
			snprintf(err, len, "two state directories of host %s: "
			    "name them HOST=DIR", h->name);
			return -1;
		}
	report_dir_src(&h->src, h->dir);
	hs->n++;
	return 0;
}

/* The host named `name`, or -1. */
static int
host_of(const struct report_hosts *hs, const char *name, size_t n)
{
	size_t	i;

	for (i = 0; i < hs->n; i++)
		if (strlen(hs->h[i].name) == n &&
		    strncmp(hs->h[i].name, name, n) == 0)
			return (int)i;
	return -1;
}

/* The host that holds `drive` alone, or -1 with why. */
static int
only_host(const struct report_hosts *hs, const char *drive, char *err,
    size_t len)
{
	size_t	i, n = 0, used = 0;
	int	found = -1;

	for (i = 0; i < hs->n; i++)
		if (holds(hs->h[i].dir, drive)) {
			found = (int)i;
			n++;
		}
	if (n == 1)
		return found;
	if (n == 0) {
		snprintf(err, len, "no drive %s in any state directory", drive);
		return -1;
	}
	used = (size_t)snprintf(err, len, "drive %s is in %zu state "
	    "directories (", drive, n);
	for (i = 0; i < hs->n && used < len; i++)
		if (holds(hs->h[i].dir, drive))
			used += (size_t)snprintf(err + used, len - used, "%s%s",
			    used > 0 && err[used - 1] != '(' ? ", " : "",
			    hs->h[i].name);
	if (used < len)
		snprintf(err + used, len - used, "): name it HOST/DRIVE");
	return -1;
}

const char *
report_hosts_drive(struct report_hosts *hs, const char *arg, char *err,
    size_t len)
{
	struct report_hdrive	*d;
	const char		*slash = strchr(arg, '/');
	char			 shown[sizeof(d->shown)];
	int			 h;

	if (hs->nd == REPORT_DRIVES_MAX) {
		snprintf(err, len, "at most %d drives", REPORT_DRIVES_MAX);
		return NULL;
	}
	d = &hs->d[hs->nd];
	d->drive = slash != NULL ? slash + 1 : arg;
	h = slash != NULL ? host_of(hs, arg, (size_t)(slash - arg)) :
	    only_host(hs, arg, err, len);
	if (slash != NULL && h < 0)
		snprintf(err, len, "%s: no state directory of host %.*s", arg,
		    (int)(slash - arg), arg);
	if (h < 0)
		return NULL;
	if (slash != NULL && !holds(hs->h[h].dir, d->drive)) {
		snprintf(err, len, "%s: no drive %s in %s", arg, d->drive,
		    hs->h[h].dir);
		return NULL;
	}
	d->host = (size_t)h;
	snprintf(shown, sizeof(shown), "%s/%s", hs->h[h].name, d->drive);
	memcpy(d->shown, shown, sizeof(d->shown));
	hs->nd++;
	return d->shown;
}

/* The drive shown as `shown` and its host's source; NULL if none. */
static const struct report_hdrive *
lookup(const struct report_hosts *hs, const char *shown,
    const struct report_src **src)
{
	size_t	i;

	for (i = 0; i < hs->nd; i++)
		if (strcmp(hs->d[i].shown, shown) == 0) {
			*src = &hs->h[hs->d[i].host].src;
			return &hs->d[i];
		}
	return NULL;
}

/* The drive's status, named HOST/DRIVE, with its host. */
static json_object *
hosts_status(void *arg, const char *shown)
{
	const struct report_src		*s;
	const struct report_hdrive	*d = lookup(arg, shown, &s);
	const struct report_hosts	*hs = arg;
	json_object			*o;

	if (d == NULL || (o = s->status(s->arg, d->drive)) == NULL)
		return NULL;
	json_object_object_add(o, "name", json_object_new_string(shown));
	json_object_object_add(o, "host", json_object_new_string(
	    hs->h[d->host].name));
	return o;
}

#define ROUTE(fn, field)						\
static json_object *							\
fn(void *arg, const char *shown, char *why, size_t len)			\
{									\
	const struct report_src		*s;				\
	const struct report_hdrive	*d = lookup(arg, shown, &s);	\
									\
	if (d == NULL) {						\
		snprintf(why, len, "no drive %s", shown);		\
		return NULL;						\
	}								\
	return s->field(s->arg, d->drive, why, len);			\
}
ROUTE(hosts_events, events)
ROUTE(hosts_snapshots, snapshots)
ROUTE(hosts_checkpoints, checkpoints)
#undef ROUTE

static const struct graph_src *
hosts_graph(void *arg, const char *shown, const char *kind, char **av,
    int *ac, int max)
{
	const struct report_src		*s;
	const struct report_hdrive	*d = lookup(arg, shown, &s);

	if (d == NULL)
		return NULL;
	/* the graph's drive (its first argument, report_fig.c) is the one
	 * of the host's directory */
	if (*ac > 0 && strcmp(av[0], shown) == 0)
		av[0] = (char *)d->drive;
	return s->graph(s->arg, d->drive, kind, av, ac, max);
}

void
report_hosts_src(struct report_src *s, struct report_hosts *hs)
{
	size_t	i, used = 0;

	used = (size_t)snprintf(hs->what, sizeof(hs->what), "state "
	    "directories of %zu hosts:", hs->n);
	for (i = 0; i < hs->n && used < sizeof(hs->what); i++)
		used += (size_t)snprintf(hs->what + used, sizeof(hs->what) -
		    used, " %s (%s)", hs->h[i].name, hs->h[i].dir);
	memset(s, 0, sizeof(*s));
	s->arg = hs;
	s->what = hs->what;
	s->status = hosts_status;
	s->events = hosts_events;
	s->snapshots = hosts_snapshots;
	s->checkpoints = hosts_checkpoints;
	s->graph = hosts_graph;
}
