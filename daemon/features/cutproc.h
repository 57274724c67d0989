/*
 * cutproc.h: a command of a power cut (power_cut_command off|on NAME
 * SERIAL), run from the main loop: a child in its own process group with
 * the default signal dispositions and mask, watched through its pidfd,
 * with a deadline. Its end is handed to a callback; at the deadline the
 * whole group is killed and the child is reaped whenever it dies, so a
 * command stuck in the kernel never blocks the loop.
 *
 * Its standard output and error go to a pipe the loop reads: of all it
 * prints only the last CUTPROC_TAIL bytes are kept, and at its end the
 * last CUTPROC_LINES lines of them are handed over escaped (a command
 * that prints megabytes of binary takes no more memory, and puts no more
 * into the journal, than one that prints a line). SIGPIPE stays ignored
 * in it: a command the daemon lets go of (at its exit) gets EPIPE from a
 * write, and still finishes switching the power.
 */
#ifndef SSDT_CUTPROC_H
#define SSDT_CUTPROC_H

#include <stdint.h>
#include <sys/types.h>

#include <systemd/sd-event.h>

#define CUTPROC_TAIL	1024	/* bytes of its output kept, the last */
#define CUTPROC_LINES	5	/* lines of them handed over */
/* The output handed over, escaped: \xNN for a byte that is not
 * printable ASCII, and the line breaks between lines. */
#define CUTPROC_OUT	(4 * CUTPROC_TAIL + CUTPROC_LINES + 1)

/* ok: it exited 0; else why ("exited 3", "did not end within ..."). */
typedef void	(*cutproc_fn)(void *arg, int ok, const char *why);

struct cutproc {
	pid_t		 pid;		/* 0: none running */
	int		 pidfd;
	sd_event_source	*src, *timer;
	uint64_t	 t0;		/* monotonic ns: its start */
	double		 seconds;	/* how long the last one ran */
	/* its output: the pipe, the last bytes, how many it printed */
	int		 outfd;
	sd_event_source	*out_src;
	char		 tail[CUTPROC_TAIL];
	size_t		 ntail;
	uint64_t	 out_bytes;
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
/*
 * The last lines the one that ended printed, escaped, one per line, in
 * buf (at least CUTPROC_OUT bytes); how many bytes it printed in all (0:
 * nothing, buf "").
 */
uint64_t cutproc_output(const struct cutproc *, char *buf, size_t len);

#endif
