/*
 * ckpt_read.h: read a drive's performance checkpoint results
 * (checkpoints.jsonl, one JSON object per probe per checkpoint) for the
 * Checkpoints method, ssdctl's views offline and the reports; and its SMART
 * snapshots (smart.jsonl, one reading per TBW milestone) for the Snapshots
 * method and the reports.
 *
 * The file is data a person may have edited or a disk may have damaged:
 * a line that is not a results object is skipped and counted, never
 * trusted, so that one bad line costs that line only.
 */
#ifndef SSDT_CKPT_READ_H
#define SSDT_CKPT_READ_H

#include <stddef.h>

#include <json-c/json.h>

/* The longest line taken: a probe's line is about 1 KiB. */
#define CKPT_LINE_MAX	(64 * 1024)

/* What reading skipped: how many lines, and the first one's number. */
struct ckpt_skipped {
	size_t	lines;
	size_t	first;		/* 1-based line number; 0: none */
	char	why[64];	/* of the first */
};

/*
 * Append each results line of `path` to `arr` as an object, in file
 * order. A line is taken when it is at most CKPT_LINE_MAX bytes and a
 * JSON object with an integer "checkpoint" from 1 and a string "probe";
 * any other is skipped and counted in `sk`. A missing file is no results
 * (0). -1 with errno when the file cannot be read.
 */
int	ckpt_read(const char *path, json_object *arr, struct ckpt_skipped *sk);

/*
 * The same reading, a line at a time (a file of years stays out of
 * memory): `fn` gets each line ckpt_read would take, in file order, and
 * may keep it with json_object_get.
 */
typedef void	ckpt_line_fn(json_object *line, void *arg);
int	ckpt_each(const char *path, ckpt_line_fn *fn, void *arg,
	    struct ckpt_skipped *sk);

/* Is `o` a results line as ckpt_read takes them? NULL, or why not. */
const char *ckpt_line_problem(json_object *o);

/*
 * Any file of JSON lines the same way, `problem` telling which lines are
 * taken (NULL) and why the others are not.
 */
typedef const char *jsonl_problem_fn(json_object *o);
int	jsonl_each(const char *path, jsonl_problem_fn *problem,
	    ckpt_line_fn *fn, void *arg, struct ckpt_skipped *sk);

/* A SMART snapshot line: an object with an integer "time", an integer
 * "host_bytes_written" from 0 and an object "smart". NULL, or why not. */
const char *snap_line_problem(json_object *o);
/* Every snapshot line of `path` (smart.jsonl), as ckpt_read does. */
int	snap_read(const char *path, json_object *arr, struct ckpt_skipped *sk);

#endif
