/*
 * report_model.h: a drive's records as a report's model (the content of
 * `ssdctl report --json`, from which the page is rendered).
 */
#ifndef SSDT_REPORT_MODEL_H
#define SSDT_REPORT_MODEL_H

#include <json-c/json.h>

#include "report.h"

/*
 * The model of one drive from its status (a DriveStatus object), its
 * events (oldest first), SMART snapshots and checkpoint results; any but
 * the status may be NULL (none). A new object.
 */
json_object	*report_model(json_object *status, json_object *events,
		    json_object *snaps, json_object *lines);

/* o[key], or NULL (o NULL, or no such key); a borrowed reference. */
json_object	*rj_get(json_object *o, const char *key);
/* The length of a, 0 for what is not an array. */
size_t		 rj_len(json_object *a);
/* Is v a number (not null, not a string)? */
int		 rj_is_num(json_object *v);

/* A probe's value (the "values" of its row, a bar's "value") for a write
 * pass whose cache showed no knee: no size to tell, the cache may be
 * larger than the pass. */
#define RJ_NO_KNEE	"no knee"
int		 rj_is_no_knee(json_object *v);
/* A number or RJ_NO_KNEE: a checkpoint the probe has a result at. */
int		 rj_is_figure(json_object *v);

/* "0", "latest" or a decimal size ("100TB"); -1 for anything else. */
int		 report_at_parse(const char *s, struct report_at *);

/*
 * The drives' models side by side: for every probe any of them ran, each
 * drive's headline figure at the milestone `at` (null where it has none)
 * and the checkpoint and TBW it is of. A new object.
 */
json_object	*report_compare(json_object *models, const struct report_at *);

#endif
