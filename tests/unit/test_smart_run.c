/*
 * test_smart_run.c: running smartctl within its deadline. A stand-in
 * smartctl (a shell script first on PATH) prints a little and then hangs,
 * or trickles output without end; the read must give up with a timeout
 * error at the deadline, neither blocking in read() nor spinning. SIGALRM
 * ends a test that overruns its bound. The command runs with no signal
 * blocked or ignored, whatever the calling thread's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "smart_read.h"

#define DEADLINE_SEC	1
#define BOUND_SEC	(DEADLINE_SEC + 2)	/* deadline plus slack */

static char	dir[64], script[128], oldpath[4096];

static void
overrun(int sig)
{
	static const char msg[] = "test_smart_run: the read overran its "
	    "deadline (blocked or spinning)\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) == -1)
		(void)0;
	_exit(1);
}

/* A stand-in smartctl running `body`, found first on PATH. */
static void
fake_smartctl(const char *body)
{
	FILE	*f;
	char	 path[4200];

	assert_non_null(f = fopen(script, "w"));
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	assert_int_equal(chmod(script, 0755), 0);
	snprintf(path, sizeof(path), "%s:%s", dir, oldpath);
	assert_int_equal(setenv("PATH", path, 1), 0);
}

static int
setup(void **state)
{
	const char	*p = getenv("PATH");

	(void)state;
	snprintf(oldpath, sizeof(oldpath), "%s", p != NULL ? p : "/bin");
	snprintf(dir, sizeof(dir), "/tmp/ssdt-test-smart-run.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(script, sizeof(script), "%s/smartctl", dir);
	signal(SIGALRM, overrun);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	alarm(0);
	setenv("PATH", oldpath, 1);
	unlink(script);
	rmdir(dir);
	return 0;
}

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Run the stand-in; returns its output (or NULL) and the time it took. */
static char *
run(char *err, size_t errlen, size_t *len, double *secs)
{
	char	*argv[] = { "smartctl", "--json", "-a", "/dev/sdz", NULL };
	char	*out;
	double	 t0 = now();

	alarm(BOUND_SEC + 2);
	errno = EINTR;	/* a stale EINTR must not keep the loop going */
	out = smart_run(argv, DEADLINE_SEC, len, err, errlen);
	alarm(0);
	*secs = now() - t0;
	return out;
}

/* A smartctl that answers: its whole output. */
static void
test_output(void **state)
{
	char	 err[256] = "", *out;
	size_t	 len;
	double	 secs;

	(void)state;
	fake_smartctl("printf '{\"json\": 1}\\n'");
	assert_non_null(out = run(err, sizeof(err), &len, &secs));
	assert_string_equal(out, "{\"json\": 1}\n");
	assert_int_equal(len, strlen(out));
	free(out);
}

/* Prints a little, then hangs with stdout open: a timeout error. */
static void
test_hang(void **state)
{
	char	 err[256] = "", *out;
	size_t	 len;
	double	 secs;

	(void)state;
	fake_smartctl("printf '{\"json\": '; exec sleep 30");
	out = run(err, sizeof(err), &len, &secs);
	assert_null(out);
	assert_non_null(strstr(err, "timed out"));
	assert_true(secs >= DEADLINE_SEC - 0.1);
	assert_true(secs < BOUND_SEC);
}

/* Output that never ends: stopped at the deadline all the same. */
static void
test_trickle(void **state)
{
	char	 err[256] = "", *out;
	size_t	 len;
	double	 secs;

	(void)state;
	fake_smartctl("while :; do printf x; sleep 0.1; done");
	out = run(err, sizeof(err), &len, &secs);
	assert_null(out);
	assert_non_null(strstr(err, "timed out"));
	assert_true(secs < BOUND_SEC);
}

/* No smartctl at all. */
static void
test_missing(void **state)
{
	char	 err[256] = "", *out;
	size_t	 len;
	double	 secs;

	(void)state;
	assert_int_equal(setenv("PATH", dir, 1), 0);
	out = run(err, sizeof(err), &len, &secs);
	assert_null(out);
	assert_non_null(strstr(err, "smartctl"));
}

/*
 * Run from a thread that blocks every signal and ignores TERM (the SMART
 * poller blocks them all, the loop owns them): the command gets none
 * blocked and none ignored, so that a TERM ends a hung one.
 */
static void
test_signals(void **state)
{
	char		 err[256] = "", *out;
	size_t		 len;
	double		 secs;
	sigset_t	 all, old;
	unsigned long long blk, ign;

	(void)state;
	fake_smartctl("exec grep -E '^Sig(Blk|Ign)' /proc/self/status");
	sigfillset(&all);
	sigdelset(&all, SIGALRM);	/* run()'s bound */
	assert_int_equal(sigprocmask(SIG_BLOCK, &all, &old), 0);
	signal(SIGTERM, SIG_IGN);
	out = run(err, sizeof(err), &len, &secs);
	signal(SIGTERM, SIG_DFL);
	assert_int_equal(sigprocmask(SIG_SETMASK, &old, NULL), 0);
	assert_non_null(out);
	/* the standard signals; glibc keeps its own two (32, 33) as it likes */
	assert_int_equal(sscanf(out, "SigBlk: %llx SigIgn: %llx", &blk, &ign),
	    2);
	assert_int_equal(blk & 0x7fffffffULL, 0);
	assert_int_equal(ign & 0x7fffffffULL, 0);
	free(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_output, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hang, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trickle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signals, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
