/*
 * report_tables.h: the tables of a report page, each from a drive's model
 * (report_model.c): what is not known reads "unknown", never 0.
 */
#ifndef SSDT_REPORT_TABLES_H
#define SSDT_REPORT_TABLES_H

#include <stdio.h>

#include <json-c/json.h>

void	rt_summary(FILE *, json_object *model);
/* Several drives: a row each. */
void	rt_summary_rows(FILE *, json_object *models);
void	rt_probes(FILE *, json_object *model);
void	rt_latency(FILE *, json_object *model);
void	rt_long(FILE *, json_object *model);
void	rt_snapshots(FILE *, json_object *model);
void	rt_events(FILE *, json_object *model);

#endif
