/*
 * test_sim_model.c: the simulated drive's model gives the answers it
 * claims. Profiles here have zero latency and overhead, so a request's
 * time is its bytes at the speed in force, worked out by hand: the cache
 * runs at its speed for exactly its size (one level or two), then the
 * native speed; a 600p-like cache stalls for exactly the fold it tells;
 * a dynamic cache is its share of the free space, none on a full drive
 * and whole again after TRIM; idle folds it back; sequential writes
 * amplify by 1, random ones on a full drive by more, and TRIM restores
 * the clean speed; reading heats the drive to its throttle at the time
 * the cooling law gives; worn blocks go bad at the offsets the model
 * tells and nowhere else, then the drive turns read-only, then gone; a
 * power cut loses exactly the unflushed writes (and, lying, the last
 * flushed ones), never bytes a newer durable write or a trim covers, and
 * tells every other byte written as durable once; the same seed gives the same records; the profiles
 * load, and bad keys are refused.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"
#include "profile.h"

#define MIB	(1024ULL * 1024)
#define T0	1000000000ULL	/* power-on time of every model here */

/* The truth records a model wrote. */
struct rec {
	char	**line;
	size_t	  n;
};

static void
record(void *arg, const char *json)
{
	struct rec	*r = arg;

	r->line = realloc(r->line, (r->n + 1) * sizeof(*r->line));
	assert_non_null(r->line);
	r->line[r->n] = strdup(json);
	assert_non_null(r->line[r->n++]);
}

static void
rec_free(struct rec *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		free(r->line[i]);
	free(r->line);
	memset(r, 0, sizeof(*r));
}

/* The k-th record (from 0) of an event, or NULL. */
static const char *
event(const struct rec *r, const char *name, size_t k)
{
	char	key[64];
	size_t	i;

	snprintf(key, sizeof(key), "\"event\":\"%s\"", name);
	for (i = 0; i < r->n; i++)
		if (strstr(r->line[i], key) != NULL && k-- == 0)
			return r->line[i];
	return NULL;
}

static size_t
count(const struct rec *r, const char *name)
{
	size_t	k = 0;

	while (event(r, name, k) != NULL)
		k++;
	return k;
}

/* A number field of a record. */
static double
num(const char *line, const char *field)
{
	char		 key[64];
	const char	*p;

	assert_non_null(line);
	snprintf(key, sizeof(key), "\"%s\":", field);
	p = strstr(line, key);
	if (p == NULL)
		fail_msg("no %s in %s", field, line);
	return strtod(p + strlen(key), NULL);
}

static const char BASE[] =
    "[drive]\nname = t\ncapacity = 64M\n"
    "[timing]\nread_lat_us = 0\nwrite_lat_us = 0\noverhead_us = 0\n"
    "read_mbps = 100\nnative_mbps = 50\ngc_mbps = 50\n"
    "[ftl]\npages_per_block = 64\nop_share = 0.07\ngc_free_blocks = 4\n";

/* A model of BASE with `extra` keys (sections repeat fine in INI). */
static struct sim_model *
model(const char *extra, uint64_t seed, struct rec *r)
{
	struct sim_profile	 p;
	char			 text[4096], err[256];
	struct sim_model	*m;

	snprintf(text, sizeof(text), "%s%s", BASE, extra);
	if (sim_profile_parse(text, &p, err, sizeof(err)) != 0)
		fail_msg("profile: %s", err);
	m = sim_model_new(&p, seed, T0, record, r);
	assert_non_null(m);
	return m;
}

/* Bytes at MB/s, in ns, as the model rounds them. */
static uint64_t
at(uint64_t bytes, double mbps)
{
	return (uint64_t)llround((double)bytes * 1000.0 / mbps);
}

/* QD1: a write at *t, the next request at its completion. */
static uint64_t
wr(struct sim_model *m, uint64_t *t, uint64_t off, uint64_t len)
{
	struct sim_io	io;
	uint64_t	took;

	sim_model_write(m, *t, off, len, &io);
	assert_int_equal(io.error, 0);
	took = io.done - *t;
	*t = io.done;
	return took;
}

static uint64_t
rd(struct sim_model *m, uint64_t *t, uint64_t off, uint64_t len, int *err)
{
	struct sim_io	io;
	uint64_t	took;

	sim_model_read(m, *t, off, len, &io);
	*err = io.error;
	took = io.done - *t;
	*t = io.done;
	return took;
}

/* A fixed 4 MiB cache at 200 MB/s: 4 MiB fast, then native 50 MB/s. */
static void
test_cache_fixed(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[slc]\nmode = fixed\nbytes = 4M\n"
				    "mbps = 200\nlevel2_mbps = 200\n", 1, &r);
	uint64_t		 t = T0, i;

	(void)state;
	for (i = 0; i < 4; i++)
		assert_int_equal(wr(m, &t, i * MIB, MIB), at(MIB, 200));
	for (; i < 8; i++)
		assert_int_equal(wr(m, &t, i * MIB, MIB), at(MIB, 50));
	assert_int_equal(num(event(&r, "cache", 0), "bytes"), 4 * MIB);
	assert_int_equal(num(event(&r, "cache_full", 0), "host_bytes"),
	    4 * MIB);
	assert_int_equal(num(event(&r, "cache_full", 0), "t_ns"),
	    T0 + 4 * at(MIB, 200));
	assert_null(event(&r, "cache_full", 1));
	sim_model_free(m);
	rec_free(&r);
}

/*
 * A quarter of the free space (QLC: all of it in SLC mode), its first
 * half at 200 MB/s and its second at 100 (the SM2258XT's shape): 8 + 8
 * MiB, then native, with the cache folded behind the direct writes (48
 * MiB of QLC writes fold 16 MiB: all of it, as the drive fills). Full,
 * the drive has no free space, so at the next pass there is no cache;
 * after TRIM of everything the whole cache is back.
 */
static void
test_cache_free_share(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[slc]\nmode = free_share\n"
				    "free_share = 0.25\nbits_per_cell = 4\n"
				    "mbps = 200\n"
				    "level1_share = 0.5\nlevel2_mbps = 100\n"
				    "idle_delay_ms = 100\nidle_fold_mbps = 1000\n",
				    1, &r);
	uint64_t		 t = T0, i;
	struct sim_counters	 c;
	struct sim_io		 io;

	(void)state;
	for (i = 0; i < 64; i++) {
		uint64_t took = wr(m, &t, i * MIB, MIB);

		assert_int_equal(took, at(MIB, i < 8 ? 200 : i < 16 ? 100 : 50));
	}
	assert_int_equal(num(event(&r, "cache", 0), "bytes"), 16 * MIB);
	assert_int_equal(num(event(&r, "cache", 0), "level1_bytes"), 8 * MIB);
	/* NAND: 16 MiB in SLC, 48 MiB in QLC, 16 MiB folded */
	sim_model_counters(m, t, &c);
	assert_int_equal(c.nand_written_bytes, 80 * MIB);
	assert_null(event(&r, "cache", 1));
	t += 2 * T0;		/* idle: nothing left to fold */
	assert_int_equal(wr(m, &t, 0, MIB), at(MIB, 50));
	assert_null(event(&r, "idle_fold", 0));
	assert_int_equal(num(event(&r, "cache", 1), "bytes"), 0);
	sim_model_trim(m, t, 0, 64 * MIB, &io);
	assert_int_equal(io.error, 0);
	assert_int_equal(wr(m, &t, 0, MIB), at(MIB, 200));
	assert_int_equal(num(event(&r, "cache", 2), "bytes"), 16 * MIB);
	sim_model_free(m);
	rec_free(&r);
}

/*
 * The 600p's gusts: a full cache folds a quarter of itself (1 MiB) at
 * 10 MB/s with host writes stalled, then takes 1 MiB at cache speed.
 */
static void
test_fold_gusts(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[slc]\nmode = fixed\nbytes = 4M\n"
				    "mbps = 200\nlevel2_mbps = 200\n"
				    "post_cache = fold\nfold_share = 0.25\n"
				    "fold_mbps = 10\n", 1, &r);
	uint64_t		 t = T0, i, before, stall = at(MIB, 10);
	const char		*f;

	(void)state;
	for (i = 0; i < 4; i++)
		wr(m, &t, i * MIB, MIB);
	for (i = 0; i < 6; i++) {
		before = t;
		assert_int_equal(wr(m, &t, (4 + i) * MIB, MIB),
		    stall + at(MIB, 200));
		f = event(&r, "fold", i);
		/* nothing completes during the stall: speed zero */
		assert_int_equal(num(f, "t_ns"), before);
		assert_int_equal(num(f, "end_ns"), before + stall);
		assert_int_equal(num(f, "stall_ns"), stall);
		assert_int_equal(num(f, "freed_bytes"), MIB);
	}
	assert_int_equal(count(&r, "cache_full"), 1);
	sim_model_free(m);
	rec_free(&r);
}

/* A tiny deterministic generator for the tests' random offsets. */
static uint32_t
lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

static double
wa_now(struct sim_model *m, uint64_t t, uint64_t host0, uint64_t nand0)
{
	struct sim_counters	c;

	sim_model_counters(m, t, &c);
	return (double)(c.nand_written_bytes - nand0) /
	    (double)(c.host_written_bytes - host0);
}

/*
 * A flush ends the round under way: the writes after it (a benchmark's
 * run after a fill, say) start their own round at their first write, so
 * that the model's rounds are the host's. The round before is told whole.
 */
static void
test_round_after_flush(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[ftl]\nround_ms = 50\n", 1, &r);
	struct sim_io		 io;
	uint64_t		 t = T0, i, t1;
	const char		*after = NULL;

	(void)state;
	for (i = 0; i < 4; i++)		/* 4 ms, well inside a round */
		wr(m, &t, i * 4096, 4096);
	sim_model_flush(m, t, &io);
	t1 = io.done + 1000000;
	t = t1;
	for (i = 0; i < 1000; i++)	/* 82 ms: a round is told */
		wr(m, &t, (i * 7 % 64) * 4096, 4096);
	assert_non_null(event(&r, "round", 0));
	assert_int_equal(num(event(&r, "round", 0), "host_bytes"), 4 * 4096);
	for (i = 0; (after = event(&r, "round", i)) != NULL; i++)
		if (strstr(after, "\"after\":\"flush\"") != NULL)
			break;
	assert_non_null(after);
	assert_int_equal(num(after, "start_ns"), t1);
	sim_model_free(m);
	rec_free(&r);
}

/*
 * Queued writes (32 in flight, each arriving when the one 32 before it
 * completes) count in the round they complete in: every round after the
 * first runs from the end of the one before, and its IOPS are the pipe's
 * (4 KiB at 50 MB/s), not understated by a queue's worth of time.
 */
static void
test_round_queued(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[ftl]\nround_ms = 50\n", 1, &r);
	struct sim_io		 io;
	uint64_t		 done[32] = { 0 }, i;
	const char		*rd;

	(void)state;
	for (i = 0; i < 4000; i++) {
		sim_model_write(m, i < 32 ? T0 : done[i % 32],
		    (i * 7 % 8192) * 4096, 4096, &io);
		assert_int_equal(io.error, 0);
		done[i % 32] = io.done;
	}
	for (i = 1; (rd = event(&r, "round", i)) != NULL; i++)
		assert_true(fabs(num(rd, "iops") * (double)at(4096, 50) / 1e9 -
		    1) < 0.005);
	assert_true(i > 3);
	sim_model_free(m);
	rec_free(&r);
}

/*
 * No cache: sequential passes amplify by exactly 1; random 4 KiB writes
 * on the full drive make GC relocate (WA well over 1, a "gc" start and a
 * "steady" record), and are slower than clean ones; TRIM of everything
 * gives back the clean speed at once, and the model's round after it
 * says so.
 */
static void
test_wa_and_trim(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[ftl]\nround_ms = 50\n", 1, &r);
	struct sim_counters	 c;
	struct sim_io		 io;
	uint64_t		 t = T0, i, s = 42, took = 0;
	const char		*after;

	(void)state;
	for (i = 0; i < 3 * 64; i++)
		wr(m, &t, (i % 64) * MIB, MIB);
	assert_true(fabs(wa_now(m, t, 0, 0) - 1.0) < 1e-9);
	assert_null(event(&r, "gc", 0));
	sim_model_counters(m, t, &c);
	for (i = 0; i < 4 * 16384; i++)
		took = wr(m, &t, (uint64_t)(lcg(&s) % 16384) * 4096, 4096);
	assert_true(wa_now(m, t, c.host_written_bytes,
	    c.nand_written_bytes) > 2.0);
	assert_true(took > at(4096, 50));
	assert_string_equal(event(&r, "gc", 0) ? "start" : "", "start");
	assert_non_null(event(&r, "steady", 0));
	assert_true(num(event(&r, "steady", 0), "iops") <
	    1e9 / (double)at(4096, 50));
	assert_true(num(event(&r, "steady", 0), "wa") > 2.0);
	sim_model_trim(m, t, 0, 64 * MIB, &io);
	t = io.done;
	for (i = 0; i < 1000; i++)
		assert_int_equal(wr(m, &t, (uint64_t)(lcg(&s) % 16384) * 4096,
		    4096), at(4096, 50));
	/* the model's own round after the TRIM: the clean IOPS */
	for (i = 0; (after = event(&r, "round", i)) != NULL; i++)
		if (strstr(after, "\"after\":\"trim\"") != NULL)
			break;
	assert_non_null(after);
	assert_true(fabs(num(after, "iops") * (double)at(4096, 50) / 1e9 - 1) <
	    1e-6);
	assert_non_null(strstr(event(&r, "round", 0), "\"after\":\"start\""));
	sim_model_free(m);
	rec_free(&r);
}

/*
 * The 600p's TRIM: on a drive dirtied by random writes, GC deferred
 * behind the cache lengthens the fold stalls; after TRIM of everything
 * a stall is the fold's own time again.
 */
static void
test_fold_trim(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[slc]\nmode = fixed\nbytes = 4M\n"
				    "mbps = 200\nlevel2_mbps = 200\n"
				    "post_cache = fold\nfold_share = 0.25\n"
				    "fold_mbps = 10\n", 1, &r);
	uint64_t		 t = T0, i, s = 5, clean = 256 * at(4096, 10);
	size_t			 k;
	struct sim_io		 io;

	(void)state;
	for (i = 0; i < 64; i++)
		wr(m, &t, i * MIB, MIB);
	for (i = 0; i < 2 * 16384; i++)
		wr(m, &t, (uint64_t)(lcg(&s) % 16384) * 4096, 4096);
	k = count(&r, "fold");
	for (i = 0; i < 5 * 256; i++)
		wr(m, &t, (uint64_t)(lcg(&s) % 16384) * 4096, 4096);
	assert_true(count(&r, "fold") > k);
	assert_true(num(event(&r, "fold", count(&r, "fold") - 1),
	    "stall_ns") > clean);
	sim_model_trim(m, t, 0, 64 * MIB, &io);
	t = io.done;
	k = count(&r, "fold");
	for (i = 0; i < 5; i++)
		wr(m, &t, i * MIB, MIB);
	assert_int_equal(count(&r, "fold"), k + 1);
	assert_int_equal(num(event(&r, "fold", k), "stall_ns"), clean);
	sim_model_free(m);
	rec_free(&r);
}

/* Idle time folds a full fixed cache back; writes run at its speed again. */
static void
test_idle_fold(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[slc]\nmode = fixed\nbytes = 4M\n"
				    "mbps = 200\nlevel2_mbps = 200\n"
				    "idle_delay_ms = 500\nidle_fold_mbps = 20\n",
				    1, &r);
	uint64_t		 t = T0, i, busy;
	const char		*f;

	(void)state;
	for (i = 0; i < 5; i++)
		wr(m, &t, i * MIB, MIB);
	busy = t;
	/* half the fold's time: 2 MiB of the 4 back */
	t += 500000000ULL + at(2 * MIB, 20);
	assert_int_equal(wr(m, &t, 5 * MIB, MIB), at(MIB, 200));
	assert_int_equal(wr(m, &t, 6 * MIB, MIB), at(MIB, 200));
	f = event(&r, "idle_fold", 0);
	assert_int_equal(num(f, "folded_bytes"), 2 * MIB);
	assert_int_equal(num(f, "start_ns"), busy + 500000000ULL);
	assert_int_equal(num(f, "t_ns"), busy + 500000000ULL + at(2 * MIB, 20));
	assert_int_equal(wr(m, &t, 7 * MIB, MIB), at(MIB, 50));
	sim_model_free(m);
	rec_free(&r);
}

/* Reading heats the drive to tmt1 when 40 + A (1 - e^(-t/tau)) is 60. */
static void
test_throttle(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[thermal]\nidle_c = 40\n"
				    "per_gib_c = 100\ncool_tau_s = 10\n"
				    "tmt1_c = 60\ntmt1_factor = 0.5\n"
				    "tmt2_c = 200\n", 1, &r);
	struct sim_counters	 c;
	uint64_t		 t = T0, took = 0;
	double			 rate = 100 * 100e6 / 1073741824.0, want;
	int			 err, i;

	(void)state;
	for (i = 0; i < 4000; i++)
		took = rd(m, &t, (uint64_t)(i % 64) * MIB, MIB, &err);
	want = -10 * log(1 - 20 / (rate * 10));
	assert_true(fabs((num(event(&r, "throttle", 0), "t_ns") - T0) / 1e9 -
	    want) < 0.01 * want);
	assert_int_equal(num(event(&r, "throttle", 0), "level"), 1);
	assert_int_equal(took, at(MIB, 50));
	sim_model_counters(m, t, &c);
	assert_int_equal(c.thermal_transitions[0], 1);
	assert_true(c.thermal_seconds[0] > 0);
	/* the reads began at T0, in one run: one "reads" record, the first */
	assert_int_equal(count(&r, "reads"), 1);
	assert_int_equal(num(event(&r, "reads", 0), "t_ns"), T0);
	assert_int_equal(num(event(&r, "reads", 0), "since_read_ns"), 0);
	t += 2000000000ULL;	/* a pause of 2 s: another run */
	rd(m, &t, 0, 4096, &err);
	assert_int_equal(count(&r, "reads"), 2);
	assert_true(num(event(&r, "reads", 1), "since_read_ns") >= 2e9);
	sim_model_free(m);
	rec_free(&r);
}

/* Apply the "bad" records from record k on to the test's own map. */
static size_t
mark_bad(const struct rec *r, size_t k, uint8_t *bad)
{
	const char	*b;
	uint64_t	 p;

	for (; (b = event(r, "bad", k)) != NULL; k++)
		for (p = (uint64_t)num(b, "off") / 4096;
		    p < (uint64_t)(num(b, "off") + num(b, "len")) / 4096; p++)
			bad[p] = 1;
	return k;
}

/*
 * A drive whose blocks die at about 5 erases: 4 KiB writes until it turns
 * read-only. After each write, the pages the records call bad (less the
 * ones rewritten since) fail with EIO, all others read; then writes
 * fail with EROFS, and gone_after_ms later everything with ENODEV.
 */
static void
test_bad_readonly_gone(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[drive]\ncapacity = 16M\n"
				    "[ftl]\nop_share = 0.25\n"
				    "[wear]\nrated_pe = 5\ndeath_pe = 5\n"
				    "death_spread = 0.2\ngone_after_ms = 1000\n",
				    3, &r);
	static uint8_t		 bad[4096];
	struct sim_counters	 c;
	struct sim_io		 io;
	uint64_t		 t = T0, n = 0, pg, s = 7;
	size_t			 k = 0;
	int			 seen_bad = 0;
	int			 err;

	(void)state;
	memset(bad, 0, sizeof(bad));
	for (;;) {
		pg = n++ < 3 * 4096 ? (n - 1) % 4096 : lcg(&s) % 4096;
		sim_model_write(m, t, pg * 4096, 4096, &io);
		if (io.error == EROFS)
			break;
		assert_int_equal(io.error, 0);
		t = io.done;
		bad[pg] = 0;
		k = mark_bad(&r, k, bad);
		if (n % 512 == 0 || k > 0)
			for (pg = 0; pg < 4096; pg++) {
				rd(m, &t, pg * 4096, 4096, &err);
				assert_int_equal(err, bad[pg] ? EIO : 0);
			}
		if (k > 0 && !seen_bad) {	/* errors, spare left: not degraded */
			sim_model_counters(m, t, &c);
			assert_true(c.media_errors > 0);
			assert_true(c.available_spare > 0);
			assert_false(c.critical_warning & 4);
			seen_bad = 1;
		}
		assert_true(n < 1000000);
	}
	assert_true(k > 0);
	assert_non_null(event(&r, "readonly", 0));
	sim_model_counters(m, t, &c);
	assert_int_equal(c.life, SIM_LIFE_READONLY);
	assert_int_equal(c.available_spare, 0);
	assert_true(c.media_errors > 0);
	assert_true(c.critical_warning & 8);
	assert_true(c.critical_warning & 4);	/* the spare is spent */
	t += 1000000000ULL;
	sim_model_read(m, t, 0, 4096, &io);
	assert_int_equal(io.error, ENODEV);
	assert_int_equal(num(event(&r, "gone", 0), "host_written_bytes"),
	    c.host_written_bytes);
	assert_int_equal(num(event(&r, "gone", 0), "t_ns"),
	    num(event(&r, "readonly", 0), "t_ns") + 1e9);
	sim_model_free(m);
	rec_free(&r);
}

/* A cut at t, power back at t + 1 us; while off, requests fail. */
static void
off_on(struct sim_model *m, uint64_t t, struct sim_range **lost, size_t *n)
{
	struct sim_io	io;

	assert_int_equal(sim_model_power_off(m, t, lost, n), 0);
	sim_model_read(m, t + 500, 0, 4096, &io);
	assert_int_equal(io.error, ENODEV);
	sim_model_power_on(m, t + 1000);
}

/*
 * A cut loses the writes since the last flush (one that continues the
 * one before counts with it), no more; with cache_bytes only the newest
 * that much; a lying drive also the last K flushed requests.
 */
static void
test_power_loss(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("", 1, &r);
	struct sim_range	*lost;
	struct sim_counters	 c;
	struct sim_io		 io;
	uint64_t		 t = T0;
	size_t			 n;

	(void)state;
	wr(m, &t, 0, MIB);
	sim_model_flush(m, t, &io);
	wr(m, &t, 8 * MIB, 4096);
	wr(m, &t, 8 * MIB + 4096, 8192);
	wr(m, &t, 20 * MIB, 4096);
	off_on(m, t, &lost, &n);
	assert_int_equal(n, 2);
	assert_int_equal(lost[0].off, 8 * MIB);
	assert_int_equal(lost[0].len, 12288);
	assert_int_equal(lost[1].off, 20 * MIB);
	assert_int_equal(lost[1].len, 4096);
	free(lost);
	assert_non_null(strstr(event(&r, "power_off", 0),
	    "\"lost\":[{\"off\":8388608,\"len\":12288,\"flushed\":false}"));
	sim_model_counters(m, t + 2000, &c);
	assert_int_equal(c.unsafe_shutdowns, 1);
	assert_int_equal(c.power_cycles, 2);
	sim_model_free(m);
	rec_free(&r);

	m = model("[power]\ncache_bytes = 1M\nlie_flushed = 2\n", 1, &r);
	t = T0;
	wr(m, &t, 0, 4096);
	wr(m, &t, 4 * MIB, 4096);
	wr(m, &t, 8 * MIB, 4096);
	sim_model_flush(m, t, &io);
	wr(m, &t, 12 * MIB, MIB);
	wr(m, &t, 16 * MIB, MIB / 2);
	off_on(m, t, &lost, &n);
	assert_int_equal(n, 4);
	assert_int_equal(lost[0].off, 4 * MIB);		/* flushed, lied */
	assert_int_equal(lost[1].off, 8 * MIB);
	assert_int_equal(lost[2].off, 12 * MIB + MIB / 2); /* destaged half */
	assert_int_equal(lost[2].len, MIB / 2);
	assert_int_equal(lost[3].off, 16 * MIB);
	free(lost);
	assert_non_null(strstr(event(&r, "power_off", 0),
	    "{\"off\":4194304,\"len\":4096,\"flushed\":true}"));
	sim_model_free(m);
	rec_free(&r);
}

/*
 * A durable write takes the bytes it covers out of the older losable
 * ones: a lying drive's flushed write overwritten by a write the cache
 * destaged is not lost (the newer data is durable there), and a trim
 * takes its whole pages out of what a cut loses.
 */
static void
test_power_durable_wins(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m;
	struct sim_range	*lost;
	struct sim_io		 io;
	uint64_t		 t = T0;
	size_t			 n;

	(void)state;
	m = model("[power]\ncache_bytes = 1M\nlie_flushed = 2\n", 1, &r);
	wr(m, &t, 0, 4096);			/* X, flushed (lied) */
	sim_model_flush(m, t, &io);
	wr(m, &t, 4 * MIB, 4096);		/* flushed (lied), kept */
	sim_model_flush(m, t, &io);
	wr(m, &t, 0, 2 * MIB);			/* its first MiB destaged */
	wr(m, &t, 16 * MIB, 8192);
	sim_model_trim(m, t, 16 * MIB, 4096, &io);
	assert_int_equal(io.error, 0);
	off_on(m, t, &lost, &n);
	assert_int_equal(n, 3);
	assert_int_equal(lost[0].off, 4 * MIB);
	assert_int_equal(lost[0].flushed, 1);
	/* its newest MiB, less what the next write pushed out */
	assert_int_equal(lost[1].off, MIB + 8192);
	assert_int_equal(lost[1].len, MIB - 8192);
	assert_int_equal(lost[1].flushed, 0);
	assert_int_equal(lost[1].seq_lo, 3);
	assert_int_equal(lost[2].off, 16 * MIB + 4096);
	assert_int_equal(lost[2].len, 4096);
	free(lost);
	assert_non_null(strstr(event(&r, "power_off", 0),
	    "\"lost\":[{\"off\":4194304,\"len\":4096,\"flushed\":true},"
	    "{\"off\":1056768,"));
	sim_model_free(m);
	rec_free(&r);
}

/* What happened to each 4 KiB write: its page and its bytes' fate. */
#define PW_MAX	4096
struct pwtrack {
	uint64_t	page[PW_MAX + 1];
	uint64_t	durable[PW_MAX + 1], lost[PW_MAX + 1];
	uint64_t	nseq;
};

/* The bytes of write s (4 KiB at its page) inside r. */
static uint64_t
pw_in(const struct pwtrack *k, uint64_t s, const struct sim_range *r)
{
	uint64_t	a = k->page[s] * 4096, b = a + 4096;

	if (r->off > a)
		a = r->off;
	if (r->off + r->len < b)
		b = r->off + r->len;
	return a < b ? b - a : 0;
}

static void
pw_durable(void *arg, const struct sim_range *r)
{
	struct pwtrack	*k = arg;
	uint64_t	 s;

	assert_true(r->len > 0 && r->seq_hi <= k->nseq);
	for (s = r->seq_lo; s <= r->seq_hi; s++)
		k->durable[s] += pw_in(k, s, r);
}

/* A cut: every lost write's page has no durable write newer than it. */
static void
pw_cut_check(struct pwtrack *k, const struct sim_range *lost, size_t n)
{
	uint64_t	s, s2;
	size_t		i;

	for (i = 0; i < n; i++)
		for (s = lost[i].seq_lo; s <= lost[i].seq_hi; s++) {
			if (pw_in(k, s, &lost[i]) == 0)
				continue;
			k->lost[s] += pw_in(k, s, &lost[i]);
			for (s2 = s + 1; s2 <= k->nseq; s2++)
				if (k->page[s2] == k->page[s])
					assert_int_equal(k->durable[s2], 0);
		}
}

/*
 * Random 4 KiB writes, flushes, trims and cuts on a small lying drive:
 * every byte of every write is told durable or lost exactly once, and a
 * cut never loses a write older than a durable one on its page.
 */
static void
test_power_losable(void **state)
{
	static struct pwtrack	 k;
	struct rec		 r = { 0 };
	struct sim_model	*m;
	struct sim_range	*lost;
	struct sim_io		 io;
	uint64_t		 t = T0, s = 7, i, x, pg;
	size_t			 n;

	(void)state;
	memset(&k, 0, sizeof(k));
	m = model("[power]\ncache_bytes = 64K\nlie_flushed = 3\n", 1, &r);
	sim_model_on_durable(m, pw_durable, &k);
	for (i = 0; i < PW_MAX; i++) {
		x = lcg(&s) % 100;
		pg = lcg(&s) % 48;
		if (x < 80) {
			assert_int_equal(sim_model_next_seq(m), k.nseq + 1);
			k.page[k.nseq + 1] = pg;
			sim_model_write(m, t, pg * 4096, 4096, &io);
			assert_int_equal(io.seq, ++k.nseq);
		} else if (x < 92)
			sim_model_flush(m, t, &io);
		else if (x < 97)
			sim_model_trim(m, t, pg * 4096, 4096, &io);
		else {
			off_on(m, t, &lost, &n);
			pw_cut_check(&k, lost, n);
			free(lost);
		}
		t += 1000000;
	}
	off_on(m, t, &lost, &n);
	pw_cut_check(&k, lost, n);
	free(lost);
	for (i = 1; i <= k.nseq; i++)
		assert_int_equal(k.durable[i] + k.lost[i], 4096);
	sim_model_free(m);
	rec_free(&r);
}

/* One mixed run of the 600p profile; the sum of its completion times. */
static uint64_t
run_600p(struct rec *r, uint64_t seed)
{
	struct sim_profile	 p;
	struct sim_model	*m;
	struct sim_range	*lost;
	struct sim_io		 io;
	char			 err[256];
	uint64_t		 t = T0, sum = 0, i, s = seed;
	size_t			 n;

	if (sim_profile_load(SIM_PROFILE_DIR "/intel-600p.conf", &p, err,
	    sizeof(err)) != 0)
		fail_msg("%s", err);
	m = sim_model_new(&p, seed, T0, record, r);
	assert_non_null(m);
	for (i = 0; i < 20000; i++) {
		uint64_t off = (uint64_t)(lcg(&s) % 131072) * 4096;

		if (i % 3 == 0)
			sim_model_read(m, t, off, 4096, &io);
		else
			sim_model_write(m, t, off, 4096, &io);
		if (i % 1000 == 999)
			sim_model_flush(m, t, &io);
		sum += io.done;
		t = io.done + (i % 5000 == 0 ? 3000000000ULL : 0);
	}
	assert_int_equal(sim_model_power_off(m, t, &lost, &n), 0);
	free(lost);
	sim_model_free(m);
	return sum;
}

static void
test_determinism(void **state)
{
	struct rec	a = { 0 }, b = { 0 };
	size_t		i;

	(void)state;
	assert_int_equal(run_600p(&a, 9), run_600p(&b, 9));
	assert_int_equal(a.n, b.n);
	for (i = 0; i < a.n; i++)
		assert_string_equal(a.line[i], b.line[i]);
	assert_non_null(event(&a, "start", 0));
	assert_non_null(event(&a, "idle_fold", 0));
	rec_free(&a);
	rec_free(&b);
}

/* Counters as the drive reports them. */
static void
test_counters(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[wear]\nrated_pe = 10\n", 1, &r);
	struct sim_counters	 c;
	uint64_t		 t = T0, i;
	int			 err;

	(void)state;
	for (i = 0; i < 5 * 64; i++)
		wr(m, &t, (i % 64) * MIB, MIB);
	rd(m, &t, 0, MIB, &err);
	sim_model_counters(m, t, &c);
	assert_int_equal(c.host_written_bytes, 5 * 64 * MIB);
	assert_int_equal(c.host_write_cmds, 5 * 64);
	assert_int_equal(c.host_read_bytes, MIB);
	assert_int_equal(c.host_read_cmds, 1);
	assert_int_equal(c.nand_written_bytes, 5 * 64 * MIB);
	assert_int_equal(c.rated_erase_count, 10);
	/* 4 passes' worth of 256 blocks erased over 273: 3.75 each */
	assert_int_equal(c.erase_count_avg, 3);
	assert_int_equal(c.percentage_used, 37);
	assert_int_equal(c.available_spare, 100);
	assert_int_equal(c.power_cycles, 1);
	assert_int_equal(c.life, SIM_LIFE_OK);
	assert_int_equal(sim_model_capacity(m), 64 * MIB);
	sim_model_free(m);
	rec_free(&r);
}

/*
 * Reads slow down with the age of the data (age_read_factor past age_ms)
 * and with wear (1 + read_factor * erases / rated_pe): the whole read, its
 * transfer too (a retry reads again), so that queued reads of aged data
 * run at the fresh speed over the factor, not only a QD1 read.
 */
/* 32 reads of 1 MiB of aged data at once (QD32): the pipe at a third of
 * read_mbps, the last done 32 transfers times 3 after the first began. */
static void
queued_aged(struct sim_model *m, uint64_t t)
{
	struct sim_io	io;
	int		i;

	for (i = 0; i < 32; i++) {
		sim_model_read(m, t, 0, MIB, &io);
		assert_int_equal(io.error, 0);
	}
	assert_int_equal(io.done - t, 32 * 3 * at(MIB, 100) + 3 * 100000);
}

static void
test_read_slowdown(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[timing]\nread_lat_us = 100\n"
				    "[wear]\nage_ms = 1000\nage_read_factor = 3\n"
				    "read_factor = 1\nrated_pe = 4\n", 1, &r);
	struct sim_counters	 c;
	uint64_t		 t = T0, i, fresh, worn;
	int			 err;

	(void)state;
	wr(m, &t, 0, 4096);
	fresh = rd(m, &t, 0, 4096, &err);
	assert_int_equal(fresh, 100000 + at(4096, 100));
	t += 1000000001ULL;
	assert_int_equal(rd(m, &t, 0, 4096, &err), 3 * (100000 + at(4096, 100)));
	queued_aged(m, t);
	for (i = 0; i < 8 * 64; i++)	/* 8 passes: blocks erased 7 times */
		wr(m, &t, (i % 64) * MIB, MIB);
	wr(m, &t, 0, 4096);	/* fresh data on a worn block */
	sim_model_counters(m, t, &c);
	worn = rd(m, &t, 0, 4096, &err);
	assert_true(worn > fresh);
	assert_true(worn <= (100000 + at(4096, 100)) *
	    (1 + c.erase_count_max / 4.0) + 1);
	sim_model_free(m);
	rec_free(&r);
}

/* A profile that returns damaged data: the read succeeds, damage named. */
static void
test_damage_mode(void **state)
{
	struct rec		 r = { 0 };
	struct sim_model	*m = model("[drive]\ncapacity = 16M\n"
				    "[ftl]\nop_share = 0.25\n"
				    "[wear]\ndeath_pe = 2\ndeath_spread = 0\n"
				    "bad_mode = damage\n", 1, &r);
	struct sim_io		 io;
	uint64_t		 t = T0, i, off;
	const char		*b;

	(void)state;
	for (i = 0; i < 4 * 16 && event(&r, "bad", 0) == NULL; i++)
		wr(m, &t, (i % 16) * MIB, MIB);
	b = event(&r, "bad", 0);
	assert_non_null(b);
	off = (uint64_t)num(b, "off");
	/* a read from a page before the range to a page after it */
	sim_model_read(m, t, off >= 4096 ? off - 4096 : off,
	    (uint64_t)num(b, "len") + 8192, &io);
	assert_int_equal(io.error, 0);
	assert_int_equal(io.damage_off, off);
	assert_true(io.damage_len >= (uint64_t)num(b, "len"));
	sim_model_free(m);
	rec_free(&r);
}

static struct sim_model *
shipped(const char *name, struct rec *r, struct sim_profile *p)
{
	char	path[512], err[256];

	snprintf(path, sizeof(path), "%s/%s.conf", SIM_PROFILE_DIR, name);
	if (sim_profile_load(path, p, err, sizeof(err)) != 0)
		fail_msg("%s: %s", path, err);
	return sim_model_new(p, 1, T0, record, r);
}

/*
 * The shipped profiles keep the reviewed shapes: sm2258xt's cache is a
 * third of the clean drive, its first half at full speed; the 600p's is
 * 1/32 of the drive, then gusts with a stall of 4 MiB at 30 MB/s; it
 * throttles after 10 s of QD32 reading.
 */
static void
test_shipped_shapes(void **state)
{
	struct rec		 r = { 0 };
	struct sim_profile	 p;
	struct sim_model	*m = shipped("sm2258xt", &r, &p);
	struct sim_io		 io[32];
	uint64_t		 t = T0, i, s;

	(void)state;
	wr(m, &t, 0, MIB);
	assert_int_equal(num(event(&r, "cache", 0), "bytes"), p.capacity / 3);
	assert_int_equal(num(event(&r, "cache", 0), "level1_bytes"),
	    p.capacity / 6);
	sim_model_free(m);
	rec_free(&r);

	m = shipped("intel-600p", &r, &p);
	t = T0;
	for (i = 0; i < 24; i++)
		wr(m, &t, i * MIB, MIB);
	assert_int_equal(num(event(&r, "cache_full", 0), "host_bytes"),
	    16 * MIB);
	/* the fold's time is counted page by page */
	assert_int_equal(num(event(&r, "fold", 0), "stall_ns"),
	    1024 * at(4096, 30));
	memset(io, 0, sizeof(io));
	for (i = 0; event(&r, "throttle", 0) == NULL && i < 100000; i++) {
		s = io[i % 32].done > t ? io[i % 32].done : t;
		sim_model_read(m, s, (i * 131072) % p.capacity, 131072,
		    &io[i % 32]);
		t = s;
	}
	/* reading began once the writes were done, at most 1 s after T0 */
	s = (uint64_t)num(event(&r, "throttle", 0), "t_ns") - T0;
	assert_true(s > 10 * 1000000000ULL && s < 11500000000ULL);
	sim_model_free(m);
	rec_free(&r);
}

/* short-lived dies within minutes of sequential writing; gone follows. */
static void
test_short_lived(void **state)
{
	struct rec		 r = { 0 };
	struct sim_profile	 p;
	struct sim_model	*m = shipped("short-lived", &r, &p);
	struct sim_io		 io;
	uint64_t		 t = T0, off = 0;

	(void)state;
	for (;;) {
		sim_model_write(m, t, off, 131072, &io);
		if (io.error != 0)
			break;
		t = io.done;
		off = (off + 131072) % p.capacity;
	}
	assert_int_equal(io.error, EROFS);
	assert_true(t - T0 < 180 * 1000000000ULL);
	assert_true(count(&r, "retire") >= 65);
	sim_model_read(m, t + 20 * 1000000000ULL, 0, 4096, &io);
	assert_int_equal(io.error, ENODEV);
	assert_non_null(event(&r, "gone", 0));
	sim_model_free(m);
	rec_free(&r);
}

/* Every shipped profile loads; bad keys and values are refused. */
static void
test_profiles(void **state)
{
	static const char *const names[] = { "intel-600p", "sm2258xt",
	    "sm2258xt-qlc", "crucial-m550", "maxio-noslc", "lying",
	    "short-lived" };
	struct sim_profile	 p;
	char			 path[512], err[256];
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.conf", SIM_PROFILE_DIR,
		    names[i]);
		if (sim_profile_load(path, &p, err, sizeof(err)) != 0)
			fail_msg("%s: %s", path, err);
		assert_string_equal(p.name, names[i]);
	}
	assert_int_equal(sim_profile_parse("[slc]\nmbps = fast\n", &p, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "mbps"));
	assert_int_equal(sim_profile_parse("[slc]\nnope = 1\n", &p, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown key"));
	assert_int_equal(sim_profile_parse("[ftl]\nop_share = 2\n", &p, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "out of range"));
	assert_int_equal(sim_profile_parse("[slc]\nmode = fixed\n", &p, err,
	    sizeof(err)), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_fixed),
		cmocka_unit_test(test_cache_free_share),
		cmocka_unit_test(test_fold_gusts),
		cmocka_unit_test(test_wa_and_trim),
		cmocka_unit_test(test_round_after_flush),
		cmocka_unit_test(test_round_queued),
		cmocka_unit_test(test_fold_trim),
		cmocka_unit_test(test_idle_fold),
		cmocka_unit_test(test_throttle),
		cmocka_unit_test(test_bad_readonly_gone),
		cmocka_unit_test(test_power_loss),
		cmocka_unit_test(test_power_durable_wins),
		cmocka_unit_test(test_power_losable),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_read_slowdown),
		cmocka_unit_test(test_damage_mode),
		cmocka_unit_test(test_shipped_shapes),
		cmocka_unit_test(test_short_lived),
		cmocka_unit_test(test_profiles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
