/*
 * sysblk.h: a block device's directory in sysfs, /sys/dev/block/MAJ:MIN
 * (a symbolic link to the device's own), the one place its path is made.
 */
#ifndef SSDT_SYSBLK_H
#define SSDT_SYSBLK_H

#include <stddef.h>
#include <sys/types.h>

/* The path of `rel` in rdev's directory (rel NULL: the directory);
 * -1 when it does not fit in buf. */
int	sysblk_path(char *buf, size_t len, dev_t rdev, const char *rel);

/* 1 and the first name listed in rdev's directory `dir` (holders,
 * slaves) when it lists one; 0 when it lists none or cannot be read. */
int	sysblk_first(dev_t rdev, const char *dir, char *name, size_t len);

#endif
