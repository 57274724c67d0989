/*
 * drive_power.c: a power loss, seen when the drive is taken up again, and
 * the verify it owes.
 *
 * The state names the boot the daemon last ran the drive in and whether
 * the daemon stopped it cleanly since. A drive that was running, paused
 * or stopped, not stopped cleanly, in another boot than this one, went
 * through a power loss (or a crash of the host: the drive may have lost
 * power as well). Its state records as written only what a completed
 * cache flush covered (engine.c), so the first job is a verify pass
 * against that state (drive_job.c): a block the flush covered that holds
 * an older generation or nothing is a lost_flush finding; a block written
 * after the last flush that holds the new generation is a write the
 * drive's volatile cache kept (unflushed_kept). The flushed position is
 * the one the last state save recorded, up to a second behind the
 * drive's last flush: the writes between count as kept too, so the
 * figure is an upper bound. An interrupted verify goes on from where it
 * stopped, so that nothing is counted twice.
 *
 * A feature of the drive's table: the core asks at the opening whether a
 * loss was seen, hands its verify job here to be set, and tells the loss
 * a power cut saw (drive_cut.c, through the core's power_lost).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "drive_features.h"

#define BOOT_ID_PATH	"/proc/sys/kernel/random/boot_id"

/* This boot's id; "" when it cannot be read (then no loss is seen). */
static void
boot_id_now(char *buf, size_t len)
{
	FILE	*fp;

	buf[0] = '\0';
	if ((fp = fopen(BOOT_ID_PATH, "re")) == NULL)
		return;
	if (fgets(buf, (int)len, fp) == NULL)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(fp);
}

/* Did the drive go through a power loss since the daemon last ran it? */
static int
power_was_lost(const struct dstate *st, const char *now)
{
	if (st->stopped_clean || st->boot_id[0] == '\0' || now[0] == '\0' ||
	    strcmp(st->boot_id, now) == 0)
		return 0;
	return st->run == RUN_RUNNING || st->run == RUN_PAUSED ||
	    st->run == RUN_STOPPED;
}

/*
 * A verify is owed (still owed: a loss during it); bounded: writes count
 * as kept only below the pass's item kept_end.
 */
static void
power_owe_verify(struct drive *d, int bounded, uint64_t kept_end)
{
	if (!d->st.power_verify) {
		d->st.kept_base = d->st.unflushed_kept;
		d->st.lost_base = d->st.errors[BLK_LOST_FLUSH];
		d->st.power_verify_pos = 0;
		d->st.kept_bounded = bounded;
		d->st.kept_end = kept_end;
	} else		/* two losses, one verify: no bound */
		d->st.kept_bounded = 0;
	d->st.power_verify = 1;
}

/* A cut saw the device go and come back (counted), or a start found one
 * under way (not known to be a loss: not counted). */
static void
drive_power_cut(struct drive *d, int counted, int bounded, uint64_t kept_end)
{
	power_owe_verify(d, bounded, kept_end);
	if (counted)
		d->st.power_losses++;
}

/* Record the loss; a verify is owed. */
static void
power_lost(struct drive *d, const char *now)
{
	json_object	*o = drive_ev_obj(d);

	power_owe_verify(d, 0, 0);
	d->st.power_losses++;
	json_object_object_add(o, "boot_id", json_object_new_string(now));
	json_object_object_add(o, "previous_boot_id",
	    json_object_new_string(d->st.boot_id));
	json_object_object_add(o, "losses",
	    json_object_new_uint64(d->st.power_losses));
	events_add(&d->log, LOG_WARNING, "power_loss", o, -1,
	    (long long)d->st.host_bytes_written, "the host restarted while "
	    "the drive ran, at %s item %" PRIu64 ": a verify pass first, "
	    "against what the drive was asked to flush",
	    phase_name(d->st.prog.phase), d->st.prog.position);
}

/* At activation, after the state is loaded: a loss seen owes a verify
 * (1 then). */
static int
drive_power_activate(struct drive *d, int owned)
{
	char	now[sizeof(d->st.boot_id)];
	int	lost;

	boot_id_now(now, sizeof(now));
	if ((lost = owned && power_was_lost(&d->st, now)))
		power_lost(d, now);
	snprintf(d->st.boot_id, sizeof(d->st.boot_id), "%s", now);
	d->st.stopped_clean = 0;
	return lost;
}

/* The daemon stopped the drive cleanly (no job left running). */
static void
drive_power_stopped(struct drive *d)
{
	d->st.stopped_clean = 1;
}

/* What lost_prune needs to know where the schedule stands. */
struct prune {
	const struct dstate	*st;
	struct perm		 perm;
};

/* Does a block of x still hold (expect) the generation it was lost with? */
static int
lost_live(const struct lost_ext *x, void *arg)
{
	const struct prune	*p = arg;
	struct blk_expect	 ex;
	uint64_t		 b;

	for (b = x->start; b < x->start + x->len; b++) {
		layout_expect(&p->st->lay, &p->st->prog, &p->perm, b, &ex);
		if (ex.has_gen && ex.gen_lo <= x->gen)
			return 1;
	}
	return 0;
}

/*
 * Drop the lost extents every block of which a pass wrote since (the
 * schedule expects a newer generation there, or none: a trim): a loss
 * of them now is a new one. Whatever is left, lost_has checks its
 * generation block by block.
 */
static void
lost_prune(struct dstate *st)
{
	struct prune	p;

	if (st->lost.n == 0)
		return;
	p.st = st;
	layout_pass_perm(&st->lay, st->instance, st->prog.cycle,
	    st->prog.pass_random, &p.perm);
	lost_filter(&st->lost, lost_live, &p);
}

/*
 * A finding of the verify after a loss: a lost flushed block is listed,
 * with the generation it held, so that a later loss does not count it
 * again while no pass has written it since.
 */
static void
drive_power_finding(struct drive *d, const struct finding *f)
{
	uint32_t	bs = d->st.lay.block_size;

	if (d->st.power_verify && f->cls == BLK_LOST_FLUSH && bs != 0)
		lost_add(&d->st.lost, f->offset / bs, f->nblocks,
		    f->expected_gen);
}

/* A verify job: the one owed after a loss? Then it says so, and goes on
 * from where a run of it stopped. */
static void
drive_power_begin(struct drive *d, struct job *j)
{
	d->power_resumed = 0;
	if (!d->st.power_verify)
		return;
	j->power_lost = 1;
	j->kept_bounded = d->st.kept_bounded;
	j->kept_end = d->st.kept_end;
	lost_prune(&d->st);
	j->lost = d->st.lost;
	if (d->st.power_verify_pos < j->count) {
		j->start = d->st.power_verify_pos;
		d->power_resumed = j->start != 0;
	}
}

/* The verify job's position, from the worker's counters. */
static void
drive_power_progress(struct drive *d, uint64_t position)
{
	if (d->st.power_verify && position > d->st.power_verify_pos)
		d->st.power_verify_pos = position;
}

/* The verify ended (done: to its last block): 1 when on_lost_flush
 * fails the drive, with why. */
static int
drive_power_end(struct drive *d, int done, char *why, size_t len)
{
	json_object	*o;
	uint64_t	 lost, kept;

	if (!d->st.power_verify || !done)
		return 0;
	lost = d->st.errors[BLK_LOST_FLUSH] - d->st.lost_base;
	kept = d->st.unflushed_kept - d->st.kept_base;
	d->st.power_verify = 0;
	d->st.power_verify_pos = 0;
	o = drive_ev_obj(d);
	json_object_object_add(o, "lost_flush", json_object_new_uint64(lost));
	json_object_object_add(o, "unflushed_kept",
	    json_object_new_uint64(kept));
	if (d->st.lost.unlisted != 0)	/* some may be counted before */
		json_object_object_add(o, "lost_unlisted",
		    json_object_new_uint64(d->st.lost.unlisted));
	events_add(&d->log, lost != 0 ? LOG_ERR : LOG_NOTICE,
	    "power_loss_verified", o, -1, (long long)d->st.host_bytes_written,
	    "verify after the power loss: %" PRIu64 " flushed block(s) lost, "
	    "%" PRIu64 " block(s) written past the recorded flushed position "
	    "kept%s", lost, kept, d->st.lost.unlisted != 0 && lost != 0 ?
	    " (an upper bound: blocks lost earlier were more than the list of "
	    "losses keeps, and one of those found again counts again)" : "");
	if (lost == 0 || d->conf.on_lost_flush != LOST_FLUSH_FAIL)
		return 0;
	snprintf(why, len, "%" PRIu64 " block(s) lost in a power loss after "
	    "a completed flush (on_lost_flush = fail)", lost);
	return 1;
}

/* A power loss, seen at activation or told by a cut, and its verify. */
const struct drive_feature drive_power_feature = {
	.name = "power losses",
	.power_check = drive_power_activate,
	.verify_job = drive_power_begin,
	.verify_progress = drive_power_progress,
	.verify_closed = drive_power_end,
	.power_lost = drive_power_cut,
	.found = drive_power_finding,
	.stopped = drive_power_stopped,
};
