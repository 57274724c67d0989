/*
 * model_bits.c: the small arithmetic every part of the model shares: the
 * per-LBA bit maps and the time a transfer takes.
 */
#include <math.h>

#include "model_int.h"

int
sim_bit(const uint8_t *bits, uint32_t i)
{
	return (bits[i / 8] >> (i % 8)) & 1;
}

void
sim_bit_set(uint8_t *bits, uint32_t i, int v)
{
	if (v)
		bits[i / 8] |= (uint8_t)(1u << (i % 8));
	else
		bits[i / 8] &= (uint8_t)~(1u << (i % 8));
}

uint64_t
sim_xfer_ns(uint64_t len, double mbps, double factor)
{
	return (uint64_t)llround((double)len * 1000.0 / (mbps * factor));
}
