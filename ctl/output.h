/* output.h: what ssdctl prints for a person (tables, human units). */
#ifndef SSDT_OUTPUT_H
#define SSDT_OUTPUT_H

#include <stdio.h>

#include <json-c/json.h>

/* Colour only on a terminal, and never with NO_COLOR set. */
void	output_init(FILE *);
/* The status table of several drives. */
void	output_status_table(FILE *, json_object *drives);
/* Everything about one drive. */
void	output_status_detail(FILE *, json_object *drive);
/* SMART of one drive: latest, baseline and the change. */
void	output_smart(FILE *, const char *drive, json_object *reply);
/* One event as one line. */
void	output_event(FILE *, json_object *event);
/*
 * The share of a rating written, `percent` of it: "83.3 %" below 1000 %,
 * beyond as the multiple ("1775042560 times"), whose digits a person can
 * read where a percentage of twelve digits is none; "?" for no number.
 */
const char *output_share(double percent, char *buf, size_t len);

#endif
