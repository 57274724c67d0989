/*
 * tl_estimate.c: the write-cache estimate (slc.h) of a write job's
 * timeline as the fields of a JSON object: shared, below both, by the
 * write timelines (drive_timeline.c: a pass's phase_end event and file)
 * and the long tests (ckpt_long.c: a checkpoint's clean and dirty
 * passes).
 */
#include <stdlib.h>

#include <json-c/json.h>

#include "drive_priv.h"
#include "engine.h"
#include "slc.h"
#include "timeline.h"
#include "tl_estimate.h"

/* The cache's levels, and the gusts after it, into o. */
static void
slc_shape(json_object *o, const struct slc_estimate *s)
{
	json_object	*lv = json_object_new_array(), *l;
	int		 i;

	for (i = 0; i < s->levels; i++) {
		l = json_object_new_object();
		json_object_object_add(l, "bytes",
		    json_object_new_uint64(s->level_bytes[i]));
		json_object_object_add(l, "bytes_per_sec",
		    json_object_new_double(s->level_bps[i]));
		json_object_array_add(lv, l);
	}
	json_object_object_add(o, "slc_levels", lv);
	json_object_object_add(o, "post_cache_gusts",
	    json_object_new_boolean(s->gusts));
	json_object_object_add(o, "post_cache_stalls",
	    json_object_new_int64(s->stalls));
	json_object_object_add(o, "post_cache_stall_seconds",
	    json_object_new_double(s->stall_s));
	json_object_object_add(o, "post_cache_stall_share",
	    json_object_new_double(s->stall_share));
}

void
tl_estimate_fields(json_object *o, const struct slc_estimate *s)
{
	json_object_object_add(o, "slc_knee", json_object_new_boolean(s->knee));
	json_object_object_add(o, "pass_bytes_per_sec",
	    json_object_new_double(s->avg_bps));
	if (!s->knee)
		return;
	json_object_object_add(o, "slc_cache_bytes",
	    json_object_new_uint64(s->cache_bytes));
	json_object_object_add(o, "in_cache_bytes_per_sec",
	    json_object_new_double(s->in_bps));
	json_object_object_add(o, "post_cache_bytes_per_sec",
	    json_object_new_double(s->post_bps));
	slc_shape(o, s);
}

int
tl_estimate_of(const struct timeline *tl, struct slc_estimate *s,
    json_object *o)
{
	if (!tl_whole(tl) || slc_estimate(tl->t, tl->n, tl->step_bytes, s) != 0)
		return 0;
	tl_estimate_fields(o, s);
	return 1;
}

int
tl_estimate_job(struct drive *d, json_object *o)
{
	struct timeline		*tl;
	struct slc_estimate	 s;
	int			 rc = -1;

	if (d->eng == NULL || (tl = malloc(sizeof(*tl))) == NULL)
		return -1;
	if (engine_timeline(d->eng, tl) && tl->started &&
	    tl_estimate_of(tl, &s, o))
		rc = 0;
	free(tl);
	return rc;
}
