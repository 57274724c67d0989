/*
 * varlink.h: one Varlink message in, one reply out. Validation runs in a
 * fixed order: size, framing, JSON, envelope (method, parameters, more,
 * oneway), method known; the method's own parameters are checked by its
 * handler. Nothing here touches a socket.
 */
#ifndef SSDT_VARLINK_H
#define SSDT_VARLINK_H

#include <stddef.h>

#include <json-c/json.h>

#include "proto.h"

struct vl_call {
	json_object			*root;		/* owned */
	const char			*method;	/* full name */
	const struct proto_method	*m;
	json_object			*params;	/* borrowed; never NULL */
	int				 more;
	int				 oneway;
};

/* How every JSON value goes on the wire. */
#define VL_JSON_FLAGS	(JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* A reply as bytes on the wire, NUL included. */
struct vl_msg {
	char	*buf;
	size_t	 len;
};

/*
 * Parse one message (without its NUL). On success fills *c (free with
 * vl_call_free). On failure returns -1 and sets *err to the error reply
 * (err->buf is NULL for a oneway call, which gets no reply).
 */
int	vl_parse(const char *msg, size_t len, struct vl_call *c,
	    struct vl_msg *err);
void	vl_call_free(struct vl_call *);
/* {"parameters": params} (+ "continues": true); params is consumed. */
int	vl_reply(json_object *params, int continues, struct vl_msg *out);
/* {"error": name, "parameters": params}; params is consumed (NULL = {}). */
int	vl_error(const char *name, json_object *params, struct vl_msg *out);
/*
 * A reply whose one parameter is a long list, written in pieces: the
 * opening ({"parameters":{"KEY":[), the elements (each VL_JSON_FLAGS,
 * comma-separated) and the close (]} with "continues", the NUL).
 */
int	vl_list_open(const char *key, struct vl_msg *out);
int	vl_list_close(int continues, struct vl_msg *out);
/*
 * Every string of o (values and keys) made UTF-8: a byte that is no part
 * of a character becomes the text \xNN. A device path, a drive's model
 * or a line of the configuration can hold any bytes; a reply must not.
 * vl_reply and vl_error do this; a list's elements need it each.
 */
void	vl_utf8_out(json_object *o);
/* The common errors. */
int	vl_error_param(const char *param, struct vl_msg *out);

#endif
