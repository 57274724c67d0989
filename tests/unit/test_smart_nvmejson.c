/*
 * test_smart_nvmejson.c: SMART of NVMe drives from smartctl's JSON (the
 * smart_command path), the choice of decoder, the NAND writes of a
 * simulated drive, and the splitting of the command line. Fixtures in
 * tests/unit/data/smartctl/ (SOURCES says where each comes from).
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

#include "cmdline.h"
#include "smart.h"

/* A fixture through the dispatcher, which must pick the NVMe decoder. */
static void
decode_fixture(const char *name, struct smart *s)
{
	char	 err[256];
	size_t	 len;
	char	*json = fixture_load(name, &len);

	if (smart_from_json(json, len, s, err, sizeof(err)) != 0)
		fail_msg("%s: %s", name, err);
	free(json);
	assert_int_equal(s->source, SMART_NVME);
}

static int
decode_str(const char *json, struct smart *s, char *err, size_t errlen)
{
	return smart_from_json(json, strlen(json), s, err, errlen);
}

static void
test_samsung_970evoplus(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("nvme_samsung_970evoplus.json", &s);
	assert_string_equal(s.model, "Samsung SSD 970 EVO Plus 250GB");
	assert_int_equal(s.time, 1234567890);
	assert_int_equal(s.critical_warning, 0);
	assert_true(s.has_temperature);
	assert_int_equal(s.temperature_c, 35);
	assert_int_equal(s.ntemp_sensors, 2);
	assert_int_equal(s.temp_sensors_c[0], 35);
	assert_int_equal(s.temp_sensors_c[1], 39);
	assert_true(s.has_spare);
	assert_int_equal(s.available_spare, 100);
	assert_int_equal(s.spare_threshold, 10);
	assert_true(s.has_percent_used);
	assert_true(s.percent_used == 0);
	assert_true(s.has_device_written && s.has_device_read);
	assert_int_equal(s.data_units_written, 1969459);
	assert_int_equal(s.device_bytes_written, 1969459ULL * 512000);
	assert_int_equal(s.data_units_read, 2025034);
	assert_int_equal(s.device_bytes_read, 2025034ULL * 512000);
	assert_int_equal(s.host_read_cmds, 13927240);
	assert_int_equal(s.host_write_cmds, 88382369);
	assert_true(s.has_power_cycles);
	assert_int_equal(s.power_cycles, 16);
	assert_int_equal(s.power_on_hours, 3149);
	assert_true(s.has_unsafe_shutdowns);
	assert_int_equal(s.unsafe_shutdowns, 12);
	assert_true(s.has_media_errors);
	assert_int_equal(s.media_errors, 0);
	assert_int_equal(s.error_log_entries, 22);
	assert_int_equal(s.warning_temp_minutes, 0);
	/* not in this output: unknown, not 0 */
	assert_false(s.has_thermal);
	assert_false(s.has_temp_limit);
	assert_false(s.has_nand_written);
	assert_false(s.has_reallocated);
	assert_false(s.has_pending);
}

static void
test_micron_7450(void **state)
{
	struct smart	s;

	(void)state;
	decode_fixture("nvme_micron_7450.json", &s);
	assert_string_equal(s.model, "Micron_7450_MTFDKCC3T2TFS");
	assert_int_equal(s.temperature_c, 33);
	assert_int_equal(s.ntemp_sensors, 3);
	assert_int_equal(s.temp_sensors_c[0], 38);
	assert_int_equal(s.temp_sensors_c[2], 33);
	assert_int_equal(s.device_bytes_written, 1248078ULL * 512000);
	assert_int_equal(s.device_bytes_read, 170056ULL * 512000);
	assert_int_equal(s.unsafe_shutdowns, 30);
	assert_int_equal(s.power_cycles, 32);
	assert_int_equal(s.power_on_hours, 2884);
	assert_int_equal(s.critical_temp_minutes, 0);
}

/* Fields the captures have at 0 or not at all, as smartctl prints them. */
static const char worn[] =
    "{\"device\":{\"protocol\":\"NVMe\"},\"model_name\":\"m\","
    "\"nvme_composite_temperature_threshold\":{\"warning\":70,"
    "\"critical\":80},"
    "\"nvme_smart_health_information_log\":{\"critical_warning\":4,"
    "\"temperature\":71,\"available_spare\":8,"
    "\"available_spare_threshold\":10,\"percentage_used\":112,"
    "\"data_units_written\":3,\"media_errors\":17,"
    "\"warning_temp_time\":21,\"critical_comp_time\":2,"
    "\"temperature_sensors\":[null,74],"
    "\"thermal_mgmt_temperature_1_transition_count\":4,"
    "\"thermal_mgmt_temperature_1_total_time\":120,"
    "\"thermal_mgmt_temperature_2_transition_count\":1,"
    "\"thermal_mgmt_temperature_2_total_time\":5}}";

static void
test_worn_drive(void **state)
{
	struct smart	s, p;
	char		err[256], buf[256];

	(void)state;
	assert_int_equal(decode_str(worn, &s, err, sizeof(err)), 0);
	assert_int_equal(s.critical_warning, CW_RELIABILITY);
	assert_true(s.percent_used == 112);
	assert_int_equal(s.media_errors, 17);
	assert_int_equal(s.device_bytes_written, 3 * 512000);
	assert_false(s.has_device_read);	/* not printed: unknown */
	assert_false(s.has_power_cycles);
	assert_false(s.has_unsafe_shutdowns);
	assert_true(s.has_temp_limit);
	assert_int_equal(s.temp_limit_c, 70);
	assert_int_equal(s.ntemp_sensors, 1);	/* a null sensor is none */
	assert_int_equal(s.temp_sensors_c[0], 74);
	assert_int_equal(s.warning_temp_minutes, 21);
	assert_int_equal(s.critical_temp_minutes, 2);
	assert_true(s.has_thermal);
	assert_int_equal(s.thermal_transitions[0], 4);
	assert_int_equal(s.thermal_transitions[1], 1);
	assert_int_equal(s.thermal_seconds[0], 120);
	assert_int_equal(s.thermal_seconds[1], 5);
	assert_true(s.time != 0);	/* none printed: the time of reading */
	/* the health rules see it as they see a libnvme reading */
	memset(&p, 0, sizeof(p));
	p.source = SMART_NVME;
	assert_string_equal(smart_failure(&p, &s, 10, buf, sizeof(buf)),
	    "SMART: NVM subsystem reliability degraded");
}

static const char sim_fmt[] =
    "{\"device\":{\"protocol\":\"NVMe\"},\"model_name\":\"ssdsim\","
    "\"nvme_smart_health_information_log\":{\"critical_warning\":0,"
    "\"data_units_written\":%llu},"
    "\"ssdsim_nand\":{\"host_bytes_written\":%llu,"
    "\"nand_bytes_written\":%s}}";

static int
decode_sim(unsigned long long units, unsigned long long host,
    const char *nand, struct smart *s)
{
	char	json[512], err[256];

	snprintf(json, sizeof(json), sim_fmt, units, host, nand);
	return decode_str(json, s, err, sizeof(err));
}

static void
test_ssdsim_nand(void **state)
{
	struct smart	 b, s;
	json_object	*src, *v;

	(void)state;
	assert_int_equal(decode_sim(1000, 512000000, "1024000000", &b), 0);
	assert_true(b.has_nand_written);
	assert_int_equal(b.nand_bytes_written, 1024000000);
	/* the log's own host counter is kept */
	assert_int_equal(b.device_bytes_written, 1000ULL * 512000);
	assert_int_equal(decode_sim(3000, 1536000000, "5120000000", &s), 0);
	/* (5.12 GB - 1.024 GB) NAND over (1.536 GB - 0.512 GB) host */
	assert_true(smart_waf(&b, &s) > 3.999 && smart_waf(&b, &s) < 4.001);
	src = smart_sources_json(&s);
	assert_true(json_object_object_get_ex(src, "nand_bytes_written", &v));
	assert_string_equal(json_object_get_string(v),
	    "ssdsim_nand.nand_bytes_written");
	json_object_put(src);
	/* a NAND count that is none: unknown, and why */
	assert_int_equal(decode_sim(1000, 512000000, "-5", &s), 0);
	assert_false(s.has_nand_written);
	src = smart_sources_json(&s);
	assert_true(json_object_object_get_ex(src, "nand_bytes_written", &v));
	assert_string_equal(json_object_get_string(v),
	    "unknown (ssdsim_nand.nand_bytes_written is not a count)");
	json_object_put(src);
}

/* Without a host counter of its own, the output's simulated one. */
static void
test_ssdsim_host(void **state)
{
	struct smart	s;
	char		err[256];

	(void)state;
	assert_int_equal(decode_str("{\"nvme_smart_health_information_log\":"
	    "{\"critical_warning\":0},\"ssdsim_nand\":{\"host_bytes_written\":"
	    "4096,\"nand_bytes_written\":8192}}", &s, err, sizeof(err)), 0);
	assert_int_equal(s.source, SMART_NVME);	/* no protocol: the log */
	assert_true(s.has_device_written);
	assert_int_equal(s.device_bytes_written, 4096);
	assert_string_equal(s.src[FIG_DEVICE_WRITTEN],
	    "ssdsim_nand.host_bytes_written");
	assert_int_equal(s.nand_bytes_written, 8192);
}

/*
 * ssdsim(1)'s own output: its counters in an object named "ssdsim" (with
 * more than the NAND count); the write amplification comes from it.
 */
static void
test_ssdsim_object(void **state)
{
	struct smart	b, s;
	char		err[256];
	static const char fmt[] = "{\"device\":{\"protocol\":\"NVMe\"},"
	    "\"nvme_smart_health_information_log\":{\"critical_warning\":0,"
	    "\"data_units_written\":%d},\"ssdsim\":{\"host_bytes_written\":"
	    "%d000,\"host_bytes_read\":0,\"nand_bytes_written\":%d000,"
	    "\"erase_count_avg\":3,\"life\":\"ok\",\"profile\":\"lying\"}}";
	char		json[512];

	(void)state;
	snprintf(json, sizeof(json), fmt, 2, 1024, 3072);
	assert_int_equal(decode_str(json, &b, err, sizeof(err)), 0);
	assert_true(b.has_nand_written);
	assert_int_equal(b.nand_bytes_written, 3072000);
	assert_string_equal(b.src[FIG_NAND_WRITTEN], "ssdsim.nand_bytes_written");
	snprintf(json, sizeof(json), fmt, 12, 6144, 18432);
	assert_int_equal(decode_str(json, &s, err, sizeof(err)), 0);
	/* (18.432 - 3.072) MB NAND over 10 data units of 512,000 bytes */
	assert_true(smart_waf(&b, &s) > 2.999 && smart_waf(&b, &s) < 3.001);
}

/*
 * ssdsim(1)'s thermal management counters (smartctl prints them as text
 * only): read from its object, so that throttling is seen; one missing
 * leaves all four unknown; a log's own are kept.
 */
static void
test_ssdsim_thermal(void **state)
{
	struct smart	b, s;
	struct thermal_growth g;
	char		err[256], json[512];
	static const char fmt[] = "{\"device\":{\"protocol\":\"NVMe\"},"
	    "\"nvme_smart_health_information_log\":{\"critical_warning\":0%s},"
	    "\"ssdsim\":{\"thm_temp1_trans_count\":%d,"
	    "\"thm_temp2_trans_count\":0,\"thm_temp1_total_time\":%d%s}}";

	(void)state;
	snprintf(json, sizeof(json), fmt, "", 0, 0,
	    ",\"thm_temp2_total_time\":0");
	assert_int_equal(decode_str(json, &b, err, sizeof(err)), 0);
	assert_true(b.has_thermal);
	snprintf(json, sizeof(json), fmt, "", 1, 3,
	    ",\"thm_temp2_total_time\":0");
	assert_int_equal(decode_str(json, &s, err, sizeof(err)), 0);
	assert_true(s.has_thermal);
	assert_int_equal(s.thermal_transitions[0], 1);
	assert_int_equal(s.thermal_seconds[0], 3);
	assert_true(smart_throttled(&b, &s, &g));
	assert_int_equal(g.transitions[0], 1);
	snprintf(json, sizeof(json), fmt, "", 1, 3, "");
	assert_int_equal(decode_str(json, &s, err, sizeof(err)), 0);
	assert_false(s.has_thermal);
	assert_int_equal(s.thermal_transitions[0], 0);
	snprintf(json, sizeof(json), fmt,
	    ",\"thermal_mgmt_temperature_1_transition_count\":7,"
	    "\"thermal_mgmt_temperature_2_transition_count\":0,"
	    "\"thermal_mgmt_temperature_1_total_time\":9,"
	    "\"thermal_mgmt_temperature_2_total_time\":0", 1, 3,
	    ",\"thm_temp2_total_time\":0");
	assert_int_equal(decode_str(json, &s, err, sizeof(err)), 0);
	assert_int_equal(s.thermal_transitions[0], 7);
	assert_int_equal(s.thermal_seconds[0], 9);
}

/* SATA output goes to the SATA decoder, unchanged, plus ssdsim_nand. */
static void
test_ata_dispatch(void **state)
{
	struct smart	a, s;
	char		err[256];
	size_t		len;
	char		*json = fixture_load("intel_dc_s3500.json", &len);

	(void)state;
	assert_int_equal(smart_from_ata_json(json, len, &a, err, sizeof(err)),
	    0);
	assert_int_equal(smart_from_json(json, len, &s, err, sizeof(err)), 0);
	free(json);
	assert_int_equal(s.source, SMART_ATA);
	assert_string_equal(s.model, a.model);
	assert_int_equal(s.device_bytes_written, a.device_bytes_written);
	assert_true(s.percent_used == a.percent_used);
	assert_int_equal(s.has_nand_written, a.has_nand_written);
}

static void
test_errors(void **state)
{
	static const struct {
		const char	*json, *err;
	} t[] = {
		{ "garbage", "smartctl output is not a JSON object: "
		    "unexpected character" },
		{ "[1]", "smartctl output is not a JSON object: wrong type" },
		{ "{\"device\":{\"protocol\":\"NVMe\"}}",
		    "no NVMe SMART / Health log in smartctl's output" },
		{ "{\"device\":{\"protocol\":\"NVMe\"},\"smartctl\":{"
		    "\"messages\":[{\"string\":\"Smartctl open device: "
		    "/dev/nvme9 failed: No such device\",\"severity\":"
		    "\"error\"}]}}", "Smartctl open device: /dev/nvme9 "
		    "failed: No such device" },
		{ "{\"nvme_smart_health_information_log\":{\"temperature\":"
		    "30}}", "the NVMe SMART / Health log in smartctl's output "
		    "has no critical_warning" },
		{ "{\"nvme_smart_health_information_log\":{"
		    "\"critical_warning\":256}}", "the NVMe SMART / Health "
		    "log in smartctl's output has no critical_warning" },
	};
	struct smart	s;
	char		err[256];
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(decode_str(t[i].json, &s, err, sizeof(err)),
		    -1);
		assert_string_equal(err, t[i].err);
	}
	/* a wrong type is no figure, not an error */
	assert_int_equal(decode_str("{\"nvme_smart_health_information_log\":"
	    "{\"critical_warning\":0,\"media_errors\":\"7\","
	    "\"percentage_used\":-1}}", &s, err, sizeof(err)), 0);
	assert_false(s.has_media_errors);
	assert_false(s.has_percent_used);
}

static void
test_cmdline(void **state)
{
	char	**a, err[128];

	(void)state;
	a = cmdline_split("  /usr/sbin/smartctl --json -a\t-d 'sat,12' "
	    "\"/dev/disk/by-id/a b\" x\\ y '' \"q\\\"\"", err, sizeof(err));
	assert_non_null(a);
	assert_string_equal(a[0], "/usr/sbin/smartctl");
	assert_string_equal(a[1], "--json");
	assert_string_equal(a[2], "-a");
	assert_string_equal(a[3], "-d");
	assert_string_equal(a[4], "sat,12");
	assert_string_equal(a[5], "/dev/disk/by-id/a b");
	assert_string_equal(a[6], "x y");
	assert_string_equal(a[7], "");
	assert_string_equal(a[8], "q\"");
	assert_null(a[9]);
	cmdline_free(a);
	assert_null(cmdline_split("smartctl -a", err, sizeof(err)));
	assert_string_equal(err, "the program must be an absolute path");
	assert_null(cmdline_split(" \t", err, sizeof(err)));
	assert_string_equal(err, "no program");
	assert_null(cmdline_split("/bin/x 'a", err, sizeof(err)));
	assert_string_equal(err, "single quote not closed");
	assert_null(cmdline_split("/bin/x \"a", err, sizeof(err)));
	assert_string_equal(err, "double quote not closed");
	assert_null(cmdline_split("/bin/x a\\", err, sizeof(err)));
	assert_string_equal(err, "a backslash ends the line");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samsung_970evoplus),
		cmocka_unit_test(test_micron_7450),
		cmocka_unit_test(test_worn_drive),
		cmocka_unit_test(test_ssdsim_nand),
		cmocka_unit_test(test_ssdsim_host),
		cmocka_unit_test(test_ssdsim_object),
		cmocka_unit_test(test_ssdsim_thermal),
		cmocka_unit_test(test_ata_dispatch),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_cmdline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
