/*
 * smart_rules.c: when SMART says a drive has failed, and its write
 * amplification. Pure: readings in, a reason or a figure out; the drive
 * applies them.
 */
#include <inttypes.h>
#include <stdio.h>

#include "smart.h"

/* A counter grew by more than max between two readings? */
static int
jumped(int had, uint64_t before, int has, uint64_t now, uint64_t max)
{
	return had && has && now > before && now - before > max;
}

double
smart_waf(const struct smart *b, const struct smart *s)
{
	if (b == NULL || s == NULL || !b->has_nand_written ||
	    !b->has_device_written || !s->has_nand_written ||
	    !s->has_device_written)
		return -1;
	if (s->device_bytes_written <= b->device_bytes_written ||
	    s->nand_bytes_written < b->nand_bytes_written)
		return -1;
	return (double)(s->nand_bytes_written - b->nand_bytes_written) /
	    (double)(s->device_bytes_written - b->device_bytes_written);
}

const char *
smart_failure(const struct smart *p, const struct smart *s, uint64_t max,
    char *buf, size_t len)
{
	if (s->critical_warning & CW_READ_ONLY)
		return "SMART: media placed in read-only mode";
	if (s->critical_warning & CW_RELIABILITY)
		return "SMART: NVM subsystem reliability degraded";
	/* spare 0 of threshold 0 (QEMU, some drives) is not below it */
	if ((s->critical_warning & CW_SPARE) ||
	    (s->has_spare && s->available_spare < s->spare_threshold))
		return "SMART: available spare below threshold";
	if (jumped(p->has_media_errors, p->media_errors, s->has_media_errors,
	    s->media_errors, max)) {
		snprintf(buf, len, "SMART: media errors jumped from %" PRIu64
		    " to %" PRIu64 " between readings", p->media_errors,
		    s->media_errors);
		return buf;
	}
	if (jumped(p->has_reallocated, p->reallocated, s->has_reallocated,
	    s->reallocated, max)) {
		snprintf(buf, len, "SMART: reallocated sectors jumped from %"
		    PRIu64 " to %" PRIu64 " between readings", p->reallocated,
		    s->reallocated);
		return buf;
	}
	return NULL;
}
