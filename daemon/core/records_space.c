/*
 * records_space.c: at start, the state directory's free space against
 * what the drives' records will take (their archives, events and SMART
 * snapshots), and a warning when it will not last a month. The daemon's
 * (main.c), once for all drives: no feature of a drive's.
 */
#include <stdio.h>
#include <sys/statvfs.h>

#include "drive_priv.h"
#include "log.h"
#include "rrd_layout.h"
#include "units.h"

/*
 * The start-up estimate. Its figures, and what they count: a drive at up
 * to RATE_MAX (an upper bound, so an overestimate of cycles), per cycle
 * EVENTS_PER_CYCLE events of EVENT_BYTES (phase starts and ends, cycle
 * end), a snapshot of SNAPSHOT_BYTES in smart.jsonl every snapshot_every
 * bytes written. Verify errors are not counted: they are what the run is
 * for, and how many there will be is not known.
 */
#define RATE_MAX		3e9	/* bytes/s */
#define EVENTS_PER_CYCLE	12
#define EVENT_BYTES		512
#define SNAPSHOT_BYTES		2048
#define MONTH_DAYS		30

uint64_t
records_archive_bytes(void)
{
	static const char *const rras[] = RRD_RRAS;
	uint64_t	rows = 0;
	unsigned	n;
	size_t		i;

	for (i = 0; i < sizeof(rras) / sizeof(rras[0]); i++)
		if (sscanf(rras[i], "RRA:%%s:%*[^:]:%*u:%u", &n) == 1)
			rows += n;
	/* AVERAGE, MIN and MAX of every source, 8 bytes a value */
	return rows * 3 * RRD_NDS * 8;
}

/* Bytes of records one drive adds a day, by the figures above. */
static double
drive_bytes_per_day(const struct drive *d)
{
	double	span = (double)d->st.lay.span_bytes, cycle, cycles;

	if (span == 0)
		return 0;	/* refused: it writes nothing */
	/* a cycle writes the dynamic area and reads the whole span */
	cycle = (double)d->conf.idle_sec + 2 * span / RATE_MAX;
	cycles = 86400 / (cycle < 1 ? 1 : cycle);
	return cycles * EVENTS_PER_CYCLE * EVENT_BYTES +
	    RATE_MAX * 86400 / (double)d->conf.snapshot_every * SNAPSHOT_BYTES;
}

void
records_space_check(const char *state_dir, struct drive *const *drives,
    size_t n, uint64_t archive_bytes)
{
	struct statvfs	sv;
	double		per_day = 0, free_b, days;
	char		a[32], b[32], c[32];
	size_t		i;

	if (statvfs(state_dir, &sv) == -1) {
		log_warn("state directory %s: cannot tell its free space",
		    state_dir);
		return;
	}
	for (i = 0; i < n; i++)
		per_day += drive_bytes_per_day(drives[i]);
	free_b = (double)sv.f_bavail * (double)sv.f_frsize;
	days = per_day > 0 ? (free_b - (double)archive_bytes) / per_day : 1e9;
	units_fmt_bin((uint64_t)free_b, a, sizeof(a));
	units_fmt_bin(archive_bytes, b, sizeof(b));
	units_fmt_bin((uint64_t)per_day, c, sizeof(c));
	if (days >= MONTH_DAYS) {
		log_info("state directory %s: %s free; archives to create %s, "
		    "records about %s a day: enough for %.0f days", state_dir,
		    a, b, c, days);
		return;
	}
	log_warnx("state directory %s: %s free, which will not last a month: "
	    "archives to create %s, records about %s a day (%d events of %d "
	    "bytes a cycle, at most %.0f GB/s; a %d-byte SMART snapshot every "
	    "snapshot_every; verify errors not counted): %s", state_dir, a, b,
	    c, EVENTS_PER_CYCLE, EVENT_BYTES, RATE_MAX / 1e9, SNAPSHOT_BYTES,
	    days <= 0 ? "full already" : days < 1 ? "less than a day" :
	    "a few days");
}
