/*
 * model_window.c: the model's own reading of its random-write behaviour,
 * told as truth records. Host writes are cut into windows of 1/64 of
 * the capacity (at least 1 MiB). A window is random when fewer than half
 * of its writes continue the one before. Sustained garbage collection
 * starts ("gc" state start) with the first write that made GC relocate,
 * and stops at the end of a window without any. Steady state, by the
 * rule SNIA's PTS uses on its rounds: five random windows in a row whose
 * IOPS lie within 20 % of their mean and whose fitted slope across the
 * five is within 10 % of it; "steady" then tells that mean.
 */
#include <math.h>
#include <string.h>

#include "model_int.h"

#define ROUNDS	5

static uint64_t
window_bytes(const struct sim_model *m)
{
	uint64_t	w = m->p.capacity / 64;

	return w < (1u << 20) ? (1u << 20) : w;
}

static double
wa(uint64_t nand, uint64_t host)
{
	return host == 0 ? 0 : (double)nand / (double)host;
}

/* The SNIA rule on the last ROUNDS windows' IOPS: their mean, or 0. */
static double
steady_mean(const double *y)
{
	double	mean = 0, lo = y[0], hi = y[0], sxy = 0;
	int	i;

	for (i = 0; i < ROUNDS; i++) {
		mean += y[i] / ROUNDS;
		lo = fmin(lo, y[i]);
		hi = fmax(hi, y[i]);
	}
	for (i = 0; i < ROUNDS; i++)
		sxy += (i - (ROUNDS - 1) / 2.0) * (y[i] - mean);
	/* slope per round is sxy / 10; across the rounds, times 4 */
	if (hi - lo > 0.2 * mean || fabs(sxy / 10 * (ROUNDS - 1)) > 0.1 * mean)
		return 0;
	return mean;
}

static void
window_end(struct sim_model *m)
{
	struct sim_window	*w = &m->w;
	double			 span = (double)(w->last_done - w->t0) / NS;
	double			 mean;

	if (w->gc_on && w->gc_pages == 0) {
		w->gc_on = 0;
		sim_truth(m, w->last_done, "gc", "\"state\":\"stop\","
		    "\"wa\":%.4f", wa(m->c.nand_written_bytes,
		    m->c.host_written_bytes));
	}
	if (w->seq * 2 < w->cmds && span > 0) {
		memmove(w->iops, w->iops + 1, (ROUNDS - 1) * sizeof(double));
		w->iops[ROUNDS - 1] = (double)w->cmds / span;
		w->nrand++;
	} else {
		w->nrand = 0;
		w->steady = 0;
	}
	if (w->nrand >= ROUNDS && !w->steady &&
	    (mean = steady_mean(w->iops)) > 0) {
		w->steady = 1;
		sim_truth(m, w->last_done, "steady", "\"iops\":%.3f,"
		    "\"wa\":%.4f,\"rounds\":%u,\"window_bytes\":%llu", mean,
		    wa(w->nand, w->host), w->nrand,
		    (unsigned long long)window_bytes(m));
	}
	w->host = w->nand = w->cmds = w->seq = w->gc_pages = 0;
	w->t0 = w->last_done;
}

void
sim_window_write(struct sim_model *m, uint64_t off, uint64_t len,
    uint64_t nand, uint64_t done)
{
	struct sim_window	*w = &m->w;

	if (w->t0 == 0)
		w->t0 = m->now;
	if (off == w->next_off)
		w->seq++;
	w->next_off = off + len;
	w->host += len;
	w->nand += nand;
	w->cmds++;
	w->gc_pages += m->gc_pages;
	if (done > w->last_done)
		w->last_done = done;
	if (m->gc_pages > 0 && !w->gc_on) {
		w->gc_on = 1;
		sim_truth(m, m->now, "gc", "\"state\":\"start\",\"wa\":%.4f",
		    wa(m->c.nand_written_bytes, m->c.host_written_bytes));
	}
	if (w->host >= window_bytes(m))
		window_end(m);
}

/* Idle, trim or a power cycle: the run of random windows starts over. */
void
sim_window_reset(struct sim_model *m)
{
	struct sim_window	*w = &m->w;

	w->host = w->nand = w->cmds = w->seq = w->gc_pages = 0;
	w->t0 = 0;
	w->nrand = 0;
	w->steady = 0;
}
