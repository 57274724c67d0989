/* tl_read.c: a drive's write-pass timeline files (tl_read.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "statedir.h"
#include "tl_read.h"

#define TL_PREFIX	"pass-"
#define TL_SUFFIX	".json"

int
tl_file_path(char *buf, size_t len, const char *drive_dir, uint64_t pass)
{
	char	dir[PATH_MAX];
	int	n;

	if (statedir_path(dir, sizeof(dir), drive_dir, STATEDIR_TIMELINES) == -1)
		return -1;
	n = snprintf(buf, len, "%s/" TL_PREFIX "%" PRIu64 TL_SUFFIX, dir,
	    pass);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Only the spelling tl_file_path makes: no sign, no leading zero. */
int
tl_file_pass(const char *name, uint64_t *pass)
{
	size_t	lp = strlen(TL_PREFIX);
	char	*end;

	if (strncmp(name, TL_PREFIX, lp) != 0 || name[lp] < '0' ||
	    name[lp] > '9' || (name[lp] == '0' && name[lp + 1] != '.'))
		return -1;
	errno = 0;
	*pass = strtoull(name + lp, &end, 10);
	return errno == 0 && strcmp(end, TL_SUFFIX) == 0 ? 0 : -1;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The passes that have a file, sorted; -1 with errno. */
static int
tl_list(const char *drive_dir, uint64_t **out, size_t *n)
{
	char		 dir[PATH_MAX];
	struct dirent	*de;
	DIR		*dp;
	uint64_t	*v = NULL, *nv, p;
	size_t		 cap = 0;

	*n = 0;
	if (statedir_path(dir, sizeof(dir), drive_dir, STATEDIR_TIMELINES) == -1)
		return errno = ENAMETOOLONG, -1;
	if ((dp = opendir(dir)) == NULL)
		return errno == ENOENT ? (*out = NULL, 0) : -1;
	while ((de = readdir(dp)) != NULL) {
		if (tl_file_pass(de->d_name, &p) == -1)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			if ((nv = realloc(v, cap * sizeof(*v))) == NULL) {
				free(v);
				closedir(dp);
				return -1;
			}
			v = nv;
		}
		v[(*n)++] = p;
	}
	closedir(dp);
	qsort(v, *n, sizeof(*v), cmp_u64);
	*out = v;
	return 0;
}

/* Is `o` a timeline as the daemon writes them? Its times whole numbers. */
static int
tl_sound(json_object *o, uint64_t pass)
{
	json_object	*v;
	size_t		 i;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "pass", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    (uint64_t)json_object_get_int64(v) != pass ||
	    !json_object_object_get_ex(o, "step_bytes", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    !json_object_object_get_ex(o, "t_us", &v) ||
	    !json_object_is_type(v, json_type_array))
		return 0;
	for (i = 0; i < json_object_array_length(v); i++)
		if (!json_object_is_type(json_object_array_get_idx(v, i),
		    json_type_int))
			return 0;
	return 1;
}

/*
 * Keep of the figures only what can be sent as JSON and was written as
 * a figure: numbers that are finite, strings, booleans (a damaged or
 * edited file may hold NaN, which no JSON reader takes, or anything).
 * -1 for a file with more such keys than it is worth sorting out.
 */
static int
tl_figures_only(json_object *o)
{
	json_object	*v;
	const char	*drop[64];
	size_t		 n = 0, i;

	json_object_object_foreach(o, key, val) {
		v = val;
		if (strcmp(key, "t_us") == 0)
			continue;
		if ((json_object_is_type(v, json_type_double) &&
		    !isfinite(json_object_get_double(v))) ||
		    json_object_is_type(v, json_type_object) ||
		    json_object_is_type(v, json_type_array) ||
		    json_object_is_type(v, json_type_null)) {
			if (n == sizeof(drop) / sizeof(drop[0]))
				return -1;
			drop[n++] = key;
		}
	}
	for (i = 0; i < n; i++)
		json_object_object_del(o, drop[i]);
	return 0;
}

/* Pass p's file, or NULL (missing, not a regular file, too large, not a
 * timeline). */
static json_object *
tl_load(const char *drive_dir, uint64_t p)
{
	char		 path[PATH_MAX + 64], *text;
	json_object	*o;

	if (tl_file_path(path, sizeof(path), drive_dir, p) == -1 ||
	    (text = statedir_slurp(path, TL_FILE_MAX)) == NULL)
		return NULL;
	o = json_tokener_parse(text);
	free(text);
	if (o != NULL && (!tl_sound(o, p) || tl_figures_only(o) == -1)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int
wanted(uint64_t p, const uint64_t *passes, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (passes[i] == p)
			return 1;
	return n == 0;
}

int
tl_read(const char *drive_dir, const uint64_t *passes, size_t n, int times,
    json_object *arr)
{
	uint64_t	*have;
	size_t		 nhave, i;
	json_object	*o;

	if (tl_list(drive_dir, &have, &nhave) == -1)
		return -1;
	for (i = 0; i < nhave; i++) {
		if (!wanted(have[i], passes, n) ||
		    (o = tl_load(drive_dir, have[i])) == NULL)
			continue;
		if (!times)
			json_object_object_del(o, "t_us");
		json_object_array_add(arr, o);
	}
	free(have);
	return 0;
}
