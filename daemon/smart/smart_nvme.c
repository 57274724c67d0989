/*
 * smart_nvme.c: NVMe SMART / Health, Identify Controller and the OCP
 * datacenter extended log (C0h), read with libnvme and decoded from the
 * raw pages (so stored pages can be decoded in tests).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libnvme.h>

#include "smart.h"
#include "smart_ocp.h"
#include "smart_read.h"

#define OCP_C0_LID	0xc0
#define OCP_C0_LEN	512

/* GUID of the OCP C0h log (AFD514C97C6F4F9C A4F2BFEA2810AFC5), as stored. */
static const uint8_t ocp_c0_guid[16] = {
	0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
	0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf
};

/* A 128-bit little-endian counter; saturates at 2^64 - 1. */
static uint64_t
le128(const uint8_t *p)
{
	uint64_t	lo = 0;
	int		i;

	for (i = 8; i < 16; i++)
		if (p[i] != 0)
			return UINT64_MAX;
	for (i = 7; i >= 0; i--)
		lo = lo << 8 | p[i];
	return lo;
}

/* An n-byte little-endian counter, n at most 8. */
static uint64_t
le_n(const uint8_t *p, unsigned n)
{
	uint64_t	v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

static uint32_t
le32(const void *v)
{
	const uint8_t	*p = v;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static unsigned
le16(const void *v)
{
	const uint8_t	*p = v;

	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static uint64_t
mul_sat(uint64_t a, uint64_t b)
{
	return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* A space-padded identify string; it ends at a NUL, whatever follows. */
static void
id_string(char *dst, size_t dlen, const char *src, size_t slen)
{
	size_t	n = strnlen(src, slen);

	while (n > 0 && src[n - 1] == ' ')
		n--;
	while (n > 0 && *src == ' ') {
		src++;
		n--;
	}
	snprintf(dst, dlen, "%.*s", (int)n, src);
}

/* Temperatures: Kelvin in the log; 0 means no sensor. */
static void
decode_temps(const struct nvme_smart_log *l, struct smart *s)
{
	unsigned	k = le16(l->temperature);
	int		i;

	if (k != 0) {
		s->has_temperature = 1;
		s->temperature_c = (int)k - 273;
	}
	for (i = 0; i < 8; i++)
		if ((k = le16(&l->temp_sensor[i])) != 0)
			s->temp_sensors_c[s->ntemp_sensors++] = (int)k - 273;
}

/* The counters of the SMART / Health log. */
static void
decode_counters(const struct nvme_smart_log *l, struct smart *s)
{
	s->data_units_read = le128(l->data_units_read);
	s->data_units_written = le128(l->data_units_written);
	s->has_device_written = s->has_device_read = 1;
	s->device_bytes_written = mul_sat(s->data_units_written,
	    NVME_DATA_UNIT);
	s->device_bytes_read = mul_sat(s->data_units_read, NVME_DATA_UNIT);
	s->host_read_cmds = le128(l->host_reads);
	s->host_write_cmds = le128(l->host_writes);
	s->has_power_cycles = 1;
	s->power_cycles = le128(l->power_cycles);
	s->power_on_hours = le128(l->power_on_hours);
	s->unsafe_shutdowns = le128(l->unsafe_shutdowns);
	s->has_unsafe_shutdowns = 1;
	s->has_media_errors = 1;
	s->media_errors = le128(l->media_errors);
	s->error_log_entries = le128(l->num_err_log_entries);
	s->warning_temp_minutes = le32(&l->warning_temp_time);
	s->critical_temp_minutes = le32(&l->critical_comp_time);
	s->has_thermal = 1;
	s->thermal_transitions[0] = le32(&l->thm_temp1_trans_count);
	s->thermal_transitions[1] = le32(&l->thm_temp2_trans_count);
	s->thermal_seconds[0] = le32(&l->thm_temp1_total_time);
	s->thermal_seconds[1] = le32(&l->thm_temp2_total_time);
}

/* No OCP log: why, for its figures and the NAND bytes written. */
static void
ocp_unknown(struct smart *s, const char *why)
{
	snprintf(s->ocp_why, sizeof(s->ocp_why), "%s", why);
	snprintf(s->src[FIG_NAND_WRITTEN], sizeof(s->src[FIG_NAND_WRITTEN]),
	    "%s", why);
}

/* The OCP C0h log by its table, when its GUID says it is one. */
static void
decode_ocp(const uint8_t *c0, struct smart *s)
{
	const uint8_t	*g;
	int		 i;

	if (c0 == NULL) {
		ocp_unknown(s, "no OCP C0h log: not read");
		return;
	}
	if (memcmp(c0 + ocp_fields[OCP_GUID].off, ocp_c0_guid,
	    sizeof(ocp_c0_guid)) != 0) {
		ocp_unknown(s, "no OCP C0h log: GUID does not match");
		return;
	}
	s->has_ocp = 1;
	for (i = 0; i < OCP_NCOUNT; i++)
		s->ocp[i] = ocp_fields[i].width == 16 ?
		    le128(c0 + ocp_fields[i].off) :
		    le_n(c0 + ocp_fields[i].off, ocp_fields[i].width);
	/* as nvme-cli prints it: a 128-bit little-endian number */
	g = c0 + ocp_fields[OCP_GUID].off;
	snprintf(s->ocp_guid, sizeof(s->ocp_guid), "0x");
	for (i = 15; i >= 0; i--)
		snprintf(s->ocp_guid + 2 + 2 * (15 - i), 3, "%02x", g[i]);
	s->has_nand_written = 1;
	s->nand_bytes_written = s->ocp[OCP_MEDIA_WRITTEN];
}

int
smart_from_nvme(const void *smart_log, const void *id_ctrl,
    const void *ocp_c0, struct smart *s)
{
	const struct nvme_smart_log	*l = smart_log;
	const struct nvme_id_ctrl	*id = id_ctrl;
	const uint8_t			*c0 = ocp_c0;

	memset(s, 0, sizeof(*s));
	s->source = SMART_NVME;
	s->time = (uint64_t)time(NULL);
	s->critical_warning = l->critical_warning;
	s->has_spare = 1;
	s->available_spare = l->avail_spare;
	s->spare_threshold = l->spare_thresh;
	s->has_percent_used = 1;
	s->percent_used = l->percent_used;
	decode_temps(l, s);
	decode_counters(l, s);
	if (id != NULL) {
		id_string(s->model, sizeof(s->model), id->mn, sizeof(id->mn));
		id_string(s->serial, sizeof(s->serial), id->sn, sizeof(id->sn));
		id_string(s->firmware, sizeof(s->firmware), id->fr,
		    sizeof(id->fr));
		if (le16(&id->wctemp) != 0) {	/* Kelvin; 0: none set */
			s->has_temp_limit = 1;
			s->temp_limit_c = (int)le16(&id->wctemp) - 273;
		}
	}
	decode_ocp(c0, s);
	return 0;
}

/*
 * The OCP C0h log, when the drive has it: 0, else -1 and why not. A drive
 * without it refuses the command with an NVMe status (Invalid Log Page,
 * most of them); an errno is the read itself failing.
 */
static int
read_ocp_c0(int fd, uint8_t *buf, char *why, size_t whylen)
{
	struct nvme_get_log_args args;
	int			 rc;

	memset(&args, 0, sizeof(args));
	args.args_size = sizeof(args);
	args.fd = fd;
	args.timeout = NVME_DEFAULT_IOCTL_TIMEOUT;
	args.lid = OCP_C0_LID;
	args.len = OCP_C0_LEN;
	args.log = buf;
	args.nsid = NVME_NSID_ALL;
	args.csi = NVME_CSI_NVM;
	if ((rc = nvme_get_log(&args)) == 0)
		return 0;
	if (rc > 0)
		snprintf(why, whylen, "no OCP C0h log: the log page is not "
		    "supported");
	else
		snprintf(why, whylen, "no OCP C0h log: read failed: %s",
		    strerror(errno));
	return -1;
}

int
smart_read_nvme(const char *dev, struct smart *s, char *err, size_t errlen)
{
	struct nvme_smart_log	log;
	struct nvme_id_ctrl	id;
	uint8_t			c0[OCP_C0_LEN];
	char			why[SMART_SRC_LEN] = "";
	int			fd, rc, have_id, have_c0;

	if ((fd = open(dev, O_RDONLY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "open %s: %s", dev, strerror(errno));
		return -1;
	}
	have_id = nvme_identify_ctrl(fd, &id) == 0;
	rc = nvme_get_log_smart(fd, NVME_NSID_ALL, false, &log);
	if (rc != 0) {
		snprintf(err, errlen, "SMART log of %s: %s", dev, rc < 0 ?
		    strerror(errno) : "command failed");
		close(fd);
		return -1;
	}
	have_c0 = read_ocp_c0(fd, c0, why, sizeof(why)) == 0;
	close(fd);
	rc = smart_from_nvme(&log, have_id ? &id : NULL, have_c0 ? c0 : NULL,
	    s);
	if (!have_c0)
		ocp_unknown(s, why);
	snprintf(s->read_with, sizeof(s->read_with), "libnvme");
	return rc;
}
