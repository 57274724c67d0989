/*
 * discard.c: can the target discard its blocks (prepare = trim)? Asked
 * before a fresh run begins, so that a target that cannot is refused
 * before anything is written: a block device by its queue's
 * discard_max_bytes, a file by punching a hole in its first block (the
 * first of the whole span's discards, which prepare does next anyway).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "discard.h"
#include "sysblk.h"

/* The queue's discard_max_bytes of device rdev (a partition: its disk's);
 * -1 when it cannot be read. */
static int
discard_max(dev_t rdev, uint64_t *max)
{
	static const char *const at[] = { "queue/discard_max_bytes",
					  "../queue/discard_max_bytes" };
	char	path[128];
	FILE	*fp;
	size_t	i;
	int	n;

	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		if (sysblk_path(path, sizeof(path), rdev, at[i]) == -1 ||
		    (fp = fopen(path, "re")) == NULL)
			continue;
		n = fscanf(fp, "%" SCNu64, max);
		fclose(fp);
		if (n == 1)
			return 0;
	}
	return -1;
}

int
target_discard_check(const struct target *t, char *why, size_t len)
{
	uint64_t	max = 0, first;

	if (t->is_blockdev) {
		if (discard_max(t->rdev, &max) == -1) {
			snprintf(why, len, "cannot tell whether the device "
			    "discards (its queue's discard_max_bytes)");
			return -1;
		}
		if (max == 0) {
			snprintf(why, len, "the device does not discard "
			    "(discard_max_bytes is 0)");
			return -1;
		}
		return 0;
	}
	first = t->logical_block != 0 ? t->logical_block : 4096;
	if (first > t->capacity)
		first = t->capacity;
	if (first != 0 && fallocate(t->fd, FALLOC_FL_PUNCH_HOLE |
	    FALLOC_FL_KEEP_SIZE, 0, (off_t)first) == -1) {
		snprintf(why, len, "the file's file system cannot punch holes "
		    "(fallocate: %s)", strerror(errno));
		return -1;
	}
	return 0;
}
