/*
 * test_checkpoint.c: a checkpoint asked for on the loop (checkpoint.c's
 * drive_checkpoint_then, a phase change's), with the syncs of the test's
 * own queue answered when the test says so, on a real sd_event loop.
 * The drive's `then` (its next job) runs only on a loop turn after a
 * checkpoint staged after the ask has had its logs' and its directory's
 * syncs answered; one staged before the ask (the tick's, in flight)
 * does not count; the loop never waits for a sync on the way (a drain
 * ends what is in flight, no more); the tick is not starved by asks one
 * after the other; one whose checkpoint failed waits for the next that
 * does not; a drive
 * forgotten is not called; without a watch of the answers, the
 * checkpoint is made at once, as before.
 * The features, logs, state file and queue here are the test's: the
 * same names, so that checkpoint.o links to them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <cmocka.h>

#include "drive_features.h"
#include "drive_priv.h"
#include "syncq.h"

/* The queue: syncs added, sent, answered on the test's word. */
static struct {
	int	 added, sent;	/* syncs since the last answer, of them sent */
	int	*res[64];
	int	 answer;	/* the test answered the ones sent */
	int	 may_wait;	/* a wait for them is allowed (not on the loop) */
	int	 no_watch;	/* syncq_fd: none */
	int	 waits;		/* syncq_reap(q, 1) and syncq_run calls */
	int	 efd;		/* the queue's, signalled by the test */
	int	 stage_fail;	/* state_stage calls to fail (ENOSPC) */
	int	 state_err;	/* the last features_checkpointed was told */
} fq;

static int	stages;		/* state_stage calls */
static int	stages_b;	/* of them, drive b's */
static int	thens;		/* then() calls */
static int	stage_at_then;	/* `stages` when then() ran */

void
syncq_init(struct syncq *q)
{
	memset(q, 0, sizeof(*q));
	q->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	fq.efd = q->efd;
}

void
syncq_free(struct syncq *q)
{
	if (q->efd >= 0)
		close(q->efd);
	q->efd = -1;
}

void
syncq_add(struct syncq *q, int fd, int datasync, int *res)
{
	(void)q;
	(void)fd;
	(void)datasync;
	assert_true(fq.added < 64);
	assert_int_equal(fq.sent, 0);	/* nothing added while in flight */
	fq.res[fq.added++] = res;
}

static void
answer_all(void)
{
	int	i;

	for (i = 0; i < fq.added; i++)
		*fq.res[i] = 0;
	fq.added = fq.sent = 0;
	fq.answer = 0;
}

void
syncq_run(struct syncq *q)
{
	(void)q;
	fq.waits++;
	answer_all();
}

void
syncq_start(struct syncq *q)
{
	(void)q;
	fq.sent = fq.added;
}

int
syncq_reap(struct syncq *q, int wait)
{
	(void)q;
	if (wait) {
		fq.waits++;
		assert_true(fq.may_wait);
		answer_all();
		return 1;
	}
	if (fq.sent > 0 && !fq.answer)
		return 0;
	answer_all();
	return 1;
}

int
syncq_fd(const struct syncq *q)
{
	return fq.no_watch ? -1 : q->efd;
}

void
syncq_ack(struct syncq *q)
{
	uint64_t	v;

	(void)!read(q->efd, &v, sizeof(v));
}

/* The logs, state file and features: nothing to write, a file to sync. */
int
events_sync_begin(struct eventlog *ev, int *fd)
{
	(void)ev;
	*fd = 7;
	return 0;
}

int
events_sync_end(struct eventlog *ev, int res)
{
	(void)ev;
	return res == 0 ? 0 : -1;
}

void
events_set_sync_waiter(void (*fn)(void))
{
	(void)fn;
}

void
errmap_set_sync_waiter(void (*fn)(void))
{
	(void)fn;
}

int
state_stage(struct staged *s, const char *path, const struct dstate *st,
    int spare)
{
	(void)st;
	(void)spare;
	stages++;
	stages_b += strcmp(path, "b") == 0;
	if (fq.stage_fail > 0) {
		fq.stage_fail--;
		errno = ENOSPC;
		return -1;
	}
	s->fd = 8;
	s->dir_fd = 9;
	return 0;
}

int
statedir_commit(struct staged *s)
{
	(void)s;
	return 0;
}

int
statedir_finish(struct staged *s)
{
	(void)s;
	return 0;
}

void
statedir_abort(struct staged *s)
{
	(void)s;
}

void
features_flush(struct drive *d)
{
	(void)d;
}

int
features_sync_begin(struct drive *d, int *fd)
{
	(void)d;
	*fd = -1;
	return 0;
}

int
features_sync_end(struct drive *d, int res)
{
	(void)d;
	return res;
}

void
features_checkpointed(struct drive *d, int err, int state_err)
{
	(void)d;
	assert_int_equal(err, 0);
	fq.state_err = state_err;
}

int
features_behind(const struct drive *d)
{
	(void)d;
	return 0;
}

static void
then(struct drive *d)
{
	assert_int_equal(d->ckpt.ask.wait, 0);
	thens++;
	stage_at_then = stages;
}

static sd_event	*ev;
static struct drive drive, drive_b;

static int
setup(void **state)
{
	(void)state;
	memset(&fq, 0, sizeof(fq));
	fq.efd = -1;
	memset(&drive, 0, sizeof(drive));
	memset(&drive_b, 0, sizeof(drive_b));
	stages = stages_b = thens = stage_at_then = 0;
	assert_int_equal(sd_event_new(&ev), 0);
	drive.ev = drive_b.ev = ev;
	drive.active = drive_b.active = 1;
	snprintf(drive.state_path, sizeof(drive.state_path), "a");
	snprintf(drive_b.state_path, sizeof(drive_b.state_path), "b");
	drive.work = drive_b.work = WORK_NONE;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	fq.may_wait = 1;	/* the end drains: not on the loop */
	checkpoint_queue_free();
	sd_event_unref(ev);
	return 0;
}

/* Every turn of the loop there is to run now. */
static void
turns(void)
{
	while (sd_event_run(ev, 0) > 0)
		;
}

/* The syncs in flight answered, as the ring would: its fd signalled. */
static void
signal_answers(void)
{
	uint64_t	one = 1;

	fq.answer = 1;
	assert_true(fq.efd >= 0);
	assert_int_equal(write(fq.efd, &one, sizeof(one)), sizeof(one));
}

static void
ask(void)
{
	drive_checkpoint_then(&drive, then);
}

static void
test_then_after_both_syncs(void **state)
{
	(void)state;
	ask();
	assert_int_equal(stages, 0);	/* sent on the loop's next turn */
	turns();
	assert_int_equal(stages, 1);
	assert_int_equal(drive.ckpt.ask.wait, 1);
	assert_true(fq.sent > 0);
	turns();
	assert_int_equal(thens, 0);	/* nothing answered */
	signal_answers();		/* the logs' and the state's */
	turns();
	assert_int_equal(thens, 0);	/* the directory's sync is out */
	assert_int_equal(drive.ckpt.ask.wait, 1);
	assert_true(fq.sent > 0);
	signal_answers();		/* the directory's */
	turns();
	assert_int_equal(thens, 1);
	assert_int_equal(stage_at_then, 1);
	assert_int_equal(drive.ckpt.ask.wait, 0);
	assert_int_equal(fq.waits, 0);	/* the loop never waited */
	turns();
	assert_int_equal(thens, 1);	/* once */
}

/* A tick's batch in flight when the phase changes: its state is the old
 * phase's, so the drive waits for one staged after. */
static void
test_tick_in_flight(void **state)
{
	struct drive	*dv[1] = { &drive };

	(void)state;
	drive.log.fd = 3;	/* lines to sync: due at the tick */
	drives_checkpoint_tick(dv, 1);
	assert_int_equal(stages, 1);
	ask();				/* while the tick's is out */
	turns();
	assert_int_equal(stages, 1);
	signal_answers();
	turns();
	signal_answers();		/* the tick's ends, the ask's staged */
	turns();
	assert_int_equal(thens, 0);
	assert_int_equal(stages, 2);
	signal_answers();
	turns();
	assert_int_equal(thens, 0);
	signal_answers();
	turns();
	assert_int_equal(thens, 1);
	assert_int_equal(stage_at_then, 2);
	assert_int_equal(fq.waits, 0);
}

/* Asked for in the turn of a tick: the tick's batch takes it along. */
static void
test_tick_same_turn(void **state)
{
	struct drive	*dv[2] = { &drive, &drive_b };

	(void)state;
	drive_b.log.fd = 3;
	ask();
	drives_checkpoint_tick(dv, 2);
	assert_int_equal(stages, 2);	/* both, in one batch */
	signal_answers();
	turns();
	signal_answers();
	turns();
	assert_int_equal(thens, 1);
	assert_int_equal(stages, 2);
}

/* Asked for twice before the first was answered: one then, after a state
 * staged after the second ask. */
static void
test_asked_again(void **state)
{
	(void)state;
	ask();
	turns();
	ask();
	turns();
	assert_int_equal(stages, 1);
	signal_answers();
	turns();
	signal_answers();
	turns();
	assert_int_equal(thens, 0);	/* the second ask wants its own */
	assert_int_equal(stages, 2);
	signal_answers();
	turns();
	signal_answers();
	turns();
	assert_int_equal(thens, 1);
	assert_int_equal(stage_at_then, 2);
}

/* Asks one after the other leave the tick no idle batch: the drives it
 * found due go in the next batch. */
static void
test_tick_not_starved(void **state)
{
	struct drive	*dv[2] = { &drive, &drive_b };

	(void)state;
	ask();
	turns();			/* a's batch in flight */
	drive_b.log.fd = 3;
	drives_checkpoint_tick(dv, 2);
	assert_int_equal(stages_b, 0);
	signal_answers();
	turns();
	signal_answers();		/* a's ends: b's goes */
	turns();
	assert_int_equal(thens, 1);
	assert_int_equal(stages_b, 1);
	signal_answers();
	turns();
	signal_answers();
	turns();
	assert_int_equal(stages_b, 1);
	assert_int_equal(fq.waits, 0);
}

/* A drain (a stop's checkpoint, a log closed) ends what is in flight and
 * no more: the ask waiting behind it goes on the loop, not waited for. */
static void
test_drain_sends_no_more(void **state)
{
	struct drive	*dv[1] = { &drive_b };

	(void)state;
	drive_b.log.fd = 3;
	drives_checkpoint_tick(dv, 1);	/* b's in flight */
	ask();
	fq.may_wait = 1;
	checkpoint_drain();
	assert_int_equal(fq.waits, 2);	/* b's two rounds */
	assert_int_equal(stages, 1);	/* a's not staged inside the drain */
	fq.may_wait = 0;
	turns();
	assert_int_equal(stages, 2);
	signal_answers();
	turns();
	signal_answers();
	turns();
	assert_int_equal(thens, 1);
	assert_int_equal(fq.waits, 2);
}

/* Its checkpoint not saved (the state disk full): the drive waits on,
 * its state is saved again at the tick, then it goes on. */
static void
test_failed_retried(void **state)
{
	struct drive	*dv[1] = { &drive };

	(void)state;
	fq.stage_fail = 1;
	ask();
	turns();
	signal_answers();		/* the logs': no state to rename */
	turns();
	assert_int_equal(fq.state_err, ENOSPC);
	assert_int_equal(thens, 0);
	assert_int_equal(drive.ckpt.ask.wait, 1);
	assert_int_equal(stages, 1);	/* not again before the tick */
	drives_checkpoint_tick(dv, 1);
	assert_int_equal(stages, 2);
	signal_answers();
	turns();
	signal_answers();
	turns();
	assert_int_equal(fq.state_err, 0);
	assert_int_equal(thens, 1);
	assert_int_equal(stage_at_then, 2);
}

/* A drive going away while it waits: never called. */
static void
test_forgotten(void **state)
{
	(void)state;
	ask();
	turns();
	fq.may_wait = 1;		/* its end drains the batch */
	checkpoint_forget(&drive);
	assert_int_equal(drive.ckpt.ask.wait, 0);
	turns();
	assert_int_equal(thens, 0);
}

/* A synchronous checkpoint meanwhile covers the ask. */
static void
test_sync_covers(void **state)
{
	(void)state;
	ask();
	fq.may_wait = 1;
	drive_checkpoint(&drive);	/* a stop's, say */
	assert_int_equal(drive.ckpt.ask.wait, 0);
	turns();
	assert_int_equal(thens, 1);
	assert_int_equal(stages, 1);
}

/* No watch of the answers: made at once, nothing waits. */
static void
test_no_watch(void **state)
{
	(void)state;
	fq.no_watch = 1;
	ask();
	assert_int_equal(stages, 1);
	assert_int_equal(drive.ckpt.ask.wait, 0);
	assert_int_equal(fq.waits, 2);	/* logs, then directory */
	turns();
	assert_int_equal(thens, 0);	/* the caller goes on itself */
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup, teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_then_after_both_syncs),
		T(test_tick_in_flight),
		T(test_tick_same_turn),
		T(test_asked_again),
		T(test_tick_not_starved),
		T(test_drain_sends_no_more),
		T(test_failed_retried),
		T(test_forgotten),
		T(test_sync_covers),
		T(test_no_watch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
