/*
 * fuzz_smart_ata.c: libFuzzer target for the decoder of `smartctl --json`
 * output (SATA drives). The input is smartctl's standard output, in a
 * buffer of exactly its size (no terminating NUL: the decoder is given a
 * length). Beyond crashes and leaks: a failure says why and a success
 * does not; decoded values keep to what their fields mean.
 */
#include "fuzz_smart.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

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
	fuzz_smart_run(data, size, smart_from_ata_json, check_smart);
	return 0;
}
