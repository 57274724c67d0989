/* test_state.c: the per-drive state file, saved and loaded. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state.h"

/* A temporary directory and the state file in it. */
struct tmp {
	char	dir[64];
	char	path[128];
};

static int
setup_dir(void **state)
{
	struct tmp	*t = calloc(1, sizeof(*t));

	if (t == NULL)
		return -1;
	snprintf(t->dir, sizeof(t->dir), "/tmp/ssdt_state_XXXXXX");
	if (mkdtemp(t->dir) == NULL) {
		free(t);
		return -1;
	}
	snprintf(t->path, sizeof(t->path), "%s/state", t->dir);
	*state = t;
	return 0;
}

static int
teardown_dir(void **state)
{
	struct tmp	*t = *state;
	struct dirent	*de;
	char		 p[512];
	DIR		*d;

	if ((d = opendir(t->dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", t->dir, de->d_name);
			unlink(p);
		}
		closedir(d);
	}
	rmdir(t->dir);
	free(t);
	return 0;
}

/* Every field set to something other than zero and other than its neighbours. */
static void
fill(struct dstate *s)
{
	int	i;

	memset(s, 0, sizeof(*s));
	s->instance = 0xfedcba9876543210ULL;
	snprintf(s->device, sizeof(s->device), "/dev/disk/by-id/nvme-TEST_1");
	snprintf(s->serial, sizeof(s->serial), "S4EWNX0R123456");
	s->lay.block_size = 131072;
	s->lay.span_bytes = 512ULL << 30;
	s->lay.nblocks = (512ULL << 30) / 131072;
	s->lay.static_blocks = 1024;
	s->run = RUN_FAILED;
	s->prog.instance = 0;	/* not persisted: the caller sets it */
	s->prog.phase = PHASE_TRIM;
	s->prog.cycle = 77;
	s->prog.position = 1234;
	s->prog.written = 4095;
	s->prog.trimmed_bytes = 99ULL << 20;
	s->prog.static_done = 1;
	s->prog.prev_trimmed = 1;
	s->prog.pass_random = 1;
	s->host_bytes_written = 600000000000000ULL;
	s->host_bytes_read = 12345678901234ULL;
	s->host_bytes_trimmed = 9876543210ULL;
	s->write_ops = 1111111;
	s->read_ops = 2222222;
	for (i = 1; i < BLK_NCLASS; i++)
		s->errors[i] = 100 + (uint64_t)i;
	s->verify_passes = 76;
	s->cycles_done = 76;
	s->events_bytes = 65537;
	s->created = 1700000000;
	s->updated = 1700086400;
	s->idle_until_ms = 1700090000;
	s->failed_at_tbw = UINT64_MAX;
	s->final_verify = 1;
	snprintf(s->reason, sizeof(s->reason),
	    "verify:  3 corrupt blocks at cycle 77 (first at 0x1000) ");
}

/* Everything the file holds, field by field. */
static void
assert_same(const struct dstate *a, const struct dstate *b)
{
	int	i;

	assert_int_equal(a->instance, b->instance);
	assert_string_equal(a->device, b->device);
	assert_string_equal(a->serial, b->serial);
	assert_memory_equal(&a->lay, &b->lay, sizeof(a->lay));
	assert_int_equal(a->run, b->run);
	assert_int_equal(a->prog.phase, b->prog.phase);
	assert_int_equal(a->prog.cycle, b->prog.cycle);
	assert_int_equal(a->prog.position, b->prog.position);
	assert_int_equal(a->prog.written, b->prog.written);
	assert_int_equal(a->prog.trimmed_bytes, b->prog.trimmed_bytes);
	assert_int_equal(a->prog.static_done, b->prog.static_done);
	assert_int_equal(a->prog.prev_trimmed, b->prog.prev_trimmed);
	assert_int_equal(a->prog.pass_random, b->prog.pass_random);
	assert_int_equal(a->host_bytes_written, b->host_bytes_written);
	assert_int_equal(a->host_bytes_read, b->host_bytes_read);
	assert_int_equal(a->host_bytes_trimmed, b->host_bytes_trimmed);
	assert_int_equal(a->write_ops, b->write_ops);
	assert_int_equal(a->read_ops, b->read_ops);
	for (i = 0; i < BLK_NCLASS; i++)
		assert_int_equal(a->errors[i], b->errors[i]);
	assert_int_equal(a->verify_passes, b->verify_passes);
	assert_int_equal(a->cycles_done, b->cycles_done);
	assert_int_equal(a->events_bytes, b->events_bytes);
	assert_int_equal(a->created, b->created);
	assert_int_equal(a->updated, b->updated);
	assert_int_equal(a->idle_until_ms, b->idle_until_ms);
	assert_int_equal(a->failed_at_tbw, b->failed_at_tbw);
	assert_int_equal(a->final_verify, b->final_verify);
	assert_string_equal(a->reason, b->reason);
}

static void
save_load(const struct tmp *t, const struct dstate *in, struct dstate *out)
{
	char	err[256] = "";

	assert_int_equal(state_save(t->path, in), 0);
	memset(out, 0xee, sizeof(*out));
	if (state_load(t->path, out, err, sizeof(err)) != 0)
		fail_msg("state_load: %s", err);
}

static void
test_round_trip(void **state)
{
	struct tmp	*t = *state;
	struct dstate	 in, out;

	fill(&in);
	save_load(t, &in, &out);
	assert_same(&in, &out);
}

/* Every run state and phase survives, and zero/empty values too. */
static void
test_round_trip_variants(void **state)
{
	struct tmp	*t = *state;
	struct dstate	 in, out;
	int		 i;

	for (i = 0; i <= RUN_FAILED; i++) {
		fill(&in);
		in.run = (enum run_state)i;
		in.prog.phase = (enum phase)(i % (PHASE_NONE + 1));
		in.serial[0] = '\0';
		in.reason[0] = '\0';
		in.prog.static_done = 0;
		save_load(t, &in, &out);
		assert_same(&in, &out);
	}
	in.prog.phase = PHASE_NONE;
	save_load(t, &in, &out);
	assert_int_equal(out.prog.phase, PHASE_NONE);
}

/* A reason as long as the buffer allows. */
static void
test_long_strings(void **state)
{
	struct tmp	*t = *state;
	struct dstate	 in, out;

	fill(&in);
	memset(in.reason, 'r', sizeof(in.reason) - 1);
	in.reason[sizeof(in.reason) - 1] = '\0';
	memset(in.serial, 's', sizeof(in.serial) - 1);
	in.serial[sizeof(in.serial) - 1] = '\0';
	in.device[0] = '/';
	memset(in.device + 1, 'd', sizeof(in.device) - 2);
	in.device[sizeof(in.device) - 1] = '\0';
	save_load(t, &in, &out);
	assert_same(&in, &out);
}

static void
test_no_tmp_left(void **state)
{
	struct tmp	*t = *state;
	struct dstate	 in, out;
	struct stat	 st;
	char		 tmp[160];
	int		 i;

	fill(&in);
	for (i = 0; i < 3; i++) {
		in.prog.position = (uint64_t)i;
		save_load(t, &in, &out);
		assert_int_equal(out.prog.position, i);
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", t->path);
	assert_int_equal(stat(tmp, &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(stat(t->path, &st), 0);
}

/* The old file is replaced by rename: a new inode, old readers unharmed. */
static void
test_atomic_replace(void **state)
{
	struct tmp	*t = *state;
	struct dstate	 in;
	struct stat	 a, b;
	FILE		*old;
	char		 line[64];

	fill(&in);
	assert_int_equal(state_save(t->path, &in), 0);
	assert_int_equal(stat(t->path, &a), 0);
	old = fopen(t->path, "r");
	assert_non_null(old);
	in.instance = 42;
	assert_int_equal(state_save(t->path, &in), 0);
	assert_int_equal(stat(t->path, &b), 0);
	assert_int_not_equal(a.st_ino, b.st_ino);
	/* the old file is still whole */
	assert_non_null(fgets(line, sizeof(line), old));
	assert_string_equal(line, "version 1\n");
	assert_non_null(fgets(line, sizeof(line), old));
	assert_string_equal(line, "instance 18364758544493064720\n");
	fclose(old);
}

static void
test_save_fails_in_missing_dir(void **state)
{
	struct dstate	in;

	(void)state;
	fill(&in);
	assert_int_equal(state_save("/nonexistent-dir/x/state", &in), -1);
	assert_int_equal(errno, ENOENT);
}

static void
test_load_missing(void **state)
{
	struct tmp	*t = *state;
	struct dstate	 s;
	char		 err[128];

	errno = 0;
	assert_int_equal(state_load(t->path, &s, err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, strerror(ENOENT));
}

static void
write_text(const char *path, const char *text, size_t len)
{
	FILE	*fp = fopen(path, "w");

	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

static void
expect_load_fails(const struct tmp *t, const char *text, size_t len)
{
	struct dstate	s;
	char		err[256] = "";

	write_text(t->path, text, len);
	errno = 0;
	if (state_load(t->path, &s, err, sizeof(err)) != -1)
		fail_msg("accepted:\n%.*s", (int)len, text);
	assert_int_equal(errno, EINVAL);
	assert_true(err[0] != '\0');
}

static void
load_fails(const struct tmp *t, const char *text)
{
	expect_load_fails(t, text, strlen(text));
}

static void
test_load_garbage(void **state)
{
	static const unsigned char bin[] = {
		0x7f, 'E', 'L', 'F', 0, 0, 0xff, 0x12, '\n', 0x80, 0x81, ' ',
	};
	struct tmp	*t = *state;

	load_fails(t, "");
	expect_load_fails(t, (const char *)bin, sizeof(bin));
	load_fails(t, "hello world\nthis is not a state file\n");
	load_fails(t, "version 2\ninstance 5\n");
	load_fails(t, "version 1\ninstance x5\n");
	load_fails(t, "instance 5\ncycle -1\n");
	load_fails(t, "instance 5\nphase writing\n");
	load_fails(t, "instance 5\nrun dead\n");
	load_fails(t, "instance 5\nstatic_done 2\n");
	load_fails(t, "instance 5\nfinal_verify -1\n");
	load_fails(t, "instance 5\nblock_size 4294967296\n");
	load_fails(t, "instance 5\ncycle 18446744073709551616\n");
}

/* A file cut anywhere must not load as if it were whole. */
static void
test_load_truncated(void **state)
{
	struct tmp	*t = *state;
	struct dstate	 in, out;
	struct stat	 st;
	char		 err[256], tail[32], *buf, *p;
	FILE		*fp;
	off_t		 cut, bad = -1;

	fill(&in);
	assert_int_equal(state_save(t->path, &in), 0);
	assert_int_equal(stat(t->path, &st), 0);
	buf = malloc((size_t)st.st_size);
	assert_non_null(buf);
	fp = fopen(t->path, "r");
	assert_non_null(fp);
	assert_int_equal(fread(buf, 1, (size_t)st.st_size, fp), st.st_size);
	fclose(fp);
	for (cut = 0; cut < st.st_size - 1 && bad < 0; cut++) {
		write_text(t->path, buf, (size_t)cut);
		if (state_load(t->path, &out, err, sizeof(err)) == 0)
			bad = cut;
	}
	if (bad >= 0)
		snprintf(tail, sizeof(tail), "%.*s", (int)(bad < 24 ? bad : 24),
		    buf + (bad < 24 ? 0 : bad - 24));
	for (p = tail; *p != '\0'; p++)
		if (*p == '\n')
			*p = '|';
	free(buf);
	if (bad >= 0)
		fail_msg("a state file cut to %lld of %lld bytes loads; it "
		    "ends with \"%s\" ('|' = newline), instance %llu", (long long)bad,
		    (long long)st.st_size, tail,
		    (unsigned long long)out.instance);
}

static void
test_unknown_keys_ignored(void **state)
{
	static const char text[] =
	    "version 1\n"
	    "future_key some value here\n"
	    "instance 77\n"
	    "errors.new_class 9\n"
	    "cycle 3\n"
	    "\n"
	    "x\n"
	    "reason all good\n"
	    "end\n";
	struct tmp	*t = *state;
	struct dstate	 s;
	char		 err[256] = "";

	write_text(t->path, text, sizeof(text) - 1);
	if (state_load(t->path, &s, err, sizeof(err)) != 0)
		fail_msg("state_load: %s", err);
	assert_int_equal(s.instance, 77);
	assert_int_equal(s.prog.cycle, 3);
	assert_string_equal(s.reason, "all good");
	assert_int_equal(s.prog.position, 0);
}

/* Each verify class's count is saved as "errors." and the name the
 * events give the class (block.c), which the tests and readers of the
 * file rely on: a class added to one list and not the other fails. */
static void
test_error_keys(void **state)
{
	struct tmp	*t = *state;
	struct dstate	 in;
	char		 text[16384], want[64];
	FILE		*fp;
	size_t		 n;
	int		 i;

	fill(&in);
	assert_int_equal(state_save(t->path, &in), 0);
	assert_non_null(fp = fopen(t->path, "r"));
	n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	assert_true(n > 0 && n < sizeof(text) - 1);
	text[n] = '\0';
	for (i = 1; i < BLK_NCLASS; i++) {
		snprintf(want, sizeof(want), "\nerrors.%s %llu\n",
		    blk_class_name((enum blk_class)i),
		    (unsigned long long)in.errors[i]);
		if (strstr(text, want) == NULL)
			fail_msg("no line \"%.*s\" in the state file",
			    (int)strlen(want) - 2, want + 1);
	}
}

static void
test_run_state_names(void **state)
{
	int	r;

	(void)state;
	for (r = RUN_RUNNING; r <= RUN_FAILED; r++)
		assert_int_equal(run_state_from_name(run_state_name(r)), r);
	assert_string_equal(run_state_name(RUN_PAUSED), "paused");
	assert_string_equal(run_state_name((enum run_state)9), "unknown");
	assert_int_equal(run_state_from_name("unknown"), -1);
}

/* The blocks found lost: merged, replaced, forgotten, bounded. */
static void
test_lost_list(void **state)
{
	static struct lost_list	l;
	uint32_t		i;

	(void)state;
	memset(&l, 0, sizeof(l));
	lost_add(&l, 100, 2, 1);
	lost_add(&l, 102, 3, 1);	/* continues it */
	lost_add(&l, 98, 2, 1);		/* goes on into it */
	assert_int_equal(l.n, 1);
	assert_int_equal(l.v[0].start, 98);
	assert_int_equal(l.v[0].len, 7);
	assert_true(lost_has(&l, 98, 1) && lost_has(&l, 104, 1));
	assert_false(lost_has(&l, 105, 1) || lost_has(&l, 97, 1));
	assert_false(lost_has(&l, 100, 2));	/* lost holding another */
	lost_add(&l, 101, 1, 2);	/* written again, lost again */
	assert_int_equal(l.n, 3);
	assert_true(lost_has(&l, 101, 2) && !lost_has(&l, 101, 1));
	assert_true(lost_has(&l, 100, 1) && lost_has(&l, 102, 1));
	lost_forget(&l, 99, 4);		/* a write-back over 99..102 */
	assert_int_equal(l.n, 2);
	assert_true(lost_has(&l, 98, 1) && lost_has(&l, 103, 1));
	assert_false(lost_has(&l, 99, 1) || lost_has(&l, 101, 2));
	assert_int_equal(l.unlisted, 0);
	/* full: one more extent is counted, not listed */
	memset(&l, 0, sizeof(l));
	for (i = 0; i < LOST_MAX; i++)
		lost_add(&l, 10 * (uint64_t)i, 1, 3);
	assert_int_equal(l.n, LOST_MAX);
	lost_add(&l, 5, 4, 3);
	assert_int_equal(l.unlisted, 4);
	assert_false(lost_has(&l, 5, 3));
	lost_add(&l, 11, 2, 3);		/* joins one listed: no room needed */
	assert_true(lost_has(&l, 12, 3));
	assert_int_equal(l.unlisted, 4);
	lost_forget(&l, 21, 1);		/* nothing there */
	lost_forget(&l, 11, 1);		/* a split, no room for the tail */
	assert_true(lost_has(&l, 10, 3) && !lost_has(&l, 11, 3));
	assert_int_equal(l.unlisted, 5);
}

/* The lost list and a cut's device size survive a save; a state written
 * before them reads as none. */
static void
test_lost_round_trip(void **state)
{
	static const char old[] =
	    "version 1\n"
	    "instance 5\n"
	    "power.checked_cycle 2\n"
	    "power.checked_item 18446744073709551615\n"
	    "power.cut_pending 1\n"
	    "end\n";
	struct tmp	*t = *state;
	static struct dstate in, out;
	char		 err[256] = "";

	fill(&in);
	lost_add(&in.lost, 23975, 1, 1);
	lost_add(&in.lost, 5, 3, 0);
	in.lost.unlisted = 7;
	in.cut_capacity = 268435456;
	in.cut_position = 20917;
	in.cut_refused = 1;
	save_load(t, &in, &out);
	assert_same(&in, &out);
	assert_int_equal(out.lost.n, 2);
	assert_memory_equal(out.lost.v, in.lost.v, 2 * sizeof(in.lost.v[0]));
	assert_int_equal(out.lost.unlisted, 7);
	assert_int_equal(out.cut_capacity, 268435456);
	assert_int_equal(out.cut_position, 20917);
	assert_int_equal(out.cut_refused, 1);
	write_text(t->path, old, sizeof(old) - 1);
	if (state_load(t->path, &out, err, sizeof(err)) != 0)
		fail_msg("state_load: %s", err);
	assert_int_equal(out.lost.n, 0);
	assert_int_equal(out.cut_capacity, 0);
	assert_int_equal(out.cut_refused, 0);
	assert_int_equal(out.cut_pending, 1);
	write_text(t->path, "version 1\ninstance 5\npower.lost 1 0 1\nend\n",
	    42);
	assert_int_equal(state_load(t->path, &out, err, sizeof(err)), -1);
}

#define T(f)	cmocka_unit_test_setup_teardown(f, setup_dir, teardown_dir)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_round_trip),
		T(test_round_trip_variants),
		T(test_long_strings),
		T(test_no_tmp_left),
		T(test_atomic_replace),
		T(test_save_fails_in_missing_dir),
		T(test_load_missing),
		T(test_load_garbage),
		T(test_load_truncated),
		T(test_unknown_keys_ignored),
		T(test_error_keys),
		T(test_run_state_names),
		T(test_lost_list),
		T(test_lost_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
