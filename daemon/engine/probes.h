/*
 * probes.h: the probes of a performance checkpoint's quick suite, one
 * table (probes.c) that everything else reads: the checkpoint engine, the
 * results files (keyed by the probe's id, for the drive's whole life),
 * ssdctl's tables and graphs, and the fio job a test compares against.
 *
 * A probe is a workload: its read share, its random share, its block
 * sizes (one, or a split by weight), the depth each worker keeps in
 * flight, its workers, and where its random offsets fall (zones; none:
 * uniform over the region). The I/Os it issues come from probegen.h.
 *
 * The sweeps are expanded from their definitions. A sweep point whose
 * workload an earlier probe already measures is that probe, not a second
 * run of the same workload (4 KiB random read at QD4 is a row of the
 * random table, a point of the queue-depth, block-size and read-share
 * sweeps, and one probe); probe_family_points() lists a sweep whole.
 */
#ifndef SSDT_PROBES_H
#define SSDT_PROBES_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define PROBE_ID_MAX	32	/* bytes of an id, its NUL included */
#define PROBE_TITLE_MAX	64
#define PROBE_SPLIT_MAX	12	/* block sizes of a split (JESD219 has 12) */
#define PROBE_ZONES_MAX	4

/* The families of the suite, in the order the suite runs them. */
enum probe_family {
	PF_SEQ,		/* sequential read and write, large blocks, QD32 */
	PF_RAND,	/* 4 KiB random read and write at QD1, QD4, QD32 */
	PF_QD_SWEEP,	/* 4 KiB random read and write, QD 1..32 */
	PF_BS_SWEEP,	/* QD4, 512 B..256 KiB, read/write, seq/random */
	PF_MIX_SWEEP,	/* read share 0..100 %, 4 KiB random QD4 */
	PF_DESKTOP,	/* the desktop mix */
	PF_JESD219,	/* the JEDEC JESD219 enterprise mix */
	PF_COUNT
};

/* One block size of a split and its weight (percent; a split sums to 100). */
struct probe_bs {
	uint32_t	size;		/* bytes */
	uint32_t	weight;
};

/* A zone of the region: its share of the region and of the random accesses. */
struct probe_zone {
	uint32_t	region_percent;
	uint32_t	access_percent;
};

struct probe {
	char			id[PROBE_ID_MAX];	/* stable: a results key */
	char			title[PROBE_TITLE_MAX];
	enum probe_family	family;		/* the family that added it */
	unsigned		read_percent;	/* of the I/Os, 0..100 */
	unsigned		random_percent;	/* of the I/Os, 0..100 */
	unsigned		nsplit;		/* 1: a single block size */
	struct probe_bs		split[PROBE_SPLIT_MAX];
	unsigned		queue_depth;	/* in flight per worker */
	unsigned		workers;
	unsigned		nzones;		/* 0: uniform over the region */
	struct probe_zone	zones[PROBE_ZONES_MAX];	/* from the start */
};

/* The suite's probes, in the order it runs them. */
size_t			 probe_count(void);
/* The i-th probe; NULL from probe_count() on. */
const struct probe	*probe_at(size_t i);
/* The probe of an id; NULL for none. */
const struct probe	*probe_find(const char *id);
/* A family's short name ("qd-sweep"). */
const char		*probe_family_name(enum probe_family);
/*
 * The points of a family in its order, each the probe that measures it
 * (for a sweep, some were added by an earlier family): up to `cap` in
 * `out`; returns how many the family has.
 */
size_t			 probe_family_points(enum probe_family,
			    const struct probe **out, size_t cap);
/* Do two probes run the same workload (ids and titles aside)? */
int			 probe_same_workload(const struct probe *,
			    const struct probe *);
/*
 * A selection of probes, as checkpoint_probes takes it: words apart by
 * commas or blanks, each "all", a probe id, a family's name (its points,
 * sweeps whole) or a shell pattern of ids ("rand-*-qd32"). Check: 0, or
 * -1 with why (a word that takes no probe). Has: is the probe in it
 * (NULL: all)?
 */
int			 probe_spec_check(const char *spec, char *why,
			    size_t len);
int			 probe_spec_has(const char *spec, const struct probe *);
/*
 * Seconds the suite takes with each probe measured for `probe_seconds`
 * after a ramp of `probe_ramp` (the time shown before it starts).
 */
uint64_t		 probe_suite_seconds(uint64_t probe_seconds,
			    uint64_t probe_ramp);
/*
 * The fio options of the job that runs the probe's workload (rw,
 * rwmixread, percentage_random, bs or bssplit, random_distribution,
 * norandommap, iodepth, numjobs): the caller adds the target, the region
 * (--size), the engine and the time. 0, or -1 when `len` is too short.
 */
int			 probe_fio_options(const struct probe *, char *buf,
			    size_t len);
/* fio's word for the probe's directions and order ("randrw"). */
const char		*probe_rw(const struct probe *);
/* A block size as ids and fio write it: "512", "4k", "1536", "128k". */
void			 probe_size_label(uint32_t size, char *buf, size_t len);

/*
 * The measured window of a run as its I/O thread saw it: the time it was
 * to last (probe_seconds), its length on CLOCK_MONOTONIC, the time the
 * system spent suspended in it (CLOCK_BOOTTIME's advance beyond
 * CLOCK_MONOTONIC's), the time the thread waited for a CPU in it (the
 * run-queue wait of /proc/thread-self/schedstat; PROBE_WAIT_UNKNOWN when
 * unreadable), and the longest time between two consecutive rounds of
 * the thread in it (its own CLOCK_MONOTONIC stamps, the round that
 * closes the window included). Not opened: no round of the thread was
 * reaped inside the window, only the one that closed it.
 */
#define PROBE_WAIT_UNKNOWN	UINT64_MAX
struct probe_window {
	uint64_t	planned_ns, wall_ns, suspended_ns, runq_ns, gap_ns;
	int		opened;
};

/*
 * A run's thread waits for a completion at most PROBE_ROUND_NS, so that
 * it comes round that often even while the drive holds every I/O. A gap
 * between two of its rounds beyond PROBE_GAP_MAX_NS (ten rounds' worth)
 * is time it did not run at all: stopped (SIGSTOP, a debugger, a frozen
 * cgroup) or kept from every CPU for that long at a stretch; the window
 * is void. Its limit: a thread kept from running for less than that at a
 * time, however often, is not seen by this rule (only by its CPU wait).
 *
 * The other void rule: the system suspended for more than
 * PROBE_SUSPEND_MAX_NS in the window. A window that lasted beyond its
 * length while the thread kept coming round is the drive's (an I/O held
 * across the deadline: its latency shows it), not void. A void window is
 * measured again up to PROBE_RERUNS times.
 *
 * A thread that waited for a CPU more than PROBE_BUSY_PERCENT of the
 * window (each sleeping wait's wake-up queues for a CPU: a busy host) is
 * no void window, but its figure is the drive's as the busy host could
 * drive it: the line says so (probe_window_busy()).
 */
#define PROBE_ROUND_NS		100000000ULL
/*
 * A run's ramp begins with a rest without I/O: half the ramp, at most
 * PROBE_REST_NS (none without a ramp). A probe started the moment a write
 * pass or another probe ends inherits where the host's scheduler left the
 * device's kernel workers and the engine's thread: on a guest of 2 vCPUs,
 * a 4 KiB QD1 read probe started at once ran at 18-35 k IOPS for as long
 * as it lasted, after a rest of 100 ms still at 18 k, after 250 ms or
 * more at 56-92 k (loop device over tmpfs, fio 96-110 k; bench/ckptfio.sh
 * in the README). fio starts after such a rest by itself (its start-up);
 * a drive measured by hand is measured so. The rest is part of the ramp,
 * so a checkpoint lasts as long as before.
 */
#define PROBE_REST_NS		500000000ULL
#define PROBE_GAP_MAX_NS	1000000000ULL
#define PROBE_SUSPEND_MAX_NS	10000000ULL
#define PROBE_BUSY_PERCENT	25
#define PROBE_RERUNS		2
/* 0 for a window that holds; 1 with why it is void in `why`. */
int			 probe_window_void(const struct probe_window *,
			    char *why, size_t len);
/* Did the thread wait for a CPU over PROBE_BUSY_PERCENT of the window? */
int			 probe_window_busy(const struct probe_window *);

/*
 * CLOCK_BOOTTIME's advance over CLOCK_MONOTONIC (the time suspended since
 * boot), read with `now` as MONOTONIC, BOOTTIME, MONOTONIC again until the
 * two MONOTONIC reads are at most PROBE_CLOCK_PAIR_NS apart (a thread
 * preempted between the reads would count its wait as a suspend), the
 * closest pair taken after PROBE_CLOCK_TRIES; the error is below that
 * spread, never above it.
 */
#define PROBE_CLOCK_PAIR_NS	100000ULL
#define PROBE_CLOCK_TRIES	100
uint64_t		 probe_suspended_ns(uint64_t (*now)(clockid_t));

#endif
