/*
 * publish.c: what the main loop publishes once a second, in one place: the
 * drives' counters and checkpoints (drive_tick), an archive update per
 * drive, the Prometheus textfile (every 15 s), the one-line STATUS= for
 * systemd and, with -p, a progress line per drive.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <systemd/sd-daemon.h>

#include "daemon.h"
#include "drive_cmd.h"
#include "log.h"
#include "metrics.h"
#include "units.h"

/* Seconds between rewrites of the Prometheus textfile. */
#define METRICS_EVERY	15

/* One line for systemctl status. */
void
daemon_notify_status(const struct daemon *dm)
{
	struct drive_status	s;
	size_t			i, n[RUN_FAILED + 1] = { 0 }, behind = 0;
	uint64_t		tbw = 0, errs = 0;
	char			a[32], rec[128] = "";
	const char		*why = NULL;

	for (i = 0; i < dm->ndrives; i++) {
		drive_status_get(dm->drives[i], &s);
		n[s.refused ? RUN_FAILED : s.run]++;
		tbw += s.host_bytes_written;
		errs += s.errors_total;
		if (!s.records_current && behind++ == 0)
			why = s.records_why;
	}
	if (behind > 0)
		snprintf(rec, sizeof(rec), "; records of %zu drive%s behind "
		    "(state directory: %s)", behind, behind == 1 ? "" : "s",
		    why);
	sd_notifyf(0, "STATUS=%zu drives: %zu running, %zu paused, %zu "
	    "stopped, %zu finished, %zu failed; written %s; %" PRIu64
	    " verify errors%s", dm->ndrives, n[RUN_RUNNING], n[RUN_PAUSED],
	    n[RUN_STOPPED], n[RUN_FINISHED], n[RUN_FAILED],
	    units_fmt_dec(tbw, a, sizeof(a)), errs, rec);
}

/* A progress line per drive for a person watching (-p). */
void
daemon_print_progress(const struct daemon *dm)
{
	struct drive_status	s;
	size_t			i;
	char			a[32], b[32];

	for (i = 0; i < dm->ndrives; i++) {
		drive_status_get(dm->drives[i], &s);
		printf("%-12s %-8s %-6s %5.1f%%  cycle %-4" PRIu64
		    " written %-10s W %7.1f MB/s  R %7.1f MB/s  errors %"
		    PRIu64 "%s%s\n", s.name, state_word(s.run, s.refused),
		    s.verifying ? "verify" :
		    phase_name(s.phase), s.phase_progress * 100.0, s.cycle,
		    units_fmt_dec(s.host_bytes_written, a, sizeof(a)),
		    s.write_bps / 1e6, s.read_bps / 1e6, s.errors_total,
		    s.eta_sec ? "  ETA " : "",
		    s.eta_sec ? units_fmt_duration(s.eta_sec, b, sizeof(b)) : "");
	}
	fflush(stdout);
}

/* Queue the create of an open drive's archive, once per drive. */
void
daemon_archive_open(struct daemon *dm, struct drive *d)
{
	char		file[PATH_MAX + 64];
	uint64_t	hb;

	if (dm->arch == NULL || !drive_archive_due(d))
		return;
	archive_file(dm->arch, dm->conf.state_dir, drive_name(d), file,
	    sizeof(file));
	hb = drive_smart_interval(d) * 3;
	archive_open(dm->arch, file, hb < 300 ? 300 : (unsigned)hb);
}

/* One archive update per drive, at most once a second. */
static void
archive_tick(struct daemon *dm)
{
	char	file[PATH_MAX + 64], vals[512];
	time_t	now = time(NULL);
	size_t	i;

	if (dm->arch == NULL || now == dm->last_archive)
		return;
	dm->last_archive = now;
	for (i = 0; i < dm->ndrives; i++) {
		struct drive *d = dm->drives[i];

		if (drive_archive_values(d, now, vals, sizeof(vals)) == -1)
			continue;
		daemon_archive_open(dm, d);
		archive_file(dm->arch, dm->conf.state_dir, drive_name(d), file,
		    sizeof(file));
		archive_update(dm->arch, file, vals);
	}
}

/* The textfile every METRICS_EVERY s; a failure said once. */
static void
metrics_tick(struct daemon *dm)
{
	const char	*path = dm->conf.prometheus_textfile;

	if (path == NULL || dm->ticks % METRICS_EVERY != 0)
		return;
	if (metrics_write(path, dm->drives, dm->ndrives, &dm->loop) == -1 &&
	    !dm->metrics_warned++)
		log_warnx("metrics: cannot write %s: %s%s", path,
		    strerror(errno), errno == EROFS ? " (outside the state "
		    "directory the service needs ReadWritePaths= in a "
		    "drop-in)" : "");
}

void
daemon_publish(struct daemon *dm)
{
	size_t	i;

	for (i = 0; i < dm->ndrives; i++)
		drive_tick(dm->drives[i]);
	drives_checkpoint_tick(dm->drives, dm->ndrives);
	drives_records_tick(dm->drives, dm->ndrives);
	archive_tick(dm);
	metrics_tick(dm);
	dm->ticks++;
	daemon_notify_status(dm);
	if (dm->progress > 0 && dm->ticks % dm->progress == 0)
		daemon_print_progress(dm);
}
