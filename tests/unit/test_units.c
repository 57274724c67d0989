/* test_units.c: parsing and formatting of sizes, byte counts, durations. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "units.h"

#define KiB	1024ULL
#define MiB	(1024ULL * KiB)
#define GiB	(1024ULL * MiB)
#define TiB	(1024ULL * GiB)
#define PiB	(1024ULL * TiB)

struct size_case {
	const char	*in;
	uint64_t	 want;
};

static void
check_size_ok(const char *in, uint64_t want)
{
	uint64_t	v = 0xdeadbeef;

	if (units_parse_size(in, &v) != 0)
		fail_msg("units_parse_size(\"%s\") failed", in);
	if (v != want)
		fail_msg("units_parse_size(\"%s\") = %llu, want %llu", in,
		    (unsigned long long)v, (unsigned long long)want);
}

static void
check_size_bad(const char *in)
{
	uint64_t	v = 0x1234;

	if (units_parse_size(in, &v) != -1)
		fail_msg("units_parse_size(\"%s\") accepted (%llu)", in,
		    (unsigned long long)v);
	assert_int_equal(v, 0x1234);	/* output untouched on failure */
}

static void
test_size_valid(void **state)
{
	static const struct size_case cases[] = {
		{ "0", 0 }, { "1", 1 }, { "4096", 4096 },
		{ "4k", 4 * KiB }, { "4K", 4 * KiB }, { "128K", 128 * KiB },
		{ "128KiB", 128 * KiB }, { "128kb", 128 * KiB },
		{ "1M", MiB }, { "512M", 512 * MiB }, { "1MiB", MiB },
		{ "1G", GiB }, { "1g", GiB }, { "1GiB", GiB }, { "1GB", GiB },
		{ "1.5G", GiB + GiB / 2 }, { "0.5k", 512 },
		{ "2TiB", 2 * TiB }, { "2T", 2 * TiB }, { "1P", PiB },
		{ "512b", 512 }, { "512B", 512 },
		{ " 4k ", 4 * KiB }, { "4 k", 4 * KiB },
		{ "16383P", 16383 * PiB },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_size_ok(cases[i].in, cases[i].want);
}

static void
test_size_invalid(void **state)
{
	static const char *const bad[] = {
		"", " ", "-1", "+1", "abc", "4x", "1.5.5", "k", "4kk",
		"4 kib x", "1e30", "16384P", "nan", "inf", "-0", "4ki",
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		check_size_bad(bad[i]);
	assert_int_equal(units_parse_size(NULL, &(uint64_t){ 0 }), -1);
}

/*
 * parse_with_table() says "exact integer result required": a fractional
 * byte count such as "1.5" (bytes) or "0.1k" (102.4 bytes) should not be
 * silently rounded.
 */
static void
test_size_fractional_bytes_rejected(void **state)
{
	(void)state;
	check_size_bad("1.5");
	check_size_bad("0.1k");
}

static void
check_dec_ok(const char *in, uint64_t want)
{
	uint64_t	v = 0;

	if (units_parse_decimal(in, &v) != 0)
		fail_msg("units_parse_decimal(\"%s\") failed", in);
	if (v != want)
		fail_msg("units_parse_decimal(\"%s\") = %llu, want %llu", in,
		    (unsigned long long)v, (unsigned long long)want);
}

static void
test_decimal(void **state)
{
	uint64_t	v = 7;

	(void)state;
	check_dec_ok("600TB", 600000000000000ULL);
	check_dec_ok("600T", 600000000000000ULL);
	check_dec_ok("1.2PB", 1200000000000000ULL);
	check_dec_ok("0.3PB", 300000000000000ULL);
	check_dec_ok("500G", 500000000000ULL);
	check_dec_ok("500gb", 500000000000ULL);
	check_dec_ok("1k", 1000);
	check_dec_ok("2M", 2000000);
	check_dec_ok("12345", 12345);
	check_dec_ok("1EB", 1000000000000000000ULL);
	check_dec_ok("0", 0);
	assert_int_equal(units_parse_decimal("", &v), -1);
	assert_int_equal(units_parse_decimal("-1TB", &v), -1);
	assert_int_equal(units_parse_decimal("1TiB", &v), -1);
	assert_int_equal(units_parse_decimal("20EB", &v), -1);
	assert_int_equal(units_parse_decimal("TB", &v), -1);
	assert_int_equal(v, 7);
}

static void
check_dur(const char *in, uint64_t want)
{
	uint64_t	v = 0xabc;

	if (units_parse_duration(in, &v) != 0)
		fail_msg("units_parse_duration(\"%s\") failed", in);
	if (v != want)
		fail_msg("units_parse_duration(\"%s\") = %llu, want %llu", in,
		    (unsigned long long)v, (unsigned long long)want);
}

static void
test_duration_valid(void **state)
{
	(void)state;
	check_dur("30", 30);
	check_dur("0", 0);
	check_dur("30s", 30);
	check_dur("5m", 300);
	check_dur("5M", 300);
	check_dur("2h", 7200);
	check_dur("1d", 86400);
	check_dur("1w", 604800);
	check_dur("1h30m", 5400);
	check_dur("1d2h3m4s", 86400 + 7200 + 180 + 4);
	check_dur(" 90s ", 90);
}

static void
test_duration_invalid(void **state)
{
	static const char *const bad[] = {
		"", "  ", "5x", "m", "-5", "+5", "1.5h", "1h30", "1h 30m",
		"h1", "30 s", "99999999999999999999", "18446744073709551615m",
	};
	uint64_t	v = 42;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (units_parse_duration(bad[i], &v) != -1)
			fail_msg("units_parse_duration(\"%s\") accepted (%llu)",
			    bad[i], (unsigned long long)v);
	assert_int_equal(v, 42);
	assert_int_equal(units_parse_duration(NULL, &v), -1);
}

static void
check_frac(const char *in, double want)
{
	double	v = -7.0;

	if (units_parse_fraction(in, &v) != 0)
		fail_msg("units_parse_fraction(\"%s\") failed", in);
	assert_float_equal(v, want, 1e-12);
}

static void
test_fraction(void **state)
{
	static const char *const bad[] = {
		"", "1.5", "-0.1", "50%%", "101%", "abc", "%", "0.5x", "-5%",
	};
	double	v = 3.0;
	size_t	i;

	(void)state;
	check_frac("0.5", 0.5);
	check_frac("0", 0.0);
	check_frac("1", 1.0);
	check_frac("50%", 0.5);
	check_frac("100%", 1.0);
	check_frac("12.5%", 0.125);
	check_frac("0%", 0.0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (units_parse_fraction(bad[i], &v) != -1)
			fail_msg("units_parse_fraction(\"%s\") accepted (%g)",
			    bad[i], v);
	assert_float_equal(v, 3.0, 0.0);
}

static void
test_bool(void **state)
{
	static const char *const yes[] = { "yes", "YES", "true", "On", "1" };
	static const char *const no[] = { "no", "No", "false", "off", "0" };
	static const char *const bad[] = { "", "y", "n", "2", "yes ", "maybe" };
	size_t	i;
	int	v;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		v = -1;
		assert_int_equal(units_parse_bool(yes[i], &v), 0);
		assert_int_equal(v, 1);
	}
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		v = -1;
		assert_int_equal(units_parse_bool(no[i], &v), 0);
		assert_int_equal(v, 0);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 5;
		if (units_parse_bool(bad[i], &v) != -1)
			fail_msg("units_parse_bool(\"%s\") accepted", bad[i]);
		assert_int_equal(v, 5);
	}
	assert_int_equal(units_parse_bool(NULL, &v), -1);
}

static void
test_fmt_bin(void **state)
{
	char	buf[64];

	(void)state;
	assert_string_equal(units_fmt_bin(0, buf, sizeof(buf)), "0 B");
	assert_string_equal(units_fmt_bin(1023, buf, sizeof(buf)), "1023 B");
	assert_string_equal(units_fmt_bin(1024, buf, sizeof(buf)),
	    "1.000 KiB");
	assert_string_equal(units_fmt_bin(GiB + GiB / 2, buf, sizeof(buf)),
	    "1.500 GiB");
	assert_string_equal(units_fmt_bin(50 * MiB, buf, sizeof(buf)),
	    "50.00 MiB");
	assert_string_equal(units_fmt_bin(500 * GiB, buf, sizeof(buf)),
	    "500.0 GiB");
	assert_string_equal(units_fmt_bin(2 * TiB, buf, sizeof(buf)),
	    "2.000 TiB");
	assert_string_equal(units_fmt_bin(UINT64_MAX, buf, sizeof(buf)),
	    "16.00 EiB");
}

static void
test_fmt_dec(void **state)
{
	char	buf[64];

	(void)state;
	assert_string_equal(units_fmt_dec(999, buf, sizeof(buf)), "999 B");
	assert_string_equal(units_fmt_dec(1000, buf, sizeof(buf)),
	    "1.000 kB");
	assert_string_equal(units_fmt_dec(1234000000000ULL, buf, sizeof(buf)),
	    "1.234 TB");
	assert_string_equal(units_fmt_dec(600000000000000ULL, buf,
	    sizeof(buf)), "600.0 TB");
	assert_string_equal(units_fmt_dec(1200000000000000ULL, buf,
	    sizeof(buf)), "1.200 PB");
	assert_string_equal(units_fmt_dec(45600000000ULL, buf, sizeof(buf)),
	    "45.60 GB");
}

static void
test_fmt_duration(void **state)
{
	char	buf[64];

	(void)state;
	assert_string_equal(units_fmt_duration(0, buf, sizeof(buf)), "0s");
	assert_string_equal(units_fmt_duration(59, buf, sizeof(buf)), "59s");
	assert_string_equal(units_fmt_duration(60, buf, sizeof(buf)),
	    "1m00s");
	assert_string_equal(units_fmt_duration(3723, buf, sizeof(buf)),
	    "1h02m03s");
	assert_string_equal(units_fmt_duration(86400, buf, sizeof(buf)),
	    "1d00h00m");
	assert_string_equal(units_fmt_duration(90061, buf, sizeof(buf)),
	    "1d01h01m");
	assert_string_equal(units_fmt_duration(10 * 86400 + 5 * 3600 + 7 * 60,
	    buf, sizeof(buf)), "10d05h07m");
}

/*
 * Values that round up to the next unit must be shown in that unit, with
 * the same 4 significant digits as everywhere else.
 */
static void
test_fmt_rounding_boundary(void **state)
{
	char	buf[64];

	(void)state;
	assert_string_equal(units_fmt_dec(9999999, buf, sizeof(buf)),
	    "10.00 MB");
	assert_string_equal(units_fmt_dec(999999, buf, sizeof(buf)),
	    "1.000 MB");
	assert_string_equal(units_fmt_bin(MiB - 1, buf, sizeof(buf)),
	    "1.000 MiB");
}

/* The formatters must not overrun a short buffer and must return it. */
static void
test_fmt_short_buffer(void **state)
{
	char	buf[8];

	(void)state;
	memset(buf, 'X', sizeof(buf));
	assert_ptr_equal(units_fmt_bin(GiB + GiB / 2, buf, 4), buf);
	assert_string_equal(buf, "1.5");
	assert_int_equal(buf[4], 'X');
	assert_ptr_equal(units_fmt_duration(3723, buf, 5), buf);
	assert_string_equal(buf, "1h02");
}

/* Parsing the formatted value gives the value back (for exact cases). */
static void
test_fmt_parse_round_trip(void **state)
{
	static const uint64_t sec[] = { 0, 1, 59, 61, 3599, 3661, 7322 };
	char		buf[64];
	uint64_t	v;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(sec) / sizeof(sec[0]); i++) {
		units_fmt_duration(sec[i], buf, sizeof(buf));
		assert_int_equal(units_parse_duration(buf, &v), 0);
		assert_int_equal(v, sec[i]);
	}
	units_fmt_bin(GiB + GiB / 2, buf, sizeof(buf));
	assert_int_equal(units_parse_size(buf, &v), 0);
	assert_int_equal(v, GiB + GiB / 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_valid),
		cmocka_unit_test(test_size_invalid),
		cmocka_unit_test(test_size_fractional_bytes_rejected),
		cmocka_unit_test(test_decimal),
		cmocka_unit_test(test_duration_valid),
		cmocka_unit_test(test_duration_invalid),
		cmocka_unit_test(test_fraction),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_fmt_bin),
		cmocka_unit_test(test_fmt_dec),
		cmocka_unit_test(test_fmt_duration),
		cmocka_unit_test(test_fmt_rounding_boundary),
		cmocka_unit_test(test_fmt_short_buffer),
		cmocka_unit_test(test_fmt_parse_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
