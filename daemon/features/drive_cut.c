/*
 * drive_cut.c: power cuts on purpose. At a random item of a write pass
 * (every power_cut_every cycles: job.stop_at), or where the pass stands
 * when the operator asks (ssdctl powercut: engine_cut_job), the write job
 * stops without its final flush: the writes since the last periodic flush
 * are acknowledged and not flushed, and the state records the flushed
 * position only. The drive is closed, `power_cut_command off NAME SERIAL`
 * cuts its power, the device must go away, `power_cut_command on NAME
 * SERIAL` gives the power back, and the device must come back; the drive
 * is then opened as at any start (the same serial, or it is refused) and
 * owes the verify of a power loss (drive_power.c): lost_flush findings,
 * the unflushed writes it kept.
 *
 * Every step runs from the main loop: the commands are children watched
 * through their pidfds (cutproc.c), the waits are a timer; each step has
 * power_cut_timeout. The state says a cut is under way from just before
 * the power goes (cut_pending): a start that finds the device gone runs
 * `on` first, and a start that finds it there owes the verify.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drive_features.h"
#include "drive_priv.h"

#define CUT_POLL_US	100000		/* the waits look every 100 ms */
#define CUT_SMART_NS	(30ULL * 1000000000ULL)	/* for the reading after */

static const char *const step_names[] = {
	[CUT_NONE] = NULL, [CUT_DRAIN] = "draining", [CUT_OFF] = "off",
	[CUT_GOING] = "going", [CUT_ON] = "on", [CUT_RETURNING] = "returning",
	[CUT_SMART] = "reading_smart",
};

/* "off", "going", ...: the step of a cut under way; NULL: none. */
static const char *
drive_cut_state(const struct drive *d)
{
	return step_names[d->cut.step];
}

/* Is the target there, with a size (a detached loop device has none)? */
static int
target_present(const struct drive *d)
{
	struct stat	st;
	uint64_t	size = 0;
	int		fd, ok;

	if (stat(d->conf.device, &st) == -1)
		return 0;
	if (!S_ISBLK(st.st_mode))
		return 1;
	if ((fd = open(d->conf.device, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return 0;
	ok = ioctl(fd, BLKGETSIZE64, &size) == 0 && size > 0;
	close(fd);
	return ok;
}

/* No cut: nothing running, nothing watched. */
static void
cut_reset(struct drive *d)
{
	cutproc_kill(&d->cut.proc);
	d->cut.timer = sd_event_source_disable_unref(d->cut.timer);
	free(d->cut.cmd);
	memset(&d->cut, 0, sizeof(d->cut));
	cutproc_init(&d->cut.proc);
}

/* A cut that went wrong: said now, in an event once the drive is back. */
static void
cut_trouble(struct drive *d, const char *what, const char *why)
{
	snprintf(d->cut.trouble, sizeof(d->cut.trouble), "%s%s%s", what,
	    why[0] != '\0' ? ": " : "", why);
	drive_log(d, LOG_ERR, 0, "power cut: %s", d->cut.trouble);
}

/*
 * The power may be off and the device is not there to open: the drive is
 * refused with why; a start runs `on` again (drive_cut_resume).
 */
static void
cut_stranded(struct drive *d, const char *why)
{
	d->cut.step = CUT_NONE;
	d->refused = 1;
	snprintf(d->st.reason, sizeof(d->st.reason), "refused: power cut: %s "
	    "(a start powers it on again)", why);
	drive_log(d, LOG_ERR, 0, "%s", d->st.reason);
	drive_notify(d);
}

static int on_cut_timer(sd_event_source *, uint64_t, void *);

/* Look at the device in `us`. */
static int
cut_timer(struct drive *d, uint64_t us)
{
	uint64_t	now;

	if (sd_event_now(d->ev, CLOCK_MONOTONIC, &now) < 0)
		return -1;
	if (d->cut.timer != NULL) {
		sd_event_source_set_time(d->cut.timer, now + us);
		return sd_event_source_set_enabled(d->cut.timer,
		    SD_EVENT_ONESHOT);
	}
	return sd_event_add_time(d->ev, &d->cut.timer, CLOCK_MONOTONIC,
	    now + us, 10000, on_cut_timer, d);
}

/* Wait (every CUT_POLL_US, up to power_cut_timeout) in `step`. */
static void
cut_wait_for(struct drive *d, enum cut_step step)
{
	d->cut.step = step;
	d->cut.deadline = mono_ns() + d->conf.power_cut_timeout * 1000000000ULL;
	if (cut_timer(d, 0) < 0)
		d->cut.deadline = 0;	/* no timer: the step gives up now */
	if (d->cut.deadline == 0)
		on_cut_timer(NULL, 0, d);
}

/* Run `power_cut_command WORD NAME SERIAL`. */
static int
cut_run(struct drive *d, const char *word, cutproc_fn done)
{
	char	*argv[] = { d->cut.cmd, (char *)word, d->conf.name,
		    d->st.serial, NULL };

	return cutproc_run(&d->cut.proc, d->ev, argv,
	    d->conf.power_cut_timeout * 1000000, done, d);
}

/*
 * What the command printed, for the journal: its last lines, escaped
 * (cutproc.c keeps no more), and how much it printed in all.
 */
static void
cut_output(struct drive *d, const char *word)
{
	char		 out[CUTPROC_OUT], *line, *next;
	uint64_t	 n = cutproc_output(&d->cut.proc, out, sizeof(out));

	if (n == 0)
		return;
	drive_log(d, LOG_INFO, 0, "power_cut_command %s printed %" PRIu64
	    " bytes; the last lines (at most %d, of its last %d bytes):", word,
	    n, CUTPROC_LINES, CUTPROC_TAIL);
	for (line = out; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		drive_log(d, LOG_INFO, 0, "power_cut_command %s: %s", word,
		    line);
	}
}

/* `on` ended: the device must come back. */
static void
on_done(void *arg, int ok, const char *why)
{
	struct drive	*d = arg;

	cut_output(d, "on");
	if (!ok)
		cut_trouble(d, "power_cut_command on", why);
	cut_wait_for(d, CUT_RETURNING);
}

/* Power on: the last command of a cut, whatever happened before. */
static void
cut_power_on(struct drive *d)
{
	char	why[128];

	d->cut.step = CUT_ON;
	d->cut.t_on = mono_ns();
	if (cut_run(d, "on", on_done) == 0)
		return;
	snprintf(why, sizeof(why), "cannot run power_cut_command on: %s",
	    strerror(errno));
	cut_stranded(d, why);
}

/* The device went away: the cut happened. */
static void
cut_gone(struct drive *d)
{
	d->cut.gone = 1;
	d->cut.gone_sec = (double)(mono_ns() - d->cut.t_off) / 1e9;
}

/* `off` ended: the device must go away (it may have, the command failing). */
static void
off_done(void *arg, int ok, const char *why)
{
	struct drive	*d = arg;

	cut_output(d, "off");
	d->cut.off_sec = d->cut.proc.seconds;
	if (ok) {
		cut_wait_for(d, CUT_GOING);
		return;
	}
	cut_trouble(d, "power_cut_command off", why);
	if (!target_present(d))
		cut_gone(d);
	cut_power_on(d);
}

static void cut_returned(struct drive *);

static int
on_cut_timer(sd_event_source *s, uint64_t usec, void *arg)
{
	struct drive	*d = arg;
	int		 present = target_present(d);
	int		 late = mono_ns() >= d->cut.deadline;

	(void)s;
	(void)usec;
	if (d->cut.step == CUT_GOING && (!present || late)) {
		if (!present)
			cut_gone(d);
		else
			cut_trouble(d, "the device did not go away after "
			    "power_cut_command off", "");
		cut_power_on(d);
	} else if (d->cut.step == CUT_RETURNING && present) {
		d->cut.back_sec = (double)(mono_ns() - d->cut.t_on) / 1e9;
		cut_returned(d);
	} else if (d->cut.step == CUT_RETURNING && late)
		cut_stranded(d, "the device did not come back within "
		    "power_cut_timeout");
	else if ((d->cut.step == CUT_GOING || d->cut.step == CUT_RETURNING) &&
	    cut_timer(d, CUT_POLL_US) < 0) {
		d->cut.deadline = 0;	/* cannot wait: give up at once */
		on_cut_timer(NULL, 0, d);
	}
	return 0;
}

/* The state could not be saved: no cut; the pass goes on, the cut passed. */
static void
cut_abort(struct drive *d)
{
	d->st.cut_pending = 0;
	d->st.cut_capacity = 0;
	events_add(&d->log, LOG_ERR, "power_cut_failed", drive_ev_obj(d), -1,
	    (long long)d->st.host_bytes_written, "power cut not done: the "
	    "state could not be saved before it");
	cut_reset(d);
	d->core->schedule(d);
}

/* The write job stopped unflushed: record the flushed position, cut. */
static void
cut_drained(struct drive *d)
{
	char	why[128];

	d->cut.position = d->last.position;
	d->cut.durable = d->last.durable;
	/* it must come back so; both kept for a start after a restart */
	d->st.cut_capacity = d->tgt.capacity;
	d->st.cut_position = d->cut.position;
	d->st.cut_pending = 1;
	d->st.cut_asked = 0;
	d->st.cut_at = 0;
	d->core->checkpoint(d);
	if (!d->core->records_on_disk(d)) {
		cut_abort(d);
		return;
	}
	d->core->close(d);	/* the power goes next */
	d->cut.step = CUT_OFF;
	d->cut.t_off = mono_ns();
	if (cut_run(d, "off", off_done) == 0)
		return;
	snprintf(why, sizeof(why), "%s", strerror(errno));
	cut_trouble(d, "cannot run power_cut_command off", why);
	cut_power_on(d);
}

/* The SMART figure of a reading, or null when the drive does not say. */
static json_object *
unsafe_count(int known, uint64_t v)
{
	return known ? json_object_new_uint64(v) : NULL;
}

/* An item of the cut, or null for a cut a start took over. */
static json_object *
cut_item(const struct drive *d, uint64_t v)
{
	return d->cut.resumed ? NULL : json_object_new_uint64(v);
}

/* The cut's event: its timing, what was unflushed, SMART before, after. */
static void
cut_event_add(struct drive *d)
{
	json_object	*o = drive_ev_obj(d);
	int		 after = d->smart.readings > d->cut.readings_back &&
	    d->smart.latest.has_unsafe_shutdowns;

#define ADD(k, v)	json_object_object_add(o, k, v)
	ADD("cycle", json_object_new_uint64(d->cut.cycle));
	ADD("asked", json_object_new_boolean(d->cut.asked));
	ADD("resumed", json_object_new_boolean(d->cut.resumed));
	ADD("position", cut_item(d, d->cut.position));
	ADD("flushed_position", cut_item(d, d->cut.durable));
	ADD("unflushed_blocks", cut_item(d, d->cut.position - d->cut.durable));
	ADD("off_seconds", json_object_new_double(d->cut.off_sec));
	ADD("gone_seconds", json_object_new_double(d->cut.gone_sec));
	ADD("back_seconds", json_object_new_double(d->cut.back_sec));
	ADD("unsafe_shutdowns_before", unsafe_count(d->cut.unsafe_known,
	    d->cut.unsafe_before));
	ADD("unsafe_shutdowns_after", unsafe_count(after,
	    d->smart.latest.unsafe_shutdowns));
	ADD("cuts", json_object_new_uint64(d->st.power_cuts));
	if (d->cut.trouble[0] != '\0')	/* the command said no, ... */
		ADD("trouble", json_object_new_string(d->cut.trouble));
#undef ADD
	if (d->cut.resumed)
		events_add(&d->log, LOG_WARNING, "power_cut", o, -1,
		    (long long)d->st.host_bytes_written, "power cut %" PRIu64
		    " in cycle %" PRIu64 ", taken over at a start (where the "
		    "pass stood is not known): back %.1f s after on",
		    d->st.power_cuts, d->cut.cycle, d->cut.back_sec);
	else
		events_add(&d->log, LOG_WARNING, "power_cut", o, -1,
		    (long long)d->st.host_bytes_written, "power cut %" PRIu64
		    " in cycle %" PRIu64 " (%" PRIu64 " blocks written since "
		    "the last flush): gone %.1f s after off, back %.1f s after "
		    "on", d->st.power_cuts, d->cut.cycle, d->cut.position -
		    d->cut.durable, d->cut.gone_sec, d->cut.back_sec);
}

/* The cut is over: its event, and the state. */
static void
cut_event(struct drive *d)
{
	cut_event_add(d);
	cut_reset(d);
	d->core->checkpoint(d);
	drive_notify(d);
}

/*
 * The drive is refused, so no checkpoint saves it (nor may it run): its
 * state and events saved here all the same, so that a restart of the
 * daemon knows the cut was counted and told.
 */
static void
cut_save_refused(struct drive *d)
{
	d->active = 1;
	d->core->checkpoint(d);
	d->active = 0;
}

/*
 * The device came back and was refused (another serial, another size):
 * the power went all the same. The cut is counted, told and saved now
 * (power.cut_refused); the state still says it is under way, and the
 * start that takes the drive once the device is as it was owes its
 * verify, bounded by where the pass stood (drive_cut_activated), whether
 * the daemon restarted meanwhile or not. The run did not fail: the drive
 * is refused until then.
 */
static void
cut_back_refused(struct drive *d, enum run_state run)
{
	char	why[208];

	d->st.run = run;
	d->st.cut_refused = 1;
	d->st.power_cuts++;
	snprintf(why, sizeof(why), "%.200s", d->st.reason);
	cut_trouble(d, "the device came back", why);
	cut_event_add(d);
	cut_save_refused(d);
	drive_notify(d);
}

/* The device is back: opened as at a start (drive_cut_activated). */
static void
cut_returned(struct drive *d)
{
	enum run_state	run = d->st.run;

	d->cut.timer = sd_event_source_disable_unref(d->cut.timer);
	d->cut.step = CUT_NONE;
	if (d->active)		/* opened by a start meanwhile: done there */
		return;
	d->cut.returned = 1;
	d->refused = 0;
	/* or refused, with its reason (another serial, another size) */
	if (d->core->reopen(d) == -1 && d->refused && d->cut.gone)
		cut_back_refused(d, run);
	d->cut.returned = 0;
}

/*
 * A start found the state of a cut and its device there: whether the
 * power went is not known (the daemon may have stopped before `off`), so
 * nothing is counted; the verify of a power loss is owed all the same.
 */
static void
cut_found_done(struct drive *d, int lost_now)
{
	drive_log(d, LOG_NOTICE, 0, "the state says a power cut was under "
	    "way and the device is there: the verify of a power loss first "
	    "(whether the power went is not known: no cut counted)");
	if (!lost_now)	/* the host's own loss owes it already */
		d->core->power_owed(d);
	cut_reset(d);
}

/* drive_activate opened the drive: a cut under way ends here
 * (lost_now: the activation saw a power loss of the host already). */
static void
drive_cut_activated(struct drive *d, int lost_now)
{
	if (!d->st.cut_pending)
		return;
	d->st.cut_pending = 0;
	d->st.cut_capacity = 0;
	if (d->st.cut_refused) {	/* seen whole, counted at its return */
		d->st.cut_refused = 0;
		if (!lost_now)
			d->core->power_lost(d, 1, d->st.cut_position);
		drive_log(d, LOG_NOTICE, 0, "the power cut %" PRIu64 " whose "
		    "device was refused on its return: its verify now",
		    d->st.power_cuts);
		cut_reset(d);
		return;
	}
	if (!d->cut.returned) {
		cut_found_done(d, lost_now);
		return;
	}
	if (!d->cut.gone) {
		events_add(&d->log, LOG_ERR, "power_cut_failed",
		    drive_ev_obj(d), -1, (long long)d->st.host_bytes_written,
		    "power cut not done: %s", d->cut.trouble);
		cut_reset(d);
		return;
	}
	d->st.power_cuts++;
	if (!lost_now)	/* where the pass stood: an exact kept count */
		d->core->power_lost(d, !d->cut.resumed, d->cut.position);
	d->cut.readings_back = d->smart.readings;
	d->cut.t_back = mono_ns();
	d->cut.step = CUT_SMART;
	/* the count after: from the first reading once it is back */
	if (!d->cut.unsafe_known || d->smart.poller == NULL)
		cut_event(d);
}

/* This cycle's cut, drawn once: an item of its write pass. */
static void
cut_draw(struct drive *d)
{
	struct dstate	*st = &d->st;
	uint64_t	 n = layout_dynamic_blocks(&st->lay);

	/* one drawn for another cycle, or no longer wanted, is dropped */
	if (st->cut_at != 0 && (st->cut_cycle != st->prog.cycle ||
	    d->conf.power_cut_every == 0))
		st->cut_at = 0;
	if (d->conf.power_cut_every == 0 || st->cut_at != 0 ||
	    st->cut_cycle >= st->prog.cycle ||
	    st->prog.cycle % d->conf.power_cut_every != 0 || n < 2)
		return;
	st->cut_at = 1 + blk_seed(st->instance, st->prog.cycle,
	    0x637574 /* "cut" */) % (n - 1);
	st->cut_cycle = st->prog.cycle;
}

/* Before a write pass's job is handed out: the item this cycle's cut
 * stops it at (job.stop_at), drawn once per cycle power_cut_every. */
static void
drive_cut_prepare(struct drive *d, struct job *j)
{
	if (d->st.prog.phase != PHASE_WRITE || j->kind != JOB_WRITE ||
	    d->conf.power_cut_command == NULL)
		return;
	cut_draw(d);
	/* a cut due below where the pass resumes comes at once */
	if (d->st.cut_at != 0)
		j->stop_at = d->st.cut_at > j->start ? d->st.cut_at :
		    j->start + 1;
}

/* The cut begins: what is known before the power goes. */
static int
cut_begin(struct drive *d)
{
	if (d->cut.step == CUT_SMART)	/* the one before: its event now */
		cut_event(d);
	cut_reset(d);
	if ((d->cut.cmd = strdup(d->conf.power_cut_command)) == NULL)
		return -1;
	d->cut.step = CUT_DRAIN;
	d->cut.cycle = d->st.prog.cycle;
	d->cut.asked = d->st.cut_asked;
	/* the count changes only at a power loss: the latest reading holds */
	d->cut.unsafe_known = d->smart.have_latest &&
	    d->smart.latest.has_unsafe_shutdowns;
	d->cut.unsafe_before = d->smart.latest.unsafe_shutdowns;
	return 0;
}

/* Is this job's end the stop of a cut? */
static int
cut_stop(const struct drive *d, enum work was, enum job_end end)
{
	if (end != JOB_STOPPED || d->st.run != RUN_RUNNING ||
	    d->shutting_down || d->st.prog.phase != PHASE_WRITE ||
	    d->conf.power_cut_command == NULL)
		return 0;
	if (was == WORK_CUT_NEXT)
		return d->st.cut_asked;	/* not dropped while it drained */
	/* the write job stopped at the item of this cycle's cut */
	return was == WORK_PHASE && d->st.cut_at != 0 &&
	    d->last.position >= d->st.cut_at;
}

/* A job ended: 1 when it was the write job of a cut (the cut goes on),
 * 0 when it ends as any job does (a failed one among them). */
static int
drive_cut_job_ended(struct drive *d, enum work was, enum job_end end)
{
	if (!cut_stop(d, was, end)) {
		/* failed, paused, or done before the stop was seen: a cut
		 * asked for waits for the next write pass */
		if (was == WORK_CUT_NEXT)
			cut_reset(d);
		return 0;
	}
	if (was == WORK_PHASE && cut_begin(d) == -1)
		return 0;
	d->core->work_to(d, WORK_NONE);
	d->core->flush_findings(d);
	cut_drained(d);
	return 1;
}

/* Give up an ask not yet cut (waiting for a write pass, or its pass
 * still draining: cut_stop then cuts nothing): not later, and said. */
static void
cut_drop(struct drive *d, const char *why)
{
	d->st.cut_asked = 0;
	events_add(&d->log, LOG_WARNING, "power_cut_dropped", drive_ev_obj(d),
	    -1, (long long)d->st.host_bytes_written,
	    "power cut asked for and not done: %s", why);
}

/* A cut asked for (ssdctl powercut) begins now if a write pass is
 * running; else it waits for one (drive_cut_tick). */
static void
drive_cut_asked(struct drive *d)
{
	if (!d->st.cut_asked || d->cut.step != CUT_NONE ||
	    d->conf.power_cut_command == NULL || d->work != WORK_PHASE ||
	    d->st.run != RUN_RUNNING || d->st.prog.phase != PHASE_WRITE ||
	    d->shutting_down || cut_begin(d) == -1)
		return;
	d->core->poll(d);	/* where the pass stands now, not at the tick */
	drive_log(d, LOG_NOTICE, 0, "power cut: the write pass stops at item "
	    "%" PRIu64 " without a flush", d->last.position);
	d->core->work_to(d, WORK_CUT_NEXT);
	engine_cut_job(d->eng);
}

/* Once a second: a cut asked for begins in the write pass running; the
 * event of one whose device came back, once SMART has been read again. */
static void
drive_cut_tick(struct drive *d, int rated)
{
	(void)rated;
	if (d->cut.step == CUT_SMART && (d->smart.readings > d->cut.readings_back ||
	    mono_ns() - d->cut.t_back > CUT_SMART_NS))
		cut_event(d);
	if (d->st.cut_asked && d->conf.power_cut_command == NULL)
		cut_drop(d, "power_cut_command is no longer configured");
	/* a drain whose job was given up (io_timeout): no cut */
	if (d->cut.step == CUT_DRAIN && d->work != WORK_CUT_NEXT)
		cut_reset(d);
	drive_cut_asked(d);
}

/* The run ends (finished, failed, stopped) with a cut asked for and not
 * begun, or only draining (the end stops the drain, and nothing is cut):
 * the ask is dropped, with an event that says so. */
static void
drive_cut_run_ended(struct drive *d, const char *state)
{
	/* a drain still under way stops with the run and cuts nothing
	 * (cut_stop); after it, the cut under way has the ask */
	char	why[96];

	if (!d->st.cut_asked || d->cut.step > CUT_DRAIN)
		return;
	snprintf(why, sizeof(why), "the run is %s with no write pass left to "
	    "cut", state);
	cut_drop(d, why);
}

/* The state loaded says a cut is under way and the device is away. */
static int
drive_cut_away(const struct drive *d)
{
	return d->st.cut_pending && d->cut.step == CUT_NONE &&
	    !d->cut.returned && !target_present(d);
}

/* drive_activate found drive_cut_away: the drive is powered on and
 * waited for (1), or refused with why (0). */
static int
drive_cut_resume(struct drive *d)
{
	cut_reset(d);
	if (d->conf.power_cut_command == NULL ||
	    (d->cut.cmd = strdup(d->conf.power_cut_command)) == NULL) {
		cut_stranded(d, "the state says a power cut was under way and "
		    "the device is not there, but there is no "
		    "power_cut_command to power it on");
		return 0;
	}
	d->cut.resumed = 1;
	d->cut.gone = 1;	/* the run before cut it: owe the verify */
	d->cut.cycle = d->st.prog.cycle;
	drive_log(d, LOG_NOTICE, 0, "the state says a power cut was under way "
	    "and the device is not there: powering it on");
	cut_power_on(d);
	return d->cut.step == CUT_ON;
}

/* The daemon stops: the event of a cut waiting for its SMART reading. */
static void
drive_cut_shutdown(struct drive *d)
{
	if (d->cut.step == CUT_SMART)
		cut_event(d);
}

static void
drive_cut_free(struct drive *d)
{
	/* a relay half switched is worse than one left to finish: the
	 * command goes on alone; the state says the cut is under way */
	if (d->cut.step >= CUT_OFF && d->cut.step <= CUT_RETURNING) {
		drive_log(d, LOG_WARNING, 0, "the daemon lets go of the drive "
		    "during a power cut (%s): its power may stay off until "
		    "its next start, which powers it on",
		    drive_cut_state(d));
		cutproc_detach(&d->cut.proc);
	}
	cut_reset(d);
}

/* A cut under way (but one only waiting for its SMART reading, the drive
 * open again) keeps a verify pass from starting. */
static int
cut_holds_verify(const struct drive *d)
{
	return d->cut.step != CUT_NONE && d->cut.step != CUT_SMART;
}

static void
cut_status(const struct drive *d, struct drive_status *s)
{
	s->power_cut_state = drive_cut_state(d);
}

/* No command running yet. */
static void
cut_made(struct drive *d)
{
	cutproc_init(&d->cut.proc);
}

/* Power cuts on purpose (power_cut_command, ssdctl powercut). */
const struct drive_feature drive_cut_feature = {
	.name = "power cuts",
	.made = cut_made,
	.away = drive_cut_away,
	.bring_back = drive_cut_resume,
	.activated = drive_cut_activated,
	.job_prepare = drive_cut_prepare,
	.job_taken = drive_cut_job_ended,
	.tick = drive_cut_tick,
	.run_ended = drive_cut_run_ended,
	.asked = drive_cut_asked,
	.holding = drive_cut_state,
	.holds_verify = cut_holds_verify,
	.status = cut_status,
	.shutdown = drive_cut_shutdown,
	.release = drive_cut_free,
};
