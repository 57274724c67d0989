/*
 * model_power.c: the volatile write cache and power cuts. Writes since
 * the last flush are unflushed, in order (a write that continues the one
 * before it extends it: one request). With cache_bytes set, the cache
 * holds at most that much: older unflushed writes are destaged (durable)
 * beyond it. At a cut the unflushed writes are lost; a lying profile
 * (lie_flushed = K) also loses the last K write requests it had
 * acknowledged as flushed. The lost ranges are told in the "power_off"
 * record and handed to the front-end, which zeroes them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

static int
unfl_push(struct sim_model *m, uint64_t off, uint64_t len)
{
	struct sim_range	*r;

	if (m->unfl_head > 0 && m->unfl_head == m->unfl_n) {
		m->unfl_head = m->unfl_n = 0;
	}
	if (m->unfl_n == m->unfl_cap) {
		if (m->unfl_head > 0) {	/* reuse the destaged front */
			memmove(m->unfl, m->unfl + m->unfl_head,
			    (m->unfl_n - m->unfl_head) * sizeof(*m->unfl));
			m->unfl_n -= m->unfl_head;
			m->unfl_head = 0;
		} else {
			size_t	cap = m->unfl_cap ? m->unfl_cap * 2 : 64;

			if ((r = realloc(m->unfl, cap * sizeof(*r))) == NULL)
				return -1;
			m->unfl = r;
			m->unfl_cap = cap;
		}
	}
	m->unfl[m->unfl_n].off = off;
	m->unfl[m->unfl_n].len = len;
	m->unfl_n++;
	return 0;
}

/* Older unflushed writes beyond cache_bytes become durable. */
static void
destage(struct sim_model *m)
{
	struct sim_range	*r;
	uint64_t		 over, cut;

	while (m->p.cache_bytes > 0 && m->unfl_bytes > m->p.cache_bytes) {
		r = &m->unfl[m->unfl_head];
		over = m->unfl_bytes - m->p.cache_bytes;
		cut = over < r->len ? over : r->len;
		r->off += cut;
		r->len -= cut;
		m->unfl_bytes -= cut;
		if (r->len == 0)
			m->unfl_head++;
	}
}

void
sim_power_wrote(struct sim_model *m, uint64_t off, uint64_t len)
{
	struct sim_range	*last = m->unfl_n > m->unfl_head ?
				    &m->unfl[m->unfl_n - 1] : NULL;

	if (last != NULL && last->off + last->len == off)
		last->len += len;
	else if (unfl_push(m, off, len) < 0)
		return;		/* no memory: the model under-reports nothing
				 * it claims; the write is taken as durable */
	m->unfl_bytes += len;
	destage(m);
}

/* A flush: the unflushed writes are durable (or, lying, remembered). */
void
sim_power_flushed(struct sim_model *m)
{
	size_t	i;

	for (i = m->unfl_head; m->hist != NULL && i < m->unfl_n; i++) {
		m->hist[m->hist_pos] = m->unfl[i];
		m->hist_pos = (m->hist_pos + 1) % m->p.lie_flushed;
		if (m->hist_n < m->p.lie_flushed)
			m->hist_n++;
	}
	m->unfl_head = m->unfl_n = 0;
	m->unfl_bytes = 0;
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
		r[k++] = m->hist[(m->hist_pos + m->p.lie_flushed - m->hist_n +
		    i) % m->p.lie_flushed];
	*nflushed = k;
	for (i = m->unfl_head; i < m->unfl_n; i++)
		r[k++] = m->unfl[i];
	*n = k;
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
	*lost = lost_ranges(m, n, &nflushed);
	if (*lost == NULL && m->hist_n + m->unfl_n - m->unfl_head > 0) {
		errno = ENOMEM;
		return -1;
	}
	sim_truth_lost(m, *lost, *n, nflushed);
	m->unfl_head = m->unfl_n = 0;
	m->unfl_bytes = 0;
	m->hist_n = m->hist_pos = 0;
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
