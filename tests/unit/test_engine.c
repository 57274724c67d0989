/*
 * test_engine.c: the I/O worker against a real file (O_DIRECT on the
 * filesystem of /var/tmp), with failures injected where the kernel may
 * give them: io_uring_submit and io_uring_submit_and_wait refuse with
 * -EAGAIN or -EBUSY, and completions come back short or as -EAGAIN
 * (edited in the completion ring before the engine reaps it). Linked
 * with --wrap for those two functions, and for clock_gettime, to give
 * I/Os the latency a test chooses. Whatever is injected, a write
 * pass and a verify pass must end done, count every byte once, and find
 * nothing on a healthy file, or exactly what was planted. A write job
 * flushes: its durable position never runs ahead of the completed one,
 * reaches the end only through a completed flush, and a failed flush
 * fails the job with nothing more claimed. Latency is counted per
 * direction, and the per-tick p99 of rates.c tells a device's latency
 * within 1 % (latencies set here through the engine's clock).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <liburing.h>

#include "drive_priv.h"
#include "engine.h"
#include "log.h"
#include "timeline.h"

/* ------------------------------------------------ fault injection */

static struct {
	unsigned	refuse_pct;	/* submit: -EAGAIN / -EBUSY */
	unsigned	short_pct;	/* completion: half of it */
	unsigned	again_pct;	/* completion: -EAGAIN */
	unsigned	flush_again;	/* the next N flushes: -EAGAIN */
	int		flush_fail;	/* every flush: -EIO */
	unsigned	hold_ms;	/* keep the next wait this long after it */
	/* the first write completion seen: -EAGAIN this many times (its
	 * slot, sent again, comes back after the others) */
	unsigned	hold_first;
	int		have_first;
	uint64_t	first_ud;
	/* the k-th I/O completed takes slow_us + k * slow_step_us: a slow
	 * device (0: as fast as it is) */
	unsigned	slow_us, slow_step_us;
	unsigned	nslow;		/* I/Os slowed so far */
	int		holding;	/* (atomic) a wait is being held */
	unsigned	refused, shortened, againd;
	unsigned	seed;
} inj;

/* The last snapshot and errno of the job run() ran. */
static struct engine_stats	last_st;
static int			last_err;

int	__real_io_uring_submit(struct io_uring *);
int	__real_io_uring_submit_and_wait(struct io_uring *, unsigned);
int	__wrap_io_uring_submit(struct io_uring *);
int	__wrap_io_uring_submit_and_wait(struct io_uring *, unsigned);
int	__real_clock_gettime(clockid_t, struct timespec *);
int	__wrap_clock_gettime(clockid_t, struct timespec *);

static unsigned
roll(void)
{
	return (unsigned)rand_r(&inj.seed) % 100;
}

/* Make some fresh completions short or -EAGAIN, as a kernel may. */
static void
edit_completions(struct io_uring *ring)
{
	struct io_uring_cqe	*cqe;
	unsigned		 head;

	io_uring_for_each_cqe(ring, head, cqe) {
		if (io_uring_cqe_get_data64(cqe) == UINT64_MAX) {	/* a flush */
			if (inj.flush_again > 0 && cqe->res == 0) {
				inj.flush_again--;
				cqe->res = -EAGAIN;
			} else if (inj.flush_fail)
				cqe->res = -EIO;
			continue;
		}
		if (inj.hold_first > 0 && !inj.have_first) {
			inj.have_first = 1;
			inj.first_ud = io_uring_cqe_get_data64(cqe);
		}
		if (inj.hold_first > 0 && cqe->res > 0 &&
		    io_uring_cqe_get_data64(cqe) == inj.first_ud) {
			inj.hold_first--;
			cqe->res = -EAGAIN;
			continue;
		}
		if (cqe->res >= 1024 && roll() < inj.short_pct) {
			/* a multiple of 512: what a device may transfer */
			cqe->res = (cqe->res / 2) & ~511;
			inj.shortened++;
		} else if (cqe->res > 0 && roll() < inj.again_pct) {
			cqe->res = -EAGAIN;
			inj.againd++;
		}
	}
}

static int
refuse(void)
{
	if (roll() >= inj.refuse_pct)
		return 0;
	inj.refused++;
	return roll() < 50 ? -EAGAIN : -EBUSY;
}

int
__wrap_io_uring_submit(struct io_uring *ring)
{
	int	rc = refuse();

	return rc != 0 ? rc : __real_io_uring_submit(ring);
}

/* Is a read or a write among the completions ready? */
static int
data_ready(struct io_uring *ring)
{
	struct io_uring_cqe	*cqe;
	unsigned		 head;

	io_uring_for_each_cqe(ring, head, cqe)
		if (io_uring_cqe_get_data64(cqe) != UINT64_MAX)
			return 1;
	return 0;
}

/*
 * The engine's clock, moved by the slow device. At a queue depth of 1
 * the engine reads CLOCK_MONOTONIC for the I/O it submits just before
 * the wait and for the reap just after it: the reap's read is made to
 * say the submission's time plus the latency chosen, and the clock
 * goes on from there (an offset to the real one, for every thread).
 */
static int64_t			mono_offset;
static __thread uint64_t	mono_last, mono_submit;
static __thread uint64_t	mono_due;	/* the next read: the reap's */

int
__wrap_clock_gettime(clockid_t clk, struct timespec *ts)
{
	int		rc = __real_clock_gettime(clk, ts);
	int64_t		off;
	uint64_t	t;

	if (rc != 0 || clk != CLOCK_MONOTONIC)
		return rc;
	off = __atomic_load_n(&mono_offset, __ATOMIC_RELAXED);
	t = (uint64_t)ts->tv_sec * 1000000000ULL + (uint64_t)ts->tv_nsec +
	    (uint64_t)off;
	if (mono_due != 0) {
		off += (int64_t)(mono_submit + mono_due - t);
		__atomic_store_n(&mono_offset, off, __ATOMIC_RELAXED);
		t = mono_submit + mono_due;
		mono_due = 0;
	}
	mono_last = t;
	ts->tv_sec = (time_t)(t / 1000000000ULL);
	ts->tv_nsec = (long)(t % 1000000000ULL);
	return rc;
}

int
__wrap_io_uring_submit_and_wait(struct io_uring *ring, unsigned wait)
{
	int	rc = refuse();

	if (rc != 0)
		return rc;
	mono_submit = mono_last;
	rc = __real_io_uring_submit_and_wait(ring, wait);
	edit_completions(ring);
	if (inj.slow_us > 0 && data_ready(ring))
		mono_due = (inj.slow_us + (uint64_t)inj.nslow++ *
		    inj.slow_step_us) * 1000;
	if (inj.hold_ms > 0) {
		/* a worker still in the kernel, waiting for more */
		struct timespec	ts = { inj.hold_ms / 1000,
			    (long)(inj.hold_ms % 1000) * 1000000 };

		inj.hold_ms = 0;
		__atomic_store_n(&inj.holding, 1, __ATOMIC_SEQ_CST);
		nanosleep(&ts, NULL);
		__atomic_store_n(&inj.holding, 0, __ATOMIC_SEQ_CST);
	}
	return rc;
}

/* ------------------------------------------------ a small target */

struct tfile {
	char		 path[64];
	int		 fd;
	struct layout	 lay;
	uint64_t	 instance;
};

static void
target_open(struct tfile *t, uint32_t bs, uint64_t span)
{
	char	err[256];

	snprintf(t->path, sizeof(t->path), "/var/tmp/test_engine.XXXXXX");
	t->fd = mkstemp(t->path);
	assert_true(t->fd >= 0);
	assert_int_equal(ftruncate(t->fd, (off_t)span), 0);
	close(t->fd);
	t->fd = open(t->path, O_RDWR | O_DIRECT | O_CLOEXEC);
	assert_true(t->fd >= 0);
	assert_int_equal(layout_init(&t->lay, span, span, bs, 0.25, err,
	    sizeof(err)), 0);
	t->instance = 0x5eed0000ULL + bs;
}

static void
target_close(struct tfile *t)
{
	close(t->fd);
	unlink(t->path);
}

/* A target of nblocks blocks of bs bytes and an engine on it, at qd. */
static struct engine *
target_engine(struct tfile *t, uint32_t bs, uint64_t nblocks, uint32_t qd)
{
	struct engine	*e;
	char		 err[256];

	target_open(t, bs, nblocks * bs);
	e = engine_start(t->fd, "t", NULL, bs, qd, err, sizeof(err));
	assert_non_null(e);
	return e;
}

/* Follow a submitted job to its end; collect its findings' block count. */
static enum job_end
finish(struct engine *e, const struct job *j, uint64_t *bad)
{
	struct engine_stats	st;
	struct finding		f[64];
	enum job_end		end;
	size_t			i, n;
	int			err;
	struct timespec		ts = { 0, 2000000 };

	uint64_t		durable = j->start;

	for (;;) {
		n = engine_poll(e, &st, f, 64);
		for (i = 0; i < n; i++)
			*bad += f[i].nblocks;
		/* never ahead of what completed, never backwards */
		assert_true(st.durable <= st.position);
		assert_true(st.durable >= durable);
		durable = st.durable;
		if (engine_job_done(e, &end, &err))
			break;
		nanosleep(&ts, NULL);
	}
	while ((n = engine_poll(e, &st, f, 64)) > 0)
		for (i = 0; i < n; i++)
			*bad += f[i].nblocks;
	last_st = st;
	last_err = err;
	return end;
}

/* Run one job to its end; collect its findings' block count. */
static enum job_end
run(struct engine *e, const struct job *j, uint64_t *bad)
{
	assert_int_equal(engine_submit(e, j), 0);
	return finish(e, j, bad);
}

static void
job_base(struct job *j, const struct tfile *t, uint32_t qd)
{
	memset(j, 0, sizeof(*j));
	j->lay = t->lay;
	j->queue_depth = qd;
	j->expect.instance = t->instance;
}

/* The verify pass after cycle 1's random write pass. */
static void
verify_job(struct job *j, const struct tfile *t, uint32_t qd)
{
	job_base(j, t, qd);
	j->kind = JOB_VERIFY;
	j->count = t->lay.nblocks;
	j->expect.phase = PHASE_VERIFY;
	j->expect.cycle = 1;
	j->expect.static_done = 1;
	j->expect.written = layout_dynamic_blocks(&t->lay);
	j->expect.pass_random = 1;
}

/* Cycle c's random write pass, of generation c. */
static void
write_pass_job(struct job *j, const struct tfile *t, uint32_t qd, uint64_t c)
{
	job_base(j, t, qd);
	j->kind = JOB_WRITE;
	j->base = t->lay.static_blocks;
	j->count = layout_dynamic_blocks(&t->lay);
	j->generation = c;
	j->expect.phase = PHASE_WRITE;
	j->expect.cycle = c;
	j->expect.static_done = 1;
	j->expect.pass_random = 1;
	layout_pass_perm(&t->lay, t->instance, c, 1, &j->perm);
}

/* Static fill, one random write pass, then a verify pass. */
static uint64_t
cycle(struct engine *e, const struct tfile *t, uint32_t qd)
{
	struct job	j;
	uint64_t	bad = 0, dyn = layout_dynamic_blocks(&t->lay);

	job_base(&j, t, qd);
	j.kind = JOB_WRITE;
	j.count = t->lay.static_blocks;
	perm_init(&j.perm, j.count, 0, 1);
	assert_int_equal(run(e, &j, &bad), JOB_DONE);
	assert_int_equal(last_st.durable, j.count);	/* flushed at the end */

	write_pass_job(&j, t, qd, 1);
	assert_int_equal(run(e, &j, &bad), JOB_DONE);
	assert_int_equal(last_st.durable, dyn);

	verify_job(&j, t, qd);
	assert_int_equal(run(e, &j, &bad), JOB_DONE);
	return bad;
}

/* A cycle on a healthy file finds nothing and counts each byte once. */
static void
one(uint32_t bs, uint32_t qd, uint64_t nblocks)
{
	struct tfile		t;
	struct engine		*e;
	struct engine_stats	st;
	struct finding		f[1];
	uint64_t		bad, n, since;

	e = target_engine(&t, bs, nblocks, qd);
	bad = cycle(e, &t, qd);
	engine_poll(e, &st, f, 0);
	engine_inflight(e, &n, &since);
	engine_free(e);
	target_close(&t);
	assert_int_equal(bad, 0);
	assert_int_equal(st.bytes_written, t.lay.span_bytes);
	assert_int_equal(st.bytes_read, t.lay.span_bytes);
	assert_int_equal(st.blocks_checked, t.lay.nblocks);
	assert_true(st.flushes >= 2);	/* at least one per write job */
	/* every completion's latency, in its direction */
	assert_int_equal(st.lat[LAT_WRITE].count, st.write_ops);
	assert_int_equal(st.lat[LAT_READ].count, st.read_ops);
	assert_int_equal(n, 0);		/* nothing left in flight */
}

static void
matrix(void)
{
	static const uint32_t	bss[] = { 512, 4096, 128 * 1024 };
	static const uint32_t	qds[] = { 1, 32, 1024 };
	size_t			i, k;

	for (i = 0; i < sizeof(bss) / sizeof(bss[0]); i++)
		for (k = 0; k < sizeof(qds) / sizeof(qds[0]); k++)
			one(bss[i], qds[k], bss[i] >= 65536 ? 96 : 2048);
}

static void
test_clean(void **st)
{
	(void)st;
	memset(&inj, 0, sizeof(inj));
	matrix();
}

static void
test_injected(void **st)
{
	(void)st;
	memset(&inj, 0, sizeof(inj));
	inj.seed = 20261130;
	inj.refuse_pct = 10;
	inj.short_pct = 5;
	inj.again_pct = 5;
	matrix();
	print_message("injected: %u refused submissions, %u short and %u "
	    "EAGAIN completions\n", inj.refused, inj.shortened, inj.againd);
	assert_true(inj.refused > 100);
	assert_true(inj.shortened > 100);
	assert_true(inj.againd > 100);
}

/* A planted bad block is found once, exactly, whatever is injected. */
static void
test_planted(void **st)
{
	struct tfile	 t;
	struct engine	*e;
	struct job	 j;
	uint64_t	 bad = 0;
	void		*junk;
	uint32_t	 bs = 4096;

	(void)st;
	memset(&inj, 0, sizeof(inj));
	inj.seed = 7;
	inj.refuse_pct = 10;
	inj.short_pct = 5;
	inj.again_pct = 5;
	e = target_engine(&t, bs, 1024, 64);
	assert_int_equal(cycle(e, &t, 64), 0);
	assert_int_equal(posix_memalign(&junk, 4096, bs), 0);
	memset(junk, 0xa5, bs);
	assert_int_equal(pwrite(t.fd, junk, bs, 700 * (off_t)bs), (ssize_t)bs);
	verify_job(&j, &t, 64);
	assert_int_equal(run(e, &j, &bad), JOB_DONE);
	assert_int_equal(bad, 1);
	free(junk);
	engine_free(e);
	target_close(&t);
}

/* The static area's write job, alone. */
static enum job_end
static_job(struct engine *e, const struct tfile *t, uint64_t *bad)
{
	struct job	j;

	job_base(&j, t, 32);
	j.kind = JOB_WRITE;
	j.count = t->lay.static_blocks;
	perm_init(&j.perm, j.count, 0, 1);
	return run(e, &j, bad);
}

/* A flush that fails fails the job; nothing it covered is durable. */
static void
test_flush_fails(void **st)
{
	struct tfile	 t;
	struct engine	*e;
	uint64_t	 bad = 0;

	(void)st;
	memset(&inj, 0, sizeof(inj));
	inj.flush_fail = 1;
	e = target_engine(&t, 4096, 4096, 32);
	assert_int_equal(static_job(e, &t, &bad), JOB_FAILED);
	assert_int_equal(last_err, EIO);
	assert_int_equal(last_st.flush_err, EIO);
	assert_int_equal(last_st.position, t.lay.static_blocks);
	assert_int_equal(last_st.durable, 0);
	/* the next job starts clean and flushes again */
	inj.flush_fail = 0;
	assert_int_equal(static_job(e, &t, &bad), JOB_DONE);
	assert_int_equal(last_st.flush_err, 0);
	assert_int_equal(last_st.durable, t.lay.static_blocks);
	engine_free(e);
	target_close(&t);
}

/* A flush the kernel answers with -EAGAIN is sent again. */
static void
test_flush_again(void **st)
{
	struct tfile	 t;
	struct engine	*e;
	uint64_t	 bad = 0;

	(void)st;
	memset(&inj, 0, sizeof(inj));
	inj.flush_again = 3;
	e = target_engine(&t, 4096, 1024, 32);
	assert_int_equal(static_job(e, &t, &bad), JOB_DONE);
	assert_int_equal(inj.flush_again, 0);
	assert_int_equal(last_st.durable, t.lay.static_blocks);
	assert_int_equal(last_st.flushes, 1);	/* one that completed */
	engine_free(e);
	target_close(&t);
}

/*
 * Completions the kernel has posted count as progress for the stall
 * rule before the worker reaps them: a worker waiting for a batch of
 * completions reaps none until the batch is complete.
 */
static void
test_inflight_sees_completions(void **st)
{
	struct tfile	 t;
	struct engine	*e;
	struct job	 j;
	uint64_t	 bad = 0, n, since, now;
	struct timespec	 ts = { 0, 1000000 }, hold = { 0, 200000000 };

	(void)st;
	memset(&inj, 0, sizeof(inj));
	inj.hold_ms = 600;
	e = target_engine(&t, 4096, 1024, 32);
	job_base(&j, &t, 32);
	j.kind = JOB_WRITE;
	j.count = t.lay.static_blocks;
	perm_init(&j.perm, j.count, 0, 1);
	assert_int_equal(engine_submit(e, &j), 0);
	while (!__atomic_load_n(&inj.holding, __ATOMIC_SEQ_CST))
		nanosleep(&ts, NULL);
	nanosleep(&hold, NULL);
	engine_inflight(e, &n, &since);
	now = mono_ns();
	assert_true(n > 0);		/* none of them reaped yet */
	assert_true(now - since < 100000000ULL);
	assert_int_equal(finish(e, &j, &bad), JOB_DONE);
	engine_free(e);
	target_close(&t);
}

/*
 * A write pass's timeline counts the writes that completed, in whatever
 * order: the pass's first write, held back 30 rounds of completions (a
 * millisecond each) while the others go on, does not hold the first
 * step's time until it comes back, nor make the steps after it a jump.
 */
static void
test_timeline_any_order(void **st)
{
	struct tfile	 t;
	struct engine	*e;
	struct timeline	 tl;
	uint64_t	 bad = 0;
	uint32_t	 i;

	(void)st;
	memset(&inj, 0, sizeof(inj));
	inj.hold_first = 30;
	inj.slow_us = 1000;
	e = target_engine(&t, 4096, 1024, 8);
	assert_int_equal(static_job(e, &t, &bad), JOB_DONE);
	assert_int_equal(inj.hold_first, 0);
	assert_int_equal(engine_timeline(e, &tl), 1);
	engine_free(e);
	target_close(&t);
	assert_true(tl_whole(&tl));
	assert_int_equal(tl.step_bytes, 4096);
	for (i = 1; i <= tl.n; i++)
		assert_true(tl.t[i] >= tl.t[i - 1]);
	print_message("first step after %.1f ms, the pass %.1f ms\n",
	    (double)(tl.t[1] - tl.t[0]) / 1e6,
	    (double)(tl.t[tl.n] - tl.t[0]) / 1e6);
	/* the round the others first completed in, not the 30th after */
	assert_true(tl.t[1] - tl.t[0] < 10000000ULL);
}

/* The rates of a tick a second long that ends with snapshot s. */
static void
tick(struct drive *d, const struct engine_stats *s)
{
	d->last = *s;
	d->rates.t = mono_ns() - 1000000000ULL;
	rates_tick(d);
}

/*
 * The p99 (us) the engine reported against the true one of the n
 * latencies given: they grow with each I/O, so the value of rank
 * ceil(0.99 n) is the one given to that I/O. Within 1 %, where a
 * power-of-two bucket said 4096.
 */
static void
assert_p99(double got, uint64_t n)
{
	double	want = inj.slow_us + (n * 99 + 99) / 100 * inj.slow_step_us -
		    inj.slow_step_us;

	assert_int_equal(inj.nslow, n);		/* one I/O per wait */
	print_message("p99 %.0f us, of the I/Os %.0f us\n", got, want);
	assert_true(fabs(got - want) <= want * 0.01);
	inj.nslow = 0;
}

/*
 * A device whose I/Os, one at a time, take 1 ms, 1.02 ms, ... 2.98 ms
 * (the job ends before the periodic flush): the write p99 of the tick
 * is the 99th of them within 1 %; reads of 2, 2.03 ... 4.97 ms likewise
 * in the next tick, from their own histogram, whose sum and max are
 * exact, in a tick without writes.
 */
static void
test_p99_resolution(void **st)
{
	static struct drive	 d;
	struct tfile		 t;
	struct engine		*e;
	struct job		 j;
	uint64_t		 bad = 0;

	(void)st;
	memset(&inj, 0, sizeof(inj));
	e = target_engine(&t, 4096, 400, 1);	/* 100 static blocks */
	job_base(&j, &t, 1);
	j.kind = JOB_WRITE;
	j.count = t.lay.static_blocks;
	perm_init(&j.perm, j.count, 0, 1);
	inj.slow_us = 1000;
	inj.slow_step_us = 20;
	assert_int_equal(run(e, &j, &bad), JOB_DONE);
	/* 1 to 2.98 ms: 100 * 1 ms + 20 us * 4950 */
	assert_int_equal(last_st.lat[LAT_WRITE].sum_ns, 199000000ULL);
	assert_int_equal(last_st.lat[LAT_WRITE].max_ns, 2980000ULL);
	tick(&d, &last_st);
	assert_p99(d.rates.lat_p99_us, j.count);

	job_base(&j, &t, 1);
	j.kind = JOB_VERIFY;
	j.count = t.lay.static_blocks;
	j.expect.phase = PHASE_VERIFY;
	j.expect.cycle = 1;
	j.expect.static_done = 1;
	inj.slow_us = 2000;
	inj.slow_step_us = 30;
	assert_int_equal(run(e, &j, &bad), JOB_DONE);
	assert_int_equal(bad, 0);
	assert_int_equal(last_st.lat[LAT_READ].count, j.count);
	/* 100 reads from 2 to 4.97 ms: 100 * 2 ms + 30 us * 4950 */
	assert_int_equal(last_st.lat[LAT_READ].sum_ns, 348500000ULL);
	assert_int_equal(last_st.lat[LAT_READ].max_ns, 4970000ULL);
	tick(&d, &last_st);
	assert_p99(d.rates.rlat_p99_us, j.count);
	assert_true(d.rates.lat_p99_us == -1);
	inj.slow_us = 0;
	engine_free(e);
	target_close(&t);
}

/* Put a block of generation gen (0: zeros) at dynamic sequence seq. */
static void
plant(const struct tfile *t, const struct perm *pm, uint64_t seq,
    uint64_t gen)
{
	uint32_t	 bs = t->lay.block_size;
	uint64_t	 off = (t->lay.static_blocks + perm_fwd(pm, seq)) * bs;
	void		*buf;

	assert_int_equal(posix_memalign(&buf, 4096, bs), 0);
	memset(buf, 0, bs);
	if (gen != 0)
		blk_encode(buf, bs, t->instance, off, gen, 1);
	assert_int_equal(pwrite(t->fd, buf, bs, (off_t)off), (ssize_t)bs);
	free(buf);
}

/* The verify of a state recorded in cycle 2's write pass at position cut. */
static void
cut_verify(struct job *j, const struct tfile *t, uint64_t cut, int lost)
{
	job_base(j, t, 32);
	j->kind = JOB_VERIFY;
	j->count = t->lay.nblocks;
	j->expect.phase = PHASE_WRITE;
	j->expect.cycle = 2;
	j->expect.position = cut;
	j->expect.written = cut;
	j->expect.static_done = 1;
	j->expect.pass_random = 1;
	j->power_lost = lost;
}

/* Each class's count of the last job run from e0 on. */
static void
class_counts(const struct engine_stats *e0, uint64_t out[BLK_NCLASS])
{
	int	i;

	for (i = 0; i < BLK_NCLASS; i++)
		out[i] = last_st.errors[i] - e0->errors[i];
}

/*
 * After a power loss: a block below the flushed position holding the
 * old generation, or nothing, is lost_flush (stale, unwritten without
 * the power loss); above it, the blocks of the new generation are the
 * unflushed writes kept, the old ones are no finding.
 */
static void
test_power_lost(void **st)
{
	struct tfile		 t;
	struct engine		*e;
	struct engine_stats	 e0;
	struct job		 j;
	struct perm		 pm;
	uint64_t		 bad = 0, n[BLK_NCLASS], dyn, cut = 300;

	(void)st;
	memset(&inj, 0, sizeof(inj));
	e = target_engine(&t, 4096, 1024, 32);
	dyn = layout_dynamic_blocks(&t.lay);
	assert_int_equal(cycle(e, &t, 32), 0);
	/* cycle 2's whole write pass: the drive kept every write */
	write_pass_job(&j, &t, 32, 2);
	pm = j.perm;
	assert_int_equal(run(e, &j, &bad), JOB_DONE);

	e0 = last_st;
	cut_verify(&j, &t, cut, 1);
	assert_int_equal(run(e, &j, &bad), JOB_DONE);
	assert_int_equal(bad, 0);
	assert_int_equal(last_st.unflushed_kept - e0.unflushed_kept,
	    dyn - cut);

	plant(&t, &pm, 10, 1);		/* flushed, then lost: old data */
	plant(&t, &pm, 11, 0);		/* ... or nothing */
	plant(&t, &pm, cut + 5, 1);	/* unflushed, lost: allowed */
	e0 = last_st;
	assert_int_equal(run(e, &j, &bad), JOB_DONE);
	class_counts(&e0, n);
	assert_int_equal(n[BLK_LOST_FLUSH], 2);
	assert_int_equal(n[BLK_STALE] + n[BLK_UNWRITTEN] + n[BLK_CORRUPT], 0);
	assert_int_equal(last_st.unflushed_kept - e0.unflushed_kept,
	    dyn - cut - 1);

	/* a cut at item cut + 100 of an attempt that had written the whole
	 * pass before: only [cut, cut + 100) are this cut's kept writes, the
	 * one planted at cut + 5 (lost) aside */
	e0 = last_st;
	j.kept_bounded = 1;
	j.kept_end = cut + 100;
	assert_int_equal(run(e, &j, &bad), JOB_DONE);
	assert_int_equal(last_st.unflushed_kept - e0.unflushed_kept, 99);
	j.kept_bounded = 0;

	/*
	 * Past the flushed position, generation 1 (cycle 1's, flushed by its
	 * pass) is allowed too: found blank, it was lost (lost_flush). A
	 * block an earlier loss found lost holding the generation expected
	 * there is no new loss: stale or unwritten, as found.
	 */
	plant(&t, &pm, cut + 7, 0);
	e0 = last_st;
	assert_int_equal(run(e, &j, &bad), JOB_DONE);
	class_counts(&e0, n);
	assert_int_equal(n[BLK_LOST_FLUSH], 3);
	lost_add(&j.lost, t.lay.static_blocks + perm_fwd(&pm, 10), 1, 2);
	lost_add(&j.lost, t.lay.static_blocks + perm_fwd(&pm, cut + 7), 1, 1);
	lost_add(&j.lost, t.lay.static_blocks + perm_fwd(&pm, 11), 1, 1);
	e0 = last_st;
	assert_int_equal(run(e, &j, &bad), JOB_DONE);
	class_counts(&e0, n);
	assert_int_equal(n[BLK_LOST_FLUSH], 1);	/* 11: lost holding 1, not 2 */
	assert_int_equal(n[BLK_STALE], 1);
	assert_int_equal(n[BLK_UNWRITTEN], 1);
	memset(&j.lost, 0, sizeof(j.lost));
	plant(&t, &pm, cut + 7, 2);

	e0 = last_st;
	cut_verify(&j, &t, cut, 0);	/* without a power loss: as ever */
	assert_int_equal(run(e, &j, &bad), JOB_DONE);
	class_counts(&e0, n);
	assert_int_equal(n[BLK_STALE], 1);
	assert_int_equal(n[BLK_UNWRITTEN], 1);
	assert_int_equal(n[BLK_LOST_FLUSH], 0);
	assert_int_equal(last_st.unflushed_kept, e0.unflushed_kept);
	engine_free(e);
	target_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_injected),
		cmocka_unit_test(test_planted),
		cmocka_unit_test(test_flush_fails),
		cmocka_unit_test(test_flush_again),
		cmocka_unit_test(test_inflight_sees_completions),
		cmocka_unit_test(test_timeline_any_order),
		cmocka_unit_test(test_p99_resolution),
		cmocka_unit_test(test_power_lost),
	};

	log_init("test_engine", 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
