/* test_syncq.c: fsyncs sent together, each result where it belongs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "syncq.h"

/* More files than the ring holds, so the queue runs in rounds. */
#define NFILES	(2 * SYNCQ_DEPTH + 5)

/* NFILES files with a line each and a closed descriptor between them;
 * every result is that file's own, the closed one's EBADF. */
static void
run_many(struct syncq *q)
{
	char	dir[] = "/tmp/ssdt_sq_XXXXXX", path[64];
	int	fd[NFILES], res[NFILES], bad = NFILES / 2, i;

	assert_non_null(mkdtemp(dir));
	for (i = 0; i < NFILES; i++) {
		snprintf(path, sizeof(path), "%s/%d", dir, i);
		fd[i] = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
		assert_true(fd[i] >= 0);
		assert_int_equal(write(fd[i], "x\n", 2), 2);
		unlink(path);
	}
	close(fd[bad]);
	for (i = 0; i < NFILES; i++) {
		res[i] = 12345;
		syncq_add(q, fd[i], i % 2, &res[i]);
	}
	syncq_run(q);
	for (i = 0; i < NFILES; i++)
		assert_int_equal(res[i], i == bad ? -EBADF : 0);
	assert_int_equal(q->n, 0);
	res[0] = 12345;		/* the queue is reusable */
	syncq_add(q, fd[0], 1, &res[0]);
	syncq_run(q);
	assert_int_equal(res[0], 0);
	for (i = 0; i < NFILES; i++)
		if (i != bad)
			close(fd[i]);
	rmdir(dir);
}

static void
test_ring(void **state)
{
	struct syncq	q;

	(void)state;
	syncq_init(&q);
	assert_true(q.has_ring);	/* the daemon's engine needs one too */
	run_many(&q);
	syncq_free(&q);
}

/*
 * Sent without waiting, answers taken as the eventfd says they came: every
 * result its own, none known before it is answered, the queue reusable.
 */
static void
test_async(void **state)
{
	char		dir[] = "/tmp/ssdt_sq_XXXXXX", path[64];
	struct syncq	q;
	struct pollfd	pfd;
	int		fd[NFILES], res[NFILES], i, rounds = 0, done = 0;

	(void)state;
	syncq_init(&q);
	assert_true(syncq_fd(&q) >= 0);
	assert_non_null(mkdtemp(dir));
	for (i = 0; i < NFILES; i++) {
		snprintf(path, sizeof(path), "%s/%d", dir, i);
		fd[i] = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
		assert_true(fd[i] >= 0);
		assert_int_equal(write(fd[i], "y\n", 2), 2);
		unlink(path);
		res[i] = 12345;
		syncq_add(&q, fd[i], 0, &res[i]);
	}
	close(fd[3]);
	syncq_start(&q);
	for (i = 0; i < NFILES; i++)	/* sent, or waiting for room */
		assert_true(res[i] == 1 || res[i] == 0 || res[i] == -EBADF);
	while (!done) {
		pfd = (struct pollfd){ syncq_fd(&q), POLLIN, 0 };
		assert_int_equal(poll(&pfd, 1, 10000), 1);
		done = syncq_reap(&q, 0);
		rounds++;
	}
	for (i = 0; i < NFILES; i++)
		assert_int_equal(res[i], i == 3 ? -EBADF : 0);
	assert_int_equal(q.n, 0);
	assert_true(rounds >= 1);
	res[0] = 12345;
	syncq_add(&q, fd[0], 1, &res[0]);
	syncq_run(&q);
	assert_int_equal(res[0], 0);
	/* syncq_run's answers signalled too: once taken, the fd rests */
	syncq_ack(&q);
	pfd = (struct pollfd){ syncq_fd(&q), POLLIN, 0 };
	assert_int_equal(poll(&pfd, 1, 0), 0);
	for (i = 0; i < NFILES; i++)
		if (i != 3)
			close(fd[i]);
	rmdir(dir);
	syncq_free(&q);
}

/* Without a ring (io_uring refused): the same results, one by one. */
static void
test_no_ring(void **state)
{
	struct syncq	q;

	(void)state;
	syncq_init(&q);
	if (q.has_ring)
		io_uring_queue_exit(&q.ring);
	q.has_ring = 0;
	run_many(&q);
	syncq_free(&q);
}

/* An empty queue runs and returns at once. */
static void
test_empty(void **state)
{
	struct syncq	q;

	(void)state;
	syncq_init(&q);
	syncq_run(&q);
	assert_int_equal(q.n, 0);
	syncq_free(&q);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_async),
		cmocka_unit_test(test_no_ring),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
