/*
 * main.c: ssdtortured. Arguments, the sd-event loop (signals, the one
 * second tick), sd_notify, reload and shutdown. The main thread owns all
 * state; each drive's I/O runs in its own worker thread (engine.c).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>

#include <json-c/json.h>

#include "config.h"
#include "drive.h"
#include "log.h"
#include "plan.h"
#include "units.h"

#define VERSION		"0.1.0"
#define STOP_DEADLINE_MS 4000

#define EXIT_CLEAN	0
#define EXIT_CONFIG	1
#define EXIT_USAGE	2
#define EXIT_VERIFY	3
#define EXIT_FAILED	4

/* The daemon; owned by the main thread, never seen by workers. */
struct daemon {
	sd_event	 *ev;
	struct config	  conf;
	struct drive	**drives;
	size_t		  ndrives;
	int		  oneshot;
	int		  verify_only;
	unsigned	  progress;	/* seconds between progress lines, 0 = off */
	uint64_t	  ticks;
	int		  stopping;
	int		  started;	/* every drive was activated */
};

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: ssdtortured [-c FILE] [-n] [--oneshot | --verify] "
	    "[-p[SECONDS]] [-v]\n"
	    "  -c, --config FILE   configuration (default %s)\n"
	    "  -n, --check-config  validate, print each drive's plan, exit\n"
	    "      --oneshot       run until every drive is finished, failed or "
	    "stopped\n"
	    "      --verify        one read-only verify pass of every drive, "
	    "then exit\n"
	    "  -p, --progress[=N]  print a progress line per drive every N s "
	    "(5)\n"
	    "  -v, --verbose       debug logging\n"
	    "  -V, --version       print the version\n"
	    "exit status: 0 clean, 1 configuration error, 2 usage, 3 verify "
	    "errors found, 4 a drive failed or was refused\n", CONF_DEFAULT_PATH);
}

/* 0 clean, 3 any verify error, 4 any failed or refused drive. */
static int
exit_code(const struct daemon *dm)
{
	struct drive_status	s;
	size_t			i;
	int			code = EXIT_CLEAN;

	for (i = 0; i < dm->ndrives; i++) {
		drive_status(dm->drives[i], &s);
		if (s.refused || s.run == RUN_FAILED)
			return EXIT_FAILED;
		if (s.errors_total > 0)
			code = EXIT_VERIFY;
	}
	return code;
}

/* One line for systemctl status. */
static void
notify_status(const struct daemon *dm)
{
	struct drive_status	s;
	size_t			i, n[RUN_FAILED + 1] = { 0 };
	uint64_t		tbw = 0, errs = 0;
	char			a[32];

	for (i = 0; i < dm->ndrives; i++) {
		drive_status(dm->drives[i], &s);
		n[s.refused ? RUN_FAILED : s.run]++;
		tbw += s.host_bytes_written;
		errs += s.errors_total;
	}
	sd_notifyf(0, "STATUS=%zu drives: %zu running, %zu paused, %zu "
	    "stopped, %zu finished, %zu failed; written %s; %" PRIu64
	    " verify errors", dm->ndrives, n[RUN_RUNNING], n[RUN_PAUSED],
	    n[RUN_STOPPED], n[RUN_FINISHED], n[RUN_FAILED],
	    units_fmt_dec(tbw, a, sizeof(a)), errs);
}

/* A progress line per drive for a person watching (-p). */
static void
print_progress(const struct daemon *dm)
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
static void
check_done(struct daemon *dm)
{
	size_t	i;

	if (dm->stopping || !dm->started || (!dm->oneshot && !dm->verify_only))
		return;
	for (i = 0; i < dm->ndrives; i++) {
		if (dm->verify_only ? !drive_quiet(dm->drives[i]) :
		    !drive_settled(dm->drives[i]))
			return;
	}
	sd_event_exit(dm->ev, exit_code(dm));
}

static void
on_drive_changed(struct drive *d, void *arg)
{
	struct daemon	*dm = arg;

	(void)d;
	if (dm->ev != NULL)
		check_done(dm);
}

/* Once a second: every drive's counters and checkpoint; status. */
static int
on_tick(sd_event_source *s, uint64_t usec, void *arg)
{
	struct daemon	*dm = arg;
	size_t		 i;

	for (i = 0; i < dm->ndrives; i++)
		drive_tick(dm->drives[i]);
	dm->ticks++;
	notify_status(dm);
	if (dm->progress > 0 && dm->ticks % dm->progress == 0)
		print_progress(dm);
	sd_event_source_set_time(s, usec + 1000000);
	sd_event_source_set_enabled(s, SD_EVENT_ONESHOT);
	return 0;
}

/* Stop every worker, wait a bounded time, checkpoint everything. */
static void
shutdown_drives(struct daemon *dm, struct drive **drives, size_t n)
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

static int
on_terminate(sd_event_source *s, const struct signalfd_siginfo *si,
    void *arg)
{
	struct daemon	*dm = arg;

	(void)s;
	log_info("signal %u: stopping", si->ssi_signo);
	sd_notify(0, "STOPPING=1");
	dm->stopping = 1;
	shutdown_drives(dm, dm->drives, dm->ndrives);
	sd_event_exit(dm->ev, dm->oneshot || dm->verify_only ?
	    exit_code(dm) : EXIT_CLEAN);
	return 0;
}

/* Log a parser's error text line by line. */
static void
log_lines(char *text)
{
	char	*line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		log_warnx("%s", line);
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
		shutdown_drives(dm, &d, 1);
		drive_free(d);
		memmove(&dm->drives[i], &dm->drives[i + 1],
		    (dm->ndrives - i - 1) * sizeof(*dm->drives));
		dm->ndrives--;
	}
}

/* Add a drive and start it. */
static int
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

/* SIGHUP: parse anew; swap only when clean. */
static int
on_reload(sd_event_source *s, const struct signalfd_siginfo *si, void *arg)
{
	struct daemon	*dm = arg;
	struct config	 nc;
	char		*text = NULL;
	size_t		 len = 0;
	FILE		*mem;
	int		 errs;

	(void)s;
	(void)si;
	sd_notify(0, "RELOADING=1");
	if ((mem = open_memstream(&text, &len)) == NULL)
		return 0;
	errs = config_load(dm->conf.path, mem, &nc);
	fclose(mem);
	if (errs > 0) {
		log_lines(text);
		log_warnx("reload: %d error%s in %s; the running configuration "
		    "is kept", errs, errs == 1 ? "" : "s", dm->conf.path);
	} else {
		if (strcmp(nc.state_dir, dm->conf.state_dir) != 0 ||
		    strcmp(nc.socket, dm->conf.socket) != 0)
			log_warnx("reload: state_dir and socket change only "
			    "with a restart");
		reload_apply(dm, &nc);
		log_info("reload: %s applied, %zu drives", dm->conf.path,
		    dm->ndrives);
	}
	free(text);
	config_free(&nc);
	sd_notify(0, "READY=1");
	notify_status(dm);
	check_done(dm);
	return 0;
}

struct options {
	const char	*config;
	int		 check;
	int		 oneshot;
	int		 verify;
	int		 verbose;
	unsigned	 progress;
};

/* Parse the command line; exits on usage errors. */
static void
parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "check-config", no_argument, NULL, 'n' },
		{ "oneshot", no_argument, NULL, 'O' },
		{ "verify", no_argument, NULL, 'W' },
		{ "progress", optional_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int	ch;

	memset(o, 0, sizeof(*o));
	o->config = CONF_DEFAULT_PATH;
	while ((ch = getopt_long(argc, argv, "c:np::vVh", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c': o->config = optarg; break;
		case 'n': o->check = 1; break;
		case 'O': o->oneshot = 1; break;
		case 'W': o->verify = 1; break;
		case 'p': o->progress = optarg ? (unsigned)atoi(optarg) : 5;
			if (o->progress == 0)
				o->progress = 1;
			break;
		case 'v': o->verbose = 1; break;
		case 'V': printf("ssdtortured %s\n", VERSION); exit(0);
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(EXIT_USAGE);
		}
	}
	if (optind != argc || (o->oneshot && o->verify)) {
		usage(stderr);
		exit(EXIT_USAGE);
	}
}

/* -n: the plan of every drive, then "configuration OK". */
static int
check_config(const struct config *c, int errs)
{
	errs += plan_print(c, stdout, stderr);
	if (errs > 0) {
		fprintf(stderr, "%s: %d error%s\n", c->path, errs,
		    errs == 1 ? "" : "s");
		return EXIT_CONFIG;
	}
	printf("configuration OK\n");
	return EXIT_CLEAN;
}

/* Signals, the tick and the watchdog on the event loop. */
static int
setup_loop(struct daemon *dm)
{
	sigset_t	 ss;
	uint64_t	 now;
	int		 rc;

	sigemptyset(&ss);
	sigaddset(&ss, SIGTERM);
	sigaddset(&ss, SIGINT);
	sigaddset(&ss, SIGHUP);
	sigprocmask(SIG_BLOCK, &ss, NULL);	/* before any worker exists */
	signal(SIGPIPE, SIG_IGN);
	if ((rc = sd_event_default(&dm->ev)) < 0 ||
	    (rc = sd_event_add_signal(dm->ev, NULL, SIGTERM, on_terminate,
	    dm)) < 0 ||
	    (rc = sd_event_add_signal(dm->ev, NULL, SIGINT, on_terminate,
	    dm)) < 0 ||
	    (rc = sd_event_add_signal(dm->ev, NULL, SIGHUP, on_reload,
	    dm)) < 0)
		return rc;
	sd_event_now(dm->ev, CLOCK_MONOTONIC, &now);
	if ((rc = sd_event_add_time(dm->ev, NULL, CLOCK_MONOTONIC,
	    now + 1000000, 10000, on_tick, dm)) < 0)
		return rc;
	return sd_event_set_watchdog(dm->ev, 1);
}

/* Create and start every configured drive. */
static void
start_drives(struct daemon *dm)
{
	char	err[512];
	size_t	i;

	for (i = 0; i < dm->conf.ndrives; i++)
		if (daemon_add_drive(dm, &dm->conf.drives[i]) == -1)
			log_warn("drive %s", dm->conf.drives[i].name);
	if (!dm->verify_only)
		return;
	for (i = 0; i < dm->ndrives; i++)
		if (drive_cmd_verify(dm->drives[i], err, sizeof(err)) == -1)
			log_warnx("%s", err);
}

int
main(int argc, char **argv)
{
	struct options	o;
	struct daemon	dm;
	int		errs, rc;

	parse_args(argc, argv, &o);
	log_init("ssdtortured", o.verbose);
	json_c_set_serialization_double_format("%.6g", JSON_C_OPTION_GLOBAL);
	memset(&dm, 0, sizeof(dm));
	errs = config_load(o.config, stderr, &dm.conf);
	if (o.check)
		return check_config(&dm.conf, errs);
	if (errs > 0) {
		fprintf(stderr, "%s: %d error%s; not starting\n", o.config,
		    errs, errs == 1 ? "" : "s");
		return EXIT_CONFIG;
	}
	dm.oneshot = o.oneshot;
	dm.verify_only = o.verify;
	dm.progress = o.progress;
	if ((rc = setup_loop(&dm)) < 0)
		fatalx("event loop: %s", strerror(-rc));
	start_drives(&dm);
	dm.started = 1;
	sd_notify(0, "READY=1");
	notify_status(&dm);
	log_info("started: %zu drive%s, state in %s", dm.ndrives,
	    dm.ndrives == 1 ? "" : "s", dm.conf.state_dir);
	check_done(&dm);
	rc = sd_event_loop(dm.ev);
	if (!dm.stopping)
		shutdown_drives(&dm, dm.drives, dm.ndrives);
	if (dm.progress > 0)
		print_progress(&dm);
	for (size_t i = 0; i < dm.ndrives; i++)
		drive_free(dm.drives[i]);
	free(dm.drives);
	config_free(&dm.conf);
	sd_event_unref(dm.ev);
	return rc < 0 ? EXIT_FAILED : rc;
}
