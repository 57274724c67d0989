/*
 * ssdctl: control ssdtortured over its Varlink socket.
 * Exit status: 0 success, 1 an error from the daemon (or none running),
 * 2 usage.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "ckpt.h"
#include "client.h"
#include "graph.h"
#include "output.h"
#include "probes.h"
#include "proto.h"
#include "report.h"

#define EXIT_DAEMON	1
#define EXIT_USAGE	2

struct ctx {
	const char	*socket;
	int		 json;
	struct client	 cl;
};

struct command {
	const char	*name;
	const char	*args;		/* for usage */
	int		 min, max;	/* operands */
	int		(*run)(struct ctx *, int, char **);
	const char	*method;	/* drive commands */
	const char	*help;
};

static void	usage(FILE *);

/* Connect, or say plainly that the daemon is not there. */
static int
ctx_connect(struct ctx *x)
{
	if (client_connect(&x->cl, x->socket) == 0)
		return 0;
	fprintf(stderr, "ssdctl: cannot connect to %s: %s (is ssdtortured "
	    "running? see: systemctl status ssdtortured)\n", x->socket,
	    strerror(errno));
	return -1;
}

/* Print a daemon error for a person. */
static void
print_error(const char *error, json_object *p)
{
	json_object	*v, *errs;
	size_t		 i;

	if (json_object_object_get_ex(p, "message", &v))
		fprintf(stderr, "ssdctl: %s\n", json_object_get_string(v));
	else if (strcmp(error, PROTO_INTERFACE ".NoSuchDrive") == 0 &&
	    json_object_object_get_ex(p, "drive", &v))
		fprintf(stderr, "ssdctl: no such drive: %s\n",
		    json_object_get_string(v));
	else if (strcmp(error, PROTO_SERVICE ".PermissionDenied") == 0)
		fprintf(stderr, "ssdctl: permission denied (root or the "
		    "admin_group of ssdtortured.conf is needed)\n");
	else if (strcmp(error, PROTO_INTERFACE ".ReloadFailed") == 0 &&
	    json_object_object_get_ex(p, "errors", &errs)) {
		fprintf(stderr, "ssdctl: reload rejected; the running "
		    "configuration is kept:\n");
		for (i = 0; i < json_object_array_length(errs); i++)
			fprintf(stderr, "  %s\n", json_object_get_string(
			    json_object_array_get_idx(errs, i)));
	} else
		fprintf(stderr, "ssdctl: %s %s\n", error,
		    json_object_to_json_string(p));
}

/* One call, one reply. *out gets the parameters on success. */
static int
call(struct ctx *x, const char *method, json_object *params,
    json_object **out)
{
	char	*error;
	int	 cont;

	*out = NULL;
	if (ctx_connect(x) == -1) {
		json_object_put(params);
		return EXIT_DAEMON;
	}
	if (client_call(&x->cl, method, params, 0) == -1 ||
	    client_read(&x->cl, out, &error, &cont) == -1) {
		fprintf(stderr, "ssdctl: %s: connection lost\n", x->socket);
		return EXIT_DAEMON;
	}
	if (error != NULL) {
		print_error(error, *out);
		json_object_put(*out);
		*out = NULL;
		return EXIT_DAEMON;
	}
	return 0;
}

static json_object *
drive_param(const char *drive)
{
	json_object	*p = json_object_new_object();

	json_object_object_add(p, "drive", json_object_new_string(drive));
	return p;
}

static void
print_json(json_object *o)
{
	printf("%s\n", json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
}

/* A call whose reply only --json prints (the exit status says the rest). */
static int
call_quiet(struct ctx *x, const char *method, json_object *params)
{
	json_object	*r;
	int		 rc;

	if ((rc = call(x, method, params, &r)) != 0)
		return rc;
	if (x->json)
		print_json(r);
	json_object_put(r);
	return 0;
}

/* status [DRIVE...]: a table, or everything about one drive. */
static int
cmd_status(struct ctx *x, int argc, char **argv)
{
	json_object	*all = json_object_new_array(), *r, *d;
	int		 i, rc = 0;

	if (argc == 0) {
		if ((rc = call(x, PROTO_INTERFACE ".Status", NULL, &r)) != 0) {
			json_object_put(all);
			return rc;
		}
		json_object_object_get_ex(r, "drives", &d);
		json_object_put(all);
		all = json_object_get(d);
		json_object_put(r);
	}
	for (i = 0; i < argc; i++) {
		client_close(&x->cl);
		if (call(x, PROTO_INTERFACE ".Status", drive_param(argv[i]),
		    &r) != 0) {
			rc = EXIT_DAEMON;
			continue;
		}
		if (json_object_object_get_ex(r, "drives", &d) &&
		    json_object_array_length(d) > 0)
			json_object_array_add(all, json_object_get(
			    json_object_array_get_idx(d, 0)));
		json_object_put(r);
	}
	if (x->json) {
		r = json_object_new_object();
		json_object_object_add(r, "drives", all);
		print_json(r);
		json_object_put(r);
		return rc;
	}
	if (argc == 1 && json_object_array_length(all) == 1)
		output_status_detail(stdout, json_object_array_get_idx(all, 0));
	else if (json_object_array_length(all) > 0 || argc == 0)
		output_status_table(stdout, all);
	json_object_put(all);
	return rc;
}

/* start|stop|pause|resume|verify DRIVE */
static int
cmd_drive(struct ctx *x, const struct command *c, const char *drive)
{
	return call_quiet(x, c->method, drive_param(drive));
}

/* smart DRIVE: everything the drive reports, with the change since the
 * baseline. */
static int
cmd_smart(struct ctx *x, int argc, char **argv)
{
	json_object	*r;
	int		 rc;

	(void)argc;
	if ((rc = call(x, PROTO_INTERFACE ".Smart", drive_param(argv[0]),
	    &r)) != 0)
		return rc;
	if (x->json)
		print_json(r);
	else
		output_smart(stdout, argv[0], r);
	json_object_put(r);
	return 0;
}

struct map_fetch {
	struct ctx	*x;
	const char	*drive;
};

/* errgraph_fetch: one ErrorMap call; a pass without a map is no error. */
static json_object *
fetch_map(void *arg, uint64_t pass, uint32_t resolution, int *nomap)
{
	struct map_fetch	*f = arg;
	json_object		*p = drive_param(f->drive), *r;
	char			*error;
	int			 cont;

	*nomap = 0;
	if (pass > 0)
		json_object_object_add(p, "pass", json_object_new_uint64(pass));
	json_object_object_add(p, "resolution", json_object_new_int(
	    (int)(resolution < PROTO_MAX_RESOLUTION ? resolution :
	    PROTO_MAX_RESOLUTION)));
	if (client_call(&f->x->cl, PROTO_INTERFACE ".ErrorMap", p, 0) == -1 ||
	    client_read(&f->x->cl, &r, &error, &cont) == -1) {
		fprintf(stderr, "ssdctl: %s: connection lost\n", f->x->socket);
		return NULL;
	}
	if (error == NULL)
		return r;
	if (strcmp(error, PROTO_INTERFACE ".NoErrorMap") == 0)
		*nomap = 1;
	else
		print_error(error, r);
	json_object_put(r);
	return NULL;
}

/* The array `key` of a reply (a reference of its own), or NULL after a
 * message; the reply is released. */
static json_object *
reply_array(json_object *r, const char *method, const char *key)
{
	json_object	*a = NULL;

	if (json_object_object_get_ex(r, key, &a) &&
	    json_object_is_type(a, json_type_array))
		a = json_object_get(a);
	else {
		fprintf(stderr, "ssdctl: %s: a reply without %s\n", method,
		    key);
		a = NULL;
	}
	json_object_put(r);
	return a;
}

/* A drive's checkpoint results from the daemon: the Checkpoints reply's
 * probes, or NULL after a message. */
static json_object *
daemon_checkpoints(struct ctx *x, const char *drive)
{
	json_object	*r;

	if (call(x, PROTO_INTERFACE ".Checkpoints", drive_param(drive),
	    &r) != 0)
		return NULL;
	return reply_array(r, "Checkpoints", "probes");
}

/* graph_src's ckpt: the results through the daemon. */
static json_object *
fetch_checkpoints(void *arg, const char *drive)
{
	struct map_fetch	*f = arg;

	client_close(&f->x->cl);
	return daemon_checkpoints(f->x, drive);
}

/* graph_src's timelines: the Timelines reply's, through the daemon. */
static json_object *
fetch_timelines(void *arg, const char *drive, long pass)
{
	struct map_fetch	*f = arg;
	json_object		*p = drive_param(drive), *r;

	client_close(&f->x->cl);
	if (pass >= 0)
		json_object_object_add(p, "pass", json_object_new_int64(pass));
	if (call(f->x, PROTO_INTERFACE ".Timelines", p, &r) != 0)
		return NULL;
	return reply_array(r, "Timelines", "timelines");
}

/* graph_src's series: the Series reply's, through the daemon. */
static json_object *
fetch_series(void *arg, const char *drive, long ckpt)
{
	struct map_fetch	*f = arg;
	json_object		*p = drive_param(drive), *r;

	client_close(&f->x->cl);
	if (ckpt > 0)
		json_object_object_add(p, "checkpoint",
		    json_object_new_int64(ckpt));
	if (call(f->x, PROTO_INTERFACE ".Series", p, &r) != 0)
		return NULL;
	return reply_array(r, "Series", "series");
}

/* graph DRIVE --what ... -o FILE: from the archive the daemon names (or
 * its error maps), or from --rrd FILE / --map-dir DIR without asking the
 * daemon. */
static int
cmd_graph(struct ctx *x, int argc, char **argv)
{
	struct map_fetch	 f = { x, argv[0] };
	struct graph_src	 src = { NULL, fetch_map, &f,
				    fetch_checkpoints, fetch_timelines,
				    fetch_series };
	json_object		*r, *d;
	int			 rc;

	if (!graph_needs_daemon(argc, argv))
		return graph_main(argc, argv, NULL);
	if ((rc = call(x, PROTO_INTERFACE ".Status", drive_param(argv[0]),
	    &r)) != 0)
		return rc;
	if (!json_object_object_get_ex(r, "drives", &d) ||
	    json_object_array_length(d) == 0) {
		json_object_put(r);
		return EXIT_DAEMON;
	}
	src.drive = json_object_array_get_idx(d, 0);
	f.drive = json_object_get_string(json_object_object_get_ex(src.drive,
	    "name", &d) ? d : NULL);
	if (f.drive == NULL)
		f.drive = argv[0];
	rc = graph_main(argc, argv, &src);
	json_object_put(r);
	return rc;
}

/* The daemon as a report's source (report.h). */
struct report_daemon {
	struct ctx		*x;
	struct map_fetch	 f;
	struct graph_src	 gs;
	json_object		*status;	/* the Status reply of gs.drive */
};

/* The one DriveStatus of a Status reply (a reference of its own). */
static json_object *
rd_status(void *arg, const char *drive)
{
	struct report_daemon	*d = arg;
	json_object		*r, *a, *o = NULL;

	client_close(&d->x->cl);
	if (call(d->x, PROTO_INTERFACE ".Status", drive_param(drive), &r) != 0)
		return NULL;
	if (json_object_object_get_ex(r, "drives", &a) &&
	    json_object_is_type(a, json_type_array) &&
	    json_object_array_length(a) == 1 && json_object_is_type(
	    json_object_array_get_idx(a, 0), json_type_object)) {
		o = json_object_get(json_object_array_get_idx(a, 0));
		/* the daemon's records are current: up to now */
		json_object_object_add(o, "updated",
		    json_object_new_int64((long long)time(NULL)));
	}
	else
		fprintf(stderr, "ssdctl: Status: no DriveStatus of %s in the "
		    "reply\n", drive);
	json_object_put(r);
	return o;
}

/* The array `key` of the reply to `method`; NULL after the error is
 * said on stderr, and named in `why`. */
static json_object *
rd_list(struct report_daemon *d, const char *method, json_object *p,
    const char *key, char *why, size_t len)
{
	json_object	*r, *a;
	char		 m[128];

	client_close(&d->x->cl);
	snprintf(m, sizeof(m), "%s.%s", PROTO_INTERFACE, method);
	a = call(d->x, m, p, &r) != 0 ? NULL : reply_array(r, method, key);
	if (a == NULL)
		snprintf(why, len, "the daemon's %s call failed", method);
	return a;
}

static json_object *
rd_events(void *arg, const char *drive, char *why, size_t len)
{
	json_object	*p = drive_param(drive);

	json_object_object_add(p, "count", json_object_new_int(
	    PROTO_EVENTS_MAX));
	return rd_list(arg, "Events", p, "events", why, len);
}

static json_object *
rd_snapshots(void *arg, const char *drive, char *why, size_t len)
{
	return rd_list(arg, "Snapshots", drive_param(drive), "snapshots", why,
	    len);
}

static json_object *
rd_checkpoints(void *arg, const char *drive, char *why, size_t len)
{
	return rd_list(arg, "Checkpoints", drive_param(drive), "probes", why,
	    len);
}

/* graph_main's source for the drive: cmd_graph's, with its status. */
static const struct graph_src *
rd_graph(void *arg, const char *drive, const char *kind, char **av, int *ac,
    int max)
{
	struct report_daemon	*d = arg;

	(void)kind;
	(void)av;
	(void)ac;
	(void)max;
	/* one Status call a drive, not one a figure */
	if (d->status == NULL || d->f.drive == NULL ||
	    strcmp(d->f.drive, drive) != 0) {
		json_object_put(d->status);
		if ((d->status = rd_status(d, drive)) == NULL)
			return NULL;
	}
	d->f.drive = drive;
	d->gs.drive = d->status;
	return &d->gs;
}

/* report DRIVE... -o FILE.html: from the daemon, or --state-dir DIR. */
static int
cmd_report(struct ctx *x, int argc, char **argv)
{
	struct report_daemon	d = { x, { x, NULL }, { NULL, fetch_map, NULL,
				    fetch_checkpoints, fetch_timelines,
				    fetch_series }, NULL };
	struct report_src	src = { &d, x->socket, rd_status, rd_events,
				    rd_snapshots, rd_checkpoints, rd_graph };
	int			rc;

	d.gs.arg = &d.f;
	rc = report_main(argc, argv, report_needs_daemon(argc, argv) ?
	    &src : NULL, x->json);
	json_object_put(d.status);
	return rc;
}

static int
cmd_reload(struct ctx *x, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return call_quiet(x, PROTO_INTERFACE ".Reload", NULL);
}

static int
cmd_version(struct ctx *x, int argc, char **argv)
{
	json_object	*r, *v;

	(void)argc;
	(void)argv;
	if (!x->json)
		printf("ssdctl %s\n", PROTO_VERSION);
	if (call(x, PROTO_SERVICE ".GetInfo", NULL, &r) != 0)
		return EXIT_DAEMON;
	if (x->json)
		print_json(r);
	else if (json_object_object_get_ex(r, "version", &v))
		printf("ssdtortured %s (%s)\n", json_object_get_string(v),
		    x->socket);
	json_object_put(r);
	return 0;
}

/* Print a batch of events, as JSON lines or for a person. */
static void
print_events(struct ctx *x, json_object *r)
{
	json_object	*evs;
	size_t		 i;

	if (!json_object_object_get_ex(r, "events", &evs))
		return;
	for (i = 0; i < json_object_array_length(evs); i++) {
		json_object *e = json_object_array_get_idx(evs, i);

		if (x->json)
			printf("%s\n", json_object_to_json_string_ext(e,
			    JSON_C_TO_STRING_PLAIN |
			    JSON_C_TO_STRING_NOSLASHESCAPE));
		else
			output_event(stdout, e);
	}
	fflush(stdout);
}

/* Parse events' own options: -n N, -f. */
static int
events_opts(int *argc, char ***argv, int *count, int *follow)
{
	int	ch;
	char	*end;

	optind = 0;	/* re-initialise: options may follow DRIVE */
	while ((ch = getopt(*argc, *argv, "n:f")) != -1) {
		switch (ch) {
		case 'n':
			*count = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || *count < 0 ||
			    *count > PROTO_EVENTS_MAX) {
				fprintf(stderr, "ssdctl: -n: expected 0 to "
				    "%d\n", PROTO_EVENTS_MAX);
				return -1;
			}
			break;
		case 'f':
			*follow = 1;
			break;
		default:
			return -1;
		}
	}
	*argc -= optind;
	*argv += optind;
	return *argc == 1 ? 0 : -1;
}

/* events DRIVE [-n N] [-f] */
static int
cmd_events(struct ctx *x, int argc, char **argv)
{
	json_object	*p, *r;
	char		*error;
	int		 count = 20, follow = 0, cont = 1;

	if (events_opts(&argc, &argv, &count, &follow) == -1) {
		fprintf(stderr, "usage: ssdctl events DRIVE [-n N] [-f]\n");
		return EXIT_USAGE;
	}
	if (ctx_connect(x) == -1)
		return EXIT_DAEMON;
	p = drive_param(argv[0]);
	json_object_object_add(p, "count", json_object_new_int(count));
	if (client_call(&x->cl, PROTO_INTERFACE ".Events", p, follow) == -1)
		return EXIT_DAEMON;
	while (cont) {
		if (client_read(&x->cl, &r, &error, &cont) == -1) {
			if (follow)
				fprintf(stderr, "ssdctl: %s: connection closed\n",
				    x->socket);
			return EXIT_DAEMON;
		}
		if (error != NULL) {
			print_error(error, r);
			json_object_put(r);
			return EXIT_DAEMON;
		}
		print_events(x, r);
		json_object_put(r);
	}
	return 0;
}

/* Print an error map for a person: counts, then one line an extent. */
static void
print_errors(json_object *r)
{
	json_object	*v, *ext, *counts;
	size_t		 i;
	int		 live, again;

#define U(o, k)	(json_object_object_get_ex(o, k, &v) ? \
	(unsigned long long)json_object_get_uint64(v) : 0ULL)
	live = json_object_object_get_ex(r, "in_progress", &v) &&
	    json_object_get_boolean(v);
	again = json_object_object_get_ex(r, "again", &v) &&
	    json_object_get_boolean(v);
	printf("verify pass %llu of %llu%s, block size %llu: %llu bad "
	    "block%s%s in %llu extent%s\n", U(r, "pass"), U(r, "passes"),
	    live ? " (in progress)" : "",
	    U(r, "block_size"), U(r, "blocks"), U(r, "blocks") == 1 ? "" : "s",
	    again ? " an earlier pass found bad too" : "",
	    U(r, "extents_total"), U(r, "extents_total") == 1 ? "" : "s");
	if (json_object_object_get_ex(r, "counts", &counts)) {
		json_object_object_foreach(counts, k, n) {
			if (json_object_get_uint64(n) > 0)
				printf("  %-12s %llu\n", k, (unsigned long long)
				    json_object_get_uint64(n));
		}
	}
	if (!json_object_object_get_ex(r, "extents", &ext) ||
	    json_object_array_length(ext) == 0)
		return;
	printf("%-16s %10s  %s\n", "OFFSET", "BLOCKS", "CLASS");
	for (i = 0; i < json_object_array_length(ext); i++) {
		json_object *e = json_object_array_get_idx(ext, i), *c;

		json_object_object_get_ex(e, "class", &c);
		printf("%-16llu %10llu  %s\n", U(e, "offset"), U(e, "blocks"),
		    json_object_get_string(c));
	}
	if (json_object_object_get_ex(r, "truncated", &v) &&
	    json_object_get_boolean(v))
		printf("(more extents than one reply holds; the map is in the "
		    "drive's state directory, errors/)\n");
#undef U
}

#define ERRORS_USAGE	"usage: ssdctl errors DRIVE [--pass N] [--again] " \
	"[--json] (N from 1)\n"

/* errors DRIVE [--pass N] [--again] [--json] */
static int
cmd_errors(struct ctx *x, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pass", required_argument, NULL, 'p' },
		{ "again", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	json_object	*p, *r;
	char		*end;
	long		 pass = 0;
	int		 ch, rc, again = 0;

	optind = 0;	/* re-initialise: options may follow DRIVE */
	while ((ch = getopt_long(argc, argv, "p:aj", longopts, NULL)) != -1) {
		if (ch == 'j')
			x->json = 1;
		else if (ch == 'a')
			again = 1;
		else if (ch != 'p' || (pass = strtol(optarg, &end, 10)) < 1 ||
		    *end != '\0' || pass > INT32_MAX) {
			fputs(ERRORS_USAGE, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fputs(ERRORS_USAGE, stderr);
		return EXIT_USAGE;
	}
	p = drive_param(argv[optind]);
	if (pass > 0)
		json_object_object_add(p, "pass", json_object_new_int((int)pass));
	if (again)
		json_object_object_add(p, "again", json_object_new_boolean(1));
	if ((rc = call(x, PROTO_INTERFACE ".ErrorMap", p, &r)) != 0)
		return rc;
	if (x->json)
		print_json(r);
	else
		print_errors(r);
	json_object_put(r);
	return 0;
}

/* The results of a drive: from --state-dir DIR, else the daemon. */
static json_object *
load_checkpoints(struct ctx *x, const char *state_dir, const char *drive)
{
	json_object	*lines;

	if (state_dir == NULL)
		return daemon_checkpoints(x, drive);
	lines = json_object_new_array();
	if (ckpt_load_dir(state_dir, drive, lines) == -1) {
		json_object_put(lines);
		return NULL;
	}
	return lines;
}

static void
checkpoints_usage(void)
{
	fprintf(stderr, "usage: ssdctl checkpoints DRIVE [--latency] "
	    "[--json] [--state-dir DIR]\n");
}

/* checkpoints DRIVE [--latency] [--json] [--state-dir DIR] */
static int
cmd_checkpoints(struct ctx *x, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "latency", no_argument, NULL, 'l' },
		{ "state-dir", required_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 }
	};
	const char		*state_dir = NULL;
	struct ckpt_grid	 g;
	json_object		*lines;
	int			 ch, latency = 0;

	optind = 0;	/* re-initialise: options may follow DRIVE */
	while ((ch = getopt_long(argc, argv, "jl", longopts, NULL)) != -1) {
		if (ch == 'j')
			x->json = 1;
		else if (ch == 'l')
			latency = 1;
		else if (ch == 'd')
			state_dir = optarg;
		else {
			checkpoints_usage();
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		checkpoints_usage();
		return EXIT_USAGE;
	}
	if ((lines = load_checkpoints(x, state_dir, argv[optind])) == NULL)
		return EXIT_DAEMON;
	if (x->json)
		print_json(lines);
	else if (json_object_array_length(lines) == 0)
		printf("%s: no performance checkpoint yet\n", argv[optind]);
	else if (ckpt_grid_build(lines, &g) == 0) {
		ckpt_table(stdout, &g, latency);
		ckpt_grid_free(&g);
	} else
		fprintf(stderr, "ssdctl: out of memory\n");
	json_object_put(lines);
	return 0;
}

/* probes [--fio]: the quick suite, or the fio options of each probe. */
static int
cmd_probes(struct ctx *x, int argc, char **argv)
{
	char			 fio[1024];
	const struct probe	*p;
	json_object		*all = json_object_new_array(), *o;
	size_t			 i;
	int			 with_fio = argc == 1;

	if (argc == 1 && strcmp(argv[0], "--fio") != 0) {
		fprintf(stderr, "usage: ssdctl probes [--fio]\n");
		json_object_put(all);
		return EXIT_USAGE;
	}
	for (i = 0; (p = probe_at(i)) != NULL; i++) {
		if (probe_fio_options(p, fio, sizeof(fio)) == -1)
			snprintf(fio, sizeof(fio), "?");
		o = json_object_new_object();
		json_object_object_add(o, "id", json_object_new_string(p->id));
		json_object_object_add(o, "family", json_object_new_string(
		    probe_family_name(p->family)));
		json_object_object_add(o, "title",
		    json_object_new_string(p->title));
		json_object_object_add(o, "fio", json_object_new_string(fio));
		json_object_array_add(all, o);
		if (x->json)
			continue;
		if (with_fio)
			printf("%-26s %s\n", p->id, fio);
		else
			printf("%-26s %-9s %s\n", p->id,
			    probe_family_name(p->family), p->title);
	}
	if (x->json)
		print_json(all);
	json_object_put(all);
	return 0;
}

static const struct command commands[] = {
	{ "status", "[DRIVE...]", 0, 64, cmd_status, NULL,
	    "drives at a glance; everything about one DRIVE" },
	{ "start", "DRIVE", 1, 1, NULL, PROTO_INTERFACE ".Start",
	    "start a stopped, failed or refused drive" },
	{ "stop", "DRIVE", 1, 1, NULL, PROTO_INTERFACE ".Stop",
	    "stop a drive (it stays stopped across restarts)" },
	{ "pause", "DRIVE", 1, 1, NULL, PROTO_INTERFACE ".Pause",
	    "pause a running drive" },
	{ "resume", "DRIVE", 1, 1, NULL, PROTO_INTERFACE ".Resume",
	    "resume a paused drive" },
	{ "verify", "DRIVE", 1, 1, NULL, PROTO_INTERFACE ".Verify",
	    "a read-only verify pass now (retention check)" },
	{ "checkpoint", "DRIVE", 1, 1, NULL, PROTO_INTERFACE ".Checkpoint",
	    "a performance checkpoint at the next cycle boundary" },
	{ "powercut", "DRIVE", 1, 1, NULL, PROTO_INTERFACE ".PowerCut",
	    "a power cut (power_cut_command) in the write pass" },
	{ "checkpoints", "DRIVE [--latency]", 1, 5, cmd_checkpoints, NULL,
	    "performance by probe and checkpoint, change since the first" },
	{ "probes", "[--fio]", 0, 1, cmd_probes, NULL,
	    "the probes of a checkpoint; --fio: each one's fio options" },
	{ "smart", "DRIVE", 1, 1, cmd_smart, NULL,
	    "SMART and wear, with the change since the first reading" },
	{ "graph", "DRIVE --what KIND -o FILE", 1, 32, cmd_graph, NULL,
	    "draw the archive or the error maps (graph --help: the kinds)" },
	{ "report", "DRIVE... -o FILE.html", 1, 40, cmd_report, NULL,
	    "one page per drive, or several side by side (report --help)" },
	{ "errors", "DRIVE [--pass N] [--again]", 1, 5, cmd_errors, NULL,
	    "bad blocks of a verify pass (the latest), as extents" },
	{ "events", "DRIVE [-n N] [-f]", 1, 4, cmd_events, NULL,
	    "the last N events (20); -f follows new ones" },
	{ "reload", "", 0, 0, cmd_reload, NULL,
	    "re-read the daemon's configuration" },
	{ "version", "", 0, 0, cmd_version, NULL,
	    "versions of ssdctl and of the daemon" },
	{ NULL, NULL, 0, 0, NULL, NULL, NULL }
};

static void
usage(FILE *fp)
{
	int	i;

	fprintf(fp, "usage: ssdctl [-s SOCKET] [--json] COMMAND [ARGS]\n\n");
	for (i = 0; commands[i].name != NULL; i++)
		fprintf(fp, "  %-8s %-20s %s\n", commands[i].name,
		    commands[i].args, commands[i].help);
	fprintf(fp, "\n  -s, --socket PATH  daemon socket (default %s, or "
	    "$%s)\n  -j, --json         print the daemon's replies as JSON\n"
	    "exit status: 0 success, 1 error from the daemon, 2 usage\n",
	    PROTO_DEFAULT_SOCKET, PROTO_SOCKET_ENV);
}

/* Commands that parse options of their own get their name as argv[0]. */
static int
own_opts(const struct command *c)
{
	return c->run == cmd_events || c->run == cmd_errors ||
	    c->run == cmd_checkpoints || c->run == cmd_report;
}

/* Global options; returns the index of the command. */
static int
parse_globals(int argc, char **argv, struct ctx *x)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*env = getenv(PROTO_SOCKET_ENV);
	int		 ch;

	x->socket = env && env[0] ? env : PROTO_DEFAULT_SOCKET;
	while ((ch = getopt_long(argc, argv, "+s:jh", longopts, NULL)) != -1) {
		switch (ch) {
		case 's': x->socket = optarg; break;
		case 'j': x->json = 1; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(EXIT_USAGE);
		}
	}
	return optind;
}

int
main(int argc, char **argv)
{
	struct ctx		 x;
	const struct command	*c;
	int			 i, rc;

	memset(&x, 0, sizeof(x));
	x.cl.fd = -1;
	signal(SIGPIPE, SIG_IGN);
	i = parse_globals(argc, argv, &x);
	if (i >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	for (c = commands; c->name != NULL; c++)
		if (strcmp(c->name, argv[i]) == 0)
			break;
	if (c->name == NULL || argc - i - 1 < c->min || argc - i - 1 > c->max) {
		if (c->name == NULL)
			fprintf(stderr, "ssdctl: unknown command '%s'\n",
			    argv[i]);
		else
			fprintf(stderr, "usage: ssdctl %s %s\n", c->name,
			    c->args);
		return EXIT_USAGE;
	}
	output_init(stdout);
	if (c->run != NULL)
		rc = c->run(&x, argc - i - (own_opts(c) ? 0 : 1),
		    argv + i + (own_opts(c) ? 0 : 1));
	else
		rc = cmd_drive(&x, c, argv[i + 1]);
	client_close(&x.cl);
	return rc;
}
