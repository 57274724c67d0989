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

int
events_open(struct eventlog *ev, const char *path, uint64_t keep,
    const char *drive, const char *serial)
{
	struct stat	st;

	memset(ev, 0, sizeof(*ev));
	ev->drive = drive;
	ev->serial = serial;
	if ((ev->path = strdup(path)) == NULL)
		return -1;
	ev->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (ev->fd == -1 || fstat(ev->fd, &st) == -1)
		return -1;
	ev->size = (uint64_t)st.st_size;
	if (ev->size > keep) {
		if (ftruncate(ev->fd, (off_t)keep) == -1)
			return -1;
		ev->size = keep;
	}
	return 0;
}

void
events_close(struct eventlog *ev)
{
	if (ev->fd > 0)
		close(ev->fd);
	ev->fd = -1;
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

/* Say once that appending fails, until an append works again. */
static void
events_warn(struct eventlog *ev, const char *why)
{
	if (!ev->warned)
		log_warnx("%s: cannot append to %s: %s", ev->drive, ev->path,
		    why);
	ev->warned = 1;
}

/*
 * Append one line; a failure (disk full) is logged once, not fatal. The
 * file must end where ev->size says, the length the state records: a
 * short append is cut off again, and while that cut fails nothing more is
 * appended (a line behind the fragment would be cut in two on resume).
 */
static void
events_write(struct eventlog *ev, const char *line)
{
	size_t	len = strlen(line);
	ssize_t	n;

	if (ev->fd < 0)
		return;
	if (ev->cut_pending) {
		if (ftruncate(ev->fd, (off_t)ev->size) == -1) {
			events_warn(ev, strerror(errno));
			return;
		}
		ev->cut_pending = 0;
	}
	n = write(ev->fd, line, len);
	if (n == (ssize_t)len) {
		ev->size += len;
		ev->warned = 0;
		return;
	}
	events_warn(ev, n == -1 ? strerror(errno) : "short write");
	/* after an error too: a write may fail with part of it on disk */
	ev->cut_pending = ftruncate(ev->fd, (off_t)ev->size) == -1;
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

int
events_sync(struct eventlog *ev)
{
	if (ev->fd < 0)
		return -1;
	return fdatasync(ev->fd);
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
