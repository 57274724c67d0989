/*
 * records.c: a drive's records (state, events.jsonl, smart.jsonl) against
 * a state directory that is full, read-only or failing. What cannot be
 * written is kept (events.c) and the checkpoint is retried every second;
 * a drive whose records lag by max_unrecorded, or whose kept events reach
 * their bound, pauses its I/O and resumes by itself once they are written
 * again: a drive never runs far ahead of what it has on disk.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>

#include "drive_priv.h"
#include "log.h"
#include "rrd_layout.h"
#include "units.h"

/* The reason of a pause for the records; also how one is told after a
 * restart, when the state file says so. */
#define RECORDS_REASON	"state directory: "

void
records_failed(struct drive *d, int err)
{
	if (d->rec.since == 0)
		d->rec.since = mono_ns();
	d->rec.err = err != 0 ? err : EIO;
}

void
records_saved(struct drive *d)
{
	d->rec.since = 0;
	d->rec.err = 0;
}

/* Since when (monotonic ns) something is not on disk; 0: nothing. */
static uint64_t
behind_since(const struct drive *d)
{
	uint64_t	t = d->rec.since;

	if (d->log.kept_since != 0 && (t == 0 || d->log.kept_since < t))
		t = d->log.kept_since;
	if (d->smart.log.kept_since != 0 &&
	    (t == 0 || d->smart.log.kept_since < t))
		t = d->smart.log.kept_since;
	if (d->results.kept_since != 0 &&
	    (t == 0 || d->results.kept_since < t))
		t = d->results.kept_since;
	return t;
}

int
records_current(const struct drive *d)
{
	return behind_since(d) == 0;
}

/* The errno of the records' trouble. */
static int
records_err(const struct drive *d)
{
	if (d->rec.err != 0)
		return d->rec.err;
	if (d->log.err != 0)
		return d->log.err;
	if (d->results.err != 0)
		return d->results.err;
	return d->smart.log.err != 0 ? d->smart.log.err : EIO;
}

/* A few words for status: "disk full", "read-only", ... */
static const char *
records_why(int err)
{
	switch (err) {
	case ENOSPC:
		return "disk full";
	case EDQUOT:
		return "quota exceeded";
	case EROFS:
		return "read-only";
	case EIO:
		return "I/O error";
	default:
		return strerror(err);
	}
}

void
records_status(const struct drive *d, struct drive_status *s)
{
	uint64_t	t = behind_since(d);

	s->records_current = t == 0;
	s->records_behind_sec = t == 0 ? 0 : (mono_ns() - t) / 1000000000ULL;
	s->records_why = t == 0 ? "" : records_why(records_err(d));
	s->records_kept = d->log.nkept + d->smart.log.nkept +
	    d->results.nkept;
}

/* The reason of a pause for the records, and the warning that says it. */
static void
records_pause(struct drive *d, char *why, size_t len)
{
	snprintf(why, len, RECORDS_REASON "%s", strerror(records_err(d)));
	drive_log(d, LOG_WARNING, 0,
	    "records not written for %llu s (%zu events "
	    "kept): the drive pauses until they are",
	    (unsigned long long)((mono_ns() - behind_since(d)) / 1000000000ULL),
	    d->log.nkept);
	d->rec.paused = 1;
}

/*
 * Once a second, after the checkpoint: pause when the records lag by
 * max_unrecorded or the kept events reach their bound; resume when they
 * are current again (also after a restart that found such a pause). The
 * decision is returned, a pause with its reason in `why`; the drive's
 * core acts on it (drive.c).
 */
enum records_act
records_tick(struct drive *d, char *why, size_t len)
{
	uint64_t	t = behind_since(d);

	if (!d->rec.paused && d->st.run == RUN_PAUSED &&
	    strncmp(d->st.reason, RECORDS_REASON, strlen(RECORDS_REASON)) == 0)
		d->rec.paused = 1;
	if (d->rec.paused && d->st.run != RUN_PAUSED)
		d->rec.paused = 0;	/* stopped or started meanwhile */
	if (d->rec.paused && t == 0) {
		d->rec.paused = 0;
		drive_log(d, LOG_INFO, 0,
		    "records are written again; the drive resumes");
		return RECORDS_RESUME;
	}
	if (d->rec.paused || d->st.run != RUN_RUNNING || t == 0)
		return RECORDS_GO_ON;
	if (events_full(&d->log) || events_full(&d->results) ||
	    mono_ns() - t >= d->conf.max_unrecorded * 1000000000ULL) {
		records_pause(d, why, len);
		return RECORDS_PAUSE;
	}
	return RECORDS_GO_ON;
}

/* The operator's resume waits for the records. */
int
records_refuse_resume(const struct drive *d, char *err, size_t len)
{
	if (!d->rec.paused)
		return 0;
	snprintf(err, len, "%s: cannot resume: its records are not written "
	    "(%s); it resumes by itself once they are", d->conf.name,
	    strerror(records_err(d)));
	errno = EBUSY;
	return -1;
}

/*
 * The start-up estimate. Its figures, and what they count: a drive at up
 * to RATE_MAX (an upper bound, so an overestimate of cycles), per cycle
 * EVENTS_PER_CYCLE events of EVENT_BYTES (phase starts and ends, cycle
 * end), a snapshot of SNAPSHOT_BYTES in smart.jsonl every snapshot_every
 * bytes written. Verify errors are not counted: they are what the run is
 * for, and how many there will be is not known.
 */
#define RATE_MAX		3e9	/* bytes/s */
#define EVENTS_PER_CYCLE	12
#define EVENT_BYTES		512
#define SNAPSHOT_BYTES		2048
#define MONTH_DAYS		30

uint64_t
records_archive_bytes(void)
{
	static const char *const rras[] = RRD_RRAS;
	uint64_t	rows = 0;
	unsigned	n;
	size_t		i;

	for (i = 0; i < sizeof(rras) / sizeof(rras[0]); i++)
		if (sscanf(rras[i], "RRA:%%s:%*[^:]:%*u:%u", &n) == 1)
			rows += n;
	/* AVERAGE, MIN and MAX of every source, 8 bytes a value */
	return rows * 3 * RRD_NDS * 8;
}

/* Bytes of records one drive adds a day, by the figures above. */
static double
drive_bytes_per_day(const struct drive *d)
{
	double	span = (double)d->st.lay.span_bytes, cycle, cycles;

	if (span == 0)
		return 0;	/* refused: it writes nothing */
	/* a cycle writes the dynamic area and reads the whole span */
	cycle = (double)d->conf.idle_sec + 2 * span / RATE_MAX;
	cycles = 86400 / (cycle < 1 ? 1 : cycle);
	return cycles * EVENTS_PER_CYCLE * EVENT_BYTES +
	    RATE_MAX * 86400 / (double)d->conf.snapshot_every * SNAPSHOT_BYTES;
}

void
records_space_check(const char *state_dir, struct drive *const *drives,
    size_t n, uint64_t archive_bytes)
{
	struct statvfs	sv;
	double		per_day = 0, free_b, days;
	char		a[32], b[32], c[32];
	size_t		i;

	if (statvfs(state_dir, &sv) == -1) {
		log_warn("state directory %s: cannot tell its free space",
		    state_dir);
		return;
	}
	for (i = 0; i < n; i++)
		per_day += drive_bytes_per_day(drives[i]);
	free_b = (double)sv.f_bavail * (double)sv.f_frsize;
	days = per_day > 0 ? (free_b - (double)archive_bytes) / per_day : 1e9;
	units_fmt_bin((uint64_t)free_b, a, sizeof(a));
	units_fmt_bin(archive_bytes, b, sizeof(b));
	units_fmt_bin((uint64_t)per_day, c, sizeof(c));
	if (days >= MONTH_DAYS) {
		log_info("state directory %s: %s free; archives to create %s, "
		    "records about %s a day: enough for %.0f days", state_dir,
		    a, b, c, days);
		return;
	}
	log_warnx("state directory %s: %s free, which will not last a month: "
	    "archives to create %s, records about %s a day (%d events of %d "
	    "bytes a cycle, at most %.0f GB/s; a %d-byte SMART snapshot every "
	    "snapshot_every; verify errors not counted): %s", state_dir, a, b,
	    c, EVENTS_PER_CYCLE, EVENT_BYTES, RATE_MAX / 1e9, SNAPSHOT_BYTES,
	    days <= 0 ? "full already" : days < 1 ? "less than a day" :
	    "a few days");
}
