/*
 * metrics.c: every drive's counters and gauges as a Prometheus text file,
 * for node_exporter's textfile collector. A table of metric families, a
 * getter each; all drives' samples of a family follow its HELP and TYPE.
 * The file is replaced atomically: a hidden temp file in the same
 * directory (node_exporter reads only *.prom), fsync, rename, fsync of
 * the directory. A reader sees the old file or the new one, never a part.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "block.h"
#include "layout.h"
#include "drive_smart.h"
#include "metrics.h"
#include "proto.h"
#include "smart.h"
#include "state.h"
#include "statedir.h"

/* One drive as the families see it, read once per file. */
struct view {
	struct drive_status	 st;
	struct smart_summary	 smart;	/* known 0 before a read */
};

/* A sample's value: integers print as integers. */
struct num {
	enum { NUM_U64, NUM_I64, NUM_DBL } kind;
	uint64_t	u;
	int64_t		i;
	double		d;
};

struct family;
/* Variant x of a family for one drive: 0, or -1 when there is no sample. */
typedef int (*getter_fn)(const struct family *, const struct view *, int x,
    struct num *);
/* The extra label's value for variant x. */
typedef const char *(*label_fn)(const struct view *, int x);

struct family {
	const char	*name;
	const char	*type;		/* "counter" or "gauge" */
	const char	*help;
	getter_fn	 get;
	size_t		 off;		/* status getters: field offset;
					 * get_ocp: the ocp_fig */
	enum smart_fig fig;		/* get_smart: figure of the summary */
	double		 div;		/* get_smart, get_ocp: divisor; 0 = as is */
	const char	*xlabel;	/* extra label, or NULL */
	int		 nx;		/* variants of the extra label */
	label_fn	 xval;
};

/* ---------------------------------------------------------------- getters */

static int
get_u64(const struct family *f, const struct view *v, int x, struct num *n)
{
	(void)x;
	n->kind = NUM_U64;
	memcpy(&n->u, (const char *)&v->st + f->off, sizeof(n->u));
	return 0;
}

static int
get_dbl(const struct family *f, const struct view *v, int x, struct num *n)
{
	(void)x;
	n->kind = NUM_DBL;
	memcpy(&n->d, (const char *)&v->st + f->off, sizeof(n->d));
	return 0;
}

/* A flush latency: absent until a flush has completed. */
static int
get_flush(const struct family *f, const struct view *v, int x, struct num *n)
{
	if (!v->st.flush_known)
		return -1;
	return get_dbl(f, v, x, n);
}

/* Verify errors of class x + 1 (class 0 is "ok"). */
static int
get_errors(const struct family *f, const struct view *v, int x,
    struct num *n)
{
	(void)f;
	n->kind = NUM_U64;
	n->u = v->st.errors[x + 1];
	return 0;
}

/* Torn blocks: a family of their own, so that an alert on the sum of
 * verify errors does not fire at a crash or a power cut (block.h). */
static int
get_torn(const struct family *f, const struct view *v, int x, struct num *n)
{
	(void)f, (void)x;
	n->kind = NUM_U64;
	n->u = v->st.errors[BLK_TORN];
	return 0;
}

static const char *
class_label(const struct view *v, int x)
{
	(void)v;
	return blk_class_name((enum blk_class)(x + 1));
}

/* An info metric: always 1, its label says it. */
static int
get_one(const struct family *f, const struct view *v, int x, struct num *n)
{
	(void)f, (void)v, (void)x;
	n->kind = NUM_U64;
	n->u = 1;
	return 0;
}

static const char *
phase_label(const struct view *v, int x)
{
	(void)x;
	return phase_name(v->st.phase);
}

/* The states one-hot: the protocol's words (run states, then refused). */
#define NSTATES		PROTO_NSTATES

static int
get_state(const struct family *f, const struct view *v, int x,
    struct num *n)
{
	int	cur = v->st.refused ? PROTO_REFUSED : (int)v->st.run;

	(void)f;
	n->kind = NUM_U64;
	n->u = x == cur;
	return 0;
}

static const char *
state_label(const struct view *v, int x)
{
	(void)v;
	return proto_state_names[x];
}

/* A figure of the SMART summary; no sample when unread or unknown. */
static int
get_smart(const struct family *f, const struct view *v, int x,
    struct num *n)
{
	const struct smart_sum_val *s = &v->smart.v[f->fig];
	double		 k = f->div != 0 ? f->div : 1;

	(void)x;
	if (!v->smart.known || !s->has)
		return -1;
	if (s->kind == SUM_REAL || f->div != 0) {
		n->kind = NUM_DBL;
		n->d = smart_summary_double(&v->smart, f->fig) / k;
	} else if (s->kind == SUM_COUNT) {
		n->kind = NUM_U64;
		n->u = s->u;
	} else if (s->i < 0) {
		n->kind = NUM_I64;
		n->i = s->i;
	} else {
		n->kind = NUM_U64;
		n->u = (uint64_t)s->i;
	}
	return 0;
}

/* A figure of the status that is unknown while 0 (rated_tbw not given). */
static int
get_u64_known(const struct family *f, const struct view *v, int x,
    struct num *n)
{
	get_u64(f, v, x, n);
	return n->u != 0 ? 0 : -1;
}

/* The NVMe thermal management counters of level x + 1 (TMT1, TMT2): no
 * sample where the drive reports none. */
static int
get_thermal(const struct family *f, const struct view *v, int x,
    struct num *n)
{
	const uint32_t	*c = f->off == 0 ? v->smart.thermal_transitions :
	    v->smart.thermal_seconds;

	if (!v->smart.known || !v->smart.has_thermal)
		return -1;
	n->kind = NUM_U64;
	n->u = c[x];
	return 0;
}

/* A counter of the OCP C0h log (f->off: its ocp_fig), divided by f->div
 * when given; no sample where the drive has no such log. */
static int
get_ocp(const struct family *f, const struct view *v, int x, struct num *n)
{
	(void)x;
	if (!v->smart.known || !v->smart.has_ocp)
		return -1;
	if (f->div != 0) {
		n->kind = NUM_DBL;
		n->d = (double)v->smart.ocp[f->off] / f->div;
	} else {
		n->kind = NUM_U64;
		n->u = v->smart.ocp[f->off];
	}
	return 0;
}

static const char *
level_label(const struct view *v, int x)
{
	static const char *const levels[] = { "1", "2" };

	(void)v;
	return levels[x];
}

/* ---------------------------------------------------------------- table */

#define STATUS(n, t, g, field, h) { .name = (n), .type = (t), .help = (h), \
	.get = (g), .off = offsetof(struct drive_status, field) }
#define SMART(n, t, k, dv, h) { .name = (n), .type = (t), .help = (h), \
	.get = get_smart, .fig = (k), .div = (dv) }
#define OCP(n, t, k, dv, h) { .name = (n), .type = (t), .help = (h), \
	.get = get_ocp, .off = (k), .div = (dv) }
#define C	"counter"
#define G	"gauge"

/* verify_errors_total's classes: ok and torn left out, torn the last */
_Static_assert(BLK_TORN == BLK_NCLASS - 1, "torn is the last class");

static const struct family families[] = {
	STATUS("ssdtorture_host_written_bytes_total", C, get_u64,
	    host_bytes_written, "Bytes written to the drive by the daemon."),
	STATUS("ssdtorture_host_read_bytes_total", C, get_u64,
	    host_bytes_read, "Bytes read from the drive by the daemon."),
	STATUS("ssdtorture_write_bytes_per_second", G, get_dbl, write_bps,
	    "Current write rate (0 when no job runs)."),
	STATUS("ssdtorture_read_bytes_per_second", G, get_dbl, read_bps,
	    "Current read rate (0 when no job runs)."),
	STATUS("ssdtorture_flushes_total", C, get_u64, flushes,
	    "Cache flushes the drive completed."),
	STATUS("ssdtorture_flush_latency_seconds", G, get_flush, flush_lat_sec,
	    "Latency of the last cache flush."),
	STATUS("ssdtorture_flush_latency_max_seconds", G, get_flush,
	    flush_lat_max_sec, "Slowest cache flush since the worker started."),
	{ .name = "ssdtorture_verify_errors_total", .type = C,
	  .help = "Blocks found bad by verification, by class.",
	  .get = get_errors, .xlabel = "class", .nx = BLK_TORN - 1,
	  .xval = class_label },
	{ .name = "ssdtorture_torn_blocks_total", .type = C,
	  .help = "Blocks a crash or power loss cut in their write (part old, "
	  "part new): expected of the interface, not verify errors.",
	  .get = get_torn },
	STATUS("ssdtorture_probe_written_bytes_total", C, get_u64,
	    probe_bytes_written, "Bytes the performance checkpoints wrote "
	    "(counted in host_written too)."),
	STATUS("ssdtorture_checkpoints_completed_total", C, get_u64,
	    checkpoints_done, "Performance checkpoints completed."),
	STATUS("ssdtorture_cycles_completed_total", C, get_u64, cycles_done,
	    "Completed write, verify and trim cycles."),
	STATUS("ssdtorture_cycle", G, get_u64, cycle,
	    "Current cycle (1-based; 0 before the first write pass)."),
	STATUS("ssdtorture_phase_progress_ratio", G, get_dbl, phase_progress,
	    "Progress of the current phase, 0 to 1."),
	{ .name = "ssdtorture_phase_info", .type = G,
	  .help = "Current phase of the drive (the phase label), always 1.",
	  .get = get_one, .xlabel = "phase", .nx = 1, .xval = phase_label },
	{ .name = "ssdtorture_state", .type = G,
	  .help = "Run state of the drive, one-hot (refused: safety checks "
	  "failed, never touched).",
	  .get = get_state, .xlabel = "state", .nx = NSTATES,
	  .xval = state_label },
	STATUS("ssdtorture_capacity_bytes", G, get_u64, capacity,
	    "Capacity of the target."),
	STATUS("ssdtorture_span_bytes", G, get_u64, span_bytes,
	    "Bytes of the target under test."),
	STATUS("ssdtorture_rated_written_bytes", G, get_u64_known, rated_tbw,
	    "The maker's rated endurance in bytes written (rated_tbw; no "
	    "sample when not given)."),
	STATUS("ssdtorture_records_behind_seconds", G, get_u64,
	    records_behind_sec, "How long the drive's state or events could "
	    "not be written to the state directory (0 = current)."),
	STATUS("ssdtorture_records_kept_lines", G, get_u64, records_kept,
	    "Event and SMART lines kept in memory until the state directory "
	    "takes them."),
	SMART("ssdtorture_smart_percentage_used_ratio", G, FIG_PERCENT_USED, 100,
	    "SMART percentage used (endurance consumed), as a ratio; may "
	    "exceed 1."),
	SMART("ssdtorture_smart_available_spare_ratio", G, FIG_SPARE,
	    100, "SMART available spare, as a ratio."),
	SMART("ssdtorture_smart_temperature_celsius", G, FIG_TEMPERATURE, 0,
	    "SMART composite temperature."),
	SMART("ssdtorture_smart_media_errors_total", C, FIG_MEDIA_ERRORS, 0,
	    "SMART media and data integrity errors."),
	SMART("ssdtorture_smart_critical_warning", G, FIG_CRITICAL_WARNING, 0,
	    "SMART critical warning bits (0 = none)."),
	SMART("ssdtorture_smart_device_written_bytes_total", C,
	    FIG_DEVICE_WRITTEN, 0,
	    "Bytes written as counted by the drive (host writes it saw)."),
	SMART("ssdtorture_smart_nand_written_bytes_total", C,
	    FIG_NAND_WRITTEN, 0, "Bytes written to the NAND by the drive."),
	SMART("ssdtorture_smart_write_amplification", G, FIG_WAF, 0,
	    "NAND bytes per device-counted byte written since the baseline."),
	SMART("ssdtorture_smart_reallocated_sectors_total", C, FIG_REALLOCATED, 0,
	    "SMART reallocated sectors (or blocks)."),
	{ .name = "ssdtorture_smart_thermal_transitions_total", .type = C,
	  .help = "Times the NVMe drive entered thermal management level 1 "
	  "or 2 (light or heavy throttling), as the drive counts them.",
	  .get = get_thermal, .off = 0, .xlabel = "level", .nx = 2,
	  .xval = level_label },
	{ .name = "ssdtorture_smart_thermal_seconds_total", .type = C,
	  .help = "Seconds the NVMe drive spent in thermal management level 1 "
	  "or 2, as the drive counts them.",
	  .get = get_thermal, .off = 1, .xlabel = "level", .nx = 2,
	  .xval = level_label },
	/* the OCP C0h log's figures (its media bytes written are the NAND
	 * bytes above); none where the drive has no such log */
	OCP("ssdtorture_smart_ocp_media_read_bytes_total", C, OCP_MEDIA_READ,
	    0, "Bytes read from the NAND (OCP C0h Physical Media Units Read)."),
	OCP("ssdtorture_smart_ocp_bad_user_blocks", G, OCP_BAD_USER, 0,
	    "Bad user NAND blocks, raw count (OCP C0h)."),
	OCP("ssdtorture_smart_ocp_bad_user_blocks_normalized", G,
	    OCP_BAD_USER_NORM, 0,
	    "Bad user NAND blocks, normalized value (100 on a new drive)."),
	OCP("ssdtorture_smart_ocp_bad_system_blocks", G, OCP_BAD_SYSTEM, 0,
	    "Bad system NAND blocks, raw count (OCP C0h)."),
	OCP("ssdtorture_smart_ocp_bad_system_blocks_normalized", G,
	    OCP_BAD_SYSTEM_NORM, 0,
	    "Bad system NAND blocks, normalized value (100 on a new drive)."),
	OCP("ssdtorture_smart_ocp_xor_recoveries_total", C, OCP_XOR_RECOVERY,
	    0, "Times the drive recovered data from its parity across dies."),
	OCP("ssdtorture_smart_ocp_uncorrectable_reads_total", C,
	    OCP_UNCORRECTABLE_READ, 0, "Uncorrectable read errors (OCP C0h)."),
	OCP("ssdtorture_smart_ocp_soft_ecc_errors_total", C, OCP_SOFT_ECC, 0,
	    "Errors corrected by soft-decision ECC (OCP C0h)."),
	OCP("ssdtorture_smart_ocp_e2e_detected_errors_total", C,
	    OCP_E2E_DETECTED, 0, "End-to-end errors detected (OCP C0h)."),
	OCP("ssdtorture_smart_ocp_e2e_corrected_errors_total", C,
	    OCP_E2E_CORRECTED, 0, "End-to-end errors corrected (OCP C0h)."),
	OCP("ssdtorture_smart_ocp_system_data_used_ratio", G, OCP_SYSTEM_USED,
	    100, "Endurance of the drive's own metadata area consumed, as a "
	    "ratio (OCP C0h System Data % Used)."),
	OCP("ssdtorture_smart_ocp_erase_count_max", G, OCP_ERASE_MAX, 0,
	    "Highest erase count of the user data blocks (OCP C0h)."),
	OCP("ssdtorture_smart_ocp_erase_count_min", G, OCP_ERASE_MIN, 0,
	    "Lowest erase count of the user data blocks (OCP C0h)."),
	OCP("ssdtorture_smart_ocp_throttling_events", G, OCP_THROTTLE_EVENTS,
	    0, "Thermal throttling events as the drive counts them (OCP C0h; "
	    "one byte)."),
	OCP("ssdtorture_smart_ocp_throttling_status", G, OCP_THROTTLE_STATUS,
	    0, "Current thermal throttling: 0 none, 1 to 3 the level (OCP C0h)."),
	OCP("ssdtorture_smart_ocp_log_version", G, OCP_LOG_VERSION, 0,
	    "Version of the drive's OCP C0h log; no sample without one."),
};

#undef STATUS
#undef SMART
#undef OCP
#undef C
#undef G

/* ---------------------------------------------------------------- output */

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t
utf8_len(const unsigned char *s)
{
	static const uint32_t least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	uint32_t	c;
	size_t		i, n;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, c = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, c = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {	/* stops at the NUL: not 10xxxxxx */
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

/* A label value, escaped; bytes that are not UTF-8 become U+FFFD. */
static void
put_label(FILE *fp, const char *s)
{
	const unsigned char	*p = (const unsigned char *)(s ? s : "");
	size_t			 n;

	while (*p != '\0') {
		if (*p == '\\' || *p == '"' || *p == '\n') {
			fputs(*p == '\n' ? "\\n" : *p == '"' ? "\\\"" :
			    "\\\\", fp);
			p++;
		} else if ((n = utf8_len(p)) == 0) {
			fputs("\xef\xbf\xbd", fp);
			p++;
		} else {
			fwrite(p, 1, n, fp);
			p += n;
		}
	}
}

/* A double as the text format spells it, shortest that reads back. */
static void
put_double(FILE *fp, double d)
{
	char	buf[40];

	if (isnan(d)) {
		fputs("NaN", fp);
		return;
	}
	if (isinf(d)) {
		fputs(d > 0 ? "+Inf" : "-Inf", fp);
		return;
	}
	snprintf(buf, sizeof(buf), "%.15g", d);
	if (strtod(buf, NULL) != d)
		snprintf(buf, sizeof(buf), "%.17g", d);
	fputs(buf, fp);
}

static void
put_num(FILE *fp, const struct num *n)
{
	if (n->kind == NUM_U64)
		fprintf(fp, "%" PRIu64, n->u);
	else if (n->kind == NUM_I64)
		fprintf(fp, "%" PRId64, n->i);
	else
		put_double(fp, n->d);
}

static void
put_sample(FILE *fp, const struct family *f, const struct view *v, int x,
    const struct num *n)
{
	fprintf(fp, "%s{drive=\"", f->name);
	put_label(fp, v->st.name);
	fputs("\",serial=\"", fp);
	put_label(fp, v->st.serial);
	fputs("\",model=\"", fp);
	put_label(fp, v->st.model);
	if (f->xlabel != NULL) {
		fprintf(fp, "\",%s=\"", f->xlabel);
		put_label(fp, f->xval(v, x));
	}
	fputs("\"} ", fp);
	put_num(fp, n);
	fputc('\n', fp);
}

/* A family's HELP, TYPE and samples; nothing when it has no sample. */
static void
put_family(FILE *fp, const struct family *f, const struct view *v, size_t n)
{
	struct num	val;
	size_t		i;
	int		x, nx = f->nx > 0 ? f->nx : 1, head = 0;

	for (i = 0; i < n; i++)
		for (x = 0; x < nx; x++) {
			memset(&val, 0, sizeof(val));
			if (f->get(f, &v[i], x, &val) != 0)
				continue;
			if (head++ == 0)
				fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n",
				    f->name, f->help, f->name, f->type);
			put_sample(fp, f, &v[i], x, &val);
		}
}

/* ---------------------------------------------------------------- file */

/* The drives' views and the daemon's own figures, for put_all. */
struct views {
	const struct view	*v;
	size_t			 n;
	const struct loop_stats	*loop;
};

/* A figure of the daemon itself: no drive labels. */
static void
put_daemon(FILE *fp, const char *name, const char *type, const char *help,
    const struct num *n)
{
	fprintf(fp, "# HELP %s %s\n# TYPE %s %s\n%s ", name, help, name, type,
	    name);
	put_num(fp, n);
	fputc('\n', fp);
}

/* The main loop: how long clients and the tick could have waited. */
static void
put_loop(FILE *fp, const struct loop_stats *ls)
{
	struct num	n = { .kind = NUM_U64 };
	char		help[128];

	n.u = ls->turns;
	put_daemon(fp, "ssdtorture_main_loop_turns_total", "counter",
	    "Event sources the daemon's main loop dispatched", &n);
	n.u = ls->slow;
	snprintf(help, sizeof(help), "Turns of the main loop longer than %g s "
	    "(a client or the tick waited that long)", LOOP_SLOW_NS / 1e9);
	put_daemon(fp, "ssdtorture_main_loop_slow_turns_total", "counter",
	    help, &n);
	n = (struct num){ .kind = NUM_DBL, .d = (double)ls->max_ns / 1e9 };
	put_daemon(fp, "ssdtorture_main_loop_longest_turn_seconds", "gauge",
	    "The longest turn of the main loop since the daemon started", &n);
}

/* Every family into fp (statedir_replace checks the writes). */
static int
put_all(FILE *fp, void *arg)
{
	const struct views	*vs = arg;
	size_t			 i;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		put_family(fp, &families[i], vs->v, vs->n);
	if (vs->loop != NULL)
		put_loop(fp, vs->loop);
	return 0;
}

int
metrics_write(const char *path, struct drive *const *drives, size_t n,
    const struct loop_stats *loop)
{
	struct view	*v;
	struct views	 vs;
	size_t		 i;
	int		 rc, saved;

	if ((v = calloc(n > 0 ? n : 1, sizeof(*v))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		drive_status_get(drives[i], &v[i].st);
		drive_smart_summary(drives[i], &v[i].smart);
	}
	vs.v = v;
	vs.n = n;
	vs.loop = loop;
	/* node_exporter reads it, whatever the service's UMask */
	rc = statedir_replace(path, 0644, put_all, &vs);
	saved = errno;
	free(v);
	errno = saved;
	return rc;
}
