/* events.h: the per-drive event log (events.jsonl) and its journal copy. */
#ifndef SSDT_EVENTS_H
#define SSDT_EVENTS_H

#include <stdint.h>
#include <syslog.h>

#include <json-c/json.h>

/*
 * Events that cannot be appended (disk full, read-only, failing) are kept
 * in memory, in order, and written first once the file takes them again.
 * From EVENTS_KEEP_MAX kept the log is full: its drive stops producing
 * (pauses); EVENTS_KEEP_MAX more are room for what a pause says. Beyond
 * that an event goes to the journal only, and is counted as lost.
 */
#define EVENTS_KEEP_MAX		4096

struct kept_line;

struct eventlog {
	int		 fd;		/* open while written and not synced */
	char		*path;
	uint64_t	 size;		/* bytes of whole lines in the file */
	const char	*drive;
	const char	*serial;
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
/* Flush, fdatasync and close; 0 when everything is on disk. */
int	events_sync(struct eventlog *);
/* The kept events reached their bound: the drive is to pause. */
int	events_full(const struct eventlog *);

#endif
