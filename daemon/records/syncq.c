/*
 * syncq.c: fsyncs queued, sent together through an io_uring and waited
 * for together (see syncq.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "syncq.h"

void
syncq_init(struct syncq *q)
{
	memset(q, 0, sizeof(*q));
	q->efd = -1;
	q->has_ring = io_uring_queue_init(SYNCQ_DEPTH, &q->ring, 0) == 0;
	if (!q->has_ring)
		return;
	q->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (q->efd >= 0 && io_uring_register_eventfd(&q->ring, q->efd) < 0) {
		close(q->efd);
		q->efd = -1;
	}
}

void
syncq_free(struct syncq *q)
{
	if (q->has_ring)
		io_uring_queue_exit(&q->ring);
	if (q->efd >= 0)
		close(q->efd);
	free(q->ops);
	memset(q, 0, sizeof(*q));
	q->efd = -1;
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

/* Every sync not answered yet, here and now (the ring failed us). */
static void
sync_rest(struct syncq *q)
{
	size_t	i;

	for (i = 0; i < q->n; i++)
		if (*q->ops[i].res == 1)
			*q->ops[i].res = sync_now(&q->ops[i]);
	q->has_ring = 0;
	q->sent = q->done = q->n;
}

/* Send what the ring has room for. */
static void
send_more(struct syncq *q)
{
	struct io_uring_sqe	*sqe;
	int			 k = 0;

	while (q->sent < q->n && q->sent - q->done < SYNCQ_DEPTH &&
	    (sqe = io_uring_get_sqe(&q->ring)) != NULL) {
		io_uring_prep_fsync(sqe, q->ops[q->sent].fd,
		    q->ops[q->sent].datasync ? IORING_FSYNC_DATASYNC : 0);
		io_uring_sqe_set_data64(sqe, q->sent);
		q->sent++;
		k++;
	}
	if (k > 0 && io_uring_submit(&q->ring) != k)
		sync_rest(q);
}

void
syncq_start(struct syncq *q)
{
	size_t	i;

	for (i = 0; i < q->n; i++)
		*q->ops[i].res = 1;	/* not answered yet */
	q->sent = q->done = 0;
	if (q->has_ring)
		send_more(q);
	else
		sync_rest(q);
}

/* One answer, waiting for it when `wait`: 1, 0 for none yet, -1 broken. */
static int
take_one(struct syncq *q, int wait)
{
	struct io_uring_cqe	*cqe;
	int			 rc;

	do
		rc = wait ? io_uring_wait_cqe(&q->ring, &cqe) :
		    io_uring_peek_cqe(&q->ring, &cqe);
	while (rc == -EINTR);
	if (rc == -EAGAIN && !wait)
		return 0;
	if (rc < 0)
		return -1;
	*q->ops[io_uring_cqe_get_data64(cqe)].res = cqe->res < 0 ? cqe->res :
	    0;
	io_uring_cqe_seen(&q->ring, cqe);
	q->done++;
	return 1;
}

void
syncq_ack(struct syncq *q)
{
	uint64_t	v;

	if (q->efd >= 0)
		(void)!read(q->efd, &v, sizeof(v));
}

int
syncq_reap(struct syncq *q, int wait)
{
	int	rc = 1;

	syncq_ack(q);		/* answers after this read signal again */
	while (q->done < q->n && rc == 1) {
		if ((rc = take_one(q, wait)) == -1)
			sync_rest(q);
		else
			send_more(q);
	}
	if (q->done < q->n)
		return 0;
	q->n = q->sent = q->done = 0;
	return 1;
}

int
syncq_fd(const struct syncq *q)
{
	return q->has_ring ? q->efd : -1;
}

void
syncq_run(struct syncq *q)
{
	syncq_start(q);
	(void)syncq_reap(q, 1);
}
