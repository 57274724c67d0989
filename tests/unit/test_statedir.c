/* test_statedir.c: the paths of a drive's files under the state directory. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static int
put_text(FILE *fp, void *arg)
{
	fputs(arg, fp);
	return 0;
}

static int
put_fail(FILE *fp, void *arg)
{
	(void)fp;
	(void)arg;
	errno = ENOSPC;
	return -1;
}

/* The files in dir: 1 when `name` is the only one. */
static int
only_file(const char *dir, const char *name)
{
	struct dirent	*e;
	DIR		*d = opendir(dir);
	int		 n = 0, found = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			n++;
			found |= strcmp(e->d_name, name) == 0;
		}
	closedir(d);
	return n == 1 && found;
}

/*
 * A replace is whole: new content under a new inode with the mode asked,
 * no temporary file left; a failed one leaves the old file as it was.
 */
static void
test_replace(void **state)
{
	char		dir[] = "/tmp/ssdt_sd_XXXXXX", path[64], buf[32];
	struct stat	a, b;
	FILE		*fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	assert_int_equal(statedir_replace(path, 0640, put_text, "one\n"), 0);
	assert_int_equal(stat(path, &a), 0);
	assert_int_equal(a.st_mode & 07777, 0640);
	assert_int_equal(statedir_replace(path, 0644, put_text, "two\n"), 0);
	assert_int_equal(stat(path, &b), 0);
	assert_true(a.st_ino != b.st_ino);
	assert_int_equal(b.st_mode & 07777, 0644);
	assert_int_equal(statedir_replace(path, 0644, put_fail, NULL), -1);
	assert_int_equal(errno, ENOSPC);
	assert_true(only_file(dir, "f"));
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "two\n");
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_replace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
