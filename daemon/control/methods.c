/* methods.c: the handlers of the control interface, one per method. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "methods.h"

struct req {
	const struct vl_call	*call;
	const struct peer	*peer;
	const struct control_ops *ops;
	struct dispatch_out	*out;
};

struct handler {
	const char	*method;	/* full name */
	void		(*fn)(struct req *);
};

/* A string parameter; replies InvalidParameter and returns NULL when bad. */
static const char *
param_string(struct req *r, const char *name, int required)
{
	json_object	*v;

	if (!json_object_object_get_ex(r->call->params, name, &v) || v == NULL) {
		if (required)
			vl_error_param(name, &r->out->reply);
		return NULL;
	}
	if (!json_object_is_type(v, json_type_string) ||
	    json_object_get_string_len(v) == 0 ||
	    strlen(json_object_get_string(v)) !=
	    (size_t)json_object_get_string_len(v)) {	/* an embedded NUL */
		vl_error_param(name, &r->out->reply);
		return NULL;
	}
	return json_object_get_string(v);
}

/* An optional integer parameter within [lo, hi]; -1 after an error reply. */
static int
param_int(struct req *r, const char *name, int lo, int hi, int *val)
{
	json_object	*v;
	int64_t		 n;

	if (!json_object_object_get_ex(r->call->params, name, &v) || v == NULL)
		return 0;
	if (!json_object_is_type(v, json_type_int)) {
		vl_error_param(name, &r->out->reply);
		return -1;
	}
	n = json_object_get_int64(v);
	if (n < lo || n > hi) {
		vl_error_param(name, &r->out->reply);
		return -1;
	}
	*val = (int)n;
	return 0;
}

/* An optional boolean parameter; -1 after an error reply. */
static int
param_bool(struct req *r, const char *name, int *val)
{
	json_object	*v;

	if (!json_object_object_get_ex(r->call->params, name, &v) || v == NULL)
		return 0;
	if (!json_object_is_type(v, json_type_boolean)) {
		vl_error_param(name, &r->out->reply);
		return -1;
	}
	*val = json_object_get_boolean(v);
	return 0;
}

static void
no_such_drive(struct req *r, const char *drive)
{
	json_object	*p = json_object_new_object();

	json_object_object_add(p, "drive", json_object_new_string(drive));
	vl_error(PROTO_INTERFACE ".NoSuchDrive", p, &r->out->reply);
}

static void
m_get_info(struct req *r)
{
	json_object	*p = json_object_new_object(), *ifs;

	ifs = json_object_new_array();
	json_object_array_add(ifs, json_object_new_string(PROTO_SERVICE));
	json_object_array_add(ifs, json_object_new_string(PROTO_INTERFACE));
	json_object_object_add(p, "vendor", json_object_new_string("ssdtorture"));
	json_object_object_add(p, "product",
	    json_object_new_string("ssdtortured"));
	json_object_object_add(p, "version",
	    json_object_new_string(PROTO_VERSION));
	json_object_object_add(p, "url",
	    json_object_new_string("man:ssdtortured(8)"));
	json_object_object_add(p, "interfaces", ifs);
	vl_reply(p, 0, &r->out->reply);
}

static void
m_get_description(struct req *r)
{
	const char	*iface = param_string(r, "interface", 1);
	const char	*idl = NULL;
	json_object	*p;

	if (iface == NULL)
		return;
	if (strcmp(iface, PROTO_INTERFACE) == 0)
		idl = proto_manager_idl;
	else if (strcmp(iface, PROTO_SERVICE) == 0)
		idl = proto_service_idl;
	p = json_object_new_object();
	if (idl == NULL) {
		json_object_object_add(p, "interface",
		    json_object_new_string(iface));
		vl_error(PROTO_SERVICE ".InterfaceNotFound", p, &r->out->reply);
		return;
	}
	json_object_object_add(p, "description", json_object_new_string(idl));
	vl_reply(p, 0, &r->out->reply);
}

static void
m_status(struct req *r)
{
	json_object	*drives, *p;
	const char	*drive = param_string(r, "drive", 0);

	if (drive == NULL && r->out->reply.buf != NULL)
		return;		/* present but invalid */
	drives = json_object_new_array();
	if (r->ops->status(r->ops->arg, drive, drives) == -ENOENT) {
		json_object_put(drives);
		no_such_drive(r, drive);
		return;
	}
	p = json_object_new_object();
	json_object_object_add(p, "drives", drives);
	vl_reply(p, 0, &r->out->reply);
}

/*
 * The answer of a lookup about one drive (its rc): `p` as the reply when
 * 0, NoSuchDrive for -ENOENT, else the method's own error `err` with the
 * drive (and the pass, unless it is -1). Takes `p`.
 */
static void
drive_answer(struct req *r, const char *drive, int rc, json_object *p,
    const char *err, int pass)
{
	if (rc == 0) {
		vl_reply(p, 0, &r->out->reply);
		return;
	}
	json_object_put(p);
	if (rc == -ENOENT) {
		no_such_drive(r, drive);
		return;
	}
	p = json_object_new_object();
	json_object_object_add(p, "drive", json_object_new_string(drive));
	if (pass != -1)
		json_object_object_add(p, "pass", json_object_new_int(pass));
	vl_error(err, p, &r->out->reply);
}

static void
m_smart(struct req *r)
{
	const char	*drive = param_string(r, "drive", 1);
	json_object	*p;

	if (drive == NULL)
		return;
	p = json_object_new_object();
	drive_answer(r, drive, r->ops->smart(r->ops->arg, drive, p), p,
	    PROTO_INTERFACE ".NoSmart", -1);
}

static void
m_events(struct req *r)
{
	const char	*drive = param_string(r, "drive", 1);
	json_object	*events;
	int		 count = EVENTS_DEFAULT;

	if (drive == NULL ||
	    param_int(r, "count", 0, EVENTS_MAX, &count) == -1)
		return;
	events = json_object_new_array();
	if (r->ops->events(r->ops->arg, drive, count, events) == -ENOENT) {
		json_object_put(events);
		no_such_drive(r, drive);
		return;
	}
	r->out->list = events;
	r->out->list_key = "events";
	if (r->call->more) {
		r->out->follow = 1;
		snprintf(r->out->drive, sizeof(r->out->drive), "%s", drive);
	}
}

static void
m_errors(struct req *r)
{
	const char	*drive = param_string(r, "drive", 1);
	json_object	*p;
	int		 pass = 0, res = 0, again = 0;

	if (drive == NULL || param_int(r, "pass", 1, INT32_MAX, &pass) == -1 ||
	    param_int(r, "resolution", 1, PROTO_MAX_RESOLUTION, &res) == -1 ||
	    param_bool(r, "again", &again) == -1)
		return;
	p = json_object_new_object();
	drive_answer(r, drive, r->ops->errors(r->ops->arg, drive,
	    (uint64_t)pass, (uint32_t)res, again, p), p,
	    PROTO_INTERFACE ".NoErrorMap", pass);
}

/* A list read from a drive's records (Checkpoints, Snapshots): long, so
 * written out as the client reads it. */
static void
m_list(struct req *r, int (*op)(void *, const char *, json_object *),
    const char *key)
{
	const char	*drive = param_string(r, "drive", 1);
	json_object	*list;

	if (drive == NULL)
		return;
	list = json_object_new_array();
	if (op(r->ops->arg, drive, list) == -ENOENT) {
		json_object_put(list);
		no_such_drive(r, drive);
		return;
	}
	r->out->list = list;
	r->out->list_key = key;
}

static void
m_checkpoints(struct req *r)
{
	m_list(r, r->ops->checkpoints, "probes");
}

static void
m_snapshots(struct req *r)
{
	m_list(r, r->ops->snapshots, "snapshots");
}

/* Timelines: the figures of every kept pass, or one pass whole. */
static void
m_timelines(struct req *r)
{
	const char	*drive = param_string(r, "drive", 1);
	json_object	*tls;
	int		 pass = -1;

	if (drive == NULL || param_int(r, "pass", 0, INT32_MAX, &pass) == -1)
		return;
	tls = json_object_new_array();
	if (r->ops->timelines(r->ops->arg, drive, pass, tls) == -ENOENT) {
		json_object_put(tls);
		no_such_drive(r, drive);
		return;
	}
	r->out->list = tls;
	r->out->list_key = "timelines";
}

/* Series: the long tests' per-second figures of one checkpoint. */
static void
m_series(struct req *r)
{
	const char	*drive = param_string(r, "drive", 1);
	json_object	*arr;
	int		 ckpt = 0;

	if (drive == NULL ||
	    param_int(r, "checkpoint", 1, INT32_MAX, &ckpt) == -1)
		return;
	arr = json_object_new_array();
	if (r->ops->series(r->ops->arg, drive, (uint64_t)ckpt, arr) ==
	    -ENOENT) {
		json_object_put(arr);
		no_such_drive(r, drive);
		return;
	}
	r->out->list = arr;
	r->out->list_key = "series";
}

/* Start, Stop, Pause, Resume, Verify, Checkpoint and PowerCut: one
 * drive, one command. */
static void
drive_command(struct req *r, enum ctl_cmd cmd)
{
	const char	*drive = param_string(r, "drive", 1);
	char		 msg[512] = "", state[32] = "";
	json_object	*p;
	int		 rc;

	if (drive == NULL)
		return;
	rc = r->ops->command(r->ops->arg, cmd, drive, msg, sizeof(msg), state,
	    sizeof(state));
	if (rc == -ENOENT) {
		no_such_drive(r, drive);
		return;
	}
	if (rc < 0) {
		p = json_object_new_object();
		json_object_object_add(p, "drive", json_object_new_string(drive));
		json_object_object_add(p, "state", json_object_new_string(state));
		json_object_object_add(p, "message", json_object_new_string(msg));
		vl_error(PROTO_INTERFACE ".InvalidState", p, &r->out->reply);
		return;
	}
	vl_reply(NULL, 0, &r->out->reply);
}

static void m_start(struct req *r) { drive_command(r, CMD_START); }
static void m_stop(struct req *r) { drive_command(r, CMD_STOP); }
static void m_pause(struct req *r) { drive_command(r, CMD_PAUSE); }
static void m_resume(struct req *r) { drive_command(r, CMD_RESUME); }
static void m_verify(struct req *r) { drive_command(r, CMD_VERIFY); }
static void m_checkpoint(struct req *r) { drive_command(r, CMD_CHECKPOINT); }
static void m_powercut(struct req *r) { drive_command(r, CMD_POWERCUT); }

static void
m_reload(struct req *r)
{
	json_object	*errors = json_object_new_array(), *p;

	if (r->ops->reload(r->ops->arg, errors) == 0) {
		json_object_put(errors);
		vl_reply(NULL, 0, &r->out->reply);
		return;
	}
	p = json_object_new_object();
	json_object_object_add(p, "errors", errors);
	vl_error(PROTO_INTERFACE ".ReloadFailed", p, &r->out->reply);
}

static const struct handler handlers[] = {
	{ PROTO_SERVICE ".GetInfo", m_get_info },
	{ PROTO_SERVICE ".GetInterfaceDescription", m_get_description },
	{ PROTO_INTERFACE ".Status", m_status },
	{ PROTO_INTERFACE ".Events", m_events },
	{ PROTO_INTERFACE ".Smart", m_smart },
	{ PROTO_INTERFACE ".ErrorMap", m_errors },
	{ PROTO_INTERFACE ".Checkpoints", m_checkpoints },
	{ PROTO_INTERFACE ".Snapshots", m_snapshots },
	{ PROTO_INTERFACE ".Timelines", m_timelines },
	{ PROTO_INTERFACE ".Series", m_series },
	{ PROTO_INTERFACE ".Start", m_start },
	{ PROTO_INTERFACE ".Stop", m_stop },
	{ PROTO_INTERFACE ".Pause", m_pause },
	{ PROTO_INTERFACE ".Resume", m_resume },
	{ PROTO_INTERFACE ".Verify", m_verify },
	{ PROTO_INTERFACE ".Checkpoint", m_checkpoint },
	{ PROTO_INTERFACE ".PowerCut", m_powercut },
	{ PROTO_INTERFACE ".Reload", m_reload },
	{ NULL, NULL }
};

void
methods_dispatch(const struct vl_call *c, const struct peer *peer,
    const struct control_ops *ops, struct dispatch_out *out)
{
	struct req	r = { c, peer, ops, out };
	int		i;

	memset(out, 0, sizeof(*out));
	if (c->m->access == PROTO_WRITE &&
	    ops->authorize(ops->arg, peer, c->method) != 1) {
		vl_error(PROTO_SERVICE ".PermissionDenied", NULL, &out->reply);
	} else {
		for (i = 0; handlers[i].method != NULL; i++)
			if (strcmp(handlers[i].method, c->method) == 0)
				break;
		if (handlers[i].method == NULL)
			vl_error(PROTO_SERVICE ".MethodNotImplemented", NULL,
			    &out->reply);
		else
			handlers[i].fn(&r);
	}
	if (c->oneway) {
		free(out->reply.buf);
		json_object_put(out->list);
		memset(out, 0, sizeof(*out));
	}
}
