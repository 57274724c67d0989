/*
 * fuzz_state.c: libFuzzer target for the state file loader. The input is
 * a state file given to state_load(). Beyond crashes and leaks: a failed
 * load says why; a state that loads saves with state_save() to a file
 * that loads again to the same state and saves to the same bytes (what a
 * restart does to the state of every drive).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "state.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);
int	LLVMFuzzerInitialize(int *, char ***);

#define check(cond)	do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, \
	    __LINE__, #cond); abort(); } } while (0)

static char	dir[256], saved[288];

static void
cleanup(void)
{
	unlink(saved);
	rmdir(dir);
}

/* Saves go to a directory in tmpfs: state_save() fsyncs each one. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_scratch(dir, sizeof(dir), "fuzz_state");
	snprintf(saved, sizeof(saved), "%s/state", dir);
	atexit(cleanup);
	return 0;
}

/* The whole saved file. */
static char *
slurp(const char *path, size_t *len)
{
	FILE	*fp;
	char	*buf;
	long	 n;

	if ((fp = fopen(path, "r")) == NULL || fseek(fp, 0, SEEK_END) != 0 ||
	    (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0)
		abort();
	if ((buf = malloc((size_t)n + 1)) == NULL ||
	    fread(buf, 1, (size_t)n, fp) != (size_t)n)
		abort();
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* A text field as the saver writes it: control characters become spaces. */
static void
check_text(const char *loaded, const char *reloaded)
{
	for (; *loaded != '\0'; loaded++, reloaded++)
		check(*reloaded == ((unsigned char)*loaded < 0x20 ? ' ' :
		    *loaded));
	check(*reloaded == '\0');
}

/* The lost list's slots past its end: what an extent removed from the
 * list left behind, never read; a reload leaves them zero. */
static void
clear_unused(struct dstate *s)
{
	memset(&s->lost.v[s->lost.n], 0,
	    (LOST_MAX - s->lost.n) * sizeof(s->lost.v[0]));
}

/* A text field of both (every F_STR of state.c's table) compared as
 * text, then left out of the byte comparison. */
#define SAME_TEXT(f)	do { check_text(a->f, b->f); \
	memset(x.f, 0, sizeof(x.f)); memset(y.f, 0, sizeof(y.f)); } while (0)

/* The same state: its text fields as text, the rest byte for byte. */
static void
check_same(const struct dstate *a, const struct dstate *b)
{
	struct dstate	x, y;

	memcpy(&x, a, sizeof(x));
	memcpy(&y, b, sizeof(y));
	clear_unused(&x);
	clear_unused(&y);
	SAME_TEXT(device);
	SAME_TEXT(serial);
	SAME_TEXT(boot_id);
	SAME_TEXT(reason);
	check(memcmp(&x, &y, sizeof(x)) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dstate	s, s2;
	char			path[64], err[256], *first, *second;
	size_t			len1, len2;

	fuzz_file(data, size, path, sizeof(path));
	memset(err, 0, sizeof(err));
	if (state_load(path, &s, err, sizeof(err)) == -1) {
		check(errno == EINVAL && err[0] != '\0');
		return 0;
	}
	check(state_save(saved, &s) == 0);
	first = slurp(saved, &len1);
	check(state_load(saved, &s2, err, sizeof(err)) == 0);
	check_same(&s, &s2);
	check(state_save(saved, &s2) == 0);
	second = slurp(saved, &len2);
	check(len1 == len2 && memcmp(first, second, len1) == 0);
	free(first);
	free(second);
	return 0;
}
