/*
 * fe.h: ssdsim's front-end, the state its parts share. One mutex (lock)
 * guards the model, the data file's contents as the model sees them and
 * the power state, so that every request meets the model in one order,
 * the order of its `now`. Replies wait in the reply queue (fe_reply.c)
 * until the model's completion time.
 */
#ifndef SSDSIM_FE_H
#define SSDSIM_FE_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

#define FE_SECTOR	512ULL		/* the model's unit of address */
#define FE_PAGE		4096ULL		/* what its trim frees (model.h) */
#define FE_BLKSIZE	4096		/* st_blksize of the drive file */
#define FE_MAX_IO	(1024 * 1024)	/* max_write / max_read asked for */

struct fuse_session;
struct fe_reply_q;

/* What one write replaced, kept while a power cut can still lose it. */
struct fe_undo {
	uint64_t	 seq;		/* the model's number of the write */
	uint64_t	 off, len;	/* the bytes the model counts */
	uint64_t	 live;		/* of them, still losable */
	unsigned char	*old;		/* their content before it */
};

struct fe {
	pthread_mutex_t		 lock;		/* model, data, power */
	struct sim_model	*m;
	struct sim_profile	 prof;
	uint64_t		 capacity;
	int			 datafd;	/* the sparse backing file */
	int			 powered;
	uint64_t		 power_gen;	/* bumped at each power off */
	uint64_t		 seed;
	/* controller busy time: the union of the requests' spans */
	uint64_t		 busy_until, busy_ns;
	FILE			*truth;		/* NULL: no truth log */
	/* losable writes' old bytes, by seq; dead ones (live 0) too */
	struct fe_undo		*undo;
	size_t			 undo_n, undo_cap, undo_dead;
	uint64_t		 undo_bytes;	/* held in undo[].old */
	struct fe_reply_q	*rq;
	struct fuse_session	*se;
	pthread_t		 main_thread;
	const char		*mountpoint;
	char			 drive_path[4096];	/* MOUNTPOINT/drive */
};

/* CLOCK_MONOTONIC in nanoseconds: the model's clock. */
uint64_t fe_now(void);

/*
 * A request from `now` to `done` kept the controller busy (NVMe's
 * Controller Busy Time counts the time with commands outstanding). The
 * requests come in the order of their `now`, under fe->lock.
 */
static inline void
fe_busy(struct fe *fe, uint64_t now, uint64_t done)
{
	if (done <= fe->busy_until)
		return;
	fe->busy_ns += done - (now > fe->busy_until ? now : fe->busy_until);
	fe->busy_until = done;
}

/* fe_truth.c: the model's truth records, one JSON object a line. */
int	fe_truth_open(struct fe *fe, const char *path);
void	fe_truth_emit(void *arg, const char *json_line);
void	fe_truth_close(struct fe *fe);

/* fe_power.c: a power cut and its return (callers hold no lock). */
int	fe_power_off(struct fe *fe, size_t *nlost, uint64_t *lost_bytes,
	    char *msg, size_t len);
int	fe_power_on(struct fe *fe, char *msg, size_t len);

/* fe_ctl.c: the control socket. */
int	fe_ctl_listen(const char *path);
int	fe_ctl_start(struct fe *fe, int lfd, const char *path);
void	fe_ctl_stop(void);
/* Client side: send one line, return the parsed reply (NULL: err). */
struct json_object;
struct json_object *fe_ctl_call(const char *path, const char *req,
	    char *err, size_t errlen);

/* fe_smart.c: the model's counters as smartctl --json -a prints an NVMe
 * drive; a json-c object the caller puts. */
struct json_object *fe_smart_json(const struct fe *fe,
	    const struct sim_counters *c);
/* What smartctl prints of a drive it cannot open. */
struct json_object *fe_smart_absent(const struct fe *fe, const char *why);

/* fe_fuse.c: the FUSE low-level operations. */
struct fuse_lowlevel_ops;
const struct fuse_lowlevel_ops *fe_fuse_ops(void);
void	fe_fuse_forget_drive(struct fe *fe);

#endif
