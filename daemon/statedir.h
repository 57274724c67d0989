/*
 * statedir.h: the state directory: made on demand, and owned by one
 * process at a time (a lock on a file in it, dropped by the kernel with
 * the process).
 */
#ifndef SSDT_STATEDIR_H
#define SSDT_STATEDIR_H

#include <stddef.h>
#include <sys/types.h>

/* The lock file in the state directory; it holds the owner's pid. */
#define STATEDIR_LOCK	".lock"

/* mkdir -p. */
int	statedir_mkdirs(const char *path, mode_t mode);
/*
 * Make the state directory and take its lock for the life of the process:
 * the descriptor, or -1 with the reason in `err` (who owns it and how to
 * stop that process, when another one does).
 */
int	statedir_lock(const char *dir, char *err, size_t len);

#endif
