/*
 * smart_json.h: reading smartctl's JSON, for the decoders of its SATA/SCSI
 * output (smart_ata.c) and of its NVMe output (smart_nvmejson.c). Leaves:
 * no state.
 */
#ifndef SSDT_SMART_JSON_H
#define SSDT_SMART_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* A message into err (when not NULL), like snprintf. */
void	seterr(char *err, size_t errlen, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* o[k1][k2]...(NULL-terminated): NULL where any step is missing or not
 * an object. */
json_object *jpath(json_object *o, ...);
/* The string, or NULL when o is not one. */
const char *jstr(json_object *o);
/* A non-negative JSON number; 0 (and *v untouched) if it is not one. */
int	ju64(json_object *o, uint64_t *v);
/* An int-sized JSON integer (negative allowed: temperatures). */
int	jint(json_object *o, int *v);
/* Copy a JSON string into dst; dst untouched when o is not one. */
void	jcopy(char *dst, size_t size, json_object *o);
/*
 * Parse exactly [json, json + len): one object, then only white space.
 * NULL with a message on error; the object is the caller's to put.
 */
json_object *smartctl_parse(const char *json, size_t len, char *err,
	    size_t errlen);
/* smartctl's own reason for having nothing to say, if it gave one. */
const char *smartctl_error(json_object *root);

#endif
