/*
 * methods.h: the handlers of the control interface, one per method. They
 * check the method's parameters and the caller's right, then call the
 * daemon through control_ops; they never touch a drive or a socket.
 */
#ifndef SSDT_METHODS_H
#define SSDT_METHODS_H

#include <sys/types.h>

#include <json-c/json.h>

#include "proto.h"
#include "varlink.h"

#define EVENTS_DEFAULT	20
#define EVENTS_MAX	PROTO_EVENTS_MAX

struct peer {
	pid_t	pid;
	uid_t	uid;
	gid_t	gid;
	int	fd;		/* to ask the kernel again (SO_PEERCRED) */
};

enum ctl_cmd { CMD_START, CMD_STOP, CMD_PAUSE, CMD_RESUME, CMD_VERIFY,
	CMD_CHECKPOINT, CMD_POWERCUT };

struct control_ops {
	void	*arg;
	/* Append DriveStatus objects; -ENOENT when the named drive is unknown. */
	int	(*status)(void *arg, const char *drive, json_object *drives);
	/* 0, -ENOENT, or -EBUSY with a message and the drive's state. */
	int	(*command)(void *arg, enum ctl_cmd, const char *drive,
		    char *msg, size_t msglen, char *state, size_t statelen);
	/* SMART detail into `out`; -ENOENT unknown, -ENODATA no reading. */
	int	(*smart)(void *arg, const char *drive, json_object *out);
	/* Append the last `count` events; -ENOENT when unknown. */
	int	(*events)(void *arg, const char *drive, int count,
		    json_object *events);
	/* The error map of a verify pass (0: the latest) into `out`, its
	 * extents merged to `resolution` parts of the span (0: exact), only
	 * the blocks an earlier pass found bad too when `again`;
	 * -ENOENT unknown drive, -ENODATA no such pass or map. */
	int	(*errors)(void *arg, const char *drive, uint64_t pass,
		    uint32_t resolution, int again, json_object *out);
	/* Append every line of the drive's checkpoint results (an empty
	 * array when there are none yet); -ENOENT when unknown. */
	int	(*checkpoints)(void *arg, const char *drive,
		    json_object *probes);
	/* Append every SMART snapshot line of the drive (smart.jsonl; an
	 * empty array when there are none); -ENOENT when unknown. */
	int	(*snapshots)(void *arg, const char *drive,
		    json_object *snaps);
	/* Append the kept timelines of the drive's write passes (tl_read.h):
	 * pass `pass` whole, or with pass < 0 every one without its times;
	 * -ENOENT when unknown. */
	int	(*timelines)(void *arg, const char *drive, int64_t pass,
		    json_object *out);
	/* Append the long tests' series of checkpoint `ckpt` (0: the latest
	 * that has any; series_read.h); -ENOENT when unknown. */
	int	(*series)(void *arg, const char *drive, uint64_t ckpt,
		    json_object *out);
	/* 0, or -1 with the error lines appended to `errors`. */
	int	(*reload)(void *arg, json_object *errors);
	/* May this peer call a mutating method? Must fail closed. */
	int	(*authorize)(void *arg, const struct peer *, const char *method);
};

/*
 * A reply is either whole (reply) or a list the connection writes out in
 * pieces as the client reads it ({"parameters":{list_key: list}}), so
 * that no documented call is too large to answer.
 */
struct dispatch_out {
	struct vl_msg	reply;		/* buf NULL: see list, or none (oneway) */
	json_object	*list;		/* owned by the caller once set */
	const char	*list_key;
	int		follow;		/* the list opens a stream of this drive's events */
	char		drive[64];
};

void	methods_dispatch(const struct vl_call *, const struct peer *,
	    const struct control_ops *, struct dispatch_out *);

#endif
