/*
 * report_gp.h: the report's own graphs (SVG, by gnuplot): wear against
 * TB written, and a probe's figure per drive at a milestone.
 */
#ifndef SSDT_REPORT_GP_H
#define SSDT_REPORT_GP_H

#include <json-c/json.h>

/* Percent used against TB written from each model's snapshots, a curve
 * per drive (one drive: its available spare too). 0, or 1 after a
 * message on stderr (none of them has a wear reading). */
int	rp_wear(const char *out, json_object *models);
/* One bar per drive of a comparison's probe (report_compare). 0, or 1
 * after a message on stderr. */
int	rp_bars(const char *out, json_object *probe);

#endif
