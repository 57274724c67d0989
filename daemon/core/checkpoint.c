/*
 * checkpoint.c: a drive's checkpoint (its events, smart.jsonl and
 * checkpoints.jsonl synced,
 * then its state file replaced), in steps, so that the main loop's tick
 * syncs every drive's files at once (syncq.h) instead of one fsync after
 * the other. The order each drive's files reach the disk in is the same
 * as one drive alone: the state file is renamed into place only after
 * the logs it counts are synced (it never runs ahead of its events), and
 * the checkpoint counts only once its directory is synced too.
 *
 * The tick's checkpoint is a batch in flight while the loop goes on
 * (clients, workers): staged and its syncs sent; committed when they are
 * answered and the directories' syncs sent; finished when those are. A
 * log or error map under a sync in flight is not written to, synced or
 * closed before the batch has ended (events.c and errmap.c wait through
 * checkpoint_drain), and a drive's own checkpoint (a phase change, a
 * stop) or its end drains the batch first: what a sync covers and what
 * its answer says stay one thing.
 *
 * A phase change's checkpoint is asked for on the loop too
 * (drive_checkpoint_then): the drive's next job waits for it, the loop
 * does not. It goes in a batch of its own as soon as none is in flight
 * (or in the tick's, when that comes first); when its directory sync is
 * answered, the drive's `then` runs on the loop's next turn.
 *
 * The queue, the batch and the list of drives asked for belong to the
 * main thread, the only one that checkpoints.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>

#include "drive_features.h"
#include "drive_work.h"
#include "syncq.h"

enum batch_step { B_IDLE, B_LOGS, B_DIRS };

static struct {
	struct syncq	  q;
	int		  ready;
	enum batch_step	  step;
	struct drive	**dv;		/* the drives of the batch in flight */
	size_t		  n, cap;
	sd_event_source	 *src;		/* the queue's answers, watched */
	int		  advancing;	/* batch_advance is on the stack */
	struct drive	**asked;	/* drive_checkpoint_then's, each once */
	size_t		  nasked, capasked;
	sd_event_source	 *turn;		/* a turn of the loop for their then */
} batch;

static struct syncq *
ckpt_queue(void)
{
	if (!batch.ready) {
		syncq_init(&batch.q);
		events_set_sync_waiter(checkpoint_drain);
		errmap_set_sync_waiter(checkpoint_drain);
	}
	batch.ready = 1;
	return &batch.q;
}

/* A turn of the loop soon (on_turn): drives released, asks to send. */
static void
turn_kick(void)
{
	if (batch.turn != NULL)
		(void)sd_event_source_set_enabled(batch.turn,
		    SD_EVENT_ONESHOT);
}

/* Step 1: the logs written and the new state beside the old; their syncs
 * queued. */
static void
ckpt_stage(struct drive *d, struct syncq *q)
{
	struct drive_ckpt	*c = &d->ckpt;
	int			 spare_ok = c->spare_ok;
	struct ckpt_ask		 ask = c->ask;

	memset(c, 0, sizeof(*c));
	c->spare_ok = spare_ok;
	c->ask = ask;
	/* staged after the ask: it counts */
	c->ask.covers = ask.want || ask.retry;
	c->ask.want = c->ask.retry = 0;
	c->log_fd = c->smart_fd = c->map_fd = c->res_fd = -1;
	c->step = CKPT_STAGED;
	features_flush(d);
	if ((c->err = features_sync_begin(d, &c->map_fd)) == 0)
		c->map_begun = 1;
	if (d->smart.log.path != NULL &&
	    events_sync_begin(&d->smart.log, &c->smart_fd) == -1)
		c->err = errno;
	if (d->results.path != NULL &&
	    events_sync_begin(&d->results, &c->res_fd) == -1)
		c->err = errno;
	if (events_sync_begin(&d->log, &c->log_fd) == -1)
		c->err = errno;
	if (c->smart_fd >= 0)
		syncq_add(q, c->smart_fd, 1, &c->smart_res);
	if (c->res_fd >= 0)
		syncq_add(q, c->res_fd, 1, &c->res_res);
	if (c->log_fd >= 0)
		syncq_add(q, c->log_fd, 1, &c->log_res);
	if (c->map_fd >= 0)
		syncq_add(q, c->map_fd, 1, &c->map_res);
	if (c->err != 0)
		return;		/* no state ahead of its events */
	d->st.events_bytes = d->log.size;
	d->st.ckpt_results_bytes = d->results.size;
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
	int			 err;

	c->step = CKPT_COMMITTED;
	if (c->map_begun && (err = features_sync_end(d, c->map_res)) != 0)
		c->err = err;
	if (c->smart_fd >= 0 &&
	    events_sync_end(&d->smart.log, c->smart_res) == -1)
		c->err = errno;
	if (c->res_fd >= 0 &&
	    events_sync_end(&d->results, c->res_res) == -1)
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
	features_checkpointed(d, c->err, c->state_err);	/* the records' */
	if (c->ask.covers && c->ask.wait) {
		if (c->err == 0 && c->state_err == 0) {
			c->ask.wait = 0;
			c->ask.released = 1;
			turn_kick();
		} else	/* the state on disk is the old phase's: no I/O of
			 * the new one until it is saved (the tick retries;
			 * records.c pauses a drive that stays unrecorded) */
			c->ask.retry = 1;
	}
	c->ask.covers = 0;
}


/* One drive's checkpoint, here and now (the batch is idle). */
static void
ckpt_one(struct drive *d)
{
	struct syncq	*q = ckpt_queue();

	ckpt_stage(d, q);
	syncq_run(q);
	ckpt_commit(d, q);
	syncq_run(q);
	ckpt_finish(d);
}

/*
 * A running job moves the position every second; records behind are
 * retried every second; a log with lines not synced yet (its file is
 * open only then) is synced, so that between checkpoints nothing in the
 * state directory is held open for writing.
 */
static int
ckpt_due(const struct drive *d)
{
	return d->active && (d->ckpt.ask.want || d->ckpt.ask.retry ||
	    drive_job_active(d) || features_behind(d) || d->log.fd >= 0 ||
	    d->smart.log.fd >= 0 || d->results.fd >= 0);
}

/* Room for n drives in the batch; 0 when there is none. */
static int
batch_room(size_t n)
{
	struct drive	**dv;

	if (n <= batch.cap)
		return 1;
	if ((dv = realloc(batch.dv, n * sizeof(*dv))) == NULL)
		return 0;
	batch.dv = dv;
	batch.cap = n;
	return 1;
}

/* Send the syncs of the drives staged in the batch; 0 when it has none. */
static int
batch_start(struct syncq *q)
{
	if (batch.n == 0)
		return 0;
	batch.step = B_LOGS;
	syncq_start(q);
	return 1;
}

/*
 * Stage the due drives of dv and send their syncs; 0 when none was due.
 * Without room for them, they are checkpointed one after the other.
 */
static int
batch_send(struct drive **dv, size_t n)
{
	struct syncq	*q = ckpt_queue();
	size_t		 i;

	if (!batch_room(n)) {
		for (i = 0; i < n; i++)
			if (ckpt_due(dv[i]))
				ckpt_one(dv[i]);
		return 0;
	}
	batch.n = 0;
	for (i = 0; i < n; i++)
		if (ckpt_due(dv[i])) {
			batch.dv[batch.n++] = dv[i];
			ckpt_stage(dv[i], q);
		}
	return batch_start(q);
}

/* Off the list: what it was asked for is done (its then, if any, ran). */
static void
asked_drop(size_t i)
{
	batch.asked[i]->ckpt.ask.listed = 0;
	batch.asked[i] = batch.asked[--batch.nasked];
}

/*
 * Stage the drives asked for and send their syncs (the batch is idle);
 * 0 when none wanted one. One no longer active has nothing to save: it
 * goes on (its `then`) as it is.
 */
static int
asked_send(void)
{
	struct syncq	*q = ckpt_queue();
	struct ckpt_ask	*a;
	struct drive	*d;
	size_t		 i = 0;

	batch.n = 0;
	while (i < batch.nasked) {
		d = batch.asked[i];
		a = &d->ckpt.ask;
		if (a->want && !d->active) {
			a->want = 0;
			a->released = a->wait;
			a->wait = 0;
			turn_kick();
		} else if (a->want) {
			batch.dv[batch.n++] = d;	/* room: made when asked */
			ckpt_stage(d, q);
		}
		if (!a->want && !a->wait && !a->released)
			asked_drop(i);	/* a tick's ask, now staged */
		else
			i++;
	}
	return batch_start(q);
}

/* The batch's steps, as far as its syncs are answered (all, with `wait`);
 * when one has ended, the checkpoints asked for since go next (after a
 * drain, on the loop's next turn). */
static void
batch_advance(int wait)
{
	size_t	i;

	batch.advancing = 1;
	while (batch.step != B_IDLE && syncq_reap(&batch.q, wait)) {
		if (batch.step == B_LOGS) {
			for (i = 0; i < batch.n; i++)
				ckpt_commit(batch.dv[i], &batch.q);
			batch.step = B_DIRS;
			syncq_start(&batch.q);
			continue;
		}
		batch.step = B_IDLE;	/* a finish may checkpoint a drive */
		for (i = 0; i < batch.n; i++)
			if (batch.dv[i]->ckpt.step == CKPT_COMMITTED)
				ckpt_finish(batch.dv[i]);
		batch.n = 0;
		if (batch.step != B_IDLE)
			continue;
		if (wait)	/* a drain ends what was in flight, no more */
			turn_kick();
		else
			(void)asked_send();
	}
	batch.advancing = 0;
}

void
checkpoint_drain(void)
{
	if (!batch.advancing)	/* its own steps write nothing in flight */
		batch_advance(1);
}

static int
on_answers(sd_event_source *s, int fd, uint32_t revents, void *arg)
{
	(void)s;
	(void)fd;
	(void)revents;
	(void)arg;
	syncq_ack(&batch.q);	/* also the signals of syncs waited for */
	batch_advance(0);
	return 0;
}

/* The queue's answers on the loop; 0 when they cannot be watched. */
static int
batch_watch(sd_event *ev)
{
	int	fd = syncq_fd(ckpt_queue());

	if (batch.src != NULL)
		return 1;
	if (fd < 0 || sd_event_add_io(ev, &batch.src, fd, EPOLLIN,
	    on_answers, NULL) < 0) {
		batch.src = NULL;
		return 0;
	}
	(void)sd_event_source_set_description(batch.src, "checkpoints");
	return 1;
}

void
drive_checkpoint(struct drive *d)
{
	if (!d->active)
		return;
	checkpoint_drain();
	/* inside a batch being staged or finished (step set), that one saves
	 * the state */
	if (d->ckpt.step == CKPT_NONE)
		ckpt_one(d);
}

/*
 * The loop's turn after a drive was released or asked: each released
 * drive's `then` (which may ask again: it is listed anew), then the asks
 * sent when no batch is in flight.
 */
static int
on_turn(sd_event_source *s, void *arg)
{
	struct drive	*d;
	size_t		 i = 0;

	(void)s;
	(void)arg;
	while (i < batch.nasked) {
		d = batch.asked[i];
		if (!d->ckpt.ask.released) {
			i++;
			continue;
		}
		d->ckpt.ask.released = 0;
		if (!d->ckpt.ask.want && !d->ckpt.ask.wait)
			asked_drop(i);
		d->ckpt.ask.then(d);
	}
	/* a batch with nothing to sync, or synced here (the ring failed),
	 * signals no answer: taken now, not at the next tick */
	if (batch.step == B_IDLE && !batch.advancing && asked_send())
		batch_advance(0);
	return 0;
}

/* The list and the batch with room for d, the turn's source made; 0 when
 * they cannot be. */
static int
asked_room(struct drive *d)
{
	struct drive	**v;
	size_t		  cap = batch.capasked ? batch.capasked * 2 : 8;

	if (batch.turn == NULL && sd_event_add_defer(d->ev, &batch.turn,
	    on_turn, NULL) < 0) {
		batch.turn = NULL;
		return 0;
	}
	if (d->ckpt.ask.listed)
		return 1;
	if (batch.nasked == batch.capasked) {
		if ((v = realloc(batch.asked, cap * sizeof(*v))) == NULL)
			return 0;
		batch.asked = v;
		batch.capasked = cap;
	}
	return batch_room(batch.nasked + 1);
}

/* Listed (with room made by asked_room), wanting a checkpoint staged from
 * now on. */
static void
asked_add(struct drive *d)
{
	d->ckpt.ask.want = 1;
	if (!d->ckpt.ask.listed) {
		batch.asked[batch.nasked++] = d;
		d->ckpt.ask.listed = 1;
	}
}

void
drive_checkpoint_then(struct drive *d, void (*then)(struct drive *))
{
	if (!d->active)
		return;
	/* without the loop's answers or room: here and now, as before */
	if (!batch_watch(d->ev) || !asked_room(d)) {
		drive_checkpoint(d);
		return;
	}
	asked_add(d);
	d->ckpt.ask.covers = 0;	/* one in flight was staged before */
	d->ckpt.ask.wait = 1;
	d->ckpt.ask.then = then;
	turn_kick();	/* sent from there: a tick this turn may stage it */
}

void
checkpoint_forget(struct drive *d)
{
	size_t	i;

	if (d->ckpt.step != CKPT_NONE)
		checkpoint_drain();	/* a batch in flight holds its files */
	for (i = 0; i < batch.nasked; i++)
		if (batch.asked[i] == d) {
			asked_drop(i);
			break;
		}
	memset(&d->ckpt.ask, 0, sizeof(d->ckpt.ask));
}

void
drives_checkpoint_tick(struct drive **dv, size_t n)
{
	size_t	i;

	batch_advance(0);	/* what came in, should the watch have missed it */
	if (batch.step != B_IDLE) {
		/* behind a batch in flight: asked for, so that the next one
		 * carries them (asks coming one after the other would
		 * otherwise leave the tick none) */
		for (i = 0; i < n; i++)
			if (ckpt_due(dv[i]) && asked_room(dv[i]))
				asked_add(dv[i]);
		return;
	}
	/* without a watch, wait for it */
	if (batch_send(dv, n))
		batch_advance(!batch_watch(dv[0]->ev));
}

void
checkpoint_queue_free(void)
{
	checkpoint_drain();
	batch.src = sd_event_source_disable_unref(batch.src);
	batch.turn = sd_event_source_disable_unref(batch.turn);
	free(batch.asked);
	batch.asked = NULL;
	batch.nasked = batch.capasked = 0;
	if (batch.ready)
		syncq_free(&batch.q);
	batch.ready = 0;
	free(batch.dv);
	batch.dv = NULL;
	batch.n = batch.cap = 0;
}
