/*
 * drive_open.c: a drive's activation up to its worker: the state
 * directory, the state on disk, the one-owner checks, the safety checks of
 * the target, the layout; or a refusal that says why, with nothing
 * written to the target.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "drive_features.h"
#include "discard.h"
#include "purge.h"
#include "drive_priv.h"
#include "log.h"
#include "statedir.h"
#include "units.h"

/* A new drive: fresh instance id, static phase first. */
static int
state_init(struct drive *d, const struct layout *l)
{
	memset(&d->st, 0, sizeof(d->st));
	if (getrandom(&d->st.instance, sizeof(d->st.instance), 0) !=
	    sizeof(d->st.instance))
		return -1;
	d->st.instance |= 1;	/* never 0 */
	snprintf(d->st.device, sizeof(d->st.device), "%s", d->conf.device);
	snprintf(d->st.serial, sizeof(d->st.serial), "%s",
	    target_serial(&d->tgt));
	d->st.lay = *l;
	sched_init(&d->st, &d->conf);
	d->st.created = (uint64_t)time(NULL);
	return 0;
}

/* A refusal: nothing was written; say why, everywhere. */
int
drive_refuse(struct drive *d, const char *why)
{
	json_object	*o = json_object_new_object();

	d->refused = 1;
	d->st.run = RUN_FAILED;
	snprintf(d->st.reason, sizeof(d->st.reason), "refused: %s", why);
	json_object_object_add(o, "device",
	    json_object_new_string(d->conf.device));
	json_object_object_add(o, "reason", json_object_new_string(why));
	if (d->log.path != NULL)
		events_add(&d->log, LOG_ERR, "refused", o, -1, -1,
		    "refusing %s: %s", d->conf.device, why);
	else {
		struct log_fields lf = { d->conf.name, d->conf.serial, NULL,
		    -1, -1 };
		log_fields(LOG_ERR, &lf, "refusing %s: %s", d->conf.device, why);
		json_object_put(o);
	}
	safety_discard(&d->tgt, d->conf.device);
	drive_notify(d);
	return -1;
}

/* The stored layout must be what the configuration gives now. */
static int
layout_matches(const struct drive *d, const struct layout *l, char *why,
    size_t len)
{
	const struct layout *o = &d->st.lay;

	if (strcmp(d->st.device, d->conf.device) != 0)
		snprintf(why, len, "the state belongs to %s, not %s",
		    d->st.device, d->conf.device);
	else if (o->block_size != l->block_size || o->nblocks != l->nblocks ||
	    o->static_blocks != l->static_blocks)
		snprintf(why, len, "the layout (block_size, span or "
		    "static_fraction) differs from the one under test since %s; "
		    "restore it, or remove %s to start over", "the first start",
		    d->dir);
	else
		return 1;
	return 0;
}

/* Load the state when there is one; *owned tells. */
static int
state_read(struct drive *d, int *owned, char *why, size_t len)
{
	char	err[256];

	*owned = 0;
	if (state_load(d->state_path, &d->st, err, sizeof(err)) == 0) {
		*owned = 1;
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	snprintf(why, len, "cannot read %s: %s", d->state_path, err);
	return -1;
}

/* Open events.jsonl, cut back to what the last checkpoint knew. */
static void
drive_open_events(struct drive *d, uint64_t keep)
{
	char	path[PATH_MAX + 16];

	if (d->log.path != NULL)
		return;
	drive_events_path(d, path, sizeof(path));
	if (events_open(&d->log, path, keep, d->conf.name,
	    d->conf.serial) == -1) {
		drive_log(d, LOG_WARNING, errno, "cannot open %s", path);
		events_close(&d->log);
	}
}

void
drive_set_owner_check(struct drive *d, drive_owner_fn fn)
{
	d->owner = fn;
}

int
drive_target_id(const struct drive *d, struct target_id *id)
{
	if (d->tgt.fd >= 0)
		return safety_fd_target_id(d->tgt.fd, id);
	return safety_target_id(d->conf.device, id);
}

/*
 * One drive, one owner: refused when another drive of the daemon has the
 * same target under another path, or when the state directory holds the
 * run of a device another drive has (sections renamed or swapped).
 */
static int
drive_claimed(struct drive *d, int owned, char *why, size_t len)
{
	struct target_id	id;
	char			who[PATH_MAX / 2];

	if (d->owner == NULL)
		return 0;
	if (d->owner(d, d->conf.device, who, sizeof(who), d->changed_arg) &&
	    safety_target_id(d->conf.device, &id) == 0) {
		snprintf(why, len, "%s is the same %s as %s; a target is tested "
		    "by one drive section only", d->conf.device,
		    id.is_blockdev ? "device" : "file", who);
		return 1;
	}
	if (owned && strcmp(d->st.device, d->conf.device) != 0 &&
	    d->owner(d, d->st.device, who, sizeof(who), d->changed_arg)) {
		snprintf(why, len, "its state directory %s holds the run on %s, "
		    "which %s has (a drive section renamed? remove that "
		    "directory to start over)", d->dir, d->st.device, who);
		return 1;
	}
	return 0;
}

/*
 * How the run recorded in `sf` names the target a fresh drive is to take:
 * by its path or as the same device or file (before the open, so that a
 * file is not made for nothing), or, once a block device is open, by its
 * serial; NULL when it names another target or is no run at all.
 */
static const char *
state_claims(const char *sf, const struct drive *d, const struct target_id *id,
    int by_serial)
{
	static struct dstate	s;	/* large; only the main loop calls this */
	struct target_id	other;
	char			err[256];

	if (state_load(sf, &s, err, sizeof(err)) == -1)
		return NULL;
	if (by_serial)
		return d->tgt.serial[0] != '\0' && strcmp(s.serial, SERIAL_NONE) &&
		    strcmp(s.serial, d->tgt.serial) == 0 ? "serial" : NULL;
	if (strcmp(s.device, d->conf.device) == 0)
		return "path";
	if (id != NULL && safety_target_id(s.device, &other) == 0 &&
	    safety_same_target(id, &other))
		return id->is_blockdev ? "device" : "file";
	return NULL;
}

/*
 * A drive about to start fresh must not take a target whose run another
 * directory of the state directory records (a section renamed): the fresh
 * run would overwrite that run's blocks.
 */
static int
claimed_by_record(struct drive *d, int by_serial, char *why, size_t len)
{
	char			 parent[PATH_MAX], dir[PATH_MAX], sf[PATH_MAX];
	const char		*how = NULL;
	struct dirent		*e;
	struct target_id	 id;
	int			 have_id;
	DIR			*dp;

	snprintf(parent, sizeof(parent), "%.*s", (int)(strlen(d->dir) -
	    strlen(d->conf.name) - 1), d->dir);
	have_id = drive_target_id(d, &id) == 0;
	if ((dp = opendir(parent)) == NULL)
		return 0;
	while (how == NULL && (e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, d->conf.name) == 0)
			continue;
		if (statedir_drive_dir(dir, sizeof(dir), parent, e->d_name) == -1 ||
		    statedir_path(sf, sizeof(sf), dir, STATEDIR_STATE) == -1)
			continue;
		if ((how = state_claims(sf, d, have_id ? &id : NULL,
		    by_serial)) != NULL)
			snprintf(why, len, "%s/%s holds a run on %s (the same "
			    "%s); rename the section back to %s to resume it, "
			    "or remove %s/%s%s to start over", parent,
			    e->d_name, d->conf.device, how, e->d_name, parent,
			    e->d_name, have_id && !id.is_blockdev ?
			    " and the file" : "");
	}
	closedir(dp);
	return how != NULL;
}

/*
 * The device came back from a power cut with another size: refused, its
 * run not failed (a start once the size is back goes on with it).
 */
static int
cut_resized(struct drive *d)
{
	enum run_state	run = d->st.run;
	char		why[256];

	snprintf(why, sizeof(why), "power cut: the device came back with "
	    "another size: %" PRIu64 " bytes before the cut, %" PRIu64 " now; "
	    "restore its size and start it", d->st.cut_capacity,
	    d->tgt.capacity);
	drive_refuse(d, why);
	d->st.run = run;
	return -1;
}

/* A fresh run can begin as prepare asks (phase_prepare.c): 1, or 0 and
 * why, before anything is written. A run that stopped during its
 * format or sanitize asks again: the drive does it again (or waits for
 * the sanitize it is still doing). */
static int
prepared(struct drive *d, uint64_t span, char *why, size_t len)
{
	char	r[512];
	int	rc;

	memset(&d->purge, 0, sizeof(d->purge));
	if (d->conf.prepare == PREPARE_NONE)
		return 1;
	rc = d->conf.prepare == PREPARE_TRIM ?
	    target_discard_check(&d->tgt, r, sizeof(r)) :
	    target_purge_check(&d->tgt, d->conf.prepare, span, &d->purge, r,
	    sizeof(r));
	if (rc == 0)
		return 1;
	snprintf(why, len, "prepare = %s: %s",
	    config_prepare_name(d->conf.prepare), r);
	return 0;
}

/* Target, layout and state: refuse with a reason (-1), or be ready to run;
 * -2: a power cut under way left the device away (nothing said yet). */
int
drive_prepare(struct drive *d)
{
	struct layout	l;
	char		why[3 * PATH_MAX];
	int		owned;

	d->tgt.created = 0;	/* only a file made by this start is undone */
	if (statedir_mkdirs(d->dir, 0750) == -1) {
		snprintf(why, sizeof(why), "cannot create %s: %s", d->dir,
		    strerror(errno));
		return drive_refuse(d, why);
	}
	if (state_read(d, &owned, why, sizeof(why)) == -1) {
		drive_open_events(d, UINT64_MAX);
		return drive_refuse(d, why);
	}
	drive_open_events(d, owned ? d->st.events_bytes : UINT64_MAX);
	features_loaded(d, owned);
	if (drive_claimed(d, owned, why, sizeof(why)) ||
	    (!owned && claimed_by_record(d, 0, why, sizeof(why))))
		return drive_refuse(d, why);
	/* a power cut under way, the device away: no refusal, it is
	 * powered on first (features_bring_back) */
	if (owned && features_away(d))
		return -2;
	if (safety_open(&d->conf, owned, d->st.instance, d->conf.block_size,
	    &d->tgt, why, sizeof(why)) == -1)
		return drive_refuse(d, why);
	/* the journal's SERIAL= from now on */
	events_set_serial(&d->log, target_serial(&d->tgt));
	if (!owned && d->tgt.is_blockdev &&
	    claimed_by_record(d, 1, why, sizeof(why)))
		return drive_refuse(d, why);
	/* the size at the cut is in the state: a restart keeps the refusal */
	if (owned && d->st.cut_pending && d->st.cut_capacity != 0 &&
	    d->tgt.capacity != d->st.cut_capacity)
		return cut_resized(d);
	if (layout_init(&l, d->tgt.capacity, config_span_bytes(&d->conf,
	    d->tgt.capacity), d->conf.block_size, d->conf.static_fraction,
	    why, sizeof(why)) == -1)
		return drive_refuse(d, why);
	if (owned && !layout_matches(d, &l, why, sizeof(why)))
		return drive_refuse(d, why);
	if (d->conf.reservation && safety_reserve(&d->tgt, d->conf.name, why,
	    sizeof(why)) == -1)
		return drive_refuse(d, why);
	/* the span as configured: a tail short of a block is the run's too */
	if ((!owned || d->st.prog.phase == PHASE_PREPARE) &&
	    !prepared(d, config_span_bytes(&d->conf, d->tgt.capacity), why,
	    sizeof(why)))
		return drive_refuse(d, why);
	if (!owned && state_init(d, &l) == -1)
		return drive_refuse(d, "cannot make an instance id");
	return owned;
}

/* What a drive that has state does on activation. */
static void
resume_owned(struct drive *d)
{
	/* back from a power cut, the run goes on as it was (autostart is
	 * for the daemon's starts) */
	if (!d->cut.returned)
		sched_resume(&d->st, &d->conf);
	events_add(&d->log, LOG_NOTICE, "resume", drive_ev_obj(d), -1,
	    (long long)d->st.host_bytes_written, "resuming %s: %s, cycle %"
	    PRIu64 ", %s at item %" PRIu64 ", TBW %.6f TB", d->conf.device,
	    run_state_name(d->st.run), d->st.prog.cycle,
	    phase_name(d->st.prog.phase), d->st.prog.position,
	    (double)d->st.host_bytes_written / 1e12);
}

/* A drive seen for the first time. */
static void
announce_new(struct drive *d)
{
	json_object	*o = drive_ev_obj(d);
	char		 hex[20], a[32];
	int		 by = d->purge.how != PURGE_NONE;

	snprintf(hex, sizeof(hex), "%016" PRIx64, d->st.instance);
	json_object_object_add(o, "instance", json_object_new_string(hex));
	json_object_object_add(o, "capacity",
	    json_object_new_uint64(d->tgt.capacity));
	json_object_object_add(o, "span_bytes",
	    json_object_new_uint64(d->st.lay.span_bytes));
	/* how the run begins: as the drive was found, discarded, or erased
	 * by the drive's own command (which one) */
	json_object_object_add(o, "prepare", json_object_new_string(
	    config_prepare_name(d->conf.prepare)));
	if (by)
		json_object_object_add(o, "prepare_by", json_object_new_string(
		    purge_name(d->purge.how)));
	events_add(&d->log, LOG_NOTICE, "created", o, -1, 0, "new run on %s "
	    "(%s span, instance %s, prepare %s%s%s)", d->conf.device,
	    units_fmt_bin(d->st.lay.span_bytes, a, sizeof(a)), hex,
	    config_prepare_name(d->conf.prepare), by ? " by " : "",
	    by ? purge_name(d->purge.how) : "");
}

void
drive_announce(struct drive *d, int owned)
{
	if (owned)
		resume_owned(d);
	else
		announce_new(d);
}
