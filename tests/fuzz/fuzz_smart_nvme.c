/*
 * fuzz_smart_nvme.c: libFuzzer target for the NVMe log decoders. The input
 * is the raw pages as the drive returns them, one after the other: the
 * SMART / Health log (512 bytes; zero-filled when the input is shorter),
 * then the Identify Controller data (4096 bytes) and the OCP C0h log (512
 * bytes), each passed only when the input holds all of it. Each page gets
 * a buffer of exactly its size, so reading past one is caught. Beyond
 * crashes: the decoded values keep to what their fields can hold.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnvme.h>

#include "smart.h"
#include "smart_ocp.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define check(cond)	do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, \
	    __LINE__, #cond); abort(); } } while (0)

/* The next page of the input in a buffer of its own; NULL when cut short. */
static void *
page(const uint8_t **data, size_t *size, size_t len, int pad)
{
	uint8_t	*p;
	size_t	 n = *size < len ? *size : len;

	if (n < len && !pad)
		return NULL;
	if ((p = calloc(1, len)) == NULL)
		abort();
	memcpy(p, *data, n);
	*data += n;
	*size -= n;
	return p;
}

/* An identify string: terminated, no padding left at either end. */
static void
check_id(const char *s, size_t size)
{
	size_t	n = strnlen(s, size);

	check(n < size);
	check(n == 0 || (s[0] != ' ' && s[n - 1] != ' '));
}

static void
check_smart(const struct smart *s, const struct nvme_smart_log *l,
    int have_id)
{
	int	i;

	check(s->source == SMART_NVME);
	check(s->has_percent_used && s->percent_used >= 0 &&
	    s->percent_used <= 255 && s->percent_used == l->percent_used);
	check(s->available_spare >= 0 && s->available_spare <= 255);
	check(s->spare_threshold >= 0 && s->spare_threshold <= 255);
	check(s->ntemp_sensors >= 0 && s->ntemp_sensors <= 8);
	for (i = 0; i < s->ntemp_sensors; i++)
		check(s->temp_sensors_c[i] >= -272 &&
		    s->temp_sensors_c[i] <= 65535 - 273);
	check(!s->has_temperature || (s->temperature_c >= -272 &&
	    s->temperature_c <= 65535 - 273));
	/* bytes are data units x 512,000, pinned at the maximum */
	check(s->device_bytes_written == (s->data_units_written >
	    UINT64_MAX / NVME_DATA_UNIT ? UINT64_MAX :
	    s->data_units_written * NVME_DATA_UNIT));
	check(s->device_bytes_read == (s->data_units_read >
	    UINT64_MAX / NVME_DATA_UNIT ? UINT64_MAX :
	    s->data_units_read * NVME_DATA_UNIT));
	check(s->nattrs == 0);
	check_id(s->model, sizeof(s->model));
	check_id(s->serial, sizeof(s->serial));
	check_id(s->firmware, sizeof(s->firmware));
	if (!have_id)
		check(s->model[0] == '\0' && s->serial[0] == '\0');
}

/*
 * The OCP C0h figures: all or none, by the GUID; none with a reason;
 * each within what its field can hold (smart_ocp.h's widths); the NAND
 * bytes written are its media bytes written.
 */
static void
check_ocp(const struct smart *s, const uint8_t *c0)
{
	int	i;

	check(s->has_ocp == (c0 != NULL &&
	    memcmp(c0 + ocp_fields[OCP_GUID].off, "\xc5\xaf\x10\x28\xea\xbf"
	    "\xf2\xa4\x9c\x4f\x6f\x7c\xc9\x14\xd5\xaf", 16) == 0));
	check(s->has_nand_written == s->has_ocp);
	if (!s->has_ocp) {
		check(s->ocp_why[0] != '\0' && s->ocp_guid[0] == '\0');
		for (i = 0; i < OCP_NCOUNT; i++)
			check(s->ocp[i] == 0);
		return;
	}
	check(s->ocp_why[0] == '\0');
	check(s->nand_bytes_written == s->ocp[OCP_MEDIA_WRITTEN]);
	for (i = 0; i < OCP_NCOUNT; i++)
		check(ocp_fields[i].width >= 8 ||
		    s->ocp[i] < 1ULL << (8 * ocp_fields[i].width));
	check(strcmp(s->ocp_guid, "0xafd514c97c6f4f9ca4f2bfea2810afc5") == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nvme_smart_log	*log;
	void			*id, *c0;
	struct smart		 s;

	log = page(&data, &size, sizeof(*log), 1);
	id = page(&data, &size, sizeof(struct nvme_id_ctrl), 0);
	c0 = page(&data, &size, 512, 0);
	check(smart_from_nvme(log, id, c0, &s) == 0);
	check_smart(&s, log, id != NULL);
	check_ocp(&s, c0);
	free(log);
	free(id);
	free(c0);
	return 0;
}
