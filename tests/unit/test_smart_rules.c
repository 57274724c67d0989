/*
 * test_smart_rules.c: when SMART says a drive has failed; its WAF; when
 * its thermal counters say it throttled.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "smart.h"

/* A healthy NVMe reading. */
static struct smart
healthy(void)
{
	struct smart	s;

	memset(&s, 0, sizeof(s));
	s.source = SMART_NVME;
	s.has_spare = 1;
	s.available_spare = 100;
	s.spare_threshold = 10;
	s.has_media_errors = 1;
	s.media_errors = 2;
	return s;
}

static const char *
verdict(const struct smart *p, const struct smart *s, uint64_t max)
{
	static char	buf[256];

	return smart_failure(p, s, max, buf, sizeof(buf));
}

static void
test_healthy(void **state)
{
	struct smart	p = healthy(), s = healthy();

	(void)state;
	assert_null(verdict(&p, &s, 10));
	s.critical_warning = CW_TEMPERATURE;	/* hot is not failed */
	assert_null(verdict(&p, &s, 10));
	s.available_spare = s.spare_threshold = 0;	/* QEMU reports this */
	assert_null(verdict(&p, &s, 10));
}

static void
test_critical_bits(void **state)
{
	struct smart	p = healthy(), s = healthy();

	(void)state;
	s.critical_warning = CW_READ_ONLY;
	assert_non_null(strstr(verdict(&p, &s, 10), "read-only"));
	s.critical_warning = CW_RELIABILITY;
	assert_non_null(strstr(verdict(&p, &s, 10), "reliability"));
	s.critical_warning = CW_SPARE;
	assert_non_null(strstr(verdict(&p, &s, 10), "spare"));
	s.critical_warning = 0;
	s.available_spare = 9;			/* below 10, bit not (yet) set */
	assert_non_null(strstr(verdict(&p, &s, 10), "spare"));
}

static void
test_jumps(void **state)
{
	struct smart	p = healthy(), s = healthy();

	(void)state;
	s.media_errors = p.media_errors + 10;	/* exactly the allowance */
	assert_null(verdict(&p, &s, 10));
	s.media_errors = p.media_errors + 11;
	assert_non_null(strstr(verdict(&p, &s, 10), "media errors jumped "
	    "from 2 to 13"));
	s = healthy();
	p.has_reallocated = s.has_reallocated = 1;
	p.reallocated = 5;
	s.reallocated = 100;
	assert_non_null(strstr(verdict(&p, &s, 10), "reallocated"));
	p.has_reallocated = 0;			/* nothing to compare with */
	assert_null(verdict(&p, &s, 10));
	s.reallocated = 0;			/* a reset counter is no jump */
	p.has_reallocated = 1;
	assert_null(verdict(&p, &s, 10));
}

/* Decode smartctl JSON into *s; the test fails if it does not decode. */
static void
decode(const char *json, struct smart *s)
{
	char	err[256];

	if (smart_from_ata_json(json, strlen(json), s, err, sizeof(err)) != 0)
		fail_msg("%s", err);
}

/* A SAS drive's error counter log, as smartctl 7.3 prints it (figures
 * of the real PM1643a capture, with `rd` uncorrected read errors). */
static void
sas_reading(struct smart *s, int rd)
{
	char	json[1024];

	snprintf(json, sizeof(json), "{\"device\": {\"protocol\": \"SCSI\"}, "
	    "\"scsi_model_name\": \"SAMSUNG MZILT960HBHQ/007\", "
	    "\"scsi_grown_defect_list\": 0, \"scsi_error_counter_log\": {"
	    "\"read\": {\"gigabytes_processed\": \"12.699\", "
	    "\"total_uncorrected_errors\": %d}, "
	    "\"write\": {\"gigabytes_processed\": \"6082.745\", "
	    "\"total_uncorrected_errors\": 0}, "
	    "\"verify\": {\"gigabytes_processed\": \"0.001\", "
	    "\"total_uncorrected_errors\": 0}}}", rd);
	decode(json, s);
}

/* A drive smartctl's database does not know, 187 under its default name. */
static void
not_in_db_reading(struct smart *s, int uncorrect)
{
	char	json[512];

	snprintf(json, sizeof(json), "{\"model_name\": \"X\", "
	    "\"in_smartctl_database\": false, \"ata_smart_attributes\": "
	    "{\"table\": [{\"id\": 187, \"name\": \"Reported_Uncorrect\", "
	    "\"value\": 100, \"raw\": {\"value\": %d, \"string\": \"%d\"}}]}}",
	    uncorrect, uncorrect);
	decode(json, s);
}

/*
 * Media errors that only the SCSI error counter log or 187 under its
 * default name report: their growth fails the drive like any other, and
 * the summary (Status) shows them, with the SAS drive's bytes written.
 */
static void
test_jumps_scsi_and_default_187(void **state)
{
	struct smart		p, s;
	struct smart_summary	m;
	const char		*why;

	(void)state;
	sas_reading(&p, 0);
	sas_reading(&s, 10);		/* exactly the allowance */
	assert_null(verdict(&p, &s, 10));
	sas_reading(&s, 25);
	assert_non_null(why = verdict(&p, &s, 10));
	assert_non_null(strstr(why, "media errors jumped from 0 to 25"));
	smart_summary_fill(&m, &s, -1);
	assert_true(m.v[FIG_MEDIA_ERRORS].has);
	assert_int_equal(m.v[FIG_MEDIA_ERRORS].u, 25);
	assert_true(m.v[FIG_DEVICE_WRITTEN].has);
	assert_int_equal(m.v[FIG_DEVICE_WRITTEN].u, 6082745000000ULL);
	not_in_db_reading(&p, 1);
	not_in_db_reading(&s, 40);
	assert_non_null(why = verdict(&p, &s, 10));
	assert_non_null(strstr(why, "media errors jumped from 1 to 40"));
}

/* A reading with both write counters (host as the drive counts it). */
static struct smart
written(uint64_t host, uint64_t nand)
{
	struct smart	s = healthy();

	s.has_device_written = s.has_nand_written = 1;
	s.device_bytes_written = host;
	s.nand_bytes_written = nand;
	return s;
}

static void
test_waf(void **state)
{
	struct smart	b = written(1000, 3000), s = written(5000, 9000);

	(void)state;
	/* (9000 - 3000) / (5000 - 1000): the counts before the baseline
	 * do not count */
	assert_float_equal(smart_waf(&b, &s), 1.5, 1e-12);
	assert_float_equal(smart_waf(&b, &b), -1, 0);	/* no host delta */
	s.nand_bytes_written = 3000;			/* no NAND writes */
	assert_float_equal(smart_waf(&b, &s), 0, 0);
}

/* Whatever is missing or went back makes the WAF unknown, never a guess. */
static void
test_waf_unknown(void **state)
{
	struct smart	b = written(1000, 3000), s = written(5000, 9000);

	(void)state;
	assert_float_equal(smart_waf(NULL, &s), -1, 0);	/* no baseline */
	assert_float_equal(smart_waf(&b, NULL), -1, 0);	/* no reading */
	b.has_nand_written = 0;		/* baseline without the NAND counter */
	assert_float_equal(smart_waf(&b, &s), -1, 0);
	b = written(1000, 3000);
	b.has_device_written = 0;	/* ... without the host counter */
	assert_float_equal(smart_waf(&b, &s), -1, 0);
	b = written(1000, 3000);
	s.has_nand_written = 0;		/* the reading without it */
	assert_float_equal(smart_waf(&b, &s), -1, 0);
	s = written(5000, 9000);
	s.has_device_written = 0;
	assert_float_equal(smart_waf(&b, &s), -1, 0);
	s = written(1000, 9000);	/* host bytes did not grow */
	assert_float_equal(smart_waf(&b, &s), -1, 0);
	s = written(500, 9000);		/* host counter went back */
	assert_float_equal(smart_waf(&b, &s), -1, 0);
	s = written(5000, 2000);	/* NAND counter went back */
	assert_float_equal(smart_waf(&b, &s), -1, 0);
}

/* The Status "smart" object from the typed summary: every key, in the
 * order clients have seen, null for what the reading lacks. */
static void
test_summary_json(void **state)
{
	struct smart		s;
	struct smart_summary	m;
	json_object		*o;

	(void)state;
	smart_summary_fill(&m, NULL, -1);
	assert_false(m.known);
	assert_null(smart_summary_json(&m));
	memset(&s, 0, sizeof(s));
	s.has_percent_used = 1;
	s.percent_used = 3;
	s.has_temperature = 1;
	s.temperature_c = -5;
	s.has_device_written = 1;
	s.device_bytes_written = UINT64_MAX;
	s.critical_warning = 2;
	smart_summary_fill(&m, &s, 1.5);
	o = smart_summary_json(&m);
	assert_string_equal(json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN), "{\"percent_used\":3.0,"
	    "\"available_spare\":null,\"temperature_c\":-5,"
	    "\"media_errors\":null,\"critical_warning\":2,"
	    "\"device_bytes_written\":18446744073709551615,"
	    "\"nand_bytes_written\":null,\"waf\":1.5,\"reallocated\":null}");
	json_object_put(o);
	assert_true(smart_summary_double(&m, FIG_TEMPERATURE) == -5.0);
	assert_true(smart_summary_double(&m, FIG_SPARE) == 0.0);
	assert_false(m.v[FIG_SPARE].has);
}

/*
 * A series of NVMe readings 5 s apart while a drive heats under a write
 * pass: below its warning temperature, then in TMT1 (a transition, then
 * seconds in it), then above the warning temperature, then cooling with
 * the counters still. Throttling is seen at the readings where a counter
 * grew, with how much, and not at the others.
 */
static void
test_throttled_series(void **state)
{
	static const struct {
		int		temp;
		uint32_t	tr1, s1, tr2, warn;
		int		want;
	} series[] = {
		{ 55, 3, 100, 0, 7, 0 },	/* the counts of an earlier life */
		{ 62, 3, 100, 0, 7, 0 },
		{ 69, 4, 102, 0, 7, 1 },	/* into TMT1 */
		{ 71, 4, 107, 0, 7, 1 },	/* seconds in it */
		{ 74, 4, 112, 1, 8, 1 },	/* TMT2 and a warning minute */
		{ 66, 4, 112, 1, 8, 0 },	/* cooled: nothing grew */
	};
	struct smart		p = healthy(), s = healthy();
	struct thermal_growth	g;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof(series) / sizeof(series[0]); i++) {
		s.has_temperature = 1;
		s.temperature_c = series[i].temp;
		s.thermal_transitions[0] = series[i].tr1;
		s.thermal_seconds[0] = series[i].s1;
		s.thermal_transitions[1] = series[i].tr2;
		s.warning_temp_minutes = series[i].warn;
		if (i > 0)
			assert_int_equal(smart_throttled(&p, &s, &g),
			    series[i].want);
		p = s;
	}
	/* the growth of the TMT2 reading */
	s = p;
	p.thermal_seconds[0] = 107;
	p.thermal_transitions[1] = 0;
	p.warning_temp_minutes = 7;
	assert_int_equal(smart_throttled(&p, &s, &g), 1);
	assert_int_equal(g.transitions[0], 0);
	assert_int_equal(g.seconds[0], 5);
	assert_int_equal(g.transitions[1], 1);
	assert_int_equal(g.warning_minutes, 1);
	assert_int_equal(g.critical_minutes, 0);
}

/* A counter that went back, or a reading that is not NVMe: no verdict. */
static void
test_throttled_unknown(void **state)
{
	struct smart		p = healthy(), s = healthy();
	struct thermal_growth	g;

	(void)state;
	p.thermal_transitions[0] = 5;
	s.thermal_transitions[0] = 2;
	s.thermal_seconds[0] = 30;
	assert_int_equal(smart_throttled(&p, &s, &g), 0);
	assert_int_equal(g.seconds[0], 0);
	p = healthy();
	s = healthy();
	s.thermal_transitions[0] = 1;
	p.source = SMART_ATA;
	assert_int_equal(smart_throttled(&p, &s, &g), 0);
	p.source = SMART_NVME;
	assert_int_equal(smart_throttled(&p, &s, &g), 1);
	s.source = SMART_SCSI;
	assert_int_equal(smart_throttled(&p, &s, &g), 0);
}

/*
 * The speed halved while the drive was at its own limit (NVMe WCTEMP,
 * ATA's maximum operating temperature): a slowdown; below the limit, a
 * smaller drop, no speed before, or no limit known: none.
 */
static void
test_hot_slowdown(void **state)
{
	struct smart	s;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.has_temperature = 1;
	s.temperature_c = 70;
	s.has_temp_limit = 1;
	s.temp_limit_c = 70;
	assert_true(smart_hot_slowdown(&s, 2e9, 0.9e9));
	assert_false(smart_hot_slowdown(&s, 2e9, 1.1e9));	/* 0.55x */
	assert_false(smart_hot_slowdown(&s, 0, 0.5e9));	/* no speed before */
	s.temperature_c = 69;
	assert_false(smart_hot_slowdown(&s, 2e9, 0.5e9));
	s.temperature_c = 75;
	assert_true(smart_hot_slowdown(&s, 2e9, 0));	/* stopped */
	s.has_temp_limit = 0;
	assert_false(smart_hot_slowdown(&s, 2e9, 0.5e9));
	s.has_temp_limit = 1;
	s.has_temperature = 0;
	assert_false(smart_hot_slowdown(&s, 2e9, 0.5e9));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy),
		cmocka_unit_test(test_critical_bits),
		cmocka_unit_test(test_jumps),
		cmocka_unit_test(test_jumps_scsi_and_default_187),
		cmocka_unit_test(test_waf),
		cmocka_unit_test(test_waf_unknown),
		cmocka_unit_test(test_summary_json),
		cmocka_unit_test(test_throttled_series),
		cmocka_unit_test(test_throttled_unknown),
		cmocka_unit_test(test_hot_slowdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
