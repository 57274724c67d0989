/*
 * archive.c: RRD archives of every drive. The main thread queues create
 * and update operations; a writer thread carries them out, grouping the
 * updates of one file into one call. Without rrdcached it writes the
 * files itself (librrd); with it, it sends everything there and, when
 * rrdcached is away, keeps the queue (bounded, oldest updates dropped
 * first), logs once, and reconnects.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <rrd.h>
#include <rrd_client.h>

#include "archive.h"
#include "log.h"
#include "mapguard.h"
#include "rrd_layout.h"
#include "statedir.h"

#define QUEUE_MAX	50000	/* queued operations at most (bounded memory) */
#define BATCH_MAX	256
#define FILE_MAX	512

enum op_kind { OP_CREATE, OP_UPDATE };

struct op {
	struct op	*next;
	enum op_kind	 kind;
	unsigned	 heartbeat;	/* create: of the SMART sources */
	char		 file[FILE_MAX];
	char		 values[384];
};

struct archive {
	char		*daemon;	/* rrdcached address, or NULL */
	char		*local_dir;	/* base of a local rrdcached, or NULL */
	int		 local;		/* rrdcached on a Unix socket */
	char		 host[64];
	pthread_t	 thr;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	struct op	*head, *tail;	/* queue */
	size_t		 len;
	int		 quit;
	uint64_t	 dropped;
	size_t		 creating;	/* creates queued or being made */
	int		 stalled;	/* the writer cannot go on for now */
	/* writer thread only */
	int		 connected, down_warned;
	time_t		 disk_retry;	/* local files: the disk refused an update */
	int		 disk_warned;
	char		 broken[32][FILE_MAX];	/* files with another layout */
	int		 nbroken;
	struct held {			/* not updated: tried again later */
		char	 file[FILE_MAX];
		unsigned heartbeat;
		time_t	 next;
		int	 unreadable;	/* it exists but raised SIGBUS; 0: its
					 * create failed */
		unsigned backoff;	/* seconds, doubling while it does */
	}		 held[32];
	int		 nheld;
};

#define CREATE_RETRY	5	/* seconds between tries of a failed create */

#define DS_NAME(id, name, kind)	name,
#define DS_KIND(id, name, kind)	kind,
static const char *const ds_name[] = { RRD_SOURCES(DS_NAME) };
static const enum rrd_kind ds_kind[] = { RRD_SOURCES(DS_KIND) };
#undef DS_NAME
#undef DS_KIND

/* "DS:..." of source i; `heartbeat` is that of the SMART sources. */
static char *
ds_spec(int i, unsigned heartbeat)
{
	char	*spec;

	if (asprintf(&spec, "DS:%s:GAUGE:%u:%s:U", ds_name[i],
	    ds_kind[i] == RRD_FAST ? RRD_FAST_HEARTBEAT : heartbeat,
	    ds_kind[i] == RRD_SMART_SIGNED ? "U" : "0") == -1)
		return NULL;
	return spec;
}

/* The DS and RRA definitions of a new archive; strings freed by caller. */
static int
create_args(unsigned heartbeat, char **argv, int max)
{
	static const char *const rras[] = RRD_RRAS;
	static const char *const cf[] = { "AVERAGE", "MIN", "MAX" };
	int	n = 0, i, j;

	for (i = 0; i < RRD_NDS && n < max; i++)
		if ((argv[n++] = ds_spec(i, heartbeat)) == NULL)
			return -1;
	for (i = 0; i < 4; i++)
		for (j = 0; j < 3 && n < max; j++)
			if (asprintf(&argv[n++], rras[i], cf[j]) == -1)
				return -1;
	return n;
}

/* Our index of the source a "ds[NAME].index" key names; -1: not ours. */
static int
ds_of_key(const char *key)
{
	char	name[64];
	size_t	n = strlen(key);
	int	i;

	if (n < 8 || strcmp(key + n - 7, "].index") != 0 ||
	    sscanf(key, "ds[%63[^]]]", name) != 1)
		return -2;			/* not a source's index */
	for (i = 0; i < RRD_NDS; i++)
		if (strcmp(ds_name[i], name) == 0)
			return i;
	return -1;
}

/*
 * How many of our sources an existing archive has: n when it has our
 * step and exactly our first n sources in our order (an archive of an
 * earlier layout), else -1.
 */
static int
layout_sources(rrd_info_t *info)
{
	rrd_info_t	*p;
	int		 step = 0, n = 0, ds, at_place = 1;

	for (p = info; p != NULL; p = p->next) {
		if (strcmp(p->key, "step") == 0)
			step = p->value.u_cnt == RRD_STEP;
		if ((ds = ds_of_key(p->key)) == -2)
			continue;
		n++;
		at_place = at_place && ds >= 0 && p->value.u_cnt == (unsigned)ds;
	}
	return step && at_place && n >= RRD_NDS_FIRST ? n : -1;
}

static int
is_broken(struct archive *a, const char *file)
{
	int	i;

	for (i = 0; i < a->nbroken; i++)
		if (strcmp(a->broken[i], file) == 0)
			return 1;
	return 0;
}

static void
mark_broken(struct archive *a, const char *file, const char *why)
{
	log_warnx("archive %s: %s; it is left as it is and not updated", file,
	    why);
	if (a->nbroken < (int)(sizeof(a->broken) / sizeof(a->broken[0])))
		snprintf(a->broken[a->nbroken++], FILE_MAX, "%s", file);
}

/* The HOST directory of a file under a local rrdcached's base. */
static void
make_dir_of(const char *file)
{
	char	dir[FILE_MAX], *slash;

	snprintf(dir, sizeof(dir), "%s", file);
	if ((slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		if (mkdir(dir, 0755) == -1 && errno != EEXIST)
			log_warnx("archive: mkdir %s: %s%s", dir, strerror(errno),
			    errno == EROFS ? " (the service needs "
			    "ReadWritePaths= for rrdcached_dir in a drop-in)" :
			    "");
	}
}

/*
 * Add the sources an archive of an earlier layout lacks, at its end
 * (rrd_tune rewrites the file, its data kept). Through rrdcached, only
 * when the file is on this host: what rrdcached holds for it is written
 * first.
 */
static int
add_sources(struct archive *a, const struct op *o, int have, char *why,
    size_t len)
{
	char	*argv[2 + RRD_NDS];
	int	 argc = 0, i, rc = -1;

	if (a->daemon != NULL && !a->local) {
		snprintf(why, len, "it lacks the sources after '%s' and is on "
		    "the rrdcached host (add them there with rrdtool tune)",
		    ds_name[have - 1]);
		return -1;
	}
	if (a->daemon != NULL)
		rrdc_flush(o->file);
	argv[argc++] = (char *)"tune";
	argv[argc++] = (char *)o->file;
	for (i = have; i < RRD_NDS; i++)
		if ((argv[argc++] = ds_spec(i, o->heartbeat)) == NULL)
			goto out;
	rrd_clear_error();
	if ((rc = rrd_tune(argc, argv)) != 0)
		snprintf(why, len, "cannot add its new sources: %s",
		    rrd_get_error());
	else
		log_info("archive %s: sources from '%s' on added", o->file,
		    ds_name[have]);
out:
	for (i = 2; i < argc; i++)
		free(argv[i]);
	return rc;
}

/* An archive that exists: ours, ours of an earlier layout, or not. */
static void
check_existing(struct archive *a, const struct op *o)
{
	rrd_info_t	*info;
	char		 why[FILE_MAX + 128];
	int		 have;

	rrd_clear_error();
	info = a->daemon != NULL ? rrdc_info(o->file) : rrd_info_r(o->file);
	if (info == NULL && a->daemon != NULL) {
		log_debug("archive %s: info: %s", o->file, rrd_get_error());
		return;		/* rrdcached will say what it makes of updates */
	}
	have = info != NULL ? layout_sources(info) : -1;
	rrd_info_free(info);
	snprintf(why, sizeof(why), "it exists with another layout (or is "
	    "not an RRD)");
	if (have == RRD_NDS || (have > 0 && add_sources(a, o, have, why,
	    sizeof(why)) == 0))
		return;
	mark_broken(a, o->file, why);
}

/*
 * Why a create failed: librrd's message, which may be empty; then the
 * errno it left, or what the directory says.
 */
static void
create_why(const char *file, int err, char *buf, size_t len)
{
	char		 dir[FILE_MAX], *slash;
	struct statvfs	 sv;

	if (rrd_get_error()[0] != '\0') {
		snprintf(buf, len, "%s", rrd_get_error());
		return;
	}
	snprintf(dir, sizeof(dir), "%s", file);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	if (err != 0)
		snprintf(buf, len, "%s", strerror(err));
	else if (statvfs(dir, &sv) == -1 || access(dir, W_OK) == -1)
		snprintf(buf, len, "%s: %s", dir, strerror(errno));
	else if (sv.f_flag & ST_RDONLY)
		snprintf(buf, len, "%s", strerror(EROFS));
	else if (sv.f_bavail == 0)
		snprintf(buf, len, "%s", strerror(ENOSPC));
	else
		snprintf(buf, len, "librrd gave no reason");
}

static struct held *
find_held(struct archive *a, const char *file)
{
	int	i;

	for (i = 0; i < a->nheld; i++)
		if (strcmp(a->held[i].file, file) == 0)
			return &a->held[i];
	return NULL;
}

/* A new entry for file, NULL when the table is full. */
static struct held *
held_add(struct archive *a, const char *file)
{
	struct held	*u;

	if (a->nheld >= (int)(sizeof(a->held) / sizeof(a->held[0])))
		return NULL;
	u = &a->held[a->nheld++];
	memset(u, 0, sizeof(*u));
	snprintf(u->file, sizeof(u->file), "%s", file);
	return u;
}

/* A create failed: say why (once), and try again later. */
static void
create_failed(struct archive *a, const struct op *o, int err)
{
	struct held	*u = find_held(a, o->file);
	char		 why[FILE_MAX + 256];

	if (u == NULL && (u = held_add(a, o->file)) != NULL) {
		create_why(o->file, err, why, sizeof(why));
		log_warnx("archive %s: create: %s%s; tried again every %d s, "
		    "the time until then is a gap in it", o->file, why,
		    a->daemon && !a->local ? " (the directory of this host "
		    "must exist under rrdcached's base directory)" : "",
		    CREATE_RETRY);
		u->heartbeat = o->heartbeat;
	}
	if (u != NULL)
		u->next = time(NULL) + CREATE_RETRY;
	/* a file left half-written (disk full) would read as broken */
	if (a->daemon == NULL)
		unlink(o->file);
}

/* A create worked: one that had failed is no longer tried. */
static void
create_done(struct archive *a, const char *file)
{
	struct held	*u = find_held(a, file);

	if (u == NULL)
		return;
	log_info("archive %s: %s", file, u->unreadable ? "readable again; "
	    "updated from now on" : "created");
	*u = a->held[--a->nheld];
}

/*
 * Reading the file raised SIGBUS (librrd maps it; the disk under it
 * fails). What the interrupted call held of it is released; the file is
 * left alone, its updates a gap, and tried again after a delay that
 * doubles up to 5 minutes while the disk fails.
 */
static void
file_unreadable(struct archive *a, const char *file)
{
	struct held	*u = find_held(a, file);

	mapguard_release(file);
	if (u == NULL && (u = held_add(a, file)) != NULL)
		log_warnx("archive %s: cannot be read back (SIGBUS: the disk "
		    "under it fails); its updates are a gap until it can",
		    file);
	if (u == NULL)
		return;
	u->unreadable = 1;
	u->backoff = u->backoff == 0 ? CREATE_RETRY : u->backoff * 2 > 300 ?
	    300 : u->backoff * 2;
	u->next = time(NULL) + u->backoff;
}

/* Create (no overwrite), or check the layout of the one that exists. */
static void
do_create(struct archive *a, const struct op *o)
{
	char		*argv[48];
	int		 argc, rc, i, err;
	struct stat	 st;

	rrd_clear_error();
	if (a->daemon == NULL && stat(o->file, &st) == 0) {
		check_existing(a, o);
		create_done(a, o->file);
		return;
	}
	if (a->local && a->local_dir != NULL)
		make_dir_of(o->file);	/* librrd resolves paths here */
	if ((argc = create_args(o->heartbeat, argv, 48)) < 0)
		return;
	errno = 0;
	rc = a->daemon ? rrdc_create(o->file, RRD_STEP, time(NULL) - 10, 1,
	    argc, (const char **)argv) : rrd_create_r2(o->file, RRD_STEP,
	    time(NULL) - 10, 1, NULL, NULL, argc, (const char **)argv);
	err = errno;
	if (rc != 0 && a->daemon != NULL && strstr(rrd_get_error(), "exist"))
		check_existing(a, o);
	else if (rc != 0 && strstr(rrd_get_error(), "exist") == NULL)
		create_failed(a, o, err);
	else
		create_done(a, o->file);
	for (i = 0; i < argc; i++)
		free(argv[i]);
}

/* An archive whose create failed: try again when due; 1 while missing. */
static int
still_held(struct archive *a, const char *file)
{
	struct held	*u = find_held(a, file);
	struct op	  o;

	if (u == NULL)
		return 0;
	if (time(NULL) < u->next)
		return 1;
	memset(&o, 0, sizeof(o));
	o.kind = OP_CREATE;
	o.heartbeat = u->heartbeat;
	snprintf(o.file, sizeof(o.file), "%s", file);
	do_create(a, &o);
	return find_held(a, file) != NULL;
}

/*
 * A local update the disk under it refused (full, read-only, failing):
 * the updates are kept, as for an rrdcached that went away, and written
 * in order once the disk takes them (RRD takes past times after its last
 * one), so the archive has no hole. Said once; tried again each second.
 */
static int
disk_refused(struct archive *a, const char *file, int err)
{
	if (err != EIO && err != EROFS && err != ENOSPC && err != EDQUOT)
		return 0;
	if (!a->disk_warned)
		log_warnx("archive %s: update: %s; updates are kept and written "
		    "when the disk takes them", file, strerror(err));
	a->disk_warned = 1;
	a->disk_retry = time(NULL) + 1;
	return 1;
}

static void
disk_back(struct archive *a)
{
	if (a->disk_warned)
		log_info("archive: the disk takes updates again");
	a->disk_warned = 0;
}

/* One call for several updates of the same file; -1 when rrdcached went
 * away or the disk refused them (the updates are to be kept and sent
 * again). */
static int
do_updates(struct archive *a, const char *file, const char **values, int n)
{
	int	rc;

	if (is_broken(a, file) || still_held(a, file))
		return 0;	/* a gap, not invented data */
	rrd_clear_error();
	errno = 0;
	rc = a->daemon ? rrdc_update(file, n, values) :
	    rrd_update_r(file, NULL, n, values);
	if (rc == 0) {
		disk_back(a);
		return 0;
	}
	if (a->daemon != NULL && !rrdc_is_any_connected()) {
		a->connected = 0;
		return -1;
	}
	if (a->daemon == NULL && disk_refused(a, file, errno))
		return -1;
	log_debug("archive %s: update: %s", file, rrd_get_error());
	return 0;
}

/* May the writer go on? rrdcached: (re)connect, log once while it is
 * away; local files: not before the disk is to be tried again. */
static int
ensure_connected(struct archive *a)
{
	if (a->daemon == NULL)
		return time(NULL) >= a->disk_retry;
	if (a->connected && rrdc_is_any_connected())
		return 1;
	rrd_clear_error();
	a->connected = rrdc_connect(a->daemon) == 0 && rrdc_is_any_connected();
	if (a->connected && a->down_warned)
		log_info("archive: rrdcached %s is back", a->daemon);
	else if (!a->connected && !a->down_warned)
		log_warnx("archive: rrdcached %s unreachable (%s); updates are "
		    "kept and sent when it is back", a->daemon,
		    rrd_get_error());
	a->down_warned = !a->connected;
	return a->connected;
}

/* One create, or one group of updates of a file, as one guarded call. */
struct step {
	struct archive	 *a;
	const struct op	 *o;
	const char	**vals;
	int		  n;
	int		  rc;
};

static void
step_run(void *arg)
{
	struct step	*s = arg;

	if (s->o->kind == OP_CREATE)
		do_create(s->a, s->o);
	else
		s->rc = do_updates(s->a, s->o->file, s->vals, s->n);
}

/* A create was made, found, or failed (then it is held and retried). */
static void
create_settled(struct archive *a)
{
	pthread_mutex_lock(&a->mu);
	a->creating--;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

/* Whether the writer can go on, published for archive_wait_created. */
static void
set_stalled(struct archive *a, int stalled)
{
	pthread_mutex_lock(&a->mu);
	a->stalled = stalled;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

/*
 * Carry out a batch: creates one by one, updates grouped by file. Returns
 * what could not be sent because rrdcached went away, to be kept.
 */
static struct op *
run_batch(struct archive *a, struct op *ops)
{
	const char	*vals[BATCH_MAX];
	struct op	*o = ops, *g, *next;
	struct step	 st;
	int		 n;

	while (o != NULL) {
		g = o->next;
		n = 0;
		if (o->kind == OP_UPDATE)
			for (g = o; g != NULL && g->kind == OP_UPDATE &&
			    strcmp(g->file, o->file) == 0 && n < BATCH_MAX;
			    g = g->next)
				vals[n++] = g->values;
		st = (struct step){ a, o, vals, n, 0 };
		if (mapguard_run(step_run, &st) == -1)
			file_unreadable(a, o->file);
		else if (st.rc == -1)
			return o;	/* o and what follows stay */
		if (o->kind == OP_CREATE)
			create_settled(a);
		while (o != g) {
			next = o->next;
			free(o);
			o = next;
		}
	}
	return NULL;
}

/* Put unsent operations back at the head of the queue (lock held). */
static void
requeue(struct archive *a, struct op *ops)
{
	struct op	*last = ops;
	size_t		 n = 1;

	while (last->next != NULL) {
		last = last->next;
		n++;
	}
	last->next = a->head;
	if (a->head == NULL)
		a->tail = last;
	a->head = ops;
	a->len += n;
}

/* Detach up to BATCH_MAX queued operations (lock held). */
static struct op *
take_batch(struct archive *a)
{
	struct op	*first = a->head, *last = a->head;
	size_t		 n = 1;

	while (n < BATCH_MAX && last->next != NULL) {
		last = last->next;
		n++;
	}
	a->head = last->next;
	if (a->head == NULL)
		a->tail = NULL;
	last->next = NULL;
	a->len -= n;
	return first;
}

static void *
writer_main(void *arg)
{
	struct archive	*a = arg;
	struct timespec	 ts;
	struct op	*batch;

	pthread_mutex_lock(&a->mu);
	while (!a->quit || a->len > 0) {
		while (!a->quit && a->len == 0)
			pthread_cond_wait(&a->cv, &a->mu);
		if (a->len == 0)
			break;
		pthread_mutex_unlock(&a->mu);
		set_stalled(a, !ensure_connected(a));
		if (a->stalled) {		/* only this thread writes it */
			pthread_mutex_lock(&a->mu);
			if (a->quit)
				break;	/* rrdcached away at exit: nothing to do */
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 1;
			pthread_cond_timedwait(&a->cv, &a->mu, &ts);
			continue;
		}
		pthread_mutex_lock(&a->mu);
		batch = take_batch(a);
		pthread_mutex_unlock(&a->mu);
		batch = run_batch(a, batch);
		pthread_mutex_lock(&a->mu);
		if (batch != NULL)
			requeue(a, batch);	/* kept for when it is back */
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

/* Whether this process may open sockets of a family (seccomp may say no). */
static int
family_allowed(int family)
{
	int	fd;

	if ((fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0)) != -1) {
		close(fd);
		return 1;
	}
	return errno != EAFNOSUPPORT;
}

/*
 * A remote rrdcached needs IP sockets, which the shipped unit forbids
 * (RestrictAddressFamilies=AF_UNIX): say so once, rather than leaving the
 * operator with an "unreachable" that a working rrdcached contradicts.
 * [v6]:port or a bare v6 address needs AF_INET6, a dotted quad AF_INET, a
 * name either.
 */
static void
check_ip_allowed(const char *addr)
{
	size_t		hostlen = strcspn(addr, ":");
	int		v6 = addr[0] == '[' || strchr(addr, ':') != strrchr(addr, ':');
	int		v4 = !v6 && strspn(addr, "0123456789.") == hostlen;
	const char	*need;

	if (v6)
		need = family_allowed(AF_INET6) ? NULL : "AF_INET6";
	else if (v4)
		need = family_allowed(AF_INET) ? NULL : "AF_INET";
	else
		need = family_allowed(AF_INET) || family_allowed(AF_INET6) ?
		    NULL : "AF_INET and AF_INET6";
	if (need != NULL)
		log_warnx("archive: rrdcached %s is remote, but this process may "
		    "not open %s sockets (RestrictAddressFamilies= of the "
		    "service); allow them in a drop-in, see ssdtortured(8)",
		    addr, need);
}

struct archive *
archive_new(const char *daemon_addr, const char *local_dir)
{
	struct archive	*a;

	if ((a = calloc(1, sizeof(*a))) == NULL)
		return NULL;
	if ((daemon_addr != NULL && (a->daemon = strdup(daemon_addr)) == NULL) ||
	    (local_dir != NULL && (a->local_dir = strdup(local_dir)) == NULL)) {
		free(a->daemon);
		free(a);
		return NULL;
	}
	a->local = daemon_addr != NULL && (daemon_addr[0] == '/' ||
	    strncmp(daemon_addr, "unix:", 5) == 0);
	if (gethostname(a->host, sizeof(a->host)) == -1 || a->host[0] == '\0')
		snprintf(a->host, sizeof(a->host), "localhost");
	a->host[strcspn(a->host, ".")] = '\0';	/* short name */
	if (daemon_addr != NULL && !a->local)
		check_ip_allowed(daemon_addr);
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	mapguard_init();
	if (pthread_create(&a->thr, NULL, writer_main, a) != 0) {
		free(a->daemon);
		free(a);
		return NULL;
	}
	return a;
}

void
archive_free(struct archive *a)
{
	struct op	*o;

	if (a == NULL)
		return;
	pthread_mutex_lock(&a->mu);
	a->quit = 1;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->thr, NULL);
	while ((o = a->head) != NULL) {
		a->head = o->next;
		free(o);
	}
	if (a->daemon != NULL)
		rrdc_disconnect();
	free(a->daemon);
	free(a->local_dir);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	free(a);
}

void
archive_file(const struct archive *a, const char *state_dir,
    const char *name, char *buf, size_t len)
{
	char	dir[FILE_MAX];

	if (a->daemon != NULL && !a->local)
		snprintf(buf, len, "%s/%s.rrd", a->host, name);	/* remote base */
	else if (a->local && a->local_dir != NULL)
		snprintf(buf, len, "%s/%s/%s.rrd", a->local_dir, a->host, name);
	else if (statedir_drive_dir(dir, sizeof(dir), state_dir, name) == -1 ||
	    statedir_path(buf, len, dir, STATEDIR_ARCHIVE) == -1)
		buf[0] = '\0';		/* no file rather than another one */
}

/* Append an operation; when full, drop the oldest update. */
static void
enqueue(struct archive *a, struct op *o)
{
	struct op	*old;

	pthread_mutex_lock(&a->mu);
	if (a->len >= QUEUE_MAX && (old = a->head) != NULL &&
	    old->kind == OP_UPDATE) {
		a->head = old->next;
		a->len--;
		if (a->dropped++ % 10000 == 0)
			log_warnx("archive: queue full, oldest updates dropped "
			    "(%llu so far)", (unsigned long long)a->dropped);
		free(old);
	}
	if (a->tail != NULL)
		a->tail->next = o;
	else
		a->head = o;
	a->tail = o;
	a->len++;
	if (o->kind == OP_CREATE)
		a->creating++;
	pthread_cond_signal(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

static void
queue_op(struct archive *a, enum op_kind kind, const char *file,
    unsigned heartbeat, const char *values)
{
	struct op	*o;

	if ((o = calloc(1, sizeof(*o))) == NULL)
		return;
	o->kind = kind;
	o->heartbeat = heartbeat;
	snprintf(o->file, sizeof(o->file), "%s", file);
	snprintf(o->values, sizeof(o->values), "%s", values ? values : "");
	enqueue(a, o);
}

void
archive_open(struct archive *a, const char *file, unsigned heartbeat)
{
	queue_op(a, OP_CREATE, file, heartbeat, NULL);
}

void
archive_update(struct archive *a, const char *file, const char *values)
{
	queue_op(a, OP_UPDATE, file, 0, values);
}

int
archive_wait_created(struct archive *a, unsigned timeout_ms)
{
	struct timespec	ts;
	int		done;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&a->mu);
	while (a->creating > 0 && !a->stalled &&
	    pthread_cond_timedwait(&a->cv, &a->mu, &ts) != ETIMEDOUT)
		;
	done = a->creating == 0;
	pthread_mutex_unlock(&a->mu);
	return done;
}

json_object *
archive_json(const struct archive *a, const char *file)
{
	json_object	*o = json_object_new_object();

	json_object_object_add(o, "file", json_object_new_string(file));
	json_object_object_add(o, "daemon", json_object_new_string(
	    a->daemon ? a->daemon : ""));
	return o;
}
