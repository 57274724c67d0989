/*
 * test_errmap.c: the map of bad blocks of a verify pass. It must give back
 * every bad block exactly (extents, classes, counts), stay small when many
 * blocks go bad, and, cut back to the length a checkpoint recorded and
 * appended to again (a pass resumed after SIGKILL), neither lose nor
 * count an extent twice.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errmap.h"
#include "errmap_again.h"

#define MAXEXT	200000

static char	dir[64];

struct got {
	struct errext	x[MAXEXT];
	size_t		n;
};

static int
collect(const struct errext *x, void *arg)
{
	struct got	*g = arg;

	assert_true(g->n < MAXEXT);
	g->x[g->n++] = *x;
	return 0;
}

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ssdt-test-errmap.XXXXXX");
	return mkdtemp(dir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char	cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static struct got	got;

static void
read_pass(uint64_t pass, struct got *g, struct errmap_counts *c)
{
	char	path[256];

	memset(g, 0, sizeof(*g));
	errmap_path(path, sizeof(path), dir, pass);
	assert_int_equal(errmap_read(path, UINT64_MAX, collect, g, c), 0);
}

static off_t
file_size(uint64_t pass)
{
	char		path[256];
	struct stat	st;

	errmap_path(path, sizeof(path), dir, pass);
	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

static void
expect_ext(const struct errext *x, uint64_t start, uint64_t len,
    enum blk_class cls)
{
	assert_int_equal(x->start, start);
	assert_int_equal(x->len, len);
	assert_int_equal(x->cls, cls);
}

/* Single blocks, runs, touching extents of other classes: all come back. */
static void
test_round_trip(void **state)
{
	struct errmap		m;
	struct errmap_counts	c;
	uint64_t		b;

	(void)state;
	assert_int_equal(errmap_open(&m, dir, 1, 4096, 0), 0);
	errmap_add(&m, 0, 1, BLK_CORRUPT);
	for (b = 10; b < 1010; b++)	/* a run found block by block */
		errmap_add(&m, b, 1, BLK_CORRUPT);
	errmap_add(&m, 1010, 5, BLK_STALE);	/* touches, other class */
	errmap_add(&m, 1015, 2, BLK_CORRUPT);
	errmap_add(&m, 1ULL << 40, 3, BLK_IO_ERROR);	/* far away */
	errmap_close(&m);

	read_pass(1, &got, &c);
	assert_int_equal(got.n, 5);
	expect_ext(&got.x[0], 0, 1, BLK_CORRUPT);
	expect_ext(&got.x[1], 10, 1000, BLK_CORRUPT);
	expect_ext(&got.x[2], 1010, 5, BLK_STALE);
	expect_ext(&got.x[3], 1015, 2, BLK_CORRUPT);
	expect_ext(&got.x[4], 1ULL << 40, 3, BLK_IO_ERROR);
	assert_int_equal(c.blocks[BLK_CORRUPT], 1003);
	assert_int_equal(c.extents[BLK_CORRUPT], 3);
	assert_int_equal(c.first[BLK_CORRUPT], 0);
	assert_int_equal(c.end[BLK_CORRUPT], 1017);
	assert_int_equal(c.blocks[BLK_STALE], 5);
	assert_int_equal(c.blocks[BLK_IO_ERROR], 3);
	assert_int_equal(errmap_total(&c), 1011);
	assert_int_equal(c.block_size, 4096);
	/* the writer's counts are the reader's */
	assert_memory_equal(m.c.blocks, c.blocks, sizeof(c.blocks));
	assert_memory_equal(m.c.extents, c.extents, sizeof(c.extents));
}

/* The flush in flight of test_flush_in_flight, and how often it was waited for. */
static struct errmap	*inflight_map;
static int		 inflight_fd, waited;

static void
end_inflight(void)
{
	waited++;
	assert_int_equal(fdatasync(inflight_fd), 0);
	errmap_flush_end(inflight_map, 0);
}

/*
 * While a flush of the map is in flight (begun, not ended: the tick's
 * batch), records written go on without waiting and are not the flush's:
 * its answer marks as synced what it covered, the rest waits for the
 * next. Closing the map waits for the flush in flight.
 */
static void
test_flush_in_flight(void **state)
{
	struct errmap		m;
	struct errmap_counts	c;
	uint64_t		covered, b;
	int			fd;

	(void)state;
	assert_int_equal(errmap_open(&m, dir, 6, 4096, 0), 0);
	errmap_add(&m, 1, 1, BLK_CORRUPT);
	assert_int_equal(errmap_flush_begin(&m, &fd), 0);
	assert_true(fd >= 0);
	covered = m.size;
	inflight_map = &m;
	waited = 0;
	errmap_set_sync_waiter(end_inflight);
	for (b = 10; b < 4000; b += 2)	/* enough records to be written */
		errmap_add(&m, b, 1, BLK_STALE);
	assert_int_equal(waited, 0);
	assert_true(m.size > covered);
	assert_int_equal(errmap_flush_end(&m, fdatasync(fd) ? -errno : 0),
	    covered);
	assert_int_equal(m.nunsynced, m.size - covered);
	b = errmap_flush(&m);		/* the rest, pending records too */
	assert_int_equal(b, m.size);
	assert_int_equal(m.nunsynced, 0);
	errmap_add(&m, 5000, 3, BLK_CORRUPT);
	assert_int_equal(errmap_flush_begin(&m, &inflight_fd), 0);
	errmap_close(&m);		/* waits for the flush in flight */
	assert_int_equal(waited, 1);
	errmap_set_sync_waiter(NULL);
	read_pass(6, &got, &c);
	assert_int_equal(c.blocks[BLK_CORRUPT], 4);
	assert_int_equal(c.blocks[BLK_STALE], 1995);
}

/*
 * A retired map (its pass ended) takes no more records, keeps its file
 * open until a flush has synced it, and is then closed by that flush's
 * end: the end of a pass waits for no disk.
 */
static void
test_retire(void **state)
{
	struct errmap		m;
	struct errmap_counts	c;
	int			fd;

	(void)state;
	assert_int_equal(errmap_open(&m, dir, 7, 4096, 0), 0);
	errmap_add(&m, 3, 2, BLK_CORRUPT);
	errmap_retire(&m);
	assert_false(errmap_is_open(&m));
	assert_true(errmap_has_file(&m));
	errmap_add(&m, 9, 1, BLK_STALE);	/* not taken */
	read_pass(7, &got, &c);		/* written, before any sync */
	assert_int_equal(c.blocks[BLK_CORRUPT], 2);
	assert_int_equal(errmap_flush_begin(&m, &fd), 0);
	assert_true(fd >= 0);
	assert_int_equal(errmap_flush_end(&m, fdatasync(fd) ? -errno : 0),
	    m.size);
	assert_false(errmap_has_file(&m));	/* synced, then closed */
	errmap_close(&m);
	read_pass(7, &got, &c);
	assert_int_equal(c.blocks[BLK_CORRUPT], 2);
	assert_int_equal(c.blocks[BLK_STALE], 0);
}

/* Every other block bad: still about 3 bytes a bad block. */
static void
test_dense_is_small(void **state)
{
	struct errmap		m;
	struct errmap_counts	c;
	uint64_t		b, n = 200000;

	(void)state;
	assert_int_equal(errmap_open(&m, dir, 2, 512, 0), 0);
	for (b = 1; b < n; b += 2)
		errmap_add(&m, b, 1, b % 3 ? BLK_CORRUPT : BLK_UNWRITTEN);
	errmap_close(&m);
	assert_true(file_size(2) <= ERRMAP_HDR + 3 * (off_t)(n / 2));
	read_pass(2, &got, &c);
	assert_int_equal(got.n, n / 2);
	assert_int_equal(errmap_total(&c), n / 2);
	assert_int_equal(c.extents[BLK_CORRUPT] + c.extents[BLK_UNWRITTEN],
	    n / 2);
}

/*
 * A pass resumed from its checkpoint: what was written after the
 * checkpoint (and found again on resume) is cut off; the extent that the
 * checkpoint split merges again; nothing is lost or counted twice.
 */
static void
test_resume_cut_back(void **state)
{
	struct errmap		m;
	struct errmap_counts	c;
	uint64_t		keep, b;

	(void)state;
	assert_int_equal(errmap_open(&m, dir, 3, 4096, 0), 0);
	errmap_add(&m, 5, 2, BLK_MISDIRECTED);
	for (b = 100; b < 150; b++)
		errmap_add(&m, b, 1, BLK_CORRUPT);
	keep = errmap_flush(&m);		/* the checkpoint: item 150 */
	for (b = 150; b < 180; b++)
		errmap_add(&m, b, 1, BLK_CORRUPT);
	errmap_add(&m, 300, 1, BLK_FOREIGN);
	errmap_flush(&m);			/* on disk, never checkpointed */
	close(m.fd);				/* SIGKILL */

	assert_int_equal(errmap_open(&m, dir, 3, 4096, keep), 0);
	assert_int_equal(m.c.blocks[BLK_CORRUPT], 50);
	assert_int_equal(m.c.blocks[BLK_FOREIGN], 0);
	for (b = 150; b < 180; b++)		/* found again from item 150 */
		errmap_add(&m, b, 1, BLK_CORRUPT);
	errmap_add(&m, 300, 1, BLK_FOREIGN);
	errmap_close(&m);

	read_pass(3, &got, &c);
	assert_int_equal(got.n, 3);
	expect_ext(&got.x[0], 5, 2, BLK_MISDIRECTED);
	expect_ext(&got.x[1], 100, 80, BLK_CORRUPT);
	expect_ext(&got.x[2], 300, 1, BLK_FOREIGN);
	assert_int_equal(c.blocks[BLK_CORRUPT], 80);
	assert_int_equal(c.extents[BLK_CORRUPT], 1);
	assert_memory_equal(m.c.blocks, c.blocks, sizeof(c.blocks));
	assert_memory_equal(m.c.extents, c.extents, sizeof(c.extents));
}

/* A last record cut short ends the map; a file that is no map is refused. */
static void
test_torn_and_foreign(void **state)
{
	struct errmap		m;
	struct errmap_counts	c;
	char			path[256];
	int			fd;

	(void)state;
	assert_int_equal(errmap_open(&m, dir, 4, 4096, 0), 0);
	errmap_add(&m, 1, 1, BLK_CORRUPT);
	errmap_add(&m, 1000000, 7, BLK_STALE);	/* gap takes 3 bytes */
	errmap_close(&m);
	errmap_path(path, sizeof(path), dir, 4);
	assert_int_equal(truncate(path, file_size(4) - 2), 0);
	read_pass(4, &got, &c);
	assert_int_equal(got.n, 1);
	assert_int_equal(errmap_total(&c), 1);

	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "{\"not\": \"a map\"}\n", 17), 17);
	close(fd);
	assert_int_equal(errmap_read(path, UINT64_MAX, NULL, NULL, &c), -1);
	/* and a map written with another block size is not appended to */
	assert_int_equal(errmap_open(&m, dir, 5, 4096, 0), 0);
	errmap_close(&m);
	assert_int_equal(errmap_open(&m, dir, 5, 512, UINT64_MAX), -1);
}

/* One pass's map: extents given as start, length, class triples. */
static void
write_pass(uint64_t pass, const uint64_t *v, size_t n)
{
	struct errmap	m;
	size_t		i;

	assert_int_equal(errmap_open(&m, dir, pass, 4096, 0), 0);
	for (i = 0; i + 2 < n; i += 3)
		errmap_add(&m, v[i], v[i + 1], (enum blk_class)v[i + 2]);
	errmap_close(&m);
}

/*
 * The blocks that fail again: the parts of a pass's extents that any
 * earlier pass had bad, whatever its class there, each piece in the
 * class of this pass; a pass without a map has none.
 */
static void
test_again(void **state)
{
	static const uint64_t	p1[] = { 10, 10, BLK_CORRUPT, 100, 5,
				    BLK_IO_ERROR };
	static const uint64_t	p3[] = { 15, 10, BLK_STALE, 200, 1,
				    BLK_CORRUPT };
	static const uint64_t	p4[] = { 0, 30, BLK_CORRUPT, 98, 4,
				    BLK_CORRUPT, 150, 60, BLK_UNWRITTEN };
	struct errmap_counts	c;

	(void)state;
	write_pass(1, p1, 6);	/* pass 2 has no map */
	write_pass(3, p3, 6);
	write_pass(4, p4, 9);
	memset(&got, 0, sizeof(got));
	assert_int_equal(errmap_read_again(dir, 4, UINT64_MAX, collect, &got,
	    &c), 0);
	/* earlier: [10,25) (passes 1 and 3 joined), [100,105), [200,201) */
	assert_int_equal(got.n, 3);
	expect_ext(&got.x[0], 10, 15, BLK_CORRUPT);
	expect_ext(&got.x[1], 100, 2, BLK_CORRUPT);
	expect_ext(&got.x[2], 200, 1, BLK_UNWRITTEN);
	assert_int_equal(c.blocks[BLK_CORRUPT], 17);
	assert_int_equal(c.blocks[BLK_UNWRITTEN], 1);
	assert_int_equal(errmap_total(&c), 18);
	assert_int_equal(c.block_size, 4096);
	memset(&got, 0, sizeof(got));
	assert_int_equal(errmap_read_again(dir, 3, UINT64_MAX, collect, &got,
	    &c), 0);
	assert_int_equal(got.n, 1);
	expect_ext(&got.x[0], 15, 5, BLK_STALE);
	memset(&got, 0, sizeof(got));
	assert_int_equal(errmap_read_again(dir, 1, UINT64_MAX, collect, &got,
	    &c), 0);
	assert_int_equal(got.n, 0);	/* nothing earlier */
	assert_int_equal(errmap_read_again(dir, 2, UINT64_MAX, collect, &got,
	    &c), -1);			/* no map of pass 2 */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_flush_in_flight, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_retire, setup, teardown),
		cmocka_unit_test_setup_teardown(test_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_trip, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dense_is_small, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_resume_cut_back, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_torn_and_foreign, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
