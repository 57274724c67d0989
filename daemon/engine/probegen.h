/*
 * probegen.h: the I/Os of a probe (probes.h), one worker's stream at a
 * time: the same probe, region, logical block size, worker and seed give
 * the same stream. Constant time and no allocation per I/O: the worker
 * asks for each I/O as it submits it.
 *
 * Every offset and length is a multiple of the logical block size; a
 * probe with a block size the device cannot address (512 B on a 4 KiB
 * device) is not applicable, and probegen_init() says why instead of
 * running it at another size.
 */
#ifndef SSDT_PROBEGEN_H
#define SSDT_PROBEGEN_H

#include <stddef.h>
#include <stdint.h>

#include "probes.h"

struct probe_io {
	uint64_t	offset;		/* bytes from the region's start */
	uint32_t	length;
	int		is_read;
};

/* One worker's generator; its fields are probegen.c's. */
struct probegen {
	uint64_t	rng;
	uint64_t	region;		/* bytes */
	uint32_t	align;		/* of random offsets: the smallest size */
	unsigned	read_percent;
	unsigned	random_percent;
	unsigned	nsplit;
	uint32_t	size[PROBE_SPLIT_MAX];
	int32_t		weight[PROBE_SPLIT_MAX];
	unsigned	nzones;		/* 1 for uniform */
	uint32_t	zone_upto[PROBE_ZONES_MAX];	/* cumulative access % */
	uint64_t	zone_first[PROBE_ZONES_MAX];	/* in units of align */
	uint64_t	zone_end[PROBE_ZONES_MAX];
	/* the stream's position */
	unsigned	dir_acc;
	int32_t		split_acc[2][PROBE_SPLIT_MAX];	/* [is_read][size] */
	unsigned	rand_acc[2][PROBE_SPLIT_MAX];
	uint64_t	seq_next[2];			/* [is_read] */
};

/*
 * Can the probe run over `region` bytes of a device whose logical block
 * is `unit` bytes? 0, or -1 with the reason in `why` (not applicable, or
 * arguments no device has).
 */
int	probegen_check(const struct probe *, uint64_t region, uint32_t unit,
	    char *why, size_t len);
/* Worker `worker` (below the probe's workers) of the probe: as check. */
int	probegen_init(struct probegen *, const struct probe *, uint64_t region,
	    uint32_t unit, unsigned worker, uint64_t seed, char *why,
	    size_t len);
/* The stream's next I/O. */
void	probegen_next(struct probegen *, struct probe_io *);

#endif
