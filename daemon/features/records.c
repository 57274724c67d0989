/*
 * records.c: a drive's records (state, events.jsonl, smart.jsonl) against
 * a state directory that is full, read-only or failing. What cannot be
 * written is kept (events.c) and the checkpoint is retried every second;
 * a drive whose records lag by max_unrecorded, or whose kept events reach
 * their bound, pauses its I/O and resumes by itself once they are written
 * again: a drive never runs far ahead of what it has on disk.
 *
 * A feature of the drive's table: each checkpoint's outcome comes here,
 * and once a second the pause or resume is returned to the core, which
 * does it (drives_records_tick).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "drive_features.h"
#include "log.h"

/* The reason of a pause for the records; also how one is told after a
 * restart, when the state file says so. */
#define RECORDS_REASON	"state directory: "

static void
records_failed(struct drive *d, int err)
{
	if (d->rec.since == 0)
		d->rec.since = mono_ns();
	d->rec.err = err != 0 ? err : EIO;
}

static void
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

/* Something is not on disk: the checkpoint is retried each second. */
static int
records_behind(const struct drive *d)
{
	return behind_since(d) != 0;
}

/* A checkpoint's outcome (checkpoint.c): what failed is warned of once. */
static void
records_checkpointed(struct drive *d, int err, int state_err)
{
	if (err != 0) {
		records_failed(d, err);
		return;
	}
	if (state_err != 0) {
		records_failed(d, state_err);
		if (!d->rec.save_warned)
			drive_log(d, LOG_WARNING, state_err,
			    "cannot save state %s (will retry)", d->state_path);
		d->rec.save_warned = 1;
		return;
	}
	if (d->rec.save_warned)
		drive_log(d, LOG_INFO, 0, "state saved again");
	d->rec.save_warned = 0;
	records_saved(d);
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

static void
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
 * core acts on it (drive_cmd.c).
 */
static enum run_ask
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
		return ASK_RESUME;
	}
	if (d->rec.paused || d->st.run != RUN_RUNNING || t == 0)
		return ASK_GO_ON;
	if (events_full(&d->log) || events_full(&d->results) ||
	    mono_ns() - t >= d->conf.max_unrecorded * 1000000000ULL) {
		records_pause(d, why, len);
		return ASK_PAUSE;
	}
	return ASK_GO_ON;
}

/* The operator's resume waits for the records. */
static int
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

/* The records' health: a drive pauses while they are not on disk. */
const struct drive_feature records_feature = {
	.name = "records",
	.status = records_status,
	.checkpointed = records_checkpointed,
	.behind = records_behind,
	.run_check = records_tick,
	.refuse_resume = records_refuse_resume,
};
