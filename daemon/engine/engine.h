/*
 * engine.h: the per-drive I/O worker thread (io_uring, O_DIRECT, fixed
 * buffers). The main thread hands it one job at a time; the worker
 * publishes counters and findings, and signals the end of a job through
 * an eventfd. Nothing else crosses the thread boundary.
 */
#ifndef SSDT_ENGINE_H
#define SSDT_ENGINE_H

#include <stdint.h>

#include "block.h"
#include "lathist.h"
#include "layout.h"
#include "probes.h"
#include "purge.h"
#include "state.h"

/*
 * Worker threads run this many nice steps above the thread that starts
 * them: on a host whose CPUs the drives' I/O keeps busy (many fast
 * drives), the main loop still answers ssdctl and checkpoints on time,
 * and it needs little CPU. A main thread allowed to (main.c) runs as far
 * below its own start, so that the workers compete for CPU at the nice a
 * tool like fio runs its jobs at.
 */
#define ENGINE_WORKER_NICE	5

/* Step the calling thread's nice by delta (its nice before in *from):
 * 0, or -1 with errno (not allowed). */
int	engine_nice_step(int delta, int *from);

enum job_kind {
	JOB_WRITE,	/* write blocks [base + map(seq)] with `generation` */
	JOB_VERIFY,	/* read blocks base + seq and classify them */
	JOB_TRIM,	/* discard bytes [base*bs + seq*chunk ...] */
	/* the probe jobs of a performance checkpoint (engine_probe.c) */
	JOB_PROBE_FILL,	/* write the probe region once, sequentially, untimed */
	JOB_PROBE_RUN,	/* one probe over the region: ramp, then measured */
	JOB_PROBE_CHECK, /* read the probe region sequentially, check every unit */
	JOB_PROBE_IDLE,	/* no I/O for duration_ns: the drive's idle time */
	/* the drive's own erase (prepare = format | sanitize), items of
	 * PURGE_STEPS */
	JOB_PURGE
};

/*
 * What a probe job needs beyond the common fields (queue_depth: of fill
 * and check; generation: what fill and run writes stamp;
 * expect.instance: the drive's; continue_on_error; lay: the layout the
 * region must lie in, outside the static area).
 *
 * A probe writes units of `unit` bytes (the device's logical block), each
 * a block of block.h at its own offset; every unit it reads must be one
 * with a generation in [gen_lo, gen_hi].
 */
struct probe_job {
	const struct probe *probe;	/* run: the workload (probes.h) */
	uint64_t	region_off;	/* bytes; a multiple of unit */
	uint64_t	region_len;	/* bytes; a multiple of unit, > 0 */
	uint32_t	unit;		/* the device's logical block size */
	uint64_t	gen_lo, gen_hi;	/* what every unit read may hold */
	/*
	 * The write time stamped in every unit written; 0: the job's start.
	 * The same for every probe job of a checkpoint, so that all writes
	 * of a unit with one generation are the same bytes (engine_probe.c).
	 */
	uint64_t	stamp_ns;
	uint64_t	ramp_ns;	/* run: not counted */
	uint64_t	duration_ns;	/* run: measured, after the ramp */
	uint64_t	seed;		/* run: of the workers' streams */
	int		allow_blank;	/* check: a discarded (blank) unit is ok */
	/*
	 * run: poll for each completion, up to BATCH_FAST_NS, before
	 * sleeping for it (probe_wait = poll)
	 */
	int		poll;
	/* run: windows measured again when one is void (probes.h), at most */
	unsigned	reruns;
};

struct job {
	enum job_kind	kind;
	struct layout	lay;
	uint64_t	base;		/* first block of the area */
	uint64_t	count;		/* items in the pass (blocks, or trim chunks) */
	uint64_t	start;		/* first item to do (resume point) */
	struct perm	perm;		/* write: item -> block offset within the area */
	uint64_t	generation;	/* write: generation to stamp */
	struct progress	expect;		/* verify: schedule position defining expectations */
	uint64_t	write_budget;	/* write: stop after this many bytes, 0 = none */
	/* write: stop before this item, without the final flush (a power
	 * cut follows, drive_cut.c); 0: none */
	uint64_t	stop_at;
	uint64_t	trim_chunk;	/* trim: bytes per discard call */
	int		continue_on_error; /* on_io_error = continue */
	/*
	 * verify: the first after a power loss. A block that a completed
	 * flush covered (its expectation is the new generation alone) and
	 * that holds an older one or nothing is lost_flush, not stale or
	 * unwritten; a block written after the last flush that holds the
	 * new generation counts in unflushed_kept.
	 */
	int		power_lost;
	/* power_lost, kept_bounded: only the pass's items below kept_end
	 * count as kept (a cut knows where its pass stood) */
	int		kept_bounded;
	uint64_t	kept_end;
	/* power_lost: the blocks an earlier loss's verify found lost and no
	 * pass wrote since; found so again, they are no new lost_flush */
	struct lost_list lost;
	uint32_t	queue_depth;
	struct probe_job pj;		/* the probe jobs' */
	struct purge	purge;		/* purge: what to send (purge.h) */
};

enum job_end {
	JOB_DONE,	/* every item done */
	JOB_STOPPED,	/* asked to stop or pause */
	JOB_BUDGET,	/* write budget reached */
	JOB_FAILED	/* I/O error with on_io_error = stop, or device gone */
};

/* One non-ok block, or a run of adjacent blocks of the same kind. */
struct finding {
	enum blk_class	cls;
	uint64_t	offset;		/* byte offset of the first block */
	uint64_t	nblocks;
	/* bytes of each of the nblocks: the job's block size, or a probe
	 * job's unit (0, in a finding made elsewhere: the block size) */
	uint32_t	unit;
	uint64_t	expected_gen;
	int		expected_unwritten; /* unwritten was the (only) expectation */
	struct blk_result res;		/* of the first block */
	int		err;		/* io_error: errno */
};

/* The direction of an I/O, for engine_stats.lat[]. */
enum lat_dir { LAT_WRITE, LAT_READ, LAT_NDIR };

/* Counters of the worker: cumulative since engine_start, monotonic. */
struct engine_stats {
	uint64_t	position;	/* items of the current job completed in order */
	/*
	 * Items below it are durable: for a write job, a cache flush sent
	 * after they completed has completed; for others, = position. What
	 * a checkpoint may record as written.
	 */
	uint64_t	durable;
	uint64_t	bytes_written;	/* probes' included: host writes */
	uint64_t	probe_bytes_written;	/* of them, the probe jobs' */
	uint64_t	bytes_read;
	uint64_t	bytes_trimmed;
	uint64_t	write_ops;
	uint64_t	read_ops;
	uint64_t	blocks_checked;
	/* power_lost verify: blocks written after the last flush, kept */
	uint64_t	unflushed_kept;
	uint64_t	errors[BLK_NCLASS];
	uint64_t	cpu_ns;		/* worker thread CPU time */
	uint64_t	flushes;	/* cache flushes completed */
	uint64_t	flush_lat_last_us;	/* of the last completed flush */
	uint64_t	flush_lat_max_us;
	int		flush_err;	/* errno of a failed flush, else 0 */
	int		running;	/* a job is in progress */
	/*
	 * Latency of each completed read and write, from the submission
	 * that sent it to the reap that took it (the clocks of the round,
	 * engine.c); last, for the counters above to share cache lines.
	 */
	struct lathist	lat[LAT_NDIR];
};

/*
 * What a probe job measured, published once at its end. The figures are
 * those of the measured window: a run's, from the end of its ramp to the
 * deadline; a fill's or check's, the whole job. Errors are the units
 * found bad over the whole job (ramp and drain included): a finding is
 * one whenever it was made.
 */
struct probe_result {
	char		id[PROBE_ID_MAX];	/* a run's probe; "" else */
	enum job_kind	kind;
	uint64_t	window_ns;	/* the measured window's length */
	uint64_t	ops[LAT_NDIR];	/* completed in the window */
	uint64_t	bytes[LAT_NDIR];
	double		iops[LAT_NDIR];		/* ops / window */
	double		bytes_per_sec[LAT_NDIR];
	uint64_t	units_checked;	/* read and checked, whole job */
	uint64_t	errors[BLK_NCLASS];	/* units, whole job */
	struct lathist	lat[LAT_NDIR];	/* of the window's I/Os */
	int		poll;		/* the run polled (probe_job.poll) */
	/*
	 * run: the windows measured (1 + reruns taken); the last's edges;
	 * those found void, in order (all of them: the result is void).
	 */
	unsigned	attempts;
	struct probe_window window;
	unsigned	nvoid;
	struct probe_window voided[PROBE_RERUNS + 1];
};

struct engine;

/* Does f extend the run p (adjacent, same kind, same shift)? */
int		 finding_continues(const struct finding *p,
		    const struct finding *f, uint32_t bs);

/* Start the worker for an open fd; the fd stays owned by the caller. */
struct engine	*engine_start(int fd, const char *name, const char *serial,
		    uint32_t block_size, uint32_t max_queue_depth, char *err,
		    size_t errlen);
void		 engine_free(struct engine *);
/*
 * The target's logical block: a verify compares blocks that may have been
 * cut in a write piece by piece of this size (block.h, BLK_TORN). Before
 * the first job; 0 or unset: 512 bytes.
 */
void		 engine_set_tear_unit(struct engine *, uint32_t);
/* For a worker stuck in the kernel: ask it to quit, never wait for it. */
void		 engine_abandon(struct engine *);
/* The eventfd that becomes readable when a job ends or findings wait. */
int		 engine_notify_fd(struct engine *);
int		 engine_submit(struct engine *, const struct job *);
/* Ask the running job to stop at the next submission boundary. */
void		 engine_stop_job(struct engine *);
/*
 * Stop the running job as engine_stop_job does, its I/O in flight
 * completed, but without the flush at its end: the writes since the last
 * periodic flush stay acknowledged and unflushed (a power cut follows).
 */
void		 engine_cut_job(struct engine *);
/* Snapshot counters and take up to max queued findings (consistent). */
size_t		 engine_poll(struct engine *, struct engine_stats *,
		    struct finding *, size_t max);
/* Drain the eventfd; then check engine_poll and engine_job_done. */
void		 engine_ack(struct engine *);
/* A job is queued or running. */
int		 engine_busy(struct engine *);
/* The bytes the worker has written so far (its stats' bytes_written as
 * they are now, ahead of the last snapshot); any thread. */
uint64_t	 engine_written_live(struct engine *);
/*
 * I/Os the kernel has taken and not completed, and since when none has
 * completed (CLOCK_MONOTONIC ns): what tells a device that stopped
 * answering from a worker that has nothing in flight. Main thread only.
 */
void		 engine_inflight(struct engine *, uint64_t *n,
		    uint64_t *since_ns);
/* After the job ended: how, and the errno of a fatal failure. */
int		 engine_job_done(struct engine *, enum job_end *, int *err);
/*
 * After a probe job ended: its result, taken (a second call has none).
 * 0, or -1 when no probe job has ended since the last one was taken.
 */
int		 engine_probe_result(struct engine *, struct probe_result *);
/*
 * The timeline of the write job that ended last (timeline.h), taken once:
 * 1 with it in *out, 0 when there is none. Called after engine_job_done.
 */
struct timeline;
int		 engine_timeline(struct engine *, struct timeline *out);

#endif
