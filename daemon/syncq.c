/*
 * syncq.c: fsyncs queued, sent together through an io_uring and waited
 * for together (see syncq.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "syncq.h"

void
syncq_init(struct syncq *q)
{
	memset(q, 0, sizeof(*q));
	q->has_ring = io_uring_queue_init(SYNCQ_DEPTH, &q->ring, 0) == 0;
}

void
syncq_free(struct syncq *q)
{
	if (q->has_ring)
		io_uring_queue_exit(&q->ring);
	free(q->ops);
	memset(q, 0, sizeof(*q));
}

/* One sync now, in this thread. */
static int
sync_now(const struct syncq_op *op)
{
	int	rc = op->datasync ? fdatasync(op->fd) : fsync(op->fd);

	return rc == -1 ? -errno : 0;
}

void
syncq_add(struct syncq *q, int fd, int datasync, int *res)
{
	struct syncq_op	 op = { fd, datasync, res }, *n;
	size_t		 cap = q->cap ? 2 * q->cap : 16;

	if (q->n == q->cap) {
		if ((n = realloc(q->ops, cap * sizeof(*n))) == NULL) {
			*res = sync_now(&op);
			return;
		}
		q->ops = n;
		q->cap = cap;
	}
	q->ops[q->n++] = op;
}

/* Send ops[0..n) (n <= SYNCQ_DEPTH) and wait for them all; -1 when the
 * ring refused them (the caller syncs those left itself). */
static int
run_round(struct syncq *q, struct syncq_op *ops, size_t n)
{
	struct io_uring_sqe	*sqe;
	struct io_uring_cqe	*cqe;
	size_t			 i, got = 0;

	for (i = 0; i < n; i++) {
		if ((sqe = io_uring_get_sqe(&q->ring)) == NULL)
			return -1;	/* cannot happen: the ring is empty */
		io_uring_prep_fsync(sqe, ops[i].fd,
		    ops[i].datasync ? IORING_FSYNC_DATASYNC : 0);
		io_uring_sqe_set_data64(sqe, i);
	}
	if (io_uring_submit(&q->ring) != (int)n)
		return -1;
	while (got < n) {
		int rc = io_uring_wait_cqe(&q->ring, &cqe);

		if (rc == -EINTR)
			continue;
		if (rc < 0)
			return -1;
		*ops[io_uring_cqe_get_data64(cqe)].res = cqe->res < 0 ?
		    cqe->res : 0;
		io_uring_cqe_seen(&q->ring, cqe);
		got++;
	}
	return 0;
}

void
syncq_run(struct syncq *q)
{
	size_t	i, n;

	for (i = 0; i < q->n; i++)
		*q->ops[i].res = 1;	/* not answered yet */
	for (i = 0; i < q->n && q->has_ring; i += n) {
		n = q->n - i < SYNCQ_DEPTH ? q->n - i : SYNCQ_DEPTH;
		if (run_round(q, q->ops + i, n) == -1)
			q->has_ring = 0;	/* the rest in order, below */
	}
	for (i = 0; i < q->n; i++)
		if (*q->ops[i].res == 1)
			*q->ops[i].res = sync_now(&q->ops[i]);
	q->n = 0;
}
