/*
 * test_probegen.c: the I/O streams of the probes: alignment and bounds on
 * 512 B and 4 KiB devices, probes a device cannot run, determinism, the
 * read share and the block-size split exact within one I/O at every
 * count, the random share, sequential continuity per direction and its
 * wrap, the workers' starts, the JESD219 zones and uniform offsets over
 * 1 M I/Os, and the time 10 M I/Os take (printed, not asserted).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probegen.h"

#define KiB	1024ULL
#define MiB	(1024 * KiB)
#define GiB	(1024 * MiB)
#define BIG	(32 * GiB)	/* a checkpoint region: offsets rarely meet */
#define MANY	1000000u

static void
gen(struct probegen *g, const struct probe *p, uint64_t region,
    uint32_t unit, unsigned worker, uint64_t seed)
{
	char	why[160] = "";

	assert_non_null(p);
	if (probegen_init(g, p, region, unit, worker, seed, why,
	    sizeof(why)) != 0)
		fail_msg("%s: %s", p->id, why);
}

/* A one-worker probe of one size, no zones (for shapes the suite lacks). */
static void
custom(struct probe *p, unsigned read, unsigned random, uint32_t size,
    unsigned workers)
{
	memset(p, 0, sizeof(*p));
	strcpy(p->id, "custom");
	p->read_percent = read;
	p->random_percent = random;
	p->nsplit = 1;
	p->split[0].size = size;
	p->split[0].weight = 100;
	p->queue_depth = 1;
	p->workers = workers;
}

static uint32_t
min_size(const struct probe *p)
{
	uint32_t	m = UINT32_MAX;
	unsigned	i;

	for (i = 0; i < p->nsplit; i++)
		if (p->split[i].size < m)
			m = p->split[i].size;
	return m;
}

static int
in_split(const struct probe *p, uint32_t len)
{
	unsigned	i;

	for (i = 0; i < p->nsplit; i++)
		if (p->split[i].size == len)
			return 1;
	return 0;
}

/* Every probe, every worker, both units: aligned, inside, of its sizes. */
static void
test_bounds_alignment(void **state)
{
	static const uint32_t	units[] = { 512, 4096 };
	const uint64_t		region = GiB + 3 * 4096;
	struct probegen		g;
	struct probe_io		io;
	size_t			i, u;
	unsigned		w, k;
	char			why[160];

	(void)state;
	for (i = 0; i < probe_count(); i++) {
		const struct probe	*p = probe_at(i);

		for (u = 0; u < 2; u++) {
			if (probegen_check(p, region, units[u], why,
			    sizeof(why)) != 0)
				continue;	/* test_not_applicable */
			for (w = 0; w < p->workers; w++) {
				gen(&g, p, region, units[u], w, 7 + i);
				for (k = 0; k < 20000; k++) {
					probegen_next(&g, &io);
					assert_int_equal(io.offset % units[u], 0);
					assert_int_equal(io.length % units[u], 0);
					assert_true(in_split(p, io.length));
					assert_true(io.offset + io.length <=
					    region);
					assert_int_equal(io.is_read,
					    io.is_read & 1);
					if (p->random_percent == 100)
						assert_int_equal(io.offset %
						    min_size(p), 0);
				}
			}
		}
	}
}

static void
test_not_applicable(void **state)
{
	struct probegen	g;
	struct probe	bad;
	size_t		i, na = 0;
	char		why[160];

	(void)state;
	for (i = 0; i < probe_count(); i++) {
		const struct probe	*p = probe_at(i);

		assert_int_equal(probegen_check(p, BIG, 512, why,
		    sizeof(why)), 0);
		if (probegen_check(p, BIG, 4096, why, sizeof(why)) == 0) {
			assert_true(min_size(p) % 4096 == 0);
			continue;
		}
		na++;
		assert_true(p->nsplit > 1 || p->split[0].size < 4096);
		assert_non_null(strstr(why, "logical block size (4096 B)"));
	}
	/* 512 B, 1 KiB, 2 KiB of the four block-size sweeps, and JESD219 */
	assert_int_equal(na, 13);
	assert_int_equal(probegen_check(probe_find("bs-sweep-rand-write-512"),
	    BIG, 4096, why, sizeof(why)), -1);
	assert_string_equal(why, "its block size of 512 B is not a multiple "
	    "of the device's logical block size (4096 B)");
	assert_int_equal(probegen_check(probe_find("jesd219"), BIG, 4096, why,
	    sizeof(why)), -1);

	/* a region smaller than a block, or than the zones need */
	assert_int_equal(probegen_check(probe_find("seq-read-256k-qd32"),
	    128 * KiB, 512, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "smaller than its block size"));
	assert_int_equal(probegen_check(probe_find("jesd219"), 64 * KiB, 512,
	    why, sizeof(why)), -1);
	assert_non_null(strstr(why, "too small for its zones"));
	assert_int_equal(probegen_check(probe_find("jesd219"), 16 * MiB, 512,
	    why, sizeof(why)), 0);

	/* arguments no device has */
	assert_int_equal(probegen_check(probe_find("desktop"), GiB + 512,
	    4096, why, sizeof(why)), -1);
	assert_int_equal(probegen_check(probe_find("desktop"), GiB, 3000,
	    why, sizeof(why)), -1);
	assert_int_equal(probegen_init(&g, probe_find("desktop"), GiB, 512,
	    4, 1, why, sizeof(why)), -1);
	custom(&bad, 50, 50, 4096, 1);
	bad.split[0].weight = 90;
	assert_int_equal(probegen_check(&bad, GiB, 512, why, sizeof(why)), -1);
}

static void
test_determinism(void **state)
{
	const struct probe	*p = probe_find("desktop");
	struct probegen		 a, b;
	struct probe_io		 x, y, first[4][64];
	unsigned		 k, w, v, diff = 0;

	(void)state;
	gen(&a, p, BIG, 512, 2, 42);
	gen(&b, p, BIG, 512, 2, 42);
	for (k = 0; k < 100000; k++) {
		probegen_next(&a, &x);
		probegen_next(&b, &y);
		assert_memory_equal(&x, &y, sizeof(x));
	}
	gen(&a, p, BIG, 512, 2, 42);
	gen(&b, p, BIG, 512, 2, 43);
	for (k = 0; k < 1000; k++) {
		probegen_next(&a, &x);
		probegen_next(&b, &y);
		diff += x.offset != y.offset;
	}
	assert_true(diff > 500);
	for (w = 0; w < 4; w++) {
		gen(&a, p, BIG, 512, w, 42);
		for (k = 0; k < 64; k++)
			probegen_next(&a, &first[w][k]);
	}
	for (w = 0; w < 4; w++)
		for (v = 0; v < w; v++) {
			for (k = 0, diff = 0; k < 64; k++)
				diff += first[w][k].offset != first[v][k].offset;
			assert_true(diff > 32);
		}
}

/* reads * 100 within 100 of n * percent, at every n */
static void
test_read_share_exact(void **state)
{
	static const char *const ids[] = { "mix-read-20", "mix-read-40",
	    "mix-read-60", "mix-read-80", "desktop", "jesd219",
	    "rand-read-4k-qd1", "rand-write-4k-qd1" };
	struct probegen	g;
	struct probe_io	io;
	size_t		i;
	unsigned	w;
	int64_t		n, reads;

	(void)state;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		const struct probe	*p = probe_find(ids[i]);

		for (w = 0; w < p->workers; w++) {
			gen(&g, p, BIG, 512, w, 1000 + i);
			for (n = 1, reads = 0; n <= MANY; n++) {
				probegen_next(&g, &io);
				reads += io.is_read;
				assert_true(llabs(reads * 100 -
				    n * (int64_t)p->read_percent) < 100);
			}
		}
	}
}

/*
 * Each size's count within 1 of its share in each direction, so within 2
 * over both: one count for both directions would be within 1 over both,
 * but the direction's own pattern would then pick the sizes of each (a
 * desktop worker's writes were 4 and 128 KiB, never 64 KiB).
 */
static void
assert_split_exact(const struct probe *p, unsigned worker)
{
	struct probegen	g;
	struct probe_io	io;
	int64_t		n, cnt[2][PROBE_SPLIT_MAX] = { { 0 } }, dn[2] = { 0 };
	unsigned	i, d;

	gen(&g, p, BIG, 512, worker, 99);
	for (n = 1; n <= MANY; n++) {
		probegen_next(&g, &io);
		dn[io.is_read]++;
		for (i = 0; i < p->nsplit; i++)
			if (p->split[i].size == io.length)
				cnt[io.is_read][i]++;
		for (i = 0; i < p->nsplit; i++) {
			int64_t	all = cnt[0][i] + cnt[1][i];

			assert_true(llabs(all * 100 -
			    n * (int64_t)p->split[i].weight) < 200);
			for (d = 0; d < 2; d++)
				assert_true(llabs(cnt[d][i] * 100 -
				    dn[d] * (int64_t)p->split[i].weight) < 100);
		}
	}
}

static void
test_split_exact(void **state)
{
	unsigned	w;

	(void)state;
	for (w = 0; w < 4; w++)
		assert_split_exact(probe_find("desktop"), w);
	assert_split_exact(probe_find("jesd219"), 0);
}

/*
 * The desktop mix's random share, per direction and size (exact within 1
 * in each): an I/O is sequential when it starts where the last one of its
 * direction ended, which a random one does about once in 8 M.
 */
static void
test_random_share(void **state)
{
	const struct probe	*p = probe_find("desktop");
	struct probegen		 g;
	struct probe_io		 io;
	uint64_t		 next[2] = { UINT64_MAX, UINT64_MAX };
	int64_t			 n[2][3] = { { 0 } }, rnd[2][3] = { { 0 } };
	int64_t			 all = 0, allrnd = 0;
	unsigned		 k, s, d;

	(void)state;
	gen(&g, p, BIG, 512, 1, 5);
	for (k = 0; k < MANY; k++) {
		probegen_next(&g, &io);
		d = io.is_read;
		for (s = 0; p->split[s].size != io.length; s++)
			;
		n[d][s]++;
		if (io.offset != next[d] && io.offset != 0)
			rnd[d][s]++;
		next[d] = io.offset + io.length;
	}
	for (d = 0; d < 2; d++)
		for (s = 0; s < 3; s++) {
			/* within 1, plus 1 for a chance meeting */
			assert_true(llabs(rnd[d][s] * 100 - n[d][s] * 75) <
			    200);
			all += n[d][s];
			allrnd += rnd[d][s];
		}
	assert_true(llabs(allrnd * 100 - all * 75) < 6 * 200);
}

/* Sequential: from the end of the last I/O, back to 0 when one would cross. */
static void
test_sequential_wrap(void **state)
{
	const uint64_t	region = MiB + 64 * KiB;	/* 8.5 blocks of 128 KiB */
	struct probegen	g;
	struct probe_io	io;
	unsigned	k;

	(void)state;
	gen(&g, probe_find("seq-write-128k-qd32"), region, 4096, 0, 3);
	for (k = 0; k < 3 * 8; k++) {
		probegen_next(&g, &io);
		assert_int_equal(io.offset, (k % 8) * 128 * KiB);
		assert_int_equal(io.length, 128 * KiB);
		assert_false(io.is_read);
	}
	gen(&g, probe_find("bs-sweep-seq-read-512"), 4 * KiB, 512, 0, 3);
	for (k = 0; k < 20; k++) {
		probegen_next(&g, &io);
		assert_int_equal(io.offset, (k % 8) * 512);
		assert_true(io.is_read);
	}
}

/*
 * Mixed sequential I/O continues per direction, as fio's last_pos[ddir]:
 * the reads read on from the last read, the writes from the last write.
 */
static void
test_sequential_per_direction(void **state)
{
	struct probe	p;
	struct probegen	g;
	struct probe_io	io;
	uint64_t	next[2] = { 0, 0 };
	unsigned	k, reads = 0;

	(void)state;
	custom(&p, 30, 0, 4096, 1);
	gen(&g, &p, GiB, 4096, 0, 11);
	for (k = 0; k < 10000; k++) {
		probegen_next(&g, &io);
		assert_int_equal(io.offset, next[io.is_read]);
		next[io.is_read] += 4096;
		reads += io.is_read;
	}
	assert_true(reads >= 2999 && reads <= 3001);
}

/* Sequential workers start at their share of the region. */
static void
test_worker_starts(void **state)
{
	const uint64_t	region = GiB + 3 * 4096;
	struct probe	p;
	struct probegen	g;
	struct probe_io	io;
	unsigned	w;

	(void)state;
	custom(&p, 100, 0, 128 * KiB, 4);
	for (w = 0; w < 4; w++) {
		gen(&g, &p, region, 4096, w, 1);
		probegen_next(&g, &io);
		assert_int_equal(io.offset,
		    region / 4 * w / (128 * KiB) * (128 * KiB));
		probegen_next(&g, &io);
		assert_int_equal(io.offset,
		    region / 4 * w / (128 * KiB) * (128 * KiB) + 128 * KiB);
	}
}

/* JESD219: 50/30/20 % of the accesses in the first 5 %, next 15 %, rest. */
static void
test_jesd219_zones(void **state)
{
	const struct probe	*p = probe_find("jesd219");
	const uint64_t		 slots = BIG / 512;
	const uint64_t		 b1 = slots * 5 / 100 * 512;
	const uint64_t		 b2 = slots * 20 / 100 * 512;
	struct probegen		 g;
	struct probe_io		 io;
	uint64_t		 in[3] = { 0 };
	double			 pos2 = 0;
	unsigned		 k;

	(void)state;
	gen(&g, p, BIG, 512, 0, 2024);
	for (k = 0; k < MANY; k++) {
		probegen_next(&g, &io);
		if (io.offset < b1)
			in[0]++;
		else if (io.offset < b2)
			in[1]++;
		else {
			in[2]++;
			pos2 += (double)(io.offset - b2) / (double)(BIG - b2);
		}
	}
	printf("jesd219 zones over %u I/Os: %.4f %.4f %.4f\n", MANY,
	    (double)in[0] / MANY, (double)in[1] / MANY, (double)in[2] / MANY);
	/* 6 standard deviations of a share near one half over 1 M draws */
	assert_true(llabs((int64_t)in[0] - 500000) < 3000);
	assert_true(llabs((int64_t)in[1] - 300000) < 3000);
	assert_true(llabs((int64_t)in[2] - 200000) < 3000);
	/* uniform inside its zone: the mean position is the middle */
	pos2 /= (double)in[2];
	assert_true(pos2 > 0.495 && pos2 < 0.505);
}

/* Uniform random offsets: a tenth of the region has a tenth of the I/Os. */
static void
test_uniform(void **state)
{
	struct probegen	g;
	struct probe_io	io;
	uint64_t	bin[10] = { 0 };
	unsigned	k, b;

	(void)state;
	gen(&g, probe_find("rand-read-4k-qd1"), GiB, 4096, 0, 77);
	for (k = 0; k < MANY; k++) {
		probegen_next(&g, &io);
		bin[io.offset * 10 / GiB]++;
	}
	for (b = 0; b < 10; b++)
		assert_true(llabs((int64_t)bin[b] - MANY / 10) < 2000);
}

/* 10 M I/Os of the costliest probes; the figure is printed. */
static void
test_speed(void **state)
{
	static const char *const ids[] = { "jesd219", "desktop",
	    "rand-write-4k-qd32" };
	struct probegen	g;
	struct probe_io	io;
	struct timespec	t0, t1;
	uint64_t	sum = 0;
	unsigned	k;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		gen(&g, probe_find(ids[i]), BIG, 512, 0, 9);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (k = 0; k < 10 * MANY; k++) {
			probegen_next(&g, &io);
			sum += io.offset + io.length + (unsigned)io.is_read;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("probegen %s: 10 M I/Os in %.3f s (checksum %" PRIx64
		    ")\n", ids[i], (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, sum);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds_alignment),
		cmocka_unit_test(test_not_applicable),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_read_share_exact),
		cmocka_unit_test(test_split_exact),
		cmocka_unit_test(test_random_share),
		cmocka_unit_test(test_sequential_wrap),
		cmocka_unit_test(test_sequential_per_direction),
		cmocka_unit_test(test_worker_starts),
		cmocka_unit_test(test_jesd219_zones),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_speed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
