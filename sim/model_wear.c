/*
 * model_wear.c: wear and the drive's end of life. Each erase block has an
 * erase count against the rated P/E cycles, and a death count drawn from
 * the seed around the profile's death_pe: a block erased that many times
 * fails when it is next filled, and the host pages it then holds become
 * unreadable (uncorrectable reads) until rewritten or trimmed. The
 * failed block is retired from the spare pool; when the spare the FTL
 * needs to work is gone, the drive turns read-only, and gone_after_ms
 * later it is gone. Reads slow down with a block's wear and with the age
 * of its data (read retries).
 */
#include <math.h>

#include "model_int.h"

/* splitmix64: the model's only source of chance, seeded by the caller. */
static uint64_t
next_rand(uint64_t *s)
{
	uint64_t	z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* About normal, mean 0, deviation 1 (the sum of four uniforms). */
static double
rand_normal(uint64_t *s)
{
	double	sum = 0;
	int	i;

	for (i = 0; i < 4; i++)
		sum += (double)(next_rand(s) >> 11) / 9007199254740992.0;
	return (sum - 2) * sqrt(3.0);
}

/* Each block's death erase count, drawn from the seed. */
void
sim_wear_init(struct sim_model *m)
{
	uint32_t	b;
	double		d;

	m->rng = m->seed;
	for (b = 0; b < m->nblocks; b++) {
		if (m->p.death_pe == 0)
			continue;
		d = m->p.death_pe * (1 + m->p.death_spread * rand_normal(&m->rng));
		m->death[b] = d < 1 ? 1 : (uint32_t)llround(d);
	}
}

void
sim_wear_erased(struct sim_model *m, uint32_t blk)
{
	if (m->erases[blk] > m->c.erase_count_max)
		m->c.erase_count_max = m->erases[blk];
}

/* NVMe's available spare: the share of the usable spare not retired. */
unsigned
sim_wear_spare(const struct sim_model *m)
{
	uint32_t	usable = m->spare_blocks - m->reserve;
	uint32_t	left = m->retired < usable ? usable - m->retired : 0;

	return (unsigned)((uint64_t)left * 100 / usable);
}

/* Tell the host pages of blk as bad ranges, in runs of adjacent LBAs. */
static void
lose_pages(struct sim_model *m, uint32_t blk)
{
	uint32_t	i, lba, first = SIM_NONE, n = 0;

	for (i = 0; i <= m->ppb; i++) {
		lba = i < m->ppb ? m->p2l[blk * m->ppb + i] : SIM_NONE;
		if (lba != SIM_NONE && first != SIM_NONE && lba == first + n) {
			n++;
		} else {
			if (first != SIM_NONE)
				sim_truth(m, m->now, "bad", "\"off\":%llu,"
				    "\"len\":%llu,\"block\":%u",
				    (unsigned long long)first * SIM_PAGE,
				    (unsigned long long)n * SIM_PAGE, blk);
			first = lba;
			n = 1;
		}
		if (lba != SIM_NONE)
			sim_bit_set(m->bad, lba, 1);
	}
}

static void
readonly(struct sim_model *m)
{
	m->life = SIM_LIFE_READONLY;
	m->ro_t = m->now;
	m->gone_t = m->now + (uint64_t)(m->p.gone_after_ms * 1e6);
	sim_truth(m, m->now, "readonly", "\"host_written_bytes\":%llu,"
	    "\"retired_blocks\":%u,\"gone_ns\":%llu",
	    (unsigned long long)m->c.host_written_bytes, m->retired,
	    m->p.gone_after_ms > 0 ? (unsigned long long)m->gone_t : 0ULL);
}

/* A block just filled: a worn-out one fails with what it holds. */
void
sim_wear_closed(struct sim_model *m, uint32_t blk)
{
	if (m->death[blk] == 0 || m->erases[blk] < m->death[blk])
		return;
	m->bstate[blk] = BLK_RETIRED;
	m->retired++;
	lose_pages(m, blk);
	sim_truth(m, m->now, "retire", "\"block\":%u,\"erases\":%u,"
	    "\"retired_blocks\":%u,\"available_spare\":%u", blk,
	    m->erases[blk], m->retired, sim_wear_spare(m));
	if (m->life == SIM_LIFE_OK &&
	    m->retired >= m->spare_blocks - m->reserve)
		readonly(m);
}

/* A read-only drive dies gone_after_ms later. */
void
sim_wear_life(struct sim_model *m, uint64_t now)
{
	if (m->life != SIM_LIFE_READONLY || m->p.gone_after_ms <= 0 ||
	    now < m->gone_t)
		return;
	m->life = SIM_LIFE_GONE;
	sim_truth(m, m->gone_t, "gone", "\"host_written_bytes\":%llu,"
	    "\"nand_written_bytes\":%llu",
	    (unsigned long long)m->c.host_written_bytes,
	    (unsigned long long)m->c.nand_written_bytes);
}

/* How much slower than new a read from block blk (or none) is: wear, then data age. */
double
sim_wear_read_factor(const struct sim_model *m, uint32_t blk, uint64_t now)
{
	double		f;

	if (blk == SIM_NONE)
		return 1;
	f = 1 + m->p.wear_read_factor * m->erases[blk] / m->p.rated_pe;
	if (m->p.age_ms > 0 && now > m->bprog[blk] &&
	    (double)(now - m->bprog[blk]) > m->p.age_ms * 1e6)
		f *= m->p.age_read_factor;
	return f;
}
