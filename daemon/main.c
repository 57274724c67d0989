/*
 * main.c: ssdtortured. Arguments, the sd-event loop (signals, the one
 * second tick), sd_notify, reload and shutdown. The main thread owns all
 * state; each drive's I/O runs in its own worker thread (engine.c).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>

#include <json-c/json.h>

#include "config.h"
#include "cpushare.h"
#include "daemon.h"
#include "drive.h"
#include "drive_cmd.h"
#include "engine.h"
#include "events.h"
#include "log.h"
#include "plan.h"
#include "statedir.h"
#include "units.h"

#define VERSION		"0.1.0"

/* The longest the drives wait at start for their archives to be made. */
#define ARCHIVE_WAIT_MS	30000

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
	    "exit status: 0 clean, 1 configuration error or state directory "
	    "in use, 2 usage, 3 verify "
	    "errors found, 4 a drive failed or was refused\n", CONF_DEFAULT_PATH);
}

/*
 * A tick that comes seconds late means the loop was blocked (checkpoints
 * and the metrics file are fsynced on it): say so, and go on from now
 * rather than firing the missed ticks in a burst. Returns the next time.
 */
static uint64_t
tick_next(const struct daemon *dm, uint64_t due)
{
	uint64_t	now;

	if (sd_event_now(dm->ev, CLOCK_MONOTONIC, &now) < 0 ||
	    now < due + 2000000)
		return due + 1000000;
	log_warnx("the main loop was blocked for %.1f s (slow storage under "
	    "the state directory or the metrics file?)", (now - due) / 1e6);
	return now + 1000000;
}

/* Once a second: every drive's counters and checkpoint; status. */
static int
on_tick(sd_event_source *s, uint64_t usec, void *arg)
{
	struct daemon	*dm = arg;

	daemon_publish(dm);
	sd_event_source_set_time(s, tick_next(dm, usec));
	sd_event_source_set_enabled(s, SD_EVENT_ONESHOT);
	return 0;
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
	daemon_shutdown_drives(dm, dm->drives, dm->ndrives);
	sd_event_exit(dm->ev, dm->oneshot || dm->verify_only ?
	    daemon_exit_code(dm) : EXIT_CLEAN);
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
		/* not in usage(): the key table, for the tests of the manual
		 * and of -n, which read it rather than a copy */
		{ "list-keys", no_argument, NULL, 'K' },
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
		case 'K': config_list_keys(stdout); exit(0);
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

/* SIGHUP: re-read the configuration. */
static int
on_reload(sd_event_source *s, const struct signalfd_siginfo *si, void *arg)
{
	struct daemon	*dm = arg;

	(void)s;
	(void)si;
	daemon_reload(dm, NULL);
	return 0;
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

/* Forward every new event to the clients that follow its drive. */
static void
on_event(void *arg, const char *drive, json_object *event)
{
	struct daemon	*dm = arg;

	if (dm->ctl != NULL)
		control_event(dm->ctl, drive, event);
}

/* Is a daemon already answering on this socket? */
static int
socket_alive(const char *path)
{
	struct sockaddr_un	sun;
	int			fd, alive;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return 0;
	alive = connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0;
	close(fd);
	return alive;
}

/* The control socket; -1 when it cannot be had. */
static int
start_control(struct daemon *dm)
{
	struct control_conf	cc;
	struct control_ops	ops;

	cc.path = dm->conf.socket;
	cc.group = dm->conf.socket_group ? dm->conf.socket_gid : 0;
	cc.max_connections = dm->conf.max_connections;
	cc.timeout_sec = (unsigned)dm->conf.client_timeout;
	cc.max_queued = 4 * 1024 * 1024;
	if (sd_listen_fds(0) <= 0 && socket_alive(cc.path)) {
		log_warnx("control: another ssdtortured answers on %s; not "
		    "taking it over", cc.path);
		return -1;
	}
	daemon_control_ops(dm, &ops);
	if ((dm->ctl = control_new(dm->ev, &cc, &ops)) == NULL) {
		log_warn("control: cannot listen on %s", cc.path);
		return -1;
	}
	events_set_listener(on_event, dm);
	return 0;
}

/*
 * The free space of state_dir against what the records need. Archives
 * kept by rrdcached are not in it; one that exists has its size already.
 */
static void
check_space(const struct daemon *dm)
{
	char		file[PATH_MAX + 64];
	struct stat	st;
	uint64_t	arch = 0;
	size_t		i;

	for (i = 0; dm->arch != NULL && dm->conf.rrdcached == NULL &&
	    i < dm->ndrives; i++) {
		archive_file(dm->arch, dm->conf.state_dir,
		    drive_name(dm->drives[i]), file, sizeof(file));
		if (stat(file, &st) == -1)
			arch += records_archive_bytes();
	}
	records_space_check(dm->conf.state_dir, dm->drives, dm->ndrives, arch);
}

/*
 * The archives of a new host, before any drive's I/O: made on an idle
 * host rather than against 24 drives' workers, and holding the run from
 * its first second. Bounded: a slow rrdcached or disk never keeps the
 * drives from starting; what is not made yet follows while they run.
 */
static void
create_archives(struct daemon *dm)
{
	size_t	i;

	if (dm->arch == NULL)
		return;
	for (i = 0; i < dm->ndrives; i++)
		daemon_archive_open(dm, dm->drives[i]);
	if (!archive_wait_created(dm->arch, ARCHIVE_WAIT_MS))
		log_warnx("archive: not every archive could be made before "
		    "the drives start; the writer goes on while they run");
}

/*
 * Create and activate every configured drive, make their archives, then
 * start them: their I/O begins together, not one activation (safety
 * checks, state, worker: tens of ms on a busy host) after the other.
 */
static void
start_drives(struct daemon *dm)
{
	char	err[512];
	size_t	i;

	for (i = 0; i < dm->conf.ndrives; i++)
		if (daemon_add_drive(dm, &dm->conf.drives[i], 0) == -1)
			log_warn("drive %s", dm->conf.drives[i].name);
	if (!dm->verify_only) {
		create_archives(dm);
		for (i = 0; i < dm->ndrives; i++)
			drive_schedule(dm->drives[i]);
		return;
	}
	for (i = 0; i < dm->ndrives; i++)
		if (drive_cmd_verify(dm->drives[i], err, sizeof(err)) == -1)
			log_warnx("%s", err);
}

/*
 * Before any drive's state is read (and before the control socket): the
 * state directory's lock, held until the process ends. A reload never
 * lets go of it. -n reads no state and takes no lock.
 */
static int
own_state_dir(struct daemon *dm)
{
	char	err[PATH_MAX + 256];

	if ((dm->lock_fd = statedir_lock(dm->conf.state_dir, err,
	    sizeof(err))) == -1) {
		log_warnx("not starting: %s", err);
		return -1;
	}
	return 0;
}

/* The archive writer, the drives, READY=1. */
static void
start_all(struct daemon *dm)
{
	if (!dm->verify_only && (dm->arch = archive_new(dm->conf.rrdcached,
	    dm->conf.rrdcached_dir)) == NULL)
		log_warnx("archive: cannot start its writer; no RRD archives");
	start_drives(dm);
	if (!dm->verify_only)
		check_space(dm);
	dm->started = 1;
	sd_notify(0, "READY=1");
	daemon_notify_status(dm);
	log_info("started: %zu drive%s, state in %s", dm->ndrives,
	    dm->ndrives == 1 ? "" : "s", dm->conf.state_dir);
	daemon_check_done(dm);
}

/* How long clients and the tick could have been kept waiting. */
static void
log_loop(const struct loop_stats *ls)
{
	log_info("main loop: %" PRIu64 " turns, the longest %.1f ms (%.1f ms "
	    "on the CPU), %" PRIu64 " longer than %llu ms", ls->turns,
	    (double)ls->max_ns / 1e6, (double)ls->max_cpu_ns / 1e6, ls->slow,
	    LOOP_SLOW_NS / 1000000);
}

/* The loop ended: drives checkpointed and stopped, everything freed. */
static void
stop_all(struct daemon *dm)
{
	size_t	i;

	if (!dm->stopping)
		daemon_shutdown_drives(dm, dm->drives, dm->ndrives);
	if (dm->progress > 0)
		daemon_print_progress(dm);
	events_set_listener(NULL, NULL);
	control_free(dm->ctl);
	archive_free(dm->arch);		/* sends what is queued */
	for (i = 0; i < dm->ndrives; i++)
		drive_free(dm->drives[i]);
	free(dm->drives);
	checkpoint_queue_free();
	config_free(&dm->conf);
	sd_event_unref(dm->ev);
}

/*
 * The main loop (checkpoints, ssdctl) needs little CPU but must get it on
 * a host whose CPUs the drives' I/O keeps busy. Where allowed
 * (CAP_SYS_NICE, or a unit's Nice=), it runs MAIN_BOOST below the nice it
 * was started with, and the threads it starts inherit that: the I/O
 * workers step back up by as much (engine.c), to the start nice, so they
 * compete for CPU as fio's jobs would. Where not allowed, the workers
 * alone step down: the loop still comes first, at some cost in
 * throughput when the CPUs are saturated.
 */
#define MAIN_BOOST	ENGINE_WORKER_NICE

static void
boost_main_thread(void)
{
	int	n;

	if (engine_nice_step(-MAIN_BOOST, &n) == -1)
		log_debug("main loop at nice %d (%s)", n, strerror(errno));
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
	if (o.check || errs > 0) {
		rc = o.check ? check_config(&dm.conf, errs) : EXIT_CONFIG;
		if (!o.check)
			fprintf(stderr, "%s: %d error%s; not starting\n",
			    o.config, errs, errs == 1 ? "" : "s");
		config_free(&dm.conf);
		return rc;
	}
	if (own_state_dir(&dm) == -1) {
		config_free(&dm.conf);
		return EXIT_CONFIG;
	}
	boost_main_thread();	/* before any thread is started */
	dm.oneshot = o.oneshot;
	dm.verify_only = o.verify;
	dm.progress = o.progress;
	if ((rc = setup_loop(&dm)) < 0)
		fatalx("event loop: %s", strerror(-rc));
	if (start_control(&dm) == -1 && !dm.oneshot && !dm.verify_only) {
		config_free(&dm.conf);
		sd_event_unref(dm.ev);
		return EXIT_FAILED;
	}
	start_all(&dm);
	cpushare_set(dm.ndrives);
	rc = loop_run(dm.ev, &dm.loop);
	log_loop(&dm.loop);
	stop_all(&dm);
	return rc < 0 ? EXIT_FAILED : rc;
}
