/*
 * drive_errors.h: the verify passes' records, a feature of the drive
 * (drive_features.h): bounded verify_error events, summaries, the error
 * map of each pass. What the control socket asks of them.
 */
#ifndef SSDT_DRIVE_ERRORS_H
#define SSDT_DRIVE_ERRORS_H

#include <stdint.h>

#include <json-c/json.h>

#include "drive_priv.h"

/*
 * The error map of verify pass `pass` (0: the latest) as the ErrorMap
 * method replies it, extents of one class closer than 1/resolution of the
 * span listed as one (0: every extent as it is), with `again` only the
 * blocks an earlier pass found bad too; -1 when there is no such pass or
 * its map cannot be read.
 */
int		 drive_errors_json(struct drive *, uint64_t pass,
		    uint32_t resolution, int again, json_object *out);

#endif
