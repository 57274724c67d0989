/*
 * engine.c: the per-drive I/O worker thread.
 *
 * One io_uring per drive, owned by its worker thread (created there, so
 * the ring can be single-issuer). Buffers are registered once (a probe
 * job, engine_probe.c, puts its own in their place for its length); a
 * job writes or reads `count` items with up to queue_depth in flight.
 * Completions arrive out of order; results are committed in item order
 * through a window ring, so the published position is a low-water mark:
 * every item below it is done, and the findings and counters published
 * with it describe exactly those items. A checkpoint taken from one
 * snapshot is therefore consistent, and a resume from it neither loses
 * nor repeats a finding.
 *
 * The ring's primitives, the publication to the main thread and the
 * cache flushes (the durable mark) are engine_ring.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include "clock.h"
#include "engine.h"
#include "engine_priv.h"
#include "log.h"
#include "reserve.h"

/* Advance the low-water mark over items that are done. */
static void
advance(struct engine *e)
{
	struct witem	*w;

	for (;;) {
		w = &e->win[e->loc.position % e->wsize];
		if (!w->done)
			break;
		if (w->has_finding)
			engine_commit_finding(e, &w->f);
		w->done = w->has_finding = 0;
		e->loc.position++;
	}
}

/* Byte offset of item `seq` of the current job. */
static uint64_t
item_offset(const struct engine *e, uint64_t seq)
{
	const struct job *j = &e->job;
	uint64_t	 blk = j->base + (j->kind == JOB_WRITE ?
	    perm_fwd(&j->perm, seq) : seq);

	return blk * (uint64_t)e->bs;
}

/* A read or write of the job's kind, from a registered buffer if we have them. */
static void
prep_rw(struct engine *e, struct io_uring_sqe *sqe, uint32_t idx,
    unsigned char *buf, unsigned len, uint64_t off)
{
	int	wr = e->job.kind == JOB_WRITE;

	if (e->fixed_bufs && wr)
		io_uring_prep_write_fixed(sqe, 0, buf, len, off, (int)idx);
	else if (e->fixed_bufs)
		io_uring_prep_read_fixed(sqe, 0, buf, len, off, (int)idx);
	else if (wr)
		io_uring_prep_write(sqe, 0, buf, len, off);
	else
		io_uring_prep_read(sqe, 0, buf, len, off);
}

/* Queue the (rest of the) transfer of a slot. */
static int
slot_queue(struct engine *e, uint32_t idx)
{
	struct slot		*s = &e->slots[idx];
	struct io_uring_sqe	*sqe;
	unsigned char		*buf = e->bufs + (size_t)idx * e->bs + s->done;

	if ((sqe = engine_ring_sqe(e)) == NULL)
		return -1;
	prep_rw(e, sqe, idx, buf, e->bs - s->done, s->off + s->done);
	sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, idx);
	return 0;
}

/* Take a free slot for item `seq` (filled and queued by slots_start). */
static void
slot_take(struct engine *e, uint64_t seq)
{
	uint32_t	 idx = e->freelist[--e->nfree];
	struct slot	*s = &e->slots[idx];

	s->seq = seq;
	s->off = item_offset(e, seq);
	s->done = 0;
	s->busy = 1;
	e->taken[e->ntaken++] = idx;
}

/* Fill the blocks of the taken slots, several at a time (see blk_encode_many). */
static void
slots_encode(struct engine *e)
{
	enum { CHUNK = 16 };
	void		*bufs[CHUNK];
	uint64_t	 offs[CHUNK];
	uint32_t	 i, k, n;

	for (i = 0; i < e->ntaken; i += n) {
		n = e->ntaken - i < CHUNK ? e->ntaken - i : CHUNK;
		for (k = 0; k < n; k++) {
			bufs[k] = e->bufs + (size_t)e->taken[i + k] * e->bs;
			offs[k] = e->slots[e->taken[i + k]].off;
		}
		blk_encode_many(bufs, offs, n, e->bs, e->job.expect.instance,
		    e->job.generation, e->wall);
	}
}

/*
 * Fill (writes) and queue the taken slots. Those that cannot be queued
 * go back to the free list; the first item not queued, or UINT64_MAX.
 */
static uint64_t
slots_start(struct engine *e)
{
	uint32_t	k, idx;
	uint64_t	first = UINT64_MAX;

	if (e->job.kind == JOB_WRITE && e->ntaken > 0) {
		e->wall = clock_ns(CLOCK_REALTIME);
		slots_encode(e);
	}
	for (k = 0; k < e->ntaken; k++) {
		idx = e->taken[k];
		if (first == UINT64_MAX && slot_queue(e, idx) == 0) {
			e->fresh[e->nfresh++] = idx;
			continue;
		}
		if (first == UINT64_MAX)
			first = e->slots[idx].seq;
		e->slots[idx].busy = 0;
		e->freelist[e->nfree++] = idx;
	}
	e->ntaken = 0;
	return first;
}

/*
 * A power-lost verify found block ok: was it written after the last
 * flush (its expectation allows the old content too), by the pass that
 * was cut (below kept_end, when the job has one: an earlier attempt at
 * the pass may have written further), and is it that write, whole?
 * Then the drive kept an unflushed write.
 */
static void
count_kept(struct engine *e, const struct blk_expect *ex,
    const struct blk_result *r, uint64_t off)
{
	const struct job	*j = &e->job;
	uint64_t		 blk = off / e->bs, seq;

	if ((j->expect.phase != PHASE_WRITE && j->expect.phase != PHASE_STATIC) ||
	    !ex->has_gen || (!ex->allow_unwritten && ex->gen_lo == ex->gen_hi))
		return;
	if (!r->hdr_valid || r->found_instance != j->expect.instance ||
	    r->found_offset != off || r->found_gen != ex->gen_hi)
		return;
	if (j->kept_bounded) {
		seq = blk < j->lay.static_blocks ? blk :
		    perm_inv(&e->vperm, blk - j->lay.static_blocks);
		if (seq >= j->kept_end)
			return;
	}
	e->loc.unflushed_kept++;
}

/* The item of block blk in the pass that wrote generation gen, as the
 * verify's expectation knows it: the static pass, or this cycle's. */
static int
pass_item(const struct engine *e, uint64_t blk, uint64_t gen, uint64_t *item)
{
	const struct job	*j = &e->job;

	if (blk < j->lay.static_blocks)
		*item = blk;
	else if (gen == j->expect.cycle)
		*item = perm_inv(&e->vperm, blk - j->lay.static_blocks);
	else
		return -1;	/* an earlier pass's: not this pass's write */
	return 0;
}

/*
 * A power-lost verify's finding: older than a flushed write, or blank
 * where one was, is the drive's broken promise. Where the expectation
 * allows two generations (the pass had not flushed there), the older one
 * was flushed by the pass before: found older still, or blank, it is
 * lost too. Not a new loss: a block an earlier loss's verify found lost
 * holding that generation, which no pass wrote since (j->lost); it is
 * still bad, and reported as what it holds.
 */
static enum blk_class
power_lost_class(const struct engine *e, const struct blk_expect *ex,
    const struct blk_result *r, uint64_t blk)
{
	if (!ex->has_gen || ex->allow_unwritten)
		return r->cls;
	if (r->cls != BLK_UNWRITTEN &&
	    !(r->cls == BLK_STALE && r->found_gen < ex->gen_lo))
		return r->cls;
	if (lost_has(&e->job.lost, blk, ex->gen_lo))
		return r->cls;		/* counted when it was found lost */
	return BLK_LOST_FLUSH;
}

/*
 * The generation a finding expects. In a power-lost verify, where two
 * are allowed: the older one, the last flushed there, for a block lost
 * (now or at an earlier loss) and for one the cut pass had not come to
 * (at or past kept_end); the newer one otherwise.
 */
static uint64_t
expected_gen(const struct engine *e, const struct blk_expect *ex,
    const struct blk_result *r, uint64_t blk)
{
	const struct job	*j = &e->job;
	uint64_t		 item;

	if (!ex->has_gen)
		return 0;
	if (!j->power_lost || ex->gen_lo == ex->gen_hi)
		return ex->gen_hi;
	if (r->cls == BLK_LOST_FLUSH || lost_has(&j->lost, blk, ex->gen_lo))
		return ex->gen_lo;
	if (j->kept_bounded && pass_item(e, blk, ex->gen_hi, &item) == 0 &&
	    item >= j->kept_end)
		return ex->gen_lo;
	return ex->gen_hi;
}

void
engine_set_tear_unit(struct engine *e, uint32_t unit)
{
	e->tear_unit = unit;	/* the job handed over later publishes it */
}

/* Classify a block that was read completely. */
static void
verify_block(struct engine *e, struct slot *s, struct witem *w,
    const unsigned char *buf)
{
	struct blk_expect	 ex;
	struct blk_result	 r;
	uint64_t		 blk = s->off / e->bs;

	layout_expect(&e->job.lay, &e->job.expect, &e->vperm, blk, &ex);
	/* a block the window allows old or new in may hold a cut write */
	ex.tear_unit = e->tear_unit ? e->tear_unit : BLK_MIN_SIZE;
	e->loc.blocks_checked++;
	/* a checkpoint's units first: cheaper than what a failed check does */
	if (ex.probe_unit != 0 && blk_check_units(buf, e->bs,
	    e->job.expect.instance, s->off, &ex))
		return;
	if (blk_check(buf, e->bs, e->job.expect.instance, s->off, &ex, &r) ==
	    BLK_OK) {
		if (e->job.power_lost)
			count_kept(e, &ex, &r, s->off);
		return;
	}
	if (e->job.power_lost)
		r.cls = power_lost_class(e, &ex, &r, blk);
	w->has_finding = 1;
	memset(&w->f, 0, sizeof(w->f));
	w->f.cls = r.cls;
	w->f.offset = s->off;
	w->f.nblocks = 1;
	w->f.unit = e->bs;
	w->f.expected_gen = expected_gen(e, &ex, &r, blk);
	w->f.expected_unwritten = !ex.has_gen;
	w->f.res = r;
}

/* Record an I/O error for the item of a slot. */
static void
io_failed(struct engine *e, struct slot *s, struct witem *w, int err)
{
	if (err == RESERVE_CONFLICT_ERRNO) {	/* another host's, not the drive's */
		e->fail_err = err;
		return;
	}
	w->has_finding = 1;
	memset(&w->f, 0, sizeof(w->f));
	w->f.cls = BLK_IO_ERROR;
	w->f.offset = s->off;
	w->f.nblocks = 1;
	w->f.unit = e->bs;
	w->f.err = err;
	if (e->job.kind == JOB_WRITE)
		w->f.expected_gen = e->job.generation;
	else {
		struct blk_expect ex;

		layout_expect(&e->job.lay, &e->job.expect, &e->vperm,
		    s->off / e->bs, &ex);
		w->f.expected_gen = ex.has_gen ? ex.gen_hi : 0;
		w->f.expected_unwritten = !ex.has_gen;
	}
	w->f.res.cls = BLK_IO_ERROR;
	w->f.res.first_bad_byte = -1;
	/* a write refused as read-only is the drive's end of life (its spare
	 * is gone), not a block's error: writing on would only fail again
	 * and leave every block holding its older generation */
	if (err == ENODEV || err == ENXIO || !e->job.continue_on_error ||
	    (err == EROFS && e->job.kind == JOB_WRITE))
		e->fail_err = err;
}

/* Account a finished transfer of a slot. */
static void
slot_finish(struct engine *e, struct slot *s, uint32_t idx)
{
	struct witem	*w = &e->win[s->seq % e->wsize];
	int		 wr = e->job.kind == JOB_WRITE;

	lathist_record(&e->loc.lat[wr ? LAT_WRITE : LAT_READ],
	    e->t_reap - s->t_submit);
	if (wr) {
		e->loc.bytes_written += e->bs;
		atomic_fetch_add_explicit(&e->written_live, e->bs,
		    memory_order_relaxed);
		e->loc.write_ops++;
	} else {
		e->loc.bytes_read += e->bs;
		e->loc.read_ops++;
		verify_block(e, s, w, e->bufs + (size_t)idx * e->bs);
	}
	w->done = 1;
}

/* Handle one completion: retry, continue a short transfer, or finish. */
static void
complete(struct engine *e, uint32_t idx, int res)
{
	struct slot	*s = &e->slots[idx];

	if (res == -EINTR || res == -EAGAIN) {
		if (slot_queue(e, idx) == 0)
			return;
		res = -EIO;
	}
	if (res > 0 && s->done + (uint32_t)res < e->bs) {
		s->done += (uint32_t)res;	/* short transfer: go on */
		if (slot_queue(e, idx) == 0)
			return;
		res = -EIO;
	}
	if (res <= 0) {
		io_failed(e, s, &e->win[s->seq % e->wsize],
		    res == 0 ? ENODATA : -res);
		e->win[s->seq % e->wsize].done = 1;
	} else
		slot_finish(e, s, idx);
	s->busy = 0;
	e->freelist[e->nfree++] = idx;
	e->finished++;
}

/* Should the job stop submitting new items? */
static int
job_halted(struct engine *e, uint64_t submitted_bytes, enum job_end *end)
{
	if (e->fail_err != 0) {
		*end = JOB_FAILED;
		return 1;
	}
	if (atomic_load_explicit(&e->stop_req, memory_order_relaxed)) {
		*end = JOB_STOPPED;
		return 1;
	}
	if (e->job.kind == JOB_WRITE && e->job.write_budget != 0 &&
	    submitted_bytes >= e->job.write_budget) {
		*end = JOB_BUDGET;
		return 1;
	}
	return 0;
}

/* Start items while the queue depth and the window allow. */
static int
fill_queue(struct engine *e, uint64_t *next, uint64_t *sub_bytes,
    enum job_end *end)
{
	const struct job *j = &e->job;
	uint32_t	 qd = j->queue_depth < e->maxqd ? j->queue_depth : e->maxqd;
	uint64_t	 unqueued, end_item = j->count;
	int		 halted = 0;

	if (j->kind == JOB_WRITE && j->stop_at != 0) {
		if (*next >= j->stop_at) {	/* a power cut: unflushed */
			atomic_store(&e->no_final_flush, 1);
			*end = JOB_STOPPED;
			return 1;
		}
		if (j->stop_at < end_item)
			end_item = j->stop_at;
	}
	while (*next < end_item && e->maxqd - e->nfree < qd &&
	    *next < e->loc.position + e->wsize) {
		slot_take(e, *next);
		(*next)++;
		*sub_bytes += e->bs;
		if ((halted = job_halted(e, *sub_bytes, end)))
			break;
	}
	if ((unqueued = slots_start(e)) != UINT64_MAX) {
		/* no room in the ring: those items wait for the next round,
		 * which tells again whether the job is to halt */
		*sub_bytes -= (*next - unqueued) * e->bs;
		*next = unqueued;
		*end = JOB_DONE;
		halted = 0;
	}
	return halted;
}

/* How many of `inflight` I/Os the next round waits for (see BATCH_DIV). */
static unsigned
engine_batch_wait(const struct engine *e, unsigned inflight)
{
	if (e->t_reap - e->t_wait >= BATCH_FAST_NS ||
	    inflight < 2 * BATCH_DIV)
		return 1;
	return inflight / BATCH_DIV;
}

/* The submission/completion loop of a write or verify job. */
static enum job_end
run_io(struct engine *e)
{
	const struct job *j = &e->job;
	uint64_t	 next = j->start, sub_bytes = 0, t;
	enum job_end	 end = JOB_DONE;
	unsigned	 tries = 0;
	int		 halted = 0, rc, cut;

	while (1) {
		halted = halted || job_halted(e, sub_bytes, &end);
		if (!halted)
			halted = fill_queue(e, &next, &sub_bytes, &end);
		if (e->nfree == e->maxqd && !e->flush_busy) {
			if (halted || next >= j->count)
				break;	/* nothing in flight and nothing left */
			if (engine_ring_backoff(e, &tries) == -1)
				break;
			continue;
		}
		tries = 0;
		rc = engine_ring_submit(e, engine_batch_wait(e,
		    e->maxqd - e->nfree + (e->flush_busy != 0)));
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
			log_drive(LOG_WARNING, e->name, e->serial, 0,
			    "io_uring_submit: %s",
			    strerror(-rc));
			e->fail_err = -rc;
		}
		engine_reap(e, complete);
		advance(e);
		t = e->t_reap;
		/* the bytes the drive took by now, whatever their order: a
		 * deep queue's writes complete out of order, and a write held
		 * back would hold the in-order position while the drive went
		 * on with the rest, its pace read as a stall and a jump */
		if (j->kind == JOB_WRITE)
			tl_note(&e->tl, (j->start + e->finished) * e->bs, t);
		if (engine_flush_due(e, t))
			engine_flush_start(e);
		if (t - e->last_publish > PUBLISH_NS)
			engine_publish(e);
	}
	/* a power cut's stop leaves the writes since the last flush
	 * unflushed; a job that ended on its own first is flushed as ever,
	 * even when a cut is asked for (engine_cut_job) while it ends:
	 * decided once, here */
	cut = end == JOB_STOPPED && atomic_load(&e->no_final_flush);
	if (!cut)
		engine_flush_all(e);
	if (e->fail_err != 0 && (end == JOB_DONE || end == JOB_BUDGET || cut))
		end = JOB_FAILED;
	return end;
}

/*
 * Discard one range: BLKDISCARD on a device, a punched hole in a file.
 * The call is in flight while it runs, for the stall rule.
 */
static int
discard_range(struct engine *e, uint64_t off, uint64_t len)
{
	uint64_t	range[2] = { off, len };
	int		rc, saved;

	atomic_store(&e->progress_ns, clock_ns(CLOCK_MONOTONIC));
	atomic_fetch_add(&e->submitted, 1);
	if (e->is_blockdev)
		rc = ioctl(e->fd, BLKDISCARD, range);
	else
		rc = fallocate(e->fd, FALLOC_FL_PUNCH_HOLE |
		    FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len);
	saved = errno;
	atomic_fetch_add(&e->reaped, 1);
	atomic_store(&e->progress_ns, clock_ns(CLOCK_MONOTONIC));
	errno = saved;
	return rc;
}

/* The trim job: chunk by chunk, synchronously. */
static enum job_end
run_trim(struct engine *e)
{
	const struct job *j = &e->job;
	uint64_t	 area = (j->lay.nblocks - j->base) * e->bs;
	uint64_t	 seq, off, len;

	for (seq = j->start; seq < j->count; seq++) {
		if (atomic_load_explicit(&e->stop_req, memory_order_relaxed))
			return JOB_STOPPED;
		off = seq * j->trim_chunk;
		len = area - off < j->trim_chunk ? area - off : j->trim_chunk;
		if (discard_range(e, j->base * e->bs + off, len) == -1) {
			e->fail_err = errno;	/* before engine_publish() can change it */
			engine_publish(e);
			return e->fail_err == EOPNOTSUPP ? JOB_DONE : JOB_FAILED;
		}
		e->loc.bytes_trimmed += len;
		e->loc.position = seq + 1;
		engine_publish(e);
	}
	return JOB_DONE;
}

/*
 * The idle job: nothing sent for duration_ns (what the drive's garbage
 * collection gets), awake every IDLE_POLL_NS for a stop.
 */
#define IDLE_POLL_NS	50000000ULL

static enum job_end
run_idle(struct engine *e)
{
	uint64_t	end = mono_ns() + e->job.pj.duration_ns;

	return mono_sleep_until(end, IDLE_POLL_NS, &e->stop_req) < 0 ?
	    JOB_STOPPED : JOB_DONE;
}

/*
 * The purge job: the drive erases itself (purge.c); its progress is
 * asked for every PURGE_POLL_NS. A pause or stop leaves a sanitize
 * running in the drive: the job given again after a pause waits for it
 * (purge_start); Format NVM cannot be stopped.
 */
#define PURGE_POLL_NS	1000000000ULL

static enum job_end
purge_failed(struct engine *e, int err)
{
	e->fail_err = err;
	engine_publish(e);
	return JOB_FAILED;
}

static enum job_end
run_purge(struct engine *e)
{
	uint32_t	done = 0;
	int		rc;

	if ((rc = purge_start(e->fd, &e->job.purge)) != 0)
		return purge_failed(e, rc);
	while ((rc = purge_poll(e->fd, &e->job.purge, &done)) == 0) {
		e->loc.position = e->loc.durable = done;
		engine_publish(e);
		if (mono_sleep_until(mono_ns() + PURGE_POLL_NS, IDLE_POLL_NS,
		    &e->stop_req) < 0)
			return JOB_STOPPED;
	}
	if (rc < 0)
		return purge_failed(e, -rc);
	e->loc.position = e->loc.durable = PURGE_STEPS;
	engine_publish(e);
	return JOB_DONE;
}

/* Run one job from its start item; publishes the final snapshot. */
static void
run_job(struct engine *e)
{
	enum job_end	end;

	e->fail_err = 0;
	e->loc.position = e->loc.durable = e->job.start;
	e->finished = 0;
	e->loc.flush_err = 0;
	e->flush_busy = 0;
	e->flush_again = 0;
	e->flush_t0 = clock_ns(CLOCK_MONOTONIC);
	e->loc.running = 1;
	memset(e->win, 0, e->wsize * sizeof(*e->win));
	if (e->job.kind == JOB_VERIFY)
		layout_pass_perm(&e->job.lay, e->job.expect.instance,
		    e->job.expect.cycle, e->job.expect.pass_random, &e->vperm);
	if (e->job.kind == JOB_WRITE)
		tl_begin(&e->tl, e->job.count * e->bs, e->bs,
		    e->job.start * e->bs, e->flush_t0);
	engine_publish(e);
	switch (e->job.kind) {
	case JOB_TRIM:
		end = run_trim(e);
		break;
	case JOB_PROBE_IDLE:
		end = run_idle(e);
		break;
	case JOB_PURGE:
		end = run_purge(e);
		break;
	case JOB_PROBE_FILL:
	case JOB_PROBE_RUN:
	case JOB_PROBE_CHECK:
		end = engine_run_probe(e);
		break;
	default:
		end = run_io(e);
	}
	e->loc.running = 0;
	engine_publish(e);
	pthread_mutex_lock(&e->mu);
	e->job_running = 0;
	e->job_ended = 1;
	e->end = end;
	e->end_err = e->fail_err;
	if (e->job.kind == JOB_WRITE) {
		e->tl_pub = e->tl;
		e->tl_ready = 1;
	}
	pthread_mutex_unlock(&e->mu);
	engine_notify_main(e);
}

/* Set up the ring and buffers in the worker's own context. */
static int
worker_init(struct engine *e)
{
	struct io_uring_params	 p;
	/* room for a probe's I/Os in flight too, whatever queue_depth says */
	unsigned		 n = e->maxqd > engine_probe_inflight_max() ?
				    e->maxqd : engine_probe_inflight_max();
	int			 rc;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN |
	    IORING_SETUP_TASKRUN_FLAG;	/* engine_ring_poll() sees task work */
	if ((rc = io_uring_queue_init_params(n, &e->ring, &p)) < 0) {
		memset(&p, 0, sizeof(p));
		if ((rc = io_uring_queue_init_params(n, &e->ring, &p)) < 0)
			return -rc;
	}
	if ((rc = io_uring_register_files(&e->ring, &e->fd, 1)) < 0) {
		io_uring_queue_exit(&e->ring);
		return -rc;
	}
	engine_register_bufs(e);
	return 0;
}

int
engine_nice_step(int delta, int *from)
{
	int	n;

	errno = 0;	/* -1 is a nice value too */
	n = getpriority(PRIO_PROCESS, (id_t)gettid());
	if (from != NULL)
		*from = n;
	if (n == -1 && errno != 0)
		return -1;
	return setpriority(PRIO_PROCESS, (id_t)gettid(), n + delta);
}

static void *
worker_main(void *arg)
{
	struct engine	*e = arg;
	int		 err;

	/* engine.h says why; the ring's kernel workers inherit the nice */
	(void)engine_nice_step(ENGINE_WORKER_NICE, NULL);
	err = worker_init(e);

	pthread_mutex_lock(&e->mu);
	e->init_done = 1;
	e->init_err = err;
	pthread_cond_broadcast(&e->cv);
	while (err == 0) {
		while (!e->quit && !e->have_job)
			pthread_cond_wait(&e->cv, &e->mu);
		if (e->quit)
			break;
		e->have_job = 0;
		e->job_running = 1;
		pthread_mutex_unlock(&e->mu);
		run_job(e);
		pthread_mutex_lock(&e->mu);
	}
	pthread_mutex_unlock(&e->mu);
	if (err == 0) {
		/* synchronous: the ring's teardown is asynchronous, and the
		 * device would stay busy for a moment after we exit */
		io_uring_unregister_files(&e->ring);
		if (e->fixed_bufs)
			io_uring_unregister_buffers(&e->ring);
		io_uring_queue_exit(&e->ring);
	}
	return NULL;
}

/* Allocate what the worker needs: all memory is sized by queue depth. */
static int
engine_alloc(struct engine *e)
{
	uint32_t	i;

	e->wsize = e->maxqd * 4 < 64 ? 64 : e->maxqd * 4;
	e->bufs_len = (size_t)e->maxqd * e->bs;
	e->bufs = mmap(NULL, e->bufs_len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (e->bufs == MAP_FAILED) {
		e->bufs = NULL;
		return -1;
	}
	e->slots = calloc(e->maxqd, sizeof(*e->slots));
	e->freelist = calloc(e->maxqd, sizeof(*e->freelist));
	e->fresh = calloc(e->maxqd, sizeof(*e->fresh));
	e->taken = calloc(e->maxqd, sizeof(*e->taken));
	e->win = calloc(e->wsize, sizeof(*e->win));
	e->q = calloc(QUEUE_CAP, sizeof(*e->q));
	if (!e->slots || !e->freelist || !e->fresh || !e->taken || !e->win ||
	    !e->q)
		return -1;
	for (i = 0; i < e->maxqd; i++)
		e->freelist[i] = e->maxqd - 1 - i;
	e->nfree = e->maxqd;
	return 0;
}

struct engine *
engine_start(int fd, const char *name, const char *serial,
    uint32_t block_size, uint32_t max_queue_depth, char *err, size_t errlen)
{
	struct engine	*e;
	struct stat	 st;

	if ((e = calloc(1, sizeof(*e))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->serial, sizeof(e->serial), "%s", serial ? serial : "");
	e->fd = fd;
	e->is_blockdev = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
	e->bs = block_size;
	e->maxqd = max_queue_depth;
	e->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	pthread_mutex_init(&e->mu, NULL);
	pthread_cond_init(&e->cv, NULL);
	if (e->efd == -1 || engine_alloc(e) == -1) {
		snprintf(err, errlen, "cannot allocate I/O buffers (queue_depth "
		    "%u x block_size %u = %zu bytes): %s", e->maxqd, e->bs,
		    (size_t)e->maxqd * e->bs, strerror(errno));
		engine_free(e);
		return NULL;
	}
	if ((errno = pthread_create(&e->thr, NULL, worker_main, e)) != 0) {
		snprintf(err, errlen, "pthread_create: %s", strerror(errno));
		engine_free(e);
		return NULL;
	}
	pthread_mutex_lock(&e->mu);
	while (!e->init_done)
		pthread_cond_wait(&e->cv, &e->mu);
	pthread_mutex_unlock(&e->mu);
	if (e->init_err != 0) {
		snprintf(err, errlen, "io_uring: %s", strerror(e->init_err));
		pthread_join(e->thr, NULL);
		e->thr = 0;
		engine_free(e);
		return NULL;
	}
	return e;
}

void
engine_free(struct engine *e)
{
	if (e == NULL)
		return;
	if (e->thr) {
		atomic_store(&e->stop_req, 1);
		pthread_mutex_lock(&e->mu);
		e->quit = 1;
		pthread_cond_broadcast(&e->cv);
		pthread_mutex_unlock(&e->mu);
		pthread_join(e->thr, NULL);
	}
	if (e->bufs != NULL)
		munmap(e->bufs, e->bufs_len);
	if (e->efd != -1)
		close(e->efd);
	free(e->slots);
	free(e->freelist);
	free(e->fresh);
	free(e->taken);
	free(e->win);
	free(e->q);
	free(e->probe_pub);
	pthread_mutex_destroy(&e->mu);
	pthread_cond_destroy(&e->cv);
	free(e);
}

int
engine_notify_fd(struct engine *e)
{
	return e->efd;
}

int
engine_submit(struct engine *e, const struct job *j)
{
	pthread_mutex_lock(&e->mu);
	if (e->have_job || e->job_running) {
		pthread_mutex_unlock(&e->mu);
		errno = EBUSY;
		return -1;
	}
	e->job = *j;
	e->pub.position = e->pub.durable = j->start; /* until the worker publishes */
	e->pub.running = 1;
	e->have_job = 1;
	e->job_ended = 0;
	atomic_store(&e->stop_req, 0);
	atomic_store(&e->no_final_flush, 0);
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
	return 0;
}

void
engine_stop_job(struct engine *e)
{
	atomic_store(&e->stop_req, 1);
}

void
engine_cut_job(struct engine *e)
{
	atomic_store(&e->no_final_flush, 1);
	atomic_store(&e->stop_req, 1);
}

size_t
engine_poll(struct engine *e, struct engine_stats *st, struct finding *out,
    size_t max)
{
	size_t	n = 0;

	pthread_mutex_lock(&e->mu);
	*st = e->pub;
	while (n < max && e->qlen > 0) {
		out[n++] = e->q[e->qhead];
		e->qhead = (e->qhead + 1) % QUEUE_CAP;
		e->qlen--;
	}
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
	return n;
}

int
engine_job_done(struct engine *e, enum job_end *end, int *err)
{
	int	done;

	pthread_mutex_lock(&e->mu);
	done = e->job_ended;
	if (done) {
		*end = e->end;
		*err = e->end_err;
		e->job_ended = 0;
	}
	pthread_mutex_unlock(&e->mu);
	return done;
}

int
engine_timeline(struct engine *e, struct timeline *out)
{
	int	ready;

	pthread_mutex_lock(&e->mu);
	if ((ready = e->tl_ready))
		*out = e->tl_pub;
	e->tl_ready = 0;
	pthread_mutex_unlock(&e->mu);
	return ready;
}

uint64_t
engine_written_live(struct engine *e)
{
	return atomic_load_explicit(&e->written_live, memory_order_relaxed);
}

int
engine_busy(struct engine *e)
{
	int	busy;

	pthread_mutex_lock(&e->mu);
	busy = e->have_job || e->job_running;
	pthread_mutex_unlock(&e->mu);
	return busy;
}

void
engine_ack(struct engine *e)
{
	uint64_t	drain;

	if (read(e->efd, &drain, sizeof(drain)) == -1 && errno != EAGAIN)
		log_drive(LOG_WARNING, e->name, e->serial, errno,
		    "eventfd read");
}

/*
 * Workers given up while stuck in the kernel. Their memory is kept (the
 * thread may wake and use it) and stays reachable from here, so that a
 * leak checker tells it from a leak. Used by the main thread only.
 */
static struct engine	*abandoned;

void
engine_abandon(struct engine *e)
{
	if (e == NULL)
		return;
	atomic_store(&e->stop_req, 1);
	pthread_mutex_lock(&e->mu);
	e->quit = 1;
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
	pthread_detach(e->thr);	/* its memory stays: it may still use it */
	e->next_abandoned = abandoned;
	abandoned = e;
}

/*
 * A worker waiting for a batch of completions reaps none until the batch
 * is complete; the completions the kernel has posted meanwhile are seen
 * in the tail of the completion ring (written by the kernel only; the
 * pointer to it is set before engine_start returns and kept until the
 * worker quits).
 */
void
engine_inflight(struct engine *e, uint64_t *n, uint64_t *since_ns)
{
	uint64_t	reaped = atomic_load(&e->reaped);
	uint64_t	now = clock_ns(CLOCK_MONOTONIC), p;
	unsigned	tail = __atomic_load_n(e->ring.cq.ktail, __ATOMIC_ACQUIRE);

	if (tail != e->seen_tail) {
		e->seen_tail = tail;
		e->seen_ns = now;
	}
	*n = atomic_load(&e->submitted) - reaped;
	p = atomic_load(&e->progress_ns);
	*since_ns = atomic_load(&e->waiting_main) ? now :
	    p > e->seen_ns ? p : e->seen_ns;
}
