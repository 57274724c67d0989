/*
 * test_probes.c: the quick suite's probe table: every id, in order (the
 * ids are results keys: renaming one fails here), their form and
 * uniqueness, the counts per family, each family's parameters as issue 14
 * states them, no workload twice, the suite's duration and the fio
 * options of a few probes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "probes.h"

#define KiB	1024u

static const char *const golden[] = {
	"seq-read-128k-qd32", "seq-read-256k-qd32",
	"seq-write-128k-qd32", "seq-write-256k-qd32",
	"rand-read-4k-qd1", "rand-read-4k-qd4", "rand-read-4k-qd32",
	"rand-write-4k-qd1", "rand-write-4k-qd4", "rand-write-4k-qd32",
	"qd-sweep-read-4k-qd2", "qd-sweep-read-4k-qd8",
	"qd-sweep-read-4k-qd16",
	"qd-sweep-write-4k-qd2", "qd-sweep-write-4k-qd8",
	"qd-sweep-write-4k-qd16",
	"bs-sweep-seq-read-512", "bs-sweep-seq-read-1k",
	"bs-sweep-seq-read-2k", "bs-sweep-seq-read-4k",
	"bs-sweep-seq-read-8k", "bs-sweep-seq-read-16k",
	"bs-sweep-seq-read-32k", "bs-sweep-seq-read-64k",
	"bs-sweep-seq-read-128k", "bs-sweep-seq-read-256k",
	"bs-sweep-seq-write-512", "bs-sweep-seq-write-1k",
	"bs-sweep-seq-write-2k", "bs-sweep-seq-write-4k",
	"bs-sweep-seq-write-8k", "bs-sweep-seq-write-16k",
	"bs-sweep-seq-write-32k", "bs-sweep-seq-write-64k",
	"bs-sweep-seq-write-128k", "bs-sweep-seq-write-256k",
	"bs-sweep-rand-read-512", "bs-sweep-rand-read-1k",
	"bs-sweep-rand-read-2k", "bs-sweep-rand-read-8k",
	"bs-sweep-rand-read-16k", "bs-sweep-rand-read-32k",
	"bs-sweep-rand-read-64k", "bs-sweep-rand-read-128k",
	"bs-sweep-rand-read-256k",
	"bs-sweep-rand-write-512", "bs-sweep-rand-write-1k",
	"bs-sweep-rand-write-2k", "bs-sweep-rand-write-8k",
	"bs-sweep-rand-write-16k", "bs-sweep-rand-write-32k",
	"bs-sweep-rand-write-64k", "bs-sweep-rand-write-128k",
	"bs-sweep-rand-write-256k",
	"mix-read-20", "mix-read-40", "mix-read-60", "mix-read-80",
	"desktop", "jesd219",
};
#define NGOLDEN	(sizeof(golden) / sizeof(golden[0]))

static void
test_golden_ids(void **state)
{
	size_t	i;

	(void)state;
	assert_int_equal(probe_count(), NGOLDEN);
	for (i = 0; i < NGOLDEN; i++) {
		assert_non_null(probe_at(i));
		assert_string_equal(probe_at(i)->id, golden[i]);
		assert_ptr_equal(probe_find(golden[i]), probe_at(i));
	}
	assert_null(probe_at(NGOLDEN));
	assert_null(probe_find("rand-read-4k-qd64"));
	assert_null(probe_find(""));
}

/* Short kebab-case, unique; every probe titled. */
static void
test_id_form(void **state)
{
	size_t	i, j, n = probe_count();

	(void)state;
	for (i = 0; i < n; i++) {
		const char	*id = probe_at(i)->id;

		assert_true(strlen(id) > 0 && strlen(id) < PROBE_ID_MAX - 1);
		assert_int_equal(strspn(id, "abcdefghijklmnopqrstuvwxyz"
		    "0123456789-"), strlen(id));
		assert_true(id[0] != '-' && id[strlen(id) - 1] != '-');
		assert_null(strstr(id, "--"));
		assert_true(strlen(probe_at(i)->title) > 0);
		for (j = 0; j < i; j++)
			assert_string_not_equal(id, probe_at(j)->id);
	}
}

/* No workload is measured twice: a sweep point reuses its probe. */
static void
test_no_workload_twice(void **state)
{
	size_t	i, j, n = probe_count();

	(void)state;
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			assert_false(probe_same_workload(probe_at(i),
			    probe_at(j)));
}

static void
test_family_counts(void **state)
{
	/* probes each family adds, and the points it has */
	static const size_t	owns[PF_COUNT] = { 4, 6, 6, 38, 4, 1, 1 };
	static const size_t	has[PF_COUNT] = { 4, 6, 12, 40, 6, 1, 1 };
	const struct probe	*pts[64];
	size_t			 f, i, n = probe_count(), count[PF_COUNT] = { 0 };

	(void)state;
	for (i = 0; i < n; i++)
		count[probe_at(i)->family]++;
	for (f = 0; f < PF_COUNT; f++) {
		assert_int_equal(count[f], owns[f]);
		assert_int_equal(probe_family_points(f, pts, 64), has[f]);
	}
	assert_int_equal(probe_family_points(PF_COUNT, pts, 64), 0);
	/* capped copy, full count */
	assert_int_equal(probe_family_points(PF_BS_SWEEP, pts, 3), 40);
	assert_string_equal(pts[2]->id, "bs-sweep-seq-read-2k");
}

/* One worker, one size, no zones: the single-size rows. */
static void
assert_single(const struct probe *p, unsigned read, unsigned random,
    uint32_t size, unsigned qd)
{
	assert_int_equal(p->read_percent, read);
	assert_int_equal(p->random_percent, random);
	assert_int_equal(p->nsplit, 1);
	assert_int_equal(p->split[0].size, size);
	assert_int_equal(p->split[0].weight, 100);
	assert_int_equal(p->queue_depth, qd);
	assert_int_equal(p->workers, 1);
	assert_int_equal(p->nzones, 0);
}

static void
test_seq_rand_rows(void **state)
{
	const struct probe	*pts[16];
	static const unsigned	 qd[] = { 1, 4, 32 };
	size_t			 i;

	(void)state;
	assert_int_equal(probe_family_points(PF_SEQ, pts, 16), 4);
	for (i = 0; i < 4; i++)
		assert_single(pts[i], i < 2 ? 100 : 0, 0,
		    (i % 2 ? 256 : 128) * KiB, 32);
	assert_int_equal(probe_family_points(PF_RAND, pts, 16), 6);
	for (i = 0; i < 6; i++)
		assert_single(pts[i], i < 3 ? 100 : 0, 100, 4 * KiB,
		    qd[i % 3]);
}

static void
test_sweeps(void **state)
{
	const struct probe	*pts[64];
	unsigned		 qd, r;
	uint32_t		 bs;
	size_t			 i = 0, o, d;

	(void)state;
	probe_family_points(PF_QD_SWEEP, pts, 64);
	for (d = 0; d < 2; d++)
		for (qd = 1; qd <= 32; qd *= 2)
			assert_single(pts[i++], d ? 0 : 100, 100, 4 * KiB, qd);
	/* QD1 of the sweep is the random table's row */
	assert_string_equal(pts[0]->id, "rand-read-4k-qd1");

	i = 0;
	probe_family_points(PF_BS_SWEEP, pts, 64);
	for (o = 0; o < 2; o++)
		for (d = 0; d < 2; d++)
			for (bs = 512; bs <= 256 * KiB; bs *= 2)
				assert_single(pts[i++], d ? 0 : 100,
				    o ? 100 : 0, bs, 4);
	assert_int_equal(i, 40);

	i = 0;
	probe_family_points(PF_MIX_SWEEP, pts, 64);
	for (r = 0; r <= 100; r += 20)
		assert_single(pts[i++], r, 100, 4 * KiB, 4);
	assert_string_equal(pts[0]->id, "rand-write-4k-qd4");
	assert_string_equal(pts[5]->id, "rand-read-4k-qd4");
}

static void
test_desktop(void **state)
{
	const struct probe	*p = probe_find("desktop");

	(void)state;
	assert_non_null(p);
	assert_int_equal(p->read_percent, 75);
	assert_int_equal(p->random_percent, 75);
	assert_int_equal(p->nsplit, 3);
	assert_int_equal(p->split[0].size, 4 * KiB);
	assert_int_equal(p->split[0].weight, 55);
	assert_int_equal(p->split[1].size, 64 * KiB);
	assert_int_equal(p->split[1].weight, 25);
	assert_int_equal(p->split[2].size, 128 * KiB);
	assert_int_equal(p->split[2].weight, 20);
	assert_int_equal(p->workers, 4);
	assert_int_equal(p->queue_depth, 1);
	assert_int_equal(p->nzones, 0);
}

static void
test_jesd219(void **state)
{
	static const uint32_t	size[] = { 512, 1024, 1536, 2048, 2560, 3072,
	    3584, 4096, 8192, 16384, 32768, 65536 };
	static const uint32_t	weight[] = { 4, 1, 1, 1, 1, 1, 1, 67, 10, 7,
	    3, 3 };
	const struct probe	*p = probe_find("jesd219");
	size_t			 i;

	(void)state;
	assert_non_null(p);
	assert_int_equal(p->read_percent, 40);
	assert_int_equal(p->random_percent, 100);
	assert_int_equal(p->nsplit, 12);
	for (i = 0; i < 12; i++) {
		assert_int_equal(p->split[i].size, size[i]);
		assert_int_equal(p->split[i].weight, weight[i]);
	}
	assert_int_equal(p->nzones, 3);
	assert_int_equal(p->zones[0].region_percent, 5);
	assert_int_equal(p->zones[0].access_percent, 50);
	assert_int_equal(p->zones[1].region_percent, 15);
	assert_int_equal(p->zones[1].access_percent, 30);
	assert_int_equal(p->zones[2].region_percent, 80);
	assert_int_equal(p->zones[2].access_percent, 20);
}

/* Every split and every zone list is of percentages summing to 100. */
static void
test_shares_sum(void **state)
{
	size_t		i, n = probe_count();
	unsigned	j, w, r, a;

	(void)state;
	for (i = 0; i < n; i++) {
		const struct probe	*p = probe_at(i);

		assert_true(p->nsplit >= 1 && p->nsplit <= PROBE_SPLIT_MAX);
		assert_true(p->read_percent <= 100);
		assert_true(p->random_percent <= 100);
		assert_true(p->queue_depth >= 1 && p->workers >= 1);
		for (j = 0, w = 0; j < p->nsplit; j++)
			w += p->split[j].weight;
		assert_int_equal(w, 100);
		for (j = 0, r = 0, a = 0; j < p->nzones; j++) {
			r += p->zones[j].region_percent;
			a += p->zones[j].access_percent;
		}
		if (p->nzones) {
			assert_int_equal(r, 100);
			assert_int_equal(a, 100);
		}
	}
}

static void
test_suite_seconds(void **state)
{
	(void)state;
	/* 60 probes of 40 s after a 5 s ramp: 45 minutes */
	assert_int_equal(probe_suite_seconds(40, 5), 60 * 45);
	assert_int_equal(probe_suite_seconds(2, 0), 120);
	assert_int_equal(probe_suite_seconds(0, 0), 0);
}

static void
assert_fio(const char *id, const char *want)
{
	char	buf[512];

	assert_int_equal(probe_fio_options(probe_find(id), buf, sizeof(buf)),
	    0);
	assert_string_equal(buf, want);
}

static void
test_fio_options(void **state)
{
	char	small[24];

	(void)state;
	assert_fio("seq-read-128k-qd32",
	    "--rw=read --bs=128k --iodepth=32 --numjobs=1");
	assert_fio("rand-write-4k-qd1",
	    "--rw=randwrite --bs=4k --norandommap --refill_buffers --iodepth=1 --numjobs=1");
	assert_fio("bs-sweep-seq-write-512",
	    "--rw=write --bs=512 --refill_buffers --iodepth=4 --numjobs=1");
	assert_fio("mix-read-60", "--rw=randrw --rwmixread=60 --bs=4k "
	    "--norandommap --refill_buffers --iodepth=4 --numjobs=1");
	assert_fio("desktop", "--rw=randrw --rwmixread=75 "
	    "--percentage_random=75 --bssplit=4k/55:64k/25:128k/20 "
	    "--norandommap --refill_buffers --iodepth=1 --numjobs=4");
	assert_fio("jesd219", "--rw=randrw --rwmixread=40 "
	    "--bssplit=512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:"
	    "16k/7:32k/3:64k/3 --random_distribution=zoned:50/5:30/15:20/80 "
	    "--norandommap --refill_buffers --iodepth=32 --numjobs=1");
	/* too short a buffer: an error, never a cut job */
	assert_int_equal(probe_fio_options(probe_find("jesd219"), small,
	    sizeof(small)), -1);
}

/* How many probes of the table a selection takes. */
static size_t
taken(const char *spec)
{
	size_t	i, n = 0;

	for (i = 0; i < probe_count(); i++)
		n += (size_t)probe_spec_has(spec, probe_at(i));
	return n;
}

/* checkpoint_probes: ids, families (sweeps whole), patterns, "all". */
static void
test_spec(void **state)
{
	const struct probe	*pts[64];
	char			 why[160];
	size_t			 n, i;

	(void)state;
	assert_int_equal(taken(NULL), probe_count());
	assert_int_equal(taken("all"), probe_count());
	assert_int_equal(taken("rand-read-4k-qd1"), 1);
	assert_int_equal(taken("rand-read-4k-qd1, desktop,jesd219"), 3);
	assert_int_equal(taken("rand-read-4k-qd1 rand-read-4k-qd1"), 1);
	/* a family is its points, those an earlier family added included */
	n = probe_family_points(PF_QD_SWEEP, pts, 64);
	assert_int_equal(taken("qd-sweep"), n);
	for (i = 0; i < n; i++)
		assert_true(probe_spec_has("qd-sweep", pts[i]));
	assert_int_equal(taken("seq-*"), 4);
	assert_int_equal(probe_spec_check("rand-*-qd32, mix", why,
	    sizeof(why)), 0);
	assert_int_equal(probe_spec_check("rand-read-4k-qd1, nosuch", why,
	    sizeof(why)), -1);
	assert_non_null(strstr(why, "'nosuch'"));
	assert_int_equal(probe_spec_check(" , ", why, sizeof(why)), -1);
	assert_string_equal(probe_rw(probe_find("rand-read-4k-qd1")),
	    "randread");
	assert_string_equal(probe_rw(probe_find("desktop")), "randrw");
}

/*
 * When a window is void: a gap between two of the I/O thread's rounds
 * beyond PROBE_GAP_MAX_NS (a stop inside the window, its end as well as
 * across it), a suspend over 10 ms; each at its limit holds, and the
 * reason names the cause. What is not void: an overrun while the thread
 * kept coming round (a drive that held an I/O across the deadline: its
 * figure), however long; a CPU wait of any share (a busy host), which
 * probe_window_busy() notes beyond PROBE_BUSY_PERCENT.
 */
static void
test_window_void(void **st)
{
	const uint64_t	s = 1000000000ULL;
	struct probe_window w = { .planned_ns = 40 * s, .wall_ns = 40 * s,
			    .runq_ns = s / 10, .gap_ns = s / 10, .opened = 1 };
	char		why[256] = "";

	(void)st;
	assert_int_equal(probe_window_void(&w, why, sizeof(why)), 0);
	w.gap_ns = 30 * s;		/* stopped from 5 s to 35 s of 40 */
	assert_int_equal(probe_window_void(&w, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "was stopped"));
	assert_non_null(strstr(why, "30.00 s at a stretch"));
	w.gap_ns = PROBE_GAP_MAX_NS;	/* the limit: holds */
	assert_int_equal(probe_window_void(&w, why, sizeof(why)), 0);
	w.gap_ns++;
	assert_int_equal(probe_window_void(&w, why, sizeof(why)), 1);
	w.gap_ns = PROBE_ROUND_NS;	/* a drive that held an I/O 30 s */
	w.planned_ns = 2 * s;
	w.wall_ns = 32 * s;
	assert_int_equal(probe_window_void(&w, why, sizeof(why)), 0);
	w.wall_ns = w.planned_ns;
	w.suspended_ns = PROBE_SUSPEND_MAX_NS;
	assert_int_equal(probe_window_void(&w, why, sizeof(why)), 0);
	w.suspended_ns++;
	assert_int_equal(probe_window_void(&w, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "suspended"));
	w.suspended_ns = 0;
	w.runq_ns = w.wall_ns;		/* waited for a CPU all of it */
	assert_int_equal(probe_window_void(&w, why, sizeof(why)), 0);
}

/* A busy host: a CPU wait beyond PROBE_BUSY_PERCENT of the window. */
static void
test_window_busy(void **st)
{
	const uint64_t	s = 1000000000ULL;
	struct probe_window w = { .planned_ns = 4 * s, .wall_ns = 4 * s,
			    .runq_ns = 0, .gap_ns = s / 10, .opened = 1 };

	(void)st;
	assert_int_equal(probe_window_busy(&w), 0);
	w.runq_ns = 4 * s / 100 * PROBE_BUSY_PERCENT;	/* the limit */
	assert_int_equal(probe_window_busy(&w), 0);
	w.runq_ns++;
	assert_int_equal(probe_window_busy(&w), 1);
	w.opened = 0;			/* no wait measured in the window */
	assert_int_equal(probe_window_busy(&w), 0);
	w.opened = 1;
	w.runq_ns = PROBE_WAIT_UNKNOWN;
	assert_int_equal(probe_window_busy(&w), 0);
}

/*
 * A scripted clock for probe_suspended_ns(): BOOTTIME is MONOTONIC plus
 * the time suspended; `jump` ns pass (the thread preempted) right after
 * the `jump_after`-th read (after every read when negative).
 */
static uint64_t	fake_mono, fake_susp, fake_jump;
static int	fake_reads, fake_jump_after;

static uint64_t
fake_clock(clockid_t c)
{
	uint64_t	v = fake_mono + (c == CLOCK_BOOTTIME ? fake_susp : 0);

	fake_mono += 1000;		/* a read takes 1 us */
	if (++fake_reads == fake_jump_after || fake_jump_after < 0)
		fake_mono += fake_jump;
	return v;
}

/*
 * The time suspended, read by a thread preempted between its clock
 * reads: a 20 ms wait is no suspend; after a real one of 30 ms the
 * figure is that, whichever read the preemption follows.
 */
static void
test_suspended_read(void **st)
{
	int	after;

	(void)st;
	for (after = 1; after <= 3; after++) {
		fake_mono = 5000000000ULL;
		fake_susp = 7000000ULL;
		fake_reads = 0;
		fake_jump = 20000000ULL;
		fake_jump_after = after;
		assert_true(probe_suspended_ns(fake_clock) <= fake_susp);
		assert_true(probe_suspended_ns(fake_clock) + 10000 >=
		    fake_susp);
		fake_reads = 0;
		fake_susp += 30000000ULL;
		assert_true(probe_suspended_ns(fake_clock) <= fake_susp);
		assert_true(probe_suspended_ns(fake_clock) + 10000 >=
		    fake_susp);
	}
	/* preempted after every read: the figure errs by a pair's spread */
	fake_susp = 30000000ULL;
	fake_jump = 200000ULL;
	fake_jump_after = -1;
	assert_true(probe_suspended_ns(fake_clock) <= fake_susp);
	assert_true(probe_suspended_ns(fake_clock) + 2 * 201000 >= fake_susp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_ids),
		cmocka_unit_test(test_id_form),
		cmocka_unit_test(test_no_workload_twice),
		cmocka_unit_test(test_family_counts),
		cmocka_unit_test(test_seq_rand_rows),
		cmocka_unit_test(test_sweeps),
		cmocka_unit_test(test_desktop),
		cmocka_unit_test(test_jesd219),
		cmocka_unit_test(test_shares_sum),
		cmocka_unit_test(test_suite_seconds),
		cmocka_unit_test(test_fio_options),
		cmocka_unit_test(test_spec),
		cmocka_unit_test(test_window_void),
		cmocka_unit_test(test_window_busy),
		cmocka_unit_test(test_suspended_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
