/*
 * test_smart_ata.c: decoding `smartctl --json -a [-l devstat]` of SATA
 * drives. Fixtures live in tests/unit/data/smartctl/ (see its README.md);
 * the test runs from the repository root, or SSDT_TESTDATA names the
 * directory that holds smartctl/ (normally tests/unit/data).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smart.h"

#define MiB	(1024ULL * 1024)
#define GiB	(1024ULL * MiB)

/* The whole fixture file, NUL-terminated (the decoder does not need it). */
static char *
load(const char *name, size_t *len)
{
	const char	*dir = getenv("SSDT_TESTDATA");
	char		 path[1024];
	char		*buf;
	FILE		*f;
	long		 n;

	snprintf(path, sizeof(path), "%s/smartctl/%s",
	    dir != NULL && *dir != '\0' ? dir : "tests/unit/data", name);
	if ((f = fopen(path, "rb")) == NULL)
		fail_msg("cannot open %s (run from the repository root or "
		    "set SSDT_TESTDATA)", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void
decode_fixture(const char *name, struct smart *s)
{
	char	 err[256];
	size_t	 len;
	char	*json = load(name, &len);

	if (smart_from_ata_json(json, len, s, err, sizeof(err)) != 0)
		fail_msg("%s: %s", name, err);
	assert_string_equal(err, "");
	free(json);
	assert_int_equal(s->source, SMART_ATA);
}

/* Decode a string; the return code, with the message in err. */
static int
decode_str(const char *json, struct smart *s, char *err, size_t errlen)
{
	return smart_from_ata_json(json, strlen(json), s, err, errlen);
}

static const struct smart_attr *
attr(const struct smart *s, int id)
{
	int	i;

	for (i = 0; i < s->nattrs; i++)
		if (s->attrs[i].id == id)
			return &s->attrs[i];
	fail_msg("attribute %d missing", id);
	return NULL;
}

static void
test_samsung_860evo(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("samsung_860evo.json", &s);
	assert_string_equal(s.model, "Samsung SSD 860 EVO 500GB");
	assert_string_equal(s.serial, "S3Z2NB0K712345X");
	assert_string_equal(s.firmware, "RVT02B6Q");
	assert_int_equal(s.time, 1717243200);
	assert_true(s.has_health && s.health_passed);
	assert_true(s.has_temperature);
	assert_int_equal(s.temperature_c, 36);
	assert_true(s.has_reallocated);
	assert_int_equal(s.reallocated, 0);
	assert_int_equal(s.pending, 0);		/* no attribute 197 */
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 0);
	/* device statistics and attribute 241 agree on this drive */
	assert_true(s.has_device_written);
	assert_int_equal(s.device_bytes_written, 41015625000ULL * 512);
	assert_true(s.has_device_read);	/* only from device statistics */
	assert_int_equal(s.device_bytes_read, 61234567890ULL * 512);
	assert_false(s.has_nand_written);
	/* device statistics (2), not 100 - Wear_Leveling_Count (also 2) */
	assert_true(s.has_percent_used);
	assert_true(s.percent_used == 2.0);
	assert_int_equal(s.host_write_cmds, 1234567890);
	assert_int_equal(s.host_read_cmds, 2345678901ULL);
	assert_int_equal(s.power_on_hours, 21876);
	assert_int_equal(s.power_cycles, 412);
	assert_int_equal(s.error_log_entries, 0);
	assert_int_equal(s.nattrs, 14);
	assert_int_equal(attr(&s, 177)->value, 98);
	assert_int_equal(attr(&s, 177)->worst, 98);
	assert_int_equal(attr(&s, 177)->thresh, 0);
	assert_int_equal(attr(&s, 177)->raw, 61);
	assert_string_equal(attr(&s, 177)->name, "Wear_Leveling_Count");
	assert_int_equal(attr(&s, 5)->thresh, 10);
}

static void
test_crucial_mx500(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("crucial_mx500.json", &s);
	assert_string_equal(s.model, "CT500MX500SSD1");
	assert_string_equal(s.serial, "1912E1F4A2B7");
	assert_string_equal(s.firmware, "M3CR023");
	assert_true(s.has_health && s.health_passed);
	assert_int_equal(s.temperature_c, 34);
	/* 5 is Reallocate_NAND_Blk_Cnt here, 197 Current_Pending_ECC_Cnt */
	assert_true(s.has_reallocated);
	assert_int_equal(s.reallocated, 2);
	assert_int_equal(s.pending, 1);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 0);
	/* 246 Total_LBAs_Written x 512 = 24.0 TB */
	assert_true(s.has_device_written);
	assert_int_equal(s.device_bytes_written, 24000000000000ULL);
	assert_false(s.has_device_read);
	/* WAF = (247 + 248) / 247 = 3: 72 TB to NAND */
	assert_true(s.has_nand_written);
	assert_int_equal(s.nand_bytes_written, 72000000000000ULL);
	/* Percent_Lifetime_Remain normalized 91 */
	assert_true(s.has_percent_used);
	assert_true(s.percent_used == 9.0);
	assert_int_equal(s.nattrs, 23);
	/* tempminmax: raw.value keeps all six bytes */
	assert_int_equal(attr(&s, 194)->raw, 34 | (51ULL << 32));
	assert_int_equal(attr(&s, 202)->thresh, 1);
}

static void
test_intel_s4510(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("intel_s4510.json", &s);
	assert_string_equal(s.model, "INTEL SSDSC2KB480G8");
	assert_string_equal(s.serial, "PHYF912300AB480BGN");
	assert_string_equal(s.firmware, "XCV10132");
	assert_true(s.has_health && s.health_passed);
	assert_int_equal(s.temperature_c, 27);
	assert_int_equal(s.reallocated, 0);
	assert_int_equal(s.pending, 0);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 0);
	/* device statistics sectors win over Host_Writes_32MiB, which is
	 * rounded down to 32 MiB */
	assert_int_equal(s.device_bytes_written, 585937512345ULL * 512);
	assert_true(s.device_bytes_written > 8940696ULL * 32 * MiB);
	assert_int_equal(s.device_bytes_read, 1234567890123ULL * 512);
	assert_true(s.has_nand_written);
	assert_int_equal(s.nand_bytes_written, 9834765ULL * 32 * MiB);
	assert_true(s.has_percent_used);
	assert_true(s.percent_used == 3.0);
	/* raw16(raw16): raw keeps all three words */
	assert_int_equal(attr(&s, 175)->raw,
	    627 | (16470ULL << 16) | (38ULL << 32));
	assert_int_equal(s.nattrs, 27);
}

static void
test_intel_535_failing(void **state)
{
	struct smart	s;

	(void)state;
	/* smartctl exited 88 (failing, attribute, error log): still decoded */
	decode_fixture("intel_535_failing.json", &s);
	assert_string_equal(s.model, "INTEL SSDSC2BW240H6");
	assert_string_equal(s.serial, "CVTR512300AB240CGN");
	assert_string_equal(s.firmware, "RG21");
	assert_true(s.has_health);
	assert_false(s.health_passed);
	assert_int_equal(s.temperature_c, 42);
	/* raw16(raw16) "1234 (0 7)": the count is 1234, not raw.value */
	assert_true(s.has_reallocated);
	assert_int_equal(s.reallocated, 1234);
	assert_int_equal(attr(&s, 5)->raw, 1234 | (7ULL << 16));
	assert_int_equal(s.pending, 0);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 17);
	assert_int_equal(s.device_bytes_written, 7450580ULL * 32 * MiB);
	assert_int_equal(s.device_bytes_read, 3166497ULL * 32 * MiB);
	assert_int_equal(s.nand_bytes_written, 372529ULL * GiB);
	/* Media_Wearout_Indicator normalized 1 */
	assert_true(s.percent_used == 99.0);
	assert_int_equal(s.error_log_entries, 17);
	assert_int_equal(s.power_on_hours, 31234);
	assert_int_equal(attr(&s, 170)->value, 9);
	assert_int_equal(attr(&s, 170)->thresh, 10);
}

static void
test_kingston_a400(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("kingston_a400.json", &s);
	assert_string_equal(s.model, "KINGSTON SA400S37240G");
	assert_string_equal(s.serial, "50026B7782A1B2C3");
	assert_string_equal(s.firmware, "SBFKB1D1");
	assert_true(s.has_health && s.health_passed);
	assert_int_equal(s.temperature_c, 33);
	assert_false(s.has_reallocated);	/* the A400 has no attribute 5 */
	assert_int_equal(s.pending, 0);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 0);
	assert_int_equal(s.device_bytes_written, 7620 * GiB);
	assert_int_equal(s.device_bytes_read, 6780 * GiB);
	assert_int_equal(s.nand_bytes_written, 9850 * GiB);
	/* SSD_Life_Left normalized 97 */
	assert_true(s.percent_used == 3.0);
	assert_int_equal(s.nattrs, 25);
}

static void
test_sandisk_ultra3d(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("sandisk_ultra3d.json", &s);
	assert_string_equal(s.model, "SanDisk SDSSDH3500G");
	assert_string_equal(s.serial, "1840A1802345");
	assert_string_equal(s.firmware, "X61170RL");
	assert_true(s.has_health && s.health_passed);
	assert_int_equal(s.temperature_c, 33);
	assert_int_equal(s.reallocated, 0);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 3);
	assert_int_equal(s.device_bytes_written, 5738 * GiB);
	assert_int_equal(s.device_bytes_read, 5231 * GiB);
	assert_int_equal(s.nand_bytes_written, 10302 * GiB);
	/* no standard or known life attribute on this drive under -a */
	assert_false(s.has_percent_used);
	/* "---" thresholds: smartctl leaves thresh out */
	assert_int_equal(attr(&s, 5)->thresh, -1);
	assert_int_equal(attr(&s, 232)->thresh, 4);
	assert_int_equal(attr(&s, 241)->value, 253);
}

static void
check_qemu(const struct smart *s)
{
	static const int	ids[] = { 1, 3, 4, 5, 9, 12, 190 };
	int			i;

	assert_string_equal(s->model, "QEMU HARDDISK");
	assert_string_equal(s->serial, "QM00001");
	assert_string_equal(s->firmware, "2.5+");
	assert_true(s->has_health && s->health_passed);
	assert_true(s->has_temperature);
	assert_int_equal(s->temperature_c, 31);
	assert_true(s->has_reallocated);
	assert_int_equal(s->reallocated, 0);
	assert_false(s->has_media_errors);
	assert_false(s->has_device_written);
	assert_false(s->has_device_read);
	assert_false(s->has_nand_written);
	assert_false(s->has_percent_used);
	assert_int_equal(s->power_on_hours, 1);
	assert_int_equal(s->nattrs, 7);
	for (i = 0; i < 7; i++)
		assert_int_equal(s->attrs[i].id, ids[i]);
	assert_int_equal(attr(s, 190)->raw, 522125343);
	assert_int_equal(attr(s, 4)->raw, 100);
}

/* Real captures: QEMU's ide-hd under `-a`, and under `-x`, where smartctl
 * exits 4 (some optional command failed) with complete JSON. */
static void
test_qemu_ide(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("qemu_ide.json", &s);
	check_qemu(&s);
	decode_fixture("qemu_ide_x.json", &s);
	check_qemu(&s);
}

static void
test_error_no_device(void **state)
{
	struct smart	s;
	char		err[256];
	size_t		len;
	char		*json = load("error_no_device.json", &len);

	(void)state;
	assert_int_equal(smart_from_ata_json(json, len, &s, err, sizeof(err)),
	    -1);
	assert_string_equal(err,
	    "Smartctl open device: /dev/sdz failed: No such device");
	free(json);
}

static void
test_malformed(void **state)
{
	static const char *const bad[] = {
		"", "{", "not json", "[1, 2]", "null", "42", "\"str\"",
		"{\"model_name\": \"x\"} trailing",
		"{\"model_name\": \"x\"}{}",
		"{\"model_name\": \"x\"",
		"{\"model_name\": \"x\",}",
	};
	struct smart	s;
	char		err[256];
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (decode_str(bad[i], &s, err, sizeof(err)) != -1)
			fail_msg("accepted: %s", bad[i]);
		assert_true(err[0] != '\0');
	}
	/* trailing white space is fine */
	assert_int_equal(decode_str("{\"model_name\": \"x\"} \n", &s, err,
	    sizeof(err)), 0);
	assert_string_equal(s.model, "x");
	/* a NULL or short error buffer is allowed */
	assert_int_equal(smart_from_ata_json("{", 1, &s, NULL, 0), -1);
	assert_int_equal(smart_from_ata_json(NULL, 0, &s, err, 4), -1);
	assert_int_equal(strlen(err), 3);
	/* len, not the NUL, ends the input */
	assert_int_equal(smart_from_ata_json("{\"model_name\": \"x\"}garbage",
	    19, &s, err, sizeof(err)), 0);
}

static void
test_no_device_info(void **state)
{
	struct smart	s;
	char		err[256];

	(void)state;
	assert_int_equal(decode_str("{}", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "smartctl output has no device information");
	/* "device" alone is only what smartctl was asked to open */
	assert_int_equal(decode_str("{\"device\": {\"name\": \"/dev/sdb\"}, "
	    "\"smartctl\": {\"messages\": [{\"string\": \"just so\", "
	    "\"severity\": \"information\"}, {\"string\": \"Read Device "
	    "Identity failed\", \"severity\": \"error\"}]}}", &s, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "Read Device Identity failed");
	/* NVMe output is not for this decoder */
	assert_int_equal(decode_str("{\"device\": {\"protocol\": \"NVMe\"}, "
	    "\"model_name\": \"Samsung SSD 980\"}", &s, err, sizeof(err)), -1);
	assert_string_equal(err, "not an ATA or SCSI device (protocol NVMe)");
}

/* Keys of the wrong type are ignored, never trusted or crashed on. */
static void
test_wrong_types(void **state)
{
	struct smart	s;
	char		err[256];

	(void)state;
	assert_int_equal(decode_str("{\"model_name\": 5, \"serial_number\": "
	    "\"S\", \"temperature\": {\"current\": \"hot\"}, \"smart_status\": "
	    "{\"passed\": 1}, \"logical_block_size\": -4096, "
	    "\"ata_smart_attributes\": {\"table\": [5, null, {\"id\": \"5\"}, "
	    "{\"id\": 300}, {\"id\": 5, \"raw\": \"x\"}, {\"id\": 241, "
	    "\"name\": \"Total_LBAs_Written\", \"raw\": {\"value\": -1}}]}, "
	    "\"ata_device_statistics\": {\"pages\": {\"table\": []}}}", &s, err,
	    sizeof(err)), 0);
	assert_string_equal(s.model, "");
	assert_string_equal(s.serial, "S");
	assert_false(s.has_temperature);
	assert_false(s.has_health);
	/* kept in the table, but without a raw value they count nothing */
	assert_int_equal(s.nattrs, 2);
	assert_int_equal(s.attrs[0].id, 5);
	assert_int_equal(s.attrs[0].value, -1);
	assert_int_equal(s.attrs[0].worst, -1);
	assert_int_equal(s.attrs[0].thresh, -1);
	assert_false(s.has_reallocated);
	assert_false(s.has_device_written);
}

/* A drive smartctl's database knows, of family fam (attribute names are
 * then the database's); HEAD: a Samsung one. */
#define HEAD_FAM(fam) \
	"{\"model_name\": \"M\", \"model_family\": \"" fam "\", " \
	"\"in_smartctl_database\": true, \"ata_smart_attributes\": {\"table\": ["
#define HEAD	HEAD_FAM("Samsung based SSDs")
#define A(id, name, val, raw) \
	"{\"id\": " #id ", \"name\": \"" name "\", \"value\": " #val \
	", \"raw\": {\"value\": " #raw ", \"string\": \"" #raw "\"}}"
#define DEVSTAT(name, val, valid) \
	"{\"name\": \"" name "\", \"value\": " #val ", \"flags\": " \
	"{\"valid\": " #valid "}}"

static void
test_life_attr_fallback(void **state)
{
	struct smart	s;
	char		err[256];

	(void)state;
	/* no device statistics: 100 - normalized Wear_Leveling_Count */
	assert_int_equal(decode_str(HEAD A(177, "Wear_Leveling_Count", 90, 300)
	    "]}}", &s, err, sizeof(err)), 0);
	assert_true(s.has_percent_used && s.percent_used == 10.0);
	/* device statistics win over it */
	assert_int_equal(decode_str(HEAD A(177, "Wear_Leveling_Count", 90, 300)
	    "]}, \"ata_device_statistics\": {\"pages\": [{\"number\": 7, "
	    "\"table\": [" DEVSTAT("Percentage Used Endurance Indicator", 4,
	    true) "]}]}}", &s, err, sizeof(err)), 0);
	assert_true(s.percent_used == 4.0);
	/* an invalid statistic is ignored */
	assert_int_equal(decode_str(HEAD A(177, "Wear_Leveling_Count", 90, 300)
	    "]}, \"ata_device_statistics\": {\"pages\": [{\"number\": 7, "
	    "\"table\": [" DEVSTAT("Percentage Used Endurance Indicator", 4,
	    false) "]}]}}", &s, err, sizeof(err)), 0);
	assert_true(s.percent_used == 10.0);
	/* same name at another id (Silicon Motion 173: erase count) */
	assert_int_equal(decode_str(HEAD A(173, "Wear_Leveling_Count", 90, 300)
	    "]}}", &s, err, sizeof(err)), 0);
	assert_false(s.has_percent_used);
	/* m4/C400: raw is percent used, and may pass 100 */
	assert_int_equal(decode_str(HEAD A(202, "Perc_Rated_Life_Used", 1, 112)
	    "]}}", &s, err, sizeof(err)), 0);
	assert_true(s.percent_used == 112.0);
	/* a normalized value out of 0..100 means nothing */
	assert_int_equal(decode_str(HEAD A(231, "SSD_Life_Left", 253, 0)
	    "]}}", &s, err, sizeof(err)), 0);
	assert_false(s.has_percent_used);
}

/*
 * The Percentage Used Endurance Indicator is one byte (ACS-3 log 04h page
 * 07h): a larger value is not a percentage, and the life attribute stands.
 * Found by fuzz_smart_ata: a huge value became a percent_used of 9.2e18
 * (a drive worn out at once for stop_at_wear).
 */
static void
test_devstat_percent_out_of_range(void **state)
{
	struct smart	s;
	char		err[256];

	(void)state;
	assert_int_equal(decode_str(HEAD A(177, "Wear_Leveling_Count", 90, 300)
	    "]}, \"ata_device_statistics\": {\"pages\": [{\"number\": 7, "
	    "\"table\": [" DEVSTAT("Percentage Used Endurance Indicator", 256,
	    true) "]}]}}", &s, err, sizeof(err)), 0);
	assert_true(s.has_percent_used && s.percent_used == 10.0);
	assert_int_equal(decode_str(HEAD A(5, "Reallocated_Sector_Ct", 100, 0)
	    "]}, \"ata_device_statistics\": {\"pages\": [{\"number\": 7, "
	    "\"table\": [" DEVSTAT("Percentage Used Endurance Indicator",
	    99999999999999999999999, true) "]}]}}", &s, err, sizeof(err)), 0);
	assert_false(s.has_percent_used);
	/* 255 is the top of the byte, and a drive past its rating */
	assert_int_equal(decode_str(HEAD A(5, "Reallocated_Sector_Ct", 100, 0)
	    "]}, \"ata_device_statistics\": {\"pages\": [{\"number\": 7, "
	    "\"table\": [" DEVSTAT("Percentage Used Endurance Indicator", 255,
	    true) "]}]}}", &s, err, sizeof(err)), 0);
	assert_true(s.has_percent_used && s.percent_used == 255.0);
}

static void
test_sectors_and_pages(void **state)
{
	struct smart	s;
	char		err[256];

	(void)state;
	/* 4Kn drive: sectors are 4096 bytes */
	assert_int_equal(decode_str(HEAD A(241, "Total_LBAs_Written", 100, 10)
	    "]}, \"logical_block_size\": 4096}", &s, err, sizeof(err)), 0);
	assert_int_equal(s.device_bytes_written, 40960);
	/* page counters without a sector counter: nominal 16 KiB pages */
	assert_int_equal(decode_str(HEAD A(247, "Host_Program_Page_Count", 100,
	    10) "," A(248, "FTL_Program_Page_Count", 100, 5) "]}}", &s, err,
	    sizeof(err)), 0);
	assert_false(s.has_device_written);
	assert_true(s.has_nand_written);
	assert_int_equal(s.nand_bytes_written, 15 * 16384);
	/* a vendor NAND counter wins over the page estimate */
	assert_int_equal(decode_str(HEAD A(247, "Host_Program_Page_Count", 100,
	    10) "," A(249, "NAND_Writes_1GiB", 100, 2) "]}}", &s, err,
	    sizeof(err)), 0);
	assert_int_equal(s.nand_bytes_written, 2 * GiB);
	/* the first host write counter wins */
	assert_int_equal(decode_str(HEAD A(225, "Host_Writes_32MiB", 100, 1)
	    "," A(241, "Host_Writes_GiB", 100, 1) "]}}", &s, err,
	    sizeof(err)), 0);
	assert_int_equal(s.device_bytes_written, 32 * MiB);
	/* device statistics saturate rather than wrap */
	assert_int_equal(decode_str(HEAD "]}, \"ata_device_statistics\": "
	    "{\"pages\": [{\"table\": [" DEVSTAT("Logical Sectors Written",
	    18446744073709551615, true) "]}]}}", &s, err, sizeof(err)), 0);
	assert_int_equal(s.device_bytes_written, UINT64_MAX);
}

/* More attributes than struct smart holds: the rest still count. */
static void
test_attr_overflow(void **state)
{
	struct smart	s;
	char		err[256];
	char		json[16384];
	size_t		off;
	int		i;

	(void)state;
	off = (size_t)snprintf(json, sizeof(json), "%s", HEAD);
	for (i = 1; i <= SMART_ATTR_MAX + 10; i++)
		off += (size_t)snprintf(json + off, sizeof(json) - off,
		    "{\"id\": %d, \"name\": \"Unknown_Attribute\"},", i);
	snprintf(json + off, sizeof(json) - off, "%s",
	    A(241, "Total_LBAs_Written", 100, 2) "]}}");
	assert_int_equal(decode_str(json, &s, err, sizeof(err)), 0);
	assert_int_equal(s.nattrs, SMART_ATTR_MAX);
	assert_int_equal(s.device_bytes_written, 1024);
}

/* Every prefix of a fixture is refused (except the whole object), and
 * none crashes; then byte flips at pseudo-random places. */
static void
test_truncated_and_mangled(void **state)
{
	struct smart	s;
	char		err[256];
	size_t		len, i, end, k;
	char		*json = load("intel_535_failing.json", &len);
	char		*copy = malloc(len);
	uint32_t	 x = 12345;
	int		 rc;

	(void)state;
	assert_non_null(copy);
	end = len;
	while (end > 0 && json[end - 1] != '}')
		end--;
	for (i = 0; i < len; i++) {
		memcpy(copy, json, i);	/* no NUL: len must be honoured */
		rc = smart_from_ata_json(copy, i, &s, err, sizeof(err));
		if (rc != (i >= end ? 0 : -1))
			fail_msg("prefix %zu: rc %d (%s)", i, rc, err);
	}
	for (i = 0; i < 2000; i++) {
		memcpy(copy, json, len);
		for (k = 0; k < 4; k++) {
			x = x * 1103515245u + 12345u;
			copy[(x >> 8) % len] = (char)(x >> 24);
		}
		rc = smart_from_ata_json(copy, len, &s, err, sizeof(err));
		assert_true(rc == 0 || rc == -1);
		assert_true(s.nattrs >= 0 && s.nattrs <= SMART_ATTR_MAX);
	}
	free(copy);
	free(json);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_samsung_860evo),
		cmocka_unit_test(test_crucial_mx500),
		cmocka_unit_test(test_intel_s4510),
		cmocka_unit_test(test_intel_535_failing),
		cmocka_unit_test(test_kingston_a400),
		cmocka_unit_test(test_sandisk_ultra3d),
		cmocka_unit_test(test_qemu_ide),
		cmocka_unit_test(test_error_no_device),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_no_device_info),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_life_attr_fallback),
		cmocka_unit_test(test_devstat_percent_out_of_range),
		cmocka_unit_test(test_sectors_and_pages),
		cmocka_unit_test(test_attr_overflow),
		cmocka_unit_test(test_truncated_and_mangled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
