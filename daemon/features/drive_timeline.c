/*
 * drive_timeline.c: the timeline of every write pass (the static fill
 * and each cycle's pass), in STATE_DIR/NAME/timelines/pass-N.json (N: the
 * cycle; 0 the static fill), and the write-cache estimate made from it
 * (slc.h), whose figures go into the pass's phase_end event. Kept: the
 * static fill's, the first pass's, every timeline_every-th and the latest
 * TL_KEEP_LATEST; the rest are removed as newer ones are written.
 *
 * A pass resumed after a restart or a pause has a timeline from where
 * it went on, but no estimate: the cache had time to empty meanwhile.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "drive_features.h"
#include "drive_priv.h"
#include "drive_timeline.h"
#include "engine.h"
#include "slc.h"
#include "statedir.h"
#include "timeline.h"
#include "tl_estimate.h"
#include "tl_read.h"

#define TL_KEEP_LATEST	3

/* Is pass n's timeline kept once pass `last` has one? */
static int
tl_kept(uint64_t n, uint64_t last, uint64_t every)
{
	return n <= 1 || n % every == 0 || n + TL_KEEP_LATEST > last;
}

/* The pass of a figures object (the daemon's own: a sound number). */
static uint64_t
figs_pass(json_object *o)
{
	return (uint64_t)json_object_get_int64(json_object_object_get(o,
	    "pass"));
}

/* Take pass n out of the list in memory, if it is read. */
static void
figs_drop(struct drive *d, uint64_t n)
{
	size_t	i;

	for (i = 0; d->tl_figs != NULL &&
	    i < json_object_array_length(d->tl_figs); i++)
		if (figs_pass(json_object_array_get_idx(d->tl_figs, i)) == n) {
			json_object_array_del_idx(d->tl_figs, i, 1);
			return;
		}
}

static int
figs_cmp(const void *a, const void *b)
{
	uint64_t	x = figs_pass(*(json_object *const *)a);
	uint64_t	y = figs_pass(*(json_object *const *)b);

	return (x > y) - (x < y);
}

/* Put the figures of a timeline just saved into the list, in pass order. */
static void
figs_add(struct drive *d, json_object *o, uint64_t pass)
{
	json_object	*f = NULL;
	size_t		 n;

	if (d->tl_figs == NULL || json_object_deep_copy(o, &f, NULL) != 0)
		return;
	json_object_object_del(f, "t_us");
	figs_drop(d, pass);
	n = json_object_array_length(d->tl_figs);
	json_object_array_add(d->tl_figs, f);
	if (n > 0 && figs_pass(json_object_array_get_idx(d->tl_figs,
	    n - 1)) > pass)
		json_object_array_sort(d->tl_figs, figs_cmp);
}

/*
 * Remove the timelines no longer kept once pass `last` has one, and the
 * temporary files of saves a crash cut short (".pass-N.json.XXXXXX":
 * this process is the directory's only writer, and not saving now).
 */
static void
tl_prune(struct drive *d, uint64_t last)
{
	char		 dir[PATH_MAX], path[PATH_MAX + 300];
	struct dirent	*de;
	DIR		*dp;
	uint64_t	 n;

	if (statedir_path(dir, sizeof(dir), d->dir, STATEDIR_TIMELINES) == -1 ||
	    (dp = opendir(dir)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		if (strncmp(de->d_name, ".pass-", 6) == 0)
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		else if (tl_file_pass(de->d_name, &n) == -1 ||
		    tl_kept(n, last, d->conf.timeline_every) ||
		    tl_file_path(path, sizeof(path), d->dir, n) == -1)
			continue;
		if (unlink(path) == -1 && errno != ENOENT)
			drive_log(d, LOG_WARNING, errno, "cannot remove %s",
			    path);
		else if (de->d_name[0] != '.')
			figs_drop(d, n);
	}
	closedir(dp);
}

/* The file's object: the pass, its steps, their end times in us. */
static json_object *
tl_object(struct drive *d, const struct timeline *tl, uint64_t pass,
    const struct slc_estimate *s)
{
	json_object	*o = drive_ev_obj(d), *a = json_object_new_array();
	uint32_t	 i;

	json_object_object_add(o, "pass", json_object_new_uint64(pass));
	json_object_object_add(o, "time_ms", json_object_new_uint64(wall_ms()));
	json_object_object_add(o, "pass_bytes",
	    json_object_new_uint64(tl->pass_bytes));
	json_object_object_add(o, "step_bytes",
	    json_object_new_uint64(tl->step_bytes));
	json_object_object_add(o, "steps", json_object_new_uint64(tl->nsteps));
	json_object_object_add(o, "first_step",
	    json_object_new_uint64(tl->first));
	json_object_object_add(o, "whole", json_object_new_boolean(
	    tl_whole(tl)));
	for (i = 0; tl->started && i <= tl->n; i++)
		json_object_array_add(a, json_object_new_uint64(
		    (tl->t[i] - tl->t[0]) / 1000));
	json_object_object_add(o, "t_us", a);
	if (s != NULL)
		tl_estimate_fields(o, s);
	return o;
}

static int
put_json(FILE *fp, void *arg)
{
	return fprintf(fp, "%s\n", json_object_to_json_string_ext(arg,
	    JSON_C_TO_STRING_PLAIN)) < 0 ? -1 : 0;
}

/* Write pass n's timeline whole or not at all; a warning if not. */
static void
tl_save(struct drive *d, json_object *o, uint64_t pass)
{
	char	dir[PATH_MAX], path[PATH_MAX + 64];

	if (statedir_path(dir, sizeof(dir), d->dir, STATEDIR_TIMELINES) == -1 ||
	    tl_file_path(path, sizeof(path), d->dir, pass) == -1) {
		drive_log(d, LOG_WARNING, 0, "timeline path too long");
		return;
	}
	if (statedir_mkdirs(dir, 0750) == -1 ||
	    statedir_replace(path, 0640, put_json, o) == -1) {
		drive_log(d, LOG_WARNING, errno, "cannot write %s", path);
		return;
	}
	figs_add(d, o, pass);
	tl_prune(d, pass);
}

void
drive_timelines(struct drive *d, int64_t pass, json_object *out)
{
	uint64_t	p = pass >= 0 ? (uint64_t)pass : 0;
	size_t		i;

	if (pass >= 0) {	/* one file: read it */
		if (tl_read(d->dir, &p, 1, 1, out) == -1)
			drive_log(d, LOG_WARNING, errno, "cannot read its "
			    "timelines");
		return;
	}
	if (d->tl_figs == NULL) {
		d->tl_figs = json_object_new_array();
		if (tl_read(d->dir, NULL, 0, 0, d->tl_figs) == -1) {
			drive_log(d, LOG_WARNING, errno, "cannot read its "
			    "timelines");
			json_object_put(d->tl_figs);
			d->tl_figs = NULL;
			return;
		}
	}
	for (i = 0; i < json_object_array_length(d->tl_figs); i++)
		json_object_array_add(out, json_object_get(
		    json_object_array_get_idx(d->tl_figs, i)));
}

/*
 * A phase's phase_end event: after a write pass (the static fill or a
 * cycle's), its timeline saved and the write-cache estimate's figures put
 * in the event `ev`.
 */
static void
drive_timeline_end(struct drive *d, json_object *ev)
{
	struct timeline		*tl;
	struct slc_estimate	 s;
	int			 est;
	uint64_t		 pass = d->st.prog.phase == PHASE_STATIC ? 0 :
	    d->st.prog.cycle;
	json_object		*o;

	if (d->st.prog.phase != PHASE_WRITE && d->st.prog.phase != PHASE_STATIC)
		return;
	if (d->eng == NULL || (tl = malloc(sizeof(*tl))) == NULL)
		return;
	if (engine_timeline(d->eng, tl) && tl->started) {
		est = tl_estimate_of(tl, &s, ev);
		o = tl_object(d, tl, pass, est ? &s : NULL);
		tl_save(d, o, pass);
		json_object_put(o);
	}
	free(tl);
}

static void
tl_release(struct drive *d)
{
	json_object_put(d->tl_figs);
	d->tl_figs = NULL;
}

/* Every write pass's timeline and write-cache estimate. */
const struct drive_feature drive_timeline_feature = {
	.name = "write timelines",
	.phase_ended = drive_timeline_end,
	.release = tl_release,
};
