/*
 * model_slc.c: the SLC write cache and the drive's idle work.
 *
 * The cache is a log: every page written into it consumes a page of it
 * (slc_used), whether or not it rewrites one already there, as SLC blocks
 * are written in order. A page stays live until it is folded into native
 * NAND, rewritten (the copy in the cache dies) or trimmed. The FTL maps
 * every host page at once; the cache decides only speed and the NAND
 * bytes of the extra copy (a page is written to NAND once in SLC mode,
 * and again when folded), and it defers the FTL's garbage collection
 * behind it: the time GC would take is paid in the fold stalls or at
 * idle, as an SLC cache absorbs a burst while the native NAND lags.
 *
 * Size: fixed, or a share of the free space (capacity minus mapped),
 * decided when the cache is empty. Speed: level 1 for the first
 * level1_share of it, level 2 for the rest. When full: direct writes at
 * native speed (a cache made of free space folds behind them), or a
 * fold of fold_share of the cache with the host's write speed at zero
 * meanwhile (the SM2260's gusts).
 */
#include <math.h>
#include <stdlib.h>

#include "model_int.h"

#define RING_SLACK	65536u	/* pages a last request may overrun by */

static uint32_t
ring_cap(const struct sim_model *m)
{
	return m->nlba + RING_SLACK;
}

int
sim_slc_init(struct sim_model *m)
{
	if (m->p.slc_mode == SIM_SLC_NONE)
		return 0;
	m->ring = malloc((size_t)ring_cap(m) * sizeof(*m->ring));
	m->cache_decide = 1;
	return m->ring == NULL ? -1 : 0;
}

static const char *
mode_name(enum sim_slc_mode mode)
{
	return mode == SIM_SLC_FIXED ? "fixed" :
	    mode == SIM_SLC_FREE_SHARE ? "free_share" : "none";
}

/* Nothing live left in the cache: its blocks are all erasable. */
static void
emptied(struct sim_model *m)
{
	m->slc_used = 0;
	m->ring_head = m->ring_len = 0;
	m->host_since_empty = 0;
	m->cache_full_said = 0;
	m->cache_decide = 1;
	m->behind = 0;
}

/* The cache's size as a pass starts, told in a "cache" record. */
static void
decide(struct sim_model *m, uint64_t t)
{
	const struct sim_profile *p = &m->p;
	uint64_t	free = (uint64_t)(m->nlba - m->mapped) * SIM_PAGE;

	if (m->slc_used == 0)
		m->cache_cap = p->slc_mode == SIM_SLC_FIXED ? p->slc_bytes :
		    (uint64_t)llround((double)free * p->slc_free_share /
		    SIM_PAGE) * SIM_PAGE;
	sim_truth(m, t, "cache", "\"mode\":\"%s\",\"bytes\":%llu,"
	    "\"used\":%llu,\"level1_bytes\":%llu,\"mbps\":%.3f,"
	    "\"level2_mbps\":%.3f,\"post\":\"%s\",\"post_mbps\":%.3f,"
	    "\"fold_share\":%.4f,\"drive_free\":%llu",
	    mode_name(p->slc_mode), (unsigned long long)m->cache_cap,
	    (unsigned long long)m->slc_used,
	    (unsigned long long)((double)m->cache_cap * p->slc_level1_share),
	    p->slc_mbps, p->slc_level2_mbps,
	    p->post_cache == SIM_POST_FOLD ? "fold" : "direct",
	    p->post_cache == SIM_POST_FOLD ? p->fold_mbps : p->native_mbps,
	    p->fold_share, (unsigned long long)free);
	m->cache_decide = 0;
}

/*
 * Fold up to `bytes` of the cache's oldest pages into native NAND. The
 * live ones cost NAND time at `mbps`; dead ones (rewritten, trimmed) only
 * free their place. Returns the NAND time of the fold in ns.
 */
static uint64_t
fold(struct sim_model *m, uint64_t bytes, double mbps, int64_t *budget)
{
	uint64_t	live = 0, done = 0, lba;
	uint64_t	cost = sim_xfer_ns(SIM_PAGE, mbps, 1);

	while (m->ring_len > 0 && done < bytes &&
	    (budget == NULL || *budget > 0)) {
		lba = m->ring[m->ring_head];
		m->ring_head = (m->ring_head + 1) % ring_cap(m);
		m->ring_len--;
		done += SIM_PAGE;
		if (sim_bit(m->inslc, (uint32_t)lba)) {
			sim_bit_set(m->inslc, (uint32_t)lba, 0);
			m->slc_live--;
			live++;
			if (budget != NULL)
				*budget -= (int64_t)cost;
		}
	}
	m->slc_used -= done < m->slc_used ? done : m->slc_used;
	m->c.nand_written_bytes += live * SIM_PAGE;
	m->c.nand_read_bytes += live * SIM_PAGE;
	if (m->slc_live == 0)
		emptied(m);
	return live * cost;
}

/* The 600p's stall: fold part of a full cache, host writes wait. */
static uint64_t
fold_stall(struct sim_model *m, uint64_t start)
{
	uint64_t	want = (uint64_t)((double)m->cache_cap *
			    m->p.fold_share);
	uint64_t	before = m->slc_used, ns;

	ns = fold(m, want < SIM_PAGE ? SIM_PAGE : want, m->p.fold_mbps, NULL);
	ns += m->fold_debt_ns;
	m->fold_debt_ns = 0;
	sim_truth(m, start, "fold", "\"end_ns\":%llu,\"stall_ns\":%llu,"
	    "\"freed_bytes\":%llu,\"cache_used\":%llu",
	    (unsigned long long)(start + ns), (unsigned long long)ns,
	    (unsigned long long)(before - m->slc_used),
	    (unsigned long long)m->slc_used);
	return ns;
}

/*
 * A direct write past a full cache made of free space: the cache's SLC
 * blocks are the space it needs, so the drive folds behind it. Folding x
 * frees bits_per_cell * x of SLC-mode NAND and takes x of native, so a
 * direct write of len folds len / (bits_per_cell - 1); the cache shrinks
 * by what was folded. The profile's native speed is the speed seen with
 * this going on, so it costs no time of its own here.
 */
static void
fold_behind(struct sim_model *m, uint64_t len)
{
	uint64_t	before = m->slc_used, freed, unit;

	if (m->p.slc_mode != SIM_SLC_FREE_SHARE || m->p.bits_per_cell < 2 ||
	    m->ring_len == 0)
		return;
	/* whole pages, the rest carried to the next write */
	unit = (uint64_t)(m->p.bits_per_cell - 1) * SIM_PAGE;
	m->behind += len;
	if (m->behind < unit)
		return;
	fold(m, m->behind / unit * SIM_PAGE, m->p.fold_mbps, NULL);
	m->behind %= unit;
	freed = before - m->slc_used;
	if (m->cache_decide)	/* emptied: decided again at the next write */
		return;
	m->cache_cap -= freed < m->cache_cap ? freed : m->cache_cap;
}

static double
native_mbps(const struct sim_model *m)
{
	const struct sim_profile *p = &m->p;

	if (p->native_slow_mbps > 0 &&
	    (double)m->mapped >= p->native_slow_after * m->nlba)
		return p->native_slow_mbps;
	return p->native_mbps;
}

/*
 * Where a write of len bytes starting on the pipe at `start` goes: sets
 * its speed and whether it is cached; returns a stall to wait first.
 */
uint64_t
sim_slc_admit(struct sim_model *m, uint64_t start, uint64_t len,
    double *mbps, int *cached)
{
	const struct sim_profile *p = &m->p;
	uint64_t	 stall = 0;

	*cached = 0;
	*mbps = native_mbps(m);
	if (p->slc_mode == SIM_SLC_NONE)
		return 0;
	if (m->cache_decide)
		decide(m, start);
	if (m->slc_used >= m->cache_cap && m->cache_cap > 0 &&
	    p->post_cache == SIM_POST_FOLD)
		stall = fold_stall(m, start);
	if (m->slc_used >= m->cache_cap) {
		fold_behind(m, len);
		return stall;
	}
	*cached = 1;
	*mbps = (double)m->slc_used < (double)m->cache_cap * p->slc_level1_share ?
	    p->slc_mbps : p->slc_level2_mbps;
	m->host_since_empty += len;
	return stall;
}

/* A page written into the cache. */
void
sim_slc_put(struct sim_model *m, uint32_t lba)
{
	if (m->ring_len == ring_cap(m))
		return;
	m->ring[(m->ring_head + m->ring_len) % ring_cap(m)] = lba;
	m->ring_len++;
	m->slc_used += SIM_PAGE;
	if (!sim_bit(m->inslc, lba)) {
		sim_bit_set(m->inslc, lba, 1);
		m->slc_live++;
	}
}

/* The request that filled the cache completes at `done`. */
void
sim_slc_filled(struct sim_model *m, uint64_t done)
{
	if (m->p.slc_mode == SIM_SLC_NONE || m->cache_full_said ||
	    m->slc_used < m->cache_cap || m->cache_cap == 0)
		return;
	m->cache_full_said = 1;
	sim_truth(m, done, "cache_full", "\"host_bytes\":%llu,\"bytes\":%llu",
	    (unsigned long long)m->host_since_empty,
	    (unsigned long long)m->cache_cap);
}

/* A trimmed page: its copy in the cache, if any, dies. */
void
sim_slc_drop(struct sim_model *m, uint32_t lba)
{
	if (m->ring == NULL || !sim_bit(m->inslc, lba))
		return;
	sim_bit_set(m->inslc, lba, 0);
	if (--m->slc_live == 0)
		emptied(m);
}

/*
 * Idle work up to `now`: after idle_delay_ms without requests, first
 * the GC deferred behind the cache, then the fold back of the cache at
 * idle_fold_mbps, then GC at idle_gc_mbps while blocks can be won.
 */
void
sim_slc_idle(struct sim_model *m, uint64_t now)
{
	const struct sim_profile *p = &m->p;
	uint64_t	from = m->last_busy + (uint64_t)(p->idle_delay_ms * 1e6);
	uint64_t	pay, before;
	int64_t		budget;

	if (m->off || (p->idle_fold_mbps <= 0 && p->idle_gc_mbps <= 0))
		return;
	if (from < m->idle_cursor)
		from = m->idle_cursor;
	if (now <= from)
		return;
	budget = (int64_t)(now - from);
	m->idle_cursor = now;
	pay = m->fold_debt_ns < (uint64_t)budget ? m->fold_debt_ns :
	    (uint64_t)budget;
	m->fold_debt_ns -= pay;
	budget -= (int64_t)pay;
	before = m->slc_used;
	if (p->idle_fold_mbps > 0 && m->ring_len > 0)
		fold(m, UINT64_MAX, p->idle_fold_mbps, &budget);
	m->idle_folded += before - m->slc_used;
	if (p->idle_gc_mbps > 0)
		budget = sim_idle_gc(m, budget);
	if (m->idle_start == 0 && (pay > 0 || before != m->slc_used ||
	    m->idle_gc > 0))
		m->idle_start = from;
	if (m->idle_start != 0)
		m->idle_end = now - (uint64_t)(budget > 0 ? budget : 0);
}

/* GC at idle while it wins blocks; returns the budget left. */
int64_t
sim_idle_gc(struct sim_model *m, int64_t budget)
{
	uint64_t	before;

	while (budget > 0 && m->nfree < m->spare_blocks) {
		before = m->gc_pages;
		if (sim_ftl_gc_one(m) < 0)
			break;
		m->idle_gc += (m->gc_pages - before) * SIM_PAGE;
		m->c.nand_written_bytes += (m->gc_pages - before) * SIM_PAGE;
		m->c.nand_read_bytes += (m->gc_pages - before) * SIM_PAGE;
		budget -= (int64_t)sim_xfer_ns((m->gc_pages - before) *
		    SIM_PAGE, m->p.idle_gc_mbps, 1) + 1;
	}
	return budget;
}

/*
 * A request arrives: an idle period ends. If it did work, it is told;
 * if it did or lasted longer than the idle delay and a round, the rounds
 * of writes start over.
 */
void
sim_slc_busy(struct sim_model *m, uint64_t now)
{
	double	gap = m->p.idle_delay_ms > m->p.round_ms ?
		    m->p.idle_delay_ms : m->p.round_ms;

	if (m->idle_start != 0 || (now > m->last_busy &&
	    (double)(now - m->last_busy) > gap * 1e6))
		sim_window_reset(m, "idle");
	if (m->idle_start == 0)
		return;
	sim_truth(m, m->idle_end, "idle_fold", "\"start_ns\":%llu,"
	    "\"folded_bytes\":%llu,\"gc_bytes\":%llu,\"cache_used\":%llu,"
	    "\"free_blocks\":%u",
	    (unsigned long long)m->idle_start,
	    (unsigned long long)m->idle_folded,
	    (unsigned long long)m->idle_gc,
	    (unsigned long long)m->slc_used, m->nfree);
	m->idle_start = 0;
	m->idle_folded = m->idle_gc = 0;
	m->cache_decide = m->ring != NULL;
}
