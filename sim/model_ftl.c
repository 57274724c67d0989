/*
 * model_ftl.c: the flash translation layer. Host pages (4 KiB) map to
 * physical pages of erase blocks; writes go to one open block (the
 * frontier); when free blocks fall under the profile's threshold,
 * greedy garbage collection relocates the valid pages of the block with
 * the fewest and erases it. Relocated pages are NAND writes the host did
 * not ask for: write amplification, and time the host waits for. A free
 * block is taken by the lowest erase count (dynamic wear levelling), so
 * wear spreads as a real drive spreads it.
 */
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

int
sim_ftl_init(struct sim_model *m)
{
	uint64_t	np = (uint64_t)m->nblocks * m->ppb;

	m->l2p = malloc((size_t)m->nlba * sizeof(*m->l2p));
	m->p2l = malloc((size_t)np * sizeof(*m->p2l));
	m->valid = calloc(m->nblocks, sizeof(*m->valid));
	m->erases = calloc(m->nblocks, sizeof(*m->erases));
	m->death = calloc(m->nblocks, sizeof(*m->death));
	m->bstate = calloc(m->nblocks, sizeof(*m->bstate));
	m->bprog = calloc(m->nblocks, sizeof(*m->bprog));
	m->bad = calloc(m->nlba / 8 + 1, 1);
	m->inslc = calloc(m->nlba / 8 + 1, 1);
	if (!m->l2p || !m->p2l || !m->valid || !m->erases || !m->death ||
	    !m->bstate || !m->bprog || !m->bad || !m->inslc)
		return -1;
	memset(m->l2p, 0xff, (size_t)m->nlba * sizeof(*m->l2p));
	memset(m->p2l, 0xff, (size_t)np * sizeof(*m->p2l));
	m->nfree = m->nblocks;
	m->frontier = SIM_NONE;
	m->wp = m->ppb;		/* the first write opens a block */
	return 0;
}

void
sim_ftl_free(struct sim_model *m)
{
	free(m->l2p);
	free(m->p2l);
	free(m->valid);
	free(m->erases);
	free(m->death);
	free(m->bstate);
	free(m->bprog);
	free(m->bad);
	free(m->inslc);
}

/* The free block with the fewest erases (lowest index on a tie). */
static uint32_t
alloc_block(struct sim_model *m)
{
	uint32_t	b, best = SIM_NONE;

	for (b = 0; b < m->nblocks; b++)
		if (m->bstate[b] == BLK_FREE &&
		    (best == SIM_NONE || m->erases[b] < m->erases[best]))
			best = b;
	if (best == SIM_NONE)
		abort();	/* the reserve makes this impossible */
	m->bstate[best] = BLK_OPEN;
	m->bprog[best] = m->now;
	m->nfree--;
	return best;
}

/* Put lba in the next page of the frontier. */
static void
program(struct sim_model *m, uint32_t lba)
{
	uint32_t	ppn;

	if (m->wp == m->ppb) {
		if (m->frontier != SIM_NONE) {
			m->bstate[m->frontier] = BLK_FULL;
			sim_wear_closed(m, m->frontier);
		}
		m->frontier = alloc_block(m);
		m->wp = 0;
	}
	ppn = m->frontier * m->ppb + m->wp++;
	m->p2l[ppn] = lba;
	m->l2p[lba] = ppn;
	m->valid[m->frontier]++;
}

/* Forget where lba was (its old page becomes invalid). */
static void
unmap(struct sim_model *m, uint32_t lba)
{
	uint32_t	ppn = m->l2p[lba];

	if (ppn == SIM_NONE)
		return;
	m->p2l[ppn] = SIM_NONE;
	m->valid[ppn / m->ppb]--;
	m->l2p[lba] = SIM_NONE;
	m->mapped--;
}

/* The full block with the fewest valid pages, or SIM_NONE. */
static uint32_t
victim(const struct sim_model *m)
{
	uint32_t	b, best = SIM_NONE;

	for (b = 0; b < m->nblocks; b++)
		if (m->bstate[b] == BLK_FULL &&
		    (best == SIM_NONE || m->valid[b] < m->valid[best]))
			best = b;
	if (best != SIM_NONE && m->valid[best] == m->ppb)
		return SIM_NONE;	/* nothing to gain */
	return best;
}

/* Relocate one victim's valid pages and erase it: 0, or -1 if none. */
int
sim_ftl_gc_one(struct sim_model *m)
{
	uint32_t	v = victim(m), i, lba;

	if (v == SIM_NONE)
		return -1;
	m->in_gc = 1;
	for (i = 0; i < m->ppb && m->valid[v] > 0; i++) {
		lba = m->p2l[v * m->ppb + i];
		if (lba == SIM_NONE)
			continue;
		m->p2l[v * m->ppb + i] = SIM_NONE;
		m->valid[v]--;
		program(m, lba);
		m->gc_pages++;
	}
	m->in_gc = 0;
	m->erases[v]++;
	m->total_erases++;
	m->bstate[v] = BLK_FREE;
	m->nfree++;
	sim_wear_erased(m, v);
	return 0;
}

/* A host write of one page: collect garbage first if free blocks ran low. */
void
sim_ftl_write(struct sim_model *m, uint32_t lba)
{
	unmap(m, lba);
	sim_bit_set(m->bad, lba, 0);	/* rewritten: readable again */
	while (m->nfree < m->p.gc_free_blocks && !m->in_gc)
		if (sim_ftl_gc_one(m) < 0)
			break;
	program(m, lba);
	m->mapped++;
}

void
sim_ftl_trim(struct sim_model *m, uint32_t lba)
{
	unmap(m, lba);
	sim_bit_set(m->bad, lba, 0);
}

/* The erase block lba lives in, or SIM_NONE if unmapped. */
uint32_t
sim_ftl_block_of(const struct sim_model *m, uint32_t lba)
{
	uint32_t	ppn = m->l2p[lba];

	return ppn == SIM_NONE ? SIM_NONE : ppn / m->ppb;
}
