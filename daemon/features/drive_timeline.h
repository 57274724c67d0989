/*
 * drive_timeline.h: a drive's write timelines (drive_timeline.c, a
 * feature of the drive core's table), for the control socket.
 */
#ifndef SSDT_DRIVE_TIMELINE_H
#define SSDT_DRIVE_TIMELINE_H

#include <stdint.h>

#include <json-c/json.h>

struct drive;

/*
 * The kept timelines of the drive's write passes, for the Timelines
 * method: pass `pass` whole, or with pass < 0 every one's figures, from a
 * list kept in memory once read (the files are read once, not at every
 * call).
 */
void		 drive_timelines(struct drive *, int64_t pass, json_object *out);

#endif
