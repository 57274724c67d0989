/*
 * drive_core.c: the services of a drive's core that its features call
 * (checkpoints, power cuts, the opening of the target...), kept below
 * them: a feature that tells the manager of a change, or names the
 * drive's event log, calls this file, not the lifecycle's (drive.c).
 */
#include "drive_priv.h"

/* The drive changed (its run state, its status): the manager is told. */
void
drive_notify(struct drive *d)
{
	if (d->changed != NULL)
		d->changed(d, d->changed_arg);
}

void
drive_events_path(const struct drive *d, char *buf, size_t len)
{
	statedir_path(buf, len, d->dir, STATEDIR_EVENTS);
}
