/*
 * events.c: the per-drive event log. One JSON object per line in
 * state_dir/NAME/events.jsonl, and a copy in the journal with structured
 * fields. The state file records how long the log was at each checkpoint;
 * on resume the log is cut back to that length, so it always matches the
 * state it sits beside (what follows the cut is found again on resume).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "events.h"
#include "log.h"

/* Set by main before the loop runs; used only on the main thread. */
static events_listener_fn	listener;
static void			*listener_arg;

void
events_set_listener(events_listener_fn fn, void *arg)
{
	listener = fn;
	listener_arg = arg;
}

/* Set by checkpoint.c on the main thread, the only one with logs. */
static void			(*sync_waiter)(void);

void
events_set_sync_waiter(void (*fn)(void))
{
	sync_waiter = fn;
}

/* A sync of the file is in flight: let it end before touching the file. */
static void
sync_wait(const struct eventlog *ev)
{
	if (ev->sync_busy && sync_waiter != NULL)
		sync_waiter();
}

struct kept_line {
	struct kept_line	*next;
	size_t			 len;
	char			 line[];
};

/* Close the file; what it was not synced for is to be written again. */
static void
events_close_fd(struct eventlog *ev)
{
	if (ev->fd < 0)
		return;
	close(ev->fd);
	ev->fd = -1;
	if (ev->nunsynced > 0)
		ev->rewrite = 1;
}

/*
 * Cut the file back to what is on disk and write again what was appended
 * since (after a failed sync, or a close before one, the bytes past
 * `synced` may be in neither the page cache nor on disk).
 */
static int
events_rewrite(struct eventlog *ev)
{
	ssize_t	n;

	if (ftruncate(ev->fd, (off_t)ev->synced) == -1)
		return -1;
	ev->size = ev->synced;
	if (ev->nunsynced == 0) {
		ev->rewrite = 0;
		return 0;
	}
	n = write(ev->fd, ev->unsynced, ev->nunsynced);
	if (n != (ssize_t)ev->nunsynced) {
		if (n != -1)
			errno = ENOSPC;
		return -1;
	}
	ev->size += ev->nunsynced;
	ev->rewrite = 0;
	return 0;
}

/*
 * Open the file for appending. It must end where ev->size says (the
 * length the state records, or the cut asked for at start): what runs
 * past it (a fragment of a failed append) is cut off first, and while
 * that fails nothing is appended (a line behind a fragment would be cut
 * in two on resume). After a failed sync, what it left unsure is written
 * again first.
 */
static int
events_reopen(struct eventlog *ev)
{
	struct stat	st;
	int		saved;

	ev->fd = open(ev->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0644);
	if (ev->fd == -1)
		return -1;
	ev->fd_gen++;
	if (ev->rewrite) {
		if (events_rewrite(ev) == -1)
			goto fail;
		return 0;
	}
	if (fstat(ev->fd, &st) == -1)
		goto fail;
	if ((uint64_t)st.st_size > ev->size) {
		if (ftruncate(ev->fd, (off_t)ev->size) == -1)
			goto fail;
	} else
		ev->size = (uint64_t)st.st_size;
	ev->synced = ev->size;	/* nothing unsynced: none is held open */
	return 0;
fail:
	saved = errno;
	events_close_fd(ev);
	errno = saved;
	return -1;
}

void
events_set_serial(struct eventlog *ev, const char *serial)
{
	snprintf(ev->serial, sizeof(ev->serial), "%s",
	    serial != NULL ? serial : "");
}

int
events_open(struct eventlog *ev, const char *path, uint64_t keep,
    const char *drive, const char *serial)
{
	memset(ev, 0, sizeof(*ev));
	ev->fd = -1;
	snprintf(ev->drive, sizeof(ev->drive), "%s", drive);
	events_set_serial(ev, serial);
	ev->size = keep;
	if ((ev->path = strdup(path)) == NULL)
		return -1;
	if (events_reopen(ev) == -1) {
		ev->err = errno;
		ev->warned = 1;
		log_drive(LOG_WARNING, ev->drive, ev->serial, errno,
		    "cannot open %s (events are kept until it can be)", path);
	}
	return 0;
}

void
events_close(struct eventlog *ev)
{
	struct log_fields	 lf = { ev->drive, ev->serial, NULL, -1, -1 };
	struct kept_line	*k;

	sync_wait(ev);
	if (ev->nkept > 0 || ev->lost > 0)
		log_fields(LOG_ERR, &lf, "%zu event%s not written to %s, "
		    "%llu not kept (beyond the bound); all are in the journal",
		    ev->nkept,
		    ev->nkept == 1 ? "" : "s", ev->path,
		    (unsigned long long)ev->lost);
	while ((k = ev->kept) != NULL) {
		ev->kept = k->next;
		free(k);
	}
	ev->kept_tail = NULL;
	ev->nkept = 0;
	if (ev->fd >= 0)
		close(ev->fd);
	ev->fd = -1;
	free(ev->unsynced);
	ev->unsynced = NULL;
	ev->nunsynced = ev->unsynced_cap = ev->unsynced_lines = 0;
	free(ev->path);
	ev->path = NULL;
}

/* "2026-11-30T01:02:03.456Z" */
static void
iso_time(char *buf, size_t len)
{
	struct timespec	ts;
	struct tm	tm;
	char		tmp[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%.20s.%03dZ", tmp, (int)(ts.tv_nsec / 1000000) % 1000);
}

/* Say once that appending or syncing fails, until the file takes events
 * again. */
static void
events_warn(struct eventlog *ev, int err)
{
	ev->err = err;
	if (!ev->warned)
		log_drive(LOG_WARNING, ev->drive, ev->serial, 0,
		    "cannot %s %s: %s; events are kept in memory "
		    "until it takes them", ev->sync_failed ?
		    "sync" : "append to", ev->path, strerror(err));
	ev->warned = 1;
}

/* Room for `len` more unsynced bytes; -1 (ENOMEM) when there is none. */
static int
unsynced_room(struct eventlog *ev, size_t len)
{
	size_t	 cap = ev->unsynced_cap ? ev->unsynced_cap : 4096;
	char	*p;

	while (cap < ev->nunsynced + len)
		cap *= 2;
	if (cap == ev->unsynced_cap)
		return 0;
	if ((p = realloc(ev->unsynced, cap)) == NULL)
		return -1;
	ev->unsynced = p;
	ev->unsynced_cap = cap;
	return 0;
}

/*
 * Append one line at the end of the file, and to what the next sync is
 * to cover; -1 and errno when it failed.
 */
static int
write_line(struct eventlog *ev, const char *line, size_t len)
{
	ssize_t	n;

	if (unsynced_room(ev, len) == -1)
		return -1;
	if (ev->fd < 0 && events_reopen(ev) == -1)
		return -1;
	n = write(ev->fd, line, len);
	if (n == (ssize_t)len) {
		ev->size += len;
		memcpy(ev->unsynced + ev->nunsynced, line, len);
		ev->nunsynced += len;
		ev->unsynced_lines++;
		return 0;
	}
	/* a short write is a full disk (or a file size limit) */
	if (n != -1)
		errno = ENOSPC;
	/* part of it may be on disk: cut now, or at the next open */
	n = errno;
	(void)!ftruncate(ev->fd, (off_t)ev->size);
	events_close_fd(ev);
	errno = (int)n;
	return -1;
}

/* Say once that the file takes events again. */
static void
events_ok(struct eventlog *ev, size_t was)
{
	if (ev->warned && was > 1)
		log_drive(LOG_INFO, ev->drive, ev->serial, 0, "%s takes events "
		    "again; the %zu kept were written", ev->path, was);
	else if (ev->warned)
		log_drive(LOG_INFO, ev->drive, ev->serial, 0,
		    "%s takes events again", ev->path);
	ev->warned = 0;
	ev->err = 0;
}

int
events_flush(struct eventlog *ev)
{
	struct kept_line	*k;
	size_t			 was = ev->nkept;

	if (ev->path == NULL)
		return ev->nkept > 0 ? (errno = EBADF, -1) : 0;
	while ((k = ev->kept) != NULL) {
		if (write_line(ev, k->line, k->len) == -1) {
			events_warn(ev, errno);
			return -1;
		}
		ev->kept = k->next;
		ev->nkept--;
		free(k);
	}
	ev->kept_tail = NULL;
	ev->kept_since = 0;
	if (!ev->sync_failed)	/* else it is said once they are synced */
		events_ok(ev, was);
	return 0;
}

/* Keep a line behind those not yet written, then write what can be. */
static void
events_write(struct eventlog *ev, const char *line)
{
	struct kept_line	*k;
	size_t			 len = strlen(line);

	/* a log no checkpoint syncs (its drive idle) holds no more than it
	 * must */
	if (ev->unsynced_lines >= EVENTS_KEEP_MAX && !ev->sync_failed)
		(void)events_sync(ev);
	if (ev->nkept + ev->unsynced_lines >= 2 * EVENTS_KEEP_MAX ||
	    (k = malloc(sizeof(*k) + len + 1)) == NULL) {
		if (ev->lost++ == 0)
			log_drive(LOG_WARNING, ev->drive, ev->serial, 0,
			    "more than %d events kept for %s; further "
			    "ones go to the journal only",
			    2 * EVENTS_KEEP_MAX, ev->path);
		return;
	}
	k->next = NULL;
	k->len = len;
	memcpy(k->line, line, len + 1);
	if (ev->kept_tail != NULL)
		ev->kept_tail->next = k;
	else {
		ev->kept = k;
		ev->kept_since = mono_ns();
	}
	ev->kept_tail = k;
	ev->nkept++;
	(void)events_flush(ev);
}

void
events_append(struct eventlog *ev, const char *text)
{
	char	*line;

	if (asprintf(&line, "%s\n", text) == -1)
		return;
	events_write(ev, line);
	free(line);
}

int
events_full(const struct eventlog *ev)
{
	return ev->nkept + ev->unsynced_lines >= EVENTS_KEEP_MAX;
}

void
events_add(struct eventlog *ev, int prio, const char *event, json_object *obj,
    long long offset, long long tbw, const char *fmt, ...)
{
	struct log_fields	 lf = { ev->drive, ev->serial, NULL, offset, tbw };
	json_object		*cls;
	char			 ts[64], msg[1024], *line;
	va_list			 ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (obj == NULL)
		obj = json_object_new_object();
	if (json_object_object_get_ex(obj, "class", &cls))
		lf.cls = json_object_get_string(cls);
	if (!ev->quiet)
		log_fields(prio, &lf, "%s", msg);
	iso_time(ts, sizeof(ts));
	json_object_object_add(obj, "time", json_object_new_string(ts));
	/* as the journal's __MONOTONIC_TIMESTAMP: order and intervals that
	 * a step of the wall clock does not bend, and a link to other
	 * records of the same boot (the kernel's, a simulated drive's) */
	json_object_object_add(obj, "monotonic_us",
	    json_object_new_int64((int64_t)(mono_ns() / 1000)));
	json_object_object_add(obj, "drive", json_object_new_string(ev->drive));
	json_object_object_add(obj, "event", json_object_new_string(event));
	json_object_object_add(obj, "message", json_object_new_string(msg));
	if (asprintf(&line, "%s\n", json_object_to_json_string_ext(obj,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)) != -1) {
		events_write(ev, line);
		free(line);
	}
	if (listener != NULL)
		listener(listener_arg, ev->drive, obj);
	json_object_put(obj);
}

/*
 * The file is closed once synced: between checkpoints the daemon holds
 * nothing open for writing in the state directory, so that it can be
 * remounted (read-only, for a check) under a running daemon.
 */
int
events_sync_begin(struct eventlog *ev, int *fd)
{
	*fd = -1;
	sync_wait(ev);
	if (ev->fd < 0 && ev->rewrite && ev->path != NULL &&
	    events_reopen(ev) == -1) {
		events_warn(ev, errno);
		return -1;
	}
	if (events_flush(ev) == -1)
		return -1;
	*fd = ev->fd;		/* -1: closed with nothing unsynced */
	ev->sync_busy = *fd >= 0;
	ev->sync_to = ev->size;
	ev->sync_lines = ev->unsynced_lines;
	ev->sync_gen = ev->fd_gen;
	return 0;
}

/* A sync answered: the bytes up to `to` are on disk; those appended
 * after it was sent stay to be synced. */
static void
synced_to(struct eventlog *ev, uint64_t to, size_t lines)
{
	size_t	n = (size_t)(to - ev->synced);

	if (n > ev->nunsynced)		/* cannot be: [synced, size) is kept */
		n = ev->nunsynced;
	if (n > 0)	/* a log that was opened and never written has no copy */
		memmove(ev->unsynced, ev->unsynced + n, ev->nunsynced - n);
	ev->nunsynced -= n;
	ev->unsynced_lines -= lines < ev->unsynced_lines ? lines :
	    ev->unsynced_lines;
	ev->synced = to;
}

int
events_sync_end(struct eventlog *ev, int res)
{
	int	same = ev->fd >= 0 && ev->fd_gen == ev->sync_gen;

	ev->sync_busy = 0;
	if (!same) {
		/*
		 * Closed meanwhile (an append failed): what the sync covered
		 * is written again from `synced` and was not made durable by
		 * it; the state that counts it waits for a sync that is.
		 */
		errno = res < 0 ? -res : EAGAIN;
		return -1;
	}
	if (res == 0)
		synced_to(ev, ev->sync_to, ev->sync_lines);
	if (res < 0 || ev->size == ev->synced)
		events_close_fd(ev);	/* else lines since stay for the next */
	if (res < 0) {
		ev->sync_failed = 1;
		events_warn(ev, -res);
		errno = -res;
		return -1;
	}
	if (ev->sync_failed) {
		ev->sync_failed = 0;
		events_ok(ev, 0);
	}
	return 0;
}

int
events_sync(struct eventlog *ev)
{
	int	fd;

	if (ev->sync_busy)	/* a checkpoint's sync is in flight: it, and
				 * the next one, cover the log */
		return 0;

	if (events_sync_begin(ev, &fd) == -1)
		return -1;
	if (fd < 0)
		return 0;
	return events_sync_end(ev, fdatasync(fd) == -1 ? -errno : 0);
}

/* Read backwards from the end until `count` complete lines are held. */
static char *
tail_text(int fd, int count, size_t *len)
{
	struct stat	 st;
	char		*buf = NULL, *nb;
	off_t		 off;
	size_t		 have = 0, chunk = 65536;
	int		 lines = 0;

	if (fstat(fd, &st) == -1)
		return NULL;
	off = st.st_size;
	while (off > 0 && lines <= count) {
		size_t n = (size_t)off < chunk ? (size_t)off : chunk;

		off -= (off_t)n;
		if ((nb = malloc(have + n + 1)) == NULL)
			break;
		if (pread(fd, nb, n, off) != (ssize_t)n) {
			free(nb);
			break;
		}
		if (have > 0)	/* buf is NULL on the first pass */
			memcpy(nb + n, buf, have);
		free(buf);
		buf = nb;
		have += n;
		for (size_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
	}
	if (buf != NULL)
		buf[have] = '\0';
	*len = have;
	return buf;
}

int
events_tail(const char *path, int count, json_object *arr)
{
	char		*text, *line, *p;
	size_t		 len;
	int		 fd, total = 0, skip;
	json_object	*o;

	if (count <= 0)
		return 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return errno == ENOENT ? 0 : -1;
	text = tail_text(fd, count, &len);
	close(fd);
	if (text == NULL)
		return 0;
	for (p = text; *p; p++)
		total += *p == '\n';
	skip = total > count ? total - count : 0;
	for (line = strtok_r(text, "\n", &p); line != NULL;
	    line = strtok_r(NULL, "\n", &p)) {
		if (skip-- > 0)
			continue;
		if ((o = json_tokener_parse(line)) != NULL)
			json_object_array_add(arr, o);
	}
	free(text);
	return 0;
}
