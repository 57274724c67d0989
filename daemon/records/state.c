/*
 * state.c: the durable per-drive state file. A text file of "key value"
 * lines, replaced atomically: write a temp file, fsync it, rename it over
 * the old one, fsync the directory. A crash leaves the old or the new
 * file, never a mix.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto.h"
#include "state.h"
#include "statedir.h"

/* The run states are the protocol's first words (proto.h), in order. */
_Static_assert((int)RUN_RUNNING == PROTO_RUNNING &&
    (int)RUN_PAUSED == PROTO_PAUSED && (int)RUN_STOPPED == PROTO_STOPPED &&
    (int)RUN_FINISHED == PROTO_FINISHED && (int)RUN_FAILED == PROTO_FAILED,
    "enum run_state follows enum proto_state");

const char *
run_state_name(enum run_state r)
{
	return (unsigned)r <= RUN_FAILED ? proto_state_names[r] : "unknown";
}

const char *
state_word(enum run_state r, int refused)
{
	return refused ? proto_state_names[PROTO_REFUSED] : run_state_name(r);
}

int
run_state_from_name(const char *s)
{
	return proto_word(proto_state_names, RUN_FAILED + 1, s);
}

enum ftype { F_U64, F_U32, F_INT, F_STR, F_RUN, F_PHASE };

struct field {
	const char	*name;
	enum ftype	 type;
	size_t		 off;
	size_t		 len;		/* F_STR: buffer size */
};

#define U64(n, m)	{ n, F_U64, offsetof(struct dstate, m), 0 }
#define U32(n, m)	{ n, F_U32, offsetof(struct dstate, m), 0 }
#define INT(n, m)	{ n, F_INT, offsetof(struct dstate, m), 0 }
#define STR(n, m)	{ n, F_STR, offsetof(struct dstate, m), \
			    sizeof(((struct dstate *)0)->m) }
#define ERR(n, c)	U64("errors." n, errors[c])

/* Every persisted field; the order is the file's order. */
static const struct field fields[] = {
	U64("instance", instance),
	STR("device", device),
	STR("serial", serial),
	U32("block_size", lay.block_size),
	U64("span_bytes", lay.span_bytes),
	U64("blocks", lay.nblocks),
	U64("static_blocks", lay.static_blocks),
	{ "run", F_RUN, offsetof(struct dstate, run), 0 },
	{ "phase", F_PHASE, offsetof(struct dstate, prog.phase), 0 },
	U64("cycle", prog.cycle),
	U64("position", prog.position),
	U64("written", prog.written),
	U64("trimmed_bytes", prog.trimmed_bytes),
	INT("static_done", prog.static_done),
	INT("prev_trimmed", prog.prev_trimmed),
	INT("pass_random", prog.pass_random),
	U64("host_bytes_written", host_bytes_written),
	U64("host_bytes_read", host_bytes_read),
	U64("host_bytes_trimmed", host_bytes_trimmed),
	U64("write_ops", write_ops),
	U64("read_ops", read_ops),
	U64("flushes", flushes),
	ERR("corrupt", BLK_CORRUPT),
	ERR("misdirected", BLK_MISDIRECTED),
	ERR("stale", BLK_STALE),
	ERR("foreign", BLK_FOREIGN),
	ERR("unwritten", BLK_UNWRITTEN),
	ERR("io_error", BLK_IO_ERROR),
	ERR("lost_flush", BLK_LOST_FLUSH),
	ERR("torn", BLK_TORN),
	U64("verify_passes", verify_passes),
	U64("cycles_done", cycles_done),
	U64("events_bytes", events_bytes),
	U64("created", created),
	U64("updated", updated),
	U64("idle_until_ms", idle_until_ms),
	U64("failed_at_tbw", failed_at_tbw),
	INT("final_verify", final_verify),
	U64("smart_snapshot_at", smart_snapshot_at),
	INT("smart_baseline", sb_have),
	U64("smart_baseline.time", sb_time),
	U64("smart_baseline.host_written", sb_host_written),
	U64("smart_baseline.host_written_lo", sb_host_written_lo),
	U64("smart_baseline.device_written", sb_device_written),
	U64("smart_baseline.nand_written", sb_nand_written),
	U64("smart_baseline.media_errors", sb_media_errors),
	U64("smart_baseline.reallocated", sb_reallocated),
	U64("smart_baseline.percent_used_x100", sb_percent_used_x100),
	U64("errors.pass", err_pass),
	U64("errors.verify_pass", err_verify_pass),
	U64("errors.map_bytes", err_map_bytes),
	U64("errors.verify_runs", err_runs),
	U64("probe.offset", prog.probe_off),
	U64("probe.length", prog.probe_len),
	U32("probe.unit", prog.probe_unit),
	U64("probe.generation", prog.probe_gen),
	INT("probe.trimmed", prog.probe_trimmed),
	U64("probe_bytes_written", probe_bytes_written),
	U64("checkpoint.done", ckpt_done),
	U64("checkpoint.step", ckpt_step),
	INT("checkpoint.asked", ckpt_asked),
	U64("checkpoint.at", ckpt_at),
	U64("checkpoint.started", ckpt_started),
	U64("checkpoint.percent_used_x100", ckpt_pu_x100),
	U64("checkpoint.temperature_x100", ckpt_temp_x100),
	U64("checkpoint.results_bytes", ckpt_results_bytes),
	INT("checkpoint.full", ckpt_full),
	U32("checkpoint.tests", ckpt_tests),
	U64("checkpoint.step_at", ckpt_step_at),
	U32("checkpoint.trim_failed", ckpt_trim_failed),
	U64("checkpoint.fresh_bytes_per_sec", fresh_bps),
	U64("checkpoint.fresh_p999_ns", fresh_p999_ns),
	U64("checkpoint.aged_base_throughput_x1000", aged_base_tput_x1000),
	U64("checkpoint.aged_base_p999_x1000", aged_base_p999_x1000),
	U64("checkpoint.full_done", full_done),
	U64("checkpoint.full_at", full_at),
	U64("checkpoint.degrade_initial_x100", degrade_initial_x100),
	STR("boot_id", boot_id),
	INT("stopped_clean", stopped_clean),
	INT("power.verify", power_verify),
	U64("power.verify_position", power_verify_pos),
	U64("power.losses", power_losses),
	U64("power.unflushed_kept", unflushed_kept),
	U64("power.kept_base", kept_base),
	U64("power.lost_base", lost_base),
	INT("power.kept_bounded", kept_bounded),
	U64("power.kept_end", kept_end),
	U64("power.lost_unlisted", lost.unlisted),
	U64("power.cuts", power_cuts),
	U64("power.cut_at", cut_at),
	U64("power.cut_cycle", cut_cycle),
	INT("power.cut_asked", cut_asked),
	INT("power.cut_pending", cut_pending),
	U64("power.cut_capacity", cut_capacity),
	U64("power.cut_position", cut_position),
	INT("power.cut_refused", cut_refused),
	STR("reason", reason),
	{ NULL, 0, 0, 0 }
};

/* Format one field's value. */
static void
field_write(FILE *fp, const struct field *f, const struct dstate *s)
{
	const char	*p = (const char *)s + f->off;

	switch (f->type) {
	case F_U64:
		fprintf(fp, "%s %" PRIu64 "\n", f->name, *(const uint64_t *)p);
		break;
	case F_U32:
		fprintf(fp, "%s %" PRIu32 "\n", f->name, *(const uint32_t *)p);
		break;
	case F_INT:
		fprintf(fp, "%s %d\n", f->name, *(const int *)p);
		break;
	case F_STR:
		fprintf(fp, "%s ", f->name);
		for (; *p != '\0'; p++)	/* one line, whatever the text */
			fputc((unsigned char)*p < 0x20 ? ' ' : *p, fp);
		fputc('\n', fp);
		break;
	case F_RUN:
		fprintf(fp, "%s %s\n", f->name,
		    run_state_name(*(const enum run_state *)p));
		break;
	case F_PHASE:
		fprintf(fp, "%s %s\n", f->name,
		    phase_name(*(const enum phase *)p));
		break;
	}
}

/* Parse one field's value; -1 when malformed. */
static int
field_read(const struct field *f, struct dstate *s, const char *v)
{
	char		*p = (char *)s + f->off, *end;
	uint64_t	 u;
	int		 i;

	if (f->type == F_STR) {
		if (strlen(v) >= f->len)
			return -1;
		memcpy(p, v, strlen(v) + 1);
		return 0;
	}
	if (f->type == F_RUN || f->type == F_PHASE) {
		i = f->type == F_RUN ? run_state_from_name(v) :
		    phase_from_name(v);
		if (i < 0)
			return -1;
		if (f->type == F_RUN)
			*(enum run_state *)p = (enum run_state)i;
		else
			*(enum phase *)p = (enum phase)i;
		return 0;
	}
	errno = 0;
	u = strtoull(v, &end, 10);
	if (errno != 0 || end == v || *end != '\0' || v[0] == '-')
		return -1;
	if (f->type == F_U64)
		*(uint64_t *)p = u;
	else if (f->type == F_U32 && u <= UINT32_MAX)
		*(uint32_t *)p = (uint32_t)u;
	else if (f->type == F_INT && u <= 1)
		*(int *)p = (int)u;
	else
		return -1;
	return 0;
}

/* A "power.lost START LEN GEN" line: one extent of the lost list. */
static int
lost_line(struct dstate *s, const char *v)
{
	unsigned long long	a, n, g;
	int			end = 0;

	if (sscanf(v, "%llu %llu %llu%n", &a, &n, &g, &end) != 3 ||
	    v[end] != '\0' || n == 0 || a + n < a)
		return -1;
	lost_add(&s->lost, a, n, g);
	return 0;
}

/* Handle one "key value" line. */
static int
state_line(struct dstate *s, char *line, char *err, size_t errlen)
{
	char	*v;
	int	 i;

	line[strcspn(line, "\n")] = '\0';
	if ((v = strchr(line, ' ')) == NULL)
		v = line + strlen(line);
	else
		*v++ = '\0';
	if (strcmp(line, "end") == 0)
		return 1;
	if (strcmp(line, "version") == 0) {
		if (atoi(v) != STATE_VERSION) {
			snprintf(err, errlen, "unsupported state version %s",
			    v);
			return -1;
		}
		return 0;
	}
	if (strcmp(line, "power.lost") == 0) {
		if (lost_line(s, v) == -1) {
			snprintf(err, errlen, "bad value for %s: '%s'", line, v);
			return -1;
		}
		return 0;
	}
	for (i = 0; fields[i].name != NULL; i++)
		if (strcmp(fields[i].name, line) == 0) {
			if (field_read(&fields[i], s, v) == -1) {
				snprintf(err, errlen, "bad value for %s: '%s'",
				    line, v);
				return -1;
			}
			return 0;
		}
	return 0;	/* unknown keys: written by a newer version, ignore */
}

int
state_load(const char *path, struct dstate *s, char *err, size_t errlen)
{
	FILE	*fp;
	char	 line[PATH_MAX + 64];
	int	 rc = 0, saw_instance = 0;

	memset(s, 0, sizeof(*s));
	snprintf(err, errlen, "%s", strerror(ENOENT));
	if ((fp = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	while (rc == 0 && fgets(line, sizeof(line), fp) != NULL) {
		if (strncmp(line, "instance ", 9) == 0)
			saw_instance = 1;
		rc = state_line(s, line, err, errlen);
	}
	fclose(fp);
	if (rc == 1 && saw_instance)
		return 0;	/* complete up to its end marker */
	if (rc == 0)
		snprintf(err, errlen, "no end marker (truncated file?)");
	errno = EINVAL;
	return -1;
}

/* The fields of a state, for statedir_replace. */
static int
put_state(FILE *fp, void *arg)
{
	const struct dstate	*s = arg;
	uint32_t		 u;
	int			 i;

	fprintf(fp, "version %d\n", STATE_VERSION);
	for (i = 0; fields[i].name != NULL; i++)
		field_write(fp, &fields[i], s);
	for (u = 0; u < s->lost.n; u++)
		fprintf(fp, "power.lost %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
		    s->lost.v[u].start, s->lost.v[u].len, s->lost.v[u].gen);
	fprintf(fp, "end\n");
	return 0;
}

/* The drive's directory is 0750: group may read, as under the service's
 * UMask=0027. */
#define STATE_MODE	0640

int
state_save(const char *path, const struct dstate *s)
{
	return statedir_replace(path, STATE_MODE, put_state, (void *)s);
}

int
state_stage(struct staged *st, const char *path, const struct dstate *s,
    int spare)
{
	return statedir_stage(st, path, STATE_MODE, spare, put_state,
	    (void *)s);
}

/* The first extent that ends after block b (l->n: none). */
static uint32_t
lost_after(const struct lost_list *l, uint64_t b)
{
	uint32_t	lo = 0, hi = l->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (l->v[mid].start + l->v[mid].len <= b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Room for one more extent at i; 0, or -1 when the list is full. */
static int
lost_open_at(struct lost_list *l, uint32_t i)
{
	if (l->n == LOST_MAX)
		return -1;
	memmove(&l->v[i + 1], &l->v[i], (l->n - i) * sizeof(l->v[0]));
	l->n++;
	return 0;
}

void
lost_forget(struct lost_list *l, uint64_t start, uint64_t n)
{
	uint64_t	end = start + n;
	uint32_t	i = lost_after(l, start);

	while (i < l->n && l->v[i].start < end) {
		struct lost_ext	x = l->v[i];

		if (x.start < start && x.start + x.len > end) {	/* split */
			l->v[i].len = start - x.start;
			if (lost_open_at(l, i + 1) == -1) {
				/* no room for the tail: counted, not listed */
				l->unlisted += x.start + x.len - end;
				return;
			}
			l->v[i + 1] = (struct lost_ext){ end,
			    x.start + x.len - end, x.gen };
			return;
		}
		if (x.start < start) {		/* keep the head */
			l->v[i++].len = start - x.start;
			continue;
		}
		if (x.start + x.len > end) {	/* keep the tail */
			l->v[i].start = end;
			l->v[i].len = x.start + x.len - end;
			return;
		}
		memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) *
		    sizeof(l->v[0]));
		l->n--;
	}
}

void
lost_add(struct lost_list *l, uint64_t start, uint64_t n, uint64_t gen)
{
	uint32_t	i;

	if (n == 0)
		return;
	lost_forget(l, start, n);
	i = lost_after(l, start);
	if (i > 0 && l->v[i - 1].gen == gen &&
	    l->v[i - 1].start + l->v[i - 1].len == start) {
		l->v[i - 1].len += n;	/* continues the one before */
		if (i < l->n && l->v[i].gen == gen &&
		    l->v[i].start == start + n) {
			l->v[i - 1].len += l->v[i].len;
			memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) *
			    sizeof(l->v[0]));
			l->n--;
		}
		return;
	}
	if (i < l->n && l->v[i].gen == gen && l->v[i].start == start + n) {
		l->v[i].start = start;	/* goes on into the one after */
		l->v[i].len += n;
		return;
	}
	if (lost_open_at(l, i) == -1) {
		l->unlisted += n;
		return;
	}
	l->v[i] = (struct lost_ext){ start, n, gen };
}

int
lost_has(const struct lost_list *l, uint64_t b, uint64_t gen)
{
	uint32_t	i = lost_after(l, b);

	return i < l->n && l->v[i].start <= b && l->v[i].gen == gen;
}

void
lost_filter(struct lost_list *l, int (*keep)(const struct lost_ext *, void *),
    void *arg)
{
	uint32_t	i, m = 0;

	for (i = 0; i < l->n; i++)
		if (keep(&l->v[i], arg))
			l->v[m++] = l->v[i];
	l->n = m;
}
