/*
 * syncq.h: many fsyncs at once. The main loop checkpoints every drive
 * once a second (the events, the state file, its directory); one fsync
 * after the other, 24 drives cost 48 or more journal commits in a row on
 * the loop that answers ssdctl. Queued here and sent together through an
 * io_uring, they run side by side and the filesystem folds them into a
 * few commits. The caller may wait for them (syncq_run), or send them
 * and go on, taking the answers as they come (syncq_start, syncq_reap
 * when syncq_fd is readable); either way a result is known only once it
 * is answered, so what a checkpoint guarantees does not change.
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
	int		 efd;		/* signalled on each answer; -1: none */
	struct syncq_op	*ops;
	size_t		 n, cap;
	size_t		 sent, done;	/* of ops[0..n) since syncq_start */
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
/*
 * Send the queued syncs and return; without a ring they are done here,
 * one after the other. Nothing may be added until syncq_reap says 1.
 */
void	syncq_start(struct syncq *);
/*
 * Take the answers there are (with `wait`, until all are in) and send
 * what the ring had no room for. 1 once every sync is answered (the
 * queue is then empty), else 0.
 */
int	syncq_reap(struct syncq *, int wait);
/* Readable when answers wait for syncq_reap; -1 when there is none to
 * watch (then syncq_reap(q, 1) is the way). Every answer signals it, also
 * those syncq_run waited for: the watcher takes each signal (syncq_ack)
 * whether it reaps or not, or a level-triggered watch never rests. */
int	syncq_fd(const struct syncq *);
void	syncq_ack(struct syncq *);

#endif
