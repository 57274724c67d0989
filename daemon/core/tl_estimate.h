/*
 * tl_estimate.h: a write job's cache estimate as JSON fields
 * (tl_estimate.c).
 */
#ifndef SSDT_TL_ESTIMATE_H
#define SSDT_TL_ESTIMATE_H

#include <json-c/json.h>

#include "slc.h"

struct drive;

/* The estimate's figures into o (the event and the file share them). */
void	tl_estimate_fields(json_object *o, const struct slc_estimate *);
struct timeline;

/* The estimate of a whole timeline `tl` into s and its figures into `o`:
 * 1, or 0 when the timeline is not whole or too short to say. */
int	tl_estimate_of(const struct timeline *tl, struct slc_estimate *s,
	    json_object *o);
/* The write-cache estimate of the write job that just ended into `o`
 * (a checkpoint's clean or dirty pass); 0, or -1 when there is none. */
int	tl_estimate_job(struct drive *, json_object *o);

#endif
