/*
 * drive_cut.c: power cuts on purpose. At a random item of a write pass
 * (every power_cut_every cycles), or at once when the operator asks
 * (ssdctl powercut), the write job stops without its final flush: the
 * writes since the last periodic flush are acknowledged and not flushed,
 * and the state records the flushed position only. The drive is closed,
 * `power_cut_command off NAME SERIAL` cuts its power, the device must go
 * away, `power_cut_command on NAME SERIAL` gives the power back, and the
 * device must come back; the drive is then opened again as at any start
 * (the same serial, or it is refused) and owes the verify of a power loss
 * (drive_power.c): lost_flush findings, the unflushed writes it kept.
 *
 * Every step runs from the main loop: the command is a child watched
 * through its pidfd, the waits are timers; each step has
 * power_cut_timeout. The state says a cut is under way from the moment
 * before the power goes (cut_pending): a daemon that stops or dies during
 * the cut powers the drive on at its next start and owes the verify then.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "drive_priv.h"

#define CUT_POLL_US	100000		/* the waits look every 100 ms */
#define CUT_SMART_NS	(30ULL * 1000000000ULL)	/* for the reading after */

extern char **environ;

static const char *const step_names[] = {
	[CUT_NONE] = NULL, [CUT_DRAIN] = "draining", [CUT_OFF] = "off",
	[CUT_GOING] = "going", [CUT_ON] = "on", [CUT_RETURNING] = "returning",
	[CUT_SMART] = "reading_smart",
};

const char *
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

static void
cut_unwatch(struct drive *d)
{
	d->cut.child_src = sd_event_source_disable_unref(d->cut.child_src);
	d->cut.timer = sd_event_source_disable_unref(d->cut.timer);
	if (d->cut.pidfd >= 0)
		close(d->cut.pidfd);
	d->cut.pidfd = -1;
}

static int on_cut_timer(sd_event_source *, uint64_t, void *);

/* The step's timer: `us` from now. */
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

static int on_cut_child(sd_event_source *, int, uint32_t, void *);

/* Run `power_cut_command WORD NAME SERIAL`, watched through its pidfd. */
static int
cut_spawn(struct drive *d, const char *word)
{
	posix_spawn_file_actions_t	 fa;
	char				*argv[5];
	int				 rc;

	if (d->conf.power_cut_command == NULL) {	/* reloaded away */
		errno = ENOENT;
		return -1;
	}
	argv[0] = d->conf.power_cut_command;
	argv[1] = (char *)word;
	argv[2] = d->conf.name;
	argv[3] = d->st.serial;
	argv[4] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	rc = posix_spawn(&d->cut.pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	d->cut.t_cmd = mono_ns();
	if ((d->cut.pidfd = pidfd_open(d->cut.pid, 0)) == -1 ||
	    sd_event_add_io(d->ev, &d->cut.child_src, d->cut.pidfd, EPOLLIN,
	    on_cut_child, d) < 0 ||
	    cut_timer(d, d->conf.power_cut_timeout * 1000000) < 0) {
		kill(d->cut.pid, SIGKILL);
		waitpid(d->cut.pid, NULL, 0);
		cut_unwatch(d);
		errno = EIO;
		return -1;
	}
	return 0;
}

/* The command's end: 0 when it exited 0, else why in `why`. */
static int
cut_reap(struct drive *d, int killed, char *why, size_t len)
{
	int	status = 0;

	if (killed)
		kill(d->cut.pid, SIGKILL);
	while (waitpid(d->cut.pid, &status, 0) == -1 && errno == EINTR)
		;
	cut_unwatch(d);
	d->cut.cmd_sec = (double)(mono_ns() - d->cut.t_cmd) / 1e9;
	if (killed)
		snprintf(why, len, "did not end within power_cut_timeout");
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	else if (WIFEXITED(status))
		snprintf(why, len, "exited %d", WEXITSTATUS(status));
	else
		snprintf(why, len, "killed by signal %d", WTERMSIG(status));
	return -1;
}

/* A cut that went wrong: said now, an event once the drive is back. */
static void
cut_trouble(struct drive *d, const char *fmt, const char *what)
	__attribute__((format(printf, 2, 0)));

static void
cut_trouble(struct drive *d, const char *fmt, const char *what)
{
	snprintf(d->cut.trouble, sizeof(d->cut.trouble), fmt, what);
	drive_log(d, LOG_ERR, 0, "power cut: %s", d->cut.trouble);
}

static void cut_power_on(struct drive *);

/* The step after `off`: the device must go away. */
static void
cut_off_done(struct drive *d, int killed)
{
	char	why[128];

	d->cut.off_sec = 0;
	if (cut_reap(d, killed, why, sizeof(why)) == -1) {
		cut_trouble(d, "power_cut_command off %s", why);
		cut_power_on(d);
		return;
	}
	d->cut.off_sec = d->cut.cmd_sec;
	d->cut.step = CUT_GOING;
	d->cut.deadline = mono_ns() + d->conf.power_cut_timeout * 1000000000ULL;
	if (cut_timer(d, 0) < 0)
		cut_power_on(d);
}

/* Power on: the last command of a cut, whatever happened before. */
static void
cut_power_on(struct drive *d)
{
	char	why[128];

	d->cut.step = CUT_ON;
	if (cut_spawn(d, "on") == 0)
		return;
	snprintf(why, sizeof(why), "power_cut_command on: %s", strerror(errno));
	drive_fail(d, "%s", why);
	d->cut.step = CUT_NONE;
}

/* `on` ended: the device must come back. */
static void
cut_on_done(struct drive *d, int killed)
{
	char	why[128];

	if (cut_reap(d, killed, why, sizeof(why)) == -1)
		cut_trouble(d, "power_cut_command on %s", why);
	d->cut.step = CUT_RETURNING;
	d->cut.deadline = mono_ns() + d->conf.power_cut_timeout * 1000000000ULL;
	if (cut_timer(d, 0) < 0) {
		d->cut.step = CUT_NONE;
		drive_fail(d, "power cut: cannot wait for the device");
	}
}

static int
on_cut_child(sd_event_source *s, int fd, uint32_t revents, void *arg)
{
	struct drive	*d = arg;

	(void)s;
	(void)fd;
	(void)revents;
	if (d->cut.step == CUT_OFF)
		cut_off_done(d, 0);
	else
		cut_on_done(d, 0);
	return 0;
}

static void cut_returned(struct drive *);

/* A wait for the device to go or come back: look again, or give up. */
static void
cut_wait(struct drive *d)
{
	int	present = target_present(d), late = mono_ns() >= d->cut.deadline;

	if (d->cut.step == CUT_GOING && !present) {
		d->cut.gone = 1;
		d->cut.gone_sec = (double)(mono_ns() - d->cut.t0) / 1e9;
		cut_power_on(d);
	} else if (d->cut.step == CUT_GOING && late) {
		cut_trouble(d, "%s did not go away after power_cut_command off",
		    d->conf.device);
		cut_power_on(d);
	} else if (d->cut.step == CUT_RETURNING && present) {
		d->cut.back_sec = (double)(mono_ns() - d->cut.t_cmd) / 1e9;
		cut_returned(d);
	} else if (d->cut.step == CUT_RETURNING && late) {
		d->cut.step = CUT_NONE;
		d->refused = 1;
		snprintf(d->st.reason, sizeof(d->st.reason), "refused: %s did "
		    "not come back within power_cut_timeout after a power cut "
		    "(a start powers it on again)", d->conf.device);
		drive_log(d, LOG_ERR, 0, "%s", d->st.reason);
		drive_notify(d);
	} else if (cut_timer(d, CUT_POLL_US) < 0) {
		d->cut.deadline = 0;	/* cannot wait: give up next time */
		cut_wait(d);
	}
}

static int
on_cut_timer(sd_event_source *s, uint64_t usec, void *arg)
{
	struct drive	*d = arg;

	(void)s;
	(void)usec;
	switch (d->cut.step) {
	case CUT_OFF:
		cut_off_done(d, 1);
		break;
	case CUT_ON:
		cut_on_done(d, 1);
		break;
	case CUT_GOING:
	case CUT_RETURNING:
		cut_wait(d);
		break;
	default:
		break;
	}
	return 0;
}

/* Close the drive, as if it were never opened: the power goes next. */
static void
cut_close(struct drive *d)
{
	drive_smart_stop(d);
	d->notify_src = sd_event_source_disable_unref(d->notify_src);
	engine_free(d->eng);
	d->eng = NULL;
	safety_close(&d->tgt);
	d->active = 0;
}

/* The write job stopped unflushed: record the flushed position, cut. */
static void
cut_drained(struct drive *d)
{
	d->cut.position = d->last.position;
	d->cut.durable = d->last.durable;
	d->st.cut_pending = 1;
	d->st.cut_asked = 0;
	d->st.cut_at = 0;
	drive_checkpoint(d);
	cut_close(d);
	d->cut.step = CUT_OFF;
	if (cut_spawn(d, "off") == -1) {
		cut_trouble(d, "cannot run power_cut_command: %s",
		    strerror(errno));
		cut_power_on(d);
	}
}

/* The SMART figure of a reading, or null when the drive does not say. */
static json_object *
unsafe_count(int known, uint64_t v)
{
	return known ? json_object_new_uint64(v) : NULL;
}

/* The cut's event: its timing, what was unflushed, SMART before, after. */
static void
cut_event(struct drive *d)
{
	json_object	*o = drive_ev_obj(d);
	int		 after = d->smart.readings > d->cut.readings_back &&
	    d->smart.latest.has_unsafe_shutdowns;

#define ADD(k, v)	json_object_object_add(o, k, v)
	ADD("cycle", json_object_new_uint64(d->cut.cycle));
	ADD("asked", json_object_new_boolean(d->cut.asked));
	ADD("position", json_object_new_uint64(d->cut.position));
	ADD("flushed_position", json_object_new_uint64(d->cut.durable));
	ADD("unflushed_blocks", json_object_new_uint64(d->cut.position -
	    d->cut.durable));
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
	events_add(&d->log, LOG_WARNING, "power_cut", o, -1,
	    (long long)d->st.host_bytes_written, "power cut %" PRIu64 " at "
	    "item %" PRIu64 " of cycle %" PRIu64 " (%" PRIu64 " blocks "
	    "written since the last flush): gone after %.1f s, back %.1f s "
	    "after power on", d->st.power_cuts, d->cut.position, d->cut.cycle,
	    d->cut.position - d->cut.durable, d->cut.gone_sec,
	    d->cut.back_sec);
	d->cut.step = CUT_NONE;
	drive_checkpoint(d);
	drive_notify(d);
}

/* The device is back: opened as at a start (drive_cut_activated). */
static void
cut_returned(struct drive *d)
{
	d->cut.step = CUT_NONE;
	d->cut.returned = 1;
	d->refused = 0;
	drive_activate(d, 1);	/* or refused, with its reason (another serial) */
	d->cut.returned = 0;
}

void
drive_cut_activated(struct drive *d)
{
	if (!d->st.cut_pending)
		return;
	d->st.cut_pending = 0;
	if (!d->cut.returned) {
		/* a cut of a run that stopped after the power came back */
		drive_log(d, LOG_NOTICE, 0, "a power cut was under way when "
		    "the daemon stopped; the device is there: the verify of a "
		    "power loss first");
		drive_power_cut(d);
		return;
	}
	if (d->cut.trouble[0] != '\0' && !d->cut.gone)
		events_add(&d->log, LOG_ERR, "power_cut_failed",
		    drive_ev_obj(d), -1, (long long)d->st.host_bytes_written,
		    "power cut not done: %s", d->cut.trouble);
	if (!d->cut.gone)
		return;
	d->st.power_cuts++;
	drive_power_cut(d);
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

	if (d->conf.power_cut_every == 0 || st->cut_at != 0 ||
	    st->cut_cycle >= st->prog.cycle ||
	    st->prog.cycle % d->conf.power_cut_every != 0 || n < 2)
		return;
	st->cut_at = 1 + blk_seed(st->instance, st->prog.cycle,
	    0x637574 /* "cut" */) % (n - 1);
	st->cut_cycle = st->prog.cycle;
}

void
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
static void
cut_begin(struct drive *d)
{
	memset(&d->cut, 0, sizeof(d->cut));
	d->cut.pidfd = -1;
	d->cut.step = CUT_DRAIN;
	d->cut.t0 = mono_ns();
	d->cut.cycle = d->st.prog.cycle;
	d->cut.asked = d->st.cut_asked;
	/* the count changes only at a power loss: the latest reading holds */
	d->cut.unsafe_known = d->smart.have_latest &&
	    d->smart.latest.has_unsafe_shutdowns;
	d->cut.unsafe_before = d->smart.latest.unsafe_shutdowns;
}

int
drive_cut_job_ended(struct drive *d, enum work was, enum job_end end)
{
	/* the write job stopped at the item of this cycle's cut */
	int	at_cut = was == WORK_PHASE && end == JOB_STOPPED &&
	    d->st.cut_at != 0 && d->last.position >= d->st.cut_at &&
	    d->st.prog.phase == PHASE_WRITE && d->st.run == RUN_RUNNING &&
	    !d->shutting_down && d->conf.power_cut_command != NULL;

	if (was == WORK_CUT_NEXT && (end == JOB_FAILED ||
	    d->st.run != RUN_RUNNING || d->shutting_down)) {
		d->cut.step = CUT_NONE;	/* the drive's fault, or stopped */
		return 0;
	}
	if (was != WORK_CUT_NEXT && !at_cut)
		return 0;
	if (at_cut)
		cut_begin(d);
	drive_work_to(d, WORK_NONE);
	findings_flush(d);
	cut_drained(d);
	return 1;
}

void
drive_cut_tick(struct drive *d)
{
	if (d->cut.step == CUT_SMART && (d->smart.readings > d->cut.readings_back ||
	    mono_ns() - d->cut.t_back > CUT_SMART_NS))
		cut_event(d);
	/* one asked for: the write pass running stops where it is */
	if (!d->st.cut_asked || d->cut.step != CUT_NONE ||
	    d->conf.power_cut_command == NULL || d->work != WORK_PHASE ||
	    d->st.run != RUN_RUNNING || d->st.prog.phase != PHASE_WRITE ||
	    d->shutting_down)
		return;
	cut_begin(d);
	drive_log(d, LOG_NOTICE, 0, "power cut: the write pass stops at item "
	    "%" PRIu64 " without a flush", d->last.position);
	drive_work_to(d, WORK_CUT_NEXT);
	engine_cut_job(d->eng);
}

int
drive_cut_resume(struct drive *d)
{
	if (!d->st.cut_pending || d->conf.power_cut_command == NULL ||
	    d->cut.step != CUT_NONE)
		return 0;
	memset(&d->cut, 0, sizeof(d->cut));
	d->cut.pidfd = -1;
	d->cut.t0 = mono_ns();
	d->cut.gone = 1;	/* the run before may have cut it: owe the verify */
	d->cut.cycle = d->st.prog.cycle;
	snprintf(d->cut.trouble, sizeof(d->cut.trouble), "the daemon stopped "
	    "during the cut");
	drive_log(d, LOG_NOTICE, 0, "a power cut was under way when the "
	    "daemon stopped: powering the drive on");
	cut_power_on(d);
	return d->cut.step == CUT_ON;
}

void
drive_cut_free(struct drive *d)
{
	if (d->cut.pidfd >= 0 && d->cut.pid > 0) {
		kill(d->cut.pid, SIGKILL);
		waitpid(d->cut.pid, NULL, 0);
	}
	cut_unwatch(d);
}

int
drive_cmd_powercut(struct drive *d, char *err, size_t len)
{
	if (d->conf.power_cut_command == NULL) {
		snprintf(err, len, "%s: cannot cut the power: no "
		    "power_cut_command in its configuration", d->conf.name);
		errno = EBUSY;
		return -1;
	}
	if (!d->active || d->st.run != RUN_RUNNING || d->cut.step != CUT_NONE) {
		snprintf(err, len, "%s: cannot cut the power: %s", d->conf.name,
		    d->cut.step != CUT_NONE ? "a power cut is under way" :
		    "the drive is not running");
		errno = EBUSY;
		return -1;
	}
	d->st.cut_asked = 1;
	events_add(&d->log, LOG_NOTICE, "power_cut_asked", drive_ev_obj(d), -1,
	    (long long)d->st.host_bytes_written, "power cut asked for: in "
	    "the write pass running, or at the next one");
	drive_checkpoint(d);
	drive_notify(d);
	return 0;
}
