/*
 * engine_probe.c: the probe jobs of a performance checkpoint, on the
 * drive's I/O worker (engine.c), in its ring: fill the probe region, run
 * one probe of probes.h over it, check it. Where the region lies is the
 * caller's choice; the job only makes sure it was given and lies outside
 * the static area.
 *
 * What is written. Every write, of any length at any offset, is a run of
 * units of `unit` bytes (the device's logical block), each a block of
 * block.h with that block size, the drive's instance, its own byte
 * offset and the job's generation; so every byte a probe writes can be
 * verified, and every read is checked unit by unit: each must be a valid
 * block of this instance at its own offset, of a generation in
 * [gen_lo, gen_hi]. A unit that is not is a finding like a verify pass's,
 * through the same queue, counted the same way.
 *
 * Overlap. A run's I/Os in flight may overlap (random offsets, several
 * workers), with no locking: every unit of one generation that the probe
 * jobs of a checkpoint write carries the same stamp (probe_job.stamp_ns),
 * so that any two writes of it are the same bytes. Whatever the order in
 * which overlapping I/Os land, even where a read sees part of one write
 * and part of another (a file in the page cache does not keep a sector
 * whole), every unit is valid. The limit of this: a lost write (the
 * device acknowledges it and keeps the unit's old content) is not
 * detectable here, since the old content is as valid as the new; the
 * cycles' verify passes, one generation per pass, are what find those.
 *
 * A fill ends with a cache flush (its units are what the probes expect
 * to read, power cut or not); a run's writes are not flushed (fio sends
 * no flush either): any unit they leave behind, old or new, is the
 * fill's bytes. A checkpoint cut short fills its region again.
 *
 * Slots. A run keeps workers x queue_depth slots in flight; slot i
 * belongs to worker i / queue_depth and is refilled from that worker's
 * stream (probegen.h) when it completes, as each of fio's jobs keeps its
 * own queue. Fill and check keep the job's queue_depth slots, each the
 * next piece of the region. Each slot has a buffer of the probe's
 * largest size (fill and check: the largest of the table), allocated
 * for the job and unmapped after it, so that a drive's memory outside
 * checkpoints does not grow; registered with the ring in place of the
 * cycle jobs' buffers for the job's length (see probe_bufs_register).
 *
 * The measured window. A run issues I/Os from its start; completions
 * count from the end of the ramp to the first round at or past the
 * deadline, where it stops issuing and drains what is in flight
 * (checked, not counted). The clock is read once per round: the window
 * opens at the ramp's end exactly and closes at that round's reap, and
 * a completion counts by the round that reaps it (an error of at most
 * one round at each end).
 *
 * Whether the window is the drive's. A run's wait for a completion is
 * bounded (PROBE_ROUND_NS), so that its thread comes round even while the
 * drive holds every I/O; each round's stamp (t_reap) gives the longest gap
 * between two rounds in the window: one far beyond the bound is time the
 * thread did not run (stopped, or kept from every CPU), and a stopped
 * daemon would be recorded as a slow drive. The rounds that open and
 * close the window also take how long the system was suspended and how
 * long this thread waited for a CPU so far. A window with such a gap or a
 * suspend (probes.h) is void, measured again, ramp and all, up to the
 * job's reruns; the result says which were void, and the caller records
 * a last one void as such. A long CPU wait (a busy host) voids nothing:
 * the caller notes it on the line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "engine_priv.h"
#include "log.h"
#include "probegen.h"
#include "reserve.h"

/* One I/O of a probe job. */
struct pslot {
	uint64_t	off;		/* byte offset on the device */
	uint32_t	len;
	uint32_t	done;		/* bytes transferred so far */
	uint64_t	t_submit;
	int		is_read;
	uint32_t	buf;		/* its buffer: one of nslots + 1 */
};

/* A probe job's own state, allocated for the job (e->probe). */
struct probe_state {
	const struct probe_job *pj;
	enum job_kind	 kind;
	struct pslot	*slots;
	uint32_t	 nslots;
	uint32_t	 per_worker;	/* run: slots of each worker's stream */
	uint32_t	 slot_bytes;	/* of each slot's buffer */
	unsigned char	*bufs;		/* nslots + 1 buffers (check_later()) */
	uint32_t	 spare;		/* the buffer no slot has */
	uint64_t	 check_off;	/* the spare holds a read to check: */
	uint32_t	 check_len;	/* where from, how long (0: none) */
	size_t		 bufs_len;
	int		 fixed;		/* the slots' buffers are registered */
	int		 swapped;	/* the cycle jobs' were, and are not now */
	struct probegen	*gen;		/* run: one per worker */
	uint32_t	*idle;		/* slots without an I/O */
	uint32_t	 nidle;
	uint32_t	*ready;		/* slots with an I/O not yet queued */
	uint32_t	 nready;
	uint32_t	*fresh;		/* queued since the last submission */
	uint32_t	 nfresh;
	uint64_t	 cursor;	/* fill, check: the region's next byte */
	int		 exhausted;	/* fill, check: the cursor is at its end */
	uint64_t	 stamp;		/* write time of the units written */
	uint64_t	 t_ramp, t_deadline, t_stop;	/* CLOCK_MONOTONIC */
	uint64_t	 t_round;	/* the last round's reap */
	int		 counting;	/* this round's completions count */
	int		 stopping;	/* issue nothing more */
	struct probe_window win;	/* run: the window's edges */
	uint64_t	 susp0, runq0;	/* at its opening (or the job's start) */
	struct probe_result *res;	/* handed to the main thread at the end */
};

/* Buffer b of the job's nslots + 1. */
static unsigned char *
buf_at(const struct probe_state *ps, uint32_t b)
{
	return ps->bufs + (size_t)b * ps->slot_bytes;
}

/* Is the job's kind a run (timed, from a probe) rather than fill or check? */
static int
is_run(const struct probe_state *ps)
{
	return ps->kind == JOB_PROBE_RUN;
}

/* The largest block size of a probe. */
static uint32_t
probe_size_max(const struct probe *p)
{
	uint32_t	m = 0;
	unsigned	i;

	for (i = 0; i < p->nsplit; i++)
		if (p->split[i].size > m)
			m = p->split[i].size;
	return m;
}

/* The largest block size of the table: fill's and check's I/O size. */
static uint32_t
table_size_max(void)
{
	uint32_t	m = 0, s;
	size_t		i;

	for (i = 0; i < probe_count(); i++)
		if ((s = probe_size_max(probe_at(i))) > m)
			m = s;
	return m;
}

unsigned
engine_probe_inflight_max(void)
{
	const struct probe	*p;
	unsigned		 m = 0;
	size_t			 i;

	for (i = 0; i < probe_count(); i++) {
		p = probe_at(i);
		if (p->workers * p->queue_depth > m)
			m = p->workers * p->queue_depth;
	}
	return m;
}

/*
 * Is the job what a probe job must be? 0, or an errno with the reason
 * logged: the region given, whole units, outside the static area and
 * inside the layout; a run's probe applicable to it.
 */
static int
probe_job_valid(const struct engine *e, const struct job *j)
{
	const struct probe_job	*pj = &j->pj;
	uint64_t		 lo = j->lay.static_blocks * j->lay.block_size;
	char			 why[200] = "";

	if (pj->unit < BLK_MIN_SIZE || pj->unit > BLK_MAX_SIZE ||
	    (pj->unit & (pj->unit - 1)) != 0)
		snprintf(why, sizeof(why), "unit of %u B", pj->unit);
	else if (pj->region_len == 0 || pj->region_off % pj->unit != 0 ||
	    pj->region_len % pj->unit != 0 || pj->region_off < lo ||
	    pj->region_off + pj->region_len > j->lay.span_bytes)
		snprintf(why, sizeof(why), "region [%llu, +%llu) is not whole "
		    "units inside [%llu, %llu)",
		    (unsigned long long)pj->region_off,
		    (unsigned long long)pj->region_len, (unsigned long long)lo,
		    (unsigned long long)j->lay.span_bytes);
	else if (j->kind == JOB_PROBE_RUN && (pj->probe == NULL ||
	    pj->probe->workers * pj->probe->queue_depth >
	    engine_probe_inflight_max()))
		snprintf(why, sizeof(why), "no probe of the table");
	else if (j->kind == JOB_PROBE_RUN)
		(void)probegen_check(pj->probe, pj->region_len, pj->unit, why,
		    sizeof(why));
	else if (j->queue_depth == 0)
		snprintf(why, sizeof(why), "queue depth 0");
	if (why[0] == '\0')
		return 0;
	log_drive(LOG_WARNING, e->name, e->serial, 0, "probe job refused: %s",
	    why);
	return EINVAL;
}

/* The slots' buffers, page-aligned for O_DIRECT, and their lists. */
static int
state_alloc(struct probe_state *ps)
{
	uint32_t	i;

	ps->bufs_len = ((size_t)ps->nslots + 1) * ps->slot_bytes;
	ps->bufs = mmap(NULL, ps->bufs_len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ps->bufs == MAP_FAILED) {
		ps->bufs = NULL;
		return -1;
	}
	ps->slots = calloc(ps->nslots, sizeof(*ps->slots));
	ps->idle = calloc(ps->nslots, sizeof(*ps->idle));
	ps->ready = calloc(ps->nslots, sizeof(*ps->ready));
	ps->fresh = calloc(ps->nslots, sizeof(*ps->fresh));
	ps->res = calloc(1, sizeof(*ps->res));
	if (!ps->slots || !ps->idle || !ps->ready || !ps->fresh || !ps->res)
		return -1;
	for (i = 0; i < ps->nslots; i++) {
		ps->idle[i] = ps->nslots - 1 - i;	/* slot 0 taken first */
		ps->slots[i].buf = i;
	}
	ps->spare = ps->nslots;
	ps->nidle = ps->nslots;
	return 0;
}

/* Each run worker's stream, from the job's seed. */
static int
state_gens(struct probe_state *ps)
{
	const struct probe	*p = ps->pj->probe;
	char			 why[160];
	unsigned		 w;

	if ((ps->gen = calloc(p->workers, sizeof(*ps->gen))) == NULL)
		return -1;
	for (w = 0; w < p->workers; w++)
		if (probegen_init(&ps->gen[w], p, ps->pj->region_len,
		    ps->pj->unit, w, ps->pj->seed, why, sizeof(why)) < 0)
			return -1;	/* probe_job_valid() said it was fine */
	return 0;
}

/*
 * Register the slots' buffers in place of the cycle jobs' (a ring has
 * one table; probe_bufs_restore() puts theirs back). Without them the
 * slots use plain buffers: the same I/O at a little more CPU.
 */
static void
probe_bufs_register(struct engine *e, struct probe_state *ps)
{
	struct iovec	*iov;
	uint32_t	 i;

	if ((iov = calloc(ps->nslots + 1, sizeof(*iov))) == NULL)
		return;
	for (i = 0; i <= ps->nslots; i++) {
		iov[i].iov_base = buf_at(ps, i);
		iov[i].iov_len = ps->slot_bytes;
	}
	if (e->fixed_bufs)
		ps->swapped = io_uring_unregister_buffers(&e->ring) == 0;
	e->fixed_bufs = 0;
	ps->fixed = io_uring_register_buffers(&e->ring, iov,
	    ps->nslots + 1) == 0;
	free(iov);
}

static void
probe_bufs_restore(struct engine *e, struct probe_state *ps)
{
	if (ps->fixed)
		io_uring_unregister_buffers(&e->ring);
	ps->fixed = 0;
	if (ps->swapped)
		engine_register_bufs(e);
	ps->swapped = 0;
}

static void
state_free(struct engine *e, struct probe_state *ps)
{
	probe_bufs_restore(e, ps);
	if (ps->bufs != NULL)
		munmap(ps->bufs, ps->bufs_len);
	free(ps->slots);
	free(ps->idle);
	free(ps->ready);
	free(ps->fresh);
	free(ps->gen);
	free(ps->res);
	free(ps);
	e->probe = NULL;
}

/* Set up the job's state; NULL on a lack of memory. */
static struct probe_state *
state_new(struct engine *e)
{
	const struct job	*j = &e->job;
	struct probe_state	*ps;
	uint32_t		 qd = j->queue_depth < e->maxqd ?
				    j->queue_depth : e->maxqd;

	if ((e->probe = ps = calloc(1, sizeof(*ps))) == NULL)
		return NULL;
	ps->pj = &j->pj;
	ps->kind = j->kind;
	if (is_run(ps)) {
		ps->per_worker = j->pj.probe->queue_depth;
		ps->nslots = j->pj.probe->workers * ps->per_worker;
		ps->slot_bytes = probe_size_max(j->pj.probe);
	} else {
		ps->nslots = qd;
		ps->slot_bytes = table_size_max();
	}
	/* whole pages: a slot's buffer is aligned for any device */
	ps->slot_bytes = (ps->slot_bytes + 4095) / 4096 * 4096;
	if (state_alloc(ps) < 0 || (is_run(ps) && state_gens(ps) < 0)) {
		state_free(e, ps);
		return NULL;
	}
	probe_bufs_register(e, ps);
	return ps;
}

/* Give slot idx its next I/O; -1 when there is none. */
static int
next_io(struct probe_state *ps, uint32_t idx)
{
	struct pslot	*s = &ps->slots[idx];
	struct probe_io	 io;
	uint64_t	 left;

	if (is_run(ps)) {
		probegen_next(&ps->gen[idx / ps->per_worker], &io);
		s->off = ps->pj->region_off + io.offset;
		s->len = io.length;
		s->is_read = io.is_read;
	} else {
		if ((left = ps->pj->region_len - ps->cursor) == 0) {
			ps->exhausted = 1;
			return -1;
		}
		s->off = ps->pj->region_off + ps->cursor;
		s->len = left < ps->slot_bytes ? (uint32_t)left : ps->slot_bytes;
		s->is_read = ps->kind == JOB_PROBE_CHECK;
		ps->cursor += s->len;
	}
	s->done = 0;
	return 0;
}

/* Fill the units of the write slots among ready[from..], in batches. */
static void
encode_ready(struct engine *e, struct probe_state *ps, uint32_t from)
{
	enum { CHUNK = 16 };	/* blk_encode_many() works NFILL at a time */
	void		*bufs[CHUNK];
	uint64_t	 offs[CHUNK];
	const uint32_t	 unit = ps->pj->unit;
	uint32_t	 k, u, n = 0;

	for (k = from; k < ps->nready; k++) {
		struct pslot	*s = &ps->slots[ps->ready[k]];
		unsigned char	*b = buf_at(ps, s->buf);

		for (u = 0; !s->is_read && u < s->len; u += unit) {
			bufs[n] = b + u;
			offs[n++] = s->off + u;
			if (n == CHUNK) {
				blk_encode_many(bufs, offs, n, unit,
				    e->job.expect.instance, e->job.generation,
				    ps->stamp);
				n = 0;
			}
		}
	}
	if (n > 0)
		blk_encode_many(bufs, offs, n, unit, e->job.expect.instance,
		    e->job.generation, ps->stamp);
}

/* Give idle slots their next I/O, while the job issues any. */
static void
refill(struct engine *e, struct probe_state *ps)
{
	uint32_t	from = ps->nready, idx;

	while (!ps->stopping && ps->nidle > 0) {
		idx = ps->idle[ps->nidle - 1];
		if (next_io(ps, idx) < 0)
			break;
		ps->nidle--;
		ps->ready[ps->nready++] = idx;
	}
	encode_ready(e, ps, from);
}

/* Queue the (rest of the) transfer of a slot; -1 when the ring is full. */
static int
slot_queue(struct engine *e, struct probe_state *ps, uint32_t idx)
{
	struct pslot		*s = &ps->slots[idx];
	struct io_uring_sqe	*sqe;
	unsigned char		*buf = buf_at(ps, s->buf) + s->done;
	unsigned		 len = s->len - s->done;

	if ((sqe = engine_ring_sqe(e)) == NULL)
		return -1;
	if (ps->fixed && s->is_read)
		io_uring_prep_read_fixed(sqe, 0, buf, len, s->off + s->done,
		    (int)s->buf);
	else if (ps->fixed)
		io_uring_prep_write_fixed(sqe, 0, buf, len, s->off + s->done,
		    (int)s->buf);
	else if (s->is_read)
		io_uring_prep_read(sqe, 0, buf, len, s->off + s->done);
	else
		io_uring_prep_write(sqe, 0, buf, len, s->off + s->done);
	sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, idx);
	return 0;
}

/* Send what is queued to the kernel, each I/O stamped with the time. */
static int
probe_send(struct engine *e, struct probe_state *ps, unsigned wait)
{
	uint64_t	t;
	uint32_t	i;

	if (ps->nfresh > 0) {	/* the round's clock for what it sends */
		e->t_wait = t = clock_ns(CLOCK_MONOTONIC);
		for (i = 0; i < ps->nfresh; i++)
			ps->slots[ps->fresh[i]].t_submit = t;
		ps->nfresh = 0;
	}
	return engine_ring_submit(e, wait);
}

/* Do two I/Os touch, so that one submission would merge them? */
static int
adjacent(const struct pslot *a, const struct pslot *b)
{
	return a->off + a->len == b->off || b->off + b->len == a->off;
}

/*
 * Queue the ready slots, in order, as far as the ring takes them. A run
 * never sends two I/Os that touch in one submission: the block layer
 * would merge them (a sequential row's 128 KiB reads into 512 KiB ones),
 * and the drive would see another workload than the probe's.
 */
static void
queue_ready(struct engine *e, struct probe_state *ps)
{
	const struct pslot	*last = NULL;
	uint32_t		 k;

	for (k = 0; k < ps->nready; k++) {
		const struct pslot *s = &ps->slots[ps->ready[k]];

		if (last != NULL && ps->nfresh > 0 && is_run(ps) &&
		    adjacent(last, s) && probe_send(e, ps, 0) < 0)
			break;	/* the rest next round; probe_submit() reports */
		if (slot_queue(e, ps, ps->ready[k]) < 0)
			break;
		ps->fresh[ps->nfresh++] = ps->ready[k];
		last = s;
	}
	memmove(ps->ready, ps->ready + k, (ps->nready - k) * sizeof(*ps->ready));
	ps->nready -= k;
}

/* Commit a finding of `n` units from `off` of a probe job. */
static void
probe_finding(struct engine *e, struct probe_state *ps, enum blk_class cls,
    uint64_t off, uint64_t n, const struct blk_result *r, int err)
{
	struct finding	f;

	memset(&f, 0, sizeof(f));
	f.cls = cls;
	f.offset = off;
	f.nblocks = n;
	f.unit = ps->pj->unit;
	f.expected_gen = ps->pj->gen_hi;
	f.err = err;
	if (r != NULL)
		f.res = *r;
	else {
		f.res.cls = cls;
		f.res.first_bad_byte = -1;
	}
	ps->res->errors[cls] += n;
	engine_commit_finding(e, &f);
}

/* Check every unit a read of `len` bytes from `off` brought. */
static void
check_units(struct engine *e, struct probe_state *ps, uint64_t off,
    uint32_t len, const unsigned char *buf)
{
	const struct probe_job	*pj = ps->pj;
	struct blk_expect	 ex = { .has_gen = 1, .gen_lo = pj->gen_lo,
				    .gen_hi = pj->gen_hi,
				    .allow_unwritten = pj->allow_blank };
	struct blk_result	 r;
	uint32_t		 u;

	for (u = 0; u < len; u += pj->unit)
		if (blk_check(buf + u, pj->unit, e->job.expect.instance,
		    off + u, &ex, &r) != BLK_OK)
			probe_finding(e, ps, r.cls, off + u, 1, &r, 0);
	ps->res->units_checked += len / pj->unit;
}

/*
 * A read's check waits until the slot's next I/O is sent (check_done()):
 * the slot takes the spare buffer and leaves its own, the data, as the
 * spare. At QD1 the device then works while the units are checked, not
 * after: a check between a completion and the next submission cost a
 * 4 KiB QD1 read probe a tenth of its pace on a loop device.
 */
static void
check_later(struct probe_state *ps, struct pslot *s)
{
	uint32_t	b = s->buf;

	s->buf = ps->spare;
	ps->spare = b;
	ps->check_off = s->off;
	ps->check_len = s->len;
}

/* The check check_later() put off, if any. */
static void
check_done(struct engine *e, struct probe_state *ps)
{
	if (ps->check_len == 0)
		return;
	check_units(e, ps, ps->check_off, ps->check_len,
	    buf_at(ps, ps->spare));
	ps->check_len = 0;
}

/* An I/O failed: a finding for all its units; a fatal one ends the job. */
static void
probe_io_failed(struct engine *e, struct probe_state *ps,
    const struct pslot *s, int err)
{
	if (err == RESERVE_CONFLICT_ERRNO) {	/* another host's, not the drive's */
		e->fail_err = err;
		return;
	}
	probe_finding(e, ps, BLK_IO_ERROR, s->off, s->len / ps->pj->unit, NULL,
	    err);
	if (err == ENODEV || err == ENXIO || !e->job.continue_on_error)
		e->fail_err = err;
}

/* A slot's transfer is complete: count it, check what a read brought. */
static void
slot_account(struct engine *e, struct probe_state *ps, uint32_t idx)
{
	struct pslot	*s = &ps->slots[idx];
	int		 d = s->is_read ? LAT_READ : LAT_WRITE;
	uint64_t	 lat = e->t_reap - s->t_submit;

	lathist_record(&e->loc.lat[d], lat);
	if (s->is_read) {
		e->loc.bytes_read += s->len;
		e->loc.read_ops++;
		check_later(ps, s);
	} else {
		e->loc.bytes_written += s->len;
		atomic_fetch_add_explicit(&e->written_live, s->len,
		    memory_order_relaxed);
		e->loc.probe_bytes_written += s->len;
		e->loc.write_ops++;
	}
	e->loc.position += s->len / ps->pj->unit;
	if (!ps->counting)
		return;
	lathist_record(&ps->res->lat[d], lat);
	ps->res->ops[d]++;
	ps->res->bytes[d] += s->len;
}

/* One completion: retry, continue a short transfer, or finish the slot. */
static void
probe_complete(struct engine *e, struct probe_state *ps, uint32_t idx,
    int res)
{
	struct pslot	*s = &ps->slots[idx];

	if (res == -EINTR || res == -EAGAIN) {
		if (slot_queue(e, ps, idx) == 0)
			return;
		res = -EIO;
	}
	if (res > 0 && s->done + (uint32_t)res < s->len) {
		s->done += (uint32_t)res;	/* short transfer: go on */
		if (slot_queue(e, ps, idx) == 0)
			return;
		res = -EIO;
	}
	if (res <= 0)
		probe_io_failed(e, ps, s, res == 0 ? ENODATA : -res);
	else
		slot_account(e, ps, idx);
	ps->idle[ps->nidle++] = idx;
}

/* CLOCK_BOOTTIME's advance over CLOCK_MONOTONIC: the time suspended. */
static uint64_t
suspended_ns(void)
{
	return probe_suspended_ns(clock_ns);
}

/* This thread's wait on a run queue so far; PROBE_WAIT_UNKNOWN. */
static uint64_t
runq_wait_ns(void)
{
	char			buf[128];
	unsigned long long	cpu, wait;
	ssize_t			n;
	int			fd;

	if ((fd = open("/proc/thread-self/schedstat", O_RDONLY |
	    O_CLOEXEC)) < 0)
		return PROBE_WAIT_UNKNOWN;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return PROBE_WAIT_UNKNOWN;
	buf[n] = '\0';
	return sscanf(buf, "%llu %llu", &cpu, &wait) == 2 ?
	    (uint64_t)wait : PROBE_WAIT_UNKNOWN;
}

/*
 * An edge of a run's window: at its opening, the time suspended and
 * waited so far; at its close, the window's length and their growth.
 */
static void
window_edge(struct probe_state *ps, int closing)
{
	struct probe_window	*w = &ps->win;
	uint64_t		 s = suspended_ns(), q = runq_wait_ns();

	if (!closing) {
		w->opened = 1;
		ps->susp0 = s;
		ps->runq0 = q;
		return;
	}
	w->planned_ns = ps->pj->duration_ns;
	w->wall_ns = ps->t_stop > ps->t_ramp ? ps->t_stop - ps->t_ramp : 0;
	w->suspended_ns = s > ps->susp0 ? s - ps->susp0 : 0;
	w->runq_ns = q == PROBE_WAIT_UNKNOWN || ps->runq0 ==
	    PROBE_WAIT_UNKNOWN || q < ps->runq0 ? PROBE_WAIT_UNKNOWN :
	    q - ps->runq0;
}

/*
 * The round's clock: whether its completions count (from the ramp's end
 * to the first round at or past the deadline, which closes the window
 * and stops the issuing); the window's longest gap between two rounds
 * (the one across the ramp's end and the closing one included).
 */
static void
round_clock(struct probe_state *ps, uint64_t t)
{
	if (ps->t_stop == 0 && t >= ps->t_ramp && t > ps->t_round &&
	    t - ps->t_round > ps->win.gap_ns)
		ps->win.gap_ns = t - ps->t_round;
	ps->t_round = t;
	if (ps->t_stop != 0)
		ps->counting = 0;
	else if (t >= ps->t_deadline) {
		ps->t_stop = t;
		ps->stopping = 1;
		ps->counting = 1;
		window_edge(ps, 1);
	} else if ((ps->counting = t >= ps->t_ramp) && !ps->win.opened)
		window_edge(ps, 0);
}

/* What a send's failure means: the job fails unless the ring is busy. */
static void
send_result(struct engine *e, int rc)
{
	if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
		log_drive(LOG_WARNING, e->name, e->serial, 0,
		    "io_uring_submit: %s", strerror(-rc));
		e->fail_err = -rc;
	}
}

/*
 * A run's slot goes out again the moment its completion is reaped, in a
 * submission of its own, as fio's default (iodepth_batch_submit = 1)
 * sends it: the device's queue never waits for the rest of a batch to be
 * checked. With a batch refilled once per round, 4 KiB QD32 reads on a
 * loop device ran at 0.69x fio; each slot sent at once, at fio's pace.
 * Completions found after a send were stamped after it (e->t_reap): their
 * latency is never measured from before their own submission.
 */
static void
resend(struct engine *e, struct probe_state *ps)
{
	refill(e, ps);
	queue_ready(e, ps);
	if (ps->nfresh == 0)
		return;
	send_result(e, probe_send(e, ps, 0));
	e->t_reap = clock_ns(CLOCK_MONOTONIC);
}

/*
 * Reap the available completions, a run's slots sent again at once; at
 * most one a slot, so that the round comes back to its clock: a target
 * that completes in the submission (a file in the page cache) would
 * otherwise keep one round going past its deadline.
 */
static void
probe_reap(struct engine *e, struct probe_state *ps)
{
	struct io_uring_cqe	*cqe;
	uint32_t		 n = 0;

	e->t_reap = clock_ns(CLOCK_MONOTONIC);
	round_clock(ps, e->t_reap);
	while (n++ < ps->nslots && io_uring_peek_cqe(&e->ring, &cqe) == 0) {
		uint32_t	idx = (uint32_t)io_uring_cqe_get_data64(cqe);
		int		res = cqe->res;

		engine_reaped(e, 1);
		probe_complete(e, ps, idx, res);
		if (is_run(ps))
			resend(e, ps);
		check_done(e, ps);
	}
}

/*
 * A run's wait for a completion, at most PROBE_ROUND_NS: the round comes
 * even when none does (what was queued is sent already, and accounted by
 * engine_ring_submit()). The kernel bounds the wait itself (EXT_ARG,
 * Linux 5.11); before it, liburing would queue a timeout of its own whose
 * completion probe_reap() would take for an I/O: the wait is not bounded
 * there, and a drive holding an I/O over PROBE_GAP_MAX_NS voids a window.
 */
static int
round_wait(struct engine *e)
{
	struct __kernel_timespec ts = { .tv_sec = 0,
				    .tv_nsec = PROBE_ROUND_NS };
	struct io_uring_cqe	*cqe;
	int			 rc;

	if (!(e->ring.features & IORING_FEAT_EXT_ARG))
		return engine_ring_submit(e, 1);
	rc = io_uring_submit_and_wait_timeout(&e->ring, &cqe, 1, &ts, NULL);
	return rc == -ETIME ? 0 : rc;
}

/*
 * Submit what is queued and wait for the first completion, as fio does: a
 * slot refilled as soon as its I/O ends keeps the probe's queue depth, and
 * its latency is stamped when it ends, not when a batch does. A run that
 * polls (probe_wait = poll) looks for it without sleeping, for at most
 * BATCH_FAST_NS, then sleeps: the probe measures the device, not the time
 * its own thread takes to wake up. A run's sleep is bounded (round_wait).
 */
static void
probe_submit(struct engine *e, struct probe_state *ps)
{
	int	rc, wait = ps->nslots - ps->nidle - ps->nready > 0;

	if (wait && is_run(ps) && ps->pj->poll) {
		rc = probe_send(e, ps, 0);
		if (rc >= 0 && !engine_ring_poll(e, 1))
			rc = round_wait(e);
	} else if (wait && is_run(ps)) {
		rc = probe_send(e, ps, 0);
		if (rc >= 0)
			rc = round_wait(e);
	} else
		rc = probe_send(e, ps, (unsigned)wait);
	send_result(e, rc);
}

/* Should the job issue nothing more? Its end if so. */
static int
probe_halted(struct engine *e, struct probe_state *ps, enum job_end *end)
{
	if (e->fail_err != 0)
		*end = JOB_FAILED;
	else if (atomic_load_explicit(&e->stop_req, memory_order_relaxed))
		*end = JOB_STOPPED;
	else
		return ps->stopping;
	ps->stopping = 1;
	return 1;
}

/* The submission/completion loop of a probe job. */
static enum job_end
probe_loop(struct engine *e, struct probe_state *ps)
{
	enum job_end	end = JOB_DONE;
	unsigned	tries = 0;

	for (;;) {
		if (probe_halted(e, ps, &end) && ps->nready > 0) {
			/* drawn, never sent: back to idle */
			memcpy(ps->idle + ps->nidle, ps->ready,
			    ps->nready * sizeof(*ps->ready));
			ps->nidle += ps->nready;
			ps->nready = 0;
		}
		refill(e, ps);
		queue_ready(e, ps);
		if (ps->nidle + ps->nready == ps->nslots) {
			if (ps->nready == 0 && (ps->stopping || ps->exhausted))
				break;	/* nothing in flight, nothing left */
			if (engine_ring_backoff(e, &tries) == -1)
				break;
			continue;
		}
		tries = 0;
		probe_submit(e, ps);
		probe_reap(e, ps);
		if (e->t_reap - e->last_publish > PUBLISH_NS)
			engine_publish(e);
	}
	if (e->fail_err != 0)
		end = JOB_FAILED;
	return end;
}

/* The window's figures, and the result handed to the main thread. */
static void
probe_result_publish(struct engine *e, struct probe_state *ps)
{
	struct probe_result	*r = ps->res;
	uint64_t		 end = ps->t_stop != 0 ? ps->t_stop : e->t_reap;
	int			 d;

	r->kind = ps->kind;
	if (is_run(ps))
		snprintf(r->id, sizeof(r->id), "%s", ps->pj->probe->id);
	r->poll = is_run(ps) && ps->pj->poll;
	r->window_ns = end > ps->t_ramp ? end - ps->t_ramp : 0;
	for (d = 0; d < LAT_NDIR; d++) {
		if (r->window_ns == 0)
			continue;
		r->iops[d] = (double)r->ops[d] * 1e9 / (double)r->window_ns;
		r->bytes_per_sec[d] = (double)r->bytes[d] * 1e9 /
		    (double)r->window_ns;
	}
	pthread_mutex_lock(&e->mu);
	free(e->probe_pub);	/* a result nobody took */
	e->probe_pub = r;
	pthread_mutex_unlock(&e->mu);
	ps->res = NULL;
}

/*
 * A run's rest before its ramp's I/O (PROBE_REST_NS), in steps that a
 * stop request ends.
 */
static void
probe_rest(struct engine *e, const struct probe_state *ps, uint64_t t0)
{
	uint64_t	rest = ps->pj->ramp_ns / 2;

	if (!is_run(ps) || rest == 0)
		return;
	if (rest > PROBE_REST_NS)
		rest = PROBE_REST_NS;
	(void)mono_sleep_until(t0 + rest, PROBE_ROUND_NS, &e->stop_req);
}

/*
 * The job's clocks: a run's ramp (its rest first: probe_rest()) and
 * deadline; fill and check untimed.
 */
static void
probe_clocks(struct engine *e, struct probe_state *ps)
{
	uint64_t	t0 = clock_ns(CLOCK_MONOTONIC);

	if (ps->stamp == 0)	/* a rerun's writes are the same bytes */
		ps->stamp = ps->pj->stamp_ns != 0 ? ps->pj->stamp_ns :
		    clock_ns(CLOCK_REALTIME);
	ps->t_ramp = is_run(ps) ? t0 + ps->pj->ramp_ns : t0;
	probe_rest(e, ps, t0);
	ps->t_deadline = is_run(ps) ? ps->t_ramp + ps->pj->duration_ns :
	    UINT64_MAX;
	ps->t_stop = 0;
	ps->t_round = t0;
	ps->stopping = 0;
	ps->counting = !is_run(ps) || ps->pj->ramp_ns == 0;
	memset(&ps->win, 0, sizeof(ps->win));
	window_edge(ps, 0);	/* the job's start, should no round open it */
	ps->win.opened = ps->counting;
}

/*
 * A run whose window is void is measured again while its job allows: 1
 * if so, the window's figures cleared (its findings stay: they are the
 * drive's whenever they were made).
 */
static int
window_rerun(struct engine *e, struct probe_state *ps)
{
	struct probe_result	*r = ps->res;
	char			 why[256];

	if (!is_run(ps) || ps->t_stop == 0)
		return 0;
	r->attempts++;
	r->window = ps->win;
	if (!probe_window_void(&ps->win, why, sizeof(why)))
		return 0;
	r->voided[r->nvoid++] = ps->win;
	if (r->attempts > ps->pj->reruns || r->attempts > PROBE_RERUNS)
		return 0;
	log_drive(LOG_NOTICE, e->name, e->serial, 0, "probe %s: window void, "
	    "measured again: %s", ps->pj->probe->id, why);
	memset(r->ops, 0, sizeof(r->ops));
	memset(r->bytes, 0, sizeof(r->bytes));
	memset(r->lat, 0, sizeof(r->lat));
	return 1;
}

enum job_end
engine_run_probe(struct engine *e)
{
	struct probe_state	*ps;
	enum job_end		 end;

	if ((e->fail_err = probe_job_valid(e, &e->job)) != 0)
		return JOB_FAILED;
	if ((ps = state_new(e)) == NULL) {
		log_drive(LOG_WARNING, e->name, e->serial, ENOMEM,
		    "probe job");
		e->fail_err = ENOMEM;
		return JOB_FAILED;
	}
	e->loc.position = 0;
	do {
		probe_clocks(e, ps);
		e->t_reap = e->t_wait = clock_ns(CLOCK_MONOTONIC);
		end = probe_loop(e, ps);
	} while (end == JOB_DONE && window_rerun(e, ps));
	if (end == JOB_DONE && e->job.kind == JOB_PROBE_FILL) {
		/* the probes read the fill after a power cut too */
		engine_flush_final(e);
		if (e->fail_err != 0)
			end = JOB_FAILED;
	}
	probe_result_publish(e, ps);
	state_free(e, ps);
	return end;
}

int
engine_probe_result(struct engine *e, struct probe_result *out)
{
	struct probe_result	*r;

	pthread_mutex_lock(&e->mu);
	r = e->probe_pub;
	e->probe_pub = NULL;
	pthread_mutex_unlock(&e->mu);
	if (r == NULL)
		return -1;
	*out = *r;
	free(r);
	return 0;
}
