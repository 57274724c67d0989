/* events.h: the per-drive event log (events.jsonl) and its journal copy. */
#ifndef SSDT_EVENTS_H
#define SSDT_EVENTS_H

#include <stdint.h>
#include <syslog.h>

#include <json-c/json.h>

struct eventlog {
	int		 fd;
	char		*path;
	uint64_t	 size;		/* bytes of whole lines in the file */
	const char	*drive;
	const char	*serial;
	int		 warned;	/* a write failure was already logged */
	int		 quiet;		/* events_add: the file only, no journal */
	int		 cut_pending;	/* the file may run past size: cut first */
};

/* Open (creating) the log; truncate it to `keep` bytes when longer. */
int	events_open(struct eventlog *, const char *path, uint64_t keep,
	    const char *drive, const char *serial);
void	events_close(struct eventlog *);
/*
 * Append one event. `obj` gets "time", "drive", "event" added and is
 * consumed. The message goes to the journal with structured fields.
 */
void	events_add(struct eventlog *, int prio, const char *event,
	    json_object *obj, long long offset, long long tbw,
	    const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* Called with every new event (main thread only); NULL to stop. */
typedef void (*events_listener_fn)(void *arg, const char *drive,
    json_object *event);
void	events_set_listener(events_listener_fn, void *arg);
/* Append the last `count` events of a log file to `arr`. */
int	events_tail(const char *path, int count, json_object *arr);
/* fdatasync; returns 0 on success. */
int	events_sync(struct eventlog *);

#endif
