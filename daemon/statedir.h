/*
 * statedir.h: the state directory: made on demand, and owned by one
 * process at a time (a lock on a file in it, dropped by the kernel with
 * the process).
 */
#ifndef SSDT_STATEDIR_H
#define SSDT_STATEDIR_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* The lock file in the state directory; it holds the owner's pid. */
#define STATEDIR_LOCK	".lock"

/* The files of a drive's directory, STATE_DIR/NAME. */
enum statedir_file {
	STATEDIR_STATE,		/* the checkpoint */
	STATEDIR_EVENTS,	/* events.jsonl */
	STATEDIR_SMART,		/* smart.jsonl */
	STATEDIR_ERRMAPS,	/* the directory of the passes' error maps */
	STATEDIR_ARCHIVE	/* NAME.rrd, unless the archive is rrdcached's */
};

/* A drive's directory under the state directory; -1 when cut short. */
int	statedir_drive_dir(char *buf, size_t len, const char *state_dir,
	    const char *drive);
/* A file of the drive directory `drive_dir`; -1 when cut short. */
int	statedir_path(char *buf, size_t len, const char *drive_dir,
	    enum statedir_file);
/*
 * Replace the file `path` whole or not at all (the state, the metrics
 * file): `fill` writes the new content to a temporary file beside it,
 * "DIR/.BASE.XXXXXX" of mode `mode`, which is fsynced, renamed over
 * `path`, and the directory fsynced. -1 with errno (EIO when a write
 * failed without one), the temporary file removed, `path` untouched.
 */
int	statedir_replace(const char *path, mode_t mode,
	    int (*fill)(FILE *, void *), void *arg);
/* mkdir -p. */
int	statedir_mkdirs(const char *path, mode_t mode);
/*
 * Make the state directory and take its lock for the life of the process:
 * the descriptor, or -1 with the reason in `err` (who owns it and how to
 * stop that process, when another one does).
 */
int	statedir_lock(const char *dir, char *err, size_t len);

#endif
