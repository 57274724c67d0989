/*
 * smart_rules.c: when SMART says a drive has failed, and its write
 * amplification. Pure: readings in, a reason or a figure out; the drive
 * applies them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "smart.h"
#include "smart_ocp.h"

/* The JSON keys of the figures, as smart_to_json names them. */
const char *const smart_fig_key[SMART_FIG_N] = {
	[FIG_PERCENT_USED]	= "percent_used",
	[FIG_SPARE]		= "available_spare",
	[FIG_TEMPERATURE]	= "temperature_c",
	[FIG_MEDIA_ERRORS]	= "media_errors",
	[FIG_CRITICAL_WARNING]	= "critical_warning",
	[FIG_REALLOCATED]	= "reallocated",
	[FIG_PENDING]		= "pending",
	[FIG_DEVICE_WRITTEN]	= "device_bytes_written",
	[FIG_DEVICE_READ]	= "device_bytes_read",
	[FIG_NAND_WRITTEN]	= "nand_bytes_written",
	[FIG_WAF]		= "waf",
	[FIG_UNSAFE_SHUTDOWNS]	= "unsafe_shutdowns",
};

const enum smart_fig smart_src_figs[SMART_NSRC_FIGS] = {
	FIG_PERCENT_USED, FIG_TEMPERATURE, FIG_MEDIA_ERRORS, FIG_REALLOCATED,
	FIG_PENDING, FIG_DEVICE_WRITTEN, FIG_DEVICE_READ, FIG_NAND_WRITTEN,
	FIG_UNSAFE_SHUTDOWNS
};

const enum smart_fig smart_sum_figs[SMART_NSUM_FIGS] = {
	FIG_PERCENT_USED, FIG_SPARE, FIG_TEMPERATURE, FIG_MEDIA_ERRORS,
	FIG_CRITICAL_WARNING, FIG_DEVICE_WRITTEN, FIG_NAND_WRITTEN, FIG_WAF,
	FIG_REALLOCATED
};

/* Is figure f reported in s? */
static int
fig_has(const struct smart *s, enum smart_fig f)
{
	switch (f) {
	case FIG_PERCENT_USED:		return s->has_percent_used;
	case FIG_TEMPERATURE:		return s->has_temperature;
	case FIG_MEDIA_ERRORS:		return s->has_media_errors;
	case FIG_REALLOCATED:		return s->has_reallocated;
	case FIG_PENDING:		return s->has_pending;
	case FIG_DEVICE_WRITTEN:	return s->has_device_written;
	case FIG_DEVICE_READ:		return s->has_device_read;
	case FIG_NAND_WRITTEN:		return s->has_nand_written;
	case FIG_UNSAFE_SHUTDOWNS:	return s->has_unsafe_shutdowns;
	default:			return 0;
	}
}

/* The NVMe decoder reads standard logs only: it records no sources. */
static const char *
nvme_source(enum smart_fig f)
{
	return f == FIG_NAND_WRITTEN ? "OCP extended SMART log C0h" :
	    "NVMe SMART / Health log";
}

/*
 * The OCP figures' sources: the log and the bytes of each, or why there
 * is no log (nothing when no reason is known: a baseline restored from
 * the state keeps none).
 */
static void
ocp_sources(json_object *o, const struct smart *s)
{
	char	buf[2 * SMART_SRC_LEN];
	int	i;

	if (s->source != SMART_NVME || (!s->has_ocp && s->ocp_why[0] == '\0'))
		return;
	for (i = 0; i < OCP_FIG_N; i++) {
		if (s->has_ocp && ocp_fields[i].width == 1)
			snprintf(buf, sizeof(buf), "%s, byte %u", OCP_SOURCE,
			    ocp_fields[i].off);
		else if (s->has_ocp)
			snprintf(buf, sizeof(buf), "%s, bytes %u-%u",
			    OCP_SOURCE, ocp_fields[i].off, ocp_fields[i].off +
			    ocp_fields[i].width - 1);
		else
			snprintf(buf, sizeof(buf), "unknown (%s)", s->ocp_why);
		json_object_object_add(o, ocp_fields[i].key,
		    json_object_new_string(buf));
	}
}

void
smart_ocp_json(json_object *o, const struct smart *s)
{
	int	i;

	if (s->source != SMART_NVME)
		return;
	for (i = 0; i < OCP_NCOUNT; i++)
		json_object_object_add(o, ocp_fields[i].key, s->has_ocp ?
		    json_object_new_uint64(s->ocp[i]) : NULL);
	json_object_object_add(o, ocp_fields[OCP_GUID].key, s->has_ocp ?
	    json_object_new_string(s->ocp_guid) : NULL);
}

json_object *
smart_sources_json(const struct smart *s)
{
	json_object	*o = json_object_new_object();
	char		 buf[2 * SMART_SRC_LEN];
	enum smart_fig	 f;
	int		 i;

	for (i = 0; i < SMART_NSRC_FIGS; i++) {
		f = smart_src_figs[i];
		if (fig_has(s, f) && s->src[f][0] != '\0')
			snprintf(buf, sizeof(buf), "%s", s->src[f]);
		else if (fig_has(s, f) && s->source == SMART_NVME)
			snprintf(buf, sizeof(buf), "%s", nvme_source(f));
		else if (!fig_has(s, f) && s->src[f][0] != '\0')
			snprintf(buf, sizeof(buf), "unknown (%s)", s->src[f]);
		else if (!fig_has(s, f) && s->unknown_why[0] != '\0')
			snprintf(buf, sizeof(buf), "unknown (%s)",
			    s->unknown_why);
		else
			continue;
		json_object_object_add(o, smart_fig_key[f],
		    json_object_new_string(buf));
	}
	ocp_sources(o, s);
	return o;
}

/* A counter grew by more than max between two readings? */
static int
jumped(int had, uint64_t before, int has, uint64_t now, uint64_t max)
{
	return had && has && now > before && now - before > max;
}

double
smart_waf(const struct smart *b, const struct smart *s)
{
	if (b == NULL || s == NULL || !b->has_nand_written ||
	    !b->has_device_written || !s->has_nand_written ||
	    !s->has_device_written)
		return -1;
	if (s->device_bytes_written <= b->device_bytes_written ||
	    s->nand_bytes_written < b->nand_bytes_written)
		return -1;
	return (double)(s->nand_bytes_written - b->nand_bytes_written) /
	    (double)(s->device_bytes_written - b->device_bytes_written);
}

const char *
smart_failure(const struct smart *p, const struct smart *s, uint64_t max,
    char *buf, size_t len)
{
	if (s->critical_warning & CW_READ_ONLY)
		return "SMART: media placed in read-only mode";
	if (s->critical_warning & CW_RELIABILITY)
		return "SMART: NVM subsystem reliability degraded";
	/* spare 0 of threshold 0 (QEMU, some drives) is not below it */
	if ((s->critical_warning & CW_SPARE) ||
	    (s->has_spare && s->available_spare < s->spare_threshold))
		return "SMART: available spare below threshold";
	if (jumped(p->has_media_errors, p->media_errors, s->has_media_errors,
	    s->media_errors, max)) {
		snprintf(buf, len, "SMART: media errors jumped from %" PRIu64
		    " to %" PRIu64 " between readings", p->media_errors,
		    s->media_errors);
		return buf;
	}
	if (jumped(p->has_reallocated, p->reallocated, s->has_reallocated,
	    s->reallocated, max)) {
		snprintf(buf, len, "SMART: reallocated sectors jumped from %"
		    PRIu64 " to %" PRIu64 " between readings", p->reallocated,
		    s->reallocated);
		return buf;
	}
	return NULL;
}

/* One counter's growth into *d; -1 when it went back. */
static int
grew(uint32_t from, uint32_t to, uint32_t *d)
{
	if (to < from)
		return -1;
	*d = to - from;
	return 0;
}

int
smart_hot_slowdown(const struct smart *s, double before_bps, double now_bps)
{
	return s->has_temperature && s->has_temp_limit &&
	    s->temperature_c >= s->temp_limit_c && before_bps > 0 &&
	    now_bps >= 0 && now_bps < SMART_HOT_DROP * before_bps;
}

int
smart_throttled(const struct smart *p, const struct smart *s,
    struct thermal_growth *g)
{
	int	i, bad = 0;

	memset(g, 0, sizeof(*g));
	if (p->source != SMART_NVME || s->source != SMART_NVME)
		return 0;
	for (i = 0; i < 2; i++) {
		bad |= grew(p->thermal_transitions[i],
		    s->thermal_transitions[i], &g->transitions[i]);
		bad |= grew(p->thermal_seconds[i], s->thermal_seconds[i],
		    &g->seconds[i]);
	}
	bad |= grew(p->warning_temp_minutes, s->warning_temp_minutes,
	    &g->warning_minutes);
	bad |= grew(p->critical_temp_minutes, s->critical_temp_minutes,
	    &g->critical_minutes);
	if (bad) {
		memset(g, 0, sizeof(*g));
		return 0;
	}
	return (g->transitions[0] | g->transitions[1] | g->seconds[0] |
	    g->seconds[1] | g->warning_minutes | g->critical_minutes) != 0;
}

static void
sum_int(struct smart_summary *m, enum smart_fig f, int has, int64_t i)
{
	m->v[f] = (struct smart_sum_val){ has, SUM_INT, has ? i : 0, 0, 0 };
}

static void
sum_count(struct smart_summary *m, enum smart_fig f, int has,
    uint64_t u)
{
	m->v[f] = (struct smart_sum_val){ has, SUM_COUNT, 0, has ? u : 0, 0 };
}

static void
sum_real(struct smart_summary *m, enum smart_fig f, int has, double d)
{
	m->v[f] = (struct smart_sum_val){ has, SUM_REAL, 0, 0, has ? d : 0 };
}

void
smart_summary_fill(struct smart_summary *m, const struct smart *s, double waf)
{
	memset(m, 0, sizeof(*m));
	if (s == NULL)
		return;
	m->known = 1;
	sum_real(m, FIG_PERCENT_USED, s->has_percent_used, s->percent_used);
	sum_int(m, FIG_SPARE, s->has_spare, s->available_spare);
	sum_int(m, FIG_TEMPERATURE, s->has_temperature, s->temperature_c);
	sum_count(m, FIG_MEDIA_ERRORS, s->has_media_errors, s->media_errors);
	sum_int(m, FIG_CRITICAL_WARNING, 1, s->critical_warning);
	sum_count(m, FIG_DEVICE_WRITTEN, s->has_device_written,
	    s->device_bytes_written);
	sum_count(m, FIG_NAND_WRITTEN, s->has_nand_written,
	    s->nand_bytes_written);
	sum_real(m, FIG_WAF, waf >= 0, waf);
	sum_count(m, FIG_REALLOCATED, s->has_reallocated, s->reallocated);
	m->has_thermal = s->has_thermal;
	memcpy(m->thermal_transitions, s->thermal_transitions,
	    sizeof(m->thermal_transitions));
	memcpy(m->thermal_seconds, s->thermal_seconds,
	    sizeof(m->thermal_seconds));
	m->nvme = s->source == SMART_NVME;
	m->has_ocp = s->has_ocp;
	memcpy(m->ocp, s->ocp, sizeof(m->ocp));
	memcpy(m->ocp_why, s->ocp_why, sizeof(m->ocp_why));
}

double
smart_summary_double(const struct smart_summary *m, enum smart_fig f)
{
	const struct smart_sum_val *v = &m->v[f];

	if (!v->has)
		return 0;
	return v->kind == SUM_INT ? (double)v->i : v->kind == SUM_COUNT ?
	    (double)v->u : v->d;
}

/* An NVMe reading's OCP counters, null when unknown, and their source
 * or why they are unknown. */
static void
summary_ocp_json(json_object *o, const struct smart_summary *m)
{
	char	buf[2 * SMART_SRC_LEN];
	int	i;

	if (!m->nvme)
		return;
	for (i = 0; i < OCP_NCOUNT; i++)
		json_object_object_add(o, ocp_fields[i].key, m->has_ocp ?
		    json_object_new_uint64(m->ocp[i]) : NULL);
	if (m->has_ocp)
		snprintf(buf, sizeof(buf), "%s", OCP_SOURCE);
	else
		snprintf(buf, sizeof(buf), "unknown (%s)", m->ocp_why[0] ?
		    m->ocp_why : "no OCP C0h log");
	json_object_object_add(o, "ocp_source", json_object_new_string(buf));
}

json_object *
smart_summary_json(const struct smart_summary *m)
{
	json_object	*o;
	int		 i;

	if (!m->known)
		return NULL;
	o = json_object_new_object();
	for (i = 0; i < SMART_NSUM_FIGS; i++) {
		const struct smart_sum_val *v = &m->v[smart_sum_figs[i]];

		json_object_object_add(o, smart_fig_key[smart_sum_figs[i]],
		    !v->has ? NULL :
		    v->kind == SUM_INT ? json_object_new_int64(v->i) :
		    v->kind == SUM_COUNT ? json_object_new_uint64(v->u) :
		    json_object_new_double(v->d));
	}
	summary_ocp_json(o, m);
	return o;
}
