/*
 * model_power.c: the volatile write cache and power cuts. Writes since
 * the last flush are unflushed, in order (a write that continues the one
 * before it extends it: one request). With cache_bytes set, the cache
 * holds at most that much: older unflushed writes are destaged (durable)
 * beyond it. At a cut the unflushed writes are lost; a lying profile
 * (lie_flushed = K) also loses the last K write requests it had
 * acknowledged as flushed. The lost ranges are told in the "power_off"
 * record and handed to the front-end, which puts back what the drive
 * held before them. Every byte that stops being losable is told to the
 * front-end (sim_durable_fn) so that it keeps only what a cut can need.
 * A durable write or a trim takes the bytes it covers out of the older
 * losable ones: a cut then never loses bytes a newer durable write holds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

void
sim_model_on_durable(struct sim_model *m, sim_durable_fn *fn, void *arg)
{
	m->durable = fn;
	m->durable_arg = arg;
}

uint64_t
sim_model_next_seq(const struct sim_model *m)
{
	return m->wseq + 1;
}

/* Bytes [off, +len) of the writes of r are durable now. */
static void
forget(struct sim_model *m, const struct sim_range *r, uint64_t off,
    uint64_t len)
{
	struct sim_range	d = *r;

	if (len == 0 || m->durable == NULL)
		return;
	d.off = off;
	d.len = len;
	m->durable(m->durable_arg, &d);
}

/* Insert e at index i of an array of *n entries; -1 on ENOMEM. */
static int
pw_insert(struct sim_pw **a, size_t *n, size_t *cap, size_t i,
    const struct sim_pw *e)
{
	struct sim_pw	*p;
	size_t		 c;

	if (*n == *cap) {
		c = *cap ? *cap * 2 : 64;
		if ((p = realloc(*a, c * sizeof(*p))) == NULL)
			return -1;
		*a = p;
		*cap = c;
	}
	memmove(*a + i + 1, *a + i, (*n - i) * sizeof(**a));
	(*a)[i] = *e;
	(*n)++;
	return 0;
}

/*
 * Take [a, b) out of the entries [from, *n): those bytes are no longer
 * losable. An entry cut in its middle splits in two (one request still;
 * without memory for the split, its tail counts as durable too). The
 * bytes taken out.
 */
static uint64_t
pw_cut(struct sim_model *m, struct sim_pw **arr, size_t from, size_t *n,
    size_t *cap, uint64_t a, uint64_t b)
{
	struct sim_pw	tail;
	uint64_t	lo, hi, end, total = 0;
	size_t		i;

	for (i = from; i < *n; i++) {
		struct sim_pw *e = &(*arr)[i];

		end = e->r.off + e->r.len;
		lo = a > e->r.off ? a : e->r.off;
		hi = b < end ? b : end;
		if (lo >= hi)
			continue;
		forget(m, &e->r, lo, hi - lo);
		total += hi - lo;
		tail = *e;
		tail.r.off = hi;
		tail.r.len = end - hi;
		e->r.len = lo - e->r.off;
		if (e->r.len == 0)
			*e = tail;	/* what is left is the tail (or none) */
		else if (tail.r.len > 0 &&
		    pw_insert(arr, n, cap, ++i, &tail) < 0) {
			forget(m, &tail.r, tail.r.off, tail.r.len);
			total += tail.r.len;
			i--;
		}
	}
	return total;
}

/* Older unflushed writes beyond cache_bytes become durable. */
static void
destage(struct sim_model *m)
{
	struct sim_pw	*e;
	uint64_t	 over, cut, a;

	while (m->p.cache_bytes > 0 && m->unfl_bytes > m->p.cache_bytes &&
	    m->unfl_head < m->unfl_n) {
		e = &m->unfl[m->unfl_head];
		over = m->unfl_bytes - m->p.cache_bytes;
		cut = over < e->r.len ? over : e->r.len;
		a = e->r.off;
		forget(m, &e->r, a, cut);
		e->r.off += cut;
		e->r.len -= cut;
		m->unfl_bytes -= cut;
		if (e->r.len == 0)
			m->unfl_head++;
		/* durable now, and newer than every flushed one it covers */
		pw_cut(m, &m->hist, 0, &m->hist_n, &m->hist_cap, a, a + cut);
	}
}

/* A write accepted: unflushed, losable. Its number. */
uint64_t
sim_power_wrote(struct sim_model *m, uint64_t off, uint64_t len)
{
	struct sim_pw	*last = m->unfl_n > m->unfl_head ?
			    &m->unfl[m->unfl_n - 1] : NULL;
	struct sim_pw	 e = { { off, len, 0, 0, 0 }, 0 };
	uint64_t	 seq = ++m->wseq;

	e.r.seq_lo = e.r.seq_hi = seq;
	if (m->unfl_head > 0 && m->unfl_head == m->unfl_n)
		m->unfl_head = m->unfl_n = 0;
	if (last != NULL && last->r.off + last->r.len == off &&
	    last->r.seq_hi + 1 == seq) {
		last->r.len += len;
		last->r.seq_hi = seq;
	} else {
		if (m->unfl_head > 0 && m->unfl_n == m->unfl_cap) {
			memmove(m->unfl, m->unfl + m->unfl_head,
			    (m->unfl_n - m->unfl_head) * sizeof(*m->unfl));
			m->unfl_n -= m->unfl_head;
			m->unfl_head = 0;
		}
		if (pw_insert(&m->unfl, &m->unfl_n, &m->unfl_cap, m->unfl_n,
		    &e) < 0) {
			/* no memory: taken as durable, and told so */
			forget(m, &e.r, off, len);
			return seq;
		}
	}
	m->unfl_bytes += len;
	destage(m);
	return seq;
}

/* Flushed requests beyond the K a lying drive forgets are durable. */
static void
hist_keep(struct sim_model *m)
{
	size_t	i, nreq = 0, drop;

	for (i = 0; i < m->hist_n; i++)
		if (i == 0 || m->hist[i].req != m->hist[i - 1].req)
			nreq++;
	while (nreq > m->p.lie_flushed) {
		for (drop = 0; drop < m->hist_n &&
		    m->hist[drop].req == m->hist[0].req; drop++)
			forget(m, &m->hist[drop].r, m->hist[drop].r.off,
			    m->hist[drop].r.len);
		memmove(m->hist, m->hist + drop,
		    (m->hist_n - drop) * sizeof(*m->hist));
		m->hist_n -= drop;
		nreq--;
	}
}

/* A flush: the unflushed writes are durable (or, lying, remembered). */
void
sim_power_flushed(struct sim_model *m)
{
	struct sim_pw	e;
	size_t		i;

	for (i = m->unfl_head; i < m->unfl_n; i++) {
		e = m->unfl[i];
		if (e.r.len == 0)
			continue;	/* destaged or trimmed whole */
		e.r.flushed = 1;
		e.req = ++m->nreq;
		if (m->p.lie_flushed == 0 || pw_insert(&m->hist, &m->hist_n,
		    &m->hist_cap, m->hist_n, &e) < 0)
			forget(m, &e.r, e.r.off, e.r.len);
	}
	m->unfl_head = m->unfl_n = 0;
	m->unfl_bytes = 0;
	hist_keep(m);
}

/* A trim: its pages read as zeroes after a cut too. */
void
sim_power_trimmed(struct sim_model *m, uint64_t off, uint64_t len)
{
	m->unfl_bytes -= pw_cut(m, &m->unfl, m->unfl_head, &m->unfl_n,
	    &m->unfl_cap, off, off + len);
	pw_cut(m, &m->hist, 0, &m->hist_n, &m->hist_cap, off, off + len);
}

void
sim_power_free(struct sim_model *m)
{
	free(m->unfl);
	free(m->hist);
}

/* What a cut loses: the flushed the lying drive forgets, then unflushed. */
static struct sim_range *
lost_ranges(struct sim_model *m, size_t *n, size_t *nflushed)
{
	struct sim_range	*r;
	size_t			 i, k = 0, nu = m->unfl_n - m->unfl_head;

	*n = *nflushed = 0;
	if (m->hist_n + nu == 0)
		return NULL;
	if ((r = malloc((m->hist_n + nu) * sizeof(*r))) == NULL)
		return NULL;
	for (i = 0; i < m->hist_n; i++)	/* oldest first */
		if (m->hist[i].r.len > 0)
			r[k++] = m->hist[i].r;
	*nflushed = k;
	for (i = m->unfl_head; i < m->unfl_n; i++)
		if (m->unfl[i].r.len > 0)
			r[k++] = m->unfl[i].r;
	*n = k;
	if (k == 0) {
		free(r);
		r = NULL;
	}
	return r;
}

int
sim_model_power_off(struct sim_model *m, uint64_t now,
    struct sim_range **lost, size_t *n)
{
	size_t	nflushed;

	*lost = NULL;
	*n = 0;
	if (m->off)
		return 0;
	m->now = now;
	sim_thermal_update(m, now);
	sim_slc_idle(m, now);
	errno = 0;
	*lost = lost_ranges(m, n, &nflushed);
	if (*lost == NULL && errno == ENOMEM)
		return -1;
	sim_truth_lost(m, *lost, *n, nflushed);
	m->unfl_head = m->unfl_n = 0;
	m->unfl_bytes = 0;
	m->hist_n = 0;
	m->off = 1;
	m->on_ns += now - m->on_since;
	m->c.unsafe_shutdowns++;
	return 0;
}

void
sim_model_power_on(struct sim_model *m, uint64_t now)
{
	if (!m->off)
		return;
	if (now < m->now)
		now = m->now;	/* the caller's clock never goes back */
	m->now = now;
	m->off = 0;
	m->on_since = now;
	m->rpipe = m->wpipe = now;
	m->last_busy = m->idle_cursor = now;
	m->c.power_cycles++;
	m->cache_decide = m->ring != NULL;
	sim_window_reset(m, "power_on");
	sim_thermal_update(m, now);
	sim_truth(m, now, "power_on", "\"power_cycles\":%llu",
	    (unsigned long long)m->c.power_cycles);
}
