/*
 * reserve.h: a persistent reservation (Write Exclusive) on a block device,
 * so that another host sharing the drive (a SAS enclosure, NVMe over
 * fabrics) gets its writes refused instead of corrupting the run.
 */
#ifndef SSDT_RESERVE_H
#define SSDT_RESERVE_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

/* What a write refused by another host's reservation fails with. */
#define RESERVE_CONFLICT_ERRNO	EBADE	/* BLK_STS_RESV_CONFLICT */
#define RESERVE_CONFLICT_REASON	"reservation conflict: another host holds " \
	"the drive"

/*
 * The key of this host's reservation on drive `name`: from the machine id,
 * so the same on every start of the same host, different on another host.
 * 0 with the reason in `why` when there is no machine id.
 */
uint64_t	reserve_key(const char *name, char *why, size_t len);
/* Register `key` and reserve; -1 with the reason in `why`. */
int		reserve_take(int fd, uint64_t key, char *why, size_t len);
/* Release and unregister; errors are logged, the target closes anyway. */
void		reserve_drop(int fd, uint64_t key, const char *name,
		    const char *serial);

#endif
