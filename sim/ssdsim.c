/*
 * ssdsim: a simulated SSD presented as a file. `ssdsim run` mounts a FUSE
 * file system with one file, `drive`, whose every request meets the
 * drive model (model.h) and completes when the model says; the other
 * commands talk to a running one over its control socket: power off and
 * on (also in the form power_cut_command runs), SMART as smartctl prints
 * it, status, stop.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>

#include "fe.h"
#include "fe_undo.h"
#include "fe_reply.h"

#define EXIT_USAGE	2
#define FUSE_THREADS	16	/* served at once; replies wait elsewhere */
#define DEFAULT_CTLDIR	"/run/ssdsim"

struct run_opts {
	const char	*profile, *data, *control, *truth, *mountpoint;
	uint64_t	 seed;
	int		 foreground, allow_other;
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: ssdsim run --profile FILE --data FILE --control SOCKET\n"
	    "              [--truth FILE] [--seed N] [--foreground]\n"
	    "              [--allow-other] MOUNTPOINT\n"
	    "       ssdsim power off|on --control SOCKET\n"
	    "       ssdsim smart|status|stop --control SOCKET\n"
	    "       ssdsim off|on NAME [SERIAL]   (as power_cut_command)\n");
}

static int
parse_u64(const char *s, uint64_t *v)
{
	char			*end;
	unsigned long long	 x;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-')
		return -1;
	*v = x;
	return 0;
}

static int
parse_run(int argc, char **argv, struct run_opts *o)
{
	static const struct option lo[] = {
		{ "profile", required_argument, NULL, 'p' },
		{ "data", required_argument, NULL, 'd' },
		{ "control", required_argument, NULL, 'c' },
		{ "truth", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 's' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "allow-other", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	int	c;

	memset(o, 0, sizeof(*o));
	o->seed = 1;
	while ((c = getopt_long(argc, argv, "p:d:c:t:s:f", lo, NULL)) != -1) {
		switch (c) {
		case 'p': o->profile = optarg; break;
		case 'd': o->data = optarg; break;
		case 'c': o->control = optarg; break;
		case 't': o->truth = optarg; break;
		case 'f': o->foreground = 1; break;
		case 'a': o->allow_other = 1; break;
		case 's':
			if (parse_u64(optarg, &o->seed) == 0)
				break;
			fprintf(stderr, "ssdsim: --seed: not a number: %s\n",
			    optarg);
			return -1;
		default:
			return -1;
		}
	}
	if (optind != argc - 1 || !o->profile || !o->data || !o->control) {
		fprintf(stderr, "ssdsim run: --profile, --data, --control and "
		    "the mount point are needed\n");
		return -1;
	}
	o->mountpoint = argv[optind];
	return 0;
}

/*
 * The data file, emptied and of the drive's size: the model starts as a
 * new drive, which holds nothing (sparse: only what is written takes
 * room).
 */
static int
open_data(const char *path, uint64_t capacity)
{
	int	fd;

	if ((fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1)
		return -1;
	if (ftruncate(fd, (off_t)capacity) == -1) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Profile, model, data file, truth log: 0, or -1 having said why. */
static int
fe_setup(struct fe *fe, const struct run_opts *o)
{
	char	err[256];

	memset(fe, 0, sizeof(*fe));
	pthread_mutex_init(&fe->lock, NULL);
	fe->datafd = -1;
	fe->seed = o->seed;
	fe->mountpoint = o->mountpoint;
	snprintf(fe->drive_path, sizeof(fe->drive_path), "%s/drive",
	    o->mountpoint);
	if (sim_profile_load(o->profile, &fe->prof, err, sizeof(err)) == -1) {
		fprintf(stderr, "ssdsim: %s: %s\n", o->profile, err);
		return -1;
	}
	fe->capacity = fe->prof.capacity;
	if (o->truth != NULL && fe_truth_open(fe, o->truth) == -1) {
		fprintf(stderr, "ssdsim: %s: %s\n", o->truth, strerror(errno));
		return -1;
	}
	fe->m = sim_model_new(&fe->prof, o->seed, fe_now(), fe_truth_emit, fe);
	if (fe->m == NULL) {
		fprintf(stderr, "ssdsim: cannot make the model: %s\n",
		    strerror(ENOMEM));
		return -1;
	}
	fe->capacity = sim_model_capacity(fe->m);
	fe_undo_init(fe);
	if ((fe->datafd = open_data(o->data, fe->capacity)) == -1) {
		fprintf(stderr, "ssdsim: %s: %s\n", o->data, strerror(errno));
		return -1;
	}
	fe->powered = 1;
	return 0;
}

static void
fe_teardown(struct fe *fe)
{
	if (fe->m != NULL)
		sim_model_free(fe->m);
	fe->m = NULL;
	fe_undo_free(fe);
	fe_truth_close(fe);
	if (fe->datafd != -1)
		close(fe->datafd);
	fe->datafd = -1;
}

static struct fuse_session *
fuse_new(struct fe *fe, const struct run_opts *o)
{
	char			 opts[256];
	char			*argv[] = { "ssdsim", "-o", opts, NULL };
	struct fuse_args	 args = FUSE_ARGS_INIT(3, argv);
	struct fuse_session	*se;

	/* max_read: 1 MiB reads in one request, as writes */
	snprintf(opts, sizeof(opts), "fsname=ssdsim,subtype=ssdsim,"
	    "default_permissions,max_read=%d%s", FE_MAX_IO,
	    o->allow_other ? ",allow_other" : "");
	se = fuse_session_new(&args, fe_fuse_ops(), sizeof(struct
	    fuse_lowlevel_ops), fe);
	fuse_opt_free_args(&args);
	return se;
}

/* Serve until stopped (ssdsim stop, SIGTERM, SIGINT, an unmount). */
static int
serve(struct fe *fe, int lfd, const struct run_opts *o)
{
	struct fuse_loop_config	*cfg;
	int			 rc;

	fe->main_thread = pthread_self();
	if ((fe->rq = fe_reply_start()) == NULL ||
	    fe_ctl_start(fe, lfd, o->control) == -1) {
		fprintf(stderr, "ssdsim: cannot start a thread: %s\n",
		    strerror(errno));
		fuse_session_exit(fe->se);
	}
	if ((cfg = fuse_loop_cfg_create()) == NULL)
		return -1;
	fuse_loop_cfg_set_max_threads(cfg, FUSE_THREADS);
	rc = fuse_session_exited(fe->se) ? -1 :
	    fuse_session_loop_mt(fe->se, cfg);
	fuse_loop_cfg_destroy(cfg);
	fe_ctl_stop();
	fe_reply_stop(fe->rq);	/* what is pending is answered now */
	fe->rq = NULL;
	return rc;
}

static int
cmd_run(int argc, char **argv)
{
	struct run_opts	o;
	struct fe	fe;
	int		lfd = -1, rc = EXIT_FAILURE;

	if (parse_run(argc, argv, &o) == -1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (fe_setup(&fe, &o) == -1)
		goto out;
	if ((lfd = fe_ctl_listen(o.control)) == -1) {
		fprintf(stderr, "ssdsim: %s: %s\n", o.control, strerror(errno));
		goto out;
	}
	if ((fe.se = fuse_new(&fe, &o)) == NULL ||
	    fuse_set_signal_handlers(fe.se) != 0)
		goto out_ctl;
	if (fuse_session_mount(fe.se, o.mountpoint) != 0)
		goto out_sig;
	/* the parent returns once mounted; threads start in the child */
	if (fuse_daemonize(o.foreground) != 0)
		goto out_mount;
	rc = serve(&fe, lfd, &o) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	lfd = -1;	/* closed by fe_ctl_stop */
out_mount:
	fuse_session_unmount(fe.se);
out_sig:
	fuse_remove_signal_handlers(fe.se);
out_ctl:
	if (fe.se != NULL)
		fuse_session_destroy(fe.se);
	if (lfd != -1) {
		close(lfd);
		unlink(o.control);
	}
out:
	fe_teardown(&fe);
	return rc;
}

/* --control SOCKET after the command's words; NULL when not given. */
static const char *
control_opt(int argc, char **argv, int *nwords)
{
	static const struct option lo[] = {
		{ "control", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	const char	*path = NULL;
	int		 c;

	while ((c = getopt_long(argc, argv, "c:", lo, NULL)) != -1) {
		if (c != 'c')
			return NULL;
		path = optarg;
	}
	*nwords = argc - optind;
	return path;
}

/* Print a reply: an error to stderr (1), else its JSON (0). */
static int
show_reply(struct json_object *o, const char *err)
{
	struct json_object	*v;

	if (o == NULL) {
		fprintf(stderr, "ssdsim: %s\n", err);
		return EXIT_FAILURE;
	}
	if (!json_object_object_get_ex(o, "ok", &v) ||
	    !json_object_get_boolean(v)) {
		json_object_object_get_ex(o, "error", &v);
		fprintf(stderr, "ssdsim: %s\n", v != NULL ?
		    json_object_get_string(v) : "the request failed");
		json_object_put(o);
		return EXIT_FAILURE;
	}
	printf("%s\n", json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return EXIT_SUCCESS;
}

/* smart: smartctl's JSON, pretty as smartctl prints it; its exit status. */
static int
show_smart(struct json_object *o, const char *err)
{
	struct json_object	*s, *sc, *st;
	int			 rc;

	if (o == NULL || !json_object_object_get_ex(o, "smart", &s))
		return show_reply(o, err);
	printf("%s\n", json_object_to_json_string_ext(s,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
	    JSON_C_TO_STRING_NOSLASHESCAPE));
	rc = json_object_object_get_ex(s, "smartctl", &sc) &&
	    json_object_object_get_ex(sc, "exit_status", &st) ?
	    json_object_get_int(st) : EXIT_FAILURE;
	json_object_put(o);
	return rc;
}

static int
cmd_client(int argc, char **argv)
{
	const char	*path, *cmd = argv[0];
	char		 req[64], err[512];
	int		 n;

	path = control_opt(argc, argv, &n);
	if (path == NULL) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(cmd, "power") == 0) {
		if (n != 1 || (strcmp(argv[optind], "off") != 0 &&
		    strcmp(argv[optind], "on") != 0)) {
			usage(stderr);
			return EXIT_USAGE;
		}
		snprintf(req, sizeof(req), "power %s", argv[optind]);
	} else if (n != 0) {
		usage(stderr);
		return EXIT_USAGE;
	} else
		snprintf(req, sizeof(req), "%s", cmd);
	if (strcmp(cmd, "smart") == 0)
		return show_smart(fe_ctl_call(path, req, err, sizeof(err)), err);
	return show_reply(fe_ctl_call(path, req, err, sizeof(err)), err);
}

/*
 * `ssdsim off|on NAME [SERIAL]`: how ssdtortured runs its
 * power_cut_command (the program, the word, the drive's name and serial).
 * The socket is $SSDSIM_CONTROL, else /run/ssdsim/NAME.sock.
 */
static int
cmd_cut(int argc, char **argv)
{
	const char	*env = getenv("SSDSIM_CONTROL");
	char		 path[PATH_MAX], req[16], err[512];

	if (argc < 2 || argc > 3 || strchr(argv[1], '/') != NULL) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (env != NULL && env[0] != '\0')
		snprintf(path, sizeof(path), "%s", env);
	else
		snprintf(path, sizeof(path), "%s/%s.sock", DEFAULT_CTLDIR,
		    argv[1]);
	snprintf(req, sizeof(req), "power %s", argv[0]);
	return show_reply(fe_ctl_call(path, req, err, sizeof(err)), err);
}

int
main(int argc, char **argv)
{
	const char	*cmd = argc > 1 ? argv[1] : "";

	if (strcmp(cmd, "run") == 0) {
		/*
		 * Request buffers and undo records (128 KiB to 1 MiB each)
		 * come from the heap and are reused: glibc would map and
		 * unmap each one, and an unmap in a threaded process stops
		 * the other CPUs to flush their TLBs, tens of microseconds
		 * in a virtual machine: the model's timing is not to carry
		 * the front-end's stalls.
		 */
		mallopt(M_MMAP_THRESHOLD, 64 << 20);
		mallopt(M_TRIM_THRESHOLD, 256 << 20);
		return cmd_run(argc - 1, argv + 1);
	}
	if (strcmp(cmd, "power") == 0 || strcmp(cmd, "smart") == 0 ||
	    strcmp(cmd, "status") == 0 || strcmp(cmd, "stop") == 0)
		return cmd_client(argc - 1, argv + 1);
	if (strcmp(cmd, "off") == 0 || strcmp(cmd, "on") == 0)
		return cmd_cut(argc - 1, argv + 1);
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
		usage(stdout);
		return EXIT_SUCCESS;
	}
	usage(stderr);
	return EXIT_USAGE;
}
