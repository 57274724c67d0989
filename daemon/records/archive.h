/*
 * archive.h: RRD archives of every drive, written by a thread of their
 * own (files through librrd, or a central rrdcached), so that a slow disk
 * under state_dir or an absent rrdcached never stalls the main loop.
 */
#ifndef SSDT_ARCHIVE_H
#define SSDT_ARCHIVE_H

#include <stdint.h>
#include <time.h>

#include <json-c/json.h>

struct archive;

/*
 * daemon_addr: NULL (files) or "unix:/path" / "host:port" (rrdcached).
 * local_dir: for an rrdcached on a Unix socket, its base directory as
 * seen here (librrd hands it absolute paths); NULL = the state directory.
 */
struct archive	*archive_new(const char *daemon_addr, const char *local_dir);
void		 archive_free(struct archive *);
/* The file an archive of drive `name` lives in: a path under state_dir,
 * or "HOST/NAME.rrd" under rrdcached's base directory. */
void		 archive_file(const struct archive *, const char *state_dir,
		    const char *name, char *buf, size_t len);
/* Create the archive unless it exists (a different layout is an error). */
void		 archive_open(struct archive *, const char *file,
		    unsigned smart_heartbeat);
/*
 * Wait until every queued create is made, found or failed, the writer
 * cannot go on (rrdcached away, the disk refusing), or timeout_ms passed.
 * 1 when none is pending.
 */
int		 archive_wait_created(struct archive *, unsigned timeout_ms);
/* Queue one update "TIME:v:v:...": never blocks. */
void		 archive_update(struct archive *, const char *file,
		    const char *values);
/* {"file": ..., "daemon": ...} for Status (and ssdctl graph). */
json_object	*archive_json(const struct archive *, const char *file);

#endif
