/*
 * drive_ckpt.h: a drive's performance checkpoints (drive_ckpt.c, a
 * feature of the drive core's table), for the control socket.
 */
#ifndef SSDT_DRIVE_CKPT_H
#define SSDT_DRIVE_CKPT_H

#include <json-c/json.h>

struct drive;

/* Performance checkpoints: the Status object. */
json_object	*drive_ckpt_status(const struct drive *);

#endif
