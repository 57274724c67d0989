/*
 * fuzz_smart_json.c: libFuzzer target for smart_from_json, the decoder of
 * a smart_command's output: smartctl's JSON of an NVMe drive (its own
 * decoder), of a SATA or SCSI one (the SATA decoder), and the NAND
 * counters of a simulated drive. The input is the command's standard
 * output, in a buffer of exactly its size. Beyond crashes and leaks: a
 * failure says why and a success does not; decoded values keep to what
 * their fields mean.
 */
#include "fuzz_smart.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* What the NVMe log's fields can hold: bytes, 32-bit counters, units. */
static void
check_nvme(const struct smart *s)
{
	check(s->nattrs == 0 && s->ntemp_sensors >= 0 &&
	    s->ntemp_sensors <= 8);
	check(!s->has_percent_used ||
	    (s->percent_used >= 0 && s->percent_used <= 255));
	check(!s->has_spare || (s->available_spare >= 0 &&
	    s->available_spare <= 255 && s->spare_threshold >= 0 &&
	    s->spare_threshold <= 255));
	check(s->has_thermal || (s->thermal_transitions[0] == 0 &&
	    s->thermal_transitions[1] == 0 && s->thermal_seconds[0] == 0 &&
	    s->thermal_seconds[1] == 0));
	/* bytes from data units, saturated, unless the simulated counter */
	check(!s->has_device_written || s->src[FIG_DEVICE_WRITTEN][0] != '\0' ||
	    s->device_bytes_written == (s->data_units_written >
	    UINT64_MAX / NVME_DATA_UNIT ? UINT64_MAX :
	    s->data_units_written * NVME_DATA_UNIT));
}

static void
check_smart(const struct smart *s)
{
	check(s->source == SMART_NVME || s->source == SMART_ATA ||
	    s->source == SMART_SCSI);
	check(strnlen(s->model, sizeof(s->model)) < sizeof(s->model));
	check(strnlen(s->serial, sizeof(s->serial)) < sizeof(s->serial));
	check(strnlen(s->firmware, sizeof(s->firmware)) <
	    sizeof(s->firmware));
	check(is_flag(s->has_percent_used) && is_flag(s->has_spare) &&
	    is_flag(s->has_temperature) && is_flag(s->has_media_errors) &&
	    is_flag(s->has_device_written) && is_flag(s->has_device_read) &&
	    is_flag(s->has_nand_written) && is_flag(s->has_thermal) &&
	    is_flag(s->has_temp_limit) && is_flag(s->has_power_cycles) &&
	    is_flag(s->has_unsafe_shutdowns));
	check(s->time != 0);
	check(strnlen(s->src[FIG_NAND_WRITTEN], SMART_SRC_LEN) <
	    SMART_SRC_LEN);
	if (s->source == SMART_NVME)
		check_nvme(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_smart_run(data, size, smart_from_json, check_smart);
	return 0;
}
