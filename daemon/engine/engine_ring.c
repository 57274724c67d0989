/*
 * engine_ring.c: what every job of the I/O worker runs on, whatever its
 * kind: the ring's submissions, waits and polling, the publication of
 * counters and findings to the main thread, the cache flushes and the
 * durable mark, the registered buffers. The job runners (the cycle's in
 * engine.c, the probes' in engine_probe.c) call it; it calls neither.
 *
 * A write job asks the drive to flush its volatile cache once per
 * FLUSH_NS and at its end. A flush covers the items below the position
 * at the moment it was sent (they had completed); when it completes,
 * those items become `durable`, and only they are what a checkpoint may
 * record as written: a drive without power-loss protection may lose any
 * acknowledged write it was not asked to flush.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include "clock.h"
#include "engine.h"
#include "engine_priv.h"
#include "log.h"

void
engine_notify_main(struct engine *e)
{
	uint64_t	one = 1;

	if (write(e->efd, &one, sizeof(one)) == -1 && errno != EAGAIN)
		log_drive(LOG_WARNING, e->name, e->serial, errno, "eventfd");
}

/* Does a job of this kind claim only what a flush made durable? */
static int
job_claims(enum job_kind k)
{
	return k == JOB_WRITE || k == JOB_PROBE_FILL;
}

/* Move local findings and counters to the shared snapshot atomically. */
void
engine_publish(struct engine *e)
{
	size_t	i;

	if (e->has_pend) {
		e->local[e->nlocal++] = e->pend;
		e->has_pend = 0;
	}
	e->loc.cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	if (!job_claims(e->job.kind))	/* reads and discards claim nothing */
		e->loc.durable = e->loc.position;
	pthread_mutex_lock(&e->mu);
	for (i = 0; i < e->nlocal; i++) {
		while (e->qlen == QUEUE_CAP && !e->quit) {
			/* the device is not to blame for this wait */
			atomic_store(&e->waiting_main, 1);
			engine_notify_main(e);
			pthread_cond_wait(&e->cv, &e->mu);
			atomic_store(&e->progress_ns, clock_ns(CLOCK_MONOTONIC));
			atomic_store(&e->waiting_main, 0);
		}
		e->q[(e->qhead + e->qlen) % QUEUE_CAP] = e->local[i];
		e->qlen++;
	}
	e->pub = e->loc;
	pthread_mutex_unlock(&e->mu);
	if (e->nlocal > 0)
		engine_notify_main(e);
	e->nlocal = 0;
	e->last_publish = clock_ns(CLOCK_MONOTONIC);
}

/*
 * Does f continue the run p? Adjacent, same class and generations, and
 * for a misdirected or foreign run the same shift or instance: a merged
 * event then still says exactly what each block held.
 */
int
finding_continues(const struct finding *p, const struct finding *f,
    uint32_t bs)
{
	uint64_t	span = p->nblocks * (p->unit ? p->unit : bs);

	if (p->cls != f->cls || p->err != f->err || f->cls == BLK_CORRUPT ||
	    f->cls == BLK_TORN ||
	    p->unit != f->unit ||
	    p->offset + span != f->offset ||
	    p->expected_gen != f->expected_gen ||
	    p->expected_unwritten != f->expected_unwritten ||
	    p->res.found_gen != f->res.found_gen ||
	    p->res.found_instance != f->res.found_instance)
		return 0;
	return f->cls != BLK_MISDIRECTED ||
	    p->res.found_offset + span == f->res.found_offset;
}

/* Commit a finding in item order, merging runs of adjacent blocks. */
void
engine_commit_finding(struct engine *e, const struct finding *f)
{
	struct finding	*p = &e->pend;

	e->loc.errors[f->cls] += f->nblocks;
	if (e->has_pend && finding_continues(p, f, e->bs)) {
		p->nblocks += f->nblocks;
		return;
	}
	if (e->has_pend)
		e->local[e->nlocal++] = *p;
	*p = *f;
	e->has_pend = 1;
	if (e->nlocal >= LOCAL_CAP - 1)
		engine_publish(e);
}

/*
 * Submit what is queued (and wait for `wait` completions). The SQEs are
 * counted in flight before the call, since the call may block in the
 * kernel: the stall rule must see them while it does.
 */
int
engine_ring_submit(struct engine *e, unsigned wait)
{
	unsigned	pending = io_uring_sq_ready(&e->ring);
	uint64_t	busy = atomic_load(&e->submitted) - atomic_load(&e->reaped);
	uint64_t	t = 0;
	uint32_t	i;
	int		rc;

	if (e->nfresh > 0 || (busy == 0 && pending > 0))
		e->t_wait = t = clock_ns(CLOCK_MONOTONIC);
	for (i = 0; i < e->nfresh; i++)
		e->slots[e->fresh[i]].t_submit = t;
	e->nfresh = 0;
	if (busy == 0 && pending > 0)
		atomic_store(&e->progress_ns, t);
	atomic_fetch_add(&e->submitted, pending);
	rc = wait ? io_uring_submit_and_wait(&e->ring, wait) :
	    io_uring_submit(&e->ring);
	/* what the kernel did not take stays queued, not in flight */
	atomic_fetch_sub(&e->submitted, pending - (rc > 0 ?
	    ((unsigned)rc < pending ? (unsigned)rc : pending) : 0));
	return rc;
}

/*
 * Engines polling their completion queue at this moment (engine_ring_poll).
 * Shared by every engine thread, touched only by atomic operations: at
 * most poll_max() of them poll at once, so that the drives of a host
 * never spin on every CPU it has and starve each other.
 */
static atomic_uint	pollers;

/*
 * The workers that may poll at once: all the CPUs the daemon may run on
 * but one, at least one.
 */
static unsigned
poll_max(void)
{
	static atomic_uint	max;
	unsigned		m = atomic_load_explicit(&max,
				    memory_order_relaxed);
	cpu_set_t		set;
	long			n;

	if (m == 0) {
		n = sched_getaffinity(0, sizeof(set), &set) == 0 ?
		    CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
		m = n > 2 ? (unsigned)n - 1 : 1;
		atomic_store_explicit(&max, m, memory_order_relaxed);
	}
	return m;
}

/*
 * Poll until `want` completions wait in the queue, for at most BATCH_FAST_NS
 * (the longest wait of a round on a fast device); 1 if they came. Sleeping
 * costs a wake-up on every round, which on a fast device is as long as the
 * I/O itself (an idle CPU of a virtual machine halts, and its wake-up goes
 * through the host): a probe that sleeps measures its own wake-ups. The
 * completions a kernel holds back as task work (COOP_TASKRUN) are run
 * when it flags them (IORING_SQ_TASKRUN).
 */
int
engine_ring_poll(struct engine *e, unsigned want)
{
	uint64_t	t0 = clock_ns(CLOCK_MONOTONIC);
	int		ok = 0;

	if (atomic_fetch_add(&pollers, 1) < poll_max())
		while (!(ok = io_uring_cq_ready(&e->ring) >= want) &&
		    clock_ns(CLOCK_MONOTONIC) - t0 < BATCH_FAST_NS)
			if (IO_URING_READ_ONCE(*e->ring.sq.kflags) &
			    IORING_SQ_TASKRUN)
				io_uring_get_events(&e->ring);
	atomic_fetch_sub(&pollers, 1);
	return ok;
}

/* A free SQE; a full submission queue is submitted first to make room. */
struct io_uring_sqe *
engine_ring_sqe(struct engine *e)
{
	struct io_uring_sqe	*sqe;

	if ((sqe = io_uring_get_sqe(&e->ring)) == NULL) {
		engine_ring_submit(e, 0);
		sqe = io_uring_get_sqe(&e->ring);
	}
	return sqe;
}

/*
 * Nothing could be queued and nothing is in flight: the kernel refused
 * the submission (-EAGAIN, -EBUSY) or the ring had no room. That is us,
 * not the device: wait a moment and try again, for a bounded time.
 */
int
engine_ring_backoff(struct engine *e, unsigned *tries)
{
	struct timespec	ts = { 0, 1000000 };	/* 1 ms */

	if (++*tries > 10000) {			/* 10 s without any way in */
		log_drive(LOG_WARNING, e->name, e->serial, 0,
		    "io_uring takes no submission");
		e->fail_err = EAGAIN;
		return -1;
	}
	engine_ring_submit(e, 0);
	nanosleep(&ts, NULL);
	return 0;
}

/* n completions taken at t_reap: progress for the stall rule. */
void
engine_reaped(struct engine *e, unsigned n)
{
	io_uring_cq_advance(&e->ring, n);
	if (n > 0) {
		atomic_fetch_add(&e->reaped, n);
		atomic_store(&e->progress_ns, e->t_reap);
	}
}

/* Queue a cache flush covering every item below the position now. */
int
engine_flush_start(struct engine *e)
{
	struct io_uring_sqe	*sqe;

	if ((sqe = engine_ring_sqe(e)) == NULL)
		return -1;
	/* fdatasync: on a block device, a FLUSH to the drive */
	io_uring_prep_fsync(sqe, 0, IORING_FSYNC_DATASYNC);
	sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, FLUSH_TAG);
	e->flush_busy = 1;
	e->flush_pos = e->loc.position;
	e->flush_t0 = clock_ns(CLOCK_MONOTONIC);
	return 0;
}

/* The flush completed: what it covered is durable, or the job fails. */
void
engine_flush_done(struct engine *e, int res)
{
	uint64_t	lat = (clock_ns(CLOCK_MONOTONIC) - e->flush_t0) / 1000;

	e->flush_busy = 0;
	if (res == -EINTR || res == -EAGAIN) {
		if (++e->flush_again <= FLUSH_TRIES) {
			e->flush_t0 = 0;	/* due again at once */
			return;
		}
		res = -EIO;
	}
	e->flush_again = 0;
	e->loc.flushes++;
	e->loc.flush_lat_last_us = lat;
	if (lat > e->loc.flush_lat_max_us)
		e->loc.flush_lat_max_us = lat;
	if (res < 0) {
		log_drive(LOG_WARNING, e->name, e->serial, 0,
		    "cache flush failed: %s", strerror(-res));
		e->loc.flush_err = -res;
		if (e->fail_err == 0)
			e->fail_err = -res;
		return;
	}
	if (e->flush_pos > e->loc.durable)
		e->loc.durable = e->flush_pos;
}

/* Time for the periodic flush of a write job? */
int
engine_flush_due(const struct engine *e, uint64_t now)
{
	return e->job.kind == JOB_WRITE && !e->flush_busy &&
	    e->fail_err == 0 && e->loc.position > e->loc.durable &&
	    now - e->flush_t0 >= FLUSH_NS;
}

/*
 * Reap every available completion: a flush's here, a job's I/O through
 * `done` (its slot, its result). Without `done` (engine_flush_all(),
 * nothing else in flight) there can be none; one would be a broken
 * promise of the caller, said and dropped.
 */
void
engine_reap(struct engine *e, engine_done_fn done)
{
	struct io_uring_cqe	*cqe;
	unsigned		 head, n = 0;
	uint64_t		 tag;

	e->t_reap = clock_ns(CLOCK_MONOTONIC);
	io_uring_for_each_cqe(&e->ring, head, cqe) {
		tag = io_uring_cqe_get_data64(cqe);
		if (tag == FLUSH_TAG)
			engine_flush_done(e, cqe->res);
		else if (done != NULL)
			done(e, (uint32_t)tag, cqe->res);
		else
			log_drive(LOG_ERR, e->name, e->serial, 0,
			    "a completion (tag %llu) while flushing alone",
			    (unsigned long long)tag);
		n++;
	}
	engine_reaped(e, n);
}

/*
 * At the end of a write job (or a probe fill), nothing in flight: flush
 * until all it did is durable. After a fatal error the flush is not
 * tried; the position the last flush made durable is what a checkpoint
 * records.
 */
void
engine_flush_all(struct engine *e)
{
	int	rc;

	while (job_claims(e->job.kind) && e->fail_err == 0 &&
	    (e->flush_busy || e->loc.position > e->loc.durable)) {
		if (!e->flush_busy && engine_flush_start(e) == -1) {
			e->fail_err = EAGAIN;
			return;
		}
		rc = engine_ring_submit(e, 1);
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
			e->fail_err = -rc;
		engine_reap(e, NULL);
	}
}

void
engine_flush_final(struct engine *e)
{
	/* a power cut follows: what the last flush covered stays the claim */
	if (!atomic_load_explicit(&e->no_final_flush, memory_order_relaxed))
		engine_flush_all(e);
}

/*
 * Register the buffers (the kernel pins them once, not per I/O). Where
 * the locked-memory limit will not hold them, plain buffers do the same
 * work at a little more CPU per I/O.
 */
void
engine_register_bufs(struct engine *e)
{
	struct iovec	*iov;
	struct rlimit	 rl;
	uint32_t	 i;
	int		 rc = -ENOMEM;

	if ((iov = calloc(e->maxqd, sizeof(*iov))) != NULL) {
		for (i = 0; i < e->maxqd; i++) {
			iov[i].iov_base = e->bufs + (size_t)i * e->bs;
			iov[i].iov_len = e->bs;
		}
		rc = io_uring_register_buffers(&e->ring, iov, e->maxqd);
		free(iov);
	}
	e->fixed_bufs = rc == 0;
	if (rc == 0)
		return;
	getrlimit(RLIMIT_MEMLOCK, &rl);
	log_drive(LOG_WARNING, e->name, e->serial, 0,
	    "cannot register %u buffers of %u bytes (%zu bytes; "
	    "locked-memory limit %s%llu bytes): %s; using plain buffers",
	    e->maxqd, e->bs, e->bufs_len,
	    rl.rlim_cur == RLIM_INFINITY ? "unlimited, " : "",
	    rl.rlim_cur == RLIM_INFINITY ? 0ULL : (unsigned long long)rl.rlim_cur,
	    strerror(-rc));
}
