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

/* The OCP C0h log counts only when its GUID is there. */
static void
test_ocp_c0(void **state)
{
	static const uint8_t guid[16] = {
		0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
		0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf
	};
	uint8_t		log[512], c0[512];
	struct smart	s;

	(void)state;
	make_log(log);
	memset(c0, 0, sizeof(c0));
	put_le(c0, 3ULL * 2000000 * 512000, 8);	/* physical media written */
	smart_from_nvme(log, NULL, c0, &s);
	assert_false(s.has_nand_written);	/* no GUID: not an OCP log */
	memcpy(c0 + 496, guid, sizeof(guid));
	smart_from_nvme(log, NULL, c0, &s);
	assert_true(s.has_nand_written);
	assert_int_equal(s.nand_bytes_written, 3ULL * 2000000 * 512000);
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
		cmocka_unit_test(test_ocp_c0),
		cmocka_unit_test(test_stored_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
