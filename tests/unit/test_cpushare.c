/*
 * test_cpushare.c: the autogroup nice that weighs the daemon as one
 * process per drive. The weights are the kernel's (sched_prio_to_weight,
 * kernel/sched/core.c): nice 0 is 1024, -3 is 1991, -9 is 7620 (8 x 1024
 * = 8192 lies nearer to it than to -10's 9548 on a log scale), -14 is
 * 23254, -20 is 88761.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cpushare.h"

static void
test_one_drive(void **state)
{
	(void)state;
	assert_int_equal(cpushare_nice(1), 0);
	assert_int_equal(cpushare_nice(0), 0);	/* no drive: as one */
}

static void
test_several(void **state)
{
	(void)state;
	assert_int_equal(cpushare_nice(2), -3);	/* 2048: 1991 */
	assert_int_equal(cpushare_nice(4), -6);	/* 4096: 3906 */
	assert_int_equal(cpushare_nice(8), -9);	/* 8192: 7620 */
	assert_int_equal(cpushare_nice(24), -14);	/* 24576: 23254 */
	assert_int_equal(cpushare_nice(64), -19);	/* 65536: 71755 */
}

static void
test_bounded(void **state)
{
	(void)state;
	assert_int_equal(cpushare_nice(87), -20);
	assert_int_equal(cpushare_nice(1000), -20);	/* no lower nice */
	assert_int_equal(cpushare_nice((size_t)-1), -20);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_drive),
		cmocka_unit_test(test_several),
		cmocka_unit_test(test_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
