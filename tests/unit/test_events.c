/*
 * test_events.c: the event log's file. events.jsonl must always end where
 * the log's size says (the state file records that size, and a resume cuts
 * the file back to it), and hold whole lines only; an event that cannot be
 * appended is kept and written, in order, once the file takes it again,
 * up to a bound; reading its tail must not pass NULL to memcpy (this test
 * and events.c are built with UBSan).
 *
 * A short append is made real with RLIMIT_FSIZE; cutting the fragment off
 * again is made to fail by this file's own ftruncate(), which the linker
 * binds events.c's calls to in place of the C library's. Its fdatasync()
 * fails the way a failing disk does: the bytes written since the last
 * sync that worked are not on disk, and once the kernel drops the pages
 * it marked clean, reading them back gives what the disk holds (zeros).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "events.h"

static int	ftruncate_fails;	/* make ftruncate() fail with EIO */

int
ftruncate(int fd, off_t length)
{
	if (ftruncate_fails) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_ftruncate, fd, length);
}

static char	tmpdir[64];
static char	path[128];

static int	fdatasync_fails;	/* fail with EIO, losing the data */
static off_t	disk_len;		/* the file's length at the last sync */

int
fdatasync(int fd)
{
	struct stat	 st;
	char		*zeros;
	int		 wfd;

	if (fstat(fd, &st) == -1)
		return -1;
	if (!fdatasync_fails) {
		if (syscall(SYS_fdatasync, fd) == -1)
			return -1;
		disk_len = st.st_size;
		return 0;
	}
	/* a second descriptor: pwrite() on an O_APPEND one appends */
	if (st.st_size > disk_len) {
		zeros = calloc(1, (size_t)(st.st_size - disk_len));
		assert_non_null(zeros);
		wfd = open(path, O_WRONLY);
		assert_true(wfd >= 0);
		assert_int_equal(pwrite(wfd, zeros, (size_t)(st.st_size -
		    disk_len), disk_len), st.st_size - disk_len);
		close(wfd);
		free(zeros);
	}
	errno = EIO;
	return -1;
}

static int
setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ssdt-test-events.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/events.jsonl", tmpdir);
	signal(SIGXFSZ, SIG_IGN);	/* a write past the limit gets EFBIG */
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	ftruncate_fails = 0;
	fdatasync_fails = 0;
	disk_len = 0;
	unlink(path);
	rmdir(tmpdir);
	return 0;
}

static uint64_t
file_size(void)
{
	struct stat	st;

	assert_int_equal(stat(path, &st), 0);
	return (uint64_t)st.st_size;
}

/* Every line of the file is a whole JSON object; returns their number. */
static int
whole_lines(void)
{
	char		 line[4096];
	FILE		*f = fopen(path, "r");
	int		 n = 0;
	json_object	*o;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (line[strlen(line) - 1] != '\n')
			fail_msg("a partial line at the end: '%s'", line);
		if ((o = json_tokener_parse(line)) == NULL)
			fail_msg("not a JSON line: '%s'", line);
		json_object_put(o);
		n++;
	}
	fclose(f);
	return n;
}

/* One event whose line is long enough to be cut by a small limit. */
static void
add(struct eventlog *ev, int i)
{
	events_add(ev, LOG_INFO, "test", NULL, -1, -1, "event %d, with a "
	    "message long enough to be cut in the middle", i);
}

/* Append the next event with the file size limited to `room` more bytes. */
static void
add_limited(struct eventlog *ev, int i, uint64_t room)
{
	struct rlimit	old, lim;

	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = (rlim_t)(ev->size + room);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	add(ev, i);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
}

/* The number in "event N," of line `i` (from 0) of the file; -1: none. */
static int
event_number(int i)
{
	char		 line[4096];
	const char	*m;
	FILE		*f = fopen(path, "r");
	int		 n = -1;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) != NULL)
		if (i-- == 0 && (m = strstr(line, "event ")) != NULL)
			n = atoi(m + 6);
	fclose(f);
	return n;
}

/*
 * A short append is cut off again: the file stays line-aligned, and the
 * event is kept and written before the next one.
 */
static void
test_short_write_cut(void **state)
{
	struct eventlog	ev;
	uint64_t	before;

	(void)state;
	assert_int_equal(events_open(&ev, path, UINT64_MAX, "d", "s"), 0);
	add(&ev, 1);
	before = ev.size;
	add_limited(&ev, 2, 10);
	assert_int_equal(ev.size, before);
	assert_int_equal(ev.nkept, 1);
	assert_int_equal(ev.err, ENOSPC);
	assert_int_equal(file_size(), ev.size);
	add(&ev, 3);
	assert_int_equal(ev.nkept, 0);
	assert_int_equal(file_size(), ev.size);
	assert_int_equal(whole_lines(), 3);
	assert_int_equal(event_number(1), 2);
	assert_int_equal(event_number(2), 3);
	events_close(&ev);
}

/*
 * The cut fails once: the fragment must not stay in front of the next
 * line; the next append cuts it first, and the file matches the size.
 */
static void
test_failed_cut_retried(void **state)
{
	struct eventlog	ev;

	(void)state;
	assert_int_equal(events_open(&ev, path, UINT64_MAX, "d", "s"), 0);
	add(&ev, 1);
	ftruncate_fails = 1;
	add_limited(&ev, 2, 10);
	ftruncate_fails = 0;
	add(&ev, 3);
	assert_int_equal(file_size(), ev.size);
	assert_int_equal(whole_lines(), 3);
	assert_int_equal(event_number(1), 2);
	events_close(&ev);
}

/*
 * The cut keeps failing: nothing more is appended behind the fragment, so
 * what the state records (ev.size) is whole lines, and a resume that cuts
 * the file back to it gets a clean log.
 */
static void
test_failed_cut_resume(void **state)
{
	struct eventlog	ev;
	uint64_t	keep;

	(void)state;
	assert_int_equal(events_open(&ev, path, UINT64_MAX, "d", "s"), 0);
	add(&ev, 1);
	ftruncate_fails = 1;
	add_limited(&ev, 2, 10);
	add(&ev, 3);
	add(&ev, 4);
	keep = ev.size;
	events_close(&ev);
	ftruncate_fails = 0;
	assert_int_equal(events_open(&ev, path, keep, "d", "s"), 0);
	assert_int_equal(file_size(), keep);
	assert_int_equal(whole_lines(), 1);
	add(&ev, 5);
	assert_int_equal(file_size(), ev.size);
	assert_int_equal(whole_lines(), 2);
	events_close(&ev);
}

/*
 * The file cannot be opened (its directory is gone: a disk that failed):
 * events are kept in order; from EVENTS_KEEP_MAX the log says it is full;
 * past twice that, events are counted as lost, not kept. Once the file can
 * be written, everything kept goes there in order, once.
 */
static void
test_kept_bound(void **state)
{
	struct eventlog	ev;
	int		i, n = 2 * EVENTS_KEEP_MAX;

	(void)state;
	assert_int_equal(rmdir(tmpdir), 0);
	assert_int_equal(events_open(&ev, path, UINT64_MAX, "d", "s"), 0);
	assert_int_equal(ev.err, ENOENT);
	for (i = 0; i < EVENTS_KEEP_MAX - 1; i++)
		add(&ev, i);
	assert_false(events_full(&ev));
	assert_int_not_equal(ev.kept_since, 0);
	for (; i < n + 5; i++)
		add(&ev, i);
	assert_true(events_full(&ev));
	assert_int_equal(ev.nkept, (size_t)n);
	assert_int_equal(ev.lost, 5);
	assert_int_equal(events_sync(&ev), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(mkdir(tmpdir, 0700), 0);
	assert_int_equal(events_sync(&ev), 0);
	assert_int_equal(ev.nkept, 0);
	assert_int_equal(ev.kept_since, 0);
	assert_int_equal(ev.err, 0);
	assert_false(events_full(&ev));
	assert_int_equal(file_size(), ev.size);
	assert_int_equal(whole_lines(), n);
	for (i = 0; i < n; i += 997)
		assert_int_equal(event_number(i), i);
	assert_int_equal(event_number(n - 1), n - 1);
	events_close(&ev);
}

/*
 * A sync fails (fsync semantics on a failing disk: the lines appended since
 * the last good sync are lost from disk although write() took them). The
 * next syncs write them again, in order, and once one works the file holds
 * every line once; events_bytes (ev.size) is what the file holds.
 */
static void
test_failed_sync_rewritten(void **state)
{
	struct eventlog	ev;
	uint64_t	synced;
	int		i;

	(void)state;
	assert_int_equal(events_open(&ev, path, UINT64_MAX, "d", "s"), 0);
	add(&ev, 1);
	add(&ev, 2);
	assert_int_equal(events_sync(&ev), 0);
	synced = ev.size;
	add(&ev, 3);
	add(&ev, 4);
	fdatasync_fails = 1;
	assert_int_equal(events_sync(&ev), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(ev.err, EIO);
	assert_int_equal(events_sync(&ev), -1);	/* no new line: still fails */
	add(&ev, 5);
	fdatasync_fails = 0;
	assert_int_equal(events_sync(&ev), 0);
	assert_int_equal(ev.err, 0);
	assert_true(ev.size > synced);
	assert_int_equal(file_size(), ev.size);
	assert_int_equal(whole_lines(), 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(event_number(i), i + 1);
	events_close(&ev);
}

/* The sync in flight of test_sync_in_flight, and how often it was waited for. */
static struct eventlog	*inflight_ev;
static int		 inflight_fd, waited;

static void
end_inflight(void)
{
	waited++;
	assert_int_equal(fdatasync(inflight_fd), 0);
	assert_int_equal(events_sync_end(inflight_ev, 0), 0);
}

/*
 * Lines appended while a sync of the log is in flight (begun, not ended:
 * the tick's batch) go on without waiting, and are not the sync's: its
 * answer marks as synced what it covered, the rest waits for the next
 * sync (the file stays open for it). A failed sync in flight has every
 * line after the last good one written again, once, in order. Closing the
 * log or beginning another sync waits for the one in flight.
 */
static void
test_sync_in_flight(void **state)
{
	struct eventlog	ev;
	uint64_t	covered;
	int		fd, i;

	(void)state;
	assert_int_equal(events_open(&ev, path, UINT64_MAX, "d", "s"), 0);
	inflight_ev = &ev;
	waited = 0;
	events_set_sync_waiter(end_inflight);
	add(&ev, 1);
	assert_int_equal(events_sync_begin(&ev, &fd), 0);
	assert_true(fd >= 0);
	covered = ev.size;
	add(&ev, 2);
	assert_int_equal(waited, 0);
	assert_int_equal(events_sync_end(&ev, fdatasync(fd) ? -errno : 0), 0);
	assert_int_equal(ev.synced, covered);
	assert_true(ev.size > covered);
	assert_int_equal(ev.unsynced_lines, 1);
	assert_true(ev.fd >= 0);	/* line 2 is the next sync's */
	assert_int_equal(events_sync(&ev), 0);
	assert_int_equal(ev.synced, ev.size);
	assert_int_equal(ev.fd, -1);

	add(&ev, 3);			/* a failed sync in flight */
	assert_int_equal(events_sync_begin(&ev, &fd), 0);
	add(&ev, 4);
	assert_int_equal(events_sync_end(&ev, -EIO), -1);
	assert_int_equal(events_sync(&ev), 0);
	assert_int_equal(whole_lines(), 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(event_number(i), i + 1);

	add(&ev, 5);			/* another sync, or the end, waits */
	assert_int_equal(events_sync_begin(&ev, &inflight_fd), 0);
	assert_int_equal(events_sync_begin(&ev, &fd), 0);
	assert_int_equal(waited, 1);
	assert_int_equal(fd, -1);	/* the first covered it all */
	add(&ev, 6);
	assert_int_equal(events_sync_begin(&ev, &inflight_fd), 0);
	events_set_sync_waiter(end_inflight);
	events_close(&ev);
	assert_int_equal(waited, 2);
	events_set_sync_waiter(NULL);
	assert_int_equal(whole_lines(), 6);
}

/*
 * An append that fails while a sync is in flight closes the file, to be
 * written again from what is on disk: that sync's answer, even a good
 * one, does not make the lines it covered durable, so its end fails and
 * no state counting them is committed on it.
 */
static void
test_sync_in_flight_reopened(void **state)
{
	struct eventlog	ev;
	int		fd;

	(void)state;
	assert_int_equal(events_open(&ev, path, UINT64_MAX, "d", "s"), 0);
	add(&ev, 1);
	assert_int_equal(events_sync(&ev), 0);
	add(&ev, 2);
	assert_int_equal(events_sync_begin(&ev, &fd), 0);
	assert_true(fd >= 0);
	add_limited(&ev, 3, 10);	/* cut short: the file is closed */
	assert_int_equal(ev.fd, -1);
	assert_int_equal(events_sync_end(&ev, 0), -1);
	assert_true(ev.synced < ev.size || ev.nkept > 0);
	assert_int_equal(events_sync(&ev), 0);	/* written again, synced */
	assert_int_equal(whole_lines(), 3);
	events_close(&ev);
}

/*
 * While syncs fail, the lines appended but not synced are held in memory:
 * they count towards the bound, so the drive pauses before it is reached.
 */
static void
test_unsynced_bound(void **state)
{
	struct eventlog	ev;
	int		i;

	(void)state;
	assert_int_equal(events_open(&ev, path, UINT64_MAX, "d", "s"), 0);
	fdatasync_fails = 1;
	for (i = 0; i < EVENTS_KEEP_MAX; i++) {
		add(&ev, i);
		if (i % 512 == 0)
			assert_int_equal(events_sync(&ev), -1);
	}
	assert_int_equal(ev.nkept, 0);
	assert_true(events_full(&ev));
	fdatasync_fails = 0;
	assert_int_equal(events_sync(&ev), 0);
	assert_false(events_full(&ev));
	assert_int_equal(whole_lines(), EVENTS_KEEP_MAX);
	assert_int_equal(event_number(EVENTS_KEEP_MAX - 1), EVENTS_KEEP_MAX - 1);
	events_close(&ev);
}

/* The tail of a log, read back from its end. */
static void
test_tail(void **state)
{
	struct eventlog	 ev;
	json_object	*arr = json_object_new_array(), *o, *msg;
	int		 i;

	(void)state;
	assert_int_equal(events_open(&ev, path, UINT64_MAX, "d", "s"), 0);
	for (i = 1; i <= 5; i++)
		add(&ev, i);
	events_close(&ev);
	assert_int_equal(events_tail(path, 2, arr), 0);
	assert_int_equal(json_object_array_length(arr), 2);
	o = json_object_array_get_idx(arr, 1);
	assert_true(json_object_object_get_ex(o, "message", &msg));
	assert_non_null(strstr(json_object_get_string(msg), "event 5,"));
	json_object_put(arr);
}

/*
 * The drive name and serial of the journal fields are the log's own: the
 * configuration strings they come from are freed on a reload.
 */
static void
test_identity_copied(void **state)
{
	struct eventlog	 ev;
	char		 name[16] = "d", serial[16] = "S123";

	(void)state;
	assert_int_equal(events_open(&ev, path, UINT64_MAX, name, serial), 0);
	strcpy(name, "other");
	strcpy(serial, "freed");
	assert_string_equal(ev.drive, "d");
	assert_string_equal(ev.serial, "S123");
	events_set_serial(&ev, "DEV42");
	assert_string_equal(ev.serial, "DEV42");
	events_set_serial(&ev, NULL);
	assert_string_equal(ev.serial, "");
	events_close(&ev);
}

/*
 * A log opened (its file cut to what a checkpoint knew) and never written:
 * its sync takes nothing off a copy it never had (under UBSan, a move of
 * zero bytes from a null copy was the daemon's report).
 */
static void
test_sync_never_written(void **state)
{
	struct eventlog	 ev;
	int		 fd;
	FILE		*fp;

	(void)state;
	assert_non_null(fp = fopen(path, "w"));
	fputs("{\"a\":1}\n{\"b\":2}\n", fp);
	fclose(fp);
	assert_int_equal(events_open(&ev, path, 8, "d", ""), 0);
	assert_int_equal(events_sync_begin(&ev, &fd), 0);
	if (fd >= 0)
		assert_int_equal(events_sync_end(&ev, 0), 0);
	assert_int_equal(events_sync(&ev), 0);
	assert_int_equal(ev.size, 8);
	events_close(&ev);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_short_write_cut, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_failed_cut_retried, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_failed_cut_resume, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_kept_bound, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_sync_in_flight, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_sync_in_flight_reopened,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_sync_rewritten,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsynced_bound, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_tail, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sync_never_written, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_identity_copied, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
