/*
 * findings.c: what the worker found, as a drive's verify_error events.
 * The worker cuts a run of adjacent bad blocks at its publish points; the
 * pieces are merged here into one event, held until the next piece shows
 * whether it goes on, and written before any checkpoint so that the log
 * stays consistent with the state (the core flushes it then). A feature
 * of the drive's table: how a run is told (event, journal line, neither)
 * is the other features' answer, asked through d->core.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>

#include <linux/magic.h>

#include <json-c/json.h>

#include "drive_features.h"

/* Describe a finding in words for the journal. */
static void
finding_text(const struct drive *d, const struct finding *f, char *buf,
    size_t len)
{
	const struct blk_result *r = &f->res;
	char	what[160];
	int	n;

	n = snprintf(buf, len, "%s at offset %" PRIu64 " (%" PRIu64
	    " block%s)", blk_class_name(f->cls), f->offset, f->nblocks,
	    f->nblocks == 1 ? "" : "s");
	if (n < 0 || (size_t)n >= len)
		return;
	buf += n;
	len -= (size_t)n;
	switch (f->cls) {
	case BLK_CORRUPT:
		blk_corrupt_text(r, what, sizeof(what));
		snprintf(buf, len, ": %s", what);
		break;
	case BLK_TORN:
		blk_torn_text(r, what, sizeof(what));
		snprintf(buf, len, ": a write cut short: %s", what);
		break;
	case BLK_MISDIRECTED:
		snprintf(buf, len, ": holds the block of offset %" PRIu64,
		    r->found_offset);
		break;
	case BLK_STALE:
		snprintf(buf, len, ": generation %" PRIu64 ", expected %" PRIu64,
		    r->found_gen, f->expected_gen);
		break;
	case BLK_FOREIGN:
		snprintf(buf, len, ": block of instance %016" PRIx64,
		    r->found_instance);
		break;
	case BLK_UNWRITTEN:
		snprintf(buf, len, ": blank, expected generation %" PRIu64,
		    f->expected_gen);
		break;
	case BLK_IO_ERROR:
		snprintf(buf, len, ": %s", strerror(f->err));
		break;
	case BLK_LOST_FLUSH:
		if (r->hdr_valid)
			snprintf(buf, len, ": generation %" PRIu64 ", expected "
			    "%" PRIu64 ", written before a completed flush",
			    r->found_gen, f->expected_gen);
		else
			snprintf(buf, len, ": blank, expected generation "
			    "%" PRIu64 ", written before a completed flush",
			    f->expected_gen);
		break;
	default:
		break;
	}
	(void)d;
}

/* Where a torn block changes from one content to another, in JSON. */
static void
torn_found(json_object *o, const struct blk_result *r)
{
	char	part[32];

	json_object_object_add(o, "torn_at", json_object_new_int64(r->torn_at));
	json_object_object_add(o, "torn_piece_bytes",
	    json_object_new_int64(r->torn_unit));
	blk_part_text(r->torn_head, r->torn_head_gen, part, sizeof(part));
	json_object_object_add(o, "torn_head", json_object_new_string(part));
	blk_part_text(r->torn_tail, r->torn_tail_gen, part, sizeof(part));
	json_object_object_add(o, "torn_tail", json_object_new_string(part));
	json_object_object_add(o, "torn_changes",
	    json_object_new_int64(r->torn_changes));
}

/* "found" details of a finding, in JSON. */
static void
finding_found(json_object *o, const struct finding *f)
{
	const struct blk_result *r = &f->res;
	char	 hex[20];

	if (f->cls == BLK_IO_ERROR) {
		json_object_object_add(o, "errno", json_object_new_int(f->err));
		json_object_object_add(o, "error",
		    json_object_new_string(strerror(f->err)));
		return;
	}
	if (r->found_instance != 0 || r->hdr_valid) {
		snprintf(hex, sizeof(hex), "%016" PRIx64, r->found_instance);
		json_object_object_add(o, "found_instance",
		    json_object_new_string(hex));
		json_object_object_add(o, "found_offset",
		    json_object_new_uint64(r->found_offset));
		json_object_object_add(o, "found_generation",
		    json_object_new_uint64(r->found_gen));
		json_object_object_add(o, "found_write_time_ns",
		    json_object_new_uint64(r->found_time_ns));
	}
	if (f->cls == BLK_CORRUPT && r->no_header)
		json_object_object_add(o, "no_header",
		    json_object_new_boolean(1));
	if (f->cls == BLK_TORN)
		torn_found(o, r);
	if (f->cls == BLK_CORRUPT && r->first_bad_byte >= 0) {
		json_object_object_add(o, "first_bad_byte",
		    json_object_new_int(r->first_bad_byte));
		json_object_object_add(o, "bad_bytes",
		    json_object_new_int((int32_t)r->bad_bytes));
	}
}

/* One finding (or merged run) becomes one verify_error event. */
static void
finding_write(struct drive *d, const struct finding *f)
{
	json_object	*o;
	char		 text[512];
	int		 told = d->core->told(d, f);

	if (told == 2)
		return;		/* counted and mapped; summarized at pass end */
	o = drive_ev_obj(d);
	json_object_object_add(o, "class",
	    json_object_new_string(blk_class_name(f->cls)));
	json_object_object_add(o, "offset", json_object_new_uint64(f->offset));
	json_object_object_add(o, "blocks", json_object_new_uint64(f->nblocks));
	/* a probe's unit, or the cycle's block */
	json_object_object_add(o, "block_size", json_object_new_uint64(
	    f->unit != 0 ? f->unit : d->st.lay.block_size));
	if (f->expected_unwritten)
		json_object_object_add(o, "expected", json_object_new_string(
		    "unwritten"));
	else
		json_object_object_add(o, "expected_generation",
		    json_object_new_uint64(f->expected_gen));
	finding_found(o, f);
	/* where it was found: the phase may have moved on since */
	json_object_object_add(o, "phase", json_object_new_string(
	    phase_name(d->find.phase)));
	json_object_object_add(o, "cycle", json_object_new_uint64(
	    d->find.cycle));
	if (d->find.on_demand)
		json_object_object_add(o, "on_demand",
		    json_object_new_boolean(1));
	finding_text(d, f, text, sizeof(text));
	d->log.quiet = told == 1;
	events_add(&d->log, LOG_ERR, "verify_error", o, (long long)f->offset,
	    (long long)d->st.host_bytes_written, "%s", text);
	d->log.quiet = 0;
}

/* Write the run held for merging. */
static void
findings_flush(struct drive *d)
{
	if (d->find.has_pend)
		finding_write(d, &d->find.pend);
	d->find.has_pend = 0;
}

/*
 * Runs the worker cut at its publish points are merged here; the held
 * run is written before any checkpoint, so the log stays consistent.
 * The other features have taken the finding first (the table's order).
 */
static void
findings_add(struct drive *d, const struct finding *f)
{
	if (d->find.has_pend &&
	    finding_continues(&d->find.pend, f, d->st.lay.block_size)) {
		d->find.pend.nblocks += f->nblocks;
		return;
	}
	findings_flush(d);
	d->find.pend = *f;
	d->find.has_pend = 1;
	d->find.phase = d->st.prog.phase;
	d->find.cycle = d->st.prog.cycle;
	d->find.on_demand = d->work == WORK_VERIFY;
}

/*
 * A file on a file system that emulates direct I/O with a copy through
 * memory, page by page: a signal can cut that copy, so a crash of the
 * daemon can leave a block torn at a page boundary, which a drive would
 * not do. Said at each start, so that torn findings are read as such.
 * (A block device node lives on devtmpfs: not asked.)
 */
static void
findings_target_note(struct drive *d, int lost)
{
	struct statfs	 sf;
	const char	*fs;
	json_object	*o;

	(void)lost;	/* the power feature's */
	if (d->tgt.is_blockdev || fstatfs(d->tgt.fd, &sf) == -1)
		return;
	switch ((unsigned long)sf.f_type) {
	case TMPFS_MAGIC:
		fs = "tmpfs";
		break;
	case RAMFS_MAGIC:
		fs = "ramfs";
		break;
	default:
		return;
	}
	o = drive_ev_obj(d);
	json_object_object_add(o, "filesystem", json_object_new_string(fs));
	events_add(&d->log, LOG_NOTICE, "dio_emulated", o, -1,
	    (long long)d->st.host_bytes_written, "%s is on %s, which only "
	    "emulates direct I/O (a page-by-page copy): a write cut by a crash "
	    "can leave a block torn at a page boundary", d->conf.device, fs);
}

/* The worker's findings as verify_error events. */
const struct drive_feature findings_feature = {
	.name = "findings",
	.activated = findings_target_note,
	.found = findings_add,
	.flush = findings_flush,
};
