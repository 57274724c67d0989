/* test_smart_nvme.c: NVMe SMART / Health, Identify and OCP C0h decoding. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smart.h"

/* Little-endian store of n bytes. */
static void
put_le(uint8_t *p, uint64_t v, int n)
{
	int	i;

	for (i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* A SMART / Health log page with known values at the spec's offsets. */
static void
make_log(uint8_t *log)
{
	memset(log, 0, 512);
	log[0] = 0x04;			/* critical warning: reliability */
	put_le(log + 1, 318, 2);	/* composite temperature, K */
	log[3] = 87;			/* available spare */
	log[4] = 10;			/* spare threshold */
	log[5] = 13;			/* percentage used */
	put_le(log + 32, 111, 8);	/* data units read */
	put_le(log + 48, 2000000, 8);	/* data units written */
	put_le(log + 64, 333, 8);	/* host read commands */
	put_le(log + 80, 444, 8);	/* host write commands */
	put_le(log + 112, 55, 8);	/* power cycles */
	put_le(log + 128, 6666, 8);	/* power-on hours */
	put_le(log + 144, 7, 8);	/* unsafe shutdowns */
	put_le(log + 160, 3, 8);	/* media errors */
	put_le(log + 176, 9, 8);	/* error log entries */
	put_le(log + 192, 21, 4);	/* warning temperature time */
	put_le(log + 196, 2, 4);	/* critical temperature time */
	put_le(log + 200, 323, 2);	/* sensor 1 */
	put_le(log + 202, 330, 2);	/* sensor 2 */
	put_le(log + 216, 4, 4);	/* TMT1 transitions */
	put_le(log + 220, 1, 4);	/* TMT2 transitions */
	put_le(log + 224, 120, 4);	/* TMT1 seconds */
	put_le(log + 228, 5, 4);	/* TMT2 seconds */
}

static void
test_smart_log(void **state)
{
	uint8_t		log[512];
	struct smart	s;

	(void)state;
	make_log(log);
	assert_int_equal(smart_from_nvme(log, NULL, NULL, &s), 0);
	assert_int_equal(s.source, SMART_NVME);
	assert_int_equal(s.critical_warning, CW_RELIABILITY);
	assert_true(s.has_temperature);
	assert_int_equal(s.temperature_c, 45);
	assert_int_equal(s.ntemp_sensors, 2);
	assert_int_equal(s.temp_sensors_c[0], 50);
	assert_int_equal(s.temp_sensors_c[1], 57);
	assert_int_equal(s.available_spare, 87);
	assert_int_equal(s.spare_threshold, 10);
	assert_true(s.percent_used == 13.0);
	assert_int_equal(s.data_units_written, 2000000);
	assert_int_equal(s.device_bytes_written, 2000000ULL * 512000);
	assert_int_equal(s.device_bytes_read, 111ULL * 512000);
	assert_int_equal(s.host_read_cmds, 333);
	assert_int_equal(s.host_write_cmds, 444);
	assert_true(s.has_power_cycles);
	assert_int_equal(s.power_cycles, 55);
	assert_int_equal(s.power_on_hours, 6666);
	assert_int_equal(s.unsafe_shutdowns, 7);
	assert_int_equal(s.media_errors, 3);
	assert_int_equal(s.error_log_entries, 9);
	assert_int_equal(s.warning_temp_minutes, 21);
	assert_int_equal(s.critical_temp_minutes, 2);
	assert_int_equal(s.thermal_transitions[0], 4);
	assert_int_equal(s.thermal_transitions[1], 1);
	assert_int_equal(s.thermal_seconds[0], 120);
	assert_int_equal(s.thermal_seconds[1], 5);
	assert_false(s.has_nand_written);
}

/* A 128-bit counter beyond 64 bits saturates rather than wrapping. */
static void
test_counter_saturates(void **state)
{
	uint8_t		log[512];
	struct smart	s;

	(void)state;
	make_log(log);
	log[48 + 9] = 1;		/* bit 72 of data units written */
	smart_from_nvme(log, NULL, NULL, &s);
	assert_true(s.data_units_written == UINT64_MAX);
	assert_true(s.device_bytes_written == UINT64_MAX);
}

static void
test_identify(void **state)
{
	uint8_t		log[512], id[4096];
	struct smart	s;

	(void)state;
	make_log(log);
	memset(id, 0, sizeof(id));
	memcpy(id + 4, "S64ANS0R123456      ", 20);		/* sn */
	memcpy(id + 24, "Samsung SSD 980 1TB                     ", 40);
	memcpy(id + 64, "3B4QFXO7", 8);				/* fr */
	smart_from_nvme(log, id, NULL, &s);
	assert_string_equal(s.serial, "S64ANS0R123456");
	assert_string_equal(s.model, "Samsung SSD 980 1TB");
	assert_string_equal(s.firmware, "3B4QFXO7");
	assert_false(s.has_temp_limit);		/* WCTEMP 0: none set */
	id[266] = 0x57;				/* WCTEMP 343 K */
	id[267] = 0x01;
	smart_from_nvme(log, id, NULL, &s);
	assert_true(s.has_temp_limit);
	assert_int_equal(s.temp_limit_c, 70);
}

/*
 * A string ends at its first NUL even with bytes after it, and the spaces
 * before that NUL are padding too. Found by fuzz_smart_nvme: the model
 * kept its trailing spaces when a NUL followed them.
 */
static void
test_identify_nul_inside(void **state)
{
	uint8_t		log[512], id[4096];
	struct smart	s;

	(void)state;
	make_log(log);
	memset(id, 0, sizeof(id));
	memcpy(id + 4, "S64ANS0R123456   \0\x7f\x80", 20);	/* sn */
	memcpy(id + 24, "Samsung SSD 980 1TB     \0 T\xe3           ", 40);
	memcpy(id + 64, "  \0\0QFXO", 8);			/* fr */
	smart_from_nvme(log, id, NULL, &s);
	assert_string_equal(s.serial, "S64ANS0R123456");
	assert_string_equal(s.model, "Samsung SSD 980 1TB");
	assert_string_equal(s.firmware, "");
}

/* The OCP C0h log's GUID as a drive stores it (bytes 496-511). */
static const uint8_t ocp_guid[16] = {
	0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
	0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf
};

/*
 * The fields of the C0h log, written out here from the OCP Datacenter
 * NVMe SSD Specification v2.0 (not taken from the decoder's table, so
 * that a wrong offset there fails), each with a value of its own whose
 * every byte differs: a field read from the wrong place or with the wrong
 * width comes out different. ocp_key: nvme-cli's JSON name (the fixture).
 */
static const struct {
	enum ocp_fig	 fig;
	unsigned	 off, width;
	uint64_t	 v;
	const char	*ocp_key;
} c0_layout[] = {
	{ OCP_MEDIA_WRITTEN, 0, 16, 0x1112131415161718ULL,
	  "Physical media units written" },
	{ OCP_MEDIA_READ, 16, 16, 0x2122232425262728ULL,
	  "Physical media units read" },
	{ OCP_BAD_USER, 32, 6, 0x313233343536ULL, "Bad user nand blocks - Raw" },
	{ OCP_BAD_USER_NORM, 38, 2, 0x4142, "Bad user nand blocks - Normalized" },
	{ OCP_BAD_SYSTEM, 40, 6, 0x515253545556ULL,
	  "Bad system nand blocks - Raw" },
	{ OCP_BAD_SYSTEM_NORM, 46, 2, 0x6162,
	  "Bad system nand blocks - Normalized" },
	{ OCP_XOR_RECOVERY, 48, 8, 0x7172737475767778ULL, "XOR recovery count" },
	{ OCP_UNCORRECTABLE_READ, 56, 8, 0x8182838485868788ULL,
	  "Uncorrectable read error count" },
	{ OCP_SOFT_ECC, 64, 8, 0x9192939495969798ULL, "Soft ecc error count" },
	{ OCP_E2E_DETECTED, 72, 4, 0xa1a2a3a4, "End to end detected errors" },
	{ OCP_E2E_CORRECTED, 76, 4, 0xb1b2b3b4, "End to end corrected errors" },
	{ OCP_SYSTEM_USED, 80, 1, 0xc1, "System data percent used" },
	{ OCP_ERASE_MAX, 88, 4, 0xd1d2d3d4, "Max User data erase counts" },
	{ OCP_ERASE_MIN, 92, 4, 0xe1e2e3e4, "Min User data erase counts" },
	{ OCP_THROTTLE_EVENTS, 96, 1, 0xf1,
	  "Number of Thermal throttling events" },
	{ OCP_THROTTLE_STATUS, 97, 1, 0x02, "Current throttling status" },
	{ OCP_LOG_VERSION, 494, 2, 0x0a0b, "Log page version" },
};
#define C0_NFIELDS	(sizeof(c0_layout) / sizeof(c0_layout[0]))

/*
 * A C0h page: every byte no field above covers is 0xee (refresh counts,
 * versions, reserved: a field read too wide picks them up), then the
 * fields with value v(i), the GUID when `guid`.
 */
static void
make_c0(uint8_t *c0, uint64_t (*v)(size_t), int guid)
{
	size_t	i;

	memset(c0, 0xee, 512);
	for (i = 0; i < C0_NFIELDS; i++) {
		memset(c0 + c0_layout[i].off, 0, c0_layout[i].width);
		put_le(c0 + c0_layout[i].off, v(i), c0_layout[i].width < 8 ?
		    (int)c0_layout[i].width : 8);
	}
	if (guid)
		memcpy(c0 + 496, ocp_guid, sizeof(ocp_guid));
}

static uint64_t
layout_value(size_t i)
{
	return c0_layout[i].v;
}

/* A source of the reading's sources object, "" when it has none. */
static const char *
source_of(const struct smart *s, const char *key)
{
	static char	 buf[160];
	json_object	*o = smart_sources_json(s), *v;

	buf[0] = '\0';
	if (json_object_object_get_ex(o, key, &v))
		snprintf(buf, sizeof(buf), "%s", json_object_get_string(v));
	json_object_put(o);
	return buf;
}

/* Every field at its offset and width; the media bytes are the NAND's. */
static void
test_ocp_offsets(void **state)
{
	uint8_t		log[512], c0[512];
	struct smart	s;
	size_t		i;

	(void)state;
	make_log(log);
	make_c0(c0, layout_value, 1);
	assert_int_equal(smart_from_nvme(log, NULL, c0, &s), 0);
	assert_true(s.has_ocp);
	assert_string_equal(s.ocp_why, "");
	for (i = 0; i < C0_NFIELDS; i++) {
		if (s.ocp[c0_layout[i].fig] != c0_layout[i].v)
			fail_msg("%s: read %#llx, stored %#llx",
			    c0_layout[i].ocp_key,
			    (unsigned long long)s.ocp[c0_layout[i].fig],
			    (unsigned long long)c0_layout[i].v);
	}
	assert_string_equal(s.ocp_guid, "0xafd514c97c6f4f9ca4f2bfea2810afc5");
	assert_true(s.has_nand_written);
	assert_true(s.nand_bytes_written == 0x1112131415161718ULL);
	/* each figure names the log and its bytes */
	assert_string_equal(source_of(&s, "ocp_erase_count_max"),
	    "OCP extended SMART log C0h, bytes 88-91");
	assert_string_equal(source_of(&s, "ocp_throttle_status"),
	    "OCP extended SMART log C0h, byte 97");
	assert_string_equal(source_of(&s, "nand_bytes_written"),
	    "OCP extended SMART log C0h");
}

/* A 128-bit counter past 64 bits saturates, its upper half anywhere. */
static void
test_ocp_saturates(void **state)
{
	uint8_t		log[512], c0[512];
	struct smart	s;

	(void)state;
	make_log(log);
	make_c0(c0, layout_value, 1);
	c0[0 + 15] = 0x01;		/* bit 120 of media written */
	c0[16 + 8] = 0x01;		/* bit 64 of media read */
	smart_from_nvme(log, NULL, c0, &s);
	assert_true(s.ocp[OCP_MEDIA_WRITTEN] == UINT64_MAX);
	assert_true(s.ocp[OCP_MEDIA_READ] == UINT64_MAX);
	assert_true(s.nand_bytes_written == UINT64_MAX);
	/* the counters beside them are their own */
	assert_true(s.ocp[OCP_BAD_USER] == 0x313233343536ULL);
}

/* No GUID, no OCP log: every figure unknown, not 0, and why. */
static void
test_ocp_guid_mismatch(void **state)
{
	uint8_t			log[512], c0[512];
	struct smart		s;
	struct smart_summary	m;
	json_object		*o, *v;
	size_t			i;

	(void)state;
	make_log(log);
	make_c0(c0, layout_value, 1);
	c0[511] ^= 0x01;		/* one bit of the GUID off */
	smart_from_nvme(log, NULL, c0, &s);
	assert_false(s.has_ocp);
	assert_false(s.has_nand_written);
	assert_string_equal(s.ocp_why, "no OCP C0h log: GUID does not match");
	assert_string_equal(source_of(&s, "ocp_erase_count_min"),
	    "unknown (no OCP C0h log: GUID does not match)");
	assert_string_equal(source_of(&s, "nand_bytes_written"),
	    "unknown (no OCP C0h log: GUID does not match)");
	/* the Status summary: null, with the reason beside */
	smart_summary_fill(&m, &s, -1);
	o = smart_summary_json(&m);
	for (i = 0; i < C0_NFIELDS; i++) {
		const char *key = NULL;

		switch (c0_layout[i].fig) {
		case OCP_ERASE_MAX:	key = "ocp_erase_count_max"; break;
		case OCP_THROTTLE_EVENTS: key = "ocp_throttle_events"; break;
		case OCP_MEDIA_READ:	key = "ocp_media_bytes_read"; break;
		default:		continue;
		}
		assert_true(json_object_object_get_ex(o, key, &v));
		assert_null(v);
	}
	assert_true(json_object_object_get_ex(o, "ocp_source", &v));
	assert_string_equal(json_object_get_string(v),
	    "unknown (no OCP C0h log: GUID does not match)");
	json_object_put(o);
	/* not read at all */
	smart_from_nvme(log, NULL, NULL, &s);
	assert_false(s.has_ocp);
	assert_string_equal(s.ocp_why, "no OCP C0h log: not read");
}

/* The summary of a reading with the log: its figures and their source. */
static void
test_ocp_summary(void **state)
{
	uint8_t			log[512], c0[512];
	struct smart		s;
	struct smart_summary	m;
	json_object		*o, *v;

	(void)state;
	make_log(log);
	make_c0(c0, layout_value, 1);
	smart_from_nvme(log, NULL, c0, &s);
	smart_summary_fill(&m, &s, -1);
	o = smart_summary_json(&m);
	assert_true(json_object_object_get_ex(o, "ocp_erase_count_min", &v));
	assert_true(json_object_get_uint64(v) == 0xe1e2e3e4);
	assert_true(json_object_object_get_ex(o, "ocp_throttle_status", &v));
	assert_int_equal(json_object_get_int(v), 2);
	assert_true(json_object_object_get_ex(o, "ocp_source", &v));
	assert_string_equal(json_object_get_string(v),
	    "OCP extended SMART log C0h");
	json_object_put(o);
}

/* A figure of the capture: nvme-cli's number, or the low half of its
 * {hi, lo} pair of a 128-bit counter (hi is 0 there). */
static json_object	*capture;

static uint64_t
capture_value(size_t i)
{
	json_object	*v, *lo;

	if (!json_object_object_get_ex(capture, c0_layout[i].ocp_key, &v))
		fail_msg("the capture has no \"%s\"", c0_layout[i].ocp_key);
	if (json_object_object_get_ex(v, "lo", &lo))
		return json_object_get_uint64(lo);
	return json_object_get_uint64(v);
}

/* A drive's C0h figures as nvme-cli decoded them (tests/unit/data/ocp/
 * SOURCES), laid out at the spec's offsets, read back. */
static void
test_ocp_capture(void **state)
{
	const char	*dir = getenv("SSDT_TESTDATA");
	char		 path[512];
	uint8_t		 log[512], c0[512];
	struct smart	 s;
	json_object	*g;
	size_t		 i;

	(void)state;
	snprintf(path, sizeof(path), "%s/ocp/autoval_c0.json",
	    dir ? dir : "tests/unit/data");
	if ((capture = json_object_from_file(path)) == NULL)
		fail_msg("cannot read %s", path);
	make_log(log);
	make_c0(c0, capture_value, 1);
	smart_from_nvme(log, NULL, c0, &s);
	assert_true(s.has_ocp);
	for (i = 0; i < C0_NFIELDS; i++)
		assert_true(s.ocp[c0_layout[i].fig] == capture_value(i));
	assert_true(s.nand_bytes_written == 39074645999616ULL);
	assert_true(s.ocp[OCP_SOFT_ECC] == 1117);
	assert_true(s.ocp[OCP_ERASE_MAX] == 45 && s.ocp[OCP_ERASE_MIN] == 16);
	assert_true(s.ocp[OCP_LOG_VERSION] == 2);
	assert_true(json_object_object_get_ex(capture, "Log page GUID", &g));
	assert_string_equal(s.ocp_guid, json_object_get_string(g));
	json_object_put(capture);
}

/* A page stored from QEMU's emulated controller (nvme smart-log -b). */
static void
test_stored_page(void **state)
{
	const char	*dir = getenv("SSDT_TESTDATA");
	char		 path[512];
	uint8_t		 log[512];
	struct smart	 s;
	FILE		*fp;

	(void)state;
	snprintf(path, sizeof(path), "%s/nvme/qemu-smart-log.bin",
	    dir ? dir : "tests/unit/data");
	if ((fp = fopen(path, "rb")) == NULL)
		fail_msg("cannot open %s", path);
	assert_int_equal(fread(log, 1, sizeof(log), fp), sizeof(log));
	fclose(fp);
	smart_from_nvme(log, NULL, NULL, &s);
	/* what QEMU 7.2 reports: 323 K, spare 0 of threshold 0, 0 % used */
	assert_int_equal(s.temperature_c, 50);
	assert_int_equal(s.available_spare, 0);
	assert_int_equal(s.spare_threshold, 0);
	assert_true(s.percent_used == 0.0);
	assert_int_equal(s.critical_warning, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smart_log),
		cmocka_unit_test(test_counter_saturates),
		cmocka_unit_test(test_identify),
		cmocka_unit_test(test_identify_nul_inside),
		cmocka_unit_test(test_ocp_offsets),
		cmocka_unit_test(test_ocp_saturates),
		cmocka_unit_test(test_ocp_guid_mismatch),
		cmocka_unit_test(test_ocp_summary),
		cmocka_unit_test(test_ocp_capture),
		cmocka_unit_test(test_stored_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
