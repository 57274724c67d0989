/*
 * drive_errors.c: the records of a verify pass on a drive that goes bad.
 * A dying drive turns every block into a finding; one event (and one
 * journal line) each would fill the state disk and be dropped by the
 * journal's rate limit. So a pass records its first max_error_events
 * verify_error runs as events (the first JOURNAL_DETAIL of them also in
 * the journal), then one verify_summary event per class at its end; the
 * error map (errmap.c) keeps every bad block exactly, and the counters
 * of the state count every block whatever was recorded.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "drive_errors.h"
#include "drive_features.h"
#include "errmap.h"
#include "errmap_again.h"
#include "log.h"
#include "proto.h"

/* verify_error runs of a pass that also go to the journal */
#define JOURNAL_DETAIL	10
/* extents listed in a verify_summary event (the map has them all) */
#define SUMMARY_EXTENTS	16

/* Open the map of `pass`, keeping `keep` bytes; said once when it fails. */
static void
map_open(struct drive *d, uint64_t pass, uint64_t keep, int on_demand)
{
	errmap_close(&d->emap);
	d->em_on_demand = on_demand;
	if (errmap_open(&d->emap, d->dir, pass, d->st.lay.block_size,
	    keep) == -1)
		drive_log(d, LOG_WARNING, errno,
		    "cannot open the error map of verify pass %" PRIu64
		    " (bad blocks are counted, not mapped)", pass);
}

/*
 * Before the state is saved: the map written and its length recorded in
 * the state; fd the descriptor to fdatasync (-1: none). -1 when the map
 * cannot be written (its err set): no state may be saved then. End takes
 * the sync's result (0 or -errno): -1 when the map is not on disk.
 */
static int
drive_errors_checkpoint_begin(struct drive *d, int *fd)
{
	*fd = -1;
	if (!errmap_has_file(&d->emap))
		return 0;
	if (errmap_flush_begin(&d->emap, fd) == -1)
		return -1;
	/* what the sync is to make durable (a retired map: its pass ended) */
	if (!d->em_on_demand && !d->emap.retired) {
		d->st.err_map_bytes = d->emap.size;
		d->st.err_runs = d->em_runs;
	}
	return 0;
}

static int
drive_errors_checkpoint_end(struct drive *d, int res)
{
	if (!errmap_has_file(&d->emap))
		return 0;
	errmap_flush_end(&d->emap, res);
	return d->emap.err != 0 ? -1 : 0;
}

/* The map of the pass running written and synced now. */
static void
map_sync(struct drive *d)
{
	int	fd;

	if (drive_errors_checkpoint_begin(d, &fd) == 0)
		(void)drive_errors_checkpoint_end(d, fd >= 0 &&
		    fdatasync(fd) == -1 ? -errno : 0);
}

static void
drive_errors_begin(struct drive *d, int on_demand)
{
	map_sync(d);	/* a scheduled pass stopped under it */
	d->st.err_pass++;
	d->em_runs = 0;
	map_open(d, d->st.err_pass, 0, on_demand);
	if (!on_demand) {
		d->st.err_verify_pass = d->st.err_pass;
		d->st.err_map_bytes = d->emap.size;
		d->st.err_runs = 0;
	}
}

static void
drive_errors_resume(struct drive *d)
{
	if (d->st.err_verify_pass == 0) {	/* a state from before maps */
		drive_errors_begin(d, 0);
		return;
	}
	if (errmap_is_open(&d->emap) && !d->em_on_demand &&
	    d->emap.pass == d->st.err_verify_pass)
		return;
	map_open(d, d->st.err_verify_pass, d->st.err_map_bytes, 0);
	d->em_runs = d->st.err_runs;
}

static void
drive_errors_map(struct drive *d, const struct finding *f)
{
	uint32_t	bs = d->st.lay.block_size;

	if (errmap_is_open(&d->emap))
		errmap_add(&d->emap, f->offset / bs, f->nblocks, f->cls);
}

/* The run that goes past the bound: say once what happens to the rest. */
static void
detail_ends(struct drive *d)
{
	json_object	*o = drive_ev_obj(d);

	json_object_object_add(o, "pass", json_object_new_uint64(
	    d->emap.pass));
	json_object_object_add(o, "max_error_events", json_object_new_uint64(
	    d->conf.max_error_events));
	events_add(&d->log, LOG_WARNING, "verify_errors_summarized", o, -1,
	    (long long)d->st.host_bytes_written, "verify pass %" PRIu64 ": "
	    "more than %" PRIu64 " verify errors; the rest are counted and "
	    "mapped (ssdctl errors %s), summarized at the end of the pass",
	    d->emap.pass, d->conf.max_error_events, d->conf.name);
}

/*
 * Outside a verify pass (I/O errors of a write pass with on_io_error =
 * continue): the same bound for each phase; the rest are counted (the
 * verify pass after it finds and maps their blocks) and summed up at the
 * end of the phase.
 */
static int
phase_detail(struct drive *d, const struct finding *f)
{
	uint64_t	n = d->ph_runs++;

	if (n == d->conf.max_error_events)
		events_add(&d->log, LOG_WARNING, "errors_summarized",
		    drive_ev_obj(d), -1, (long long)d->st.host_bytes_written,
		    "%s: more than %" PRIu64 " errors in this phase; the rest "
		    "are counted and summed up at its end", phase_name(
		    d->st.prog.phase), d->conf.max_error_events);
	if (n < d->conf.max_error_events)
		return n < JOURNAL_DETAIL ? 1 : 2;
	d->ph_quiet_runs++;
	d->ph_quiet_blocks += f->nblocks;
	return 0;
}

static void
drive_errors_phase_start(struct drive *d)
{
	d->ph_runs = d->ph_quiet_runs = d->ph_quiet_blocks = 0;
}

static void
drive_errors_phase_end(struct drive *d, const char *what)
{
	json_object	*o;

	if (d->ph_quiet_runs == 0)
		return;
	o = drive_ev_obj(d);
	json_object_object_add(o, "what", json_object_new_string(what));
	json_object_object_add(o, "runs", json_object_new_uint64(
	    d->ph_quiet_runs));
	json_object_object_add(o, "blocks", json_object_new_uint64(
	    d->ph_quiet_blocks));
	events_add(&d->log, LOG_WARNING, "errors_summary", o, -1,
	    (long long)d->st.host_bytes_written, "%s: %" PRIu64 " more errors "
	    "(%" PRIu64 " blocks) beyond max_error_events", what,
	    d->ph_quiet_runs, d->ph_quiet_blocks);
	drive_errors_phase_start(d);
}

static int
drive_errors_detail(struct drive *d, const struct finding *f)
{
	uint64_t	n;

	if (!errmap_is_open(&d->emap))
		return phase_detail(d, f);
	n = d->em_runs++;
	if (n == d->conf.max_error_events)
		detail_ends(d);
	if (n >= d->conf.max_error_events)
		return 0;
	return n < JOURNAL_DETAIL ? 1 : 2;
}

struct listed {
	json_object	*arr[BLK_NCLASS];
	uint32_t	 bs;
};

static int
list_extent(const struct errext *x, void *arg)
{
	struct listed	*l = arg;
	json_object	*e;

	if (json_object_array_length(l->arr[x->cls]) >= SUMMARY_EXTENTS)
		return 0;
	e = json_object_new_array();
	json_object_array_add(e, json_object_new_uint64(x->start * l->bs));
	json_object_array_add(e, json_object_new_uint64(x->len));
	json_object_array_add(l->arr[x->cls], e);
	return 0;
}

/* One verify_summary event for a class of the pass. */
static void
summary_event(struct drive *d, const struct errmap_counts *c, int cls,
    json_object *extents, const char *path)
{
	json_object	*o = drive_ev_obj(d);
	uint32_t	 bs = d->st.lay.block_size;

#define ADD(k, v)	json_object_object_add(o, k, v)
	ADD("pass", json_object_new_uint64(d->emap.pass));
	ADD("class", json_object_new_string(blk_class_name(cls)));
	ADD("blocks", json_object_new_uint64(c->blocks[cls]));
	ADD("block_size", json_object_new_uint64(bs));
	ADD("extents", json_object_new_uint64(c->extents[cls]));
	ADD("first_offset", json_object_new_uint64(c->first[cls] * bs));
	ADD("end_offset", json_object_new_uint64(c->end[cls] * bs));
	ADD("first_extents", extents);	/* [offset, blocks], the first ones */
	ADD("map", json_object_new_string(path));
	if (d->em_on_demand)
		ADD("on_demand", json_object_new_boolean(1));
#undef ADD
	events_add(&d->log, LOG_ERR, "verify_summary", o,
	    (long long)(c->first[cls] * bs), (long long)d->st.host_bytes_written,
	    "verify pass %" PRIu64 ": %" PRIu64 " %s block%s in %" PRIu64
	    " extent%s from offset %" PRIu64 " to %" PRIu64, d->emap.pass,
	    c->blocks[cls], blk_class_name(cls), c->blocks[cls] == 1 ? "" :
	    "s", c->extents[cls], c->extents[cls] == 1 ? "" : "s",
	    c->first[cls] * bs, c->end[cls] * bs);
}

/* verify_summary events: per class with bad blocks, from the synced map. */
static void
summarize(struct drive *d)
{
	struct listed	l = { .bs = d->st.lay.block_size };
	char		path[PATH_MAX + 64];
	int		i;

	errmap_path(path, sizeof(path), d->dir, d->emap.pass);
	for (i = 1; i < BLK_NCLASS; i++)
		l.arr[i] = json_object_new_array();
	errmap_read(path, d->emap.size, list_extent, &l, NULL);
	for (i = 1; i < BLK_NCLASS; i++) {
		if (d->emap.c.blocks[i] > 0)
			summary_event(d, &d->emap.c, i, l.arr[i], path);
		else
			json_object_put(l.arr[i]);
	}
}

/* Bad blocks over max_bad_fraction of the pass: the reason, else 0. */
static int
too_many_bad(struct drive *d, char *why, size_t len)
{
	const struct errmap_counts *c = &d->emap.c;
	/* torn blocks are mapped, not bad: a cut write, no fault */
	uint64_t	bad = errmap_total(c) - c->blocks[BLK_TORN];
	uint64_t	all = d->st.lay.nblocks;
	double		frac = all ? (double)bad / (double)all : 0;
	int		i, n;

	if (d->conf.max_bad_fraction <= 0 || frac <= d->conf.max_bad_fraction)
		return 0;
	n = snprintf(why, len, "verify pass %" PRIu64 ": %" PRIu64 " of %"
	    PRIu64 " blocks bad (%.3g%%, max_bad_fraction %.3g%%) at TBW %.6f "
	    "TB:", d->emap.pass, bad, all, frac * 100,
	    d->conf.max_bad_fraction * 100,
	    (double)d->st.host_bytes_written / 1e12);
	for (i = 1; i < BLK_NCLASS && n > 0 && (size_t)n < len; i++)
		if (c->blocks[i] > 0 && blk_class_is_error(i))
			n += snprintf(why + n, len - (size_t)n, " %s %" PRIu64,
			    blk_class_name(i), c->blocks[i]);
	return 1;
}

static int
drive_errors_end(struct drive *d, int whole, char *why, size_t len)
{
	int	fail = 0;

	if (!errmap_is_open(&d->emap))
		return 0;
	/* written (the summary reads it), synced by the checkpoint that
	 * records the pass's end, before it */
	errmap_retire(&d->emap);
	summarize(d);
	if (whole)
		fail = too_many_bad(d, why, len);
	if (!d->em_on_demand) {
		d->st.err_verify_pass = 0;
		d->st.err_map_bytes = 0;
		d->st.err_runs = 0;
	}
	return fail;
}

/*
 * Extents an ErrorMap reply lists: ssdctl reads replies of up to 64 times
 * PROTO_MAX_MESSAGE, and an extent takes under 80 bytes of JSON.
 */
#define ERRORS_MAX_EXTENTS	(64 * PROTO_MAX_MESSAGE / 80)

struct reply {
	json_object	*arr;
	uint64_t	 bs;
	uint64_t	 n;
	uint64_t	 gap;		/* blocks: closer extents merge (0: none) */
	struct errext	 held[BLK_NCLASS];	/* per class, still growing */
};

static void
reply_add(struct reply *r, const struct errext *x)
{
	json_object	*e;

	if (x->len == 0 || r->n++ >= ERRORS_MAX_EXTENTS)
		return;
	e = json_object_new_object();
	json_object_object_add(e, "offset", json_object_new_uint64(x->start *
	    r->bs));
	json_object_object_add(e, "blocks", json_object_new_uint64(x->len));
	json_object_object_add(e, "class", json_object_new_string(
	    blk_class_name(x->cls)));
	json_object_array_add(r->arr, e);
}

/*
 * With a resolution, an extent less than gap blocks after the one held of
 * its class joins it; classes interleave, so each holds its own.
 */
static int
reply_extent(const struct errext *x, void *arg)
{
	struct reply	*r = arg;
	struct errext	*h = &r->held[x->cls];

	if (r->gap == 0) {
		reply_add(r, x);
		return 0;
	}
	if (h->len > 0 && x->start - (h->start + h->len) < r->gap) {
		h->len = x->start + x->len - h->start;
		return 0;
	}
	reply_add(r, h);
	*h = *x;
	return 0;
}

static int
by_offset(const void *a, const void *b)
{
	json_object	*v;
	uint64_t	 x = 0, y = 0;

	if (json_object_object_get_ex(*(json_object *const *)a, "offset", &v))
		x = json_object_get_uint64(v);
	if (json_object_object_get_ex(*(json_object *const *)b, "offset", &v))
		y = json_object_get_uint64(v);
	return x < y ? -1 : x > y;
}

/* The extents still held, then all in offset order again. */
static void
reply_end(struct reply *r)
{
	int	i;

	if (r->gap == 0)
		return;
	for (i = 1; i < BLK_NCLASS; i++)
		reply_add(r, &r->held[i]);
	json_object_array_sort(r->arr, by_offset);
}

int
drive_errors_json(struct drive *d, uint64_t pass, uint32_t resolution,
    int again, json_object *out)
{
	struct errmap_counts	 c;
	struct reply		 r = { .arr = json_object_new_array(),
	    .bs = d->st.lay.block_size };
	json_object		*counts = json_object_new_object();
	char			 path[PATH_MAX + 64];
	int			 live, i;

	/* closer than a part of the span: drawn at that resolution, the
	 * merged extents touch the same pixels as the exact ones */
	if (resolution > 0)
		r.gap = d->st.lay.nblocks / resolution;
	if (pass == 0)
		pass = d->st.err_pass;
	live = errmap_is_open(&d->emap) && d->emap.pass == pass;
	errmap_path(path, sizeof(path), d->dir, pass);
	if (pass == 0 || pass > d->st.err_pass || (again ?
	    errmap_read_again(d->dir, pass, live ? d->emap.size : UINT64_MAX,
	    reply_extent, &r, &c) : errmap_read(path, live ? d->emap.size :
	    UINT64_MAX, reply_extent, &r, &c)) == -1) {
		json_object_put(r.arr);
		json_object_put(counts);
		return -1;
	}
	reply_end(&r);
	for (i = 1; i < BLK_NCLASS; i++)
		json_object_object_add(counts, blk_class_name(i),
		    json_object_new_uint64(c.blocks[i]));
#define ADD(k, v)	json_object_object_add(out, k, v)
	ADD("pass", json_object_new_uint64(pass));
	ADD("passes", json_object_new_uint64(d->st.err_pass));
	ADD("block_size", json_object_new_uint64(c.block_size));
	ADD("span_bytes", json_object_new_uint64(d->st.lay.span_bytes));
	ADD("in_progress", json_object_new_boolean(live));
	ADD("again", json_object_new_boolean(again));
	ADD("blocks", json_object_new_uint64(errmap_total(&c)));
	ADD("counts", counts);
	ADD("extents_total", json_object_new_uint64(r.n));
	ADD("extents", r.arr);
	ADD("truncated", json_object_new_boolean(r.n > ERRORS_MAX_EXTENTS));
#undef ADD
	return 0;
}

/* The hooks (drive_features.h). */
static void
errors_made(struct drive *d)
{
	d->emap.fd = -1;
}

static void
errors_release(struct drive *d)
{
	errmap_close(&d->emap);
}

static void
errors_phase_ended(struct drive *d, json_object *ev)
{
	json_object	*what;

	if (json_object_object_get_ex(ev, "what", &what))
		drive_errors_phase_end(d, json_object_get_string(what));
}

/* drive_errors_detail()'s 1 (an event and a journal line), 2 (an event)
 * and 0 (nothing) as the hook tells them. */
static int
errors_told(struct drive *d, const struct finding *f)
{
	static const int told[] = { 2, 0, 1 };

	return told[drive_errors_detail(d, f)];
}

static int
errors_sync_begin(struct drive *d, int *fd)
{
	return drive_errors_checkpoint_begin(d, fd) == -1 ?
	    (d->emap.err != 0 ? d->emap.err : EIO) : 0;
}

static int
errors_sync_end(struct drive *d, int res)
{
	return drive_errors_checkpoint_end(d, res) == -1 ?
	    (d->emap.err != 0 ? d->emap.err : EIO) : 0;
}

const struct drive_feature drive_errors_feature = {
	.name = "errors",
	.made = errors_made,
	.mark = drive_errors_phase_start,
	.phase_ended = errors_phase_ended,
	.verify_begin = drive_errors_begin,
	.verify_resume = drive_errors_resume,
	.verify_end = drive_errors_end,
	.found = drive_errors_map,
	.told = errors_told,
	.sync_begin = errors_sync_begin,
	.sync_end = errors_sync_end,
	.release = errors_release,
};
