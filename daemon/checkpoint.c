/*
 * checkpoint.c: a drive's checkpoint (its events and smart.jsonl synced,
 * then its state file replaced), in steps, so that the main loop's tick
 * syncs every drive's files at once (syncq.h) instead of one fsync after
 * the other. The order each drive's files reach the disk in is the same
 * as one drive alone: the state file is renamed into place only after
 * the logs it counts are synced (it never runs ahead of its events), and
 * the checkpoint counts only once its directory is synced too.
 *
 * The queue belongs to the main thread, the only one that checkpoints.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drive_priv.h"
#include "syncq.h"

static struct syncq	queue;
static int		queue_ready;

static struct syncq *
ckpt_queue(void)
{
	if (!queue_ready)
		syncq_init(&queue);
	queue_ready = 1;
	return &queue;
}

void
checkpoint_queue_free(void)
{
	if (queue_ready)
		syncq_free(&queue);
	queue_ready = 0;
}

/* Step 1: the logs written and the new state beside the old; their syncs
 * queued. */
static void
ckpt_stage(struct drive *d, struct syncq *q)
{
	struct drive_ckpt	*c = &d->ckpt;
	int			 spare_ok = c->spare_ok;

	memset(c, 0, sizeof(*c));
	c->log_fd = c->smart_fd = c->map_fd = -1;
	c->step = CKPT_STAGED;
	findings_flush(d);
	if (drive_errors_checkpoint_begin(d, &c->map_fd) == -1)
		c->err = d->emap.err;
	else
		c->map_begun = 1;
	if (d->smart.log.path != NULL &&
	    events_sync_begin(&d->smart.log, &c->smart_fd) == -1)
		c->err = errno;
	if (events_sync_begin(&d->log, &c->log_fd) == -1)
		c->err = errno;
	if (c->smart_fd >= 0)
		syncq_add(q, c->smart_fd, 1, &c->smart_res);
	if (c->log_fd >= 0)
		syncq_add(q, c->log_fd, 1, &c->log_res);
	if (c->map_fd >= 0)
		syncq_add(q, c->map_fd, 1, &c->map_res);
	if (c->err != 0)
		return;		/* no state ahead of its events */
	d->st.events_bytes = d->log.size;
	d->st.updated = (uint64_t)time(NULL);
	if (state_stage(&c->state, d->state_path, &d->st, spare_ok) == -1) {
		c->state_err = errno;
		return;
	}
	c->staged = 1;
	syncq_add(q, c->state.fd, 0, &c->state.sync_res);
}

/* Step 2: the logs' syncs taken; the state renamed over the old one once
 * they are on disk, its directory's sync queued. */
static void
ckpt_commit(struct drive *d, struct syncq *q)
{
	struct drive_ckpt	*c = &d->ckpt;

	c->step = CKPT_COMMITTED;
	if (c->map_begun && drive_errors_checkpoint_end(d, c->map_res) == -1)
		c->err = d->emap.err;
	if (c->smart_fd >= 0 &&
	    events_sync_end(&d->smart.log, c->smart_res) == -1)
		c->err = errno;
	if (c->log_fd >= 0 && events_sync_end(&d->log, c->log_res) == -1)
		c->err = errno;
	if (!c->staged)
		return;
	if (c->err != 0) {
		statedir_abort(&c->state);
		c->staged = 0;
	} else if (statedir_commit(&c->state) == -1) {
		c->state_err = errno;
		statedir_abort(&c->state);
		c->staged = 0;
	} else
		syncq_add(q, c->state.dir_fd, 0, &c->state.dir_res);
}

/* Step 3: what the checkpoint came to. */
static void
ckpt_finish(struct drive *d)
{
	struct drive_ckpt	*c = &d->ckpt;

	c->step = CKPT_NONE;
	if (c->staged && statedir_finish(&c->state) == -1)
		c->state_err = errno;
	c->spare_ok = c->staged && c->state_err == 0;
	if (c->err != 0) {
		records_failed(d, c->err);
		return;
	}
	if (c->state_err != 0) {
		records_failed(d, c->state_err);
		if (!d->rec.save_warned)
			drive_log(d, LOG_WARNING, c->state_err,
			    "cannot save state %s (will retry)", d->state_path);
		d->rec.save_warned = 1;
		return;
	}
	if (d->rec.save_warned)
		drive_log(d, LOG_INFO, 0, "state saved again");
	d->rec.save_warned = 0;
	records_saved(d);
}

/* The drives with `due` set checkpointed together; the others left. */
static void
ckpt_many(struct drive **dv, size_t n, const unsigned char *due)
{
	struct syncq	*q = ckpt_queue();
	size_t		 i;

	for (i = 0; i < n; i++)
		if (due[i])
			ckpt_stage(dv[i], q);
	syncq_run(q);
	for (i = 0; i < n; i++)
		if (due[i])
			ckpt_commit(dv[i], q);
	syncq_run(q);
	for (i = 0; i < n; i++)
		if (due[i])
			ckpt_finish(dv[i]);
}

void
drive_checkpoint(struct drive *d)
{
	unsigned char	due = 1;

	/* inside a tick's checkpoint (step set), that one saves the state */
	if (d->active && d->ckpt.step == CKPT_NONE)
		ckpt_many(&d, 1, &due);
}

/* A running job moves the position every second; records behind are
 * retried every second. */
static int
ckpt_due(const struct drive *d)
{
	return d->active && (drive_job_active(d) || !records_current(d));
}

void
drives_checkpoint_tick(struct drive **dv, size_t n)
{
	unsigned char	*due = calloc(n > 0 ? n : 1, 1);
	size_t		 i;

	for (i = 0; i < n; i++)
		if (due != NULL)
			due[i] = ckpt_due(dv[i]);
		else if (ckpt_due(dv[i]))	/* one after the other, then */
			drive_checkpoint(dv[i]);
	if (due != NULL)
		ckpt_many(dv, n, due);
	for (i = 0; i < n; i++)
		if (dv[i]->active)
			records_tick(dv[i]);
	free(due);
}
