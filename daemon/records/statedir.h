/*
 * statedir.h: the state directory: made on demand, and owned by one
 * process at a time (a lock on a file in it, dropped by the kernel with
 * the process).
 */
#ifndef SSDT_STATEDIR_H
#define SSDT_STATEDIR_H

#include <limits.h>
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
	STATEDIR_CHECKPOINTS,	/* checkpoints.jsonl: the probes' results */
	STATEDIR_ERRMAPS,	/* the directory of the passes' error maps */
	STATEDIR_TIMELINES,	/* the directory of the write passes' timelines */
	STATEDIR_SERIES,	/* the long tests' per-second series */
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

/*
 * The whole content of a regular file of at most `max` bytes, NUL
 * terminated (free it); NULL for anything else (a FIFO, a device, a
 * link: never waited on or read without end), with errno. Opened without
 * blocking and without following a link: for files of the state
 * directory that a reader takes as data, never trusts.
 */
char	*statedir_slurp(const char *path, size_t max);

/*
 * The same in steps, for callers that sync many files at once (syncq.h):
 * statedir_stage writes the temporary file; the caller fsyncs `fd` and
 * puts the result (0 or -errno) in sync_res; statedir_commit renames it
 * over `path` (or removes it when the sync failed) and opens the
 * directory; the caller fsyncs `dir_fd` into dir_res; statedir_finish
 * says whether the rename is durable. Each returns -1 with errno, and
 * after a failure needs no more than statedir_abort, which is also what
 * gives up between the steps.
 *
 * With `spare`, the temporary file is "DIR/.BASE.spare", rewritten in
 * place and swapped with `path` (renameat2 RENAME_EXCHANGE), so that the
 * old content becomes the next spare: no inode is made or freed. Only
 * safe when the previous swap's directory sync succeeded in this process
 * (the spare may otherwise still be `path` on disk); the caller keeps
 * that rule.
 */
struct staged {
	const char	*path;
	char		 tmp[PATH_MAX];
	FILE		*fp;
	int		 spare;		/* tmp is the spare, swapped in */
	int		 fd;		/* of the temporary file */
	int		 sync_res;
	int		 dir_fd;
	int		 dir_res;
};

int	statedir_stage(struct staged *, const char *path, mode_t mode,
	    int spare, int (*fill)(FILE *, void *), void *arg);
int	statedir_commit(struct staged *);
int	statedir_finish(struct staged *);
void	statedir_abort(struct staged *);
/* mkdir -p. */
int	statedir_mkdirs(const char *path, mode_t mode);
/*
 * Make the state directory and take its lock for the life of the process:
 * the descriptor, or -1 with the reason in `err` (who owns it and how to
 * stop that process, when another one does).
 */
int	statedir_lock(const char *dir, char *err, size_t len);

#endif
