/* events.h: the per-drive event log (events.jsonl) and its journal copy. */
#ifndef SSDT_EVENTS_H
#define SSDT_EVENTS_H

#include <stdint.h>
#include <syslog.h>

#include <json-c/json.h>

/*
 * Events that cannot be appended (disk full, read-only, failing) are kept
 * in memory, in order, and written first once the file takes them again;
 * so are those appended but not yet synced (see `synced` below). From
 * EVENTS_KEEP_MAX held either way the log is full: its drive stops producing
 * (pauses); EVENTS_KEEP_MAX more are room for what a pause says. Beyond
 * that an event goes to the journal only, and is counted as lost.
 */
#define EVENTS_KEEP_MAX		4096

struct kept_line;

struct eventlog {
	int		 fd;		/* open while written and not synced */
	char		*path;
	uint64_t	 size;		/* bytes of whole lines in the file */
	/*
	 * What the last successful sync put on disk, and what was appended
	 * since: a failed fsync leaves those bytes nowhere but here (the
	 * kernel marks the pages it could not write clean, and drops them
	 * when it needs the memory), so the next sync cuts the file back to
	 * `synced` and writes them again first.
	 */
	uint64_t	 synced;
	char		*unsynced;
	size_t		 nunsynced, unsynced_cap, unsynced_lines;
	int		 rewrite;	/* the bytes after `synced` are suspect */
	int		 sync_failed;	/* the last sync failed */
	/*
	 * A sync in flight (between sync_begin with an fd and its end): the
	 * bytes and lines it covers, and the open of the file it was sent on
	 * (lines appended meanwhile are not its; a file opened again since
	 * may hold them rewritten after it was sent).
	 */
	int		 sync_busy;
	uint64_t	 sync_to;
	size_t		 sync_lines;
	unsigned	 fd_gen, sync_gen;
	/* copies: the configuration they come from is replaced on reload */
	char		 drive[64];
	char		 serial[128];	/* "" = unknown */
	int		 warned;	/* a write failure was already logged */
	int		 quiet;		/* events_add: the file only, no journal */
	int		 err;		/* errno of the last failure, 0: none */
	struct kept_line *kept, *kept_tail; /* not yet written, oldest first */
	size_t		 nkept;
	uint64_t	 kept_since;	/* CLOCK_MONOTONIC ns of the oldest */
	uint64_t	 lost;		/* events beyond the bound */
};

/*
 * Set up the log; it is cut to `keep` bytes when longer, at its first
 * open (now, or when the file can be opened at last). -1: out of memory.
 */
int	events_open(struct eventlog *, const char *path, uint64_t keep,
	    const char *drive, const char *serial);
/* The serial for the journal's SERIAL= field, once the device told it. */
void	events_set_serial(struct eventlog *, const char *serial);
/* Events still kept are lost (they are in the journal): said, then freed. */
void	events_close(struct eventlog *);
/*
 * Append one event. `obj` gets "time", "drive", "event" added and is
 * consumed. The message goes to the journal with structured fields.
 */
void	events_add(struct eventlog *, int prio, const char *event,
	    json_object *obj, long long offset, long long tbw,
	    const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* Append one line of text (another JSON-lines file kept the same way). */
void	events_append(struct eventlog *, const char *text);
/* Called with every new event (main thread only); NULL to stop. */
typedef void (*events_listener_fn)(void *arg, const char *drive,
    json_object *event);
void	events_set_listener(events_listener_fn, void *arg);
/* Append the last `count` events of a log file to `arr`. */
int	events_tail(const char *path, int count, json_object *arr);
/* Write the kept events; 0 when none are left, else -1 and errno. */
int	events_flush(struct eventlog *);
/*
 * Flush, fdatasync and close; 0 when everything is on disk. After a failed
 * sync, the next one first writes again what the failed one left unsure.
 */
int	events_sync(struct eventlog *);
/*
 * events_sync in two steps, for many logs synced at once (syncq.h):
 * begin writes what is kept and gives the descriptor to fdatasync (-1:
 * nothing to sync); end takes the sync's result (0 or -errno) and closes
 * it. Begin returns -1 with errno when the writes failed (no end then).
 */
int	events_sync_begin(struct eventlog *, int *fd);
int	events_sync_end(struct eventlog *, int res);
/*
 * Who ends a sync in flight: called before a log whose sync has begun and
 * not ended is synced again or closed (lines appended meanwhile are kept
 * apart from what the sync covers), checkpoint.c.
 */
void	events_set_sync_waiter(void (*fn)(void));
/* The events kept or not yet synced reached their bound: the drive is to
 * pause. */
int	events_full(const struct eventlog *);

#endif
