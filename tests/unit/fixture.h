/*
 * fixture.h: a smartctl capture of tests/unit/data/smartctl (or of
 * $SSDT_TESTDATA/smartctl), read whole for a unit test. Include after
 * cmocka.h; the buffer is NUL-terminated and the caller's to free.
 */
#ifndef SSDT_TEST_FIXTURE_H
#define SSDT_TEST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

static inline char *
fixture_load(const char *name, size_t *len)
{
	const char	*dir = getenv("SSDT_TESTDATA");
	char		 path[1024];
	char		*buf;
	FILE		*f;
	long		 n;

	snprintf(path, sizeof(path), "%s/smartctl/%s",
	    dir != NULL && *dir != '\0' ? dir : "tests/unit/data", name);
	if ((f = fopen(path, "rb")) == NULL)
		fail_msg("cannot open %s (run from the repository root or "
		    "set SSDT_TESTDATA)", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

#endif
