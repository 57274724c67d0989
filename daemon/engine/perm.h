/* perm.h: a keyed, invertible permutation of [0, n) (Feistel with cycle walking). */
#ifndef SSDT_PERM_H
#define SSDT_PERM_H

#include <stdint.h>

struct perm {
	uint64_t	n;
	unsigned	half_bits;
	uint64_t	half_mask;
	uint64_t	keys[4];
	int		identity;	/* sequential order: perm(i) = i */
};

void		perm_init(struct perm *, uint64_t n, uint64_t key, int identity);
uint64_t	perm_fwd(const struct perm *, uint64_t i);
uint64_t	perm_inv(const struct perm *, uint64_t i);

#endif
