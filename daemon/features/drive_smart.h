/*
 * drive_smart.h: a drive's SMART (drive_smart.c, a feature of the drive
 * core's table), for the archive, the metrics and the control socket.
 */
#ifndef SSDT_DRIVE_SMART_H
#define SSDT_DRIVE_SMART_H

#include <json-c/json.h>

struct drive;
struct smart_summary;		/* smart.h */

/* SMART of the drive: its summary (known 0 before the first read) ... */
void		 drive_smart_summary(const struct drive *,
		    struct smart_summary *);
/* ... as the Status object, NULL before the first read. */
json_object	*drive_smart_status(const struct drive *);
/* Baseline, latest and their difference; -1 before the first read. */
int		 drive_smart_detail(const struct drive *, json_object *out);

#endif
