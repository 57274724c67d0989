/*
 * model.c: the simulated drive's requests and timing. Each direction has
 * one transfer pipe: a request waits for it, holds it for overhead_us
 * plus its bytes at the speed in force (cache, native, throttled), then
 * completes its latency later. So QD1 runs at len / (lat + overhead +
 * len / speed), and deep queues at the pipe's speed. A read of worn or
 * aged data (read retries) takes all of that its factor times longer.
 * Garbage collection and fold stalls hold the write pipe too: that is how
 * they slow the host. Everything else lives in the other model_*.c files.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

static uint64_t
us(double v)
{
	return (uint64_t)llround(v * 1000.0);
}

/* Geometry from the profile; -1 if it leaves GC no room. */
static int
geometry(struct sim_model *m)
{
	const struct sim_profile *p = &m->p;

	if (p->capacity < SIM_PAGE || p->capacity / SIM_PAGE >= SIM_NONE / 2 ||
	    p->pages_per_block < 4 || p->gc_free_blocks < 2)
		return -1;
	m->nlba = (uint32_t)(p->capacity / SIM_PAGE);
	m->ppb = p->pages_per_block;
	m->user_blocks = (m->nlba + m->ppb - 1) / m->ppb;
	m->spare_blocks = (uint32_t)((double)m->nlba * p->op_share) / m->ppb;
	m->nblocks = m->user_blocks + m->spare_blocks;
	m->reserve = p->gc_free_blocks + 2;
	return m->spare_blocks >= m->reserve + 2 ? 0 : -1;
}

static void
power_on_state(struct sim_model *m, uint64_t now)
{
	m->now = now;
	m->temp = m->p.temp_idle_c;
	m->temp_t = now;
	m->on_since = now;
	m->rpipe = m->wpipe = now;
	m->last_busy = m->idle_cursor = now;
	m->c.power_cycles = 1;
	m->c.rated_erase_count = m->p.rated_pe;
	m->c.available_spare_threshold = m->p.spare_threshold_pct;
}

struct sim_model *
sim_model_new(const struct sim_profile *p, uint64_t seed, uint64_t now,
    sim_emit_fn *emit, void *arg)
{
	struct sim_model	*m;

	if ((m = calloc(1, sizeof(*m))) == NULL)
		return NULL;
	m->p = *p;
	m->emit = emit;
	m->arg = arg;
	m->seed = seed;
	if (geometry(m) < 0) {
		free(m);
		errno = EINVAL;
		return NULL;
	}
	if (sim_ftl_init(m) < 0 || sim_slc_init(m) < 0) {
		sim_model_free(m);
		errno = ENOMEM;
		return NULL;
	}
	sim_wear_init(m);
	power_on_state(m, now);
	m->w.after = "start";
	sim_truth_start(m);
	return m;
}

void
sim_model_free(struct sim_model *m)
{
	if (m == NULL)
		return;
	sim_ftl_free(m);
	sim_power_free(m);
	free(m->ring);
	free(m);
}

uint64_t
sim_model_capacity(const struct sim_model *m)
{
	return m->p.capacity;
}

/* Bring the model to `now`; nonzero (error set) if it cannot serve. */
static int
arrive(struct sim_model *m, uint64_t now, uint64_t off, uint64_t len,
    struct sim_io *r)
{
	memset(r, 0, sizeof(*r));
	r->done = now;
	if (now < m->now)
		now = m->now;	/* the caller's clock never goes back */
	m->now = now;
	if (m->off)
		return r->error = ENODEV;
	sim_wear_life(m, now);
	sim_thermal_update(m, now);
	sim_slc_idle(m, now);
	if (m->life == SIM_LIFE_GONE)
		return r->error = ENODEV;
	if (off > m->p.capacity || len > m->p.capacity - off)
		return r->error = EINVAL;
	sim_slc_busy(m, now);
	return 0;
}

static void
busy_until(struct sim_model *m, uint64_t done)
{
	if (done > m->last_busy)
		m->last_busy = done;
}

/* Pages [*first, *end) a request of bytes [off, off + len) touches. */
static void
pages(uint64_t off, uint64_t len, uint32_t *first, uint32_t *end)
{
	*first = (uint32_t)(off / SIM_PAGE);
	*end = (uint32_t)((off + len + SIM_PAGE - 1) / SIM_PAGE);
}

/* Bad pages of a read: the failure or damage it returns. */
static void
read_bad(struct sim_model *m, uint64_t off, uint64_t len, uint32_t bad0,
    uint32_t bad1, struct sim_io *r)
{
	uint64_t	lo = (uint64_t)bad0 * SIM_PAGE;
	uint64_t	hi = (uint64_t)(bad1 + 1) * SIM_PAGE;

	m->c.media_errors++;
	m->c.error_log_entries++;
	if (m->p.bad_mode == SIM_BAD_EIO) {
		r->error = EIO;
		return;
	}
	/* damage from the first bad page to the end of the last one */
	r->damage_off = lo > off ? lo : off;
	r->damage_len = (hi < off + len ? hi : off + len) - r->damage_off;
}

/* A run of reads begins (none for a second before): when, for a test to
 * time what the reads did (heat, throttling) from their start. */
static void
reads_begin(struct sim_model *m, uint64_t now)
{
	if (m->last_read == 0 || now - m->last_read >= (uint64_t)NS)
		sim_truth(m, now, "reads", "\"since_read_ns\":%llu",
		    m->last_read == 0 ? 0ULL :
		    (unsigned long long)(now - m->last_read));
	m->last_read = now;
}

void
sim_model_read(struct sim_model *m, uint64_t now, uint64_t off,
    uint64_t len, struct sim_io *r)
{
	uint32_t	first, end, i, bad0 = SIM_NONE, bad1 = 0;
	double		f = 1, fi, factor;
	uint64_t	start, mapped = 0;

	if (arrive(m, now, off, len, r) != 0 || len == 0)
		return;
	now = m->now;
	reads_begin(m, now);
	pages(off, len, &first, &end);
	for (i = first; i < end; i++) {
		if (m->l2p[i] != SIM_NONE)
			mapped++;
		if ((fi = sim_wear_read_factor(m, sim_ftl_block_of(m, i),
		    now)) > f)
			f = fi;
		if (sim_bit(m->bad, i)) {
			bad0 = bad0 == SIM_NONE ? i : bad0;
			bad1 = i;
		}
	}
	if (bad0 != SIM_NONE)
		read_bad(m, off, len, bad0, bad1, r);
	factor = sim_speed_factor(m);
	start = m->rpipe > now ? m->rpipe : now;
	/* a retry reads again, the transfer too: worn or aged data slow the
	 * whole read by f, at any queue depth, not only its latency */
	m->rpipe = start + (uint64_t)llround((double)(us(m->p.overhead_us) +
	    sim_xfer_ns(len, m->p.read_mbps, factor)) * f);
	r->done = m->rpipe + us(m->p.read_lat_us * f);
	m->c.host_read_bytes += len;
	m->c.host_read_cmds++;
	m->c.nand_read_bytes += mapped * SIM_PAGE;
	sim_thermal_heat(m, len);
	busy_until(m, r->done);
}

/* Put the pages of a write in the FTL (and the cache). */
static void
write_pages(struct sim_model *m, uint64_t off, uint64_t len, int cached)
{
	uint32_t	first, end, i;

	pages(off, len, &first, &end);
	for (i = first; i < end; i++) {
		sim_ftl_write(m, i);
		if (cached)
			sim_slc_put(m, i);
	}
	m->c.nand_written_bytes += (uint64_t)(end - first) * SIM_PAGE;
}

void
sim_model_write(struct sim_model *m, uint64_t now, uint64_t off,
    uint64_t len, struct sim_io *r)
{
	uint64_t	start, stall, gc_ns, nand0 = m->c.nand_written_bytes;
	double		mbps, factor;
	int		cached;

	if (arrive(m, now, off, len, r) != 0 || len == 0)
		return;
	if (m->life != SIM_LIFE_OK) {
		r->error = EROFS;
		return;
	}
	now = m->now;
	m->gc_pages = 0;
	factor = sim_speed_factor(m);
	start = m->wpipe > now ? m->wpipe : now;
	stall = sim_slc_admit(m, start, len, &mbps, &cached);
	/* counted first: a record this write causes includes it */
	m->c.host_written_bytes += len;
	m->c.host_write_cmds++;
	write_pages(m, off, len, cached);
	m->c.nand_written_bytes += m->gc_pages * SIM_PAGE;
	m->c.nand_read_bytes += m->gc_pages * SIM_PAGE;
	gc_ns = sim_xfer_ns(m->gc_pages * SIM_PAGE, m->p.gc_mbps, 1);
	if (cached) {		/* the cache absorbs it: GC waits */
		m->fold_debt_ns += gc_ns;
		gc_ns = 0;
	}
	m->wpipe = start + stall + us(m->p.overhead_us) +
	    sim_xfer_ns(len, mbps, factor) + gc_ns;
	r->done = m->wpipe + us(m->p.write_lat_us);
	sim_thermal_heat(m, len);
	r->seq = sim_power_wrote(m, off, len);
	busy_until(m, r->done);
	sim_slc_filled(m, r->done);
	sim_window_write(m, off, len, m->c.nand_written_bytes - nand0,
	    r->done);
}

/* Trim whole pages only: a partial page keeps its data. */
void
sim_model_trim(struct sim_model *m, uint64_t now, uint64_t off,
    uint64_t len, struct sim_io *r)
{
	uint64_t	i, first, end;
	uint32_t	before;

	if (arrive(m, now, off, len, r) != 0 || len == 0)
		return;
	if (m->life != SIM_LIFE_OK) {
		r->error = EROFS;
		return;
	}
	first = (off + SIM_PAGE - 1) / SIM_PAGE;
	end = (off + len) / SIM_PAGE;
	before = m->mapped;
	for (i = first; i < end; i++) {
		sim_ftl_trim(m, (uint32_t)i);
		sim_slc_drop(m, (uint32_t)i);
	}
	if (first < end)	/* a cut no longer brings those pages back */
		sim_power_trimmed(m, first * SIM_PAGE,
		    (end - first) * SIM_PAGE);
	/* GC deferred for data now trimmed need not be done */
	if (before > 0)
		m->fold_debt_ns = (uint64_t)((double)m->fold_debt_ns *
		    m->mapped / before);
	m->cache_decide = m->ring != NULL;
	sim_window_reset(m, "trim");
	r->done = m->now + us(m->p.trim_lat_us);
	busy_until(m, r->done);
}

void
sim_model_flush(struct sim_model *m, uint64_t now, struct sim_io *r)
{
	if (arrive(m, now, 0, 0, r) != 0)
		return;
	r->done = (m->wpipe > m->now ? m->wpipe : m->now) +
	    us(m->p.flush_lat_us);
	sim_power_flushed(m);
	/* a flush ends the host's run of writes: the next starts a round */
	if (m->w.cmds > 0)
		sim_window_reset(m, "flush");
	busy_until(m, r->done);
}

void
sim_model_counters(struct sim_model *m, uint64_t now, struct sim_counters *c)
{
	const struct sim_profile *p = &m->p;
	uint64_t	on = m->on_ns;

	if (now > m->now)
		m->now = now;
	if (!m->off) {
		sim_wear_life(m, m->now);
		sim_thermal_update(m, m->now);
		sim_slc_idle(m, m->now);
		on += m->now - m->on_since;
	}
	*c = m->c;
	c->percentage_used = (unsigned)(m->total_erases * 100 /
	    ((uint64_t)m->nblocks * p->rated_pe));
	c->available_spare = sim_wear_spare(m);
	/* reliability degraded: the spare is spent (media errors alone are
	 * what the spare is for); read-only: the end of life */
	c->critical_warning = (c->available_spare < p->spare_threshold_pct) |
	    (m->temp >= p->warning_c) << 1 | (c->available_spare == 0) << 2 |
	    (m->life != SIM_LIFE_OK) << 3;
	c->temperature_c = m->temp;
	c->warning_temp_minutes = m->warn_ns / 60000000000ULL;
	c->critical_temp_minutes = m->crit_ns / 60000000000ULL;
	c->thermal_seconds[0] = m->tmt_ns[0] / 1000000000ULL;
	c->thermal_seconds[1] = m->tmt_ns[1] / 1000000000ULL;
	c->power_on_seconds = on / 1000000000ULL;
	c->erase_count_avg = m->total_erases / m->nblocks;
	c->life = m->life;
}
