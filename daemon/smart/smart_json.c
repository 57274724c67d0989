/*
 * smart_json.c: reading smartctl's JSON: parsing it strictly, walking it,
 * and its typed values. Shared by the SATA/SCSI decoder (smart_ata.c) and
 * the NVMe one (smart_nvmejson.c).
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "smart_json.h"

void
seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list	ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* o[k1][k2]...: NULL where any step is missing or not an object. */
json_object *
jpath(json_object *o, ...)
{
	va_list		 ap;
	const char	*k;

	va_start(ap, o);
	while (o != NULL && (k = va_arg(ap, const char *)) != NULL)
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, k, &o))
			o = NULL;
	va_end(ap);
	return o;
}

const char *
jstr(json_object *o)
{
	return json_object_is_type(o, json_type_string) ?
	    json_object_get_string(o) : NULL;
}

/* A non-negative JSON number; 0 (and *v untouched) if it is not one. */
int
ju64(json_object *o, uint64_t *v)
{
	double	d;

	if (json_object_is_type(o, json_type_int)) {
		if (json_object_get_int64(o) < 0)
			return 0;
		*v = json_object_get_uint64(o);
		return 1;
	}
	if (json_object_is_type(o, json_type_double)) {
		d = json_object_get_double(o);
		if (!(d >= 0 && d < 0x1p64))	/* also rejects NaN */
			return 0;
		*v = (uint64_t)d;
		return 1;
	}
	return 0;
}

/* An int-sized JSON number (negative allowed: temperatures). */
int
jint(json_object *o, int *v)
{
	int64_t	i;

	if (!json_object_is_type(o, json_type_int))
		return 0;
	i = json_object_get_int64(o);
	if (i < INT_MIN || i > INT_MAX)
		return 0;
	*v = (int)i;
	return 1;
}

void
jcopy(char *dst, size_t size, json_object *o)
{
	const char	*s = jstr(o);

	if (s != NULL)
		snprintf(dst, size, "%s", s);
}

/* Parse exactly [json, json + len): one object, then only white space. */
json_object *
smartctl_parse(const char *json, size_t len, char *err, size_t errlen)
{
	struct json_tokener	*tok;
	json_object		*root;
	enum json_tokener_error	 jerr;
	size_t			 end;

	if (json == NULL || len == 0 || len > INT_MAX) {
		seterr(err, errlen, "no smartctl output");
		return NULL;
	}
	if ((tok = json_tokener_new()) == NULL) {
		seterr(err, errlen, "out of memory");
		return NULL;
	}
	/* smartctl writes standard JSON; refuse json-c's extensions */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, json, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	while (root != NULL && end < len && isspace((unsigned char)json[end]))
		end++;
	if (root == NULL || end < len ||
	    !json_object_is_type(root, json_type_object)) {
		seterr(err, errlen, "smartctl output is not a JSON object: %s",
		    root == NULL ? (jerr == json_tokener_continue ?
		    "truncated" : json_tokener_error_desc(jerr)) :
		    end < len ? "trailing data" : "wrong type");
		json_object_put(root);
		return NULL;
	}
	return root;
}

/* smartctl's own reason for having nothing to say, if it gave one. */
const char *
smartctl_error(json_object *root)
{
	json_object	*msgs = jpath(root, "smartctl", "messages", NULL);
	const char	*sev;
	size_t		 i, n;

	if (!json_object_is_type(msgs, json_type_array))
		return NULL;
	n = json_object_array_length(msgs);
	for (i = 0; i < n; i++) {
		json_object *m = json_object_array_get_idx(msgs, i);

		sev = jstr(jpath(m, "severity", NULL));
		if (sev != NULL && strcmp(sev, "error") == 0 &&
		    jstr(jpath(m, "string", NULL)) != NULL)
			return jstr(jpath(m, "string", NULL));
	}
	return NULL;
}
