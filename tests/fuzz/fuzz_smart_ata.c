/*
 * fuzz_smart_ata.c: libFuzzer target for the decoder of `smartctl --json`
 * output (SATA drives). The input is smartctl's standard output, in a
 * buffer of exactly its size (no terminating NUL: the decoder is given a
 * length). Beyond crashes and leaks: a failure says why and a success
 * does not; decoded values keep to what their fields mean.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smart.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define check(cond)	do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, \
	    __LINE__, #cond); abort(); } } while (0)

#define is_flag(v)	((v) == 0 || (v) == 1)

static void
check_smart(const struct smart *s)
{
	int	i;

	check(s->source == SMART_ATA);
	check(strnlen(s->model, sizeof(s->model)) < sizeof(s->model));
	check(strnlen(s->serial, sizeof(s->serial)) < sizeof(s->serial));
	check(strnlen(s->firmware, sizeof(s->firmware)) <
	    sizeof(s->firmware));
	check(is_flag(s->has_percent_used) && is_flag(s->has_health) &&
	    is_flag(s->has_temperature) && is_flag(s->has_media_errors) &&
	    is_flag(s->has_reallocated) && is_flag(s->has_device_written) &&
	    is_flag(s->has_device_read) && is_flag(s->has_nand_written));
	/* a percentage used: one byte in ACS and NVMe, 0..255 */
	check(!s->has_percent_used ||
	    (s->percent_used >= 0 && s->percent_used <= 255));
	check(s->nattrs >= 0 && s->nattrs <= SMART_ATTR_MAX);
	for (i = 0; i < s->nattrs; i++) {
		check(s->attrs[i].id >= 1 && s->attrs[i].id <= 255);
		check(strnlen(s->attrs[i].name, sizeof(s->attrs[i].name)) <
		    sizeof(s->attrs[i].name));
	}
	check(s->ntemp_sensors == 0 && s->critical_warning == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smart	*s;
	char		*json, err[256];
	int		 rc;

	/* malloc(0) may return NULL, which the decoder takes as no output */
	if ((json = malloc(size)) == NULL && size != 0)
		abort();
	if (size != 0)
		memcpy(json, data, size);
	if ((s = malloc(sizeof(*s))) == NULL)
		abort();
	memset(err, 'x', sizeof(err));
	rc = smart_from_ata_json(json, size, s, err, sizeof(err));
	check(rc == 0 || rc == -1);
	check(memchr(err, '\0', sizeof(err)) != NULL);
	if (rc == 0) {
		check(err[0] == '\0');
		check_smart(s);
	} else
		check(err[0] != '\0');
	free(s);
	free(json);
	return 0;
}
