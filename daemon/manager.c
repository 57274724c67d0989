/*
 * manager.c: the daemon as a whole: adding and removing drives, reload,
 * shutdown, the summary for systemd, and the control socket's view of it
 * (status, commands, events, permissions).
 */
#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "daemon.h"
#include "events.h"
#include "log.h"
#include "safety.h"
#include "units.h"

#define STOP_DEADLINE_MS 4000

/* 0 clean, 3 any verify error, 4 any failed or refused drive. */
int
daemon_exit_code(const struct daemon *dm)
{
	struct drive_status	s;
	size_t			i;
	int			code = EXIT_CLEAN;

	for (i = 0; i < dm->ndrives; i++) {
		drive_status(dm->drives[i], &s);
		if (s.refused || s.run == RUN_FAILED)
			return EXIT_FAILED;
		if (s.errors_this_run > 0)
			code = EXIT_VERIFY;
	}
	return code;
}

/* One line for systemctl status. */
void
daemon_notify_status(const struct daemon *dm)
{
	struct drive_status	s;
	size_t			i, n[RUN_FAILED + 1] = { 0 }, behind = 0;
	uint64_t		tbw = 0, errs = 0;
	char			a[32], rec[128] = "";
	const char		*why = NULL;

	for (i = 0; i < dm->ndrives; i++) {
		drive_status(dm->drives[i], &s);
		n[s.refused ? RUN_FAILED : s.run]++;
		tbw += s.host_bytes_written;
		errs += s.errors_total;
		if (!s.records_current && behind++ == 0)
			why = s.records_why;
	}
	if (behind > 0)
		snprintf(rec, sizeof(rec), "; records of %zu drive%s behind "
		    "(state directory: %s)", behind, behind == 1 ? "" : "s",
		    why);
	sd_notifyf(0, "STATUS=%zu drives: %zu running, %zu paused, %zu "
	    "stopped, %zu finished, %zu failed; written %s; %" PRIu64
	    " verify errors%s", dm->ndrives, n[RUN_RUNNING], n[RUN_PAUSED],
	    n[RUN_STOPPED], n[RUN_FINISHED], n[RUN_FAILED],
	    units_fmt_dec(tbw, a, sizeof(a)), errs, rec);
}

/* A progress line per drive for a person watching (-p). */
void
daemon_print_progress(const struct daemon *dm)
{
	struct drive_status	s;
	size_t			i;
	char			a[32], b[32];

	for (i = 0; i < dm->ndrives; i++) {
		drive_status(dm->drives[i], &s);
		printf("%-12s %-8s %-6s %5.1f%%  cycle %-4" PRIu64
		    " written %-10s W %7.1f MB/s  R %7.1f MB/s  errors %"
		    PRIu64 "%s%s\n", s.name, s.refused ? "refused" :
		    run_state_name(s.run), s.verifying ? "verify" :
		    phase_name(s.phase), s.phase_progress * 100.0, s.cycle,
		    units_fmt_dec(s.host_bytes_written, a, sizeof(a)),
		    s.write_bps / 1e6, s.read_bps / 1e6, s.errors_total,
		    s.eta_sec ? "  ETA " : "",
		    s.eta_sec ? units_fmt_duration(s.eta_sec, b, sizeof(b)) : "");
	}
	fflush(stdout);
}

/* For --oneshot and --verify: stop the loop once every drive is settled. */
void
daemon_check_done(struct daemon *dm)
{
	size_t	i;

	if (dm->stopping || !dm->started || (!dm->oneshot && !dm->verify_only))
		return;
	for (i = 0; i < dm->ndrives; i++) {
		if (dm->verify_only ? !drive_quiet(dm->drives[i]) :
		    !drive_settled(dm->drives[i]))
			return;
	}
	sd_event_exit(dm->ev, daemon_exit_code(dm));
}

static void
on_drive_changed(struct drive *d, void *arg)
{
	struct daemon	*dm = arg;

	(void)d;
	if (dm->ev != NULL)
		daemon_check_done(dm);
}

/* Stop every worker, wait a bounded time, checkpoint everything. */
void
daemon_shutdown_drives(struct daemon *dm, struct drive **drives, size_t n)
{
	struct timespec	ts = { 0, 5000000 };
	size_t		i;
	int		busy, waited = 0;

	for (i = 0; i < n; i++)
		drive_shutdown_begin(drives[i]);
	do {
		busy = 0;
		for (i = 0; i < n; i++)
			busy |= drive_busy(drives[i]);
		if (busy)
			nanosleep(&ts, NULL);
		waited += 5;
	} while (busy && waited < STOP_DEADLINE_MS);
	if (busy)
		log_warnx("a worker did not stop within %d ms; checkpointing "
		    "what is known", STOP_DEADLINE_MS);
	for (i = 0; i < n; i++)
		drive_shutdown_end(drives[i]);
	(void)dm;
}

/* Drop the drives a new configuration no longer has. */
static void
reload_remove(struct daemon *dm, const struct config *nc)
{
	size_t	i = 0;

	while (i < dm->ndrives) {
		struct drive *d = dm->drives[i];

		if (config_find(nc, drive_name(d)) != NULL) {
			i++;
			continue;
		}
		log_info("reload: drive %s removed", drive_name(d));
		if (dm->ctl != NULL)
			control_drive_removed(dm->ctl, drive_name(d));
		daemon_shutdown_drives(dm, &d, 1);
		drive_free(d);
		memmove(&dm->drives[i], &dm->drives[i + 1],
		    (dm->ndrives - i - 1) * sizeof(*dm->drives));
		dm->ndrives--;
	}
}

/* drive_owner_fn: the first other drive with the same target. */
static int
owner_of(const struct drive *self, const char *path, char *who, size_t len,
    void *arg)
{
	struct daemon		*dm = arg;
	struct target_id	 id, other;
	struct drive_status	 s;
	size_t			 i;

	if (safety_target_id(path, &id) == -1)
		return 0;
	for (i = 0; i < dm->ndrives; i++) {
		if (dm->drives[i] == self ||
		    drive_target_id(dm->drives[i], &other) == -1 ||
		    !safety_same_target(&id, &other))
			continue;
		drive_status(dm->drives[i], &s);
		snprintf(who, len, "drive %s (%s)", s.name, s.device);
		return 1;
	}
	return 0;
}

/* Add a drive and start it. */
int
daemon_add_drive(struct daemon *dm, const struct drive_conf *c)
{
	struct drive	**nd, *d;

	nd = realloc(dm->drives, (dm->ndrives + 1) * sizeof(*nd));
	if (nd == NULL)
		return -1;
	dm->drives = nd;
	if ((d = drive_new(c, dm->conf.state_dir, dm->ev, on_drive_changed,
	    dm)) == NULL)
		return -1;
	dm->drives[dm->ndrives++] = d;
	drive_set_owner_check(d, owner_of);
	drive_hold(d, dm->verify_only);
	drive_activate(d, !dm->verify_only);	/* a refusal is reported inside */
	return 0;
}

/* Apply a clean new configuration drive by drive. */
static void
reload_apply(struct daemon *dm, struct config *nc)
{
	char	err[512];
	size_t	i;
	struct drive *d;

	reload_remove(dm, nc);
	for (i = 0; i < dm->ndrives; i++) {
		d = dm->drives[i];
		if (drive_reconfigure(d, config_find(nc, drive_name(d)), err,
		    sizeof(err)) == -1)
			log_warnx("reload: %s", err);
	}
	for (i = 0; i < nc->ndrives; i++) {
		size_t j;

		for (j = 0; j < dm->ndrives; j++)
			if (strcmp(drive_name(dm->drives[j]),
			    nc->drives[i].name) == 0)
				break;
		if (j == dm->ndrives) {
			log_info("reload: drive %s added", nc->drives[i].name);
			if (daemon_add_drive(dm, &nc->drives[i]) == -1)
				log_warn("reload: drive %s", nc->drives[i].name);
		}
	}
}

static int
str_differs(const char *a, const char *b)
{
	return (a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0);
}

/* [daemon] keys: those conf_keys.c marks live apply at once, not others. */
static void
reload_daemon_keys(struct daemon *dm, struct config *nc)
{
	char	keys[256];
	int	admin = str_differs(nc->admin_group, dm->conf.admin_group);

	if (config_daemon_reload(&dm->conf, nc, keys, sizeof(keys)) != NULL)
		log_warnx("reload: %s change only with a restart", keys);
	if (admin)
		log_info("reload: admin_group is now %s", dm->conf.admin_group ?
		    dm->conf.admin_group : "(none: root only)");
	if (dm->ctl != NULL)
		control_set_limits(dm->ctl, dm->conf.max_connections,
		    (unsigned)dm->conf.client_timeout);
}

/*
 * Parse anew; apply only when clean. systemd hears of it either way (from
 * SIGHUP or from a client); MONOTONIC_USEC= lets Type=notify-reload tell
 * this reload from an earlier one.
 */
int
daemon_reload(struct daemon *dm, json_object *errors)
{
	struct config	 nc;
	struct timespec	 ts;
	char		*text = NULL, *line, *save = NULL;
	size_t		 len = 0;
	FILE		*mem;
	int		 errs;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu",
	    (unsigned long long)ts.tv_sec * 1000000ULL +
	    (unsigned long long)ts.tv_nsec / 1000);
	if ((mem = open_memstream(&text, &len)) == NULL) {
		sd_notify(0, "READY=1");
		return -1;
	}
	errs = config_load(dm->conf.path, mem, &nc);
	fclose(mem);
	if (errs > 0) {
		for (line = strtok_r(text, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			log_warnx("%s", line);
			if (errors != NULL)
				json_object_array_add(errors,
				    json_object_new_string(line));
		}
		log_warnx("reload: %d error%s in %s; the running configuration "
		    "is kept", errs, errs == 1 ? "" : "s", dm->conf.path);
	} else {
		reload_daemon_keys(dm, &nc);
		reload_apply(dm, &nc);
		log_info("reload: %s applied, %zu drives", dm->conf.path,
		    dm->ndrives);
	}
	free(text);
	config_free(&nc);
	daemon_notify_status(dm);
	sd_notify(0, "READY=1");
	daemon_check_done(dm);
	return errs > 0 ? -1 : 0;
}

struct drive *
daemon_find(const struct daemon *dm, const char *name)
{
	size_t	i;

	for (i = 0; i < dm->ndrives; i++)
		if (strcmp(drive_name(dm->drives[i]), name) == 0)
			return dm->drives[i];
	return NULL;
}

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

	drive_status(d, &s);
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
	ADD("smart", drive_smart_status(d));
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
	};
	struct daemon		*dm = arg;
	struct drive		*d;
	struct drive_status	 s;

	if ((d = daemon_find(dm, name)) == NULL)
		return -ENOENT;
	if (fn[cmd](d, msg, msglen) == 0)
		return 0;
	drive_status(d, &s);
	snprintf(state, statelen, "%s", s.refused ? "refused" :
	    run_state_name(s.run));
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
    json_object *out)
{
	struct drive	*d;

	if ((d = daemon_find(arg, name)) == NULL)
		return -ENOENT;
	return drive_errors_json(d, pass, resolution, out) == 0 ? 0 : -ENODATA;
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
	ops->reload = op_reload;
	ops->authorize = op_authorize;
}

void
daemon_archive_tick(struct daemon *dm)
{
	char	file[PATH_MAX + 64], vals[512];
	time_t	now = time(NULL);
	size_t	i;
	uint64_t hb;

	if (dm->arch == NULL || now == dm->last_archive)
		return;
	dm->last_archive = now;
	for (i = 0; i < dm->ndrives; i++) {
		struct drive *d = dm->drives[i];

		if (drive_archive_values(d, now, vals, sizeof(vals)) == -1)
			continue;
		archive_file(dm->arch, dm->conf.state_dir, drive_name(d), file,
		    sizeof(file));
		if (!drive_archive_opened(d, 1)) {
			hb = drive_smart_interval(d) * 3;
			archive_open(dm->arch, file, hb < 300 ? 300 : (unsigned)hb);
		}
		archive_update(dm->arch, file, vals);
	}
}
