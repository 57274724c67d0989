/*
 * model_window.c: the model's own reading of its write behaviour, told
 * as truth records, in rounds of round_ms of the caller's time (as the
 * reviews and SNIA's PTS read a run in rounds). A round begins with the
 * first write after the last one ended; each is told ("round": its write
 * IOPS, its WA, whether it was random, and for the first after a start,
 * idle work, TRIM, a flush or power-on, what came before it), so a test
 * reads the initial IOPS and what idle time or TRIM gave back from the
 * model itself. Writes count in the round in which they complete, as a
 * host counts them; a round starts at its first write's arrival, or at
 * the end of the round before when that write was queued behind it. A
 * flush ends the round under way, as idle work, TRIM and power-on do:
 * the host's next run of writes (a benchmark's, say) starts its own
 * rounds. A round is random when fewer than half of its writes continue
 * the one before. Sustained garbage collection starts ("gc" state start)
 * with the first write that made GC relocate, and stops at the end of a
 * round without any. Steady state, by SNIA's rule on rounds: five random
 * rounds in a row whose IOPS lie within 20 % of their mean and whose
 * fitted slope across the five is within 10 % of it; "steady" then tells
 * that mean.
 */
#include <math.h>
#include <string.h>

#include "model_int.h"

#define ROUNDS	5

static double
wa(uint64_t nand, uint64_t host)
{
	return host == 0 ? 0 : (double)nand / (double)host;
}

/* The SNIA rule on the last ROUNDS rounds' IOPS: their mean, or 0. */
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
gc_state(struct sim_model *m)
{
	struct sim_window	*w = &m->w;

	if (!w->gc_on || w->gc_pages > 0)
		return;
	w->gc_on = 0;
	sim_truth(m, w->last_done, "gc", "\"state\":\"stop\",\"wa\":%.4f",
	    wa(m->c.nand_written_bytes, m->c.host_written_bytes));
}

static void
round_end(struct sim_model *m)
{
	struct sim_window	*w = &m->w;
	double			 iops = (double)w->cmds /
				    ((double)(w->last_done - w->t0) / NS);
	int			 rnd = w->seq * 2 < w->cmds;
	double			 mean;

	gc_state(m);
	sim_truth(m, w->last_done, "round", "\"start_ns\":%llu,\"iops\":%.3f,"
	    "\"wa\":%.4f,\"random\":%s,\"host_bytes\":%llu,\"after\":\"%s\"",
	    (unsigned long long)w->t0, iops, wa(w->nand, w->host),
	    rnd ? "true" : "false", (unsigned long long)w->host,
	    w->after != NULL ? w->after : "");
	w->after = NULL;
	if (rnd) {
		memmove(w->iops, w->iops + 1, (ROUNDS - 1) * sizeof(double));
		w->iops[ROUNDS - 1] = iops;
		w->nrand++;
	} else {
		w->nrand = 0;
		w->steady = 0;
	}
	if (w->nrand >= ROUNDS && !w->steady &&
	    (mean = steady_mean(w->iops)) > 0) {
		w->steady = 1;
		sim_truth(m, w->last_done, "steady", "\"iops\":%.3f,"
		    "\"wa\":%.4f,\"rounds\":%u", mean, wa(w->nand, w->host),
		    w->nrand);
	}
	w->host = w->nand = w->cmds = w->seq = w->gc_pages = 0;
	w->t0 = 0;
	w->prev_end = w->last_done;
}

void
sim_window_write(struct sim_model *m, uint64_t off, uint64_t len,
    uint64_t nand, uint64_t done)
{
	struct sim_window	*w = &m->w;

	/* writes count in the round they complete in, as a host counts
	 * them: one queued behind the last round's end starts this round
	 * at that end, not at its arrival (a queue's worth earlier) */
	if (w->t0 == 0)
		w->t0 = m->now < w->prev_end ? w->prev_end : m->now;
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
	if (w->last_done - w->t0 >= (uint64_t)(m->p.round_ms * 1e6))
		round_end(m);
}

/*
 * Idle work, TRIM, a flush or a power cycle (`after` says which): the
 * round under way ends here, and the run of random rounds starts over.
 */
void
sim_window_reset(struct sim_model *m, const char *after)
{
	struct sim_window	*w = &m->w;

	if (w->cmds > 0 && w->last_done > w->t0)
		round_end(m);
	w->host = w->nand = w->cmds = w->seq = w->gc_pages = 0;
	w->t0 = w->prev_end = 0;
	w->nrand = 0;
	w->steady = 0;
	w->after = after;
}
