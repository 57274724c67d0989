/*
 * probes.c: the quick suite's probe table, expanded once from the
 * definitions below (each depth, size and share list written once), and
 * the fio job of each probe.
 *
 * The ids are results keys that outlive any version of this file: a
 * family's id pattern and the labels of its sizes never change, and a new
 * probe is added after the existing ones of its family.
 */
#include <fnmatch.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes.h"

#define KiB	1024u

/* Sequential rows: the sizes the reviews quote, at QD32. */
static const uint32_t	seq_sizes[] = { 128 * KiB, 256 * KiB };
#define SEQ_QD		32u

/* The 4 KiB random rows; the small block of the sweeps. */
#define SMALL_BS	(4 * KiB)
static const unsigned	rand_depths[] = { 1, 4, 32 };

/* Queue-depth sweep: 4 KiB random read and write. */
static const unsigned	qd_depths[] = { 1, 2, 4, 8, 16, 32 };

/* Block-size sweep (powers of two) and read-share sweep, both at QD4. */
#define SWEEP_QD	4u
#define BS_SWEEP_MIN	512u
#define BS_SWEEP_MAX	(256 * KiB)
#define MIX_STEP	20u		/* read share 0, 20, .. 100 % */

/*
 * The desktop mix: 75 % reads, 75 % random, 4/64/128 KiB in a 55/25/20
 * split, 4 workers. Each worker keeps 1 I/O in flight: a desktop's I/O
 * comes from a few programs that each wait for their read before the
 * next, so 4 in flight in all, the depth at which the sweeps measure the
 * drive too; a deeper queue per worker would make it a server load.
 */
static const struct probe_bs	desktop_split[] = {
	{ 4 * KiB, 55 }, { 64 * KiB, 25 }, { 128 * KiB, 20 },
};
#define DESKTOP_READ	75u
#define DESKTOP_RANDOM	75u
#define DESKTOP_QD	1u
#define DESKTOP_WORKERS	4u

/*
 * The JEDEC enterprise endurance workload: transfer sizes and their
 * shares from JESD219 (JEDEC, September 2010; kept in JESD219A, July
 * 2012), as listed in "SSD Endurance: Endurance Workloads", Tom's
 * Hardware (sponsored by Seagate), tomshardware.com/us/sponsored/
 * Seagate-Solid_State_Drive-SSD_Endurance-120-4. Accesses: 50 % in the
 * first 5 % of the region, 30 % in the next 15 %, 20 % in the rest. The
 * standard gives no queue depth: one worker at QD32, as the suite's other
 * enterprise-depth rows, so that its figures read beside theirs.
 */
static const struct probe_bs	jesd219_split[] = {
	{ 512, 4 }, { 1024, 1 }, { 1536, 1 }, { 2048, 1 }, { 2560, 1 },
	{ 3072, 1 }, { 3584, 1 }, { 4096, 67 }, { 8192, 10 },
	{ 16384, 7 }, { 32768, 3 }, { 65536, 3 },
};
static const struct probe_zone	jesd219_zones[] = {
	{ 5, 50 }, { 15, 30 }, { 80, 20 },
};
#define JESD219_READ	40u
#define JESD219_QD	32u

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* The two directions of the single-direction probes. */
static const struct {
	const char	*name;		/* in ids */
	const char	*title;
	unsigned	 read_percent;
} dirs[] = {
	{ "read", "read", 100 },
	{ "write", "write", 0 },
};

static const char *const family_names[PF_COUNT] = {
	[PF_SEQ] = "seq",
	[PF_RAND] = "rand",
	[PF_QD_SWEEP] = "qd-sweep",
	[PF_BS_SWEEP] = "bs-sweep",
	[PF_MIX_SWEEP] = "mix",
	[PF_DESKTOP] = "desktop",
	[PF_JESD219] = "jesd219",
};

/* Room for the expansion (test_probes counts what it makes). */
#define TABLE_MAX	80
#define POINTS_MAX	48

static struct probe	table[TABLE_MAX];
static size_t		ntable;
static uint8_t		points[PF_COUNT][POINTS_MAX];
static size_t		npoints[PF_COUNT];
static pthread_once_t	built = PTHREAD_ONCE_INIT;

void
probe_size_label(uint32_t size, char *buf, size_t len)
{
	if (size % KiB == 0)
		snprintf(buf, len, "%uk", size / KiB);
	else
		snprintf(buf, len, "%u", size);
}

/* A size as titles write it: "512 B", "128 KiB". */
static void
size_title(uint32_t size, char *buf, size_t len)
{
	if (size % KiB == 0)
		snprintf(buf, len, "%u KiB", size / KiB);
	else
		snprintf(buf, len, "%u B", size);
}

int
probe_same_workload(const struct probe *a, const struct probe *b)
{
	unsigned	i;

	if (a->read_percent != b->read_percent ||
	    a->random_percent != b->random_percent ||
	    a->queue_depth != b->queue_depth || a->workers != b->workers ||
	    a->nsplit != b->nsplit || a->nzones != b->nzones)
		return 0;
	for (i = 0; i < a->nsplit; i++)
		if (a->split[i].size != b->split[i].size ||
		    a->split[i].weight != b->split[i].weight)
			return 0;
	for (i = 0; i < a->nzones; i++)
		if (a->zones[i].region_percent != b->zones[i].region_percent ||
		    a->zones[i].access_percent != b->zones[i].access_percent)
			return 0;
	return 1;
}

/*
 * A point of a family: the probe that already runs its workload, else a
 * new probe of this family. The table's bounds are facts of this file,
 * checked by its unit test: overflowing them is a bug, not a condition.
 */
static void
add(enum probe_family f, struct probe *p)
{
	size_t	i;

	for (i = 0; i < ntable; i++)
		if (probe_same_workload(&table[i], p))
			break;
	if (i == ntable) {
		if (ntable == TABLE_MAX)
			abort();
		p->family = f;
		table[ntable++] = *p;
	}
	if (npoints[f] == POINTS_MAX)
		abort();
	points[f][npoints[f]++] = (uint8_t)i;
}

/* A single-size probe of one worker and no zones. */
static void
single(struct probe *p, unsigned read_percent, unsigned random_percent,
    uint32_t size, unsigned qd)
{
	memset(p, 0, sizeof(*p));
	p->read_percent = read_percent;
	p->random_percent = random_percent;
	p->nsplit = 1;
	p->split[0].size = size;
	p->split[0].weight = 100;
	p->queue_depth = qd;
	p->workers = 1;
}

static void
expand_seq_rand(void)
{
	struct probe	p;
	char		lbl[16], tit[16];
	size_t		d, i;

	for (d = 0; d < NELEM(dirs); d++)
		for (i = 0; i < NELEM(seq_sizes); i++) {
			single(&p, dirs[d].read_percent, 0, seq_sizes[i],
			    SEQ_QD);
			probe_size_label(seq_sizes[i], lbl, sizeof(lbl));
			size_title(seq_sizes[i], tit, sizeof(tit));
			snprintf(p.id, sizeof(p.id), "seq-%s-%s-qd%u",
			    dirs[d].name, lbl, SEQ_QD);
			snprintf(p.title, sizeof(p.title),
			    "Sequential %s, %s, QD%u", dirs[d].title, tit,
			    SEQ_QD);
			add(PF_SEQ, &p);
		}
	probe_size_label(SMALL_BS, lbl, sizeof(lbl));
	size_title(SMALL_BS, tit, sizeof(tit));
	for (d = 0; d < NELEM(dirs); d++)
		for (i = 0; i < NELEM(rand_depths); i++) {
			single(&p, dirs[d].read_percent, 100, SMALL_BS,
			    rand_depths[i]);
			snprintf(p.id, sizeof(p.id), "rand-%s-%s-qd%u",
			    dirs[d].name, lbl, rand_depths[i]);
			snprintf(p.title, sizeof(p.title),
			    "Random %s, %s, QD%u", dirs[d].title, tit,
			    rand_depths[i]);
			add(PF_RAND, &p);
		}
}

static void
expand_qd_sweep(void)
{
	struct probe	p;
	char		lbl[16], tit[16];
	size_t		d, i;

	probe_size_label(SMALL_BS, lbl, sizeof(lbl));
	size_title(SMALL_BS, tit, sizeof(tit));
	for (d = 0; d < NELEM(dirs); d++)
		for (i = 0; i < NELEM(qd_depths); i++) {
			single(&p, dirs[d].read_percent, 100, SMALL_BS,
			    qd_depths[i]);
			snprintf(p.id, sizeof(p.id), "qd-sweep-%s-%s-qd%u",
			    dirs[d].name, lbl, qd_depths[i]);
			snprintf(p.title, sizeof(p.title),
			    "QD sweep: random %s, %s, QD%u", dirs[d].title,
			    tit, qd_depths[i]);
			add(PF_QD_SWEEP, &p);
		}
}

static void
expand_bs_sweep(void)
{
	static const struct {
		const char	*name, *title;
		unsigned	 random_percent;
	} orders[] = {
		{ "seq", "sequential", 0 },
		{ "rand", "random", 100 },
	};
	struct probe	p;
	char		lbl[16], tit[16];
	size_t		o, d;
	uint32_t	bs;

	for (o = 0; o < NELEM(orders); o++)
		for (d = 0; d < NELEM(dirs); d++)
			for (bs = BS_SWEEP_MIN; bs <= BS_SWEEP_MAX; bs *= 2) {
				single(&p, dirs[d].read_percent,
				    orders[o].random_percent, bs, SWEEP_QD);
				probe_size_label(bs, lbl, sizeof(lbl));
				size_title(bs, tit, sizeof(tit));
				snprintf(p.id, sizeof(p.id),
				    "bs-sweep-%s-%s-%s", orders[o].name,
				    dirs[d].name, lbl);
				snprintf(p.title, sizeof(p.title),
				    "BS sweep: %s %s, %s, QD%u",
				    orders[o].title, dirs[d].title, tit,
				    SWEEP_QD);
				add(PF_BS_SWEEP, &p);
			}
}

static void
expand_mix_sweep(void)
{
	struct probe	p;
	char		tit[16];
	unsigned	r;

	size_title(SMALL_BS, tit, sizeof(tit));
	for (r = 0; r <= 100; r += MIX_STEP) {
		single(&p, r, 100, SMALL_BS, SWEEP_QD);
		snprintf(p.id, sizeof(p.id), "mix-read-%u", r);
		snprintf(p.title, sizeof(p.title),
		    "Read share %u %%: random %s, QD%u", r, tit, SWEEP_QD);
		add(PF_MIX_SWEEP, &p);
	}
}

static void
add_mixes(void)
{
	struct probe	p;
	size_t		i;

	memset(&p, 0, sizeof(p));
	snprintf(p.id, sizeof(p.id), "desktop");
	snprintf(p.title, sizeof(p.title), "Desktop mix");
	p.read_percent = DESKTOP_READ;
	p.random_percent = DESKTOP_RANDOM;
	p.nsplit = NELEM(desktop_split);
	for (i = 0; i < p.nsplit; i++)
		p.split[i] = desktop_split[i];
	p.queue_depth = DESKTOP_QD;
	p.workers = DESKTOP_WORKERS;
	add(PF_DESKTOP, &p);

	memset(&p, 0, sizeof(p));
	snprintf(p.id, sizeof(p.id), "jesd219");
	snprintf(p.title, sizeof(p.title), "JEDEC JESD219 enterprise mix");
	p.read_percent = JESD219_READ;
	p.random_percent = 100;
	p.nsplit = NELEM(jesd219_split);
	for (i = 0; i < p.nsplit; i++)
		p.split[i] = jesd219_split[i];
	p.nzones = NELEM(jesd219_zones);
	for (i = 0; i < p.nzones; i++)
		p.zones[i] = jesd219_zones[i];
	p.queue_depth = JESD219_QD;
	p.workers = 1;
	add(PF_JESD219, &p);
}

static void
build(void)
{
	expand_seq_rand();
	expand_qd_sweep();
	expand_bs_sweep();
	expand_mix_sweep();
	add_mixes();
}

size_t
probe_count(void)
{
	pthread_once(&built, build);
	return ntable;
}

const struct probe *
probe_at(size_t i)
{
	return i < probe_count() ? &table[i] : NULL;
}

const struct probe *
probe_find(const char *id)
{
	size_t	i, n = probe_count();

	for (i = 0; i < n; i++)
		if (strcmp(table[i].id, id) == 0)
			return &table[i];
	return NULL;
}

const char *
probe_family_name(enum probe_family f)
{
	return (unsigned)f < PF_COUNT ? family_names[f] : "?";
}

size_t
probe_family_points(enum probe_family f, const struct probe **out,
    size_t cap)
{
	size_t	i;

	if ((unsigned)f >= PF_COUNT)
		return 0;
	pthread_once(&built, build);
	for (i = 0; i < npoints[f] && i < cap; i++)
		out[i] = &table[points[f][i]];
	return npoints[f];
}

/* Is `p` among the points of the family named `name`? -1: no such family. */
static int
family_has(const char *name, const struct probe *p)
{
	const struct probe	*pts[POINTS_MAX];
	size_t			 f, i, n;

	for (f = 0; f < PF_COUNT; f++) {
		if (strcmp(family_names[f], name) != 0)
			continue;
		n = probe_family_points((enum probe_family)f, pts, POINTS_MAX);
		for (i = 0; i < n; i++)
			if (pts[i] == p)
				return 1;
		return 0;
	}
	return -1;
}

/* Does one word of a selection (id, family or pattern) take `p`? */
static int
word_has(const char *word, const struct probe *p)
{
	int	f;

	if (strcmp(word, "all") == 0)
		return 1;
	if ((f = family_has(word, p)) != -1)
		return f;
	return fnmatch(word, p->id, 0) == 0;
}

/*
 * Call fn for each word of a selection (words apart by commas or blanks)
 * until it returns non-zero; that value, else 0.
 */
static int
spec_words(const char *spec, int (*fn)(const char *word, void *arg),
    void *arg)
{
	char		 word[PROBE_ID_MAX * 2];
	const char	*s = spec;
	size_t		 n;
	int		 rc;

	while (*s != '\0') {
		s += strspn(s, ", \t");
		if ((n = strcspn(s, ", \t")) == 0)
			break;
		snprintf(word, sizeof(word), "%.*s", (int)n, s);
		if ((rc = fn(word, arg)) != 0)
			return rc;
		s += n;
	}
	return 0;
}

static int
word_takes(const char *word, void *arg)
{
	return word_has(word, arg);
}

int
probe_spec_has(const char *spec, const struct probe *p)
{
	return spec == NULL || spec_words(spec, word_takes, (void *)p) != 0;
}

struct spec_why {
	char	*why;
	size_t	 len;
};

/* A word that takes no probe: say which. */
static int
word_check(const char *word, void *arg)
{
	struct spec_why	*w = arg;
	size_t		 i, n = probe_count();

	for (i = 0; i < n; i++)
		if (word_has(word, &table[i]))
			return 0;
	snprintf(w->why, w->len, "'%s' is no probe id, family or pattern of "
	    "one (see ssdctl probes)", word);
	return -1;
}

int
probe_spec_check(const char *spec, char *why, size_t len)
{
	struct spec_why	w = { why, len };

	if (spec_words(spec, word_check, &w) != 0)
		return -1;
	if (strspn(spec, ", \t") == strlen(spec)) {
		snprintf(why, len, "no probe named");
		return -1;
	}
	return 0;
}

uint64_t
probe_suite_seconds(uint64_t probe_seconds, uint64_t probe_ramp)
{
	return probe_count() * (probe_seconds + probe_ramp);
}

/* snprintf at *at, moving on; -1 once `len` is exceeded. */
static int
put(char *buf, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	if (*at >= len)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *at) {
		*at = len;
		return -1;
	}
	*at += (size_t)n;
	return 0;
}

/* --bs=SIZE, or --bssplit=SIZE/WEIGHT:... */
static int
put_sizes(const struct probe *p, char *buf, size_t len, size_t *at)
{
	char		lbl[16];
	unsigned	i;
	int		bad;

	bad = put(buf, len, at, p->nsplit == 1 ? " --bs=" : " --bssplit=");
	for (i = 0; i < p->nsplit; i++) {
		probe_size_label(p->split[i].size, lbl, sizeof(lbl));
		if (p->nsplit == 1)
			bad |= put(buf, len, at, "%s", lbl);
		else
			bad |= put(buf, len, at, "%s%s/%u", i ? ":" : "", lbl,
			    p->split[i].weight);
	}
	return bad;
}

/*
 * fio's job of the probe. How fio issues the I/Os, and how probegen.c
 * matches it, is told there; what the options say:
 *  - rw: read/write/rw when no I/O is random, else randread/randwrite/
 *    randrw with percentage_random below 100 for the sequential share;
 *  - norandommap: fio's default map keeps a random job from touching a
 *    block twice before it has touched them all; without it, as here,
 *    every random offset is drawn uniformly anew;
 *  - blockalign is left at fio's default, the smallest block size;
 *  - numjobs: the workers, each over the whole region; fio starts every
 *    job's sequential position at the region's start, probegen spreads
 *    them; the only probe with workers and sequential I/O, the desktop
 *    mix, leaves its start at the first random I/O of each direction, so
 *    the two differ in a worker's first few I/Os only;
 *  - refill_buffers, for a probe that writes: new data in every write, as
 *    the probes write (unique and incompressible); fio's default writes
 *    one random buffer again and again, barely changed, which a drive
 *    that compresses or deduplicates would store at another speed.
 */
const char *
probe_rw(const struct probe *p)
{
	static const char *const rw[2][3] = {
		{ "write", "read", "rw" },
		{ "randwrite", "randread", "randrw" },
	};
	int		mixed = p->read_percent > 0 && p->read_percent < 100;

	return rw[p->random_percent > 0][mixed ? 2 : p->read_percent == 100];
}

int
probe_fio_options(const struct probe *p, char *buf, size_t len)
{
	int		mixed = p->read_percent > 0 && p->read_percent < 100;
	int		random = p->random_percent > 0;
	size_t		at = 0;
	unsigned	i;
	int		bad = 0;

	bad |= put(buf, len, &at, "--rw=%s", probe_rw(p));
	if (mixed)
		bad |= put(buf, len, &at, " --rwmixread=%u", p->read_percent);
	if (random && p->random_percent < 100)
		bad |= put(buf, len, &at, " --percentage_random=%u",
		    p->random_percent);
	bad |= put_sizes(p, buf, len, &at);
	for (i = 0; i < p->nzones; i++)
		bad |= put(buf, len, &at, "%s%u/%u",
		    i ? ":" : " --random_distribution=zoned:",
		    p->zones[i].access_percent, p->zones[i].region_percent);
	if (random)
		bad |= put(buf, len, &at, " --norandommap");
	if (p->read_percent < 100)
		bad |= put(buf, len, &at, " --refill_buffers");
	bad |= put(buf, len, &at, " --iodepth=%u --numjobs=%u",
	    p->queue_depth, p->workers);
	return bad ? -1 : 0;
}

/* Seconds of a length in ns, for a reason. */
static double
secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

int
probe_window_void(const struct probe_window *w, char *why, size_t len)
{
	if (w->suspended_ns > PROBE_SUSPEND_MAX_NS)
		snprintf(why, len, "the system was suspended for %.2f s of the "
		    "%.2f s window", secs(w->suspended_ns), secs(w->wall_ns));
	else if (w->gap_ns > PROBE_GAP_MAX_NS)
		snprintf(why, len, "the I/O thread was stopped or kept from "
		    "every CPU for %.2f s at a stretch in the %.2f s window "
		    "(it comes round every %.1f s at most when it runs)",
		    secs(w->gap_ns), secs(w->wall_ns), secs(PROBE_ROUND_NS));
	else
		return 0;
	return 1;
}

int
probe_window_busy(const struct probe_window *w)
{
	return w->opened && w->runq_ns != PROBE_WAIT_UNKNOWN &&
	    w->runq_ns > w->wall_ns / 100 * PROBE_BUSY_PERCENT;
}

uint64_t
probe_suspended_ns(uint64_t (*now)(clockid_t))
{
	uint64_t	m1, b, m2, off = 0, spread = UINT64_MAX;
	int		i;

	for (i = 0; i < PROBE_CLOCK_TRIES && spread > PROBE_CLOCK_PAIR_NS;
	    i++) {
		m1 = now(CLOCK_MONOTONIC);
		b = now(CLOCK_BOOTTIME);
		m2 = now(CLOCK_MONOTONIC);
		if (m2 < m1 || m2 - m1 >= spread)
			continue;	/* a wider pair than the best so far */
		spread = m2 - m1;
		/* b was read at or before m2: b - m2 never counts a wait */
		off = b > m2 ? b - m2 : 0;
	}
	return off;
}
