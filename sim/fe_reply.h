/*
 * fe_reply.h: the reply scheduler. A request is served at once; its reply
 * waits here until the model's completion time (CLOCK_MONOTONIC) and is
 * sent by the reply thread, so that many requests are in flight at once
 * and each completes when the model says, not when the host's CPU is done.
 */
#ifndef SSDSIM_FE_REPLY_H
#define SSDSIM_FE_REPLY_H

#include <stddef.h>
#include <stdint.h>

#define FUSE_USE_VERSION	312
#include <fuse_lowlevel.h>

enum fe_reply_kind { FE_R_ERR, FE_R_BUF, FE_R_WRITE };

struct fe_reply {
	uint64_t		done;	/* when to send it (ns, monotonic) */
	uint64_t		gen;	/* power generation it was served in */
	fuse_req_t		req;
	enum fe_reply_kind	kind;
	int			err;	/* FE_R_ERR: errno, 0 for success */
	void		       *buf;	/* FE_R_BUF: the data, freed once sent */
	size_t			size;	/* FE_R_BUF bytes, FE_R_WRITE count */
};

struct fe_reply_q;

struct fe_reply_q *fe_reply_start(void);
/* Send every pending reply now, end the thread, free the queue. */
void	fe_reply_stop(struct fe_reply_q *q);
/* Send r at r->done: now if it is due, else from the reply thread. */
void	fe_reply_push(struct fe_reply_q *q, const struct fe_reply *r);
/*
 * The power went: every reply of a generation below `gen` still pending,
 * or pushed later, is answered with `err` at once (the drive never
 * completed it).
 */
void	fe_reply_fail_before(struct fe_reply_q *q, uint64_t gen, int err);
/* Replies waiting now (for status). */
size_t	fe_reply_pending(struct fe_reply_q *q);

#endif
