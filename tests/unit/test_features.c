/*
 * test_features.c: the drive core's calls of its features' hooks
 * (drive_features.c), against features of the test's own in place of the
 * daemon's (the same names, so that the table links to them). A
 * checkpoint's sync: when a feature cannot begin, the features begun
 * before it are ended, in reverse order, told the error (their files
 * were not synced), nothing is left to sync and the features after it
 * are not begun; every feature begun is ended even when an earlier end
 * fails.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "drive_features.h"

/* What each test feature does, and what the table asked of it. */
struct fake {
	int	begin_err;	/* its sync_begin's answer */
	int	fd;		/* the file it gives to sync */
	int	end_err;	/* its sync_end's answer */
	int	ended_res;	/* the res its sync_end was told */
};

static struct fake	fakes[4];
static char		calls[64];	/* "b0 b1 e1 ..." in call order */
static struct drive	drive;

static void
called(char what, int i)
{
	size_t	n = strlen(calls);

	assert_true(n + 3 < sizeof(calls));
	calls[n] = what;
	calls[n + 1] = (char)('0' + i);
	calls[n + 2] = ' ';
	calls[n + 3] = '\0';
}

static int
begin(int i, int *fd)
{
	called('b', i);
	if (fakes[i].begin_err != 0)
		return fakes[i].begin_err;
	*fd = fakes[i].fd;
	return 0;
}

static int
end(int i, int res)
{
	called('e', i);
	fakes[i].ended_res = res;
	return fakes[i].end_err;
}

#define FAKE(n)								\
static int begin##n(struct drive *d, int *fd)				\
{ (void)d; return begin(n, fd); }					\
static int end##n(struct drive *d, int res)				\
{ (void)d; return end(n, res); }
FAKE(0)
FAKE(1)
FAKE(2)
FAKE(3)

/* The table's entries, in its order: errors, power, findings, records,
 * then the rest; four of them sync. A feature added to the table is one
 * more entry here (the test links to every name the table has). */
const struct drive_feature drive_errors_feature = {
	.name = "t0", .sync_begin = begin0, .sync_end = end0 };
const struct drive_feature drive_power_feature = { .name = "none" };
const struct drive_feature findings_feature = {
	.name = "t1", .sync_begin = begin1, .sync_end = end1 };
const struct drive_feature records_feature = {
	.name = "t2", .sync_begin = begin2, .sync_end = end2 };
const struct drive_feature drive_ckpt_feature = { .name = "none" };
const struct drive_feature drive_cut_feature = {
	.name = "t3", .sync_begin = begin3, .sync_end = end3 };
const struct drive_feature drive_timeline_feature = { .name = "none" };
const struct drive_feature drive_smart_feature = { .name = "none" };

static int
setup(void **state)
{
	(void)state;
	memset(fakes, 0, sizeof(fakes));
	for (int i = 0; i < 4; i++) {
		fakes[i].fd = -1;
		fakes[i].ended_res = 1;	/* not told */
	}
	calls[0] = '\0';
	return 0;
}

/* All begin: the first file rides with the checkpoint; nobody ended. */
static void
test_begin_all(void **state)
{
	int	fd = 99;

	(void)state;
	fakes[1].fd = 7;
	fakes[3].fd = 8;
	assert_int_equal(features_sync_begin(&drive, &fd), 0);
	assert_int_equal(fd, 7);
	assert_string_equal(calls, "b0 b1 b2 b3 ");
}

/* The third cannot begin: the two before it ended, the last one never
 * begun, nothing to sync. */
static void
test_begin_unwinds(void **state)
{
	int	fd = 99;

	(void)state;
	fakes[0].fd = 5;
	fakes[1].fd = 6;
	fakes[2].begin_err = ENOSPC;
	assert_int_equal(features_sync_begin(&drive, &fd), ENOSPC);
	assert_int_equal(fd, -1);
	assert_string_equal(calls, "b0 b1 b2 e1 e0 ");
	assert_int_equal(fakes[0].ended_res, -ENOSPC);
	assert_int_equal(fakes[1].ended_res, -ENOSPC);
	assert_int_equal(fakes[2].ended_res, 1);
	assert_int_equal(fakes[3].ended_res, 1);
}

/* The first cannot begin: nothing to end. */
static void
test_begin_first_fails(void **state)
{
	int	fd = 99;

	(void)state;
	fakes[0].begin_err = EIO;
	assert_int_equal(features_sync_begin(&drive, &fd), EIO);
	assert_int_equal(fd, -1);
	assert_string_equal(calls, "b0 ");
}

/* An end that fails does not keep the later ones from ending; the first
 * error is the answer. */
static void
test_end_all(void **state)
{
	(void)state;
	fakes[1].end_err = EIO;
	fakes[2].end_err = ENOSPC;
	assert_int_equal(features_sync_end(&drive, 0), EIO);
	assert_string_equal(calls, "e0 e1 e2 e3 ");
	for (int i = 0; i < 4; i++)
		assert_int_equal(fakes[i].ended_res, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_begin_all, setup),
		cmocka_unit_test_setup(test_begin_unwinds, setup),
		cmocka_unit_test_setup(test_begin_first_fails, setup),
		cmocka_unit_test_setup(test_end_all, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
