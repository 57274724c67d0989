/*
 * errmap_again.h: the blocks of a pass's error map that earlier passes
 * found bad too. It reads maps through errmap.h; errmap.c knows nothing of
 * it.
 */
#ifndef SSDT_ERRMAP_AGAIN_H
#define SSDT_ERRMAP_AGAIN_H

#include "errmap.h"

/*
 * Read pass `pass` of the maps in drive_dir (up to `limit` bytes) as
 * errmap_read does, but only the blocks that an earlier pass's map (whole
 * files; a pass without one has none) lists bad too, whatever the class
 * there: the blocks that failed again. `c` counts what fn is handed.
 * 0, or -1 with errno (E2BIG: the earlier passes hold more than
 * ERRMAP_AGAIN_MAX extents).
 */
#define ERRMAP_AGAIN_MAX	(1u << 20)
int	errmap_read_again(const char *drive_dir, uint64_t pass, uint64_t limit,
	    errmap_fn fn, void *arg, struct errmap_counts *c);

#endif
