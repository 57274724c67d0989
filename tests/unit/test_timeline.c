/*
 * test_timeline.c: a pass's timeline has whole steps of whole blocks, at
 * most TL_STEPS; notes its crossings at the time of the round that made
 * them, several in one round included; stops at the last whole step; a
 * resumed pass begins at the next boundary and is not whole; a pass cut
 * short is not whole; an empty pass has no steps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "timeline.h"

static struct timeline	tl;

static void
test_steps_of_blocks(void **unused)
{
	(void)unused;
	/* 10 000 blocks of 4 KiB: 5 blocks a step, 2000 steps */
	tl_begin(&tl, 10000ULL * 4096, 4096, 0, 100);
	assert_int_equal(tl.step_bytes, 5 * 4096);
	assert_int_equal(tl.nsteps, 2000);
	/* 10 001 blocks: 6 a step, 1666 whole steps, a tail of 5 blocks */
	tl_begin(&tl, 10001ULL * 4096, 4096, 0, 100);
	assert_int_equal(tl.step_bytes, 6 * 4096);
	assert_int_equal(tl.nsteps, 1666);
	/* fewer blocks than TL_STEPS: a block a step */
	tl_begin(&tl, 300ULL * 131072, 131072, 0, 100);
	assert_int_equal(tl.step_bytes, 131072);
	assert_int_equal(tl.nsteps, 300);
	/* a byte count that is not whole blocks: its tail is no block */
	tl_begin(&tl, 300ULL * 131072 + 5, 131072, 0, 100);
	assert_int_equal(tl.nsteps, 300);
}

static void
test_crossings(void **unused)
{
	uint64_t	sb;

	(void)unused;
	tl_begin(&tl, 10000ULL * 4096, 4096, 0, 100);
	sb = tl.step_bytes;
	assert_int_equal(tl.t[0], 100);
	tl_note(&tl, sb - 4096, 150);		/* inside step 0 */
	assert_int_equal(tl.n, 0);
	tl_note(&tl, sb, 200);			/* step 0 ends */
	assert_int_equal(tl.n, 1);
	assert_int_equal(tl.t[1], 200);
	tl_note(&tl, 4 * sb + 4096, 300);	/* steps 1, 2, 3 end at once */
	assert_int_equal(tl.n, 4);
	assert_int_equal(tl.t[2], 300);
	assert_int_equal(tl.t[4], 300);
	tl_note(&tl, 4 * sb + 4096, 400);	/* nothing new */
	assert_int_equal(tl.n, 4);
	assert_false(tl_whole(&tl));
	tl_note(&tl, 10000ULL * 4096, 900);
	assert_int_equal(tl.n, 2000);
	assert_int_equal(tl.t[2000], 900);
	assert_true(tl_whole(&tl));
}

static void
test_tail_not_a_step(void **unused)
{
	(void)unused;
	tl_begin(&tl, 10001ULL * 4096, 4096, 0, 1);
	tl_note(&tl, 10001ULL * 4096, 50);
	assert_int_equal(tl.n, tl.nsteps);
	assert_true(tl_whole(&tl));
}

static void
test_resumed(void **unused)
{
	uint64_t	sb;

	(void)unused;
	/* resumed inside step 10: from the end of step 10 on */
	tl_begin(&tl, 10000ULL * 4096, 4096, 0, 1);
	sb = tl.step_bytes;
	tl_begin(&tl, 10000ULL * 4096, 4096, 10 * sb + 4096, 500);
	assert_false(tl.started);
	tl_note(&tl, 10 * sb + 2 * 4096, 600);
	assert_false(tl.started);
	tl_note(&tl, 11 * sb, 700);
	assert_true(tl.started);
	assert_int_equal(tl.first, 11);
	assert_int_equal(tl.t[0], 700);
	tl_note(&tl, 12 * sb, 800);
	assert_int_equal(tl.n, 1);
	assert_int_equal(tl.t[1], 800);
	tl_note(&tl, 10000ULL * 4096, 900);
	assert_int_equal(tl.first + tl.n, tl.nsteps);
	assert_false(tl_whole(&tl));
	/* resumed on a boundary: from there at once */
	tl_begin(&tl, 10000ULL * 4096, 4096, 7 * sb, 500);
	assert_true(tl.started);
	assert_int_equal(tl.first, 7);
	assert_int_equal(tl.t[0], 500);
	/* resumed in the tail, past the last step: nothing */
	tl_begin(&tl, 10001ULL * 4096, 4096, 10000ULL * 4096, 500);
	tl_note(&tl, 10001ULL * 4096, 600);
	assert_false(tl.started);
	assert_int_equal(tl.n, 0);
}

static void
test_cut_short_and_empty(void **unused)
{
	(void)unused;
	tl_begin(&tl, 10000ULL * 4096, 4096, 0, 1);
	tl_note(&tl, 5000ULL * 4096, 9);
	assert_int_equal(tl.n, 1000);
	assert_false(tl_whole(&tl));
	tl_begin(&tl, 0, 4096, 0, 1);
	assert_int_equal(tl.nsteps, 0);
	tl_note(&tl, 4096, 2);
	assert_int_equal(tl.n, 0);
	assert_false(tl_whole(&tl));
	tl_begin(&tl, 1000, 4096, 0, 1);	/* less than a block */
	assert_int_equal(tl.nsteps, 0);
	assert_false(tl_whole(&tl));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steps_of_blocks),
		cmocka_unit_test(test_crossings),
		cmocka_unit_test(test_tail_not_a_step),
		cmocka_unit_test(test_resumed),
		cmocka_unit_test(test_cut_short_and_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
