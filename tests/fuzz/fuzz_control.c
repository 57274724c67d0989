/*
 * fuzz_control.c: libFuzzer target for the control protocol: the input
 * is a byte stream cut at NUL bytes into messages, each parsed and
 * dispatched against a fake daemon with two drives. Any crash, leak or
 * sanitizer report is a bug; so is a message that gets no reply.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "methods.h"
#include "varlink.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
known(const char *d)
{
	return strcmp(d, "bay1") == 0 || strcmp(d, "bay2") == 0;
}

static int
f_status(void *arg, const char *drive, json_object *drives)
{
	(void)arg;
	if (drive != NULL && !known(drive))
		return -ENOENT;
	json_object_array_add(drives, json_object_new_object());
	return 0;
}

static int
f_command(void *arg, enum ctl_cmd cmd, const char *drive, char *msg,
    size_t msglen, char *state, size_t statelen)
{
	(void)arg;
	if (!known(drive))
		return -ENOENT;
	if (cmd == CMD_RESUME) {
		snprintf(msg, msglen, "%s: not paused", drive);
		snprintf(state, statelen, "running");
		return -EBUSY;
	}
	return 0;
}

static int
f_events(void *arg, const char *drive, int count, json_object *events)
{
	(void)arg;
	if (!known(drive))
		return -ENOENT;
	while (count-- > 0 && json_object_array_length(events) < 3)
		json_object_array_add(events, json_object_new_object());
	return 0;
}

static int
f_smart(void *arg, const char *drive, json_object *out)
{
	(void)arg;
	if (!known(drive))
		return -ENOENT;
	if (strcmp(drive, "bay2") == 0)
		return -ENODATA;
	json_object_object_add(out, "latest", json_object_new_object());
	return 0;
}

static int
f_errors(void *arg, const char *drive, uint64_t pass, uint32_t resolution,
    int again, json_object *out)
{
	(void)arg;
	(void)resolution;
	(void)again;
	if (!known(drive))
		return -ENOENT;
	if (pass > 3)
		return -ENODATA;
	json_object_object_add(out, "extents", json_object_new_array());
	return 0;
}

static int
f_checkpoints(void *arg, const char *drive, json_object *probes)
{
	(void)arg;
	if (!known(drive))
		return -ENOENT;
	json_object_array_add(probes, json_object_new_object());
	return 0;
}

static int
f_timelines(void *arg, const char *drive, int64_t pass, json_object *out)
{
	(void)arg;
	if (!known(drive))
		return -ENOENT;
	if (pass < 0)
		json_object_array_add(out, json_object_new_object());
	return 0;
}

static int
f_series(void *arg, const char *drive, uint64_t ckpt, json_object *out)
{
	(void)arg;
	if (!known(drive))
		return -ENOENT;
	if (ckpt == 0)
		json_object_array_add(out, json_object_new_object());
	return 0;
}

static int
f_reload(void *arg, json_object *errors)
{
	(void)arg;
	json_object_array_add(errors, json_object_new_string("x:1: bad"));
	return -1;
}

static int
f_authorize(void *arg, const struct peer *p, const char *method)
{
	(void)arg;
	(void)method;
	return p->uid == 0;
}

static const struct control_ops ops = {
	.arg = NULL,
	.status = f_status,
	.command = f_command,
	.smart = f_smart,
	.errors = f_errors,
	.checkpoints = f_checkpoints,
	.snapshots = f_checkpoints,	/* the same shape */
	.timelines = f_timelines,
	.series = f_series,
	.events = f_events,
	.reload = f_reload,
	.authorize = f_authorize,
};

/* One message: a reply (or, for oneway, none) must come back. */
static void
one_message(const char *msg, size_t len, uid_t uid)
{
	struct peer		p = { 1, uid, uid, -1 };
	struct vl_call		c;
	struct vl_msg		err;
	struct dispatch_out	out;

	if (vl_parse(msg, len, &c, &err) == -1) {
		if (err.buf != NULL && err.buf[err.len - 1] != '\0')
			abort();
		free(err.buf);
		return;
	}
	methods_dispatch(&c, &p, &ops, &out);
	if (out.reply.buf == NULL && out.list == NULL && !c.oneway)
		abort();
	if (out.list != NULL && (out.reply.buf != NULL || c.oneway ||
	    !json_object_is_type(out.list, json_type_array)))
		abort();
	free(out.reply.buf);
	json_object_put(out.list);
	vl_call_free(&c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*p = (const char *)data, *end = p + size, *nul;
	uid_t		 uid = size > 0 && (data[0] & 1) ? 1000 : 0;

	while (p < end) {
		nul = memchr(p, '\0', (size_t)(end - p));
		one_message(p, nul ? (size_t)(nul - p) : (size_t)(end - p),
		    uid);
		if (nul == NULL)
			break;
		p = nul + 1;
	}
	return 0;
}
