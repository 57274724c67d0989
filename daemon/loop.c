/*
 * loop.c: the main loop. Every turn dispatches one event source (a
 * client, a worker's notification, the tick) and nothing else runs on
 * this thread meanwhile, so the longest turn is how long a client or the
 * tick could be kept waiting: measured rather than guessed from outside.
 */
#include "clock.h"
#include "loop.h"

static void
note_turn(struct loop_stats *ls, uint64_t ns, uint64_t cpu_ns)
{
	ls->turns++;
	if (ns > LOOP_SLOW_NS)
		ls->slow++;
	if (ns > ls->max_ns) {
		ls->max_ns = ns;
		ls->max_cpu_ns = cpu_ns;
	}
}

/*
 * One turn as sd_event_run makes it, with the dispatch timed, on the
 * clock and on the thread's CPU: a long turn with little CPU waited (for
 * a disk, or for a CPU the I/O keeps busy), one with much worked.
 */
static int
turn(sd_event *ev, struct loop_stats *ls)
{
	uint64_t	t0, c0;
	int		r;

	if ((r = sd_event_prepare(ev)) == 0)
		r = sd_event_wait(ev, UINT64_MAX);
	if (r <= 0)
		return r;
	t0 = mono_ns();
	c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	r = sd_event_dispatch(ev);
	note_turn(ls, mono_ns() - t0, clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0);
	return r;
}

int
loop_run(sd_event *ev, struct loop_stats *ls)
{
	int	r, code;

	while (sd_event_get_state(ev) != SD_EVENT_FINISHED)
		if ((r = turn(ev, ls)) < 0)
			return r;
	r = sd_event_get_exit_code(ev, &code);
	return r < 0 ? r : code;
}
