/*
 * phase_idle.c: the rest after a cycle (idle_sec), timed on the wall
 * clock so that its end survives a restart. Without idle_sec the schedule
 * passes through it without events.
 */
#include "schedule.h"

static int
idle_wanted(const struct dstate *st, const struct drive_conf *c)
{
	(void)st;
	return c->idle_sec > 0;
}

static uint64_t
idle_seconds(const struct drive_conf *c)
{
	return c->idle_sec;
}

/* trimmed_bytes stays: the next cycle's expectations depend on it */
static void
idle_enter(struct dstate *st, const struct drive_conf *c, uint64_t now_ms)
{
	st->idle_until_ms = now_ms + c->idle_sec * 1000;
}

const struct phase_kind phase_idle = {
	.phase = PHASE_IDLE,
	.flags = PK_AFTER_CYCLE,
	.wanted = idle_wanted,
	.seconds = idle_seconds,
	.enter = idle_enter,
};
