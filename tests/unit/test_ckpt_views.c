/*
 * test_ckpt_views.c: what ssdctl shows of performance checkpoints: the
 * headline figure of a probe, the change against the baseline, the cells
 * and headings, the grid's baseline and latest columns, the table, the
 * reading of a damaged results file, and the checkpoint in ssdctl status.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ckpt.h"
#include "ckpt_read.h"
#include "output.h"

static json_object *
parse(const char *s)
{
	json_object	*o = json_tokener_parse(s);

	assert_non_null(o);
	return o;
}

static void
test_headline(void **st)
{
	json_object	*a = parse("{\"block_size\": 4096}");
	json_object	*b = parse("{\"block_size\": 8192}");
	json_object	*c = parse("{\"split\": [[4096, 55], [131072, 45]]}");
	json_object	*d = parse("{\"block_size\": 512}");

	(void)st;
	assert_int_equal(ckpt_headline(a), CKPT_IOPS);
	assert_int_equal(ckpt_headline(b), CKPT_MBPS);
	assert_int_equal(ckpt_headline(c), CKPT_IOPS);	/* a mix */
	assert_int_equal(ckpt_headline(d), CKPT_IOPS);
	json_object_put(a);
	json_object_put(b);
	json_object_put(c);
	json_object_put(d);
}

static void
test_values(void **st)
{
	json_object	*o = parse("{\"read_iops\": 750, \"write_iops\": 250,"
	    "\"read_bytes_per_sec\": 3e6, \"write_bytes_per_sec\": 1e6,"
	    "\"read_lat_us\": {\"p99\": 80, \"p99.9\": 120},"
	    "\"write_lat_us\": {\"p99\": 90, \"p99.9\": 110}}");
	json_object	*sk = parse("{\"skipped\": \"512 B\", \"read_iops\": 9}");
	json_object	*bad = parse("{\"read_iops\": \"many\", \"write_iops\": 1}");

	(void)st;
	assert_true(ckpt_value(o, CKPT_IOPS) == 1000);
	assert_true(ckpt_value(o, CKPT_MBPS) == 4);
	assert_true(ckpt_value(o, CKPT_P99) == 90);	/* the higher */
	assert_true(ckpt_value(o, CKPT_P999) == 120);
	assert_true(isnan(ckpt_value(sk, CKPT_IOPS)));
	assert_true(isnan(ckpt_value(bad, CKPT_IOPS)));	/* not a number */
	assert_true(isnan(ckpt_value(NULL, CKPT_IOPS)));
	json_object_put(o);
	json_object_put(sk);
	json_object_put(bad);
}

static void
test_change(void **st)
{
	(void)st;
	assert_true(fabs(ckpt_change(29000, 20300) - -30.0) < 1e-9);
	assert_true(fabs(ckpt_change(100, 250) - 150.0) < 1e-9);
	assert_true(ckpt_change(100, 100) == 0);
	assert_true(isnan(ckpt_change(0, 5)));
	assert_true(isnan(ckpt_change(NAN, 5)));
	assert_true(isnan(ckpt_change(5, INFINITY)));
	assert_true(isnan(ckpt_change(1e-300, 1e300)));	/* overflows */
}

static void
test_format(void **st)
{
	char	b[32];

	(void)st;
	ckpt_format(26000, CKPT_IOPS, b, sizeof(b));
	assert_string_equal(b, "26000");
	ckpt_format(327.68, CKPT_MBPS, b, sizeof(b));
	assert_string_equal(b, "327.7");
	ckpt_format(2621.44, CKPT_MBPS, b, sizeof(b));
	assert_string_equal(b, "2621");
	ckpt_format(NAN, CKPT_MBPS, b, sizeof(b));
	assert_string_equal(b, "-");
	ckpt_format(1e300, CKPT_IOPS, b, sizeof(b));
	assert_string_equal(b, "?");
	ckpt_format(-1, CKPT_IOPS, b, sizeof(b));
	assert_string_equal(b, "?");
	ckpt_tbw(0, b, sizeof(b));
	assert_string_equal(b, "0.00 GB");
	ckpt_tbw(4.02e8, b, sizeof(b));
	assert_string_equal(b, "0.40 GB");
	ckpt_tbw(2.3e11, b, sizeof(b));
	assert_string_equal(b, "230 GB");
	ckpt_tbw(1e12, b, sizeof(b));
	assert_string_equal(b, "1.00 TB");
	ckpt_tbw(1e13, b, sizeof(b));
	assert_string_equal(b, "10.0 TB");
	ckpt_tbw(2.5e14, b, sizeof(b));
	assert_string_equal(b, "250 TB");
	ckpt_tbw(1e300, b, sizeof(b));
	assert_string_equal(b, "? TB");
	assert_int_equal(ckpt_figure_parse("p99.9"), CKPT_P999);
	assert_int_equal(ckpt_figure_parse("mbps"), CKPT_MBPS);
	assert_int_equal(ckpt_figure_parse("cache"), CKPT_CACHE);
	assert_int_equal(ckpt_figure_parse("p99.99"), -1);
}

static void
test_flags(void **st)
{
	json_object	*a = parse("{\"flags\": [\"throughput\", \"latency\"]}");
	json_object	*b = parse("{\"flags\": []}");
	json_object	*c = parse("{\"flags\": [7, \"latency\"]}");
	char		 m[64];

	(void)st;
	ckpt_flag_mark(a, m, sizeof(m));
	assert_string_equal(m, "!throughput,latency");
	ckpt_flag_mark(b, m, sizeof(m));
	assert_string_equal(m, "");
	ckpt_flag_mark(c, m, sizeof(m));
	assert_string_equal(m, "!latency");
	ckpt_flag_mark(a, m, 5);		/* cut short, still a string */
	assert_string_equal(m, "!thr");
	json_object_put(a);
	json_object_put(b);
	json_object_put(c);
}

/* A line of probe `id` at checkpoint k: IOPS, or skipped. */
static void
add_line(json_object *arr, const char *id, int k, double iops, int skipped,
    const char *extra)
{
	char	buf[512];

	snprintf(buf, sizeof(buf), "{\"checkpoint\": %d, \"probe\": \"%s\", "
	    "\"host_bytes_written\": %d0000000000000, \"block_size\": 4096, "
	    "%s%s \"read_iops\": %g, \"write_iops\": 0}", k, id, k - 1,
	    skipped ? "\"skipped\": \"why\"," : "", extra, iops);
	json_object_array_add(arr, parse(buf));
}

static char *
table_text(json_object *arr, int latency)
{
	struct ckpt_grid	 g;
	char			*text = NULL;
	size_t			 len;
	FILE			*fp = open_memstream(&text, &len);

	assert_non_null(fp);
	assert_int_equal(ckpt_grid_build(arr, &g), 0);
	ckpt_table(fp, &g, latency);
	ckpt_grid_free(&g);
	fclose(fp);
	return text;
}

/* Rows in suite order whatever the file order; baseline and latest. */
static void
test_grid(void **st)
{
	json_object		*arr = json_object_new_array();
	struct ckpt_grid	 g;

	(void)st;
	add_line(arr, "rand-write-4k-qd32", 2, 900, 0,
	    "\"baseline\": 1, \"flags\": [\"throughput\"],");
	add_line(arr, "not-in-the-suite", 1, 5, 0, "");
	add_line(arr, "rand-write-4k-qd32", 1, 1000, 0, "");
	add_line(arr, "seq-read-128k-qd32", 1, 0, 1, "");
	add_line(arr, "seq-read-128k-qd32", 2, 0, 1, "");
	json_object_array_add(arr, parse("{\"probe\": \"x\"}"));  /* no number */
	assert_int_equal(ckpt_grid_build(arr, &g), 0);
	assert_int_equal(g.nrows, 3);
	assert_int_equal(g.ncols, 2);
	assert_string_equal(g.ids[0], "seq-read-128k-qd32");
	assert_string_equal(g.ids[1], "rand-write-4k-qd32");
	assert_string_equal(g.ids[2], "not-in-the-suite");
	assert_true(g.numbers[0] == 1 && g.numbers[1] == 2);
	assert_true(g.hbw[1] == 1e13);
	assert_int_equal(ckpt_baseline_col(&g, 1), 0);
	assert_int_equal(ckpt_latest_col(&g, 1), 1);
	assert_int_equal(ckpt_baseline_col(&g, 0), -1);	/* never ran */
	assert_int_equal(ckpt_latest_col(&g, 2), 0);
	assert_null(ckpt_cell(&g, 2, 1));
	ckpt_grid_free(&g);
	json_object_put(arr);
}

static int
has_line(const char *text, const char *a, const char *b)
{
	const char	*p = text;

	while ((p = strstr(p, a)) != NULL) {
		const char *eol = strchr(p, '\n');

		if (strstr(p, b) != NULL && (eol == NULL || strstr(p, b) < eol))
			return 1;
		p++;
	}
	return 0;
}

static void
test_table(void **st)
{
	json_object	*arr = json_object_new_array();
	char		*t;
	int		 k;

	(void)st;
	for (k = 1; k <= 8; k++) {
		add_line(arr, "rand-write-4k-qd32", k, k == 8 ? 700 : 1000, 0,
		    k == 8 ? "\"baseline\": 1, \"flags\": [\"throughput\"]," :
		    "");
		add_line(arr, "bs-sweep-rand-read-512", k, 0, 1, "");
	}
	t = table_text(arr, 0);
	/* the first, then the latest five */
	assert_non_null(strstr(t, "0.00 GB"));
	assert_null(strstr(t, "10.0 TB"));
	assert_null(strstr(t, "20.0 TB"));
	assert_non_null(strstr(t, "30.0 TB"));
	assert_non_null(strstr(t, "70.0 TB"));
	assert_non_null(strstr(t, "checkpoints 2 to 3 not shown"));
	assert_true(has_line(t, "rand-write-4k-qd32", "-30.0%  !throughput"));
	assert_true(has_line(t, "rand-write-4k-qd32", "IOPS"));
	assert_true(has_line(t, "bs-sweep-rand-read-512", "n/a"));
	free(t);
	t = table_text(arr, 1);
	assert_true(has_line(t, "rand-write-4k-qd32", "us p99.9"));
	free(t);
	json_object_put(arr);
}

/* A file with garbage, a line too long, a NUL, trailing junk, lines that
 * are JSON but no results: each skipped, the good ones kept in order. */
static void
test_read_hostile(void **st)
{
	char		 path[] = "/tmp/test_ckpt_views.XXXXXX";
	int		 fd = mkstemp(path);
	FILE		*fp;
	json_object	*arr = json_object_new_array();
	struct ckpt_skipped sk;
	size_t		 i;
	static const char nul[] = "{\"checkpoint\": 1,\0 \"probe\": \"f\"}\n";

	(void)st;
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	fprintf(fp, "{\"checkpoint\": 1, \"probe\": \"a\"}\n");
	fprintf(fp, "garbage {{{\n\n[1, 2]\n");
	fprintf(fp, "{\"checkpoint\": 1, \"probe\": \"b\"} junk\n");
	fprintf(fp, "{\"checkpoint\": 0, \"probe\": \"c\"}\n");
	fprintf(fp, "{\"checkpoint\": 99999999999999999999999, \"probe\": "
	    "\"d\"}\n");
	fprintf(fp, "{\"checkpoint\": 2, \"probe\": \"e\", \"read_iops\": "
	    "1e400}\n");
	fputs("{\"checkpoint\": 1, \"probe\": \"", fp);
	for (i = 0; i < 3 * CKPT_LINE_MAX; i++)
		fputc('x', fp);
	fputs("\"}\n", fp);
	fwrite(nul, 1, sizeof(nul) - 1, fp);
	fprintf(fp, "{\"checkpoint\": 3, \"probe\": \"g\"}");	/* no newline */
	fclose(fp);
	assert_int_equal(ckpt_read(path, arr, &sk), 0);
	assert_int_equal(json_object_array_length(arr), 3);
	assert_string_equal(json_object_get_string(json_object_object_get(
	    json_object_array_get_idx(arr, 1), "probe")), "e");
	assert_string_equal(json_object_get_string(json_object_object_get(
	    json_object_array_get_idx(arr, 2), "probe")), "g");
	assert_int_equal(sk.lines, 7);
	assert_int_equal(sk.first, 2);
	unlink(path);
	json_object_put(arr);
	arr = json_object_new_array();
	assert_int_equal(ckpt_read(path, arr, &sk), 0);	/* none yet */
	assert_int_equal(json_object_array_length(arr), 0);
	json_object_put(arr);
}

static char *
detail_text(const char *status)
{
	json_object	*d = parse(status);
	char		*text = NULL;
	size_t		 len;
	FILE		*fp = open_memstream(&text, &len);

	output_status_detail(fp, d);
	fclose(fp);
	json_object_put(d);
	return text;
}

static void
test_status(void **st)
{
	char	*t;

	(void)st;
	t = detail_text("{\"name\": \"d\", \"state\": \"running\", \"phase\": "
	    "\"checkpoint\", \"phase_progress\": 0.25, \"checkpoint\": "
	    "{\"number\": 3, \"step\": \"rand-read-4k-qd32\", \"index\": 14, "
	    "\"steps\": 63, \"pending\": false, \"next_at_bytes\": 0}}");
	assert_non_null(strstr(t, "checkpoint 3: rand-read-4k-qd32 (14/63)"));
	free(t);
	t = detail_text("{\"name\": \"d\", \"state\": \"running\", \"phase\": "
	    "\"write\", \"checkpoint\": {\"number\": 3, \"step\": \"\", "
	    "\"pending\": true}}");
	assert_non_null(strstr(t, "checkpoint due"));
	assert_non_null(strstr(t, "write"));
	free(t);
	t = detail_text("{\"name\": \"d\", \"state\": \"running\", \"phase\": "
	    "\"write\", \"phase_progress\": 0.5, \"checkpoint\": null}");
	assert_non_null(strstr(t, "phase:          write  50.0%"));
	assert_null(strstr(t, "checkpoint"));
	free(t);
}

/* A drive whose run has ended runs no checkpoint until started again:
 * none is "due", whatever the fields say (an older daemon's too). */
static void
test_status_ended(void **st)
{
	static const char *const states[] = { "finished", "failed" };
	char	*t, js[512];
	size_t	 i;

	(void)st;
	for (i = 0; i < 2; i++) {
		snprintf(js, sizeof(js), "{\"name\": \"d\", \"state\": \"%s\", "
		    "\"phase\": \"idle\", \"checkpoint\": {\"number\": 4, "
		    "\"step\": \"\", \"pending\": true, \"next_at_bytes\": "
		    "500000000000}}", states[i]);
		t = detail_text(js);
		assert_null(strstr(t, "due"));
		assert_null(strstr(t, "the next at"));
		assert_non_null(strstr(t, "checkpoints:    4 done (the run has "
		    "ended)"));
		free(t);
	}
}

/* The share of a rating written: a percentage a person reads, and past
 * 1000 % the multiple, never twelve digits of percent. */
static void
test_status_rated(void **st)
{
	char	*t, buf[64];

	(void)st;
	t = detail_text("{\"name\": \"d\", \"state\": \"finished\", "
	    "\"host_bytes_written\": 1775042560, \"rated_tbw_bytes\": 1}");
	assert_non_null(strstr(t, "rated:          1 B, written 1775042560 "
	    "times over"));
	assert_null(strstr(t, "%"));
	free(t);
	assert_string_equal(output_share(83.333, buf, sizeof(buf)), "83.3 %");
	assert_string_equal(output_share(999.94, buf, sizeof(buf)), "999.9 %");
	assert_string_equal(output_share(1000, buf, sizeof(buf)), "10.0 times");
	assert_string_equal(output_share(2345, buf, sizeof(buf)), "23.4 times");
	assert_string_equal(output_share(177504256000.0, buf, sizeof(buf)),
	    "1775042560 times");
	assert_string_equal(output_share(-1, buf, sizeof(buf)), "?");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headline),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_change),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_read_hostile),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_status_ended),
		cmocka_unit_test(test_status_rated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
