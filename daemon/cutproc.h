/*
 * cutproc.h: a command of a power cut (power_cut_command off|on NAME
 * SERIAL), run from the main loop: a child in its own process group with
 * the default signal dispositions and mask, watched through its pidfd,
 * with a deadline. Its end is handed to a callback; at the deadline the
 * whole group is killed and the child is reaped whenever it dies, so a
 * command stuck in the kernel never blocks the loop.
 */
#ifndef SSDT_CUTPROC_H
#define SSDT_CUTPROC_H

#include <stdint.h>
#include <sys/types.h>

#include <systemd/sd-event.h>

/* ok: it exited 0; else why ("exited 3", "did not end within ..."). */
typedef void	(*cutproc_fn)(void *arg, int ok, const char *why);

struct cutproc {
	pid_t		 pid;		/* 0: none running */
	int		 pidfd;
	sd_event_source	*src, *timer;
	uint64_t	 t0;		/* monotonic ns: its start */
	double		 seconds;	/* how long the last one ran */
	cutproc_fn	 done;
	void		*arg;
};

void	cutproc_init(struct cutproc *);
/* Start argv[0] with argv; 0, or -1 with errno (nothing running then). */
int	cutproc_run(struct cutproc *, sd_event *, char *const argv[],
	    uint64_t timeout_us, cutproc_fn, void *arg);
/* Kill the one running (its group), without its callback. */
void	cutproc_kill(struct cutproc *);
/* Let the one running go on alone, unwatched (init reaps it). */
void	cutproc_detach(struct cutproc *);
int	cutproc_running(const struct cutproc *);

#endif
