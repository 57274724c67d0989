/*
 * smart_nvmejson.c: SMART of an NVMe drive decoded from the JSON of
 * `smartctl --json -a /dev/nvmeX` (smartmontools 7.x), for drives read
 * through a smart_command (behind a bridge that needs `smartctl -d TYPE`,
 * a remote host, a simulated drive). The same struct smart, with the same
 * meanings, as smart_nvme.c fills from the raw log pages: what smartctl
 * printed is the log page's field, already in host units (degrees
 * Celsius, not Kelvin; counts as numbers).
 *
 * smartctl leaves out what the drive does not report or what is zero in
 * some versions (temperature sensors), and prints the thermal management
 * counters only as text: a figure not printed stays unknown; the two
 * temperature-time counters are the exception: smartctl prints each
 * whenever it is not 0. The thermal management counters are read where
 * a source prints them under libnvme's names (thermal_counters).
 *
 * Also here: smart_from_json, which picks this decoder or the SATA/SCSI
 * one from the output, and reads the NAND writes a simulated drive adds
 * in its own object: "ssdsim", as ssdsim(1) prints it, or "ssdsim_nand".
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "smart.h"
#include "smart_json.h"

#define NVME_LOG_KEY	"nvme_smart_health_information_log"
/* ssdsim's own object; the older name is still read */
#define SIM_KEY		"ssdsim"
#define SIM_KEY_OLD	"ssdsim_nand"
#define TEMP_SENSORS	8

static uint64_t
mul_sat(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* An unsigned 32-bit counter of the log (they are 32 bits wide there). */
static int
ju32(json_object *o, uint32_t *v)
{
	uint64_t	u;

	if (!ju64(o, &u) || u > UINT32_MAX)
		return 0;
	*v = (uint32_t)u;
	return 1;
}

/* A one-byte field of the log (percentages, the critical warning). */
static int
jbyte(json_object *o, int *v)
{
	uint64_t	u;

	if (!ju64(o, &u) || u > 255)
		return 0;
	*v = (int)u;
	return 1;
}

/* Temperatures: the composite, the sensors (smartctl leaves a missing
 * one null), and the drive's warning threshold (WCTEMP). */
static void
decode_temps(json_object *root, json_object *l, struct smart *s)
{
	json_object	*t = jpath(l, "temperature_sensors", NULL);
	size_t		 i, n;
	int		 c;

	s->has_temperature = jint(jpath(l, "temperature", NULL),
	    &s->temperature_c);
	if (json_object_is_type(t, json_type_array)) {
		n = json_object_array_length(t);
		for (i = 0; i < n && s->ntemp_sensors < TEMP_SENSORS; i++)
			if (jint(json_object_array_get_idx(t, i), &c))
				s->temp_sensors_c[s->ntemp_sensors++] = c;
	}
	s->has_temp_limit = jint(jpath(root,
	    "nvme_composite_temperature_threshold", "warning", NULL),
	    &s->temp_limit_c);
}

/* Bytes from a count of 512,000-byte data units. */
static int
data_units(json_object *o, uint64_t *units, uint64_t *bytes)
{
	if (!ju64(o, units))
		return 0;
	*bytes = mul_sat(*units, NVME_DATA_UNIT);
	return 1;
}

/*
 * The thermal management counters (NVMe 1.3: TMT1 and TMT2 transitions
 * and seconds), all four or none, under the names libnvme and nvme-cli's
 * `smart-log -o json` give them. smartctl 7.x prints them only as text,
 * so they come from a source that prints them so: in the log's object,
 * or in a simulated drive's own object.
 */
static void
thermal_counters(json_object *o, struct smart *s)
{
	if (s->has_thermal || o == NULL)
		return;
	s->has_thermal =
	    ju32(jpath(o, "thm_temp1_trans_count", NULL),
	    &s->thermal_transitions[0]) &
	    ju32(jpath(o, "thm_temp2_trans_count", NULL),
	    &s->thermal_transitions[1]) &
	    ju32(jpath(o, "thm_temp1_total_time", NULL),
	    &s->thermal_seconds[0]) &
	    ju32(jpath(o, "thm_temp2_total_time", NULL),
	    &s->thermal_seconds[1]);
	if (!s->has_thermal) {
		memset(s->thermal_transitions, 0, sizeof(s->thermal_transitions));
		memset(s->thermal_seconds, 0, sizeof(s->thermal_seconds));
	}
}

static void
decode_counters(json_object *l, struct smart *s)
{
#define F(k)	jpath(l, k, NULL)
	s->has_device_written = data_units(F("data_units_written"),
	    &s->data_units_written, &s->device_bytes_written);
	s->has_device_read = data_units(F("data_units_read"),
	    &s->data_units_read, &s->device_bytes_read);
	ju64(F("host_reads"), &s->host_read_cmds);
	ju64(F("host_writes"), &s->host_write_cmds);
	s->has_power_cycles = ju64(F("power_cycles"), &s->power_cycles);
	ju64(F("power_on_hours"), &s->power_on_hours);
	s->has_unsafe_shutdowns = ju64(F("unsafe_shutdowns"),
	    &s->unsafe_shutdowns);
	s->has_media_errors = ju64(F("media_errors"), &s->media_errors);
	ju64(F("num_err_log_entries"), &s->error_log_entries);
	ju32(F("warning_temp_time"), &s->warning_temp_minutes);
	ju32(F("critical_comp_time"), &s->critical_temp_minutes);
	thermal_counters(l, s);
#undef F
}

/* The decoder proper, on parsed output: 0, or -1 with a message. */
static int
nvme_decode(json_object *root, struct smart *s, char *err, size_t errlen)
{
	json_object	*l = jpath(root, NVME_LOG_KEY, NULL);
	const char	*why;
	int		 cw, spare, thresh, used;
	uint64_t	 t;

	if (!json_object_is_type(l, json_type_object)) {
		why = smartctl_error(root);
		seterr(err, errlen, "%s", why != NULL ? why :
		    "no NVMe SMART / Health log in smartctl's output");
		return -1;
	}
	/* smartctl always prints it: without it the log is not smartctl's */
	if (!jbyte(jpath(l, "critical_warning", NULL), &cw)) {
		seterr(err, errlen, "the NVMe SMART / Health log in smartctl's "
		    "output has no critical_warning");
		return -1;
	}
	s->source = SMART_NVME;
	s->critical_warning = (uint8_t)cw;
	jcopy(s->model, sizeof(s->model), jpath(root, "model_name", NULL));
	jcopy(s->serial, sizeof(s->serial), jpath(root, "serial_number", NULL));
	jcopy(s->firmware, sizeof(s->firmware), jpath(root, "firmware_version",
	    NULL));
	if (ju64(jpath(root, "local_time", "time_t", NULL), &t))
		s->time = t;
	if (jbyte(jpath(l, "available_spare", NULL), &spare) &&
	    jbyte(jpath(l, "available_spare_threshold", NULL), &thresh)) {
		s->has_spare = 1;
		s->available_spare = spare;
		s->spare_threshold = thresh;
	}
	if ((s->has_percent_used = jbyte(jpath(l, "percentage_used", NULL),
	    &used)))
		s->percent_used = used;
	decode_temps(root, l, s);
	decode_counters(l, s);
	/* smartctl reads the standard logs only (a simulated drive's NAND
	 * bytes, decode_sim, replace the reason) */
	snprintf(s->ocp_why, sizeof(s->ocp_why),
	    "no OCP C0h log: smartctl's output has none");
	snprintf(s->src[FIG_NAND_WRITTEN], SMART_SRC_LEN, "%s", s->ocp_why);
	return 0;
}

int
smart_from_nvme_json(const char *json, size_t len, struct smart *s,
    char *err, size_t errlen)
{
	json_object	*root;
	int		 rc;

	memset(s, 0, sizeof(*s));
	seterr(err, errlen, "%s", "");
	if ((root = smartctl_parse(json, len, err, errlen)) == NULL)
		return -1;
	rc = nvme_decode(root, s, err, errlen);
	json_object_put(root);
	return rc;
}

/*
 * A simulated drive's own counters: NAND bytes written (and host bytes,
 * when the output has no host write counter of its own), the thermal
 * management counters. A figure the decoder already has is kept; a
 * malformed one is unknown, with why.
 */
static void
decode_sim(json_object *root, struct smart *s)
{
	const char	*key = SIM_KEY;
	json_object	*o = jpath(root, key, NULL);
	uint64_t	 v;

	if (o == NULL)
		o = jpath(root, key = SIM_KEY_OLD, NULL);
	if (o == NULL)
		return;
	if (s->source == SMART_NVME && json_object_is_type(o, json_type_object))
		thermal_counters(o, s);
	if (!s->has_nand_written) {
		if ((s->has_nand_written = json_object_is_type(o,
		    json_type_object) && ju64(jpath(o, "nand_bytes_written",
		    NULL), &v)))
			s->nand_bytes_written = v;
		snprintf(s->src[FIG_NAND_WRITTEN], SMART_SRC_LEN, "%s%s",
		    key, s->has_nand_written ? ".nand_bytes_written" :
		    ".nand_bytes_written is not a count");
	}
	if (!s->has_device_written && ju64(jpath(o, "host_bytes_written",
	    NULL), &v)) {
		s->has_device_written = 1;
		s->device_bytes_written = v;
		snprintf(s->src[FIG_DEVICE_WRITTEN], SMART_SRC_LEN, "%s%s",
		    key, ".host_bytes_written");
	}
}

/* NVMe output: the protocol says so, or (no protocol) the NVMe log. */
static int
is_nvme(json_object *root)
{
	const char	*proto = jstr(jpath(root, "device", "protocol", NULL));

	if (proto != NULL)
		return strcmp(proto, "NVMe") == 0;
	return jpath(root, NVME_LOG_KEY, NULL) != NULL;
}

int
smart_from_json(const char *json, size_t len, struct smart *s, char *err,
    size_t errlen)
{
	json_object	*root;
	int		 rc;

	memset(s, 0, sizeof(*s));
	seterr(err, errlen, "%s", "");
	if ((root = smartctl_parse(json, len, err, errlen)) == NULL)
		return -1;
	rc = is_nvme(root) ? nvme_decode(root, s, err, errlen) :
	    smart_from_ata_json(json, len, s, err, errlen);
	if (rc == 0) {
		decode_sim(root, s);
		if (s->time == 0)	/* the output did not say when */
			s->time = (uint64_t)time(NULL);
	}
	json_object_put(root);
	return rc;
}
