/*
 * model_truth.c: the truth records, one JSON object a line, handed to
 * the caller's emit function: {"t_ns":T,"event":"NAME",...}. T is the
 * model's time of the event (the caller's clock). The tests compare what
 * ssdtortured found with these, so every field is what the model did.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "model_int.h"

void
sim_truth(struct sim_model *m, uint64_t t, const char *event,
    const char *fmt, ...)
{
	char	line[2048], rest[1920];
	va_list	ap;

	if (m->emit == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(rest, sizeof(rest), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "{\"t_ns\":%llu,\"event\":\"%s\"%s%s}",
	    (unsigned long long)t, event, rest[0] ? "," : "", rest);
	m->emit(m->arg, line);
}

void
sim_truth_start(struct sim_model *m)
{
	const struct sim_profile *p = &m->p;

	sim_truth(m, m->now, "start", "\"profile\":\"%s\",\"seed\":%llu,"
	    "\"capacity\":%llu,\"page\":%u,\"pages_per_block\":%u,"
	    "\"blocks\":%u,\"spare_blocks\":%u,\"slc_mode\":\"%s\","
	    "\"slc_bytes\":%llu,\"slc_free_share\":%.6f,\"slc_mbps\":%.3f,"
	    "\"level1_share\":%.4f,\"level2_mbps\":%.3f,\"post\":\"%s\","
	    "\"native_mbps\":%.3f,\"read_mbps\":%.3f,\"rated_pe\":%u,"
	    "\"read_factor\":%.4f,\"age_ms\":%.3f,\"age_read_factor\":%.4f,"
	    "\"tmt1_c\":%.3f,\"tmt1_factor\":%.4f,\"tmt2_c\":%.3f,"
	    "\"tmt2_factor\":%.4f,\"death_pe\":%u,\"bad_mode\":\"%s\","
	    "\"cache_bytes\":%llu,\"lie_flushed\":%u,"
	    "\"read_slowdown\":\"whole_read\"",
	    p->name, (unsigned long long)m->seed,
	    (unsigned long long)p->capacity, SIM_PAGE, m->ppb, m->nblocks,
	    m->spare_blocks,
	    p->slc_mode == SIM_SLC_FIXED ? "fixed" :
	    p->slc_mode == SIM_SLC_FREE_SHARE ? "free_share" : "none",
	    (unsigned long long)p->slc_bytes, p->slc_free_share, p->slc_mbps,
	    p->slc_level1_share, p->slc_level2_mbps,
	    p->post_cache == SIM_POST_FOLD ? "fold" : "direct",
	    p->native_mbps, p->read_mbps, p->rated_pe, p->wear_read_factor,
	    p->age_ms, p->age_read_factor, p->tmt1_c, p->tmt1_factor,
	    p->tmt2_c, p->tmt2_factor, p->death_pe,
	    p->bad_mode == SIM_BAD_DAMAGE ? "damage" : "eio",
	    (unsigned long long)p->cache_bytes, p->lie_flushed);
}

/* "power_off": every lost range, flushed (lying) or not. */
void
sim_truth_lost(struct sim_model *m, const struct sim_range *r, size_t n,
    size_t nflushed)
{
	size_t		 i, cap = 256 + n * 80, len;
	uint64_t	 bytes = 0;
	char		*s, head[160];

	if (m->emit == NULL || (s = malloc(cap)) == NULL)
		return;
	for (i = 0; i < n; i++)
		bytes += r[i].len;
	snprintf(head, sizeof(head), "{\"t_ns\":%llu,\"event\":\"power_off\","
	    "\"unsafe\":true,\"lost_bytes\":%llu,\"lost\":[",
	    (unsigned long long)m->now, (unsigned long long)bytes);
	len = (size_t)snprintf(s, cap, "%s", head);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len,
		    "%s{\"off\":%llu,\"len\":%llu,\"flushed\":%s}",
		    i ? "," : "", (unsigned long long)r[i].off,
		    (unsigned long long)r[i].len,
		    i < nflushed ? "true" : "false");
	snprintf(s + len, cap - len, "]}");
	m->emit(m->arg, s);
	free(s);
}
