/*
 * daemon.h: the daemon as a whole: its drives, its configuration, its
 * control socket. Owned by the main thread; workers never see it.
 */
#ifndef SSDT_DAEMON_H
#define SSDT_DAEMON_H

#include <stdint.h>

#include <json-c/json.h>
#include <systemd/sd-event.h>

#include "archive.h"
#include "config.h"
#include "control.h"
#include "drive.h"
#include "loop.h"

#define EXIT_CLEAN	0
#define EXIT_CONFIG	1
#define EXIT_USAGE	2
#define EXIT_VERIFY	3
#define EXIT_FAILED	4

struct daemon {
	sd_event	 *ev;
	struct config	  conf;		/* [daemon] settings of the start */
	struct drive	**drives;
	size_t		  ndrives;
	struct control	 *ctl;
	struct archive	 *arch;		/* RRD archives; NULL with -n */
	time_t		  last_archive;	/* second of the last update round */
	int		  metrics_warned;
	int		  oneshot;
	int		  verify_only;
	unsigned	  progress;	/* seconds between progress lines, 0 = off */
	uint64_t	  ticks;
	int		  stopping;
	int		  started;	/* every drive was activated */
	int		  lock_fd;	/* the state directory's lock, kept open */
	struct loop_stats loop;
};

/* 0 clean, 3 a verify error, 4 a failed or refused drive. */
int		 daemon_exit_code(const struct daemon *);
void		 daemon_notify_status(const struct daemon *);
void		 daemon_print_progress(const struct daemon *);
/* --oneshot / --verify: leave the loop once every drive is settled. */
void		 daemon_check_done(struct daemon *);
/* Add a drive and activate it; its I/O starts now when `schedule`. */
int		 daemon_add_drive(struct daemon *, const struct drive_conf *,
		    int schedule);
struct drive	*daemon_find(const struct daemon *, const char *name);
/* Stop workers, wait a bounded time, checkpoint. */
void		 daemon_shutdown_drives(struct daemon *, struct drive **,
		    size_t);
/* Re-read the configuration; 0, or -1 with its errors (lines) in `errors`. */
int		 daemon_reload(struct daemon *, json_object *errors);
/*
 * Once a second (publish.c): every drive's counters and checkpoint, the
 * archive, the metrics textfile, STATUS=, progress lines.
 */
void		 daemon_publish(struct daemon *);
/* Queue the create of the drive's archive unless done before. */
void		 daemon_archive_open(struct daemon *, struct drive *);
/* The control socket's view of the daemon (view.c). */
void		 daemon_control_ops(struct daemon *, struct control_ops *);

#endif
