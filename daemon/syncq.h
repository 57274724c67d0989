/*
 * syncq.h: many fsyncs at once. The main loop checkpoints every drive
 * once a second (the events, the state file, its directory); one fsync
 * after the other, 24 drives cost 48 or more journal commits in a row on
 * the loop that answers ssdctl. Queued here and sent together through an
 * io_uring, they run side by side and the filesystem folds them into a
 * few commits; the caller still waits for every one of them, so what a
 * checkpoint guarantees does not change.
 */
#ifndef SSDT_SYNCQ_H
#define SSDT_SYNCQ_H

#include <liburing.h>

#define SYNCQ_DEPTH	64	/* in flight at once; more are sent in rounds */

struct syncq_op {
	int	 fd;
	int	 datasync;	/* fdatasync, else fsync */
	int	*res;		/* 0 or -errno, once syncq_run returned */
};

struct syncq {
	struct io_uring	 ring;
	int		 has_ring;	/* else one fsync after the other */
	struct syncq_op	*ops;
	size_t		 n, cap;
};

/* 0; the queue works (in order, without a ring) even when it fails. */
void	syncq_init(struct syncq *);
void	syncq_free(struct syncq *);
/*
 * Sync fd when syncq_run is called; *res is set then. A queue that
 * cannot grow syncs fd at once.
 */
void	syncq_add(struct syncq *, int fd, int datasync, int *res);
/* Sync every queued fd, wait for all; the queue is empty after. */
void	syncq_run(struct syncq *);

#endif
