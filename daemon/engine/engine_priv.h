/*
 * engine_priv.h: what the I/O worker's files share. engine.c holds the
 * worker and its cycle jobs (write, verify, trim); engine_probe.c the
 * probe jobs of a performance checkpoint, run on the same ring by the same
 * thread; engine_ring.c what both run on. Nothing here is for another
 * file.
 */
#ifndef SSDT_ENGINE_PRIV_H
#define SSDT_ENGINE_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <liburing.h>

#include "engine.h"
#include "timeline.h"

struct probe_state;

#define QUEUE_CAP	4096	/* findings waiting for the main thread */
#define LOCAL_CAP	256	/* findings committed, not yet published */
#define PUBLISH_NS	50000000ULL
#define FLUSH_NS	1000000000ULL	/* one flush per checkpoint (1 s) */
#define FLUSH_TAG	UINT64_MAX	/* user_data of the flush */
#define FLUSH_TRIES	100		/* -EAGAIN / -EINTR in a row */
/*
 * On a fast device a round waits for a share of what is in flight
 * (1/BATCH_DIV), so that the worker sleeps and wakes once per batch, not
 * once per completion, while the device keeps the rest of its queue. A
 * device is fast while a round's wait lasts less than BATCH_FAST_NS; on
 * a slower one each completion is worth its wake-up, and a batch would
 * hold the first completions back from their latency.
 */
#define BATCH_DIV	4
#define BATCH_FAST_NS	100000ULL

/* One I/O in flight. */
struct slot {
	uint64_t	seq;
	uint64_t	off;		/* byte offset of the block */
	uint32_t	done;		/* bytes transferred so far */
	uint64_t	t_submit;
	int		busy;
};

/* The window entry of one item between submission and in-order commit. */
struct witem {
	int		done;
	int		has_finding;
	struct finding	f;
};

struct engine {
	/* immutable after engine_start */
	char		 name[64];
	char		 serial[128];	/* for the journal; "" unknown */
	int		 fd;
	int		 is_blockdev;
	uint32_t	 bs;
	/* the pieces a write may be cut into (engine_set_tear_unit); 0:
	 * BLK_MIN_SIZE. Set before the first job, read by the worker. */
	uint32_t	 tear_unit;
	uint32_t	 maxqd;
	int		 efd;
	pthread_t	 thr;
	struct engine	*next_abandoned;	/* main thread only */
	unsigned	 seen_tail;	/* main thread only: engine_inflight */
	uint64_t	 seen_ns;

	/* worker-only */
	struct io_uring	 ring;
	unsigned char	*bufs;
	size_t		 bufs_len;
	int		 fixed_bufs;	/* registered; else plain buffers */
	uint64_t	 t_wait;	/* when the last wait began */
	struct slot	*slots;
	uint32_t	*freelist;
	uint32_t	 nfree;
	/*
	 * The clock is read once per round, not per I/O (a vDSO read is
	 * not free on every host): slots queued since the last submission
	 * get its time as their start, completions the time of the reap.
	 */
	uint32_t	*fresh;		/* slots queued, not yet submitted */
	uint32_t	 nfresh;
	uint32_t	*taken;		/* slots taken, not yet queued */
	uint32_t	 ntaken;
	uint64_t	 t_reap;	/* CLOCK_MONOTONIC at the last reap */
	uint64_t	 wall;		/* CLOCK_REALTIME for the blocks of a round */
	struct witem	*win;
	uint64_t	 wsize;
	struct engine_stats loc;
	struct finding	 pend;		/* run being coalesced */
	int		 has_pend;
	struct finding	 local[LOCAL_CAP];
	size_t		 nlocal;
	uint64_t	 last_publish;
	struct job	 job;
	struct perm	 vperm;		/* verify: the pass permutation */
	struct probe_state *probe;	/* a probe job's own state, during it */
	struct timeline	 tl;		/* a write job's, during it */
	uint64_t	 finished;	/* the job's items done, in any order */
	int		 fail_err;
	int		 flush_busy;	/* a flush is queued or in flight */
	uint64_t	 flush_pos;	/* the position it covers */
	uint64_t	 flush_t0;	/* when it was sent */
	unsigned	 flush_again;	/* -EAGAIN / -EINTR in a row */

	/*
	 * shared, lock-free: what the stall rule of the main thread reads.
	 * In flight = submitted - reaped: I/Os the kernel took and has not
	 * completed (a discard counts while its call runs). progress_ns is
	 * the last completion, or the submission that ended an empty ring,
	 * or the worker's return from waiting for the main thread.
	 */
	atomic_uint_fast64_t	 submitted;
	atomic_uint_fast64_t	 reaped;
	atomic_uint_fast64_t	 progress_ns;
	/* loc.bytes_written as it is now, not as last published: what the
	 * SMART cross-check bounds the drive's count by (a snapshot may be
	 * PUBLISH_NS old, megabytes at a drive's speed) */
	atomic_uint_fast64_t	 written_live;
	atomic_int		 waiting_main;	/* for the main thread to drain */

	/* shared, under mu */
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 init_done, init_err;
	int		 have_job, job_running, job_ended, quit;
	enum job_end	 end;
	int		 end_err;
	struct engine_stats pub;
	struct finding	*q;
	size_t		 qhead, qlen;
	/* the result of the last probe job, until engine_probe_result()
	 * takes it: set by the worker at the job's end, freed by the taker */
	struct probe_result *probe_pub;
	/* the timeline of the last write job, until engine_timeline()
	 * takes it: set by the worker at the job's end */
	struct timeline	 tl_pub;
	int		 tl_ready;
	atomic_int	 stop_req;
	/* with stop_req: no flush at the job's end (a power cut follows) */
	atomic_int	 no_final_flush;
};

/* engine_ring.c: what every job runs on; it calls no runner */
/* Tell the main thread (its eventfd) that there is news. */
void			 engine_notify_main(struct engine *);
/* Move local findings and counters to the shared snapshot atomically. */
void			 engine_publish(struct engine *);
/* Commit a finding (in the job's order), merging runs of adjacent units. */
void			 engine_commit_finding(struct engine *,
			    const struct finding *);
/* Submit what is queued, and wait for `wait` completions. */
int			 engine_ring_submit(struct engine *, unsigned wait);
/* Poll for `want` completions, boundedly; 1 if they came (no wait then). */
int			 engine_ring_poll(struct engine *, unsigned want);
/* A free SQE, or NULL when the kernel takes nothing. */
struct io_uring_sqe	*engine_ring_sqe(struct engine *);
/* Nothing queued and nothing in flight: wait a moment, boundedly. */
int			 engine_ring_backoff(struct engine *, unsigned *tries);
/* n completions taken from the ring at t_reap: progress for the stall rule. */
void			 engine_reaped(struct engine *, unsigned n);
/* A job's I/O in slot `idx` completed with `res` (engine_reap). */
typedef void (*engine_done_fn)(struct engine *, uint32_t idx, int res);
/* Reap every completion there is: flushes here, the job's through done. */
void			 engine_reap(struct engine *, engine_done_fn done);
/* Register the cycle jobs' buffers (fixed_bufs says whether it did). */
void			 engine_register_bufs(struct engine *);
/* Queue a cache flush covering every item below the position; -1: no SQE. */
int			 engine_flush_start(struct engine *);
/* A flush's completion (user_data FLUSH_TAG): the durable mark, or a failure. */
void			 engine_flush_done(struct engine *, int res);
/* Time (`now`) for a write job's periodic flush? */
int			 engine_flush_due(const struct engine *, uint64_t now);
/* Nothing else in flight: flush until what the job wrote is durable (a job
 * that claims nothing, a fatal error: nothing is sent; fail_err if it fails). */
void			 engine_flush_all(struct engine *);
/* engine_flush_all(), unless a power cut follows (no_final_flush). */
void			 engine_flush_final(struct engine *);

/* engine_probe.c */
/* Run a probe job (PROBE_FILL, PROBE_RUN, PROBE_CHECK) to its end. */
enum job_end		 engine_run_probe(struct engine *);
/* The most I/Os a probe keeps in flight: what the ring must hold. */
unsigned		 engine_probe_inflight_max(void);

#endif
