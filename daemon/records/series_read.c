/* series_read.c: a drive's long-test series files (series_read.h). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series_read.h"
#include "statedir.h"

#define SR_PREFIX	"ckpt-"
#define SR_SUFFIX	".json"
#define SR_FILES_MAX	16	/* series of one checkpoint, at most */

/* A step's word as names take it: lower-case letters and inner dashes. */
static int
word_ok(const char *w, size_t n)
{
	size_t	i;

	if (n == 0 || n >= SERIES_STEP_MAX || w[0] == '-' || w[n - 1] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!(w[i] >= 'a' && w[i] <= 'z') && w[i] != '-')
			return 0;
	return 1;
}

int
series_file_path(char *buf, size_t len, const char *drive_dir, uint64_t ckpt,
    const char *step)
{
	char	dir[PATH_MAX];
	int	n;

	if (!word_ok(step, strlen(step)) || statedir_path(dir, sizeof(dir),
	    drive_dir, STATEDIR_SERIES) == -1)
		return -1;
	n = snprintf(buf, len, "%s/" SR_PREFIX "%" PRIu64 "-%s" SR_SUFFIX, dir,
	    ckpt, step);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Only the spelling series_file_path makes: no sign, no leading zero. */
int
series_file_parse(const char *name, uint64_t *ckpt, char step[SERIES_STEP_MAX])
{
	size_t		 lp = strlen(SR_PREFIX), ls = strlen(SR_SUFFIX), n;
	char		*end;

	if (strncmp(name, SR_PREFIX, lp) != 0 || name[lp] < '1' ||
	    name[lp] > '9')
		return -1;
	errno = 0;
	*ckpt = strtoull(name + lp, &end, 10);
	if (errno != 0 || *end != '-' || (n = strlen(end + 1)) <= ls ||
	    strcmp(end + 1 + n - ls, SR_SUFFIX) != 0 ||
	    !word_ok(end + 1, n - ls))
		return -1;
	memcpy(step, end + 1, n - ls);
	step[n - ls] = '\0';
	return 0;
}

/* An array of `n` finite numbers at least 0 (nulls too when `nulls`). */
static int
numbers_ok(json_object *a, size_t n, int nulls)
{
	json_object	*v;
	size_t		 i;

	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != n)
		return 0;
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(a, i);
		if (v == NULL && nulls)
			continue;
		if (!(json_object_is_type(v, json_type_double) ||
		    json_object_is_type(v, json_type_int)) ||
		    !isfinite(json_object_get_double(v)) ||
		    json_object_get_double(v) < 0)
			return 0;
	}
	return 1;
}

/* Is `o` the series of checkpoint n's step, as the daemon writes them? */
static int
series_sound(json_object *o, uint64_t n, const char *step)
{
	json_object	*v, *iops;
	size_t		 len;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "checkpoint", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    (uint64_t)json_object_get_int64(v) != n ||
	    !json_object_object_get_ex(o, "step", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), step) != 0 ||
	    !json_object_object_get_ex(o, "iops", &iops) ||
	    !json_object_is_type(iops, json_type_array))
		return 0;
	len = json_object_array_length(iops);
	return numbers_ok(iops, len, 0) &&
	    json_object_object_get_ex(o, "bytes_per_sec", &v) &&
	    numbers_ok(v, len, 0) &&
	    json_object_object_get_ex(o, "p99_us", &v) && numbers_ok(v, len, 1);
}

/*
 * Of a sound series, only what the daemon writes and a reader may take:
 * its keys checked, the temperatures (optional) like the rest; nothing
 * else of the file reaches a reply.
 */
static json_object *
series_clean(json_object *o)
{
	static const char *const keys[] = { "checkpoint", "step", "iops",
	    "bytes_per_sec", "p99_us" };
	json_object	*c = json_object_new_object(), *v, *iops;
	size_t		 i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_object_object_add(c, keys[i], json_object_get(
		    json_object_object_get(o, keys[i])));
	iops = json_object_object_get(o, "iops");
	if (json_object_object_get_ex(o, "temperature_c", &v) &&
	    numbers_ok(v, json_object_array_length(iops), 1))
		json_object_object_add(c, "temperature_c", json_object_get(v));
	return c;
}

/* Checkpoint n's step, or NULL (missing, not a regular file, too large,
 * not a series). */
static json_object *
series_load(const char *drive_dir, uint64_t n, const char *step)
{
	char		 path[PATH_MAX + 64], *text;
	json_object	*o, *c = NULL;

	if (series_file_path(path, sizeof(path), drive_dir, n, step) == -1 ||
	    (text = statedir_slurp(path, SERIES_FILE_MAX)) == NULL)
		return NULL;
	o = json_tokener_parse(text);
	free(text);
	if (o != NULL && series_sound(o, n, step))
		c = series_clean(o);
	json_object_put(o);
	return c;
}

/* The steps of checkpoint `*ckpt` (0: the latest below `below` that has
 * a file, which it becomes), sorted; -1 with errno. */
static int
series_list(const char *drive_dir, uint64_t *ckpt, uint64_t below,
    char steps[SR_FILES_MAX][SERIES_STEP_MAX], size_t *n)
{
	char		 dir[PATH_MAX], w[SERIES_STEP_MAX];
	struct dirent	*de;
	DIR		*dp;
	uint64_t	 c, want = *ckpt;

	*n = 0;
	if (statedir_path(dir, sizeof(dir), drive_dir, STATEDIR_SERIES) == -1)
		return errno = ENAMETOOLONG, -1;
	if ((dp = opendir(dir)) == NULL)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(dp)) != NULL) {
		if (series_file_parse(de->d_name, &c, w) == -1 ||
		    (want != 0 && c != want) || c < *ckpt || c >= below)
			continue;
		if (c > *ckpt)	/* the latest wanted: a later one starts anew */
			*n = 0;
		*ckpt = c;
		if (*n < SR_FILES_MAX)
			memcpy(steps[(*n)++], w, sizeof(w));
	}
	closedir(dp);
	qsort(steps, *n, SERIES_STEP_MAX, (int (*)(const void *,
	    const void *))strcmp);
	return 0;
}

/*
 * Without a checkpoint asked for, the latest whose files are sound: a
 * damaged or foreign file of a later number hides nothing (at most
 * SR_TRIES numbers are tried, so that a directory of bad files costs
 * little).
 */
#define SR_TRIES	16

int
series_read(const char *drive_dir, uint64_t ckpt, json_object *arr)
{
	char		 steps[SR_FILES_MAX][SERIES_STEP_MAX];
	json_object	*o;
	uint64_t	 below = UINT64_MAX, c;
	size_t		 n, i, tries;

	for (tries = 0; tries < SR_TRIES; tries++) {
		c = ckpt;
		if (series_list(drive_dir, &c, below, steps, &n) == -1)
			return -1;
		for (i = 0; i < n; i++)
			if ((o = series_load(drive_dir, c, steps[i])) != NULL)
				json_object_array_add(arr, o);
		if (n == 0 || ckpt != 0 || json_object_array_length(arr) > 0)
			break;
		below = c;
	}
	return 0;
}
