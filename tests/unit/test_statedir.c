/* test_statedir.c: the paths of a drive's files under the state directory. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "statedir.h"

/* Every file of a drive, and its directory, as the daemon and ssdctl see. */
static void
test_paths(void **state)
{
	static const struct { enum statedir_file f; const char *want; } t[] = {
		{ STATEDIR_STATE, "/var/lib/ssdtorture/ssd0/state" },
		{ STATEDIR_EVENTS, "/var/lib/ssdtorture/ssd0/events.jsonl" },
		{ STATEDIR_SMART, "/var/lib/ssdtorture/ssd0/smart.jsonl" },
		{ STATEDIR_ERRMAPS, "/var/lib/ssdtorture/ssd0/errors" },
		{ STATEDIR_ARCHIVE, "/var/lib/ssdtorture/ssd0/ssd0.rrd" },
	};
	char	dir[64], path[64];
	size_t	i;

	(void)state;
	assert_int_equal(statedir_drive_dir(dir, sizeof(dir),
	    "/var/lib/ssdtorture", "ssd0"), 0);
	assert_string_equal(dir, "/var/lib/ssdtorture/ssd0");
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(statedir_path(path, sizeof(path), dir, t[i].f),
		    0);
		assert_string_equal(path, t[i].want);
	}
}

/* A path that does not fit is refused, never used cut short. */
static void
test_too_long(void **state)
{
	char	buf[24];

	(void)state;
	assert_int_equal(statedir_drive_dir(buf, sizeof(buf),
	    "/var/lib/ssdtorture", "ssd0"), -1);
	assert_int_equal(statedir_path(buf, sizeof(buf), "/var/lib/ssdt/d",
	    STATEDIR_EVENTS), -1);
	assert_int_equal(statedir_path(buf, 22, "/var/lib/ssdt/d",
	    STATEDIR_STATE), 0);
	assert_int_equal(statedir_path(buf, 21, "/var/lib/ssdt/d",
	    STATEDIR_STATE), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_too_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
