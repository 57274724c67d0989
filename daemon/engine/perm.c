/* perm.c: a keyed, invertible permutation of [0, n) (Feistel with cycle walking). */
#include "perm.h"

#define PERM_ROUNDS	4

/* Round function: a keyed mix of the right half. */
static inline uint64_t
perm_round(uint64_t r, uint64_t k)
{
	r ^= k;
	r *= 0xff51afd7ed558ccdULL;
	r ^= r >> 33;
	r *= 0xc4ceb9fe1a85ec53ULL;
	r ^= r >> 29;
	return r;
}

static uint64_t
key_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void
perm_init(struct perm *p, uint64_t n, uint64_t key, int identity)
{
	unsigned	bits = 2;
	int		i;

	p->n = n;
	p->identity = identity || n < 2;
	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	bits += bits & 1;		/* even: two equal halves */
	p->half_bits = bits / 2;
	p->half_mask = (1ULL << p->half_bits) - 1;
	for (i = 0; i < PERM_ROUNDS; i++) {
		key = key_mix(key);
		p->keys[i] = key;
	}
}

/* One pass of the Feistel network over the 2*half_bits domain. */
static inline uint64_t
feistel_enc(const struct perm *p, uint64_t x)
{
	uint64_t	l = x >> p->half_bits, r = x & p->half_mask, t;
	int		i;

	for (i = 0; i < PERM_ROUNDS; i++) {
		t = r;
		r = l ^ (perm_round(r, p->keys[i]) & p->half_mask);
		l = t;
	}
	return (l << p->half_bits) | r;
}

static inline uint64_t
feistel_dec(const struct perm *p, uint64_t x)
{
	uint64_t	l = x >> p->half_bits, r = x & p->half_mask, t;
	int		i;

	for (i = PERM_ROUNDS - 1; i >= 0; i--) {
		t = l;
		l = r ^ (perm_round(l, p->keys[i]) & p->half_mask);
		r = t;
	}
	return (l << p->half_bits) | r;
}

/* Cycle walking: the domain is at most 4n, so this ends quickly. */
uint64_t
perm_fwd(const struct perm *p, uint64_t i)
{
	if (p->identity)
		return i;
	do
		i = feistel_enc(p, i);
	while (i >= p->n);
	return i;
}

uint64_t
perm_inv(const struct perm *p, uint64_t i)
{
	if (p->identity)
		return i;
	do
		i = feistel_dec(p, i);
	while (i >= p->n);
	return i;
}
