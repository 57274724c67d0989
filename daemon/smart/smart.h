/*
 * smart.h: SMART and wear of a drive, decoded from NVMe log pages
 * (libnvme) or from smartctl's JSON (SATA). One struct for both, so
 * status, snapshots and health rules do not care where it came from.
 */
#ifndef SSDT_SMART_H
#define SSDT_SMART_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define SMART_ATTR_MAX		64
#define NVME_DATA_UNIT		512000ULL	/* bytes per NVMe data unit */

/* NVMe critical warning bits (SMART / Health log, byte 0). */
#define CW_SPARE		0x01	/* available spare below threshold */
#define CW_TEMPERATURE		0x02
#define CW_RELIABILITY		0x04	/* NVM subsystem reliability degraded */
#define CW_READ_ONLY		0x08	/* media placed in read-only mode */
#define CW_VOLATILE_BACKUP	0x10
#define CW_PMR_READ_ONLY	0x20

/* SMART_SCSI: a SAS/SCSI drive, read with smartctl like a SATA one. */
enum smart_source { SMART_NONE = 0, SMART_NVME, SMART_ATA, SMART_SCSI };

/*
 * The SMART figures, and (smart_fig_key[], in smart_rules.c) the one JSON
 * key of each, for the reading, its sources and the summary. A reading
 * carries provenance for those of smart_src_figs[]; the summary (below)
 * holds those of smart_sum_figs[].
 */
enum smart_fig {
	FIG_PERCENT_USED, FIG_SPARE, FIG_TEMPERATURE, FIG_MEDIA_ERRORS,
	FIG_CRITICAL_WARNING, FIG_REALLOCATED, FIG_PENDING, FIG_DEVICE_WRITTEN,
	FIG_DEVICE_READ, FIG_NAND_WRITTEN, FIG_WAF, FIG_UNSAFE_SHUTDOWNS,
	SMART_FIG_N
};
extern const char *const smart_fig_key[SMART_FIG_N];
#define SMART_NSRC_FIGS	9
extern const enum smart_fig smart_src_figs[SMART_NSRC_FIGS];
#define SMART_NSUM_FIGS	9
extern const enum smart_fig smart_sum_figs[SMART_NSUM_FIGS];
#define SMART_SRC_LEN		64

/*
 * The figures of the OCP Datacenter NVMe SSD extended log C0h; its layout
 * and their JSON keys are smart_ocp.h's table. The GUID is the last: the
 * figures before it are counters.
 */
enum ocp_fig {
	OCP_MEDIA_WRITTEN, OCP_MEDIA_READ, OCP_BAD_USER, OCP_BAD_USER_NORM,
	OCP_BAD_SYSTEM, OCP_BAD_SYSTEM_NORM, OCP_XOR_RECOVERY,
	OCP_UNCORRECTABLE_READ, OCP_SOFT_ECC, OCP_E2E_DETECTED,
	OCP_E2E_CORRECTED, OCP_SYSTEM_USED, OCP_ERASE_MAX, OCP_ERASE_MIN,
	OCP_THROTTLE_EVENTS, OCP_THROTTLE_STATUS, OCP_LOG_VERSION, OCP_GUID,
	OCP_FIG_N
};
#define OCP_NCOUNT	OCP_GUID
#define OCP_GUID_LEN	35	/* "0x" and 32 hex digits */
/* Where the OCP figures come from, as their sources say it. */
#define OCP_SOURCE	"OCP extended SMART log C0h"

/* One ATA SMART attribute as smartctl prints it. */
struct smart_attr {
	int		id;
	char		name[48];
	int		value, worst, thresh;
	uint64_t	raw;
};

struct smart {
	enum smart_source source;
	uint64_t	time;		/* epoch seconds of the read */
	char		model[64];
	char		serial[64];
	char		firmware[32];
	/* each has_ flag says the value below it was reported */
	int		has_percent_used;
	double		percent_used;		/* 0..255, NVMe or ATA device stats */
	int		has_spare;
	int		available_spare;	/* percent */
	int		spare_threshold;	/* percent */
	int		has_temperature;
	int		temperature_c;
	/* the drive's own limit: NVMe WCTEMP (warning composite), ATA SCT's
	 * specified maximum operating temperature */
	int		has_temp_limit;
	int		temp_limit_c;
	int		ntemp_sensors;
	int		temp_sensors_c[8];
	uint8_t		critical_warning;	/* CW_* bits (NVMe) */
	int		has_media_errors;
	uint64_t	media_errors;		/* NVMe media errors; ATA: uncorrectable;
						 * SCSI: uncorrected, error counter log */
	uint64_t	error_log_entries;
	int		has_reallocated;
	uint64_t	reallocated;		/* ATA 5 raw */
	int		has_pending;
	uint64_t	pending;		/* ATA 197 raw; SCSI pending defects */
	int		has_device_written;
	uint64_t	device_bytes_written;	/* host writes as the drive counts them */
	int		has_device_read;
	uint64_t	device_bytes_read;
	int		has_nand_written;
	uint64_t	nand_bytes_written;	/* physical media writes (OCP C0, ATA) */
	uint64_t	data_units_written;	/* NVMe raw units of 512,000 bytes */
	uint64_t	data_units_read;
	uint64_t	host_read_cmds, host_write_cmds;
	uint64_t	power_on_hours;
	int		has_power_cycles;	/* SCSI logs have no such count */
	uint64_t	power_cycles;
	/* power losses without a clean shutdown: NVMe's count; on SATA an
	 * attribute the drive database names so (smart_ata.c) */
	int		has_unsafe_shutdowns;
	uint64_t	unsafe_shutdowns;
	uint32_t	warning_temp_minutes, critical_temp_minutes;
	int		has_thermal;	/* the four counters below were reported */
	uint32_t	thermal_transitions[2];	/* TMT1, TMT2 */
	uint32_t	thermal_seconds[2];
	int		has_health;
	int		health_passed;		/* ATA overall self-assessment */
	int		nattrs;
	struct smart_attr attrs[SMART_ATTR_MAX];
	/* where each reported figure came from ("device statistics",
	 * "attribute 241 Total_LBAs_Written", ...); for one not reported,
	 * why when it is known ("the drive has no attribute 197"), else "" */
	char		src[SMART_FIG_N][SMART_SRC_LEN];
	/* why the figures not reported are unknown, "" when no reason */
	char		unknown_why[SMART_SRC_LEN];
	/* NVMe: the OCP C0h log when the drive has it (has_ocp), its
	 * counters and GUID; else why not ("no OCP C0h log: ...") */
	int		has_ocp;
	uint64_t	ocp[OCP_NCOUNT];
	char		ocp_guid[OCP_GUID_LEN + 1];
	char		ocp_why[SMART_SRC_LEN];
	/* what read it: "libnvme", "smartctl", "smart_command PROGRAM" */
	char		read_with[SMART_SRC_LEN];
};

/* NVMe: decode the SMART / Health log (512 bytes), the Identify Controller
 * data (4096 bytes, may be NULL) and the OCP extended log C0h (512 bytes,
 * may be NULL: not read; recognised by its GUID, else its figures are
 * unknown and ocp_why says why). */
int	smart_from_nvme(const void *smart_log, const void *id_ctrl,
	    const void *ocp_c0, struct smart *);
/*
 * SATA or SAS/SCSI: decode `smartctl --json -a [-l devstat]` output. -1
 * with a message on error.
 */
int	smart_from_ata_json(const char *json, size_t len, struct smart *,
	    char *err, size_t errlen);
/* NVMe: decode `smartctl --json -a /dev/nvmeX` output (smart_nvmejson.c). */
int	smart_from_nvme_json(const char *json, size_t len, struct smart *,
	    char *err, size_t errlen);
/*
 * Any smartctl JSON: NVMe ("device"."protocol" NVMe, or without a
 * protocol an NVMe SMART / Health log) or SATA/SCSI; then the NAND (and,
 * when the output has none, host) bytes written of an "ssdsim_nand"
 * object. The time of the reading is the output's, else now.
 */
int	smart_from_json(const char *json, size_t len, struct smart *,
	    char *err, size_t errlen);
/*
 * Has the drive failed, going from reading p to s? Critical warning bits
 * (read-only, reliability, spare), spare below its threshold, or media
 * errors or reallocated sectors grown by more than `max`. NULL when not.
 */
const char *smart_failure(const struct smart *p, const struct smart *s,
	    uint64_t max, char *buf, size_t len);
/*
 * How much an NVMe drive's thermal counters grew between two readings:
 * transitions into and seconds in each thermal management level (TMT1,
 * TMT2: the drive slowing itself down), and minutes above its warning and
 * critical composite temperatures.
 */
struct thermal_growth {
	uint32_t	transitions[2];
	uint32_t	seconds[2];
	uint32_t	warning_minutes, critical_minutes;
};
/*
 * Did the drive throttle between readings p and s? 1 with the growth in
 * *g when any of its NVMe thermal counters grew; 0 when none did, when
 * either reading is not an NVMe one, or when a counter went back (not
 * the same drive's counts).
 */
/*
 * The speed fell sharply while the drive was at its temperature limit:
 * reading s at or above its limit, the throughput now under
 * SMART_HOT_DROP times what it was at the reading before (before_bps > 0).
 */
#define SMART_HOT_DROP	0.5
int	smart_hot_slowdown(const struct smart *s, double before_bps,
	    double now_bps);
int	smart_throttled(const struct smart *p, const struct smart *s,
	    struct thermal_growth *g);
/*
 * Write amplification between the baseline b and the reading s: NAND
 * bytes over host bytes (as the drive counts them) written in between.
 * -1 (unknown) without a baseline or reading (NULL), when either lacks
 * either counter, when the host bytes did not grow, or when a counter
 * went back.
 */
double	smart_waf(const struct smart *b, const struct smart *s);

/*
 * A drive's SMART summary: the figures of its latest reading that Status,
 * the metrics and the archive show (smart_sum_figs[], in the order of the
 * Status object), typed; JSON only at the wire (smart_summary_json).
 */
enum smart_sum_kind { SUM_INT, SUM_COUNT, SUM_REAL };
struct smart_sum_val {
	int			has;
	enum smart_sum_kind	kind;	/* which of i, u, d holds it */
	int64_t			i;
	uint64_t		u;
	double			d;
};
struct smart_summary {
	int			known;	/* there was a reading */
	struct smart_sum_val	v[SMART_FIG_N];	/* those of smart_sum_figs */
	/* NVMe thermal management (TMT1, TMT2) as the reading has them */
	int			has_thermal;
	uint32_t		thermal_transitions[2];
	uint32_t		thermal_seconds[2];
	/* the OCP C0h counters (an NVMe reading: nvme), or why unknown */
	int			nvme, has_ocp;
	uint64_t		ocp[OCP_NCOUNT];
	char			ocp_why[SMART_SRC_LEN];
};
/* The summary of reading s (NULL: none yet), waf < 0 when unknown. */
void	smart_summary_fill(struct smart_summary *, const struct smart *s,
	    double waf);
/* A figure as a double (for the archive); 0 when it has none. */
double	smart_summary_double(const struct smart_summary *, enum smart_fig);
/* The Status "smart" object: every key, null when unknown; NULL if none. */
json_object *smart_summary_json(const struct smart_summary *);
/* Everything known, for status, snapshots and ssdctl smart. */
json_object *smart_to_json(const struct smart *);
/* The OCP C0h figures of an NVMe reading into o, each null when unknown
 * (smart_to_json's part; the reasons are in the sources). */
void	smart_ocp_json(json_object *o, const struct smart *);
/*
 * Provenance: figure key -> where it came from, or "unknown (why)" for a
 * figure not reported when a reason is known. NVMe figures without a
 * recorded source come from the SMART / Health log; an NVMe reading's
 * OCP figures name the C0h log and their bytes in it, or why there is
 * no such log.
 */
json_object *smart_sources_json(const struct smart *);

#endif
