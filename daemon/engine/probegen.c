/*
 * probegen.c: a probe's I/O stream, shaped as fio shapes the same job
 * (probe_fio_options()), with fio's coin flips replaced by counters where
 * the figures must be exact.
 *
 * What fio does (io_u.c) and what this does:
 *  - Direction: fio draws read or write with probability rwmixread each
 *    time the current direction has issued its share, so its read share
 *    is right on average only. Here an accumulator (error diffusion) adds
 *    the read share per I/O and reads when it passes 100: after N I/Os the
 *    reads are within 1 of N * read_percent / 100. Its starting phase is
 *    drawn from the seed, so that workers do not alternate in step.
 *  - Block size: fio draws each size of a bssplit at random by its
 *    percentage. Here each direction keeps a smooth weighted round-robin
 *    (every size gains its weight, the largest total is chosen and pays
 *    the sum): each size's count is within 1 of its share in each
 *    direction, so within 2 over both. One round-robin for both would be
 *    within 1 over both, but the direction's pattern (as regular as the
 *    round-robin's) would pick each direction's sizes: a desktop worker's
 *    writes came out 4 and 128 KiB, never 64 KiB.
 *  - Random or sequential: fio draws percentage_random per I/O and
 *    direction. Here an accumulator per direction and block size, so the
 *    random share is exact within each size and never tied to one.
 *  - Sequential I/O: fio continues from the end of the last I/O of the
 *    same direction, random ones included (f->last_pos[ddir]), and starts
 *    over at the region's start when the next I/O would cross its end; so
 *    does this. Each worker starts at its share of the region (worker w
 *    of W at w/W of it), where fio starts every job at 0.
 *  - Random offsets: uniform over the region, or over the zone drawn by
 *    the zones' access shares (fio draws 1..100 too; a zone's bounds are
 *    its percentages of the region's blocks, rounded down as fio does),
 *    aligned to the smallest block size (fio's default blockalign) and
 *    never past the region's end. No map of blocks already touched
 *    (fio's norandommap, which the fio job says).
 */
#include <stdarg.h>
#include <stdio.h>

#include "probegen.h"

/*
 * A Weyl sequence through a 128-bit multiply-fold (wyrand): fast, and
 * good enough that the shares drawn from it land where their
 * probabilities say.
 */
static inline uint64_t
rnd(uint64_t *s)
{
	unsigned __int128	t;

	*s += 0xa0761d6478bd642fULL;
	t = (unsigned __int128)*s * (*s ^ 0xe7037ed1a0b428dbULL);
	return (uint64_t)(t >> 64) ^ (uint64_t)t;
}

/* Uniform in [0, n), n > 0 (multiply-shift: no division per I/O). */
static inline uint64_t
below(uint64_t *s, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rnd(s) * n) >> 64);
}

static int
why_not(char *why, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
why_not(char *why, size_t len, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * The split's smallest and largest sizes; -1 for a size the unit rules
 * out, or weights that are not percentages (next_size() needs 100).
 */
static int
check_sizes(const struct probe *p, uint32_t unit, uint32_t *min,
    uint32_t *max, char *why, size_t len)
{
	unsigned	i, sum = 0;

	*min = UINT32_MAX;
	*max = 0;
	if (p->nsplit == 0 || p->nsplit > PROBE_SPLIT_MAX)
		return why_not(why, len, "probe %s has no block size", p->id);
	for (i = 0; i < p->nsplit; i++)
		sum += p->split[i].weight;
	if (sum != 100)
		return why_not(why, len, "probe %s has block size weights "
		    "that do not sum to 100 %%", p->id);
	for (i = 0; i < p->nsplit; i++) {
		uint32_t	s = p->split[i].size;

		if (s == 0 || s % unit != 0)
			return why_not(why, len, "its block size of %u B is "
			    "not a multiple of the device's logical block "
			    "size (%u B)", s, unit);
		if (s < *min)
			*min = s;
		if (s > *max)
			*max = s;
	}
	return 0;
}

/* The zones' bounds in units of `align`; -1 when one holds no I/O. */
static int
zones_init(struct probegen *g, const struct probe *p, uint32_t max,
    char *why, size_t len)
{
	uint64_t	slots = g->region / g->align;
	uint64_t	last = (g->region - max) / g->align;	/* max fits */
	unsigned	i, reg = 0, acc = 0;

	if (p->nzones > PROBE_ZONES_MAX)
		return why_not(why, len, "probe %s has too many zones", p->id);
	g->nzones = p->nzones ? p->nzones : 1;
	for (i = 0; i < g->nzones; i++) {
		g->zone_first[i] = slots * reg / 100;
		reg += p->nzones ? p->zones[i].region_percent : 100;
		acc += p->nzones ? p->zones[i].access_percent : 100;
		g->zone_end[i] = slots * reg / 100;
		g->zone_upto[i] = acc;
		if (g->zone_end[i] <= g->zone_first[i] ||
		    g->zone_first[i] > last)
			return why_not(why, len, "the region (%llu B) is too "
			    "small for its zones", (unsigned long long)g->region);
	}
	if (reg != 100 || acc != 100)
		return why_not(why, len, "probe %s has zones that do not sum "
		    "to 100 %%", p->id);
	return 0;
}

int
probegen_check(const struct probe *p, uint64_t region, uint32_t unit,
    char *why, size_t len)
{
	struct probegen	g;

	return probegen_init(&g, p, region, unit, 0, 0, why, len);
}

int
probegen_init(struct probegen *g, const struct probe *p, uint64_t region,
    uint32_t unit, unsigned worker, uint64_t seed, char *why, size_t len)
{
	uint32_t	min, max;
	unsigned	i, d;

	if (unit == 0 || (unit & (unit - 1)) != 0 || region == 0 ||
	    region % unit != 0)
		return why_not(why, len, "a region of %llu B is no whole "
		    "number of %u B blocks", (unsigned long long)region, unit);
	if (worker >= p->workers)
		return why_not(why, len, "probe %s has no worker %u", p->id,
		    worker);
	if (check_sizes(p, unit, &min, &max, why, len) < 0)
		return -1;
	if (max > region)
		return why_not(why, len, "the region (%llu B) is smaller than "
		    "its block size of %u B", (unsigned long long)region, max);
	g->region = region;
	g->align = min;
	if (zones_init(g, p, max, why, len) < 0)
		return -1;
	g->read_percent = p->read_percent;
	g->random_percent = p->random_percent;
	g->nsplit = p->nsplit;
	for (i = 0; i < p->nsplit; i++) {
		g->size[i] = p->split[i].size;
		g->weight[i] = (int32_t)p->split[i].weight;
	}
	/* the worker's own stream: the seed, then the worker, mixed in */
	g->rng = seed;
	g->rng = rnd(&g->rng) ^ ((uint64_t)worker * 0x9e3779b97f4a7c15ULL);
	g->rng = rnd(&g->rng);
	g->dir_acc = (unsigned)below(&g->rng, 100);
	for (d = 0; d < 2; d++) {
		for (i = 0; i < PROBE_SPLIT_MAX; i++) {
			g->split_acc[d][i] = 0;
			g->rand_acc[d][i] = (unsigned)below(&g->rng, 100);
		}
		g->seq_next[d] = region / p->workers * worker / min * min;
	}
	return 0;
}

/* The next size of direction d (smooth weighted round-robin): its index. */
static inline unsigned
next_size(struct probegen *g, int d)
{
	int32_t		*acc = g->split_acc[d];
	unsigned	 i, best = 0;

	for (i = 0; i < g->nsplit; i++) {
		acc[i] += g->weight[i];
		if (acc[i] > acc[best])
			best = i;
	}
	acc[best] -= 100;
	return best;
}

/* Error diffusion: 1 for `percent` of the calls, within 1 at every call. */
static inline int
diffuse(unsigned *acc, unsigned percent)
{
	*acc += percent;
	if (*acc < 100)
		return 0;
	*acc -= 100;
	return 1;
}

/* A random offset for `size` bytes, in the zone the draw picks. */
static inline uint64_t
random_offset(struct probegen *g, uint32_t size)
{
	uint64_t	last = (g->region - size) / g->align, end;
	unsigned	z = 0;

	if (g->nzones > 1) {
		unsigned	v = (unsigned)below(&g->rng, 100);

		while (v >= g->zone_upto[z])
			z++;
	}
	end = g->zone_end[z] <= last ? g->zone_end[z] : last + 1;
	return (g->zone_first[z] + below(&g->rng, end - g->zone_first[z])) *
	    g->align;
}

void
probegen_next(struct probegen *g, struct probe_io *io)
{
	int		d = diffuse(&g->dir_acc, g->read_percent);
	unsigned	s = next_size(g, d);
	uint32_t	size = g->size[s];
	uint64_t	off;

	if (diffuse(&g->rand_acc[d][s], g->random_percent))
		off = random_offset(g, size);
	else {
		off = g->seq_next[d];
		if (off + size > g->region)
			off = 0;
	}
	g->seq_next[d] = off + size;
	io->offset = off;
	io->length = size;
	io->is_read = d;
}
