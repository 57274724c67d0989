/*
 * probebench.c: the probe engine (engine_probe.c) against fio running the
 * same workload on the same target, for the two rows the issue sets a
 * floor on: 4 KiB random write and 4 KiB random read at QD32
 * (rand-write-4k-qd32, rand-read-4k-qd32).
 *
 * Target: a file on /dev/shm (tmpfs) opened with O_DIRECT, both tools on
 * the same region of it, filled once by a probe fill job before anything
 * is measured. Ours writes self-describing units and checks every unit it
 * reads; fio (io_uring, O_DIRECT, fixed buffers, registered file, the
 * options probe_fio_options() gives) verifies nothing. Each measurement
 * has the same ramp and time for both; the pairs alternate which tool
 * goes first. fio's writes destroy the units, so the region is filled
 * again (untimed) after each write pair, before the reads.
 *
 * Printed: every run, then the medians, IOPS and ours/fio ratio per row
 * (the goal: >= 1), and what a probe job costs besides its measured I/O
 * (mapping and registering its buffers, and giving them back): the mean
 * wall time of a run of no duration, whose one round of I/O (the slots'
 * first reads) is included.
 *
 * -B gives fio batches as the engine takes them (iodepth_batch_submit
 * and iodepth_batch_complete_min of a quarter of the queue depth, what
 * engine.c's BATCH_DIV waits for on a fast device), where fio's default
 * submits and reaps one I/O per call.
 *
 * -f may name a block device (a loop device, say), used as it is and
 * kept; its first MiB stands for the static area, never touched.
 *
 * -u 512 makes the units 512 bytes, as on a drive of 512-byte logical
 * blocks, where a 4 KiB read checks eight (default 4096: one).
 *
 * -o runs only ours, -O only fio (a profile of one tool; its ratios
 * are then meaningless).
 *
 * -p makes the probes poll for their completions (probe_wait = poll).
 *
 * -R A,B measures the probes named (ids of daemon/engine/probes.h, at most 8)
 * instead of the two rows above; the region is filled again after each
 * row's pair, since fio's writes are no units.
 *
 * Usage: probebench [-B] [-o|-O] [-p] [-f FILE] [-s MiB] [-t SECONDS]
 *                   [-r REPEATS] [-u UNIT] [-R ID,ID...]
 * Exit status: 0 whatever the figures; 1 when a probe finds an error or
 * fio fails; 2 on bad usage or setup.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "clock.h"
#include "engine.h"
#include "log.h"

#define MiB		(1024ULL * 1024)
#define RAMP_S		0.5
#define NREP_MAX	15
#define SETUP_JOBS	20

#define NROW_MAX	8

/* The rows measured: -R names them, default the two the floor is set on. */
static const char	*rows[NROW_MAX] = { "rand-write-4k-qd32",
			    "rand-read-4k-qd32" };
static int		 nrows = 2;

static struct {
	const char	*path;
	uint64_t	 region;	/* bytes */
	double		 secs;
	int		 reps;
	int		 batch;		/* -B */
	uint32_t	 unit;		/* -u: bytes of a self-describing unit */
	int		 is_blk;	/* -f names a block device: kept */
	int		 only;		/* -o ours, -O fio: that tool alone */
	int		 poll;		/* -p: the probes poll (probe_wait) */
	int		 fd;
	struct layout	 lay;
	struct engine	*e;
} B = { "/dev/shm/probebench.img", 256 * MiB, 3.0, 3, 0, 4096, 0, 0,
    0, -1, { 0 }, NULL };

static void
die(int rc, const char *msg)
{
	fprintf(stderr, "probebench: %s\n", msg);
	exit(rc);
}

/* A probe job over the region (the static area is the first MiB). */
static void
job_of(struct job *j, enum job_kind k, const char *id, double secs)
{
	memset(j, 0, sizeof(*j));
	j->kind = k;
	j->lay = B.lay;
	j->queue_depth = 32;
	j->generation = 1;
	j->expect.instance = 0xbe4c;
	j->pj.region_off = MiB;
	j->pj.region_len = B.region;
	j->pj.unit = B.unit;
	j->pj.gen_lo = j->pj.gen_hi = 1;
	j->pj.stamp_ns = 1;
	j->pj.probe = id ? probe_find(id) : NULL;
	j->pj.ramp_ns = id && secs > 0 ? (uint64_t)(RAMP_S * 1e9) : 0;
	j->pj.duration_ns = (uint64_t)(secs * 1e9);
	j->pj.seed = (uint64_t)mono_ns();
	j->pj.poll = B.poll;
}

/* -R's list, split in place; exits on an unknown id. */
static void
rows_parse(char *list)
{
	char	*id, *save = NULL;

	nrows = 0;
	for (id = strtok_r(list, ",", &save); id != NULL;
	    id = strtok_r(NULL, ",", &save)) {
		if (nrows == NROW_MAX || probe_find(id) == NULL)
			die(2, "-R: an unknown probe id, or more than 8");
		rows[nrows++] = id;
	}
	if (nrows == 0)
		die(2, "-R: no probe id");
}

/* Run a job to its end; its result. Exits when it fails or finds errors. */
static void
run(const struct job *j, struct probe_result *r)
{
	struct engine_stats	st;
	struct finding		f[64];
	struct timespec		ts = { 0, 1000000 };
	enum job_end		end;
	int			err;
	uint64_t		bad = 0;
	size_t			i, n;

	if (engine_submit(B.e, j) != 0)
		die(2, "engine busy");
	while (!engine_job_done(B.e, &end, &err))
		nanosleep(&ts, NULL);
	while ((n = engine_poll(B.e, &st, f, 64)) > 0)
		for (i = 0; i < n; i++)
			bad += f[i].nblocks;
	if (end != JOB_DONE || bad != 0 || engine_probe_result(B.e, r) != 0) {
		fprintf(stderr, "probebench: job %d: end %d (%s), %llu bad "
		    "units\n", j->kind, end, strerror(err),
		    (unsigned long long)bad);
		exit(1);
	}
}

/* fio's IOPS for the probe's workload (both directions summed). */
static double
fio_iops(const char *id)
{
	char		 opts[512], cmd[1536], *buf = NULL;
	size_t		 len = 0;
	FILE		*p;
	struct json_object *o, *jobs, *job, *d, *v;
	double		 iops = 0;
	int		 k;

	if (probe_fio_options(probe_find(id), opts, sizeof(opts)) != 0)
		die(2, "fio options");
	snprintf(cmd, sizeof(cmd), "fio --name=%s --filename=%s --offset=%llu "
	    "--size=%llu --ioengine=io_uring --direct=1 --fixedbufs "
	    "--registerfiles --time_based --ramp_time=%.0fms --runtime=%.0fms "
	    "--output-format=json %s%s", id, B.path, (unsigned long long)MiB,
	    (unsigned long long)B.region, RAMP_S * 1e3, B.secs * 1e3, opts,
	    B.batch ? " --iodepth_batch_submit=8 "
	    "--iodepth_batch_complete_min=8" : "");
	if ((p = popen(cmd, "r")) == NULL)
		die(2, "popen fio");
	if (getdelim(&buf, &len, '\0', p) < 0 || pclose(p) != 0)
		die(1, "fio failed");
	o = json_tokener_parse(strchr(buf, '{') ? strchr(buf, '{') : buf);
	if (o == NULL || !json_object_object_get_ex(o, "jobs", &jobs) ||
	    (job = json_object_array_get_idx(jobs, 0)) == NULL)
		die(1, "fio output");
	for (k = 0; k < 2; k++)
		if (json_object_object_get_ex(job, k ? "read" : "write", &d) &&
		    json_object_object_get_ex(d, "iops", &v))
			iops += json_object_get_double(v);
	json_object_put(o);
	free(buf);
	return iops;
}

static double
ours_iops(const char *id)
{
	struct job		j;
	struct probe_result	r;

	job_of(&j, JOB_PROBE_RUN, id, B.secs);
	run(&j, &r);
	return r.iops[LAT_READ] + r.iops[LAT_WRITE];
}

static void
fill(void)
{
	struct job		j;
	struct probe_result	r;

	job_of(&j, JOB_PROBE_FILL, NULL, 0);
	run(&j, &r);
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One pair of runs of a row, the order alternating with the repeat. */
static void
pair(int row, int rep, double *ours, double *fio)
{
	*ours = *fio = 1;
	if (rep % 2 == 0 && B.only != 'O')
		*ours = ours_iops(rows[row]);
	if (B.only != 'o')
		*fio = fio_iops(rows[row]);
	if (rep % 2 != 0 && B.only != 'O')
		*ours = ours_iops(rows[row]);
	printf("run %d %-20s ours %9.0f IOPS  fio %9.0f IOPS  ratio %.3f\n",
	    rep + 1, rows[row], *ours, *fio, *ours / *fio);
	fflush(stdout);
}

/* The mean wall time of a run of no duration of probe id: its fixed cost. */
static void
setup_cost(const char *id)
{
	struct job		j;
	struct probe_result	r;
	uint64_t		t0 = mono_ns();
	int			i;

	job_of(&j, JOB_PROBE_RUN, id, 0);
	for (i = 0; i < SETUP_JOBS; i++)
		run(&j, &r);
	printf("a run of no duration of %s (its buffers mapped, registered, "
	    "given back; one round of I/O): %.0f us\n", id,
	    (double)(mono_ns() - t0) / SETUP_JOBS / 1e3);
}

static void
setup(void)
{
	char		err[256];
	struct stat	st;

	B.fd = open(B.path, O_RDWR | O_CREAT | O_DIRECT | O_CLOEXEC, 0600);
	if (B.fd < 0 || fstat(B.fd, &st) != 0)
		die(2, "cannot open the target (O_DIRECT on its filesystem?)");
	B.is_blk = S_ISBLK(st.st_mode);
	if (B.is_blk ? lseek(B.fd, 0, SEEK_END) < (off_t)(B.region + MiB) :
	    ftruncate(B.fd, (off_t)(B.region + MiB)) != 0)
		die(2, "the target is smaller than the region and its MiB");
	if (layout_init(&B.lay, B.region + MiB, B.region + MiB, 128 * 1024,
	    (double)MiB / (double)(B.region + MiB), err, sizeof(err)) != 0)
		die(2, err);
	/*
	 * The worker starts ENGINE_WORKER_NICE above this thread; ssdtortured
	 * runs its main thread as far below its start where allowed, so that
	 * the worker competes for CPU at fio's nice (fio sets its jobs' to 0):
	 * do the same, or on a busy host the comparison is unfair to ours.
	 */
	(void)engine_nice_step(-ENGINE_WORKER_NICE, NULL);
	if ((B.e = engine_start(B.fd, "bench", NULL, 128 * 1024, 32, err,
	    sizeof(err))) == NULL)
		die(2, err);
}

int
main(int argc, char **argv)
{
	double	o[NROW_MAX][NREP_MAX], f[NROW_MAX][NREP_MAX], mo, mf;
	int	c, rep, row;

	while ((c = getopt(argc, argv, "BoOpf:s:t:r:u:R:")) != -1) {
		switch (c) {
		case 'B': B.batch = 1; break;
		case 'o': case 'O': B.only = c; break;
		case 'p': B.poll = 1; break;
		case 'f': B.path = optarg; break;
		case 's': B.region = strtoull(optarg, NULL, 10) * MiB; break;
		case 't': B.secs = atof(optarg); break;
		case 'r': B.reps = atoi(optarg); break;
		case 'u': B.unit = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'R': rows_parse(optarg); break;
		default: die(2, "usage: probebench [-B] [-o|-O] [-p] [-f FILE] "
		    "[-s MiB] [-t SECONDS] [-r REPEATS] [-u UNIT] [-R ID,ID...]");
		}
	}
	if (B.reps < 1 || B.reps > NREP_MAX || B.secs <= 0 || B.region < MiB ||
	    (B.unit != 512 && B.unit != 4096))
		die(2, "bad arguments");
	log_init("probebench", 0);
	setup();
	fill();
	setup_cost("rand-read-4k-qd1");
	setup_cost("seq-read-256k-qd32");
	for (rep = 0; rep < B.reps; rep++)
		for (row = 0; row < nrows; row++) {
			pair(row, rep, &o[row][rep], &f[row][rep]);
			if (row + 1 < nrows)
				fill();	/* fio's writes are no units */
		}
	for (row = 0; row < nrows; row++) {
		mo = median(o[row], B.reps);
		mf = median(f[row], B.reps);
		printf("median %-20s ours %9.0f IOPS  fio %9.0f IOPS  ratio "
		    "%.3f%s\n", rows[row], mo, mf, mo / mf,
		    mo >= mf ? "" : "  (below goal)");
	}
	engine_free(B.e);
	close(B.fd);
	if (!B.is_blk)
		unlink(B.path);
	return 0;
}
