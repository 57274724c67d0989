/*
 * genbench.c: single-core microbenchmark of block generation (blk_encode:
 * header + pseudo-random payload + XXH3 checksum) and verification
 * (blk_check with a matching expectation).
 *
 * --isa base|avx2|avx512 caps the vector code of the generator and of
 * the checksum made with it (blk_isa_limit), to measure each on one
 * machine (the check is libxxhash's, which picks its own). --side N
 * encodes N blocks a call (blk_encode_many), as the I/O worker encodes
 * the blocks of a round (default 1: blk_encode).
 *
 * For each block size (512 B, 4 KiB, 128 KiB, 1 MiB) a ring of blocks
 * (64 MiB by default, so the working set does not live in cache) is
 * encoded over and over with a fresh offset per block for about -t
 * seconds, then encoded once more untimed and checked over and over for
 * about -t seconds. Each measurement is repeated -r times (5 by
 * default) and the median is reported in GB/s (decimal: 1e9 bytes per
 * second), with min and max.
 * The "cpu" column is the lowest share of wall time the thread really ran
 * in any of those samples (CLOCK_THREAD_CPUTIME_ID over CLOCK_MONOTONIC):
 * well under 100% means other load shared the CPU and the row understates
 * what a free core does.
 *
 * The headline is the 128 KiB row (the daemon's default block_size): the
 * last line says whether its median encode rate meets 10 GB/s on one core.
 *
 * Exit status: 0 whatever the figures; 1 if blk_check ever reports
 * anything but BLK_OK (the benchmark then stops at once); 2 on bad usage
 * or when memory cannot be had.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "block.h"

#define KiB		1024u
#define MiB		(1024u * 1024u)
#define TARGET_GBPS	10.0
#define HEADLINE_BS	(128 * KiB)
#define MAX_REPEATS	101
#define INSTANCE	0x5eedc0ffee15600dULL
#define GEN		7
#define SHARE_WARN	0.9	/* flag samples that ran less than this */

/* 512 B: the unit of a probe on a device of 512 B logical blocks */
static const uint32_t block_sizes[] = { 512, 4 * KiB, 128 * KiB, 1 * MiB };
#define NSIZES		(sizeof(block_sizes) / sizeof(block_sizes[0]))

struct opts {
	double		seconds;	/* per measurement */
	int		repeats;
	uint32_t	ring_mib;
	int		cpu;		/* -1: do not pin; -2: first allowed */
	int		json;
	enum blk_isa	isa;
	unsigned	side;		/* blocks a blk_encode_many call */
};

#define MAX_SIDE	16
/* opts.side, for run_encode; set before any measurement */
static unsigned	side = 1;

struct row {
	uint32_t	bs;
	double		enc[MAX_REPEATS], chk[MAX_REPEATS];	/* GB/s */
	double		enc_med, enc_min, enc_max;
	double		chk_med, chk_min, chk_max;
	double		share_min;	/* lowest CPU share of any sample */
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: genbench [-t SECONDS] [-r REPEATS] [-m RING_MIB] "
	    "[-c CPU|-1] [--json]\n"
	    "  -t SECONDS  length of each measurement (default 1)\n"
	    "  -r REPEATS  measurements per figure, median reported "
	    "(default 5)\n"
	    "  -m MIB      size of the buffer ring in MiB (default 64)\n"
	    "  -c CPU      pin to this CPU; -1 to not pin (default: first "
	    "allowed CPU)\n"
	    "  --json      one JSON object per line instead of a table\n"
	    "  --isa ISA   the generator's widest vector code: base, avx2, "
	    "avx512 (default: the CPU's)\n"
	    "  --side N    blocks encoded a call, 1 to 16 (default 1)\n");
}

static double
clock_s(clockid_t id)
{
	struct timespec	ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double
now_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/*
 * A measurement: GB/s over wall time, and the share of that wall time the
 * thread actually ran (below 1 when other work took the CPU from it).
 */
struct meas {
	double	gbps;
	double	share;
};

static struct meas
meas_of(uint64_t bytes, double t0, double t1, double c0)
{
	struct meas	m;

	m.gbps = (double)bytes / (t1 - t0) / 1e9;
	m.share = (clock_s(CLOCK_THREAD_CPUTIME_ID) - c0) / (t1 - t0);
	return m;
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median, min and max of n samples (n >= 1); v is left untouched. */
static void
stats(const double *v, int n, double *med, double *min, double *max)
{
	double	s[MAX_REPEATS];

	memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	*min = s[0];
	*max = s[n - 1];
	*med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Blocks handled between two looks at the clock: about 1 MiB worth. */
static uint32_t
batch_of(uint32_t bs)
{
	return bs >= MiB ? 1 : MiB / bs;
}

/*
 * Encode blocks round the ring for about `secs` seconds; block k of the
 * run (k counting on across passes) gets offset k * bs.
 */
static struct meas
run_encode(unsigned char *ring, uint32_t nblk, uint32_t bs, double secs)
{
	uint32_t	batch = batch_of(bs), slot = 0, i, j, m;
	uint64_t	k = 0, offs[MAX_SIDE];
	uint64_t	tns = 1700000000ULL * 1000000000ULL;
	void		*bufs[MAX_SIDE];
	double		t0, t1, c0;

	c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	t0 = now_s();
	do {
		for (i = 0; i < batch; i += m) {
			m = nblk - slot < side ? nblk - slot : side;
			for (j = 0; j < m; j++) {
				bufs[j] = ring + (size_t)(slot + j) * bs;
				offs[j] = (k + j) * bs;
			}
			blk_encode_many(bufs, offs, m, bs, INSTANCE, GEN, tns);
			k += m;
			if ((slot += m) == nblk)
				slot = 0;
		}
		t1 = now_s();
	} while (t1 - t0 < secs);
	return meas_of(k * bs, t0, t1, c0);
}

/* Lay the ring out for checking: slot i holds offset i * bs. */
static void
prepare_check(unsigned char *ring, uint32_t nblk, uint32_t bs)
{
	uint32_t	i;

	for (i = 0; i < nblk; i++)
		blk_encode(ring + (size_t)i * bs, bs, INSTANCE,
		    (uint64_t)i * bs, GEN, 1);
}

/* Check blocks round the ring for about `secs` seconds. */
static struct meas
run_check(const unsigned char *ring, uint32_t nblk, uint32_t bs, double secs)
{
	const struct blk_expect	e = {
		.has_gen = 1, .gen_lo = GEN, .gen_hi = GEN,
		.allow_unwritten = 0
	};
	struct blk_result	r;
	enum blk_class		c;
	uint32_t		batch = batch_of(bs), slot = 0, i;
	uint64_t		k = 0;
	double			t0, t1, c0;

	c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	t0 = now_s();
	do {
		for (i = 0; i < batch; i++) {
			c = blk_check(ring + (size_t)slot * bs, bs, INSTANCE,
			    (uint64_t)slot * bs, &e, &r);
			if (c != BLK_OK) {
				fprintf(stderr, "genbench: blk_check of a "
				    "freshly encoded %u-byte block at offset "
				    "%llu returned %s (%d), expected ok; "
				    "found gen %llu offset %llu, first bad "
				    "byte %d\n", bs,
				    (unsigned long long)slot * bs,
				    blk_class_name(c), (int)c,
				    (unsigned long long)r.found_gen,
				    (unsigned long long)r.found_offset,
				    (int)r.first_bad_byte);
				exit(1);
			}
			k++;
			if (++slot == nblk)
				slot = 0;
		}
		t1 = now_s();
	} while (t1 - t0 < secs);
	return meas_of(k * bs, t0, t1, c0);
}

/* The CPU's model name from /proc/cpuinfo, or "unknown". */
static void
cpu_model(char *out, size_t len)
{
	FILE	*f;
	char	 line[512], *p, *nl;

	snprintf(out, len, "unknown");
	if ((f = fopen("/proc/cpuinfo", "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "model name", 10) != 0 ||
		    (p = strchr(line, ':')) == NULL)
			continue;
		for (p++; *p == ' ' || *p == '\t'; p++)
			;
		if ((nl = strchr(p, '\n')) != NULL)
			*nl = '\0';
		snprintf(out, len, "%s", p);
		break;
	}
	fclose(f);
}

/* Print s as a JSON string literal. */
static void
json_str(const char *s)
{
	putchar('"');
	for (; *s != '\0'; s++) {
		unsigned char	c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void
json_samples(const char *key, const double *v, int n)
{
	int	i;

	printf(",\"%s\":[", key);
	for (i = 0; i < n; i++)
		printf("%s%.3f", i ? "," : "", v[i]);
	putchar(']');
}

/* Pin to o->cpu (or the first allowed CPU); returns the CPU or -1. */
static int
pin(const struct opts *o)
{
	cpu_set_t	set;
	int		cpu = o->cpu, i;

	if (cpu == -1)
		return -1;
	if (cpu == -2) {
		CPU_ZERO(&set);
		if (sched_getaffinity(0, sizeof(set), &set) != 0)
			return -1;
		for (i = 0; i < CPU_SETSIZE && !CPU_ISSET(i, &set); i++)
			;
		if (i == CPU_SETSIZE)
			return -1;
		cpu = i;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		fprintf(stderr, "genbench: warning: cannot pin to CPU %d: %s; "
		    "running unpinned\n", cpu, strerror(errno));
		return -1;
	}
	return cpu;
}

/* by enum blk_isa */
static const char *const isa_names[] = { "base", "avx2", "avx512" };

static int
parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option	lopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "isa", required_argument, NULL, 'I' },
		{ "side", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char	*end;
	long	 l;
	int	 ch;

	o->seconds = 1.0;
	o->repeats = 5;
	o->ring_mib = 64;
	o->cpu = -2;
	o->json = 0;
	o->isa = BLK_ISA_AVX512;
	o->side = 1;
	while ((ch = getopt_long(argc, argv, "t:r:m:c:h", lopts, NULL)) != -1) {
		switch (ch) {
		case 't':
			errno = 0;
			o->seconds = strtod(optarg, &end);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    !isfinite(o->seconds) || o->seconds <= 0 ||
			    o->seconds > 3600) {
				fprintf(stderr, "genbench: bad -t: %s\n",
				    optarg);
				return -1;
			}
			break;
		case 'r':
		case 'm':
		case 'c':
			errno = 0;
			l = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    (ch == 'r' && (l < 1 || l > MAX_REPEATS)) ||
			    (ch == 'm' && (l < 1 || l > 65536)) ||
			    (ch == 'c' && (l < -1 || l >= CPU_SETSIZE))) {
				fprintf(stderr, "genbench: bad -%c: %s\n", ch,
				    optarg);
				return -1;
			}
			if (ch == 'r')
				o->repeats = (int)l;
			else if (ch == 'm')
				o->ring_mib = (uint32_t)l;
			else
				o->cpu = (int)l;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'I':
			for (l = 0; l < 3 && strcmp(optarg, isa_names[l]); l++)
				;
			if (l == 3) {
				fprintf(stderr, "genbench: bad --isa: %s\n",
				    optarg);
				return -1;
			}
			o->isa = (enum blk_isa)l;
			break;
		case 'S':
			errno = 0;
			l = strtol(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    l < 1 || l > MAX_SIDE) {
				fprintf(stderr, "genbench: bad --side: %s\n",
				    optarg);
				return -1;
			}
			o->side = (unsigned)l;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return -1;
	}
	return 0;
}

static void
print_size(uint32_t bs)
{
	if (bs >= MiB)
		printf("%4u MiB", bs / MiB);
	else if (bs >= KiB)
		printf("%4u KiB", bs / KiB);
	else
		printf("%4u B  ", bs);
}

int
main(int argc, char **argv)
{
	struct opts	 o;
	struct row	 rows[NSIZES], *head = NULL;
	unsigned char	*ring;
	size_t		 ring_bytes;
	char		 model[256];
	uint32_t	 nblk;
	size_t		 s;
	int		 cpu, i, met, disturbed = 0;
	enum blk_isa	 isa;

	if (parse_opts(argc, argv, &o) != 0)
		return 2;
	isa = blk_isa_limit(o.isa);
	side = o.side;
	cpu = pin(&o);
	cpu_model(model, sizeof(model));
	ring_bytes = (size_t)o.ring_mib * MiB;
	if ((ring = aligned_alloc(4096, ring_bytes)) == NULL) {
		fprintf(stderr, "genbench: cannot allocate %u MiB\n",
		    o.ring_mib);
		return 2;
	}
	memset(ring, 0, ring_bytes);	/* fault every page in up front */

	if (o.json) {
		printf("{\"type\":\"config\",\"cpu_model\":");
		json_str(model);
		printf(",\"pinned_cpu\":%d,\"ring_bytes\":%zu,"
		    "\"seconds\":%g,\"repeats\":%d,\"isa\":\"%s\","
		    "\"side\":%u,\"unit\":\"GB/s (1e9)\"}\n",
		    cpu, ring_bytes, o.seconds, o.repeats, isa_names[isa],
		    side);
	} else {
		printf("genbench: %s, %s, ring %u MiB, %g s x %d per figure, "
		    "GB/s = 1e9 B/s, generator %s, %u block%s a call\n", model,
		    cpu >= 0 ? "pinned" : "unpinned", o.ring_mib, o.seconds,
		    o.repeats, isa_names[isa], side, side == 1 ? "" : "s");
		if (cpu >= 0)
			printf("pinned to CPU %d\n", cpu);
		printf("\n   block  encode GB/s (min-max)   "
		    "check GB/s (min-max)   cpu\n");
	}
	fflush(stdout);

	for (s = 0; s < NSIZES; s++) {
		struct row	*r = &rows[s];
		uint32_t	 bs = block_sizes[s];

		r->bs = bs;
		nblk = (uint32_t)(ring_bytes / bs);	/* >= 1: -m >= 1 MiB */
		/* warm up: clocks, page tables, branch predictors */
		run_encode(ring, nblk, bs, o.seconds / 10);
		r->share_min = 1;
		for (i = 0; i < o.repeats; i++) {
			struct meas	me, mc;

			me = run_encode(ring, nblk, bs, o.seconds);
			prepare_check(ring, nblk, bs);
			mc = run_check(ring, nblk, bs, o.seconds);
			r->enc[i] = me.gbps;
			r->chk[i] = mc.gbps;
			if (me.share < r->share_min)
				r->share_min = me.share;
			if (mc.share < r->share_min)
				r->share_min = mc.share;
			if (me.share < SHARE_WARN || mc.share < SHARE_WARN)
				disturbed++;
		}
		stats(r->enc, o.repeats, &r->enc_med, &r->enc_min,
		    &r->enc_max);
		stats(r->chk, o.repeats, &r->chk_med, &r->chk_min,
		    &r->chk_max);
		if (bs == HEADLINE_BS)
			head = r;
		if (o.json) {
			printf("{\"type\":\"result\",\"block_size\":%u,"
			    "\"encode_gbps\":%.3f,\"encode_min\":%.3f,"
			    "\"encode_max\":%.3f,\"check_gbps\":%.3f,"
			    "\"check_min\":%.3f,\"check_max\":%.3f,"
			    "\"cpu_share_min\":%.3f",
			    bs, r->enc_med, r->enc_min, r->enc_max,
			    r->chk_med, r->chk_min, r->chk_max, r->share_min);
			json_samples("encode_samples", r->enc, o.repeats);
			json_samples("check_samples", r->chk, o.repeats);
			printf("}\n");
		} else {
			print_size(bs);
			printf("  %6.2f (%5.2f-%5.2f)      "
			    "%6.2f (%5.2f-%5.2f)   %3.0f%%\n",
			    r->enc_med, r->enc_min, r->enc_max,
			    r->chk_med, r->chk_min, r->chk_max,
			    100 * r->share_min);
		}
		fflush(stdout);
	}
	free(ring);

	/* HEADLINE_BS is one of block_sizes, so head is set. */
	if (head == NULL)
		return 0;
	met = head->enc_med >= TARGET_GBPS;
	if (o.json)
		printf("{\"type\":\"target\",\"target_gbps\":%.1f,"
		    "\"headline_block_size\":%u,\"encode_gbps\":%.3f,"
		    "\"met\":%s,\"disturbed_pairs\":%d}\n", TARGET_GBPS,
		    HEADLINE_BS, head->enc_med, met ? "true" : "false",
		    disturbed);
	else {
		if (disturbed > 0)
			printf("\nnote: in %d of %d encode/check pairs the "
			    "thread ran less than %.0f%% of the wall time "
			    "(other load on the CPU):\nthe figures understate "
			    "what one free core does.\n", disturbed,
			    (int)NSIZES * o.repeats, 100 * SHARE_WARN);
		printf("\ntarget: %.0f GB/s encode on one core: %s "
		    "(headline is the %u KiB row: median %.1f GB/s)\n",
		    TARGET_GBPS, met ? "met" : "NOT met", HEADLINE_BS / KiB,
		    head->enc_med);
	}
	return 0;
}
