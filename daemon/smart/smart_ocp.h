/*
 * smart_ocp.h: the OCP Datacenter NVMe SSD SMART / Health Information
 * Extended log (log page C0h, 512 bytes, little-endian): the layout of
 * the fields ssdtortured reads, and their JSON keys. One table, read by
 * the decoder (smart_nvme.c) and by the JSON of readings and summaries
 * (smart_rules.c); a header, so that either links without the other.
 *
 * Offsets and widths: OCP Datacenter NVMe SSD Specification v2.0,
 * "SMART / Health Information Extended (Log Identifier C0h)"; checked
 * against nvme-cli's plugins/ocp/ocp-smart-extended-log.h (struct
 * ocp_smart_extended_log, which also holds the fields of later versions
 * of the log: they fill what 2.0 reserved and leave these in place) and
 * pydiskcmd's plugins/ocp/DSSD_spec.py.
 */
#ifndef SSDT_SMART_OCP_H
#define SSDT_SMART_OCP_H

#include "smart.h"

struct ocp_field {
	const char	*key;		/* JSON key of the figure */
	unsigned	 off, width;	/* bytes */
	const char	*meaning;
};

/* Widths of 1 to 8 bytes are counters; 16, a 128-bit counter that
 * saturates at 2^64 - 1; the GUID is kept as hex. */
static const struct ocp_field ocp_fields[OCP_FIG_N] = {
	[OCP_MEDIA_WRITTEN] = { "ocp_media_bytes_written", 0, 16,
	    "Physical Media Units Written: bytes written to the NAND, the "
	    "host's and the drive's own (garbage collection, wear levelling)" },
	[OCP_MEDIA_READ] = { "ocp_media_bytes_read", 16, 16,
	    "Physical Media Units Read: bytes read from the NAND" },
	[OCP_BAD_USER] = { "ocp_bad_user_blocks", 32, 6,
	    "Bad User NAND Blocks, raw count" },
	[OCP_BAD_USER_NORM] = { "ocp_bad_user_blocks_normalized", 38, 2,
	    "Bad User NAND Blocks, normalized (100 on a new drive)" },
	[OCP_BAD_SYSTEM] = { "ocp_bad_system_blocks", 40, 6,
	    "Bad System NAND Blocks, raw count" },
	[OCP_BAD_SYSTEM_NORM] = { "ocp_bad_system_blocks_normalized", 46, 2,
	    "Bad System NAND Blocks, normalized (100 on a new drive)" },
	[OCP_XOR_RECOVERY] = { "ocp_xor_recoveries", 48, 8,
	    "XOR Recovery Count: times the parity across dies was needed to "
	    "recover data" },
	[OCP_UNCORRECTABLE_READ] = { "ocp_uncorrectable_reads", 56, 8,
	    "Uncorrectable Read Error Count" },
	[OCP_SOFT_ECC] = { "ocp_soft_ecc_errors", 64, 8,
	    "Soft ECC Error Count: errors corrected by soft-decision ECC" },
	[OCP_E2E_DETECTED] = { "ocp_e2e_detected_errors", 72, 4,
	    "SSD End to End Correction Counts, detected errors" },
	[OCP_E2E_CORRECTED] = { "ocp_e2e_corrected_errors", 76, 4,
	    "SSD End to End Correction Counts, corrected errors" },
	[OCP_SYSTEM_USED] = { "ocp_system_percent_used", 80, 1,
	    "System Data % Used: endurance of the drive's own metadata area "
	    "consumed, percent" },
	[OCP_ERASE_MAX] = { "ocp_erase_count_max", 88, 4,
	    "User Data Erase Counts, maximum over the user data blocks" },
	[OCP_ERASE_MIN] = { "ocp_erase_count_min", 92, 4,
	    "User Data Erase Counts, minimum over the user data blocks" },
	[OCP_THROTTLE_EVENTS] = { "ocp_throttle_events", 96, 1,
	    "Thermal Throttling Status and Count: number of throttling events" },
	[OCP_THROTTLE_STATUS] = { "ocp_throttle_status", 97, 1,
	    "Thermal Throttling Status and Count: current status, 00h "
	    "unthrottled, 01h to 03h throttle level 1 to 3" },
	[OCP_LOG_VERSION] = { "ocp_log_version", 494, 2,
	    "Log Page Version" },
	[OCP_GUID] = { "ocp_guid", 496, 16,
	    "Log Page GUID, AFD514C97C6F4F9CA4F2BFEA2810AFC5 (as a 128-bit "
	    "little-endian number): the log is the OCP one" },
};

#endif
