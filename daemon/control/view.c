/*
 * view.c: the control socket's view of the daemon: each drive's status
 * object, the operations behind the methods (methods.c), and who may call
 * the mutating ones.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ckpt_read.h"
#include "daemon.h"
#include "drive_ckpt.h"
#include "drive_cmd.h"
#include "drive_errors.h"
#include "ckpt_long.h"
#include "drive_smart.h"
#include "drive_timeline.h"
#include "events.h"
#include "log.h"

/* Whether a drive's records are on disk: a Records object. */
static json_object *
records_object(const struct drive_status *s)
{
	json_object	*o = json_object_new_object();

	json_object_object_add(o, "current",
	    json_object_new_boolean(s->records_current));
	json_object_object_add(o, "behind_seconds",
	    json_object_new_uint64(s->records_behind_sec));
	json_object_object_add(o, "why", json_object_new_string(
	    s->records_why ? s->records_why : ""));
	json_object_object_add(o, "kept_lines",
	    json_object_new_uint64(s->records_kept));
	return o;
}

/* One drive's status as a DriveStatus object. */
static json_object *
status_object(const struct daemon *dm, const struct drive *d)
{
	struct drive_status	 s;
	json_object		*o = json_object_new_object(), *e;
	int			 i;

	drive_status_get(d, &s);
	e = json_object_new_object();
	for (i = 1; i < BLK_NCLASS; i++)
		json_object_object_add(e, blk_class_name(i),
		    json_object_new_uint64(s.errors[i]));
#define ADD(k, v) json_object_object_add(o, k, v)
	ADD("name", json_object_new_string(s.name));
	ADD("device", json_object_new_string(s.device));
	ADD("serial", json_object_new_string(s.serial ? s.serial : ""));
	ADD("model", json_object_new_string(s.model ? s.model : ""));
	ADD("state", json_object_new_string(run_state_name(s.run)));
	ADD("reason", json_object_new_string(s.reason ? s.reason : ""));
	ADD("refused", json_object_new_boolean(s.refused));
	ADD("phase", json_object_new_string(phase_name(s.phase)));
	ADD("phase_progress", json_object_new_double(s.phase_progress));
	ADD("eta_seconds", json_object_new_uint64(s.eta_sec));
	ADD("verifying", json_object_new_boolean(s.verifying));
	ADD("cycle", json_object_new_uint64(s.cycle));
	ADD("cycles_done", json_object_new_uint64(s.cycles_done));
	ADD("capacity", json_object_new_uint64(s.capacity));
	ADD("span_bytes", json_object_new_uint64(s.span_bytes));
	ADD("host_bytes_written", json_object_new_uint64(s.host_bytes_written));
	ADD("host_bytes_read", json_object_new_uint64(s.host_bytes_read));
	ADD("write_bytes_per_sec", json_object_new_double(s.write_bps));
	ADD("read_bytes_per_sec", json_object_new_double(s.read_bps));
	ADD("flushes", json_object_new_uint64(s.flushes));
	ADD("flush_latency_seconds", s.flush_known ?
	    json_object_new_double(s.flush_lat_sec) : NULL);
	ADD("flush_latency_max_seconds", s.flush_known ?
	    json_object_new_double(s.flush_lat_max_sec) : NULL);
	ADD("errors", e);
	ADD("errors_total", json_object_new_uint64(s.errors_total));
	ADD("power_losses", json_object_new_uint64(s.power_losses));
	ADD("unflushed_kept", json_object_new_uint64(s.unflushed_kept));
	ADD("power_verify_owed", json_object_new_boolean(s.power_verify));
	ADD("power_cuts", json_object_new_uint64(s.power_cuts));
	ADD("power_cut", s.power_cut_state != NULL ?
	    json_object_new_string(s.power_cut_state) : NULL);
	ADD("smart", drive_smart_status(d));
	ADD("checkpoint", drive_ckpt_status(d));
	ADD("probe_bytes_written", json_object_new_uint64(s.probe_bytes_written));
	ADD("rated_tbw_bytes", s.rated_tbw > 0 ?
	    json_object_new_uint64(s.rated_tbw) : NULL);
	ADD("created", json_object_new_uint64(s.created));
	ADD("records", records_object(&s));
	if (dm->arch != NULL) {
		char	file[PATH_MAX + 64];

		archive_file(dm->arch, dm->conf.state_dir, s.name, file,
		    sizeof(file));
		ADD("archive", archive_json(dm->arch, file));
	} else
		ADD("archive", NULL);
#undef ADD
	return o;
}

static int
op_status(void *arg, const char *name, json_object *drives)
{
	struct daemon	*dm = arg;
	struct drive	*d;
	size_t		 i;

	if (name != NULL) {
		if ((d = daemon_find(dm, name)) == NULL)
			return -ENOENT;
		json_object_array_add(drives, status_object(dm, d));
		return 0;
	}
	for (i = 0; i < dm->ndrives; i++)
		json_object_array_add(drives, status_object(dm,
		    dm->drives[i]));
	return 0;
}

static int
op_command(void *arg, enum ctl_cmd cmd, const char *name, char *msg,
    size_t msglen, char *state, size_t statelen)
{
	static int (*const fn[])(struct drive *, char *, size_t) = {
		[CMD_START] = drive_cmd_start,
		[CMD_STOP] = drive_cmd_stop,
		[CMD_PAUSE] = drive_cmd_pause,
		[CMD_RESUME] = drive_cmd_resume,
		[CMD_VERIFY] = drive_cmd_verify,
		[CMD_CHECKPOINT] = drive_cmd_checkpoint,
		[CMD_POWERCUT] = drive_cmd_powercut,
	};
	struct daemon		*dm = arg;
	struct drive		*d;
	struct drive_status	 s;

	if ((d = daemon_find(dm, name)) == NULL)
		return -ENOENT;
	if (fn[cmd](d, msg, msglen) == 0)
		return 0;
	drive_status_get(d, &s);
	snprintf(state, statelen, "%s", state_word(s.run, s.refused));
	return -EBUSY;
}

static int
op_smart(void *arg, const char *name, json_object *out)
{
	struct drive	*d;

	if ((d = daemon_find(arg, name)) == NULL)
		return -ENOENT;
	return drive_smart_detail(d, out) == 0 ? 0 : -ENODATA;
}

static int
op_errors(void *arg, const char *name, uint64_t pass, uint32_t resolution,
    int again, json_object *out)
{
	struct drive	*d;

	if ((d = daemon_find(arg, name)) == NULL)
		return -ENOENT;
	return drive_errors_json(d, pass, resolution, again, out) == 0 ? 0 :
	    -ENODATA;
}

static int
op_events(void *arg, const char *name, int count, json_object *events)
{
	struct daemon	*dm = arg;
	struct drive	*d;
	char		 path[PATH_MAX + 32];

	if ((d = daemon_find(dm, name)) == NULL)
		return -ENOENT;
	drive_events_path(d, path, sizeof(path));
	events_tail(path, count, events);
	return 0;
}

/* Every line of the drive's FILE (checkpoints.jsonl or smart.jsonl) that
 * `rd` takes; a bad line is skipped (the file is read anew each call, so
 * warned about each time). */
static int
jsonl_op(struct daemon *dm, const char *name, enum statedir_file file,
    int (*rd)(const char *, json_object *, struct ckpt_skipped *),
    json_object *out)
{
	struct ckpt_skipped	 sk;
	char			 dir[PATH_MAX], path[PATH_MAX + 32];

	if (daemon_find(dm, name) == NULL)
		return -ENOENT;
	if (statedir_drive_dir(dir, sizeof(dir), dm->conf.state_dir,
	    name) == -1 || statedir_path(path, sizeof(path), dir, file) == -1)
		return 0;
	if (rd(path, out, &sk) == -1)
		log_warn("%s: cannot read %s", name, path);
	else if (sk.lines > 0)
		log_warnx("%s: %s: %zu line%s skipped, the first (line %zu): "
		    "%s", name, path, sk.lines, sk.lines == 1 ? "" : "s",
		    sk.first, sk.why);
	return 0;
}

static int
op_checkpoints(void *arg, const char *name, json_object *probes)
{
	return jsonl_op(arg, name, STATEDIR_CHECKPOINTS, ckpt_read, probes);
}

static int
op_snapshots(void *arg, const char *name, json_object *snaps)
{
	return jsonl_op(arg, name, STATEDIR_SMART, snap_read, snaps);
}

static int
op_timelines(void *arg, const char *name, int64_t pass, json_object *out)
{
	struct drive	*d;

	if ((d = daemon_find(arg, name)) == NULL)
		return -ENOENT;
	drive_timelines(d, pass, out);
	return 0;
}

static int
op_series(void *arg, const char *name, uint64_t ckpt, json_object *out)
{
	struct drive	*d;

	if ((d = daemon_find(arg, name)) == NULL)
		return -ENOENT;
	ckpt_long_series(d, ckpt, out);
	return 0;
}

static int
op_reload(void *arg, json_object *errors)
{
	return daemon_reload(arg, errors);
}

/* Is `gid` the peer's primary group or one of its supplementary groups? */
static int
peer_in_group(int fd, gid_t primary, gid_t gid)
{
	gid_t		groups[256];
	socklen_t	len = sizeof(groups);
	size_t		i;

	if (primary == gid)
		return 1;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) == -1)
		return 0;	/* fail closed */
	for (i = 0; i < len / sizeof(gid_t); i++)
		if (groups[i] == gid)
			return 1;
	return 0;
}

/* Mutating calls: uid 0, or a member of admin_group. Asked anew each call. */
static int
op_authorize(void *arg, const struct peer *p, const char *method)
{
	struct daemon	*dm = arg;
	struct ucred	 cr = { -1, (uid_t)-1, (gid_t)-1 };
	socklen_t	 len = sizeof(cr);
	int		 ok = 0;

	if (getsockopt(p->fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) == 0) {
		ok = cr.uid == 0 || (dm->conf.admin_group != NULL &&
		    peer_in_group(p->fd, cr.gid, dm->conf.admin_gid));
	}
	if (!ok)
		log_warnx("control: %s denied to uid %u (pid %d): needs root "
		    "or group %s", method, (unsigned)cr.uid, (int)cr.pid,
		    dm->conf.admin_group ? dm->conf.admin_group : "(none set)");
	return ok;
}

void
daemon_control_ops(struct daemon *dm, struct control_ops *ops)
{
	ops->arg = dm;
	ops->status = op_status;
	ops->command = op_command;
	ops->events = op_events;
	ops->smart = op_smart;
	ops->errors = op_errors;
	ops->checkpoints = op_checkpoints;
	ops->snapshots = op_snapshots;
	ops->timelines = op_timelines;
	ops->series = op_series;
	ops->reload = op_reload;
	ops->authorize = op_authorize;
}
