/*
 * series_read.h: the per-second series of a full checkpoint's long tests
 * (the degradation run, the recovery runs), STATE_DIR/NAME/series/
 * ckpt-N-STEP.json: their names, and reading them back for the Series
 * method and ssdctl (offline too). A file that is not a series as the
 * daemon writes them is skipped, never trusted.
 */
#ifndef SSDT_SERIES_READ_H
#define SSDT_SERIES_READ_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* The largest file taken: a day of seconds is about 2.5 MiB. */
#define SERIES_FILE_MAX	(8 * 1024 * 1024)
#define SERIES_STEP_MAX	32	/* bytes of a step's word, NUL included */

/* The file of checkpoint n's step in the drive directory; -1 when cut
 * short or the word is not one a file name takes. */
int	series_file_path(char *buf, size_t len, const char *drive_dir,
	    uint64_t ckpt, const char *step);
/* The checkpoint and step of a file name; -1 for another name. */
int	series_file_parse(const char *name, uint64_t *ckpt,
	    char step[SERIES_STEP_MAX]);

/*
 * Append the series of checkpoint `ckpt` (0: the latest that has any) to
 * `arr`, by step name. A missing directory is none (0); -1 with errno
 * when it cannot be read.
 */
int	series_read(const char *drive_dir, uint64_t ckpt, json_object *arr);

#endif
