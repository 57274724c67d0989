/* ckpt_read.c: a drive's checkpoint results and SMART snapshots files,
 * line by line. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ckpt_read.h"

const char *
ckpt_line_problem(json_object *o)
{
	json_object	*v;

	if (!json_object_is_type(o, json_type_object))
		return "not a JSON object";
	if (!json_object_object_get_ex(o, "checkpoint", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 1 ||
	    json_object_get_int64(v) == INT64_MAX)	/* json-c's clamp */
		return "no checkpoint number";
	if (!json_object_object_get_ex(o, "probe", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    json_object_get_string_len(v) == 0)
		return "no probe id";
	return NULL;
}

/* A SMART snapshot line (drive_smart.c): the time and TBW it was taken at
 * and the reading. */
const char *
snap_line_problem(json_object *o)
{
	json_object	*v;

	if (!json_object_is_type(o, json_type_object))
		return "not a JSON object";
	if (!json_object_object_get_ex(o, "time", &v) ||
	    !json_object_is_type(v, json_type_int))
		return "no time";
	if (!json_object_object_get_ex(o, "host_bytes_written", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return "no host_bytes_written";
	if (!json_object_object_get_ex(o, "smart", &v) ||
	    !json_object_is_type(v, json_type_object))
		return "no reading";
	return NULL;
}

static void
skip(struct ckpt_skipped *sk, size_t line, const char *why)
{
	if (sk->lines++ == 0) {
		sk->first = line;
		snprintf(sk->why, sizeof(sk->why), "%s", why);
	}
}

/* One line (its newline removed): handed to `fn`, or counted as skipped. */
static void
take(const char *text, size_t len, size_t line, jsonl_problem_fn *problem,
    ckpt_line_fn *fn, void *arg, struct ckpt_skipped *sk)
{
	json_tokener	*tok;
	json_object	*o;
	const char	*why;

	if (len == 0)
		return;			/* a blank line says nothing */
	if (len > CKPT_LINE_MAX || strlen(text) != len) {
		skip(sk, line, len > CKPT_LINE_MAX ? "line too long" :
		    "a NUL byte");
		return;
	}
	if ((tok = json_tokener_new()) == NULL) {
		skip(sk, line, "out of memory");
		return;
	}
	o = json_tokener_parse_ex(tok, text, (int)len);
	/* the whole line is one value: "{...} junk" is no results line */
	if (o == NULL || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != len)
		why = "not JSON";
	else
		why = problem(o);
	json_tokener_free(tok);
	if (why != NULL) {
		json_object_put(o);
		skip(sk, line, why);
		return;
	}
	fn(o, arg);
	json_object_put(o);
}

/*
 * The next line into buf (at most CKPT_LINE_MAX bytes kept, its newline
 * dropped); its whole length in *len. 0 at the end of the file.
 */
static int
next_line(FILE *fp, char *buf, size_t *len)
{
	int	c, any = 0;

	*len = 0;
	while ((c = getc_unlocked(fp)) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		if (*len < CKPT_LINE_MAX + 1)
			buf[*len] = (char)c;
		(*len)++;
	}
	buf[*len < CKPT_LINE_MAX + 1 ? *len : CKPT_LINE_MAX + 1] = '\0';
	return any;
}

/*
 * The file for reading, only when it is a regular file: opened without
 * following a link and without waiting (a FIFO or a device in a copied
 * state directory is never read), then blocking again. NULL with errno.
 */
static FILE *
open_regular(const char *path)
{
	struct stat	 st;
	FILE		*fp = NULL;
	int		 fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd == -1)
		return NULL;
	if (fstat(fd, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			errno = EINVAL;
		else if (fcntl(fd, F_SETFL, 0) == 0 &&
		    (fp = fdopen(fd, "r")) != NULL)
			return fp;
	}
	err = errno;
	close(fd);
	errno = err;
	return NULL;
}

int
jsonl_each(const char *path, jsonl_problem_fn *problem, ckpt_line_fn *fn,
    void *arg, struct ckpt_skipped *sk)
{
	FILE	*fp;
	char	*buf;
	size_t	 len, line = 0;
	int	 err;

	memset(sk, 0, sizeof(*sk));
	if ((fp = open_regular(path)) == NULL)
		return errno == ENOENT ? 0 : -1;
	if ((buf = malloc(CKPT_LINE_MAX + 2)) == NULL) {
		fclose(fp);
		return -1;
	}
	while (next_line(fp, buf, &len))
		take(buf, len, ++line, problem, fn, arg, sk);
	err = ferror(fp) ? errno : 0;
	free(buf);
	fclose(fp);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

static void
append(json_object *line, void *arr)
{
	json_object_array_add(arr, json_object_get(line));
}

int
ckpt_each(const char *path, ckpt_line_fn *fn, void *arg,
    struct ckpt_skipped *sk)
{
	return jsonl_each(path, ckpt_line_problem, fn, arg, sk);
}

int
ckpt_read(const char *path, json_object *arr, struct ckpt_skipped *sk)
{
	return jsonl_each(path, ckpt_line_problem, append, arr, sk);
}

int
snap_read(const char *path, json_object *arr, struct ckpt_skipped *sk)
{
	return jsonl_each(path, snap_line_problem, append, arr, sk);
}
