/*
 * manager.c: the daemon as a whole: adding and removing drives, reload,
 * shutdown, the exit status. What it publishes once a second is in
 * publish.c, the control socket's view of it in view.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "cpushare.h"
#include "daemon.h"
#include "log.h"
#include "safety.h"

#define STOP_DEADLINE_MS 4000

/* 0 clean, 3 any verify error, 4 any failed or refused drive. */
int
daemon_exit_code(const struct daemon *dm)
{
	struct drive_status	s;
	size_t			i;
	int			code = EXIT_CLEAN;

	for (i = 0; i < dm->ndrives; i++) {
		drive_status_get(dm->drives[i], &s);
		if (s.refused || s.run == RUN_FAILED)
			return EXIT_FAILED;
		if (s.errors_this_run > 0)
			code = EXIT_VERIFY;
	}
	return code;
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
		drive_status_get(dm->drives[i], &s);
		snprintf(who, len, "drive %s (%s)", s.name, s.device);
		return 1;
	}
	return 0;
}

int
daemon_add_drive(struct daemon *dm, const struct drive_conf *c, int schedule)
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
	/* a refusal is reported inside */
	drive_activate(d, schedule && !dm->verify_only);
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
			if (daemon_add_drive(dm, &nc->drives[i], 1) == -1)
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
		cpushare_set(dm->ndrives);
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
