/*
 * drive_work.h: whether a drive's worker has a job, read by the core and
 * its features alike (the moves between what it does are drive.c's
 * drive_work_to()).
 */
#ifndef SSDT_DRIVE_WORK_H
#define SSDT_DRIVE_WORK_H

#include "drive_priv.h"

/* A job is running, or stopping (hung or not). */
static inline int
drive_job_active(const struct drive *d)
{
	return d->work != WORK_NONE;
}
/* A job whose I/O is expected to complete: the stall watchdog's. */
static inline int
drive_job_watched(const struct drive *d)
{
	return d->work != WORK_NONE && d->work != WORK_HUNG;
}

#endif
