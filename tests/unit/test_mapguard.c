/*
 * test_mapguard.c: a mapping whose file was cut short raises SIGBUS when
 * touched (what a page that cannot be read back from a failing disk
 * does). Under mapguard_run the call returns -1 instead of ending the
 * process; mapguard_release then closes the descriptors and removes the
 * mappings the interrupted call left of the file; the guard works again
 * after that, and a call that faults nothing returns 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "mapguard.h"

static char	path[PATH_MAX];
static int	leaked_fd = -1;
static long	page;

/* What librrd does to a file it updates: open, map, read; the file is
 * cut short first, so the read faults. Nothing is released. */
static void
touch_cut_file(void *arg)
{
	volatile unsigned char	*m;
	int			 fd;

	(void)arg;
	fd = open(path, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	leaked_fd = fd;
	m = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_SHARED,
	    fd, 0);
	assert_true(m != MAP_FAILED);
	assert_int_equal(ftruncate(fd, 0), 0);
	(void)m[page];		/* beyond the end of the file now: SIGBUS */
	fail_msg("no SIGBUS");
}

static void
harmless(void *arg)
{
	*(int *)arg = 42;
}

/* Is `path` among our mappings? */
static int
mapped(void)
{
	FILE	*fp = fopen("/proc/self/maps", "r");
	char	 line[PATH_MAX + 128];
	int	 found = 0;

	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL)
		found |= strstr(line, path) != NULL;
	fclose(fp);
	return found;
}

static void
make_file(void)
{
	int	fd;

	snprintf(path, sizeof(path), "/var/tmp/test_mapguard.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, page * 2), 0);
	close(fd);
}

static void
test_sigbus_caught(void **st)
{
	int	round, v = 0;

	(void)st;
	mapguard_init();
	page = sysconf(_SC_PAGESIZE);
	for (round = 0; round < 2; round++) {	/* the guard works again */
		make_file();
		assert_int_equal(mapguard_run(touch_cut_file, NULL), -1);
		assert_true(mapped());
		assert_true(fcntl(leaked_fd, F_GETFD) != -1);
		mapguard_release(path);
		assert_false(mapped());
		assert_int_equal(fcntl(leaked_fd, F_GETFD), -1);
		assert_int_equal(errno, EBADF);
		unlink(path);
	}
	assert_int_equal(mapguard_run(harmless, &v), 0);
	assert_int_equal(v, 42);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigbus_caught),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
