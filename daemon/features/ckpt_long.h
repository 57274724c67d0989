/*
 * ckpt_long.h: the long tests of a full checkpoint (ckpt_long.c, part of
 * the checkpoints' feature), for drive_ckpt.c and the control socket.
 */
#ifndef SSDT_CKPT_LONG_H
#define SSDT_CKPT_LONG_H

#include <stdint.h>

#include <json-c/json.h>

struct drive;

/* A long step's job is handed out (its series begins). */
void		 ckpt_long_prepare(struct drive *, int step);
/* A tick's rates are in: the series of the running step. */
void		 ckpt_long_tick(struct drive *);
/* A long step's job is done (err: a TRIM the target cannot do): its
 * line, if it has one. */
void		 ckpt_long_done(struct drive *, int step, int err);
void		 ckpt_long_free(struct drive *);
/* The long tests' series of checkpoint `ckpt` (0: the latest), for the
 * Series method (series_read.h). */
void		 ckpt_long_series(struct drive *, uint64_t ckpt, json_object *out);

#endif
