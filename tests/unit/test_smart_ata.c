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

#include "fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smart.h"

#define MiB	(1024ULL * 1024)
#define GiB	(1024ULL * MiB)

/* The whole fixture file, NUL-terminated (the decoder does not need it). */
static void
decode_fixture(const char *name, struct smart *s)
{
	char	 err[256];
	size_t	 len;
	char	*json = fixture_load(name, &len);

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

/* The source recorded for figure f. */
static const char *
src(const struct smart *s, enum smart_fig f)
{
	return s->src[f];
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

/*
 * Real capture: a Dell-branded Samsung SM883 behind a MegaRAID controller,
 * which smartctl 7.1's database does not know. 177 Wear_Leveling_Count
 * and 233 Media_Wearout_Indicator are smartctl's default names here (233
 * raw 165826013020 is no wear figure), so neither gives a life figure;
 * 242 "Total_LBAs_Read" is not trusted either.
 */
static void
test_samsung_sm883_not_in_db(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("samsung_sm883_not_in_db.json", &s);
	assert_string_equal(s.model, "MZ7KH480HAHQ0D3");
	assert_string_equal(s.unknown_why, "not in smartctl's database");
	assert_true(s.has_health && s.health_passed);
	assert_int_equal(s.temperature_c, 30);
	assert_int_equal(s.power_on_hours, 34579);
	assert_true(s.has_power_cycles);
	assert_int_equal(s.power_cycles, 115);
	assert_false(s.has_percent_used);
	assert_false(s.has_device_written);
	assert_false(s.has_device_read);
	assert_false(s.has_nand_written);
	assert_false(s.has_media_errors);
	/* standard: 5 Reallocated_Sector_Ct raw 0 (threshold 10) */
	assert_true(s.has_reallocated);
	assert_int_equal(s.reallocated, 0);
	assert_int_equal(attr(&s, 5)->thresh, 10);
	assert_int_equal(attr(&s, 233)->value, 99);
	assert_int_equal(attr(&s, 233)->raw, 165826013020ULL);
	assert_int_equal(s.nattrs, 27);
}

/* Hand-made (no public capture found): see the fixtures' README. */
static void
test_crucial_mx500(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("crucial_mx500_handmade.json", &s);
	assert_string_equal(s.model, "CT500MX500SSD1");
	assert_string_equal(s.serial, "1912E1F4A2B7");
	assert_string_equal(s.firmware, "M3CR023");
	assert_true(s.has_health && s.health_passed);
	assert_int_equal(s.temperature_c, 34);
	/* 5 is Reallocate_NAND_Blk_Cnt here, 197 Current_Pending_ECC_Cnt */
	assert_true(s.has_reallocated);
	assert_int_equal(s.reallocated, 2);
	assert_true(s.has_pending);
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

/* Real capture: Intel DC S3500 (smartctl_exporter test data). */
static void
test_intel_dc_s3500(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("intel_dc_s3500.json", &s);
	assert_string_equal(s.model, "INTEL SSDSC2BB240G4");
	assert_string_equal(s.serial, "REDACTED");
	assert_true(s.has_health && s.health_passed);
	assert_int_equal(s.temperature_c, 25);
	assert_int_equal(s.power_on_hours, 69412);
	assert_int_equal(s.reallocated, 0);
	assert_int_equal(s.pending, 0);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 0);
	assert_string_equal(src(&s, FIG_MEDIA_ERRORS),
	    "attribute 187 Reported_Uncorrect");
	/* 225 Host_Writes_32MiB 15376617 (241 repeats it), 242 7177604 */
	assert_int_equal(s.device_bytes_written, 15376617ULL * 32 * MiB);
	assert_string_equal(src(&s, FIG_DEVICE_WRITTEN),
	    "attribute 225 Host_Writes_32MiB");
	assert_int_equal(s.device_bytes_read, 7177604ULL * 32 * MiB);
	/* no NAND counter on this family */
	assert_false(s.has_nand_written);
	/* 233 Media_Wearout_Indicator normalized 22: 78 % used */
	assert_true(s.has_percent_used && s.percent_used == 78.0);
	assert_string_equal(src(&s, FIG_PERCENT_USED),
	    "vendor rule: Intel 233 normalized (attribute 233)");
	/* raw16(raw16) "640 (409 5906)": raw keeps all three words, the
	 * bracketed ones high word first */
	assert_int_equal(attr(&s, 175)->raw,
	    640 | (5906ULL << 16) | (409ULL << 32));
	assert_int_equal(s.nattrs, 25);
}

/*
 * The unsafe-shutdown count, from the attribute the drive database names
 * so (the first one), and unknown where no name says it: the real
 * captures' values as they are in them.
 */
static void
test_unsafe_shutdowns(void **state)
{
	static const struct {
		const char	*file;
		int		 known;
		uint64_t	 count;
		const char	*src;
	} t[] = {
		{ "intel_dc_s3500.json", 1, 49,
		    "attribute 174 Unsafe_Shutdown_Count" },
		{ "dell_intel_s3520.json", 1, 167,
		    "attribute 174 Unsafe_Shutdown_Count" },
		{ "kingston_a400.json", 1, 8,
		    "attribute 192 Unsafe_Shutdown_Count" },
		{ "intel_535_failing.json", 1, 160,
		    "attribute 174 Unexpect_Power_Loss_Ct" },
		{ "sandisk_sdssda120g.json", 1, 73,
		    "attribute 174 Unexpect_Power_Loss_Ct" },
		{ "kingston_sv300_sandforce.json", 1, 31,
		    "attribute 174 Unexpect_Power_Loss_Ct" },
		/* 192 under smartctl's default hard-disk name */
		{ "toshiba_hg6.json", 0, 0, "" },
		/* not in the database: 235 is Unknown_Attribute there */
		{ "samsung_pm893_not_in_db.json", 0, 0, "" },
		{ "qemu_ide.json", 0, 0, "" },
	};
	struct smart	s;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		decode_fixture(t[i].file, &s);
		if (s.has_unsafe_shutdowns != t[i].known ||
		    (t[i].known && s.unsafe_shutdowns != t[i].count))
			fail_msg("%s: unsafe shutdowns %s %llu, want %s %llu",
			    t[i].file, s.has_unsafe_shutdowns ? "known" :
			    "unknown", (unsigned long long)s.unsafe_shutdowns,
			    t[i].known ? "known" : "unknown",
			    (unsigned long long)t[i].count);
		if (t[i].known)
			assert_string_equal(src(&s, FIG_UNSAFE_SHUTDOWNS),
			    t[i].src);
	}
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

/* Real capture (Phison S11, behind a MegaRAID controller). */
static void
test_kingston_a400(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("kingston_a400.json", &s);
	assert_string_equal(s.model, "KINGSTON SA400S37240G");
	assert_string_equal(s.serial, "50026B73815A7309");
	assert_string_equal(s.firmware, "SAI20102");
	assert_true(s.has_health && s.health_passed);
	assert_int_equal(s.temperature_c, 23);
	assert_false(s.has_reallocated);	/* the A400 has no attribute 5 */
	/* 187 Reported_Uncorrect raw 0 */
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 0);
	assert_string_equal(src(&s, FIG_MEDIA_ERRORS),
	    "attribute 187 Reported_Uncorrect");
	/* 241 Lifetime_Writes_GiB 2168, 242 1630, 233 Flash_Writes_GiB 1173 */
	assert_int_equal(s.device_bytes_written, 2168 * GiB);
	assert_int_equal(s.device_bytes_read, 1630 * GiB);
	assert_int_equal(s.nand_bytes_written, 1173 * GiB);
	assert_string_equal(src(&s, FIG_DEVICE_WRITTEN),
	    "attribute 241 Lifetime_Writes_GiB");
	/* Phison rule: 231 normalized 97 = 97 % left (raw is 97 too) */
	assert_true(s.has_percent_used && s.percent_used == 3.0);
	assert_string_equal(src(&s, FIG_PERCENT_USED),
	    "vendor rule: Phison 231 normalized (attribute 231)");
	assert_int_equal(s.nattrs, 26);
}

/*
 * 231 SSD_Life_Left by family: on the KC400 the raw value is the percent
 * of life left (hand-made fixture after a real KC400's figures: raw 74
 * with an average erase count of 808 on MLC flash and about 421 TB
 * written, which is 26 % used, not 74 %). The normalized value, 100 in
 * the fixture, is not what is read. The SandForce side of the rule is
 * test_kingston_sv300_sandforce.
 */
static void
test_life_231_by_family(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("kingston_kc400_handmade.json", &s);
	assert_int_equal(attr(&s, 231)->raw, 74);
	assert_int_equal(attr(&s, 231)->value, 100);
	assert_int_equal(attr(&s, 244)->raw, 808);
	assert_true(s.has_percent_used);
	assert_true(s.percent_used == 26.0);
	assert_string_equal(src(&s, FIG_PERCENT_USED), "vendor rule: Phison "
	    "KC400 231 raw = % left (attribute 231)");
	/* 241 Lifetime_Writes_GiB 392083: 421.0 TB */
	assert_int_equal(s.device_bytes_written, 392083 * GiB);
	assert_int_equal(s.nand_bytes_written, 800000 * GiB);
	/* no power-cycle count in the capture: unknown, not 0 */
	assert_false(s.has_power_cycles);
}

/*
 * 197 on Phison drives: the drive database names it Not_In_Use (drivedb
 * "Phison Driven SSDs" and "Phison Driven OEM SSDs"): no pending-sector
 * count, so pending is unknown with the reason, not 0.
 */
static void
test_phison_197_not_in_use(void **state)
{
	struct smart	 s;
	json_object	*o;
	char		 err[256];

	(void)state;
	decode_fixture("kingston_kc400_handmade.json", &s);
	assert_string_equal(attr(&s, 197)->name, "Not_In_Use");
	assert_false(s.has_pending);
	assert_string_equal(src(&s, FIG_PENDING),
	    "attribute 197 is Not_In_Use on this drive");
	o = smart_sources_json(&s);
	assert_string_equal(json_object_get_string(json_object_object_get(o,
	    "pending")), "unknown (attribute 197 is Not_In_Use on this drive)");
	json_object_put(o);
	/* a nonzero raw value changes nothing (values made up) */
	assert_int_equal(decode_str(HEAD_FAM("Phison Driven OEM SSDs")
	    A(197, "Not_In_Use", 100, 12) "]}}", &s, err, sizeof(err)), 0);
	assert_false(s.has_pending);
	assert_int_equal(s.pending, 0);
	/* the names that do mean pending sectors are still read */
	assert_int_equal(decode_str(HEAD_FAM("Crucial/Micron Client SSDs")
	    A(197, "Current_Pending_ECC_Cnt", 100, 4) "]}}", &s, err,
	    sizeof(err)), 0);
	assert_true(s.has_pending);
	assert_int_equal(s.pending, 4);
}

/*
 * Real capture: Kingston SSDNow V300 240 GB (SandForce SF-2281), smartctl
 * 7.5. 231 SSD_Life_Left is read from the normalized value on SandForce
 * drives: 95 left, 5 % used (smartctl 7.5 itself printed endurance_used 5
 * in the capture); its raw value 4294967296 is no percentage. 195
 * ECC_Uncorr_Error_Count is a rate here (raw "0/189861978"), not the
 * uncorrectable count: that is 187 Reported_Uncorrect = 0. 241/242 count
 * GiB by their names; 233 SandForce_Internal gives no NAND figure.
 */
static void
test_kingston_sv300_sandforce(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("kingston_sv300_sandforce.json", &s);
	assert_string_equal(s.model, "KINGSTON SV300S37A240G");
	assert_string_equal(s.unknown_why, "");
	assert_true(s.has_health && s.health_passed);
	assert_true(s.has_percent_used && s.percent_used == 5.0);
	assert_string_equal(src(&s, FIG_PERCENT_USED),
	    "vendor rule: SandForce 231 normalized (attribute 231)");
	assert_int_equal(attr(&s, 231)->raw, 4294967296ULL);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 0);
	assert_string_equal(src(&s, FIG_MEDIA_ERRORS),
	    "attribute 187 Reported_Uncorrect");
	assert_int_equal(attr(&s, 195)->raw, 189861978);
	assert_int_equal(s.device_bytes_written, 20878 * GiB);
	assert_string_equal(src(&s, FIG_DEVICE_WRITTEN),
	    "attribute 241 Lifetime_Writes_GiB");
	assert_int_equal(s.device_bytes_read, 40443 * GiB);
	assert_false(s.has_nand_written);
	/* 5 Retired_Block_Count raw 0: the standard reallocation count */
	assert_true(s.has_reallocated);
	assert_int_equal(s.reallocated, 0);
	assert_int_equal(s.temperature_c, 29);
	assert_int_equal(s.power_on_hours, 35825);
	assert_int_equal(s.power_cycles, 61);
	assert_int_equal(s.nattrs, 24);
}

/* Real capture: Dell-branded Intel S3520 (195, 245, 32 MiB counters). */
static void
test_dell_intel_s3520(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("dell_intel_s3520.json", &s);
	assert_string_equal(s.model, "SSDSCKJB240G7R");
	assert_int_equal(s.temperature_c, 47);
	/* 195 Uncorrectable_Error_Cnt raw 0 (no 187 on this drive) */
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 0);
	assert_string_equal(src(&s, FIG_MEDIA_ERRORS),
	    "attribute 195 Uncorrectable_Error_Cnt");
	/* 245 Percent_Life_Remaining raw 100: 0 % used */
	assert_true(s.has_percent_used && s.percent_used == 0.0);
	assert_string_equal(src(&s, FIG_PERCENT_USED), "vendor rule: "
	    "Dell/Intel 245 raw = % left (attribute 245)");
	/* 225 Host_Writes_32MiB 129493 x 32 MiB (= 233 = 241) */
	assert_int_equal(s.device_bytes_written, 129493ULL * 32 * MiB);
	assert_string_equal(src(&s, FIG_DEVICE_WRITTEN),
	    "attribute 225 Host_Writes_32MiB");
	/* 242 "Total_LBAs_Read" 573613 counts 32 MiB on this family */
	assert_int_equal(s.device_bytes_read, 573613ULL * 32 * MiB);
	assert_string_equal(src(&s, FIG_DEVICE_READ), "attribute 242 "
	    "Total_LBAs_Read, vendor rule: counts 32 MiB");
	assert_true(s.has_reallocated);
	assert_int_equal(s.reallocated, 0);
}

/*
 * Silicon Motion (no capture of known origin found; values made up):
 * 160 Uncorrectable_Error_Cnt counts media errors, 169
 * Remaining_Lifetime_Perc raw is the life left, 177 Wear_Leveling_Count
 * is no life figure on this family.
 */
static void
test_silicon_motion(void **state)
{
	struct smart	s;
	char		err[256];

	(void)state;
	assert_int_equal(decode_str(HEAD_FAM("Silicon Motion based SSDs")
	    A(160, "Uncorrectable_Error_Cnt", 100, 3) ","
	    A(169, "Remaining_Lifetime_Perc", 100, 88) ","
	    A(177, "Wear_Leveling_Count", 50, 0) ","
	    A(241, "Host_Writes_32MiB", 100, 1000) "]}}", &s, err,
	    sizeof(err)), 0);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 3);
	assert_string_equal(src(&s, FIG_MEDIA_ERRORS),
	    "attribute 160 Uncorrectable_Error_Cnt");
	assert_true(s.has_percent_used && s.percent_used == 12.0);
	assert_string_equal(src(&s, FIG_PERCENT_USED), "vendor rule: Silicon "
	    "Motion 169 raw = % left (attribute 169)");
	assert_int_equal(s.device_bytes_written, 1000ULL * 32 * MiB);
}

/* Real capture: a Samsung PM893 smartctl 7.3/5319 does not know. */
static void
test_not_in_db(void **state)
{
	struct smart	 s;
	json_object	*o;

	(void)state;
	decode_fixture("samsung_pm893_not_in_db.json", &s);
	assert_string_equal(s.model, "SAMSUNG MZ7L31T9HBLT-00A07");
	assert_string_equal(s.unknown_why, "not in smartctl's database");
	/* 177 Wear_Leveling_Count and 241 Total_LBAs_Written are smartctl's
	 * default names here: not read */
	assert_false(s.has_percent_used);
	assert_false(s.has_device_written);
	assert_false(s.has_device_read);
	/* 187 Reported_Uncorrect raw 0, read under smartctl's default name */
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 0);
	assert_string_equal(src(&s, FIG_MEDIA_ERRORS),
	    "attribute 187 Reported_Uncorrect (smartctl's default name)");
	/* standard: 5 raw 0, 197 raw 0, temperature 27 */
	assert_true(s.has_reallocated);
	assert_int_equal(s.reallocated, 0);
	assert_string_equal(src(&s, FIG_REALLOCATED),
	    "attribute 5 Reallocated_Sector_Ct");
	assert_int_equal(s.temperature_c, 27);
	assert_int_equal(s.nattrs, 26);
	o = smart_sources_json(&s);
	assert_string_equal(json_object_get_string(json_object_object_get(o,
	    "percent_used")), "unknown (not in smartctl's database)");
	json_object_put(o);
}

/*
 * A drive smartctl does not know: 187 under smartctl's default name
 * Reported_Uncorrect is read as media errors (nearly every database entry
 * that names 187 makes it an uncorrectable or read-failure count), marked
 * so; the standard Device Statistics count wins over it; 187 under any
 * other name is not read. Values made up.
 */
static void
test_not_in_db_187(void **state)
{
	struct smart	s;
	char		err[256];

#define HEAD_NODB \
	"{\"model_name\": \"X\", \"in_smartctl_database\": false, " \
	"\"ata_smart_attributes\": {\"table\": ["
	(void)state;
	assert_int_equal(decode_str(HEAD_NODB
	    A(187, "Reported_Uncorrect", 100, 5) "]}}", &s, err, sizeof(err)),
	    0);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 5);
	assert_string_equal(src(&s, FIG_MEDIA_ERRORS),
	    "attribute 187 Reported_Uncorrect (smartctl's default name)");
	assert_int_equal(decode_str(HEAD_NODB
	    A(187, "Reported_Uncorrect", 100, 5) "]}, "
	    "\"ata_device_statistics\": {\"pages\": [{\"table\": ["
	    DEVSTAT("Number of Reported Uncorrectable Errors", 7, true)
	    "]}]}}", &s, err, sizeof(err)), 0);
	assert_int_equal(s.media_errors, 7);
	assert_string_equal(src(&s, FIG_MEDIA_ERRORS), "device statistics");
	assert_int_equal(decode_str(HEAD_NODB
	    A(187, "Unknown_Attribute", 100, 5) "]}}", &s, err, sizeof(err)),
	    0);
	assert_false(s.has_media_errors);
#undef HEAD_NODB
}

/* Real capture: SanDisk SSD Plus, NAND_GiB_Written at 233. */
static void
test_sandisk_sdssda120g(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("sandisk_sdssda120g.json", &s);
	assert_string_equal(s.model, "SanDisk SDSSDA120G");
	assert_int_equal(s.temperature_c, 32);
	/* 233 NAND_GiB_Written 20696, 241 Lifetime_Writes_GiB 6550 */
	assert_true(s.has_nand_written);
	assert_int_equal(s.nand_bytes_written, 20696 * GiB);
	assert_string_equal(src(&s, FIG_NAND_WRITTEN),
	    "attribute 233 NAND_GiB_Written");
	assert_int_equal(s.device_bytes_written, 6550 * GiB);
	assert_int_equal(s.device_bytes_read, 3411 * GiB);
	assert_int_equal(s.media_errors, 0);
	assert_int_equal(s.reallocated, 0);	/* 5 Retired_Block_Count */
	/* no SSD_Life_Left; 230 has no rule for this family */
	assert_false(s.has_percent_used);
	assert_int_equal(attr(&s, 173)->thresh, -1);
}

/*
 * Real capture: Toshiba HG6 (THNSNJ, 256 GB), smartctl 7.2; the publisher
 * replaced model, serial and firmware by placeholders. drivedb's "Toshiba
 * HG6 Series SSD" names no life attribute and no host or NAND write
 * counter, so all of these stay unknown: 173 Erase_Count at normalized
 * 137 is no percentage of life. No uncorrectable counter either (no 187,
 * 195 or 160 by those names). Exit status 64 (errors in the error log:
 * 3 ICRC/ABRT entries) is no failure to read.
 */
static void
test_toshiba_hg6(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("toshiba_hg6.json", &s);
	assert_string_equal(s.model, "TOSHIBA MODELNUMBER");
	assert_true(s.has_health && s.health_passed);
	assert_false(s.has_percent_used);
	assert_string_equal(src(&s, FIG_PERCENT_USED), "");
	assert_int_equal(attr(&s, 173)->value, 137);
	assert_false(s.has_device_written);
	assert_false(s.has_device_read);
	assert_false(s.has_nand_written);
	assert_false(s.has_media_errors);
	/* standard: 5 Reallocated_Sector_Ct 0, 197 Current_Pending_Sector 0 */
	assert_true(s.has_reallocated);
	assert_int_equal(s.reallocated, 0);
	assert_int_equal(s.pending, 0);
	assert_int_equal(s.error_log_entries, 3);
	assert_int_equal(s.temperature_c, 30);
	assert_int_equal(s.power_on_hours, 60323);
	assert_int_equal(s.power_cycles, 955);
	assert_int_equal(s.nattrs, 18);
}

/* Hand-made Toshiba TR150: the database gives no life attribute and
 * 241 Host_Writes states no unit: both unknown, nothing guessed. */
static void
test_toshiba_tr150(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("toshiba_tr150_handmade.json", &s);
	assert_false(s.has_percent_used);
	assert_false(s.has_device_written);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 0);
}

/*
 * Real capture of an SSD read as SCSI (-d scsi): endurance indicator and
 * temperature, no error counter log (so no media errors or byte counts,
 * each with its reason); then a SAS one with defects (made up).
 */
static void
test_scsi(void **state)
{
	struct smart	s;
	char		err[256];
	size_t		len;
	char		*json;

	(void)state;
	json = fixture_load("scsi_870evo.json", &len);
	assert_int_equal(smart_from_ata_json(json, len, &s, err, sizeof(err)),
	    0);
	free(json);
	assert_int_equal(s.source, SMART_SCSI);
	assert_string_equal(s.serial, "S6PPNJ0RB04XXX");
	/* scsi_percentage_used_endurance_indicator 11 */
	assert_true(s.has_percent_used && s.percent_used == 11.0);
	assert_string_equal(src(&s, FIG_PERCENT_USED),
	    "SCSI endurance indicator");
	assert_int_equal(s.temperature_c, 21);
	assert_string_equal(src(&s, FIG_TEMPERATURE), "SCSI temperature");
	assert_false(s.has_reallocated);
	assert_false(s.has_device_written);
	assert_false(s.has_media_errors);
	assert_string_equal(src(&s, FIG_MEDIA_ERRORS),
	    "the drive reports no error counter log");
	assert_string_equal(src(&s, FIG_DEVICE_WRITTEN),
	    "the drive reports no error counter log");
	assert_string_equal(s.unknown_why, "not reported by SCSI drives");
	assert_false(s.has_power_cycles);
	assert_int_equal(decode_str("{\"device\": {\"protocol\": \"SCSI\"}, "
	    "\"scsi_model_name\": \"X SAS SSD\", \"scsi_grown_defect_list\": 7, "
	    "\"temperature\": {\"current\": 30}}", &s, err, sizeof(err)), 0);
	assert_string_equal(s.model, "X SAS SSD");
	assert_true(s.has_reallocated);
	assert_int_equal(s.reallocated, 7);
	assert_string_equal(src(&s, FIG_REALLOCATED), "SCSI grown defect list");
	assert_false(s.has_percent_used);
}

/*
 * Real capture: Samsung PM1643a (MZILT960HBHQ/007) on SAS, smartctl 7.3
 * (Zabbix agent 2 test data). The error counter log gives media errors
 * (total uncorrected errors of read, write and verify: 0 + 0 + 0) and
 * the bytes read and written (gigabytes processed, 10^9 bytes, printed
 * to three decimals: 12.699 and 6082.745); the pending defects log 0
 * pending. There is no power-cycle count in it (the start-stop cycle
 * counter, 5, is none): unknown, not 0.
 */
static void
test_scsi_error_counter_log(void **state)
{
	struct smart	 s;
	char		 err[256];
	size_t		 len;
	char		*json;

	(void)state;
	json = fixture_load("scsi_samsung_pm1643a.json", &len);
	assert_int_equal(smart_from_ata_json(json, len, &s, err, sizeof(err)),
	    0);
	free(json);
	assert_int_equal(s.source, SMART_SCSI);
	assert_string_equal(s.model, "SAMSUNG MZILT960HBHQ/007");
	assert_string_equal(s.serial, "S5G1NC0W102239");
	assert_string_equal(s.firmware, "GXA0");
	assert_true(s.has_health && s.health_passed);
	assert_true(s.has_percent_used && s.percent_used == 0.0);
	assert_int_equal(s.temperature_c, 35);
	assert_int_equal(s.power_on_hours, 3862);
	assert_true(s.has_reallocated);
	assert_int_equal(s.reallocated, 0);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 0);
	assert_string_equal(src(&s, FIG_MEDIA_ERRORS),
	    "SCSI error counter log");
	assert_true(s.has_device_read);
	assert_int_equal(s.device_bytes_read, 12699000000ULL);
	assert_string_equal(src(&s, FIG_DEVICE_READ), "SCSI error counter log");
	assert_true(s.has_device_written);
	assert_int_equal(s.device_bytes_written, 6082745000000ULL);
	assert_string_equal(src(&s, FIG_DEVICE_WRITTEN),
	    "SCSI error counter log");
	assert_true(s.has_pending);
	assert_int_equal(s.pending, 0);
	assert_string_equal(src(&s, FIG_PENDING), "SCSI pending defects");
	assert_false(s.has_nand_written);
	assert_false(s.has_power_cycles);
}

/* Uncorrected errors of the three counters add up; one of read or write
 * missing leaves the count unknown; a malformed byte count is not read
 * (values made up). */
static void
test_scsi_error_counter_sum(void **state)
{
	struct smart	s;
	char		err[256];

#define SCSI_LOG(body) "{\"device\": {\"protocol\": \"SCSI\"}, " \
	"\"scsi_model_name\": \"X\", \"scsi_error_counter_log\": {" body "}}"
	(void)state;
	assert_int_equal(decode_str(SCSI_LOG(
	    "\"read\": {\"total_uncorrected_errors\": 2, "
	    "\"gigabytes_processed\": \"1.5\"}, "
	    "\"write\": {\"total_uncorrected_errors\": 1, "
	    "\"gigabytes_processed\": \"12\"}, "
	    "\"verify\": {\"total_uncorrected_errors\": 3}"), &s, err,
	    sizeof(err)), 0);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 6);
	assert_int_equal(s.device_bytes_read, 1500000000ULL);
	assert_int_equal(s.device_bytes_written, 12000000000ULL);
	assert_int_equal(decode_str(SCSI_LOG(
	    "\"read\": {\"total_uncorrected_errors\": 2, "
	    "\"gigabytes_processed\": \"1.5x\"}"), &s, err, sizeof(err)), 0);
	assert_false(s.has_media_errors);
	assert_false(s.has_device_read);
	assert_false(s.has_device_written);
	/* just past what 64 bits of bytes hold (18446744073.709551615 GB):
	 * unknown, never the product wrapped round */
	assert_int_equal(decode_str(SCSI_LOG(
	    "\"read\": {\"total_uncorrected_errors\": 0, "
	    "\"gigabytes_processed\": \"18446744073.709551615\"}, "
	    "\"write\": {\"total_uncorrected_errors\": 0, "
	    "\"gigabytes_processed\": \"18446744079\"}"), &s, err,
	    sizeof(err)), 0);
	assert_true(s.has_device_read);
	assert_int_equal(s.device_bytes_read, UINT64_MAX);
	assert_false(s.has_device_written);
	assert_string_equal(s.src[FIG_DEVICE_WRITTEN], "not in the SCSI "
	    "error counter log, or past 64 bits");
	assert_int_equal(decode_str(SCSI_LOG(
	    "\"write\": {\"total_uncorrected_errors\": 0, "
	    "\"gigabytes_processed\": \"18446744073.709551616\"}"), &s, err,
	    sizeof(err)), 0);
	assert_false(s.has_device_written);
#undef SCSI_LOG
}

/* The sources object ssdctl shows: figure key -> provenance. */
static void
test_sources_json(void **state)
{
	struct smart	 s;
	json_object	*o, *v;

	(void)state;
	decode_fixture("dell_intel_s3520.json", &s);
	o = smart_sources_json(&s);
	assert_true(json_object_object_get_ex(o, "media_errors", &v));
	assert_string_equal(json_object_get_string(v),
	    "attribute 195 Uncorrectable_Error_Cnt");
	assert_true(json_object_object_get_ex(o, "percent_used", &v));
	assert_string_equal(json_object_get_string(v), "vendor rule: "
	    "Dell/Intel 245 raw = % left (attribute 245)");
	assert_true(json_object_object_get_ex(o, "temperature_c", &v));
	assert_string_equal(json_object_get_string(v), "smartctl temperature");
	/* not reported, no reason known: left out */
	assert_false(json_object_object_get_ex(o, "nand_bytes_written", &v));
	json_object_put(o);
}

/*
 * Real capture: a Marvell-based SanDisk (Checkmk test data, cut down there
 * to one attribute). 243 has no threshold ("---"): smartctl leaves thresh
 * out, and the decoder keeps -1, not 0.
 */
static void
test_sandisk_marvell(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("sandisk_sdssdhp_marvell.json", &s);
	assert_string_equal(s.model, "SanDisk SDSSDHP256G");
	assert_string_equal(s.firmware, "X2306RL");
	assert_int_equal(s.time, 1755670096);
	assert_true(s.has_health && s.health_passed);
	assert_int_equal(s.temperature_c, 24);
	assert_int_equal(s.power_on_hours, 172);
	assert_int_equal(s.nattrs, 1);
	assert_int_equal(attr(&s, 243)->value, 100);
	assert_int_equal(attr(&s, 243)->thresh, -1);
	assert_false(s.has_device_written);
	assert_false(s.has_percent_used);
	assert_false(s.has_reallocated);
}

/* Marvell-based SanDisk counters by their database names (drivedb
 * "Marvell based SanDisk SSDs"; values made up). */
static void
test_sandisk_marvell_units(void **state)
{
	struct smart	s;
	char		err[256];

	(void)state;
	assert_int_equal(decode_str(HEAD_FAM("Marvell based SanDisk SSDs")
	    A(187, "Reported_Uncorrect", 100, 3) ","
	    A(233, "Total_NAND_Writes_GiB", 100, 10302) ","
	    A(241, "Total_Writes_GiB", 253, 5738) ","
	    A(242, "Total_Reads_GiB", 253, 5231) "]}}", &s, err,
	    sizeof(err)), 0);
	assert_int_equal(s.media_errors, 3);
	assert_int_equal(s.device_bytes_written, 5738 * GiB);
	assert_int_equal(s.device_bytes_read, 5231 * GiB);
	assert_int_equal(s.nand_bytes_written, 10302 * GiB);
	assert_false(s.has_percent_used);
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
	/* no attribute 197 in QEMU's table: pending is unknown, not 0 */
	assert_false(s->has_pending);
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
	struct smart	 s;
	json_object	*src, *v;

	(void)state;
	decode_fixture("qemu_ide.json", &s);
	check_qemu(&s);
	/* 197 is read on any drive: its absence is the drive's, while the
	 * vendor figures are unknown because smartctl does not know it */
	src = smart_sources_json(&s);
	assert_true(json_object_object_get_ex(src, "pending", &v));
	assert_string_equal(json_object_get_string(v),
	    "unknown (the drive has no attribute 197)");
	assert_true(json_object_object_get_ex(src, "device_bytes_written", &v));
	assert_string_equal(json_object_get_string(v),
	    "unknown (not in smartctl's database)");
	assert_true(json_object_object_get_ex(src, "reallocated", &v));
	assert_string_equal(json_object_get_string(v),
	    "attribute 5 Reallocated_Sector_Ct");
	json_object_put(src);
	decode_fixture("qemu_ide_x.json", &s);
	check_qemu(&s);
}

static void
test_error_no_device(void **state)
{
	struct smart	s;
	char		err[256];
	size_t		len;
	char		*json = fixture_load("error_no_device.json", &len);

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
	/* one page counter alone is half of the NAND writes: no figure */
	assert_int_equal(decode_str(HEAD A(248, "FTL_Program_Page_Count", 100,
	    5) "]}}", &s, err, sizeof(err)), 0);
	assert_false(s.has_nand_written);
	assert_int_equal(decode_str(HEAD A(247, "Host_Program_Page_Count", 100,
	    10) "]}}", &s, err, sizeof(err)), 0);
	assert_false(s.has_nand_written);
	/* a vendor NAND counter wins over the page estimate */
	assert_int_equal(decode_str(HEAD A(247, "Host_Program_Page_Count", 100,
	    10) "," A(249, "NAND_Writes_1GiB", 100, 2) "]}}", &s, err,
	    sizeof(err)), 0);
	assert_int_equal(s.nand_bytes_written, 2 * GiB);
	/* device statistics sectors win over a 32 MiB host counter */
	assert_int_equal(decode_str(HEAD_FAM("Intel S4510/S4610/S4500/S4600 "
	    "Series SSDs") A(225, "Host_Writes_32MiB", 100, 8940696) "]}, "
	    "\"ata_device_statistics\": {\"pages\": [{\"table\": ["
	    DEVSTAT("Logical Sectors Written", 585937512345, true) "]}]}}", &s,
	    err, sizeof(err)), 0);
	assert_int_equal(s.device_bytes_written, 585937512345ULL * 512);
	assert_string_equal(src(&s, FIG_DEVICE_WRITTEN), "device statistics");
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
	char		*json = fixture_load("intel_535_failing.json", &len);
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

/*
 * The drive's temperature limit: smartctl's op_limit_max (SCT, or device
 * statistics page 5 "Specified Maximum Operating Temperature"); a limit
 * of 0 is none set.
 */
static void
test_temp_limit(void **state)
{
	struct smart	s;
	char		err[256];

	(void)state;
	assert_int_equal(decode_str("{\"device\": {\"protocol\": \"ATA\"}, "
	    "\"model_name\": \"x\", \"temperature\": {\"current\": 71, "
	    "\"op_limit_max\": 70}}", &s, err, sizeof(err)), 0);
	assert_true(s.has_temp_limit);
	assert_int_equal(s.temp_limit_c, 70);
	assert_int_equal(s.temperature_c, 71);
	assert_int_equal(decode_str("{\"device\": {\"protocol\": \"ATA\"}, "
	    "\"model_name\": \"x\", \"temperature\": {\"current\": 40, "
	    "\"op_limit_max\": 0}}", &s, err, sizeof(err)), 0);
	assert_false(s.has_temp_limit);
	decode_fixture("kingston_a400.json", &s);	/* none reported */
	assert_false(s.has_temp_limit);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_samsung_sm883_not_in_db),
		cmocka_unit_test(test_crucial_mx500),
		cmocka_unit_test(test_intel_dc_s3500),
		cmocka_unit_test(test_unsafe_shutdowns),
		cmocka_unit_test(test_intel_535_failing),
		cmocka_unit_test(test_kingston_a400),
		cmocka_unit_test(test_life_231_by_family),
		cmocka_unit_test(test_phison_197_not_in_use),
		cmocka_unit_test(test_kingston_sv300_sandforce),
		cmocka_unit_test(test_dell_intel_s3520),
		cmocka_unit_test(test_silicon_motion),
		cmocka_unit_test(test_not_in_db),
		cmocka_unit_test(test_not_in_db_187),
		cmocka_unit_test(test_sandisk_sdssda120g),
		cmocka_unit_test(test_toshiba_hg6),
		cmocka_unit_test(test_toshiba_tr150),
		cmocka_unit_test(test_scsi),
		cmocka_unit_test(test_scsi_error_counter_log),
		cmocka_unit_test(test_scsi_error_counter_sum),
		cmocka_unit_test(test_sources_json),
		cmocka_unit_test(test_sandisk_marvell),
		cmocka_unit_test(test_sandisk_marvell_units),
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
		cmocka_unit_test(test_temp_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
