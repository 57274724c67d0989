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
		{ STATEDIR_TIMELINES, "/var/lib/ssdtorture/ssd0/timelines" },
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

/* The first line of path, into buf. */
static void
read_line(const char *path, char *buf, int len)
{
	FILE	*fp = fopen(path, "r");

	assert_non_null(fp);
	assert_non_null(fgets(buf, len, fp));
	fclose(fp);
}

/*
 * The replace in steps: a failed sync of the temporary file (the batched
 * checkpoint hands it in as sync_res) leaves the old file as it was and
 * no temporary file; a failed sync of the directory is an error after
 * the rename; a directory that cannot be synced (EINVAL) is no error.
 */
static void
test_staged(void **state)
{
	char		dir[] = "/tmp/ssdt_sd_XXXXXX", path[64], buf[32];
	struct staged	s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	assert_int_equal(statedir_replace(path, 0640, put_text, "one\n"), 0);

	assert_int_equal(statedir_stage(&s, path, 0640, 0, put_text, "two\n"), 0);
	assert_true(s.fd >= 0);
	assert_false(only_file(dir, "f"));	/* the temporary file too */
	s.sync_res = -EIO;
	assert_int_equal(statedir_commit(&s), -1);
	assert_int_equal(errno, EIO);
	statedir_abort(&s);
	assert_true(only_file(dir, "f"));
	read_line(path, buf, sizeof(buf));
	assert_string_equal(buf, "one\n");

	assert_int_equal(statedir_stage(&s, path, 0640, 0, put_text, "three\n"),
	    0);
	s.sync_res = 0;
	assert_int_equal(statedir_commit(&s), 0);
	assert_true(s.dir_fd >= 0);
	s.dir_res = -EIO;
	assert_int_equal(statedir_finish(&s), -1);
	assert_int_equal(errno, EIO);
	assert_true(only_file(dir, "f"));
	read_line(path, buf, sizeof(buf));
	assert_string_equal(buf, "three\n");

	assert_int_equal(statedir_stage(&s, path, 0640, 0, put_text, "four\n"),
	    0);
	s.sync_res = 0;
	assert_int_equal(statedir_commit(&s), 0);
	s.dir_res = -EINVAL;
	assert_int_equal(statedir_finish(&s), 0);
	statedir_abort(&s);	/* nothing left to give up: harmless */
	read_line(path, buf, sizeof(buf));
	assert_string_equal(buf, "four\n");
	assert_true(only_file(dir, "f"));
	unlink(path);
	rmdir(dir);
}

/* One staged replace through the spare, its syncs done here. */
static void
spare_replace(const char *path, const char *text)
{
	struct staged	s;

	assert_int_equal(statedir_stage(&s, path, 0640, 1, put_text,
	    (void *)text), 0);
	s.sync_res = fsync(s.fd) == -1 ? -errno : 0;
	assert_int_equal(statedir_commit(&s), 0);
	s.dir_res = fsync(s.dir_fd) == -1 ? -errno : 0;
	assert_int_equal(statedir_finish(&s), 0);
}

/*
 * Through the spare: the new content swapped in, the old one the next
 * spare (cut to its own length), no inode made after the first two; a
 * failed sync of the spare leaves the file as it was.
 */
static void
test_spare(void **state)
{
	char		dir[] = "/tmp/ssdt_sd_XXXXXX", path[64], spare[64],
			buf[32];
	struct stat	a, b, c, d;
	struct staged	s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	snprintf(spare, sizeof(spare), "%s/.f.spare", dir);
	spare_replace(path, "a long first line\n");	/* no f yet: a rename */
	assert_true(only_file(dir, "f"));
	spare_replace(path, "two\n");
	assert_int_equal(stat(path, &a), 0);
	assert_int_equal(stat(spare, &b), 0);
	read_line(spare, buf, sizeof(buf));
	assert_string_equal(buf, "a long first line\n");
	spare_replace(path, "three\n");
	assert_int_equal(stat(path, &c), 0);
	assert_int_equal(stat(spare, &d), 0);
	assert_true(c.st_ino == b.st_ino && d.st_ino == a.st_ino);
	read_line(path, buf, sizeof(buf));
	assert_string_equal(buf, "three\n");
	assert_int_equal(c.st_size, 6);		/* nothing of the long line */
	assert_int_equal(c.st_mode & 07777, 0640);

	assert_int_equal(statedir_stage(&s, path, 0640, 1, put_text, "x\n"),
	    0);
	s.sync_res = -EIO;
	assert_int_equal(statedir_commit(&s), -1);
	statedir_abort(&s);
	read_line(path, buf, sizeof(buf));
	assert_string_equal(buf, "three\n");
	assert_true(only_file(dir, "f"));	/* the suspect spare removed */
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
		cmocka_unit_test(test_staged),
		cmocka_unit_test(test_spare),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
