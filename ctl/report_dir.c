/*
 * report_dir.c: a report's records from a state directory (a copy from
 * another host will do; no daemon): DIR/NAME/state, events.jsonl,
 * smart.jsonl, checkpoints.jsonl, and for the graphs NAME.rrd, the series
 * and the timelines. Every file is data that may be damaged: a line or a
 * key that does not parse is left out, never trusted.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "ckpt.h"
#include "ckpt_read.h"
#include "proto.h"
#include "report.h"
#include "statedir.h"

#define STATE_MAX	(256 * 1024)	/* a state file is about 2 KiB */

/* The state file's numbers a report shows, under DriveStatus's names. */
static const struct {
	const char	*key, *field;
} state_nums[] = {
	{ "span_bytes", "span_bytes" },
	{ "host_bytes_written", "host_bytes_written" },
	{ "host_bytes_read", "host_bytes_read" },
	{ "cycles_done", "cycles_done" },
	{ "cycle", "cycle" },
	{ "flushes", "flushes" },
	{ "probe_bytes_written", "probe_bytes_written" },
	{ "failed_at_tbw", "failed_at_tbw" },
	{ "checkpoint.done", "checkpoints_done" },
	{ "power.losses", "power_losses" },
	{ "power.cuts", "power_cuts" },
	{ "power.unflushed_kept", "unflushed_kept" },
	{ "created", "created" },
	{ "updated", "updated" },
};

static int
drive_file(char *buf, size_t len, const char *dir, const char *drive,
    enum statedir_file f)
{
	char	ddir[PATH_MAX];

	return statedir_drive_dir(ddir, sizeof(ddir), dir, drive) == -1 ?
	    -1 : statedir_path(buf, len, ddir, f);
}

/* The value of `key` in a state file's text ("key value" lines), or NULL. */
static const char *
state_value(const char *text, const char *key, size_t *len)
{
	size_t		 kl = strlen(key);
	const char	*p = text, *e;

	while (*p != '\0') {
		e = strchr(p, '\n');
		if (strncmp(p, key, kl) == 0 && p[kl] == ' ') {
			*len = (e != NULL ? (size_t)(e - p) : strlen(p)) - kl - 1;
			return p + kl + 1;
		}
		if (e == NULL)
			break;
		p = e + 1;
	}
	return NULL;
}

static void
add_num(json_object *o, const char *text, const char *key, const char *field)
{
	char		 buf[32], *end;
	const char	*v;
	size_t		 len;
	uint64_t	 n;

	if ((v = state_value(text, key, &len)) == NULL || len == 0 ||
	    len >= sizeof(buf))
		return;
	memcpy(buf, v, len);
	buf[len] = '\0';
	errno = 0;
	n = strtoull(buf, &end, 10);
	if (*end == '\0' && errno == 0 && buf[0] != '-')
		json_object_object_add(o, field, json_object_new_uint64(n));
}

static void
add_str(json_object *o, const char *text, const char *key, const char *field)
{
	const char	*v;
	size_t		 len;

	if ((v = state_value(text, key, &len)) != NULL)
		json_object_object_add(o, field,
		    json_object_new_string_len(v, (int)len));
}

/* The error counts by class (block.h's names, as the state file keys
 * them), and the sum of those that count against the drive (torn ones
 * do not: blk_class_is_error) as errors_total when the file has any. */
static void
state_errors(json_object *o, const char *text)
{
	json_object	*e = json_object_new_object(), *v;
	uint64_t	 total = 0;
	char		 key[32];
	int		 c, any = 0;

	for (c = BLK_OK + 1; c < BLK_NCLASS; c++) {
		snprintf(key, sizeof(key), "errors.%s", blk_class_name(c));
		add_num(e, text, key, blk_class_name(c));
		if (json_object_object_get_ex(e, blk_class_name(c), &v)) {
			if (blk_class_is_error(c))
				total += (uint64_t)json_object_get_int64(v);
			any = 1;
		}
	}
	json_object_object_add(o, "errors", e);
	json_object_object_add(o, "errors_total", any ?
	    json_object_new_uint64(total) : NULL);
}

static json_object *
dir_status(void *arg, const char *drive)
{
	char		 path[PATH_MAX + 64], *text;
	json_object	*o;
	size_t		 i;

	if (drive_file(path, sizeof(path), arg, drive, STATEDIR_STATE) == -1 ||
	    (text = statedir_slurp(path, STATE_MAX)) == NULL) {
		fprintf(stderr, "ssdctl report: %s: no drive %s here (%s)\n",
		    (const char *)arg, drive, strerror(errno));
		return NULL;
	}
	o = json_object_new_object();
	json_object_object_add(o, "name", json_object_new_string(drive));
	add_str(o, text, "run", "state");
	add_str(o, text, "reason", "reason");
	add_str(o, text, "serial", "serial");
	add_str(o, text, "device", "device");
	for (i = 0; i < sizeof(state_nums) / sizeof(*state_nums); i++)
		add_num(o, text, state_nums[i].key, state_nums[i].field);
	state_errors(o, text);
	free(text);
	return o;
}

/* The last PROTO_EVENTS_MAX events, as the Events method gives them. */
struct ring {
	json_object	*ev[PROTO_EVENTS_MAX];
	size_t		 n;		/* taken in all */
};

static const char *
event_problem(json_object *o)
{
	json_object	*v;

	return json_object_is_type(o, json_type_object) &&
	    json_object_object_get_ex(o, "event", &v) &&
	    json_object_is_type(v, json_type_string) ? NULL : "not an event";
}

static void
ring_take(json_object *o, void *arg)
{
	struct ring	*r = arg;
	json_object	**slot = &r->ev[r->n++ % PROTO_EVENTS_MAX];

	json_object_put(*slot);
	*slot = json_object_get(o);
}

/* Why the record `path` was not read (err): the daemon writes its
 * records itself, never through a link, and reads none that is one. */
static void
unread(const char *path, int err, char *why, size_t len)
{
	const char	*name = strrchr(path, '/');

	name = name != NULL ? name + 1 : path;
	snprintf(why, len, "%s %s", name, err == ELOOP ? "is a symbolic "
	    "link, never followed" : err == EINVAL ? "is not a regular file" :
	    "cannot be read: ");
	if (err != ELOOP && err != EINVAL)
		snprintf(why + strlen(why), len - strlen(why), "%s",
		    strerror(err));
	fprintf(stderr, "ssdctl report: %s: left out: %s\n", path, why);
}

/* A drive's lines of FILE taken by `problem`: the last PROTO_EVENTS_MAX
 * (the events, as the daemon's Events method gives them). */
static json_object *
dir_lines(const char *dir, const char *drive, enum statedir_file f,
    jsonl_problem_fn *problem, char *why, size_t len)
{
	char			 path[PATH_MAX + 64];
	struct ckpt_skipped	 sk;
	struct ring		*r = calloc(1, sizeof(*r));
	json_object		*arr = json_object_new_array();
	size_t			 i, first;

	if (r == NULL || drive_file(path, sizeof(path), dir, drive, f) == -1) {
		snprintf(path, sizeof(path), "%s/%s", dir, drive);
		unread(path, r == NULL ? ENOMEM : ENAMETOOLONG, why, len);
		json_object_put(arr);
		arr = NULL;
	} else if (jsonl_each(path, problem, ring_take, r, &sk) == -1) {
		unread(path, errno, why, len);
		json_object_put(arr);
		arr = NULL;
	}
	first = r == NULL || r->n <= PROTO_EVENTS_MAX ? 0 :
	    r->n - PROTO_EVENTS_MAX;
	for (i = first; r != NULL && i < r->n; i++) {
		if (arr != NULL)
			json_object_array_add(arr,
			    r->ev[i % PROTO_EVENTS_MAX]);
		else
			json_object_put(r->ev[i % PROTO_EVENTS_MAX]);
	}
	free(r);
	return arr;
}

static json_object *
dir_events(void *arg, const char *drive, char *why, size_t len)
{
	return dir_lines(arg, drive, STATEDIR_EVENTS, event_problem, why, len);
}

/* Every snapshot, as the Snapshots method gives them. */
static json_object *
dir_snapshots(void *arg, const char *drive, char *why, size_t len)
{
	json_object		*arr = json_object_new_array();
	struct ckpt_skipped	 sk;
	char			 path[PATH_MAX + 64];

	if (drive_file(path, sizeof(path), arg, drive, STATEDIR_SMART) == -1) {
		snprintf(path, sizeof(path), "%s/%s", (const char *)arg, drive);
		errno = ENAMETOOLONG;
	} else if (snap_read(path, arr, &sk) == 0)
		return arr;
	unread(path, errno, why, len);
	json_object_put(arr);
	return NULL;
}

/* The results, as ssdctl checkpoints --state-dir reads them. */
static json_object *
dir_checkpoints(void *arg, const char *drive, char *why, size_t len)
{
	json_object	*arr = json_object_new_array();
	char		 path[PATH_MAX + 64];
	int		 err;

	if (ckpt_load_dir(arg, drive, arr) == 0)
		return arr;
	err = errno;
	if (drive_file(path, sizeof(path), arg, drive,
	    STATEDIR_CHECKPOINTS) == -1)
		snprintf(path, sizeof(path), "%s/%s", (const char *)arg, drive);
	unread(path, err, why, len);
	json_object_put(arr);
	return NULL;
}

/* The archive's graphs from DIR/NAME/NAME.rrd, the others from DIR. */
static const struct graph_src *
dir_graph(void *arg, const char *drive, const char *kind, char **av,
    int *ac, int max)
{
	static char	rrd[PATH_MAX + 64];
	int		from_rrd = graph_kind_from_archive(kind);

	if (*ac + 2 > max)
		return NULL;
	if (from_rrd) {
		if (drive_file(rrd, sizeof(rrd), arg, drive,
		    STATEDIR_ARCHIVE) == -1)
			return NULL;
		av[(*ac)++] = "--rrd";
		av[(*ac)++] = rrd;
	} else {
		av[(*ac)++] = "--state-dir";
		av[(*ac)++] = arg;
	}
	return NULL;
}

void
report_dir_src(struct report_src *s, const char *dir)
{
	memset(s, 0, sizeof(*s));
	s->arg = (void *)(uintptr_t)dir;
	s->what = dir;
	s->status = dir_status;
	s->events = dir_events;
	s->snapshots = dir_snapshots;
	s->checkpoints = dir_checkpoints;
	s->graph = dir_graph;
}
