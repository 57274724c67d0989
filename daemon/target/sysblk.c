/* sysblk.c: a block device's directory in sysfs (sysblk.h). */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <sys/sysmacros.h>

#include "sysblk.h"

int
sysblk_path(char *buf, size_t len, dev_t rdev, const char *rel)
{
	int	n;

	n = snprintf(buf, len, "/sys/dev/block/%u:%u%s%s", major(rdev),
	    minor(rdev), rel != NULL ? "/" : "", rel != NULL ? rel : "");
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int
sysblk_first(dev_t rdev, const char *dir, char *name, size_t len)
{
	char		 path[PATH_MAX];
	DIR		*d;
	struct dirent	*de;
	int		 found = 0;

	if (sysblk_path(path, sizeof(path), rdev, dir) == -1 ||
	    (d = opendir(path)) == NULL)
		return 0;
	while (!found && (de = readdir(d)) != NULL)
		if (de->d_name[0] != '.') {
			snprintf(name, len, "%s", de->d_name);
			found = 1;
		}
	closedir(d);
	return found;
}
