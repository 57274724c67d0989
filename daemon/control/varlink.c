/* varlink.c: one Varlink message in, one reply out (no sockets here). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "varlink.h"

/*
 * A copy of len bytes with each byte that is no part of a well-formed
 * character written as the text \xNN: the bytes stay readable, and
 * nothing that is not UTF-8 goes on the wire. NUL-terminated.
 */
static char *
utf8_escaped(const char *s, size_t len, size_t *outlen)
{
	char	*o = malloc(len * 4 + 1);
	size_t	 i = 0, j = 0, n;

	if (o == NULL)
		return NULL;
	while (i < len) {
		if ((n = proto_utf8_char(s + i, len - i)) > 0) {
			memcpy(o + j, s + i, n);
			j += n;
			i += n;
			continue;
		}
		snprintf(o + j, 5, "\\x%02x", (unsigned char)s[i++]);
		j += 4;
	}
	o[j] = '\0';
	*outlen = j;
	return o;
}

/* Keys that are not UTF-8, escaped: moved to their new names. */
static void
utf8_fix_keys(json_object *o)
{
	struct lh_entry	*e, *next;
	char		*k;
	size_t		 n;

	for (e = json_object_get_object(o)->head; e != NULL; e = next) {
		const char *key = (const char *)lh_entry_k(e);
		json_object *v = json_object_get((json_object *)lh_entry_v(e));

		next = e->next;
		if (proto_utf8_valid(key, strlen(key)) ||
		    (k = utf8_escaped(key, strlen(key), &n)) == NULL) {
			json_object_put(v);
			continue;
		}
		json_object_object_del(o, key);
		json_object_object_add(o, k, v);	/* at the end: seen again, valid */
		free(k);
	}
}

void
vl_utf8_out(json_object *o)
{
	size_t	 i, n;
	char	*e;

	switch (json_object_get_type(o)) {
	case json_type_string:
		if (proto_utf8_valid(json_object_get_string(o),
		    (size_t)json_object_get_string_len(o)))
			return;
		e = utf8_escaped(json_object_get_string(o),
		    (size_t)json_object_get_string_len(o), &n);
		if (e != NULL)
			json_object_set_string_len(o, e, (int)n);
		free(e);
		return;
	case json_type_array:
		for (i = 0; i < json_object_array_length(o); i++)
			vl_utf8_out(json_object_array_get_idx(o, i));
		return;
	case json_type_object:
		utf8_fix_keys(o);
		json_object_object_foreach(o, k, v) {
			(void)k;
			vl_utf8_out(v);
		}
		return;
	default:
		return;
	}
}

/* Serialize an object and append the NUL terminator. */
static int
vl_emit(json_object *o, struct vl_msg *out)
{
	const char	*s;
	size_t		 n;

	vl_utf8_out(o);
	s = json_object_to_json_string_ext(o, VL_JSON_FLAGS);
	n = strlen(s) + 1;

	out->buf = malloc(n);
	out->len = n;
	if (out->buf != NULL)
		memcpy(out->buf, s, n);
	json_object_put(o);
	return out->buf == NULL ? -1 : 0;
}

int
vl_reply(json_object *params, int continues, struct vl_msg *out)
{
	json_object	*o = json_object_new_object();

	json_object_object_add(o, "parameters",
	    params ? params : json_object_new_object());
	if (continues)
		json_object_object_add(o, "continues",
		    json_object_new_boolean(1));
	return vl_emit(o, out);
}

/* A message of fixed text (NUL included in len). */
static int
vl_text(const char *s, size_t len, struct vl_msg *out)
{
	out->len = len;
	if ((out->buf = malloc(len)) == NULL)
		return -1;
	memcpy(out->buf, s, len);
	return 0;
}

int
vl_list_open(const char *key, struct vl_msg *out)
{
	json_object	*k = json_object_new_string(key);
	const char	*ks = json_object_to_json_string_ext(k, VL_JSON_FLAGS);
	char		 buf[256];
	int		 n;

	n = snprintf(buf, sizeof(buf), "{\"parameters\":{%s:[", ks);
	json_object_put(k);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return -1;
	return vl_text(buf, (size_t)n, out);
}

int
vl_list_close(int continues, struct vl_msg *out)
{
	static const char	end[] = "]}}", cont[] = "]},\"continues\":true}";

	/* sizeof counts the NUL that ends the message */
	return continues ? vl_text(cont, sizeof(cont), out) :
	    vl_text(end, sizeof(end), out);
}

int
vl_error(const char *name, json_object *params, struct vl_msg *out)
{
	json_object	*o = json_object_new_object();

	json_object_object_add(o, "error", json_object_new_string(name));
	json_object_object_add(o, "parameters",
	    params ? params : json_object_new_object());
	return vl_emit(o, out);
}

int
vl_error_param(const char *param, struct vl_msg *out)
{
	json_object	*p = json_object_new_object();

	json_object_object_add(p, "parameter", json_object_new_string(param));
	return vl_error(PROTO_SERVICE ".InvalidParameter", p, out);
}

/* An error reply with one string parameter. */
static int
vl_error_str(const char *name, const char *key, const char *val,
    struct vl_msg *out)
{
	json_object	*p = json_object_new_object();

	json_object_object_add(p, key, json_object_new_string(val));
	return vl_error(name, p, out);
}

/*
 * What json-c's strict mode still lets through: raw control characters
 * inside strings, and anything but blanks between tokens.
 */
static int
raw_json_ok(const char *s, size_t len)
{
	int	in_str = 0, esc = 0;
	size_t	i;

	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (in_str) {
			if (ch < 0x20)
				return 0;
			if (esc)
				esc = 0;
			else if (ch == '\\')
				esc = 1;
			else if (ch == '"')
				in_str = 0;
		} else if (ch == '"')
			in_str = 1;
		else if (ch < 0x20 && ch != ' ' && ch != '\t' && ch != '\n' &&
		    ch != '\r')
			return 0;
	}
	return 1;
}

/*
 * NaN and Infinity are not JSON, and every string must be UTF-8 once
 * decoded too: the raw text was checked, but what a \u escape of a lone
 * surrogate decodes to depends on the json-c version, and anything here
 * may be echoed in a reply.
 */
static int
all_sound(json_object *o)
{
	size_t	i;

	switch (json_object_get_type(o)) {
	case json_type_double:
		return isfinite(json_object_get_double(o));
	case json_type_string:
		return proto_utf8_valid(json_object_get_string(o),
		    (size_t)json_object_get_string_len(o));
	case json_type_array:
		for (i = 0; i < json_object_array_length(o); i++)
			if (!all_sound(json_object_array_get_idx(o, i)))
				return 0;
		return 1;
	case json_type_object: {
		json_object_object_foreach(o, k, v) {
			if (!proto_utf8_valid(k, strlen(k)) ||
			    (v != NULL && !all_sound(v)))
				return 0;
		}
		return 1;
	}
	default:
		return 1;
	}
}

/* The JSON text must be exactly one object. */
static json_object *
parse_object(const char *msg, size_t len)
{
	json_tokener	*tok;
	json_object	*o;
	size_t		 used;

	/* JSON text is UTF-8 (RFC 8259): other bytes must never be echoed */
	if (len == 0 || memchr(msg, '\0', len) != NULL ||
	    !proto_utf8_valid(msg, len))
		return NULL;
	if (!raw_json_ok(msg, len) || (tok = json_tokener_new()) == NULL)
		return NULL;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, msg, (int)len);
	used = json_tokener_get_parse_end(tok);
	if (o != NULL && (json_tokener_get_error(tok) != json_tokener_success ||
	    used != len || !json_object_is_type(o, json_type_object))) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	if (o != NULL && !all_sound(o)) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

/* An optional boolean member; -1 when present with another type. */
static int
opt_bool(json_object *root, const char *key, int *out)
{
	json_object	*v;

	*out = 0;
	if (!json_object_object_get_ex(root, key, &v) || v == NULL)
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return -1;
	*out = json_object_get_boolean(v);
	return 0;
}

/* The envelope: method, parameters, more, oneway. */
static int
parse_envelope(struct vl_call *c, struct vl_msg *err)
{
	json_object	*v;
	int		 iface_known;

	if (!json_object_object_get_ex(c->root, "method", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    strlen(json_object_get_string(v)) !=
	    (size_t)json_object_get_string_len(v))
		return vl_error_param("method", err), -1;
	c->method = json_object_get_string(v);
	if (json_object_object_get_ex(c->root, "parameters", &v) && v != NULL) {
		if (!json_object_is_type(v, json_type_object))
			return vl_error_param("parameters", err), -1;
		c->params = v;
	}
	if (opt_bool(c->root, "more", &c->more) == -1)
		return vl_error_param("more", err), -1;
	if (opt_bool(c->root, "oneway", &c->oneway) == -1)
		return vl_error_param("oneway", err), -1;
	if ((c->m = proto_find(c->method, &iface_known)) != NULL)
		return 0;
	if (c->oneway)
		return -1;	/* no reply at all, not even an error */
	if (!iface_known) {
		/* named whole: a cut could fall inside a character */
		const char *dot = strrchr(c->method, '.');
		json_object *p = json_object_new_object();

		json_object_object_add(p, "interface",
		    json_object_new_string_len(c->method,
		    dot ? (int)(dot - c->method) : 0));
		vl_error(PROTO_SERVICE ".InterfaceNotFound", p, err);
	} else
		vl_error_str(PROTO_SERVICE ".MethodNotFound", "method",
		    c->method, err);
	return -1;
}

/* Every parameter must be one the method declares. */
static int
params_declared(struct vl_call *c, struct vl_msg *err)
{
	if (c->params == NULL)
		return 0;
	json_object_object_foreach(c->params, k, v) {
		(void)v;
		if (!proto_declares(c->m, k)) {
			if (!c->oneway)
				vl_error_param(k, err);
			return -1;
		}
	}
	return 0;
}

int
vl_parse(const char *msg, size_t len, struct vl_call *c, struct vl_msg *err)
{
	json_object	*lim;

	memset(c, 0, sizeof(*c));
	err->buf = NULL;
	err->len = 0;
	if (len > PROTO_MAX_MESSAGE) {
		lim = json_object_new_object();
		json_object_object_add(lim, "limit",
		    json_object_new_int(PROTO_MAX_MESSAGE));
		vl_error(PROTO_INTERFACE ".MessageTooLarge", lim, err);
		return -1;
	}
	if ((c->root = parse_object(msg, len)) == NULL) {
		vl_error_param("message", err);	/* not one JSON object */
		return -1;
	}
	c->params = NULL;
	if (parse_envelope(c, err) == -1 || params_declared(c, err) == -1) {
		vl_call_free(c);
		return -1;
	}
	if (c->params == NULL) {
		c->params = json_object_new_object();
		json_object_object_add(c->root, "parameters", c->params);
	}
	return 0;
}

void
vl_call_free(struct vl_call *c)
{
	json_object_put(c->root);
	memset(c, 0, sizeof(*c));
}
