/*
 * tl_read.h: the write passes' timeline files of a drive,
 * STATE_DIR/NAME/timelines/pass-N.json (N the cycle; 0 the static fill):
 * their names, and reading them back for the Timelines method and ssdctl
 * (offline too). A file that is not a timeline object is skipped, never
 * trusted.
 */
#ifndef SSDT_TL_READ_H
#define SSDT_TL_READ_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* The largest file taken: a timeline of 2001 times is about 25 KiB. */
#define TL_FILE_MAX	(256 * 1024)

/* The file of pass n in the drive directory; -1 when cut short. */
int	tl_file_path(char *buf, size_t len, const char *drive_dir,
	    uint64_t pass);
/* The pass of a file name of that directory; -1 for another name. */
int	tl_file_pass(const char *name, uint64_t *pass);

/*
 * Append the timelines of the drive directory to `arr`, by pass: those of
 * `passes` (n of them; those missing are not there), or all when n is 0.
 * `times`: with their t_us, else without (the figures alone). A missing
 * directory is none (0); -1 with errno when it cannot be read.
 */
int	tl_read(const char *drive_dir, const uint64_t *passes, size_t n,
	    int times, json_object *arr);

#endif
