/*
 * test_engine_probe.c: the probe jobs of the I/O worker (engine_probe.c)
 * on a real file (O_DIRECT on the filesystem of /var/tmp, as
 * test_engine): a fill then a check find nothing, cover every unit of the
 * region and touch nothing outside it; write probes (4 KiB and 512 B)
 * leave a region a check finds clean; a read probe's figures (ops, bytes,
 * the histograms, the window, the read share of mixed probes, the ramp
 * left out, the rest that begins the ramp); a corrupt unit and a unit of
 * another generation found at their exact offsets by class; the deadline kept; a region inside the
 * static area refused; the job's buffers given back; on a loop device,
 * a sequential probe's I/Os reach the device unmerged.
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
#include <linux/loop.h>
#include <sys/ioctl.h>

#include <cmocka.h>

#include "clock.h"
#include "engine.h"
#include "log.h"

#define KiB		1024ULL
#define MiB		(1024 * KiB)
#define SPAN		(16 * MiB)
#define STATIC_FRAC	0.25			/* of SPAN: 4 MiB */
#define REG_OFF		(5 * MiB)		/* past the static area */
#define REG_LEN		(8 * MiB)		/* ends 3 MiB before the file */
#define OUTSIDE		0x5a			/* the bytes around the region */
#define GEN		5
#define MS		1000000ULL
#define MAXF		4096

struct tgt {
	char		 path[64];
	int		 fd;		/* O_DIRECT, the engine's */
	int		 pfd;		/* buffered, the test's */
	uint32_t	 unit;
	struct layout	 lay;
	struct engine	*e;
};

/* What one job did. */
struct outcome {
	enum job_end		end;
	int			err;
	uint64_t		wall_ns;	/* submission to its end seen */
	struct engine_stats	before, after;
	struct probe_result	res;
	int			has_res;
	struct finding		f[MAXF];	/* the first MAXF */
	size_t			nf;		/* findings taken */
	uint64_t		bad;		/* units of all findings */
};

static struct outcome	out;

/*
 * The last run's window as long as asked, to a round: the I/O thread
 * closes it at its first round at or past the deadline, so it is never
 * shorter and longer by less than its longest gap between two rounds;
 * the rounds come at least every PROBE_ROUND_NS (+ 20 ms) but for the
 * time the thread waited for a CPU in the window (its runq_ns: a busy
 * host's part, not the engine's).
 */
static void
assert_window(uint64_t ms)
{
	const struct probe_window	*w = &out.res.window;
	uint64_t			 planned = ms * MS;
	uint64_t			 slack = PROBE_ROUND_NS + 20 * MS;

	if (w->runq_ns != PROBE_WAIT_UNKNOWN)
		slack += w->runq_ns;
	if (out.res.window_ns < planned ||
	    out.res.window_ns - planned > w->gap_ns || w->gap_ns >= slack)
		fail_msg("window %.1f ms, asked %llu ms; longest gap between "
		    "rounds %.1f ms, CPU wait %.1f ms",
		    (double)out.res.window_ns / 1e6, (unsigned long long)ms,
		    (double)w->gap_ns / 1e6,
		    (double)(slack - PROBE_ROUND_NS - 20 * MS) / 1e6);
}

/* A file of SPAN bytes of OUTSIDE, and a worker on it. */
static void
tgt_open(struct tgt *t, uint32_t unit)
{
	char		 err[256];
	unsigned char	*b = malloc(MiB);
	uint64_t	 o;

	memset(t, 0, sizeof(*t));
	t->unit = unit;
	snprintf(t->path, sizeof(t->path), "/var/tmp/test_probe.XXXXXX");
	assert_true((t->pfd = mkstemp(t->path)) >= 0);
	memset(b, OUTSIDE, MiB);
	for (o = 0; o < SPAN; o += MiB)
		assert_int_equal(pwrite(t->pfd, b, MiB, (off_t)o), (ssize_t)MiB);
	free(b);
	assert_int_equal(fsync(t->pfd), 0);
	t->fd = open(t->path, O_RDWR | O_DIRECT | O_CLOEXEC);
	assert_true(t->fd >= 0);
	assert_int_equal(layout_init(&t->lay, SPAN, SPAN, 128 * KiB,
	    STATIC_FRAC, err, sizeof(err)), 0);
	assert_true(t->lay.static_blocks * t->lay.block_size <= REG_OFF);
	t->e = engine_start(t->fd, "t", NULL, 128 * KiB, 32, err, sizeof(err));
	assert_non_null(t->e);
}

static void
tgt_close(struct tgt *t)
{
	engine_free(t->e);
	close(t->fd);
	close(t->pfd);
	unlink(t->path);
}

/* A probe job of kind k over the test's region. */
static void
pjob(struct job *j, const struct tgt *t, enum job_kind k)
{
	memset(j, 0, sizeof(*j));
	j->kind = k;
	j->lay = t->lay;
	j->queue_depth = 8;
	j->generation = GEN;
	j->continue_on_error = 1;
	j->expect.instance = 0xfeed0000ULL + t->unit;
	j->pj.region_off = REG_OFF;
	j->pj.region_len = REG_LEN;
	j->pj.unit = t->unit;
	j->pj.gen_lo = j->pj.gen_hi = GEN;
	j->pj.stamp_ns = 1700000000ULL * 1000000000ULL;
	j->pj.seed = 42;
}

/* A run of probe `id` for `ramp_ms` then `ms`. */
static void
rjob(struct job *j, const struct tgt *t, const char *id, uint64_t ramp_ms,
    uint64_t ms)
{
	pjob(j, t, JOB_PROBE_RUN);
	j->pj.probe = probe_find(id);
	assert_non_null(j->pj.probe);
	j->pj.ramp_ns = ramp_ms * MS;
	j->pj.duration_ns = ms * MS;
}

/* Take the findings waiting: all counted, the first MAXF kept. */
static void
take_findings(struct engine *e, struct engine_stats *st)
{
	struct finding	f[256];
	size_t		n, i;

	while ((n = engine_poll(e, st, f, 256)) > 0)
		for (i = 0; i < n; i++) {
			out.bad += f[i].nblocks;
			if (out.nf < MAXF)
				out.f[out.nf] = f[i];
			out.nf++;
		}
}

/* Submit a job, `out` cleared for it; the time it was submitted. */
static uint64_t
start(const struct tgt *t, const struct job *j)
{
	uint64_t	t0;

	memset(&out, 0, sizeof(out));
	engine_poll(t->e, &out.before, NULL, 0);
	t0 = mono_ns();
	assert_int_equal(engine_submit(t->e, j), 0);
	return t0;
}

/* Wait for the job submitted at t0 to end; its outcome in `out`. */
static enum job_end
finish(const struct tgt *t, uint64_t t0)
{
	struct timespec	ts = { 0, 1000000 };

	while (!engine_job_done(t->e, &out.end, &out.err)) {
		take_findings(t->e, &out.after);
		nanosleep(&ts, NULL);
	}
	out.wall_ns = mono_ns() - t0;
	take_findings(t->e, &out.after);
	out.has_res = engine_probe_result(t->e, &out.res) == 0;
	return out.end;
}

/* Run a job to its end; its outcome in `out`. */
static enum job_end
run(const struct tgt *t, const struct job *j)
{
	return finish(t, start(t, j));
}

/* Every unit of the region valid at gen, read back by the test. */
static void
assert_region(const struct tgt *t, uint64_t lo, uint64_t hi)
{
	struct blk_expect	 ex = { .has_gen = 1, .gen_lo = lo, .gen_hi = hi };
	struct blk_result	 r;
	unsigned char		*b = malloc(MiB);
	uint64_t		 o, u;

	for (o = 0; o < REG_LEN; o += MiB) {
		assert_int_equal(pread(t->pfd, b, MiB, (off_t)(REG_OFF + o)),
		    (ssize_t)MiB);
		for (u = 0; u < MiB; u += t->unit)
			assert_int_equal(blk_check(b + u, t->unit,
			    0xfeed0000ULL + t->unit, REG_OFF + o + u, &ex, &r),
			    BLK_OK);
	}
	free(b);
}

/* The bytes before and after the region as the test wrote them. */
static void
assert_outside(const struct tgt *t)
{
	unsigned char	*b = malloc(MiB);
	uint64_t	 o, i;

	for (o = 0; o < SPAN; o += MiB) {
		if (o >= REG_OFF && o < REG_OFF + REG_LEN)
			continue;
		assert_int_equal(pread(t->pfd, b, MiB, (off_t)o), (ssize_t)MiB);
		for (i = 0; i < MiB; i++)
			if (b[i] != OUTSIDE)
				fail_msg("byte %llu written, outside the region",
				    (unsigned long long)(o + i));
	}
	free(b);
}

static void
fill(const struct tgt *t)
{
	struct job	j;

	pjob(&j, t, JOB_PROBE_FILL);
	assert_int_equal(run(t, &j), JOB_DONE);
	assert_int_equal(out.bad, 0);
}

/* A check of the region with generations [lo, hi]. */
static enum job_end
check(const struct tgt *t, uint64_t lo, uint64_t hi)
{
	struct job	j;

	pjob(&j, t, JOB_PROBE_CHECK);
	j.pj.gen_lo = lo;
	j.pj.gen_hi = hi;
	return run(t, &j);
}

/* Fill then check: nothing found, every unit covered, nothing outside. */
static void
test_fill_check(void **st)
{
	static const uint32_t	units[] = { 512, 4096 };
	struct tgt		t;
	size_t			i;

	(void)st;
	for (i = 0; i < 2; i++) {
		tgt_open(&t, units[i]);
		fill(&t);
		assert_true(out.has_res);
		assert_int_equal(out.res.bytes[LAT_WRITE], REG_LEN);
		assert_int_equal(out.after.bytes_written -
		    out.before.bytes_written, REG_LEN);
		assert_int_equal(out.after.probe_bytes_written, REG_LEN);
		assert_region(&t, GEN, GEN);
		assert_outside(&t);
		assert_int_equal(check(&t, GEN, GEN), JOB_DONE);
		assert_int_equal(out.bad, 0);
		assert_int_equal(out.res.units_checked, REG_LEN / units[i]);
		assert_int_equal(out.res.bytes[LAT_READ], REG_LEN);
		assert_int_equal(out.res.ops[LAT_WRITE], 0);
		assert_string_equal(out.res.id, "");
		tgt_close(&t);
	}
}

/* A write probe, then a check: the region holds only valid units. */
static void
write_then_check(uint32_t unit, const char *id, uint32_t size)
{
	struct tgt	t;
	struct job	j;

	tgt_open(&t, unit);
	fill(&t);
	rjob(&j, &t, id, 0, 300);
	j.generation = GEN + 1;
	assert_int_equal(run(&t, &j), JOB_DONE);
	assert_int_equal(out.bad, 0);
	assert_string_equal(out.res.id, id);
	assert_true(out.res.ops[LAT_WRITE] > 100);
	assert_int_equal(out.res.ops[LAT_READ], 0);
	assert_int_equal(out.res.bytes[LAT_WRITE],
	    out.res.ops[LAT_WRITE] * size);
	print_message("%s: %.0f IOPS\n", id, out.res.iops[LAT_WRITE]);
	assert_outside(&t);
	/* some units now carry GEN + 1, the others GEN */
	assert_int_equal(check(&t, GEN, GEN + 1), JOB_DONE);
	assert_int_equal(out.bad, 0);
	assert_region(&t, GEN, GEN + 1);
	/* and the run's writes did land: GEN alone no longer holds */
	assert_int_equal(check(&t, GEN, GEN), JOB_DONE);
	assert_true(out.bad > 0);
	assert_int_equal(out.bad, out.res.errors[BLK_STALE]);
	tgt_close(&t);
}

static void
test_write_4k(void **st)
{
	(void)st;
	write_then_check(4096, "rand-write-4k-qd32", 4096);
}

static void
test_write_512(void **st)
{
	(void)st;
	write_then_check(512, "bs-sweep-rand-write-512", 512);
}

/*
 * A mixed probe whose I/Os overlap (one unit hot in both directions) on
 * a region of 16 units: the reads that meet a write in flight find a
 * valid unit, since both writes of a unit are the same bytes.
 */
static void
test_overlap(void **st)
{
	struct tgt	t;
	struct job	j;

	(void)st;
	tgt_open(&t, 4096);
	fill(&t);
	rjob(&j, &t, "mix-read-60", 0, 200);
	j.pj.region_len = 16 * 4096;
	assert_int_equal(run(&t, &j), JOB_DONE);
	assert_int_equal(out.bad, 0);
	assert_true(out.res.ops[LAT_READ] > 100);
	tgt_close(&t);
}

/*
 * All writes of a unit with one generation in a checkpoint are the same
 * bytes: a write probe at the fill's generation leaves the region as
 * the fill wrote it, byte for byte. (What makes overlapping I/Os
 * harmless, even where a device or the page cache tears a unit.)
 */
static void
test_same_bytes(void **st)
{
	struct tgt	 t;
	struct job	 j;
	unsigned char	*a = malloc(REG_LEN), *b = malloc(REG_LEN);

	(void)st;
	tgt_open(&t, 4096);
	fill(&t);
	assert_int_equal(pread(t.pfd, a, REG_LEN, REG_OFF), (ssize_t)REG_LEN);
	rjob(&j, &t, "rand-write-4k-qd32", 0, 100);
	assert_int_equal(run(&t, &j), JOB_DONE);
	assert_true(out.res.ops[LAT_WRITE] > 100);
	assert_int_equal(pread(t.pfd, b, REG_LEN, REG_OFF), (ssize_t)REG_LEN);
	assert_memory_equal(a, b, REG_LEN);
	free(a);
	free(b);
	tgt_close(&t);
}

/* Reads counted in the window within what the stream makes exact. */
static void
assert_read_share(const struct probe *p)
{
	double		n = (double)(out.res.ops[LAT_READ] +
			    out.res.ops[LAT_WRITE]);
	double		want = n * p->read_percent / 100.0;
	/*
	 * Each worker's stream is within 1 of its share; the window's
	 * completions are its issues but for at most queue_depth at each
	 * end, and the workers' shares add up.
	 */
	double		slack = p->workers * (1.0 + 2.0 * p->queue_depth);

	print_message("%s: %llu reads of %.0f, %.1f expected\n", p->id,
	    (unsigned long long)out.res.ops[LAT_READ], n, want);
	assert_true(fabs((double)out.res.ops[LAT_READ] - want) <= slack);
}

/* A read probe's figures. */
static void
test_read_results(void **st)
{
	struct tgt		 t;
	struct job		 j;
	const struct probe	*p;
	double			 w;

	(void)st;
	tgt_open(&t, 4096);
	fill(&t);
	rjob(&j, &t, "rand-read-4k-qd32", 0, 300);
	assert_int_equal(run(&t, &j), JOB_DONE);
	assert_int_equal(out.bad, 0);
	assert_true(out.res.ops[LAT_READ] > 1000);
	assert_int_equal(out.res.ops[LAT_WRITE], 0);
	assert_int_equal(out.res.bytes[LAT_READ], out.res.ops[LAT_READ] * 4096);
	assert_int_equal(out.res.lat[LAT_READ].count, out.res.ops[LAT_READ]);
	assert_int_equal(out.res.lat[LAT_WRITE].count, 0);
	assert_int_equal(out.res.units_checked, out.after.read_ops -
	    out.before.read_ops);	/* every read checked, drain included */
	assert_window(300);
	w = (double)out.res.ops[LAT_READ] * 1e9 / (double)out.res.window_ns;
	assert_true(fabs(out.res.iops[LAT_READ] - w) < 1e-6 * w);
	assert_true(fabs(out.res.bytes_per_sec[LAT_READ] - w * 4096) <
	    1e-6 * w * 4096);
	print_message("rand-read-4k-qd32: %.0f IOPS, p99 %.1f us\n",
	    out.res.iops[LAT_READ],
	    lathist_percentile(&out.res.lat[LAT_READ], 99) / 1e3);
	/* mixed probes: the read share */
	p = probe_find("mix-read-40");
	rjob(&j, &t, p->id, 0, 200);
	assert_int_equal(run(&t, &j), JOB_DONE);
	assert_int_equal(out.bad, 0);
	assert_read_share(p);
	assert_int_equal(out.res.lat[LAT_WRITE].count, out.res.ops[LAT_WRITE]);
	p = probe_find("desktop");
	rjob(&j, &t, p->id, 0, 200);
	assert_int_equal(run(&t, &j), JOB_DONE);
	assert_int_equal(out.bad, 0);
	assert_read_share(p);
	tgt_close(&t);
}

/*
 * The ramp's completions are not counted: without a ramp, the job's
 * reads are the window's but for the drain (at most the slots in
 * flight); with one as long as the window, those of the ramp are left
 * out. The ramp's first half is a rest without I/O (engine_probe.c), so
 * its reads take half a second against the window's second: a third of
 * all at an even pace. The bounds hold while the two paces differ by up
 * to four times either way (a busy 2-core machine, a sanitized build
 * beside other suites): a tenth of all at least left out, a quarter at
 * least counted; counting the ramp would leave out none.
 */
static void
test_ramp(void **st)
{
	struct tgt	t;
	struct job	j;
	uint64_t	all;

	(void)st;
	tgt_open(&t, 4096);
	fill(&t);
	rjob(&j, &t, "rand-read-4k-qd4", 0, 200);
	assert_int_equal(run(&t, &j), JOB_DONE);
	all = out.after.read_ops - out.before.read_ops;
	assert_true(all - out.res.ops[LAT_READ] <= 4);
	rjob(&j, &t, "rand-read-4k-qd4", 1000, 1000);
	assert_int_equal(run(&t, &j), JOB_DONE);
	all = out.after.read_ops - out.before.read_ops;
	print_message("ramp 1 s + 1 s: %llu of %llu reads counted\n",
	    (unsigned long long)out.res.ops[LAT_READ],
	    (unsigned long long)all);
	assert_true(out.res.ops[LAT_READ] > all / 4);
	assert_true(all - out.res.ops[LAT_READ] >= all / 10);
	assert_int_equal(out.res.lat[LAT_READ].count, out.res.ops[LAT_READ]);
	assert_window(1000);
	tgt_close(&t);
}

/* The reads the engine has published since the job's start. */
static uint64_t
reads_since(const struct tgt *t)
{
	struct engine_stats	st;

	engine_poll(t->e, &st, NULL, 0);
	return st.read_ops - out.before.read_ops;
}

/* Sleep until `ms` after t0. */
static void
sleep_until(uint64_t t0, uint64_t ms)
{
	struct timespec	ts = { 0, 1000000 };

	while (mono_ns() - t0 < ms * MS)
		nanosleep(&ts, NULL);
}

/*
 * A run's ramp begins with a rest without I/O: half the ramp, at most
 * 0.5 s (PROBE_REST_NS). Nothing read 300 ms into a ramp of 1.2 s, reads
 * by 200 ms after the rest; the window as long as asked, the whole as
 * long as the ramp and the window together.
 */
static void
test_rest(void **st)
{
	struct tgt	t;
	struct job	j;
	uint64_t	t0;

	(void)st;
	tgt_open(&t, 4096);
	fill(&t);
	rjob(&j, &t, "rand-read-4k-qd4", 1200, 400);
	t0 = start(&t, &j);
	sleep_until(t0, 300);
	assert_int_equal(reads_since(&t), 0);
	sleep_until(t0, 700);
	assert_true(reads_since(&t) > 0);
	assert_int_equal(finish(&t, t0), JOB_DONE);
	assert_true(out.has_res);
	assert_true(out.res.ops[LAT_READ] > 0);
	assert_window(400);
	assert_true(out.wall_ns >= 1600 * MS && out.wall_ns < 1900 * MS);
	tgt_close(&t);
}

/* Write one unit at `off` of the region as the test chooses. */
static void
plant(const struct tgt *t, uint64_t off, int junk, uint64_t gen)
{
	void	*b;

	assert_int_equal(posix_memalign(&b, 4096, t->unit), 0);
	if (junk)
		memset(b, 0xa5, t->unit);
	else
		blk_encode(b, t->unit, 0xfeed0000ULL + t->unit, REG_OFF + off,
		    gen, 1);
	assert_int_equal(pwrite(t->pfd, b, t->unit, (off_t)(REG_OFF + off)),
	    (ssize_t)t->unit);
	assert_int_equal(fsync(t->pfd), 0);
	free(b);
}

/* The one finding of the last job: class, offset, one unit, expected gen. */
static void
assert_one(enum blk_class cls, uint64_t off, uint32_t unit)
{
	assert_int_equal(out.bad, 1);
	assert_int_equal(out.nf, 1);
	assert_int_equal(out.f[0].cls, cls);
	assert_int_equal(out.f[0].offset, off);
	assert_int_equal(out.f[0].nblocks, 1);
	assert_int_equal(out.f[0].unit, unit);
	assert_int_equal(out.f[0].expected_gen, GEN);
	assert_int_equal(out.res.errors[cls], 1);
	assert_int_equal(out.after.errors[cls] - out.before.errors[cls], 1);
}

/* A corrupt unit: found by check, and by a sequential read probe. */
static void
test_corrupt(void **st)
{
	static const uint32_t	units[] = { 512, 4096 };
	const uint64_t		at = 3 * MiB + 7 * 4096;
	struct tgt		t;
	struct job		j;
	size_t			i, k;

	(void)st;
	for (i = 0; i < 2; i++) {
		tgt_open(&t, units[i]);
		fill(&t);
		plant(&t, at + units[i], 1, 0);
		assert_int_equal(check(&t, GEN, GEN), JOB_DONE);
		assert_one(BLK_CORRUPT, REG_OFF + at + units[i], units[i]);
		/* 128 KiB reads that go round the region at least once */
		rjob(&j, &t, "seq-read-128k-qd32", 0, 300);
		assert_int_equal(run(&t, &j), JOB_DONE);
		assert_true(out.res.bytes[LAT_READ] > REG_LEN);
		assert_true(out.nf >= 1);
		assert_true(out.nf <= MAXF);
		for (k = 0; k < out.nf; k++) {
			assert_int_equal(out.f[k].cls, BLK_CORRUPT);
			assert_int_equal(out.f[k].offset,
			    REG_OFF + at + units[i]);
		}
		tgt_close(&t);
	}
}

/* A unit of a generation outside [lo, hi] is stale; inside, fine. */
static void
test_stale(void **st)
{
	const uint64_t	at = 6 * MiB;
	struct tgt	t;

	(void)st;
	tgt_open(&t, 4096);
	fill(&t);
	plant(&t, at, 0, GEN - 2);
	assert_int_equal(check(&t, GEN, GEN), JOB_DONE);
	assert_one(BLK_STALE, REG_OFF + at, 4096);
	assert_int_equal(out.f[0].res.found_gen, GEN - 2);
	assert_int_equal(check(&t, GEN - 2, GEN), JOB_DONE);
	assert_int_equal(out.bad, 0);
	tgt_close(&t);
}

/*
 * A probe of 0.1 s ramp and 0.2 s measured ends within 0.1 s of its
 * deadline: the drain of a file's I/Os takes microseconds, the test
 * polls every millisecond, and 0.1 s covers a host whose two CPUs other
 * work shares.
 */
static void
test_deadline(void **st)
{
	struct tgt	t;
	struct job	j;

	(void)st;
	tgt_open(&t, 4096);
	fill(&t);
	rjob(&j, &t, "rand-write-4k-qd32", 100, 200);
	assert_int_equal(run(&t, &j), JOB_DONE);
	print_message("0.3 s probe: %.3f s\n", out.wall_ns / 1e9);
	assert_true(out.wall_ns >= 300 * MS);
	assert_true(out.wall_ns < 400 * MS);
	tgt_close(&t);
}

/* A region not given, or reaching into the static area, is refused. */
static void
test_region_refused(void **st)
{
	struct tgt	t;
	struct job	j;

	(void)st;
	tgt_open(&t, 4096);
	pjob(&j, &t, JOB_PROBE_FILL);
	j.pj.region_off = t.lay.static_blocks * t.lay.block_size - 4096;
	assert_int_equal(run(&t, &j), JOB_FAILED);
	assert_int_equal(out.err, EINVAL);
	pjob(&j, &t, JOB_PROBE_FILL);
	j.pj.region_len = 0;
	assert_int_equal(run(&t, &j), JOB_FAILED);
	pjob(&j, &t, JOB_PROBE_FILL);
	j.pj.region_len = SPAN;		/* past the file's end */
	assert_int_equal(run(&t, &j), JOB_FAILED);
	assert_int_equal(out.after.bytes_written, 0);
	assert_outside(&t);
	tgt_close(&t);
}

/* Resident memory (bytes). */
static uint64_t
rss(void)
{
	FILE			*f = fopen("/proc/self/statm", "r");
	unsigned long long	 size = 0, res = 0;

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llu %llu", &size, &res), 2);
	fclose(f);
	return res * (uint64_t)sysconf(_SC_PAGESIZE);
}

/*
 * A probe with the largest buffers (32 x 256 KiB) gives them back: the
 * worker's resident memory after it is what it was before, give or take
 * a little.
 */
static void
test_memory(void **st)
{
	struct tgt	t;
	struct job	j;
	uint64_t	before;

	(void)st;
	tgt_open(&t, 4096);
	fill(&t);
	rjob(&j, &t, "seq-read-256k-qd32", 0, 100);
	assert_int_equal(run(&t, &j), JOB_DONE);	/* pages the code in */
	before = rss();
	assert_int_equal(run(&t, &j), JOB_DONE);
	print_message("resident: %llu KiB before, %llu KiB after\n",
	    (unsigned long long)before / 1024,
	    (unsigned long long)rss() / 1024);
	assert_true(rss() < before + 1 * MiB);
	tgt_close(&t);
}

/* The device's requests and sectors read [0] and written [1] so far. */
static void
dev_stat(const char *sysstat, uint64_t req[2], uint64_t sect[2])
{
	FILE			*f = fopen(sysstat, "r");
	unsigned long long	 v[7];

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%llu %llu %llu %llu %llu %llu %llu", &v[0],
	    &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]), 7);
	fclose(f);
	req[0] = v[0], sect[0] = v[2];
	req[1] = v[4], sect[1] = v[6];
}

/* Probe `id` on the device: each of its I/Os one request of `size`. */
static void
assert_unmerged(const struct tgt *t, const char *sysstat, const char *id,
    int d, uint32_t size)
{
	struct job	j;
	uint64_t	r0[2], s0[2], r1[2], s1[2];

	rjob(&j, t, id, 0, 300);
	j.generation = GEN + 1;	/* a write probe's; reads take either */
	j.pj.gen_hi = GEN + 1;
	dev_stat(sysstat, r0, s0);
	assert_int_equal(run(t, &j), JOB_DONE);
	dev_stat(sysstat, r1, s1);
	assert_int_equal(out.bad, 0);
	print_message("%s: %llu requests of %llu bytes on average\n", id,
	    (unsigned long long)(r1[d] - r0[d]), (unsigned long long)((s1[d] -
	    s0[d]) * 512 / (r1[d] - r0[d] ? r1[d] - r0[d] : 1)));
	assert_true(r1[d] - r0[d] > 100);
	assert_int_equal((s1[d] - s0[d]) * 512, (r1[d] - r0[d]) * size);
}

/*
 * A loop device over `path` (direct I/O, 512 B sectors), its name in dev;
 * its fd, which detaches it when the last one closes (at exit, too, when
 * an assertion ends the test early).
 */
static int
loop_attach(const char *path, char *dev, size_t len)
{
	struct loop_config	c;
	int			ctl, n, lfd, bfd;

	assert_true((ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC)) >= 0);
	assert_true((n = ioctl(ctl, LOOP_CTL_GET_FREE)) >= 0);
	close(ctl);
	snprintf(dev, len, "/dev/loop%d", n);
	assert_true((lfd = open(dev, O_RDWR | O_CLOEXEC)) >= 0);
	assert_true((bfd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC)) >= 0);
	memset(&c, 0, sizeof(c));
	c.fd = (uint32_t)bfd;
	c.block_size = 512;
	c.info.lo_flags = LO_FLAGS_AUTOCLEAR | LO_FLAGS_DIRECT_IO;
	assert_int_equal(ioctl(lfd, LOOP_CONFIGURE, &c), 0);
	close(bfd);
	return lfd;
}

/*
 * A sequential probe's I/Os reach a block device as the probe issued
 * them: the block layer merges contiguous I/Os sent in one submission,
 * and the drive would then see 512 KiB requests for a 128 KiB probe. On a
 * loop device (root only) over the test's file.
 */
static void
test_no_merge(void **st)
{
	struct tgt	 t;
	char		 dev[64], sysstat[96], err[256];
	int		 lfd;

	(void)st;
	if (geteuid() != 0) {
		print_message("a loop device needs root\n");
		skip();
	}
	tgt_open(&t, 512);
	lfd = loop_attach(t.path, dev, sizeof(dev));
	snprintf(sysstat, sizeof(sysstat), "/sys/block/%s/stat",
	    strrchr(dev, '/') + 1);
	engine_free(t.e);
	close(t.fd);
	assert_true((t.fd = open(dev, O_RDWR | O_DIRECT | O_CLOEXEC)) >= 0);
	assert_non_null(t.e = engine_start(t.fd, "t", NULL, 128 * KiB, 32, err,
	    sizeof(err)));
	fill(&t);
	assert_unmerged(&t, sysstat, "seq-read-128k-qd32", 0, 128 * KiB);
	assert_unmerged(&t, sysstat, "seq-write-128k-qd32", 1, 128 * KiB);
	assert_unmerged(&t, sysstat, "bs-sweep-seq-read-4k", 0, 4 * KiB);
	tgt_close(&t);
	close(lfd);	/* the last: the device goes */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_check),
		cmocka_unit_test(test_write_4k),
		cmocka_unit_test(test_write_512),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_same_bytes),
		cmocka_unit_test(test_read_results),
		cmocka_unit_test(test_ramp),
		cmocka_unit_test(test_rest),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_region_refused),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_no_merge),
	};

	log_init("test_engine_probe", 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
