/* test_config.c: the configuration file parser and its error messages. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf_priv.h"

/* One parse of a temporary file: its path, its errors, its result. */
struct run {
	char		 path[64];
	char		*err;		/* everything written to errf */
	size_t		 errlen;
	int		 n;		/* config_load's return value */
	struct config	 c;
};

static void
write_file(char *path, size_t len, const char *text, size_t textlen)
{
	FILE	*fp;
	int	 fd;

	snprintf(path, len, "/tmp/ssdt_conf_XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, textlen, fp), textlen);
	assert_int_equal(fclose(fp), 0);
}

/* A file of `len` bytes, which may hold NUL bytes. */
static void
run_conf_bytes(struct run *r, const char *text, size_t len)
{
	FILE	*errf;

	memset(r, 0, sizeof(*r));
	write_file(r->path, sizeof(r->path), text, len);
	errf = open_memstream(&r->err, &r->errlen);
	assert_non_null(errf);
	r->n = config_load(r->path, errf, &r->c);
	unlink(r->path);	/* gone even if an assertion fails later */
	assert_int_equal(fclose(errf), 0);
}

static void
run_conf(struct run *r, const char *text)
{
	run_conf_bytes(r, text, strlen(text));
}

static void
run_done(struct run *r)
{
	config_free(&r->c);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

static int
count_lines(const char *s)
{
	int	n = 0;

	for (; *s != '\0'; s++)
		n += *s == '\n';
	return n;
}

/* errf holds the line "PATH:LINE: msg". */
static void
assert_err(const struct run *r, int line, const char *msg)
{
	char	want[1024];

	snprintf(want, sizeof(want), "%s:%d: %s\n", r->path, line, msg);
	if (strstr(r->err, want) == NULL)
		fail_msg("expected error \"%.*s\" in:\n%s",
		    (int)strlen(want) - 1, want, r->err);
}

/* Exactly one error, "PATH:LINE: msg". */
static void
assert_one_err(const char *text, int line, const char *msg)
{
	struct run	r;

	run_conf(&r, text);
	if (r.n != 1 || count_lines(r.err) != 1)
		fail_msg("want 1 error, got %d:\n%s----\n%s", r.n, r.err, text);
	assert_err(&r, line, msg);
	run_done(&r);
}

/* A clean file: no error and nothing printed. */
static void
run_clean(struct run *r, const char *text)
{
	run_conf(r, text);
	if (r->n != 0)
		fail_msg("want no error, got %d:\n%s", r->n, r->err);
	assert_int_equal(r->errlen, 0);
}

static const char full_conf[] =
	"# ssdtortured.conf\n"
	"; another comment\n"
	"[daemon]\n"
	"state_dir = /var/tmp/ssdt-state\n"
	"socket = /run/ssdt-test.sock\n"
	"\n"
	"[drive:ssd0]\n"
	"device = /dev/disk/by-id/ata-TEST_SSD_S3Z9NB0K123456\n"
	"size = 8G\n"
	"serial = S3Z9NB0K123456\n"
	"span = 512M\n"
	"order = random\n"
	"block_size = 64k\n"
	"queue_depth = 16\n"
	"static_fraction = 10%\n"
	"trim = no\n"
	"idle = 1h30m\n"
	"cycles = 100\n"
	"stop_at_tbw = 1.2PB\n"
	"on_io_error = continue\n"
	"autostart = off\n"
	"\n"
	"[drive:file-1.x_Y]\n"
	"  device=/tmp/target.img\n"
	"span = 50%\n"
	"serial = none\n"
	"order = sequential\n"
	"on_io_error = stop\n"
	"static_fraction = 0.95\n";

static void
check_full_ssd0(const struct drive_conf *d)
{
	assert_non_null(d);
	assert_string_equal(d->name, "ssd0");
	assert_int_equal(d->line, 7);
	assert_string_equal(d->device,
	    "/dev/disk/by-id/ata-TEST_SSD_S3Z9NB0K123456");
	assert_int_equal(d->size, 8ULL << 30);
	assert_string_equal(d->serial, "S3Z9NB0K123456");
	assert_int_equal(d->span, 512ULL << 20);
	assert_int_equal(d->order_random, 1);
	assert_int_equal(d->block_size, 65536);
	assert_int_equal(d->queue_depth, 16);
	assert_float_equal(d->static_fraction, 0.10, 1e-12);
	assert_int_equal(d->trim, 0);
	assert_int_equal(d->idle_sec, 5400);
	assert_int_equal(d->cycles, 100);
	assert_int_equal(d->stop_at_tbw, 1200000000000000ULL);
	assert_int_equal(d->on_io_error, ON_ERROR_CONTINUE);
	assert_int_equal(d->autostart, 0);
}

static void
check_full_file(const struct drive_conf *d)
{
	assert_non_null(d);
	assert_string_equal(d->name, "file-1.x_Y");
	assert_int_equal(d->line, 23);
	assert_string_equal(d->device, "/tmp/target.img");
	assert_string_equal(d->serial, "none");
	assert_int_equal(d->span, 0);
	assert_float_equal(d->span_percent, 50.0, 1e-9);
	assert_int_equal(d->order_random, 0);
	assert_int_equal(d->on_io_error, ON_ERROR_STOP);
	assert_float_equal(d->static_fraction, 0.95, 1e-12);
}

static void
test_full_config(void **state)
{
	struct run	r;

	(void)state;
	run_clean(&r, full_conf);
	assert_string_equal(r.c.path, r.path);
	assert_string_equal(r.c.state_dir, "/var/tmp/ssdt-state");
	assert_string_equal(r.c.socket, "/run/ssdt-test.sock");
	assert_int_equal(r.c.ndrives, 2);
	check_full_ssd0(&r.c.drives[0]);
	check_full_file(&r.c.drives[1]);
	assert_ptr_equal(config_find(&r.c, "ssd0"), &r.c.drives[0]);
	assert_ptr_equal(config_find(&r.c, "file-1.x_Y"), &r.c.drives[1]);
	assert_null(config_find(&r.c, "ssd1"));
	assert_null(config_find(&r.c, "SSD0"));
	run_done(&r);
}

/*
 * A drive's copy owns every string of its section: it outlives the parsed
 * configuration (a reload frees that), and releasing it frees them all
 * (under ASan, a string left shared is a use after free, one not freed a
 * leak).
 */
static void
test_drive_copy(void **state)
{
	struct run		r;
	struct drive_conf	copy;

	(void)state;
	run_clean(&r, "[drive:d]\ndevice = /dev/sdz\nserial = S1\n"
	    "checkpoint_probes = rand, desktop\n");
	assert_int_equal(config_drive_copy(&copy, &r.c.drives[0]), 0);
	assert_ptr_not_equal(copy.device, r.c.drives[0].device);
	assert_ptr_not_equal(copy.serial, r.c.drives[0].serial);
	assert_ptr_not_equal(copy.checkpoint_probes,
	    r.c.drives[0].checkpoint_probes);
	run_done(&r);
	assert_string_equal(copy.device, "/dev/sdz");
	assert_string_equal(copy.serial, "S1");
	assert_string_equal(copy.checkpoint_probes, "rand, desktop");
	config_drive_release(&copy);
	assert_null(copy.device);
	assert_null(copy.checkpoint_probes);
}

/* ':' is inih's other delimiter; a key line may use it. */
static void
test_colon_delimiter(void **state)
{
	struct run	r;

	(void)state;
	run_clean(&r, "[drive:a]\ndevice: /dev/sda\ncycles: 7\n");
	assert_string_equal(r.c.drives[0].device, "/dev/sda");
	assert_int_equal(r.c.drives[0].cycles, 7);
	run_done(&r);
}

static void
check_defaults(const struct drive_conf *d)
{
	assert_null(d->serial);
	assert_int_equal(d->size, 0);
	assert_int_equal(d->span, 0);
	assert_float_equal(d->span_percent, 100.0, 0.0);
	assert_int_equal(d->order_random, 0);
	assert_int_equal(d->block_size, 128 * 1024);
	assert_int_equal(d->queue_depth, 32);
	assert_float_equal(d->static_fraction, 0.25, 0.0);
	assert_int_equal(d->trim, 1);
	assert_int_equal(d->idle_sec, 0);
	assert_int_equal(d->cycles, 0);
	assert_int_equal(d->stop_at_tbw, 0);
	assert_int_equal(d->on_io_error, ON_ERROR_STOP);
	assert_int_equal(d->autostart, 1);
}

static void
test_defaults(void **state)
{
	struct run	r;

	(void)state;
	run_clean(&r, "\n[drive:d]\ndevice = /dev/sdq\n");
	assert_string_equal(r.c.state_dir, "/var/lib/ssdtorture");
	assert_string_equal(r.c.socket, "/run/ssdtorture/ssdtortured.sock");
	assert_int_equal(r.c.ndrives, 1);
	assert_string_equal(r.c.drives[0].name, "d");
	assert_int_equal(r.c.drives[0].line, 2);
	assert_string_equal(r.c.drives[0].device, "/dev/sdq");
	check_defaults(&r.c.drives[0]);
	assert_int_equal(config_span_bytes(&r.c.drives[0], 1ULL << 40),
	    1ULL << 40);
	run_done(&r);
}

static void
test_empty_file(void **state)
{
	struct run	r;

	(void)state;
	run_clean(&r, "");
	assert_int_equal(r.c.ndrives, 0);
	assert_null(r.c.drives);
	assert_string_equal(r.c.state_dir, "/var/lib/ssdtorture");
	run_done(&r);
}

static void
test_missing_file(void **state)
{
	struct config	c;
	char		*buf = NULL;
	size_t		 len = 0;
	FILE		*errf;

	(void)state;
	errf = open_memstream(&buf, &len);
	assert_non_null(errf);
	assert_true(config_load("/nonexistent/ssdt.conf", errf, &c) > 0);
	fclose(errf);
	assert_string_equal(buf,
	    "/nonexistent/ssdt.conf: No such file or directory\n");
	assert_int_equal(c.ndrives, 0);
	config_free(&c);
	free(buf);
}

struct bad_value {
	const char	*line;
	const char	*msg;
};

/* Each bad drive value, on line 3 of its file, and its message. */
static const struct bad_value bad_values[] = {
	{ "size = abc", "size: 'abc' is not a size (e.g. 1G, 512M)" },
	{ "size = 0", "size: '0': must be above 0; to leave it unset, leave "
	    "the key out (or comment it out)" },
	{ "serial =", "serial: empty (use 'none' for devices that report "
	    "no serial)" },
	{ "span = 0%", "span: '0%': must be above 0; for the default (100%), "
	    "leave the key out" },
	{ "span = 150%", "span: '150%' is not a percentage in (0%, 100%]" },
	{ "span = x%", "span: 'x%' is not a percentage in (0%, 100%]" },
	{ "span = lots", "span: 'lots' is neither a size nor a percentage" },
	{ "span = 0", "span: '0': must be above 0; for the default (100%), "
	    "leave the key out" },
	{ "order = shuffled", "order: 'shuffled': expected sequential or "
	    "random" },
	{ "block_size = big", "block_size: 'big' is not a size" },
	{ "block_size = 1000", "block_size: 1000: must be a multiple of 512 "
	    "between 512 and 1M" },
	{ "block_size = 256", "block_size: 256: must be a multiple of 512 "
	    "between 512 and 1M" },
	{ "block_size = 2M", "block_size: 2M: must be a multiple of 512 "
	    "between 512 and 1M" },
	{ "queue_depth = 0", "queue_depth: '0': expected 1 to 1024" },
	{ "queue_depth = 1025", "queue_depth: '1025': expected 1 to 1024" },
	{ "queue_depth = 8x", "queue_depth: '8x': expected 1 to 1024" },
	{ "static_fraction = 0.96", "static_fraction: '0.96': expected 0 to "
	    "0.95 (or 0% to 95%)" },
	{ "static_fraction = 96%", "static_fraction: '96%': expected 0 to "
	    "0.95 (or 0% to 95%)" },
	{ "static_fraction = -1", "static_fraction: '-1': expected 0 to "
	    "0.95 (or 0% to 95%)" },
	{ "trim = maybe", "trim: 'maybe': expected yes or no" },
	{ "idle = 5x", "idle: '5x' is not a duration (e.g. 30s, 5m, 1h)" },
	{ "cycles = -1", "cycles: '-1': expected a count (0 = forever)" },
	{ "cycles = 1.5", "cycles: '1.5': expected a count (0 = forever)" },
	{ "cycles = many", "cycles: 'many': expected a count (0 = forever)" },
	{ "stop_at_tbw = 1TiB", "stop_at_tbw: '1TiB' is not a decimal byte "
	    "count (e.g. 600TB, 1.2PB)" },
	{ "on_io_error = ignore", "on_io_error: 'ignore': expected stop or "
	    "continue" },
	{ "autostart = perhaps", "autostart: 'perhaps': expected yes or no" },
	{ "checkpoint = long", "checkpoint: 'long': expected off, quick or "
	    "full" },
	{ "full_checkpoint_tests = degrade,soak", "full_checkpoint_tests: "
	    "'soak': expected all or words of degrade, recovery, trim, cache, "
	    "full90, thermal" },
	{ "full_checkpoint_tests = ,", "full_checkpoint_tests: ',': expected "
	    "all or words of degrade, recovery, trim, cache, full90, "
	    "thermal" },
	{ "degrade_duration = 0s", "degrade_duration: '0s': expected a "
	    "duration of at least 1s" },
	{ "checkpoint_every = 10TiB", "checkpoint_every: '10TiB' is not a "
	    "decimal byte count (e.g. 10TB, 500GB)" },
	{ "checkpoint_region = 1K", "checkpoint_region: '1K' is not a size "
	    "(e.g. 32G, 1G)" },
	{ "probe_seconds = 0s", "probe_seconds: '0s': expected a duration of "
	    "at least 1s" },
	{ "probe_seconds = 2d", "probe_seconds: '2d': expected a duration of "
	    "at most 1d" },
	{ "probe_ramp = 2h", "probe_ramp: '2h': expected a duration of at "
	    "most 1h" },
	{ "checkpoint_probes = rand-read-4k-qd1, qd64",
	    "checkpoint_probes: 'qd64' is no probe id, family or pattern of "
	    "one (see ssdctl probes)" },
	{ "checkpoint_probes = ,", "checkpoint_probes: no probe named" },
	{ "colour = blue", "unknown key 'colour' in [drive:x]" },
	{ "device = /dev/sdx", "duplicate key 'device'" },
	{ "key without equals sign", "syntax error: expected 'key = value'" },
};

static void
test_bad_drive_values(void **state)
{
	char	text[512];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++) {
		snprintf(text, sizeof(text),
		    "[drive:x]\ndevice = /dev/sdx\n%s\n# end\n",
		    bad_values[i].line);
		assert_one_err(text, 3, bad_values[i].msg);
	}
}

/*
 * One rule for zero: a key takes 0 only where its description gives 0 a
 * meaning (cycles, power_cut_every, max_bad_fraction, the durations...).
 * A byte amount, a rating or a wear limit of 0 is refused, saying how to
 * have none or the default, instead of being taken silently as unset.
 */
static const struct bad_value zero_values[] = {
	{ "stop_at_tbw = 0", "stop_at_tbw: '0': must be above 0; to leave it "
	    "unset, leave the key out (or comment it out)" },
	{ "stop_at_tbw = 0TB", "stop_at_tbw: '0TB': must be above 0; to leave "
	    "it unset, leave the key out (or comment it out)" },
	{ "rated_tbw = 0", "rated_tbw: '0': must be above 0; to leave it "
	    "unset, leave the key out (or comment it out)" },
	{ "rated_tbw = 0.0PB", "rated_tbw: '0.0PB': must be above 0; to leave "
	    "it unset, leave the key out (or comment it out)" },
	{ "stop_at_wear = 0", "stop_at_wear: '0': must be above 0; to leave "
	    "it unset, leave the key out (or comment it out)" },
	{ "stop_at_wear = 0%", "stop_at_wear: '0%': must be above 0; to leave "
	    "it unset, leave the key out (or comment it out)" },
	{ "snapshot_every = 0", "snapshot_every: '0': must be above 0; for "
	    "the default (1TB), leave the key out" },
	{ "checkpoint_every = 0GB", "checkpoint_every: '0GB': must be above "
	    "0; for the default (10TB), leave the key out" },
	{ "full_checkpoint_every = 0", "full_checkpoint_every: '0': must be "
	    "above 0; for the default (100TB), leave the key out" },
};

static void
test_zero_refused(void **state)
{
	char	text[512];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(zero_values) / sizeof(zero_values[0]); i++) {
		snprintf(text, sizeof(text),
		    "[drive:x]\ndevice = /dev/sdx\n%s\n# end\n",
		    zero_values[i].line);
		assert_one_err(text, 3, zero_values[i].msg);
	}
}

/* Where the description gives 0 a meaning, 0 is taken as that. */
static void
test_zero_meant(void **state)
{
	struct run	r;

	(void)state;
	run_clean(&r, "[drive:x]\ndevice = /dev/sdx\ncycles = 0\n"
	    "power_cut_every = 0\nmax_bad_fraction = 0\nidle = 0s\n"
	    "probe_ramp = 0s\ngc_idle = 0s\nmax_new_bad_blocks = 0\n"
	    "max_error_events = 0\nstatic_fraction = 0\n");
	assert_int_equal(r.c.drives[0].cycles, 0);
	assert_int_equal(r.c.drives[0].power_cut_every, 0);
	assert_float_equal(r.c.drives[0].max_bad_fraction, 0.0, 0.0);
	assert_int_equal(r.c.drives[0].max_new_bad_blocks, 0);
	assert_int_equal(r.c.drives[0].max_error_events, 0);
	run_done(&r);
}

static void
test_bad_device(void **state)
{
	struct run	r;

	(void)state;
	/* the drive is then left without a device: reported too */
	run_conf(&r, "[drive:x]\n\ndevice = dev/sdx\n");
	assert_int_equal(r.n, 2);
	assert_int_equal(count_lines(r.err), 2);
	assert_err(&r, 3, "device: an absolute path is required");
	assert_err(&r, 1, "[drive:x]: 'device' is required");
	assert_null(r.c.drives[0].device);
	run_done(&r);
	/* a good device first, a bad one is a duplicate key */
	assert_one_err("[drive:x]\ndevice = /dev/a\ndevice = b\n", 3,
	    "duplicate key 'device'");
}

static void
test_bad_daemon_keys(void **state)
{
	(void)state;
	assert_one_err("[daemon]\nstate_dir = var/lib\n", 2,
	    "state_dir: an absolute path is required");
	assert_one_err("[daemon]\nsocket = x.sock\n", 2,
	    "socket: an absolute path is required");
	assert_one_err("[daemon]\n\n\nfoo = 1\n", 4,
	    "unknown key 'foo' in [daemon]");
	assert_one_err("[daemon]\nsocket = /a\nsocket = /b\n", 3,
	    "duplicate key 'socket'");
}

static void
test_sections(void **state)
{
	(void)state;
	assert_one_err("[bogus]\nfoo = bar\n", 1, "unknown section [bogus]");
	assert_one_err("\n[drive]\ndevice = /dev/a\n", 2,
	    "unknown section [drive]");
	assert_one_err("[daemon\nsocket = /s\n", 1,
	    "syntax error: unterminated section header");
	assert_one_err("# c\ndevice = /dev/sda\n[drive:a]\ndevice = /dev/b\n",
	    2, "key outside of any section");
	assert_one_err("orphan line\n[drive:a]\ndevice = /dev/b\n", 1,
	    "syntax error: expected 'key = value'");
}

static void
test_drive_names(void **state)
{
	char	text[256], name[80];

	(void)state;
	assert_one_err("[drive:a/b]\ndevice = /dev/x\n", 1,
	    "invalid drive name 'a/b' (letters, digits, '_', '-', '.'; "
	    "at most 63)");
	assert_one_err("[drive:.hidden]\ndevice = /dev/x\n", 1,
	    "invalid drive name '.hidden' (letters, digits, '_', '-', '.'; "
	    "at most 63)");
	assert_one_err("\n[drive:]\ndevice = /dev/x\n", 2,
	    "invalid drive name '' (letters, digits, '_', '-', '.'; "
	    "at most 63)");
	memset(name, 'n', 64);
	name[64] = '\0';
	snprintf(text, sizeof(text), "[drive:%s]\ndevice = /dev/x\n", name);
	assert_one_err(text, 1, "invalid drive name 'nnnnnnnnnnnnnnnnnnnnnnnn"
	    "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn' (letters, digits, '_', "
	    "'-', '.'; at most 63)");
}

static void
test_name_63_chars_ok(void **state)
{
	struct run	r;
	char		text[256], name[80];

	(void)state;
	memset(name, 'a', 63);
	name[63] = '\0';
	snprintf(text, sizeof(text), "[drive:%s]\ndevice = /dev/x\n", name);
	run_clean(&r, text);
	assert_string_equal(r.c.drives[0].name, name);
	run_done(&r);
}

static void
test_duplicate_drive(void **state)
{
	struct run	r;

	(void)state;
	run_conf(&r, "[drive:a]\ndevice = /dev/sda\n\n[drive:a]\n"
	    "device = /dev/sdb\ncycles = bad\n");
	/* the second section is ignored as a whole */
	assert_int_equal(r.n, 1);
	assert_int_equal(count_lines(r.err), 1);
	assert_err(&r, 4, "drive 'a' already defined at line 1");
	assert_int_equal(r.c.ndrives, 1);
	assert_string_equal(r.c.drives[0].device, "/dev/sda");
	run_done(&r);
}

static void
test_missing_device(void **state)
{
	(void)state;
	assert_one_err("[daemon]\n\n[drive:nodev]\ncycles = 3\n", 3,
	    "[drive:nodev]: 'device' is required");
}

static void
test_same_device(void **state)
{
	(void)state;
	assert_one_err("[drive:a]\ndevice = /dev/sdz\n[drive:b]\n"
	    "device = /dev/sdz\n", 3,
	    "[drive:b]: device /dev/sdz is already used by drive 'a'");
}

static void
test_span_multiple(void **state)
{
	struct run	r;

	(void)state;
	assert_one_err("[drive:x]\ndevice = /dev/x\nspan = 1000000\n", 1,
	    "[drive:x]: span is not a multiple of block_size");
	assert_one_err("[drive:x]\ndevice = /dev/x\nblock_size = 4k\n"
	    "size = 10000\n", 1,
	    "[drive:x]: size is not a multiple of block_size");
	run_clean(&r, "[drive:x]\ndevice = /dev/x\nblock_size = 4k\n"
	    "span = 12k\n");
	assert_int_equal(r.c.drives[0].span, 12288);
	run_done(&r);
	/* the recovery after a degradation run, without the run */
	assert_one_err("[drive:x]\ndevice = /dev/x\n"
	    "full_checkpoint_tests = recovery, trim\n", 1,
	    "[drive:x]: full_checkpoint_tests: recovery needs degrade");
	run_clean(&r, "[drive:x]\ndevice = /dev/x\n"
	    "full_checkpoint_tests = recovery degrade\n");
	assert_int_equal(r.c.drives[0].full_checkpoint_tests,
	    (1u << LP_RECOVERY) | (1u << LP_DEGRADE));
	run_done(&r);
}

static void
test_span_percent_vs_size(void **state)
{
	struct run	r;

	(void)state;
	run_clean(&r, "[drive:p]\ndevice = /dev/p\nspan = 50%\n"
	    "[drive:s]\ndevice = /dev/s\nspan = 10G\n");
	assert_int_equal(r.c.drives[0].span, 0);
	assert_float_equal(r.c.drives[0].span_percent, 50.0, 1e-9);
	assert_int_equal(config_span_bytes(&r.c.drives[0], 100ULL << 30),
	    50ULL << 30);
	assert_int_equal(r.c.drives[1].span, 10ULL << 30);
	assert_int_equal(config_span_bytes(&r.c.drives[1], 100ULL << 30),
	    10ULL << 30);
	assert_int_equal(config_span_bytes(&r.c.drives[1], 1ULL << 40),
	    10ULL << 30);
	run_done(&r);
}

/* Every problem is reported, each with its own line. */
static void
test_all_errors_reported(void **state)
{
	struct run	r;

	(void)state;
	run_conf(&r, "[drive:x]\ndevice = /dev/x\ntrim = sometimes\n"
	    "cycles = -3\n\norder = upside-down\n");
	assert_int_equal(r.n, 3);
	assert_int_equal(count_lines(r.err), 3);
	assert_err(&r, 3, "trim: 'sometimes': expected yes or no");
	assert_err(&r, 4, "cycles: '-3': expected a count (0 = forever)");
	assert_err(&r, 6, "order: 'upside-down': expected sequential or "
	    "random");
	run_done(&r);
}

static void
test_many_errors_mixed(void **state)
{
	struct run	r;

	(void)state;
	run_conf(&r, "top = 1\n[nope]\nx = 1\n[daemon]\nsocket = rel\n"
	    "[drive:a]\ndevice = /dev/a\nqueue_depth = 0\n[drive:b]\n"
	    "device = /dev/a\n");
	assert_int_equal(r.n, 5);
	assert_int_equal(count_lines(r.err), 5);
	assert_err(&r, 1, "key outside of any section");
	assert_err(&r, 2, "unknown section [nope]");
	assert_err(&r, 5, "socket: an absolute path is required");
	assert_err(&r, 8, "queue_depth: '0': expected 1 to 1024");
	assert_err(&r, 9, "[drive:b]: device /dev/a is already used by "
	    "drive 'a'");
	run_done(&r);
}

/* The count is returned even with nowhere to print. */
static void
test_null_errf(void **state)
{
	static const char text[] = "[drive:a]\ntrim = x\nidle = y\n";
	struct config	c;
	char		path[64];

	(void)state;
	write_file(path, sizeof(path), text, sizeof(text) - 1);
	assert_int_equal(config_load(path, NULL, &c), 3);
	unlink(path);
	config_free(&c);
}

/* A line over 1024 bytes is an error; line numbers stay right after it. */
static void
test_line_too_long(void **state)
{
	struct run	r;
	char		*text, *p;

	(void)state;
	text = malloc(4096);
	assert_non_null(text);
	p = text + sprintf(text, "[drive:x]\ndevice = /dev/x\n# ");
	memset(p, 'z', 2000);
	strcpy(p + 2000, "\ncycles = q\n");
	run_conf(&r, text);
	assert_int_equal(r.n, 2);
	assert_err(&r, 3, "line too long (more than 1024 bytes)");
	assert_err(&r, 4, "cycles: 'q': expected a count (0 = forever)");
	run_done(&r);
	free(text);
}

/*
 * A line of 200 to 1024 bytes is within LINE_MAX_LEN, so it must be taken
 * whole (or reported); it must never be cut silently.
 */
static void
test_long_line_not_truncated(void **state)
{
	struct run	r;
	char		text[1024], dev[400];
	size_t		got;
	int		cut;

	(void)state;
	memset(dev, 'd', sizeof(dev));
	memcpy(dev, "/dev/disk/by-id/", 16);
	dev[300] = '\0';
	snprintf(text, sizeof(text), "[drive:x]\ndevice = %s\n", dev);
	run_conf(&r, text);
	got = r.n == 0 ? strlen(r.c.drives[0].device) : 0;
	cut = r.n == 0 && strcmp(r.c.drives[0].device, dev) != 0;
	run_done(&r);
	if (cut)
		fail_msg("a %zu-byte device path was silently cut to %zu "
		    "bytes", strlen(dev), got);
}

/*
 * A NUL byte (a binary file, a corrupted copy) is reported at its line,
 * and the lines after it are read as they are: found by fuzz_config (a
 * line starting with NUL made the reader look at the byte before its
 * buffer; one with NUL inside was reported as too long and the next line
 * swallowed).
 */
static void
test_nul_byte(void **state)
{
	static const char at_start[] = "[drive:x]\ndevice = /dev/x\n"
	    "\0junk\ncycles = q\n";
	static const char inside[] = "[drive:x]\ndevice = /dev/x\0junk\n"
	    "cycles = q\n";
	struct run	r;

	(void)state;
	run_conf_bytes(&r, at_start, sizeof(at_start) - 1);
	assert_int_equal(r.n, 2);
	assert_err(&r, 3, "NUL byte in the line");
	assert_err(&r, 4, "cycles: 'q': expected a count (0 = forever)");
	run_done(&r);
	run_conf_bytes(&r, inside, sizeof(inside) - 1);
	assert_err(&r, 2, "NUL byte in the line");
	assert_err(&r, 3, "cycles: 'q': expected a count (0 = forever)");
	assert_int_equal(r.n, 3);	/* and device is missing */
	run_done(&r);
}

/* inih takes "; comment" after a value; a section header should too. */
static void
test_section_inline_comment(void **state)
{
	struct run	r;
	char		msg[512];
	int		ok;

	(void)state;
	run_conf(&r, "[drive:a] ; the test SSD\ndevice = /dev/sda ; sata\n");
	ok = r.n == 0 && r.c.ndrives == 1 &&
	    strcmp(r.c.drives[0].device, "/dev/sda") == 0;
	snprintf(msg, sizeof(msg), "%s", r.err);
	run_done(&r);
	if (!ok)
		fail_msg("section header with an inline comment: %s", msg);
}

/* The one key table: each entry complete and consistent. */
static void
test_key_table(void **state)
{
	const struct conf_key	*k, *j;
	int			 n = 0;

	(void)state;
	for (k = conf_keys; k->name != NULL; k++, n++) {
		assert_true(k->sec == CONF_DAEMON || k->sec == CONF_DRIVE);
		assert_non_null(k->kind);
		assert_non_null(k->kind->parse);
		assert_non_null(k->kind->show);
		assert_non_null(k->kind->cmp);
		assert_true(k->size == 4 || k->size == 8);
		if (k->size == 4 && k->max > UINT32_MAX)
			fail_msg("%s: bound beyond its field", k->name);
		for (j = conf_keys; j != k; j++)
			if (j->sec == k->sec && strcmp(j->name, k->name) == 0)
				fail_msg("%s: twice in its section", k->name);
		/* a drive's reload applies every key it does not refuse;
		 * a [daemon] key defines nothing on a drive */
		if (k->sec == CONF_DRIVE)
			assert_true(k->reload == CONF_LIVE ||
			    k->reload == CONF_FIXED ||
			    k->reload == CONF_NO_RAISE);
		else
			assert_true(k->reload == CONF_LIVE ||
			    k->reload == CONF_RESTART);
		assert_ptr_equal(conf_key_find(k->sec, k->name), k);
	}
	assert_true(n >= 20);
}

/* A file with one key set to `value` (and a drive's required device). */
static void
run_key(struct run *r, const struct conf_key *k, const char *value)
{
	char	text[512];

	if (k->sec == CONF_DAEMON)
		snprintf(text, sizeof(text), "[daemon]\n%s = %s\n", k->name,
		    value);
	else if (strcmp(k->name, "device") == 0)
		snprintf(text, sizeof(text), "[drive:d]\ndevice = %s\n", value);
	else if (strcmp(k->name, "power_cut_command") == 0)
		snprintf(text, sizeof(text), "[drive:d]\ndevice = /dev/sdq\n"
		    "%s = %s\n", k->name, value);
	else	/* the keys that need another (power_cut_every) have it */
		snprintf(text, sizeof(text), "[drive:d]\ndevice = /dev/sdq\n"
		    "power_cut_command = /bin/true\n%s = %s\n", k->name,
		    value);
	run_conf(r, text);
}

static const void *
key_base(const struct run *r, const struct conf_key *k)
{
	return k->sec == CONF_DAEMON ? (const void *)&r->c :
	    (const void *)&r->c.drives[0];
}

/*
 * Each default parses cleanly (so lies within the key's bounds) to the
 * value a file that leaves the key out gets; a key without one is not set.
 */
static void
test_key_defaults(void **state)
{
	const struct conf_key	*k;
	struct run		 unset, set;
	char			 v[256];

	(void)state;
	run_clean(&unset, "[drive:d]\ndevice = /dev/sdq\n");
	for (k = conf_keys; k->name != NULL; k++) {
		if (k->def == NULL) {
			config_key_show(k, key_base(&unset, k), v, sizeof(v));
			if (strcmp(k->name, "device") != 0 && v[0] != '\0')
				fail_msg("%s: no default, yet '%s'", k->name, v);
			continue;
		}
		run_key(&set, k, k->def);
		if (set.n != 0)
			fail_msg("%s: default '%s': %s", k->name, k->def,
			    set.err);
		if (config_key_cmp(k, key_base(&set, k),
		    key_base(&unset, k)) != 0)
			fail_msg("%s: not its default when left out", k->name);
		run_done(&set);
	}
	run_done(&unset);
}

/* Parse `value` for `k`: 1 when accepted. */
static int
accepts(const struct conf_key *k, const char *value)
{
	struct run	r;
	int		ok;

	run_key(&r, k, value);
	ok = r.n == 0;
	run_done(&r);
	return ok;
}

/* The bounds of the table are what the parser enforces. */
static void
test_key_bounds(void **state)
{
	const struct conf_key	*k;
	char			 v[64];

	(void)state;
	for (k = conf_keys; k->name != NULL; k++) {
		if (k->max != 0 && k->max != UINT64_MAX) {
			snprintf(v, sizeof(v), "%llu", (unsigned long long)k->max);
			if (!accepts(k, v))
				fail_msg("%s: its max %s refused", k->name, v);
			snprintf(v, sizeof(v), "%llu",
			    (unsigned long long)k->max + 1);
			if (accepts(k, v))
				fail_msg("%s: %s above max taken", k->name, v);
		}
		if (k->min > 0) {
			snprintf(v, sizeof(v), "%llu",
			    (unsigned long long)k->min - 1);
			if (accepts(k, v))
				fail_msg("%s: %s below min taken", k->name, v);
		}
		if (k->fmax > 0) {
			snprintf(v, sizeof(v), "%.17g", k->fmax);
			if (!accepts(k, v))
				fail_msg("%s: its max %s refused", k->name, v);
			snprintf(v, sizeof(v), "%.17g", k->fmax + 0.01);
			if (accepts(k, v))
				fail_msg("%s: %s above max taken", k->name, v);
		}
	}
}

/* A drive under test reloaded from `from` to `to`: what is refused. */
static void
assert_fixed(const char *from, const char *to, const char *want)
{
	struct run	a, b;
	char		buf[256];
	const char	*got;

	run_clean(&a, from);
	run_clean(&b, to);
	got = config_drive_fixed(&a.c.drives[0], &b.c.drives[0], buf,
	    sizeof(buf));
	if (want == NULL && got != NULL)
		fail_msg("refused: %s", got);
	if (want != NULL && (got == NULL || strcmp(got, want) != 0))
		fail_msg("want '%s' refused, got '%s'", want, got ? got : "");
	run_done(&a);
	run_done(&b);
}

/* One key of each policy of a drive's. */
static void
test_reload_drive(void **state)
{
	static const char base[] = "[drive:d]\ndevice = /dev/sdq\n";

	(void)state;
	assert_fixed("[drive:d]\ndevice = /dev/sdq\ncycles = 1\n",
	    "[drive:d]\ndevice = /dev/sdq\ncycles = 5\n", NULL);
	assert_fixed(base, "[drive:d]\ndevice = /dev/sdq\nblock_size = 8k\n",
	    "block_size");
	assert_fixed(base, "[drive:d]\ndevice = /dev/sdq\nqueue_depth = 8\n",
	    NULL);
	assert_fixed(base, "[drive:d]\ndevice = /dev/sdq\nqueue_depth = 64\n",
	    "queue_depth (only a decrease applies without restart)");
	assert_fixed(base, "[drive:d]\ndevice = /dev/sdr\nspan = 50%\n"
	    "trim = no\n", "device, span");
}

/* [daemon]: a restart key is kept and named, a live one moves over. */
static void
test_reload_daemon(void **state)
{
	struct run	a, b;
	char		buf[256];

	(void)state;
	run_clean(&a, "[daemon]\nsocket = /run/a.sock\nmax_connections = 5\n"
	    "admin_group = root\n");
	run_clean(&b, "[daemon]\nsocket = /run/b.sock\nmax_connections = 9\n"
	    "client_timeout = 1m\n");
	assert_string_equal(config_daemon_reload(&a.c, &b.c, buf,
	    sizeof(buf)), "socket");
	assert_string_equal(a.c.socket, "/run/a.sock");
	assert_int_equal(a.c.max_connections, 9);
	assert_int_equal(a.c.client_timeout, 60);
	assert_null(a.c.admin_group);
	assert_string_equal(b.c.admin_group, "root");	/* freed with b */
	assert_null(config_daemon_reload(&a.c, &a.c, buf, sizeof(buf)));
	run_done(&a);
	run_done(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_config),
		cmocka_unit_test(test_drive_copy),
		cmocka_unit_test(test_colon_delimiter),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_empty_file),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_bad_drive_values),
		cmocka_unit_test(test_zero_refused),
		cmocka_unit_test(test_zero_meant),
		cmocka_unit_test(test_bad_device),
		cmocka_unit_test(test_bad_daemon_keys),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_drive_names),
		cmocka_unit_test(test_name_63_chars_ok),
		cmocka_unit_test(test_duplicate_drive),
		cmocka_unit_test(test_missing_device),
		cmocka_unit_test(test_same_device),
		cmocka_unit_test(test_span_multiple),
		cmocka_unit_test(test_span_percent_vs_size),
		cmocka_unit_test(test_all_errors_reported),
		cmocka_unit_test(test_many_errors_mixed),
		cmocka_unit_test(test_null_errf),
		cmocka_unit_test(test_line_too_long),
		cmocka_unit_test(test_long_line_not_truncated),
		cmocka_unit_test(test_section_inline_comment),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_key_table),
		cmocka_unit_test(test_key_defaults),
		cmocka_unit_test(test_key_bounds),
		cmocka_unit_test(test_reload_drive),
		cmocka_unit_test(test_reload_daemon),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
