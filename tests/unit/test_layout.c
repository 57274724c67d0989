/* test_layout.c: layout sizes and what each block must hold when. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "layout.h"

#define INST	0xa11ce5ecc0ffee01ULL
#define BS	4096u
#define NBLK	100u		/* test layout: 25 static, 75 dynamic */

static void
mk_layout(struct layout *l)
{
	char	err[256];

	assert_int_equal(layout_init(l, 1ULL << 30, NBLK * BS, BS, 0.25, err,
	    sizeof(err)), 0);
	assert_int_equal(l->static_blocks, 25);
	assert_int_equal(layout_dynamic_blocks(l), 75);
}

static void
test_init_ok(void **state)
{
	struct layout	l;
	char		err[256];

	(void)state;
	assert_int_equal(layout_init(&l, 10 * BS, 10 * BS, BS, 0.3, err,
	    sizeof(err)), 0);
	assert_int_equal(l.block_size, BS);
	assert_int_equal(l.nblocks, 10);
	assert_int_equal(l.span_bytes, 10 * BS);
	assert_int_equal(l.static_blocks, 3);
	assert_int_equal(layout_dynamic_blocks(&l), 7);
	/* a span that is not a whole number of blocks is rounded down */
	assert_int_equal(layout_init(&l, 1ULL << 30, 10 * BS + 100, BS, 0.0,
	    err, sizeof(err)), 0);
	assert_int_equal(l.nblocks, 10);
	assert_int_equal(l.span_bytes, 10 * BS);
	assert_int_equal(l.static_blocks, 0);
	assert_int_equal(layout_dynamic_blocks(&l), 10);
}

static void
test_init_span_too_big(void **state)
{
	struct layout	l;
	char		err[256] = "";

	(void)state;
	assert_int_equal(layout_init(&l, 1ULL << 30, (1ULL << 30) + BS, BS,
	    0.25, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "larger than the target"));
}

static void
test_init_too_small(void **state)
{
	struct layout	l;
	char		err[256];

	(void)state;
	err[0] = '\0';
	assert_int_equal(layout_init(&l, 1ULL << 30, BS, BS, 0.0, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "too small"));
	assert_int_equal(layout_init(&l, 1ULL << 30, BS - 1, BS, 0.0, err,
	    sizeof(err)), -1);
	assert_int_equal(layout_init(&l, 1ULL << 30, 0, BS, 0.0, err,
	    sizeof(err)), -1);
	/* no dynamic block left */
	assert_int_equal(layout_init(&l, 1ULL << 30, 10 * BS, BS, 1.0, err,
	    sizeof(err)), -1);
	/* two blocks: one static, one dynamic is the minimum */
	assert_int_equal(layout_init(&l, 1ULL << 30, 2 * BS, BS, 0.5, err,
	    sizeof(err)), 0);
	assert_int_equal(l.static_blocks, 1);
}

struct frac_case {
	uint64_t	nblocks;
	double		fraction;
	uint64_t	want;
};

static void
test_static_floor(void **state)
{
	static const struct frac_case cases[] = {
		{ 1000, 0.25, 250 }, { 1001, 0.25, 250 }, { 1003, 0.25, 250 },
		{ 7, 0.5, 3 }, { 12345, 0.1, 1234 }, { 10, 0.95, 9 },
		{ 100, 0.0, 0 }, { 3, 0.33, 0 }, { 1ULL << 30, 0.5, 1ULL << 29 },
	};
	struct layout	l;
	char		err[256];
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(layout_init(&l, UINT64_MAX, cases[i].nblocks *
		    512, 512, cases[i].fraction, err, sizeof(err)), 0);
		assert_int_equal(l.nblocks, cases[i].nblocks);
		assert_int_equal(l.static_blocks, cases[i].want);
	}
}

static void
test_phase_names(void **state)
{
	int	p;

	(void)state;
	for (p = PHASE_STATIC; p <= PHASE_NONE; p++)
		assert_int_equal(phase_from_name(phase_name(p)), p);
	assert_string_equal(phase_name(PHASE_WRITE), "write");
	assert_string_equal(phase_name(PHASE_VERIFY), "verify");
	assert_string_equal(phase_name((enum phase)42), "unknown");
	assert_int_equal(phase_from_name("bogus"), -1);
}

static void
test_pass_perm(void **state)
{
	struct layout	l;
	struct perm	seq, r1, r1b, r2;
	uint64_t	i, same12 = 0, ident = 0;

	(void)state;
	mk_layout(&l);
	layout_pass_perm(&l, INST, 1, 0, &seq);
	layout_pass_perm(&l, INST, 1, 1, &r1);
	layout_pass_perm(&l, INST, 1, 1, &r1b);
	layout_pass_perm(&l, INST, 2, 1, &r2);
	assert_int_equal(r1.n, 75);
	for (i = 0; i < 75; i++) {
		assert_int_equal(perm_fwd(&seq, i), i);
		assert_int_equal(perm_fwd(&r1, i), perm_fwd(&r1b, i));
		same12 += perm_fwd(&r1, i) == perm_fwd(&r2, i);
		ident += perm_fwd(&r1, i) == i;
	}
	assert_true(same12 < 10);	/* each cycle its own order */
	assert_true(ident < 10);
}

/* The expectation of one block. */
static struct blk_expect
expect(const struct layout *l, const struct progress *pr,
    const struct perm *pass, uint64_t block)
{
	struct blk_expect	e;

	memset(&e, 0x55, sizeof(e));
	layout_expect(l, pr, pass, block, &e);
	return e;
}

static void
assert_exp(struct blk_expect e, int has_gen, uint64_t lo, uint64_t hi,
    int unw)
{
	if (e.has_gen != has_gen || e.allow_unwritten != unw ||
	    (has_gen && (e.gen_lo != lo || e.gen_hi != hi)))
		fail_msg("got has_gen=%d [%llu,%llu] unwritten=%d, want "
		    "has_gen=%d [%llu,%llu] unwritten=%d", e.has_gen,
		    (unsigned long long)e.gen_lo, (unsigned long long)e.gen_hi,
		    e.allow_unwritten, has_gen, (unsigned long long)lo,
		    (unsigned long long)hi, unw);
}

/* Anything allowed: only where this run has not written the block yet. */
static void
assert_any(struct blk_expect e, int any)
{
	if (e.allow_any != any)
		fail_msg("allow_any %d, want %d", e.allow_any, any);
}

/* Block number of the dynamic block written seq-th in this pass. */
static uint64_t
block_of(const struct layout *l, const struct perm *pass, uint64_t seq)
{
	return l->static_blocks + perm_fwd(pass, seq);
}

static void
test_static_blocks(void **state)
{
	struct layout	l;
	struct progress	pr = { INST, PHASE_STATIC, 0, 10, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0 };
	struct perm	pass;
	uint64_t	b;

	(void)state;
	mk_layout(&l);
	layout_pass_perm(&l, INST, 0, 1, &pass);
	for (b = 0; b < l.static_blocks; b++) {
		assert_exp(expect(&l, &pr, &pass, b), 1, 0, 0, b >= 10);
		/* not reached yet: what a used device held, whatever it is */
		assert_any(expect(&l, &pr, &pass, b), b >= 10);
	}
	pr.static_done = 1;
	pr.phase = PHASE_WRITE;
	pr.cycle = 1;
	layout_pass_perm(&l, INST, 1, 1, &pass);
	for (b = 0; b < l.static_blocks; b++)
		assert_exp(expect(&l, &pr, &pass, b), 1, 0, 0, 0);
	pr.phase = PHASE_TRIM;
	pr.trimmed_bytes = l.span_bytes;
	for (b = 0; b < l.static_blocks; b++)
		assert_exp(expect(&l, &pr, &pass, b), 1, 0, 0, 0);
}

/* Before the static pass finished and outside it: 0 or nothing. */
static void
test_static_not_done_other_phase(void **state)
{
	struct layout	l;
	struct progress	pr = { INST, PHASE_VERIFY, 1, 50, 75, 0, 0, 0, 1, 0, 0, 0, 0, 0 };
	struct perm	pass;

	(void)state;
	mk_layout(&l);
	layout_pass_perm(&l, INST, 1, 1, &pass);
	assert_exp(expect(&l, &pr, &pass, 0), 1, 0, 0, 1);
	assert_exp(expect(&l, &pr, &pass, 24), 1, 0, 0, 1);
	assert_any(expect(&l, &pr, &pass, 24), 1);
}

static void
test_dynamic_cycle0(void **state)
{
	struct layout	l;
	struct progress	pr = { INST, PHASE_STATIC, 0, 3, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0 };
	struct perm	pass;
	uint64_t	b;

	(void)state;
	mk_layout(&l);
	layout_pass_perm(&l, INST, 0, 1, &pass);
	for (b = l.static_blocks; b < l.nblocks; b++) {
		assert_exp(expect(&l, &pr, &pass, b), 0, 0, 0, 1);
		assert_any(expect(&l, &pr, &pass, b), 1);
	}
}

/* Write phase of cycle c at `pos`: before it exactly c, after it c or before. */
static void
check_write_phase(uint64_t c, int prev_trimmed, int random, uint64_t pos)
{
	struct layout	l;
	struct progress	pr = { INST, PHASE_WRITE, c, pos, pos, 0, 1,
			    prev_trimmed, random, 0, 0, 0, 0, 0 };
	struct perm	pass;
	uint64_t	s, b;

	mk_layout(&l);
	layout_pass_perm(&l, INST, c, random, &pass);
	for (s = 0; s < layout_dynamic_blocks(&l); s++) {
		b = block_of(&l, &pass, s);
		if (s < pos)
			assert_exp(expect(&l, &pr, &pass, b), 1, c, c, 0);
		else if (c == 1)
			assert_exp(expect(&l, &pr, &pass, b), 1, 1, 1, 1);
		else
			assert_exp(expect(&l, &pr, &pass, b), 1, c - 1, c,
			    prev_trimmed);
		/* only cycle 1's blocks not reached hold the unknown */
		assert_any(expect(&l, &pr, &pass, b), c == 1 && s >= pos);
	}
}

static void
test_write_phase(void **state)
{
	static const uint64_t pos[] = { 0, 1, 37, 74, 75 };
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(pos) / sizeof(pos[0]); i++) {
		check_write_phase(1, 0, 1, pos[i]);
		check_write_phase(1, 0, 0, pos[i]);
		check_write_phase(2, 0, 1, pos[i]);
		check_write_phase(7, 0, 1, pos[i]);
		check_write_phase(7, 1, 1, pos[i]);
		check_write_phase(7, 1, 0, pos[i]);
	}
}

/* In a random pass the exact blocks are those the permutation reached. */
static void
test_write_phase_uses_permutation(void **state)
{
	struct layout	l;
	struct progress	pr = { INST, PHASE_WRITE, 3, 30, 30, 0, 1, 0, 1, 0, 0, 0, 0, 0 };
	struct perm	pass;
	struct blk_expect e;
	uint64_t	b, exact = 0, rel_below = 0;

	(void)state;
	mk_layout(&l);
	layout_pass_perm(&l, INST, 3, 1, &pass);
	for (b = l.static_blocks; b < l.nblocks; b++) {
		e = expect(&l, &pr, &pass, b);
		if (e.gen_lo == 3) {
			exact++;
			rel_below += b - l.static_blocks < 30;
		}
	}
	assert_int_equal(exact, 30);
	assert_true(rel_below < 30);	/* not the first 30 in block order */
}

/* Verify phase: c where the pass wrote, the state before where it did not. */
static void
check_verify_phase(uint64_t c, int prev_trimmed, uint64_t written)
{
	struct layout	l;
	struct progress	pr = { INST, PHASE_VERIFY, c, 10, written, 0, 1,
			    prev_trimmed, 1, 0, 0, 0, 0, 0 };
	struct perm	pass;
	uint64_t	s, b;

	mk_layout(&l);
	layout_pass_perm(&l, INST, c, 1, &pass);
	for (s = 0; s < layout_dynamic_blocks(&l); s++) {
		b = block_of(&l, &pass, s);
		if (s < written)
			assert_exp(expect(&l, &pr, &pass, b), 1, c, c, 0);
		else if (c == 1)
			assert_exp(expect(&l, &pr, &pass, b), 0, 0, 0, 1);
		else
			assert_exp(expect(&l, &pr, &pass, b), 1, c - 1, c - 1,
			    prev_trimmed);
	}
}

static void
test_verify_phase(void **state)
{
	(void)state;
	check_verify_phase(1, 0, 75);
	check_verify_phase(4, 0, 75);
	check_verify_phase(4, 1, 75);
	check_verify_phase(1, 0, 40);
	check_verify_phase(4, 0, 40);
	check_verify_phase(4, 1, 40);
	check_verify_phase(4, 1, 0);
}

/* Trim: every dynamic block may be zeros; idle: those below trimmed_bytes. */
static void
check_trim(enum phase ph, uint64_t trimmed_bytes)
{
	struct layout	l;
	struct progress	pr = { INST, ph, 6, 0, 75, trimmed_bytes, 1, 0, 1, 0, 0, 0, 0,
	    0 };
	struct perm	pass;
	uint64_t	b, rel;

	mk_layout(&l);
	layout_pass_perm(&l, INST, 6, 1, &pass);
	for (b = l.static_blocks; b < l.nblocks; b++) {
		rel = b - l.static_blocks;
		/* in the trim phase any block may already be discarded */
		assert_exp(expect(&l, &pr, &pass, b), 1, 6, 6,
		    ph == PHASE_TRIM || rel * BS < trimmed_bytes);
	}
}

static void
test_trim_idle(void **state)
{
	(void)state;
	check_trim(PHASE_TRIM, 0);
	check_trim(PHASE_TRIM, 10 * BS);
	check_trim(PHASE_TRIM, 10 * BS + 1);
	check_trim(PHASE_TRIM, 75ULL * BS);
	check_trim(PHASE_IDLE, 75ULL * BS);
	check_trim(PHASE_IDLE, 0);
}

/* Trimmed bytes count only in the trim and idle phases. */
static void
test_trimmed_bytes_other_phases(void **state)
{
	struct layout	l;
	struct progress	pr = { INST, PHASE_VERIFY, 6, 0, 75, 75ULL * BS, 1,
			    0, 1, 0, 0, 0, 0, 0 };
	struct perm	pass;

	(void)state;
	mk_layout(&l);
	layout_pass_perm(&l, INST, 6, 1, &pass);
	assert_exp(expect(&l, &pr, &pass, 30), 1, 6, 6, 0);
	pr.phase = PHASE_WRITE;
	pr.position = 75;
	assert_exp(expect(&l, &pr, &pass, 30), 1, 6, 6, 0);
}

/*
 * A small simulated disk run through the schedule: at every step every
 * block, checked against its expectation, must be ok.
 */
#define SBS	512u
#define SNBLK	40u

struct sim {
	struct layout	 l;
	struct progress	 pr;
	struct perm	 pass;
	unsigned char	*disk;
};

static void
sim_check_all(const struct sim *sm)
{
	struct blk_expect	e;
	struct blk_result	r;
	uint64_t		b;

	for (b = 0; b < sm->l.nblocks; b++) {
		layout_expect(&sm->l, &sm->pr, &sm->pass, b, &e);
		if (blk_check(sm->disk + b * SBS, SBS, INST, b * SBS, &e, &r) !=
		    BLK_OK)
			fail_msg("phase %s cycle %llu pos %llu: block %llu is "
			    "%s (found gen %llu)", phase_name(sm->pr.phase),
			    (unsigned long long)sm->pr.cycle,
			    (unsigned long long)sm->pr.position,
			    (unsigned long long)b, blk_class_name(r.cls),
			    (unsigned long long)r.found_gen);
	}
}

static void
sim_put(struct sim *sm, uint64_t b, uint64_t gen)
{
	blk_encode(sm->disk + b * SBS, SBS, INST, b * SBS, gen, 1);
}

static void
sim_static(struct sim *sm)
{
	uint64_t	b;

	sm->pr.phase = PHASE_STATIC;
	for (b = 0; b < sm->l.static_blocks; b++) {
		sim_check_all(sm);
		sim_put(sm, b, 0);	/* in flight: position not yet moved */
		sim_check_all(sm);
		sm->pr.position = b + 1;
	}
	sm->pr.static_done = 1;
	sim_check_all(sm);
}

/* Write pass of cycle c, stopping after `upto` blocks. */
static void
sim_write(struct sim *sm, uint64_t c, uint64_t upto)
{
	uint64_t	s;

	sm->pr.phase = PHASE_WRITE;
	sm->pr.cycle = c;
	sm->pr.position = sm->pr.written = sm->pr.trimmed_bytes = 0;
	layout_pass_perm(&sm->l, INST, c, sm->pr.pass_random, &sm->pass);
	for (s = 0; s < upto; s++) {
		sim_check_all(sm);
		sim_put(sm, block_of(&sm->l, &sm->pass, s), c);
		sim_check_all(sm);
		sm->pr.position = sm->pr.written = s + 1;
	}
	sm->pr.phase = PHASE_VERIFY;
	sm->pr.position = 0;
	sim_check_all(sm);
}

/* Discard the dynamic area; the device returns zeros or the old data. */
static void
sim_trim(struct sim *sm, int zeros)
{
	uint64_t	rel, b;

	sm->pr.phase = PHASE_TRIM;
	for (rel = 0; rel < layout_dynamic_blocks(&sm->l); rel++) {
		b = sm->l.static_blocks + rel;
		sim_check_all(sm);
		sm->pr.trimmed_bytes += SBS;
		if (zeros)
			memset(sm->disk + b * SBS, 0, SBS);
		sim_check_all(sm);
	}
	sm->pr.phase = PHASE_IDLE;
	sim_check_all(sm);
	sm->pr.prev_trimmed = 1;
}

static void
sim_init(struct sim *sm, int random)
{
	char	err[256];

	memset(sm, 0, sizeof(*sm));
	assert_int_equal(layout_init(&sm->l, 1ULL << 20, SNBLK * SBS, SBS,
	    0.25, err, sizeof(err)), 0);
	sm->disk = calloc(SNBLK, SBS);
	assert_non_null(sm->disk);
	sm->pr.instance = INST;
	sm->pr.pass_random = random;
	layout_pass_perm(&sm->l, INST, 0, random, &sm->pass);
}

static void
sim_run(int random)
{
	struct sim	sm;
	uint64_t	d;

	sim_init(&sm, random);
	d = layout_dynamic_blocks(&sm.l);
	sim_check_all(&sm);
	sim_static(&sm);
	sim_write(&sm, 1, d);
	sim_write(&sm, 2, d);
	sim_trim(&sm, 1);
	sim_write(&sm, 3, d);
	sim_trim(&sm, 0);
	sim_write(&sm, 4, d);
	sm.pr.prev_trimmed = 0;
	sim_write(&sm, 5, d / 2);	/* the pass ended early */
	free(sm.disk);
}

static void
test_simulated_schedule(void **state)
{
	(void)state;
	sim_run(1);
	sim_run(0);
}

/* The same simulation catches a stale and a misdirected block. */
static void
test_simulated_faults(void **state)
{
	struct blk_expect	e;
	struct blk_result	r;
	struct sim		sm;
	uint64_t		b;

	(void)state;
	sim_init(&sm, 1);
	sim_static(&sm);
	sim_write(&sm, 1, layout_dynamic_blocks(&sm.l));
	sim_write(&sm, 2, layout_dynamic_blocks(&sm.l));
	b = SNBLK - 1;
	sim_put(&sm, b, 1);		/* a lost write: old data */
	layout_expect(&sm.l, &sm.pr, &sm.pass, b, &e);
	assert_int_equal(blk_check(sm.disk + b * SBS, SBS, INST, b * SBS, &e,
	    &r), BLK_STALE);
	memcpy(sm.disk + b * SBS, sm.disk + (b - 1) * SBS, SBS);
	assert_int_equal(blk_check(sm.disk + b * SBS, SBS, INST, b * SBS, &e,
	    &r), BLK_MISDIRECTED);
	memset(sm.disk + b * SBS, 0, SBS);
	assert_int_equal(blk_check(sm.disk + b * SBS, SBS, INST, b * SBS, &e,
	    &r), BLK_UNWRITTEN);
	free(sm.disk);
}

/*
 * A checkpoint's region may hold its probes' units, and only the region:
 * the blocks around it keep the cycle's expectation alone.
 */
static void
test_probe_region(void **state)
{
	struct layout	l;
	struct progress	pr = { INST, PHASE_CHECKPOINT, 2, 0, 75, 0, 1, 0, 0,
			    30 * BS, 10 * BS, 512, 99, 0 };
	struct perm	pass;
	struct blk_expect e;
	uint64_t	b;

	(void)state;
	mk_layout(&l);
	layout_pass_perm(&l, INST, 2, 0, &pass);
	for (b = 0; b < l.nblocks; b++) {
		e = expect(&l, &pr, &pass, b);
		if (b >= 30 && b < 40) {
			assert_int_equal(e.probe_unit, 512);
			assert_int_equal(e.probe_gen, 99);
		} else
			assert_int_equal(e.probe_unit, 0);
		/* the cycle's data is allowed everywhere (a rewrite's) */
		assert_int_equal(e.gen_hi, b < 25 ? 0 : 2);
		assert_int_equal(e.allow_unwritten, 0);
	}
	/* a full checkpoint's TRIM: blank units in the region only */
	pr.probe_trimmed = 1;
	for (b = 0; b < l.nblocks; b++)
		assert_int_equal(expect(&l, &pr, &pass, b).allow_unwritten,
		    b >= 30 && b < 40);
	pr.probe_trimmed = 0;
	pr.probe_len = 0;		/* the checkpoint's rewrite is durable */
	for (b = 0; b < l.nblocks; b++)
		assert_int_equal(expect(&l, &pr, &pass, b).probe_unit, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_ok),
		cmocka_unit_test(test_init_span_too_big),
		cmocka_unit_test(test_init_too_small),
		cmocka_unit_test(test_static_floor),
		cmocka_unit_test(test_phase_names),
		cmocka_unit_test(test_pass_perm),
		cmocka_unit_test(test_static_blocks),
		cmocka_unit_test(test_static_not_done_other_phase),
		cmocka_unit_test(test_dynamic_cycle0),
		cmocka_unit_test(test_write_phase),
		cmocka_unit_test(test_write_phase_uses_permutation),
		cmocka_unit_test(test_verify_phase),
		cmocka_unit_test(test_trim_idle),
		cmocka_unit_test(test_trimmed_bytes_other_phases),
		cmocka_unit_test(test_simulated_schedule),
		cmocka_unit_test(test_simulated_faults),
		cmocka_unit_test(test_probe_region),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
