/*
 * model_thermal.c: the drive's temperature. Every byte moved (read or
 * written by the host) heats it by temp_per_gib_c per GiB; it cools
 * toward temp_idle_c exponentially with time constant cool_tau_s. Two
 * throttle levels (NVMe's TMT1 and TMT2) cut the transfer speed by their
 * factors; a level is left only hysteresis_c below its threshold, so a
 * throttled drive settles rather than flickers. Time at each level and
 * above the warning and critical temperatures is counted as NVMe does.
 */
#include <math.h>

#include "model_int.h"

static double
level_factor(const struct sim_profile *p, int level)
{
	return level == 2 ? p->tmt2_factor : level == 1 ? p->tmt1_factor : 1;
}

/* The level the temperature calls for, given the present one. */
static int
level_for(const struct sim_profile *p, double t, int cur)
{
	int	want = t >= p->tmt2_c ? 2 : t >= p->tmt1_c ? 1 : 0;

	if (want >= cur)
		return want;
	/* going down: only below the threshold minus the hysteresis */
	if (cur == 2 && t >= p->tmt2_c - p->hysteresis_c)
		return 2;
	if (cur >= 1 && t >= p->tmt1_c - p->hysteresis_c)
		return 1;
	return want;
}

static void
set_level(struct sim_model *m, uint64_t now, int level)
{
	const struct sim_profile *p = &m->p;
	int	old = m->level;

	if (level == old)
		return;
	m->level = level;
	if (level > old)
		m->c.thermal_transitions[level - 1]++;
	if (level > 0)
		sim_truth(m, now, "throttle", "\"level\":%d,\"factor\":%.4f,"
		    "\"temp_c\":%.3f", level, level_factor(p, level), m->temp);
	else
		sim_truth(m, now, "throttle_end", "\"from_level\":%d,"
		    "\"temp_c\":%.3f,\"since_ns\":%llu", old, m->temp,
		    (unsigned long long)m->level_since);
	if (old == 0)
		m->level_since = now;
}

/* Cool from temp_t to now, counting the time spent at each state. */
void
sim_thermal_update(struct sim_model *m, uint64_t now)
{
	const struct sim_profile *p = &m->p;
	uint64_t	dt;

	if (now <= m->temp_t)
		return;
	dt = now - m->temp_t;
	if (m->level > 0)
		m->tmt_ns[m->level - 1] += dt;
	if (m->temp >= p->warning_c)
		m->warn_ns += dt;
	if (m->temp >= p->critical_c)
		m->crit_ns += dt;
	m->temp = p->temp_idle_c + (m->temp - p->temp_idle_c) *
	    exp(-(double)dt / (p->cool_tau_s * NS));
	m->temp_t = now;
	set_level(m, now, level_for(p, m->temp, m->level));
}

/* Work heats the drive (at the time of the last update). */
void
sim_thermal_heat(struct sim_model *m, uint64_t bytes)
{
	m->temp += m->p.temp_per_gib_c * (double)bytes / 1073741824.0;
	set_level(m, m->temp_t, level_for(&m->p, m->temp, m->level));
}

double
sim_speed_factor(const struct sim_model *m)
{
	return level_factor(&m->p, m->level);
}
