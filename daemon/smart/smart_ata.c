/*
 * smart_ata.c: SMART and wear of a SATA (or SAS/SCSI) drive, decoded from
 * the JSON of `smartctl --json -a -l devstat /dev/sdX` (smartmontools 7.x).
 *
 * Decoded from smartctl's own interpretation: the attribute names and raw
 * formats its drive database gives, trusted only for a drive the database
 * knows ("in_smartctl_database": true); for others the names are
 * smartctl's defaults, whatever the drive counts there, so only Device
 * Statistics, the attributes whose meaning is standard (5, 197) and 187
 * under its default name (marked so) are read, and the rest is reported
 * unknown. Each figure records where it came from (struct smart src[]).
 *
 * Note that plain `-a` does not read the Device Statistics log for ATA
 * drives; `-l devstat` (or `-x`) adds ata_device_statistics, whose
 * counters are standard (ACS-3) and so preferred over vendor attributes.
 * Everything is optional: smartctl leaves out what a drive does not
 * report, and exits non-zero for many conditions that still produce full
 * JSON (bit flags), so the exit status is not looked at here.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "smart.h"
#include "smart_json.h"
#include "wear_units.h"

/* A percentage used is one byte (ACS-3 devstat, NVMe): beyond it, noise. */
#define PERCENT_USED_MAX	255

/* Why vendor figures of a drive smartctl does not know stay unknown. */
#define WHY_NOT_IN_DB		"not in smartctl's database"
#define WHY_SCSI		"not reported by SCSI drives"
#define WHY_NO_ERRLOG		"the drive reports no error counter log"
#define SRC_ERRLOG		"SCSI error counter log"
#define GB			1000000000ULL	/* SCSI "gigabytes": 10^9 */

/* How an attribute tells how much of the rated life is gone. */
enum life_how {
	LIFE_NORM_LEFT,		/* normalized value: percent left, 100 = new */
	LIFE_RAW_LEFT,		/* raw value: percent left */
	LIFE_RAW_USED		/* raw value: percent used, may pass 100 */
};

/*
 * Life attributes, for drives in smartctl's database only (their names
 * are then the database's, not smartctl's defaults). Keyed on the drive
 * family smartctl reports (fnmatch pattern; NULL: any family, for names
 * only one family uses), optionally the model, and the attribute's id and
 * name: the same name means other things elsewhere (Wear_Leveling_Count
 * at 173 on Silicon Motion is an erase count; 177 Wear_Leveling_Count and
 * 233 Media_Wearout_Indicator are smartctl's defaults for any drive).
 * The first rule that matches an attribute of the drive wins, so the more
 * specific rule comes first. Used only when the drive has no Device
 * Statistics "Percentage Used Endurance Indicator". Lines: drivedb.h
 * 7.3/5319 (/usr/share/smartmontools/drivedb.h).
 */
static const struct life_rule {
	const char	*family;
	const char	*model;
	int		 id;
	const char	*name;
	enum life_how	 how;
	const char	*src;
} life_rules[] = {
	/* KC400 (Phison S10): raw = percent of rated life left, as the
	 * name says: a KC400 with raw 74 had an average erase count of 808
	 * on MLC flash after about 421 TB written, 26 % of its life used.
	 * Read from the raw value, which the normalized one need not follow.
	 * drivedb "Phison Driven SSDs" (line 742, -v 231,raw48) */
	{ "Phison Driven SSDs", "KINGSTON SKC400S37*", 231, "SSD_Life_Left",
	  LIFE_RAW_LEFT, "vendor rule: Phison KC400 231 raw = % left" },
	/* other Phison drives (A400): normalized = percent left; the A400
	 * capture shows raw = normalized = 97 (drivedb line 742) */
	{ "Phison Driven*", NULL, 231, "SSD_Life_Left", LIFE_NORM_LEFT,
	  "vendor rule: Phison 231 normalized" },
	/* SandForce SF-2xxx: normalized, 100 new, trips at 10 (drivedb
	 * "SandForce Driven SSDs", -v 231,raw48,SSD_Life_Left) */
	{ "SandForce Driven SSDs", NULL, 231, "SSD_Life_Left", LIFE_NORM_LEFT,
	  "vendor rule: SandForce 231 normalized" },
	/* Silicon Motion: 169 raw = remaining life in percent (drivedb
	 * "Silicon Motion based SSDs", -v 169,raw48,Remaining_Lifetime_Perc);
	 * 231 on the KC600 (-v 231,raw48,SSD_Life_Left) normalized */
	{ "Silicon Motion based*", NULL, 169, "Remaining_Lifetime_Perc",
	  LIFE_RAW_LEFT, "vendor rule: Silicon Motion 169 raw = % left" },
	{ "Silicon Motion based*", NULL, 231, "SSD_Life_Left", LIFE_NORM_LEFT,
	  "vendor rule: Silicon Motion 231 normalized" },
	/* Dell-branded Intel S3520/S4x00: drivedb lines 1608 and 1658,
	 * -v 245,raw48,Percent_Life_Remaining: raw = percent left */
	{ "Dell Certified Intel*", NULL, 245, "Percent_Life_Remaining",
	  LIFE_RAW_LEFT, "vendor rule: Dell/Intel 245 raw = % left" },
	/* Intel: Media Wearout Indicator, normalized 100 new, 1 at rated
	 * wear (Intel DC S3700 / 320 / 53x product specifications) */
	{ "Intel *", NULL, 233, "Media_Wearout_Indicator", LIFE_NORM_LEFT,
	  "vendor rule: Intel 233 normalized" },
	/* Samsung: normalized falls from 100 with P/E cycles used (drivedb
	 * "Samsung based SSDs", 177 Wear_Leveling_Count) */
	{ "Samsung based SSDs", NULL, 177, "Wear_Leveling_Count",
	  LIFE_NORM_LEFT, "vendor rule: Samsung 177 normalized" },
	/* Marvell-based SanDisk (Ultra 3D): -v 201,raw48,Lifetime_Remaining%
	 * (drivedb line 1956); the normalized value is read, bounded 0..100 */
	{ "Marvell based SanDisk SSDs", NULL, 201, "Lifetime_Remaining%",
	  LIFE_NORM_LEFT, "vendor rule: SanDisk 201 normalized" },
	/* Crucial/Micron: drivedb "norm = max(100-raw,0); raw = percent
	 * used" on client drives; on the 5100/52x0/5300 only the normalized
	 * value is documented ("remaining endurance, trips at 10%") */
	{ NULL, NULL, 202, "Percent_Lifetime_Remain", LIFE_NORM_LEFT,
	  "vendor rule: Micron 202 normalized" },
	/* Crucial m4/C400 (Micron TN-FD-20): raw = percent of life used */
	{ NULL, NULL, 202, "Perc_Rated_Life_Used", LIFE_RAW_USED,
	  "vendor rule: Micron 202 raw = % used" },
	{ NULL, NULL, 0, NULL, LIFE_NORM_LEFT, NULL }
};

/*
 * Counters whose database name states a unit the family does not count
 * in. Dell-branded Intel S3520/S4x00 (drivedb lines 1608 and 1658) name
 * 233 and 241 Total_LBAs_Written and 242 Total_LBAs_Read, but the Dell
 * S3520 capture (dell_intel_s3520.json) has 233 = 241 = 225
 * Host_Writes_32MiB = 129493: they count 32 MiB, like Intel's own 241/242
 * Host_Writes_32MiB / Host_Reads_32MiB on the same hardware.
 */
static const struct unit_rule {
	const char	*family;	/* fnmatch pattern */
	const char	*name;
	const char	*as;		/* read as this wear_units name */
} unit_rules[] = {
	{ "Dell Certified Intel*", "Total_LBAs_Written", "Host_Writes_32MiB" },
	{ "Dell Certified Intel*", "Total_LBAs_Read", "Host_Reads_32MiB" },
	{ NULL, NULL, NULL }
};

/*
 * Uncorrectable errors reported to the host, by the name the database
 * gives (drivedb: 187 Reported_Uncorrect, the default; 187 on Intel, 195
 * on Dell-branded Intel and 160 on Silicon Motion Uncorrectable_Error_Cnt;
 * Uncorrectable_ECC_Ct at 187), never by id alone: 195 is an ECC rate on
 * SandForce drives, 160 means other things on others.
 */
static const char *const uncorrectable_names[] = {
	"Reported_Uncorrect", "Uncorrectable_Error_Cnt", "Uncorrectable_ECC_Ct",
	NULL
};

/*
 * smartctl's default name for 187 on a drive its database does not know.
 * Nearly every database entry that names 187 makes it an uncorrectable or
 * read-failure count (Reported_Uncorrect, Uncorrectable_Error_Cnt, ...),
 * so it is read as media errors there too, marked as read by the default
 * name, and Device Statistics' standard count wins over it.
 */
#define DEFAULT_187		"Reported_Uncorrect"
#define BY_DEFAULT_NAME		" (smartctl's default name)"

/*
 * 197 counts pending sectors under these names only (drivedb: the default
 * Current_Pending_Sector, Crucial's Current_Pending_ECC_Cnt,
 * Pending_Sector_Count). Others name it Not_In_Use (Phison),
 * ECC_Error_Count or a read-failure count: no pending figure there.
 */
static const char *const pending_names[] = {
	"Current_Pending_Sector", "Current_Pending_ECC_Cnt",
	"Pending_Sector_Count", NULL
};

/*
 * Power losses without a clean shutdown, by the drive database's names
 * (Intel, Kingston: Unsafe_Shutdown_Count at 174 or 192; Crucial, Micron,
 * SanDisk, SandForce: Unexpect_Power_Loss_Ct at 174; Samsung:
 * POR_Recovery_Count at 235). smartctl's default name for 192 on a drive
 * it does not know, Power-Off_Retract_Count, is a hard disk's head
 * retract and is not trusted.
 */
static const char *const unsafe_names[] = {
	"Unsafe_Shutdown_Count", "Unexpect_Power_Loss_Ct", "POR_Recovery_Count",
	NULL
};

/* Standard Device Statistics entries (ACS-3 log 04h), by smartctl name. */
enum ds_field { DS_WRITTEN, DS_READ, DS_PCT_USED, DS_WCMDS, DS_RCMDS,
	DS_UNCORRECTABLE };

static const struct devstat_name {
	const char	*name;
	enum ds_field	 field;
} devstat_names[] = {
	{ "Logical Sectors Written",			DS_WRITTEN },
	{ "Logical Sectors Read",			DS_READ },
	{ "Percentage Used Endurance Indicator",	DS_PCT_USED },
	{ "Number of Write Commands",			DS_WCMDS },
	{ "Number of Read Commands",			DS_RCMDS },
	{ "Number of Reported Uncorrectable Errors",	DS_UNCORRECTABLE },
	{ NULL, DS_WRITTEN }
};

/* What the attribute pass leaves for the passes after it. */
struct ata_ctx {
	uint32_t		 lbs;		/* logical block size */
	int			 in_db;		/* smartctl knows the drive */
	char			 family[96];	/* model_family, "" if none */
	const struct life_rule	*life;		/* best life rule seen */
	double			 life_used;	/* what it gave */
	char			 life_src[SMART_SRC_LEN];
	const struct wear_unit	*page_unit;	/* a page counter was seen */
	uint64_t		 host_pages, bg_pages;
	int			 seen_host_pages, seen_bg_pages;
	int			 media_by_default; /* 187 by its default name */
};

static uint64_t
sat_mul(uint64_t a, uint64_t b)
{
	return (b != 0 && a > UINT64_MAX / b) ? UINT64_MAX : a * b;
}

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * Device information is anything about the drive itself: smartctl writes
 * "device" (what it was asked to open) even when the open or IDENTIFY
 * failed, so that alone does not count. 1 for a SCSI drive, 0 for ATA.
 */
static int
check_device(json_object *root, char *err, size_t errlen)
{
	const char	*proto = jstr(jpath(root, "device", "protocol", NULL));
	const char	*why;

	if (jpath(root, "model_name", NULL) == NULL &&
	    jpath(root, "scsi_model_name", NULL) == NULL &&
	    jpath(root, "serial_number", NULL) == NULL &&
	    jpath(root, "ata_smart_attributes", NULL) == NULL) {
		why = smartctl_error(root);
		seterr(err, errlen, "%s", why != NULL ? why :
		    "smartctl output has no device information");
		return -1;
	}
	if (proto != NULL && strcmp(proto, "SCSI") == 0)
		return 1;
	if (proto != NULL && strcmp(proto, "ATA") != 0) {
		seterr(err, errlen, "not an ATA or SCSI device (protocol %s)",
		    proto);
		return -1;
	}
	return 0;
}

/* Record where figure f of s came from. */
static void
setsrc(struct smart *s, enum smart_fig f, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(s->src[f], sizeof(s->src[f]), fmt, ap);
	va_end(ap);
}

static void
decode_identity(json_object *root, struct smart *s, struct ata_ctx *c)
{
	json_object	*db;
	uint64_t	 v;

	s->source = SMART_ATA;
	jcopy(s->model, sizeof(s->model), jpath(root, "model_name", NULL));
	jcopy(s->serial, sizeof(s->serial), jpath(root, "serial_number",
	    NULL));
	jcopy(s->firmware, sizeof(s->firmware), jpath(root,
	    "firmware_version", NULL));
	if (ju64(jpath(root, "local_time", "time_t", NULL), &v))
		s->time = v;
	jcopy(c->family, sizeof(c->family), jpath(root, "model_family",
	    NULL));
	db = jpath(root, "in_smartctl_database", NULL);
	c->in_db = json_object_is_type(db, json_type_boolean) &&
	    json_object_get_boolean(db);
	if (!c->in_db)
		snprintf(s->unknown_why, sizeof(s->unknown_why), "%s",
		    WHY_NOT_IN_DB);
	/* sector counters are in logical sectors; 512 unless told */
	c->lbs = 512;
	if (ju64(jpath(root, "logical_block_size", NULL), &v) &&
	    v >= 512 && v <= 65536)
		c->lbs = (uint32_t)v;
}

static void
decode_health(json_object *root, struct smart *s)
{
	json_object	*passed = jpath(root, "smart_status", "passed", NULL);
	json_object	*errlog = jpath(root, "ata_smart_error_log", NULL);
	uint64_t	 v;

	if (json_object_is_type(passed, json_type_boolean)) {
		s->has_health = 1;
		s->health_passed = json_object_get_boolean(passed);
	}
	if (jint(jpath(root, "temperature", "current", NULL),
	    &s->temperature_c)) {
		s->has_temperature = 1;
		setsrc(s, FIG_TEMPERATURE, "smartctl temperature");
	}
	/* the maximum operating temperature (SCT or device statistics);
	 * 0 and below is no limit a drive sets */
	if (jint(jpath(root, "temperature", "op_limit_max", NULL),
	    &s->temp_limit_c) && s->temp_limit_c > 0)
		s->has_temp_limit = 1;
	if (ju64(jpath(root, "power_on_time", "hours", NULL), &v))
		s->power_on_hours = v;
	if (ju64(jpath(root, "power_cycle_count", NULL), &v)) {
		s->has_power_cycles = 1;
		s->power_cycles = v;
	}
	/* -x prints the extended comprehensive log, -a the summary one */
	if (ju64(jpath(errlog, "extended", "count", NULL), &v) ||
	    ju64(jpath(errlog, "summary", "count", NULL), &v))
		s->error_log_entries = v;
}

/*
 * The counter an attribute holds, as smartctl shows it: where the drive
 * database packs more than one value into the six raw bytes (raw16(raw16)
 * for attribute 5 prints "3 (0 1)", raw24(raw8) likewise) raw.value is all
 * six bytes and only the leading number is the count. Other formats
 * ("0x...", "12h+3m", "0/0") fall back to raw.value.
 */
static uint64_t
attr_count(json_object *a, uint64_t rawval)
{
	const char		*str = jstr(jpath(a, "raw", "string", NULL));
	char			*end;
	unsigned long long	 v;

	if (str == NULL || !isdigit((unsigned char)str[0]))
		return rawval;
	errno = 0;
	v = strtoull(str, &end, 10);
	if (errno != 0 || (*end != '\0' && strncmp(end, " (", 2) != 0))
		return rawval;
	return v;
}

/*
 * One table row: -1 without an id, 0 without a raw value (kept, but not
 * counted), 1 when whole. value, worst and thresh are -1 where smartctl
 * printed "---" (and so left the key out): a health rule must not read a
 * missing threshold as 0 = "never fails" or a missing value as 0.
 */
static int
decode_attr(json_object *a, struct smart_attr *sa)
{
	int	id;

	if (!jint(jpath(a, "id", NULL), &id) || id < 1 || id > 255)
		return -1;
	memset(sa, 0, sizeof(*sa));
	sa->id = id;
	jcopy(sa->name, sizeof(sa->name), jpath(a, "name", NULL));
	if (!jint(jpath(a, "value", NULL), &sa->value))
		sa->value = -1;
	if (!jint(jpath(a, "worst", NULL), &sa->worst))
		sa->worst = -1;
	if (!jint(jpath(a, "thresh", NULL), &sa->thresh))
		sa->thresh = -1;
	return ju64(jpath(a, "raw", "value", NULL), &sa->raw);
}

/* One of `names` (uncorrectable_names, unsafe_names, pending_names)? */
static int
name_in(const char *const *names, const char *name)
{
	for (; *names != NULL; names++)
		if (strcmp(*names, name) == 0)
			return 1;
	return 0;
}

/* The unsafe-shutdown count: the first attribute the database names so. */
static void
apply_unsafe_attr(struct smart *s, const struct ata_ctx *c,
    const struct smart_attr *sa, uint64_t count)
{
	if (!c->in_db || s->has_unsafe_shutdowns ||
	    !name_in(unsafe_names, sa->name))
		return;
	s->has_unsafe_shutdowns = 1;
	s->unsafe_shutdowns = count;
	setsrc(s, FIG_UNSAFE_SHUTDOWNS, "attribute %d %s", sa->id, sa->name);
}

/*
 * Error counters. 5 means the same on every drive (ATA/ATAPI-8 and smartd
 * treat it so; some rename it, keeping the meaning): trusted by id. 197
 * only under a name that means pending sectors (the database renames it
 * where it means something else). Uncorrectables by the database's names,
 * or 187 by its default name on a drive the database does not know.
 */
static void
apply_error_attr(struct smart *s, struct ata_ctx *c,
    const struct smart_attr *sa, uint64_t count)
{
	int	by_default = !c->in_db && sa->id == 187 &&
		    strcmp(sa->name, DEFAULT_187) == 0;

	if (sa->id == 5) {
		s->has_reallocated = 1;
		s->reallocated = count;
		setsrc(s, FIG_REALLOCATED, "attribute 5 %s", sa->name);
	} else if (sa->id == 197 && name_in(pending_names, sa->name)) {
		s->has_pending = 1;
		s->pending = count;
		setsrc(s, FIG_PENDING, "attribute 197 %s", sa->name);
	} else if (sa->id == 197) {
		setsrc(s, FIG_PENDING, "attribute 197 is %s on this drive",
		    sa->name);
	} else if (!s->has_media_errors && (by_default || (c->in_db &&
	    name_in(uncorrectable_names, sa->name)))) {
		s->has_media_errors = 1;
		s->media_errors = count;
		c->media_by_default = by_default;
		setsrc(s, FIG_MEDIA_ERRORS, "attribute %d %s%s", sa->id,
		    sa->name, by_default ? BY_DEFAULT_NAME : "");
	}
}

/* Write/read counters, by the unit their database name states; the
 * first attribute of each kind wins (Intel reports host writes twice, at
 * 225 and 241; Dell-branded Intel names 233 and 241 Total_LBAs_Written,
 * though they count 32 MiB like 225 before them). */
static void
apply_wear_attr(struct smart *s, struct ata_ctx *c,
    const struct smart_attr *sa, uint64_t count)
{
	const struct unit_rule	*r;
	const struct wear_unit	*u;
	const char		*name = sa->name, *how = "";
	uint64_t		 bytes;
	enum smart_fig		 f;

	if (!c->in_db)
		return;
	for (r = unit_rules; r->name != NULL; r++)
		if (strcmp(r->name, name) == 0 &&
		    fnmatch(r->family, c->family, 0) == 0) {
			name = r->as;
			how = ", vendor rule: counts 32 MiB";
		}
	if ((u = wear_unit_find(name)) == NULL)
		return;
	bytes = wear_unit_bytes(u, count, c->lbs);
	if (u->page_bytes != 0) {
		c->page_unit = u;
		if (u->kind == WEAR_HOST_WRITES) {
			c->host_pages = sat_add(c->host_pages, count);
			c->seen_host_pages = 1;
		} else {
			c->bg_pages = sat_add(c->bg_pages, count);
			c->seen_bg_pages = 1;
		}
		return;
	}
	f = u->kind == WEAR_HOST_WRITES ? FIG_DEVICE_WRITTEN :
	    u->kind == WEAR_HOST_READS ? FIG_DEVICE_READ : FIG_NAND_WRITTEN;
	if (s->src[f][0] != '\0')
		return;
	if (f == FIG_DEVICE_WRITTEN) {
		s->has_device_written = 1;
		s->device_bytes_written = bytes;
	} else if (f == FIG_DEVICE_READ) {
		s->has_device_read = 1;
		s->device_bytes_read = bytes;
	} else {
		s->has_nand_written = 1;
		s->nand_bytes_written = bytes;
	}
	setsrc(s, f, "attribute %d %s%s", sa->id, sa->name, how);
}

/* Does life rule r apply to attribute sa of this drive? */
static int
life_match(const struct life_rule *r, const struct ata_ctx *c,
    const struct smart *s, const struct smart_attr *sa)
{
	return r->id == sa->id && strcmp(r->name, sa->name) == 0 &&
	    (r->family == NULL || fnmatch(r->family, c->family, 0) == 0) &&
	    (r->model == NULL || fnmatch(r->model, s->model, 0) == 0);
}

/* The life attribute of the earliest matching rule wins. */
static void
apply_life_attr(struct ata_ctx *c, const struct smart *s,
    const struct smart_attr *sa, uint64_t count)
{
	const struct life_rule	*r;
	double			 used;

	if (!c->in_db)
		return;
	for (r = life_rules; r->name != NULL; r++)
		if (life_match(r, c, s, sa))
			break;
	if (r->name == NULL || (c->life != NULL && c->life <= r))
		return;
	if (r->how == LIFE_NORM_LEFT && sa->value >= 0 && sa->value <= 100)
		used = 100 - sa->value;
	else if (r->how == LIFE_RAW_LEFT && count <= 100)
		used = 100 - (double)count;
	else if (r->how == LIFE_RAW_USED && count <= PERCENT_USED_MAX)
		used = (double)count;
	else
		return;		/* out of range: not a percentage */
	c->life = r;
	c->life_used = used;
	snprintf(c->life_src, sizeof(c->life_src), "%s (attribute %d)",
	    r->src, sa->id);
}

static void
decode_attrs(json_object *root, struct smart *s, struct ata_ctx *c)
{
	json_object		*tab = jpath(root, "ata_smart_attributes",
				    "table", NULL);
	struct smart_attr	 sa;
	uint64_t		 count;
	size_t			 i, n;

	if (!json_object_is_type(tab, json_type_array))
		return;
	n = json_object_array_length(tab);
	for (i = 0; i < n; i++) {
		json_object *a = json_object_array_get_idx(tab, i);
		int whole = decode_attr(a, &sa);

		if (whole >= 0 && s->nattrs < SMART_ATTR_MAX)
			s->attrs[s->nattrs++] = sa;
		if (whole <= 0)
			continue;
		count = attr_count(a, sa.raw);
		apply_error_attr(s, c, &sa, count);
		apply_unsafe_attr(s, c, &sa, count);
		apply_wear_attr(s, c, &sa, count);
		apply_life_attr(c, s, &sa, count);
	}
}

/* Standard counters override the vendor attributes read before them. */
static void
apply_devstat(struct smart *s, const struct ata_ctx *c, enum ds_field f,
    uint64_t v)
{
	switch (f) {
	case DS_WRITTEN:
		s->has_device_written = 1;
		s->device_bytes_written = sat_mul(v, c->lbs);
		setsrc(s, FIG_DEVICE_WRITTEN, "device statistics");
		break;
	case DS_READ:
		s->has_device_read = 1;
		s->device_bytes_read = sat_mul(v, c->lbs);
		setsrc(s, FIG_DEVICE_READ, "device statistics");
		break;
	case DS_PCT_USED:
		if (v <= PERCENT_USED_MAX) {
			s->has_percent_used = 1;
			s->percent_used = (double)v;
			setsrc(s, FIG_PERCENT_USED, "device statistics");
		}
		break;
	case DS_WCMDS:
		s->host_write_cmds = v;
		break;
	case DS_RCMDS:
		s->host_read_cmds = v;
		break;
	case DS_UNCORRECTABLE:
		/* the same count as attribute 187, which wins if present
		 * under a name the database gives */
		if (!s->has_media_errors || c->media_by_default) {
			s->has_media_errors = 1;
			s->media_errors = v;
			setsrc(s, FIG_MEDIA_ERRORS, "device statistics");
		}
		break;
	}
}

/* One statistic; skipped unless smartctl marked it valid (the value is
 * then present too: smartctl omits the value of an invalid entry). */
static void
decode_devstat_entry(json_object *e, struct smart *s, const struct ata_ctx *c)
{
	const struct devstat_name	*d;
	const char			*name = jstr(jpath(e, "name", NULL));
	json_object			*valid;
	uint64_t			 v;

	valid = jpath(e, "flags", "valid", NULL);
	if (name == NULL || !json_object_is_type(valid, json_type_boolean) ||
	    !json_object_get_boolean(valid) || !ju64(jpath(e, "value", NULL),
	    &v))
		return;
	for (d = devstat_names; d->name != NULL; d++)
		if (strcmp(d->name, name) == 0) {
			apply_devstat(s, c, d->field, v);
			return;
		}
}

static void
decode_devstats(json_object *root, struct smart *s, const struct ata_ctx *c)
{
	json_object	*pages = jpath(root, "ata_device_statistics", "pages",
			    NULL);
	json_object	*tab;
	size_t		 i, j, n, m;

	if (!json_object_is_type(pages, json_type_array))
		return;
	n = json_object_array_length(pages);
	for (i = 0; i < n; i++) {
		tab = jpath(json_object_array_get_idx(pages, i), "table", NULL);
		if (!json_object_is_type(tab, json_type_array))
			continue;
		m = json_object_array_length(tab);
		for (j = 0; j < m; j++)
			decode_devstat_entry(json_object_array_get_idx(tab, j),
			    s, c);
	}
}

/*
 * Micron page counters (see wear_units.c): NAND bytes = host bytes x WAF,
 * WAF = (host pages + background pages) / host pages (Micron TN-FD-22),
 * which needs no page size. The nominal page size is used only when the
 * drive gives no host byte count. Both counters or no figure: one alone
 * is half of the NAND writes. long double: the product does not fit
 * 64 bits, and the result is an estimate anyway.
 */
static void
finish_pages(struct smart *s, const struct ata_ctx *c)
{
	uint64_t	pages = sat_add(c->host_pages, c->bg_pages);
	long double	nand;

	if (s->has_nand_written || !c->seen_host_pages || !c->seen_bg_pages)
		return;
	s->has_nand_written = 1;
	setsrc(s, FIG_NAND_WRITTEN, "Micron page counters 247+248%s",
	    s->has_device_written && c->host_pages != 0 ?
	    " x host writes" : ", nominal 16 KiB pages");
	if (!s->has_device_written || c->host_pages == 0) {
		s->nand_bytes_written = wear_unit_bytes(c->page_unit, pages,
		    c->lbs);
		return;
	}
	nand = (long double)s->device_bytes_written * (long double)pages /
	    (long double)c->host_pages;
	s->nand_bytes_written = nand >= 0x1p64L ? UINT64_MAX :
	    (uint64_t)(nand + 0.5L);
}

/*
 * smartctl prints an error counter's gigabytes processed (10^9 bytes) as
 * a string with three decimals ("6082.745"): read exactly, digit by
 * digit, with no binary fraction in between. 0 when it is no such number.
 */
static int
scsi_gb_bytes(json_object *o, uint64_t *bytes)
{
	const char	*p = jstr(o);
	uint64_t	 whole = 0, frac = 0, scale = GB;

	if (p == NULL || !isdigit((unsigned char)*p))
		return 0;
	for (; isdigit((unsigned char)*p); p++) {
		if (whole > UINT64_MAX / GB / 10)
			return 0;	/* beyond what 64 bits of bytes hold */
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++) {
			if ((scale /= 10) == 0)
				return 0;	/* finer than a byte */
			frac += (uint64_t)(*p - '0') * scale;
		}
	/* the loop's bound keeps whole itself from wrapping; whole * GB and
	 * the fraction added to it must fit too, or the figure is unknown */
	if (*p != '\0' || whole > UINT64_MAX / GB ||
	    frac > UINT64_MAX - whole * GB)
		return 0;
	*bytes = whole * GB + frac;
	return 1;
}

/* One figure from the error counter log, or why it is not there. */
static void
scsi_errlog_fig(struct smart *s, enum smart_fig f, int ok, uint64_t v)
{
	if (!ok) {
		setsrc(s, f, "not in the SCSI error counter log, or past 64 "
		    "bits");
		return;
	}
	if (f == FIG_MEDIA_ERRORS) {
		s->has_media_errors = 1;
		s->media_errors = v;
	} else if (f == FIG_DEVICE_WRITTEN) {
		s->has_device_written = 1;
		s->device_bytes_written = v;
	} else {
		s->has_device_read = 1;
		s->device_bytes_read = v;
	}
	setsrc(s, f, SRC_ERRLOG);
}

/*
 * The error counter log (SPC-4 log pages 02h, 03h, 05h): media errors
 * are the uncorrected errors of reads, writes and verifies (read and
 * write must both be there, verify is optional); bytes written and read
 * are the write and read counters' gigabytes processed.
 */
static void
decode_scsi_errlog(json_object *root, struct smart *s)
{
	json_object	*log = jpath(root, "scsi_error_counter_log", NULL);
	uint64_t	 r, w, v = 0, b;
	int		 ok;

	if (!json_object_is_type(log, json_type_object)) {
		setsrc(s, FIG_MEDIA_ERRORS, WHY_NO_ERRLOG);
		setsrc(s, FIG_DEVICE_WRITTEN, WHY_NO_ERRLOG);
		setsrc(s, FIG_DEVICE_READ, WHY_NO_ERRLOG);
		return;
	}
	ok = ju64(jpath(log, "read", "total_uncorrected_errors", NULL), &r) &&
	    ju64(jpath(log, "write", "total_uncorrected_errors", NULL), &w);
	(void)ju64(jpath(log, "verify", "total_uncorrected_errors", NULL), &v);
	scsi_errlog_fig(s, FIG_MEDIA_ERRORS, ok, ok ? sat_add(sat_add(r, w),
	    v) : 0);
	ok = scsi_gb_bytes(jpath(log, "write", "gigabytes_processed", NULL),
	    &b);
	scsi_errlog_fig(s, FIG_DEVICE_WRITTEN, ok, ok ? b : 0);
	ok = scsi_gb_bytes(jpath(log, "read", "gigabytes_processed", NULL),
	    &b);
	scsi_errlog_fig(s, FIG_DEVICE_READ, ok, ok ? b : 0);
}

/*
 * A SAS/SCSI drive: SPC-4 and SBC-4 standard logs only, which smartctl
 * reads under -a: the Solid State Media log's percentage used endurance
 * indicator, the grown defect list (blocks the drive took out of use:
 * reallocated), the pending defects log, the error counter log, the
 * temperature. The rest (NAND writes, unsafe shutdowns, power cycles)
 * has no SCSI counterpart here and is unknown, said so in the reading.
 */
static void
decode_scsi(json_object *root, struct smart *s)
{
	uint64_t	v;

	s->source = SMART_SCSI;
	snprintf(s->unknown_why, sizeof(s->unknown_why), "%s", WHY_SCSI);
	if (s->model[0] == '\0')	/* smartctl 7.3 wrote only this */
		jcopy(s->model, sizeof(s->model), jpath(root,
		    "scsi_model_name", NULL));
	jcopy(s->firmware, sizeof(s->firmware), jpath(root, "scsi_revision",
	    NULL));
	jcopy(s->firmware, sizeof(s->firmware), jpath(root, "revision",
	    NULL));
	if (s->has_temperature)
		setsrc(s, FIG_TEMPERATURE, "SCSI temperature");
	if (ju64(jpath(root, "scsi_percentage_used_endurance_indicator",
	    NULL), &v) && v <= PERCENT_USED_MAX) {
		s->has_percent_used = 1;
		s->percent_used = (double)v;
		setsrc(s, FIG_PERCENT_USED, "SCSI endurance indicator");
	}
	if (ju64(jpath(root, "scsi_grown_defect_list", NULL), &v)) {
		s->has_reallocated = 1;
		s->reallocated = v;
		setsrc(s, FIG_REALLOCATED, "SCSI grown defect list");
	}
	if (ju64(jpath(root, "scsi_pending_defects", "count", NULL), &v)) {
		s->has_pending = 1;
		s->pending = v;
		setsrc(s, FIG_PENDING, "SCSI pending defects");
	}
	decode_scsi_errlog(root, s);
}

/* Life from an attribute, when Device Statistics gave none. */
static void
finish_life(struct smart *s, const struct ata_ctx *c)
{
	if (s->has_percent_used || c->life == NULL)
		return;
	s->has_percent_used = 1;
	s->percent_used = c->life_used;
	setsrc(s, FIG_PERCENT_USED, "%s", c->life_src);
}

/*
 * The figures read whether or not smartctl knows the drive (attributes 5
 * and 197, smartctl's temperature): when one is missing, the drive does
 * not report it, whatever the reason given for the others.
 */
static void
finish_standard(struct smart *s)
{
	static const struct {
		enum smart_fig	 fig;
		const char	*why;
	} std[] = {
		{ FIG_REALLOCATED, "the drive has no attribute 5" },
		{ FIG_PENDING, "the drive has no attribute 197" },
		{ FIG_TEMPERATURE, "the drive reports no temperature" },
	};
	size_t	i;

	for (i = 0; i < sizeof(std) / sizeof(std[0]); i++)
		if (s->src[std[i].fig][0] == '\0')
			setsrc(s, std[i].fig, "%s", std[i].why);
}

int
smart_from_ata_json(const char *json, size_t len, struct smart *s,
    char *err, size_t errlen)
{
	struct ata_ctx	 c;
	json_object	*root;
	int		 scsi;

	memset(s, 0, sizeof(*s));
	memset(&c, 0, sizeof(c));
	seterr(err, errlen, "%s", "");
	if ((root = smartctl_parse(json, len, err, errlen)) == NULL)
		return -1;
	if ((scsi = check_device(root, err, errlen)) == -1) {
		json_object_put(root);
		return -1;
	}
	decode_identity(root, s, &c);
	decode_health(root, s);
	if (scsi) {
		decode_scsi(root, s);
		json_object_put(root);
		return 0;
	}
	decode_attrs(root, s, &c);
	decode_devstats(root, s, &c);
	finish_life(s, &c);
	finish_pages(s, &c);
	finish_standard(s);
	json_object_put(root);
	return 0;
}
