/*
 * ckpt_line.h: the lines of checkpoints.jsonl (ckpt_line.c), for the
 * checkpoints (drive_ckpt.c) and the long tests (ckpt_long.c).
 */
#ifndef SSDT_CKPT_LINE_H
#define SSDT_CKPT_LINE_H

#include <stdint.h>

#include <json-c/json.h>

#include "drive_priv.h"

/* A SMART figure of the latest reading, x100 (temperature or percentage
 * used); CKPT_UNKNOWN when none. */
uint64_t	 ckpt_smart_x100(const struct drive *, int temperature);
/* The fields every line of a probe has: which checkpoint, which probe. */
json_object	*ckpt_line_identity(const struct drive *, const struct probe *);
/* The probe's workload, as fio would be told it. */
void		 ckpt_line_workload(json_object *, const struct drive *,
		    const struct probe *);
/* What the probe found bad, over the whole job. */
void		 ckpt_line_errors(json_object *, const struct probe_result *);
/* The probe's measuring windows: how many, the void ones and why. */
void		 ckpt_line_window(json_object *, const struct probe_result *);
/* The worker's result of probe p; -1 (logged) when it has none. */
int		 ckpt_result_take(struct drive *, const struct probe *,
		    const char *id, struct probe_result *);
/* The line of a probe's figures. */
json_object	*ckpt_line_measured(struct drive *, const struct probe *,
		    const char *id, const struct probe_result *);
/* A probe's result line (identity, workload, figures); NULL: none. */
json_object	*drive_ckpt_line(struct drive *, const struct probe *,
		    const char *id);
/* A direction's latency in microseconds (mean, percentiles, max); NULL
 * when it did no I/O. */
json_object	*drive_ckpt_lat(const struct lathist *);
/* Append a line to checkpoints.jsonl; consumes it. */
void		 drive_ckpt_append(struct drive *, json_object *);

#endif
