/* output.c: what ssdctl prints for a person (tables, human units). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "block.h"
#include "output.h"
#include "proto.h"
#include "units.h"

/* Set once at start; ssdctl is single-threaded. */
static int	use_colour;

void
output_init(FILE *fp)
{
	const char	*nc = getenv("NO_COLOR");

	use_colour = isatty(fileno(fp)) && (nc == NULL || nc[0] == '\0');
}

static const char *
str(json_object *o, const char *key)
{
	json_object	*v;

	if (!json_object_object_get_ex(o, key, &v) || v == NULL)
		return "";
	return json_object_get_string(v);
}

static uint64_t
u64(json_object *o, const char *key)
{
	json_object	*v;

	if (!json_object_object_get_ex(o, key, &v) || v == NULL)
		return 0;
	return (uint64_t)json_object_get_int64(v);
}

static double
dbl(json_object *o, const char *key)
{
	json_object	*v;

	if (!json_object_object_get_ex(o, key, &v) || v == NULL)
		return 0;
	return json_object_get_double(v);
}

static int
boolean(json_object *o, const char *key)
{
	json_object	*v;

	return json_object_object_get_ex(o, key, &v) && v != NULL &&
	    json_object_get_boolean(v);
}

/* The state word, coloured on a terminal (stopped: plain). */
static const char *
state_colour(const char *state)
{
	static const char *const colour[PROTO_NSTATES] = {
		[PROTO_RUNNING] = "\033[32m", [PROTO_PAUSED] = "\033[33m",
		[PROTO_FAILED] = "\033[31m", [PROTO_REFUSED] = "\033[31m",
		[PROTO_FINISHED] = "\033[34m"
	};
	int	s = proto_word(proto_state_names, PROTO_NSTATES, state);

	return use_colour && s >= 0 && colour[s] != NULL ? colour[s] : "";
}

/* Is the state word `word` the protocol's state s? */
static int
state_is(const char *word, enum proto_state s)
{
	return strcmp(word, proto_state_names[s]) == 0;
}

static const char *
reset(void)
{
	return use_colour ? "\033[0m" : "";
}

/* "running", or "refused" for a drive the safety checks turned down. */
static const char *
state_of(json_object *d)
{
	return boolean(d, "refused") ? proto_state_names[PROTO_REFUSED] :
	    str(d, "state");
}

/* The status' checkpoint object when it names a running step, else NULL. */
static json_object *
checkpoint_step(json_object *d)
{
	json_object	*c;

	if (!json_object_object_get_ex(d, "checkpoint", &c) ||
	    !json_object_is_type(c, json_type_object) ||
	    str(c, "step")[0] == '\0')
		return NULL;
	return c;
}

/*
 * "write 42.1%", "verify* 3.0%" for an on-demand verify pass; in a
 * performance checkpoint "checkpoint 14/63" (the step of the steps), and
 * when full "checkpoint 3: rand-read-4k-qd32 (14/63) 42.1%".
 */
static void
phase_text(json_object *d, char *buf, size_t len, int full)
{
	const char	*st = str(d, "state");
	json_object	*c = checkpoint_step(d);

	if (state_is(st, PROTO_FINISHED) || state_is(st, PROTO_FAILED) ||
	    boolean(d, "refused")) {
		snprintf(buf, len, "-");
		return;
	}
	if (c != NULL && full)
		snprintf(buf, len, "%s %" PRIu64 ": %s (%" PRIu64 "/%" PRIu64
		    ") %.1f%%", str(d, "phase"), u64(c, "number"),
		    str(c, "step"), u64(c, "index"), u64(c, "steps"),
		    dbl(d, "phase_progress") * 100.0);
	else if (c != NULL)
		snprintf(buf, len, "%s %" PRIu64 "/%" PRIu64, str(d, "phase"),
		    u64(c, "index"), u64(c, "steps"));
	else
		snprintf(buf, len, "%s %5.1f%%", boolean(d, "verifying") ?
		    "verify*" : str(d, "phase"),
		    dbl(d, "phase_progress") * 100.0);
}

/* "850.2 MB/s" */
static char *
rate(double bps, char *buf, size_t len)
{
	char	tmp[24];

	units_fmt_dec((uint64_t)(bps + 0.5), tmp, sizeof(tmp));
	snprintf(buf, len, "%.24s/s", tmp);
	return buf;
}

/* "12%" wear and "41C" from the status' smart object, or "-". */
static void
wear_temp(json_object *d, char *wear, size_t wl, char *temp, size_t tl)
{
	json_object	*s, *v;

	snprintf(wear, wl, "-");
	snprintf(temp, tl, "-");
	if (!json_object_object_get_ex(d, "smart", &s) || s == NULL)
		return;
	if (json_object_object_get_ex(s, "percent_used", &v) && v != NULL)
		snprintf(wear, wl, "%.0f%%", json_object_get_double(v));
	if (json_object_object_get_ex(s, "temperature_c", &v) && v != NULL)
		snprintf(temp, tl, "%dC", json_object_get_int(v));
}

void
output_status_table(FILE *fp, json_object *drives)
{
	size_t	 i, n = json_object_array_length(drives), w = 5;
	char	 ph[40], eta[32], wr[32], wb[40], rb[40], er[32], we[16], te[16];

	for (i = 0; i < n; i++) {
		size_t l = strlen(str(json_object_array_get_idx(drives, i),
		    "name"));
		w = l > w ? l : w;
	}
	fprintf(fp, "%-*s  %-8s  %-14s  %-8s  %5s  %-10s  %-12s  %-12s  %-5s  "
	    "%-5s  %s\n", (int)w, "DRIVE", "STATE", "PHASE", "ETA", "CYCLE",
	    "WRITTEN", "WRITE", "READ", "WEAR", "TEMP", "ERRORS");
	for (i = 0; i < n; i++) {
		json_object *d = json_object_array_get_idx(drives, i);
		uint64_t e = u64(d, "errors_total");

		phase_text(d, ph, sizeof(ph), 0);
		if (u64(d, "eta_seconds") > 0)
			units_fmt_duration(u64(d, "eta_seconds"), eta,
			    sizeof(eta));
		else
			snprintf(eta, sizeof(eta), "-");
		snprintf(er, sizeof(er), "%" PRIu64, e);
		wear_temp(d, we, sizeof(we), te, sizeof(te));
		fprintf(fp, "%-*s  %s%-8s%s  %-14s  %-8s  %5" PRIu64 "  %-10s  "
		    "%-12s  %-12s  %-5s  %-5s  %s%s%s\n", (int)w, str(d, "name"),
		    state_colour(state_of(d)), state_of(d), reset(), ph, eta,
		    u64(d, "cycle"), units_fmt_dec(u64(d, "host_bytes_written"),
		    wr, sizeof(wr)), rate(dbl(d, "write_bytes_per_sec"), wb,
		    sizeof(wb)), rate(dbl(d, "read_bytes_per_sec"), rb,
		    sizeof(rb)), we, te, e && use_colour ? "\033[31m" : "", er,
		    e && use_colour ? reset() : "");
	}
}

/* Cache flushes: how many, and how long the drive takes to do one. */
static void
detail_flushes(FILE *fp, json_object *d)
{
	json_object	*v;

	fprintf(fp, "  %-15s %" PRIu64, "flushes:", u64(d, "flushes"));
	if (json_object_object_get_ex(d, "flush_latency_seconds", &v) &&
	    v != NULL)
		fprintf(fp, " (last %.1f ms, slowest %.1f ms)",
		    dbl(d, "flush_latency_seconds") * 1e3,
		    dbl(d, "flush_latency_max_seconds") * 1e3);
	fputc('\n', fp);
}

/* Power losses, once there was one: how many, the cuts among them,
 * what the cache kept; a cut under way. */
static void
detail_power(FILE *fp, json_object *d)
{
	const char	*cut = str(d, "power_cut");

	if (u64(d, "power_losses") != 0)
		fprintf(fp, "  %-15s %" PRIu64 " (power cuts: %" PRIu64
		    "; unflushed writes kept: %" PRIu64 "%s)\n",
		    "power losses:", u64(d, "power_losses"),
		    u64(d, "power_cuts"), u64(d, "unflushed_kept"),
		    boolean(d, "power_verify_owed") ? "; its verify owed" : "");
	if (cut != NULL && cut[0] != '\0')
		fprintf(fp, "  %-15s under way: %s\n", "power cut:", cut);
}

/* The per-class breakdown of verify errors; torn blocks apart, as they
 * are no error of the drive (block.h, blk_class_is_error). */
static void
detail_errors(FILE *fp, json_object *d)
{
	json_object	*e = NULL;
	int		 i, n = 0;

	fprintf(fp, "  %-15s %" PRIu64 "\n", "verify errors:",
	    u64(d, "errors_total"));
	json_object_object_get_ex(d, "errors", &e);
	fprintf(fp, "  %-15s", "");
	/* the classes past BLK_OK, as the daemon names them (block.c) */
	for (i = BLK_OK + 1; i < BLK_NCLASS; i++)
		if (blk_class_is_error(i))
			fprintf(fp, "%s %s %" PRIu64, n++ > 0 ? "," : "",
			    blk_class_name(i), e ? u64(e, blk_class_name(i)) :
			    0);
	fprintf(fp, "\n  %-15s %" PRIu64 " (writes a crash or power loss "
	    "cut: not verify errors)\n", "torn blocks:", e ? u64(e,
	    blk_class_name(BLK_TORN)) : 0);
}

/* "records: current", or how far behind and why. */
static void
detail_records(FILE *fp, json_object *d)
{
	json_object	*r;
	json_bool	 current;

	if (!json_object_object_get_ex(d, "records", &r) || r == NULL)
		return;
	current = json_object_get_boolean(json_object_object_get(r,
	    "current"));
	if (current)
		fprintf(fp, "  %-15s current\n", "records:");
	else
		fprintf(fp, "  %-15s %" PRIu64 " s behind, %s (%" PRIu64
		    " lines kept)\n", "records:", u64(r, "behind_seconds"),
		    str(r, "why"), u64(r, "kept_lines"));
}

const char *
output_share(double percent, char *buf, size_t len)
{
	double	times = percent / 100.0;

	if (!isfinite(percent) || percent < 0)
		snprintf(buf, len, "?");
	else if (percent < 1000)
		snprintf(buf, len, "%.1f %%", percent);
	else
		snprintf(buf, len, times < 100 ? "%.1f times" : "%.0f times",
		    times);
	return buf;
}

/*
 * Between performance checkpoints: "checkpoint due" when one is asked for
 * or due at the next cycle boundary, else where the next one is due;
 * nothing without a checkpoint object or while one runs (the phase says).
 * A drive whose run has ended (finished, failed) runs none until it is
 * started again: only the count done, whatever the daemon's fields say.
 */
static void
detail_checkpoint(FILE *fp, json_object *d)
{
	json_object	*c;
	char		 a[40];

	if (!json_object_object_get_ex(d, "checkpoint", &c) ||
	    !json_object_is_type(c, json_type_object) ||
	    checkpoint_step(d) != NULL)
		return;
	if (state_is(state_of(d), PROTO_FINISHED) ||
	    state_is(state_of(d), PROTO_FAILED))
		fprintf(fp, "  %-15s %" PRIu64 " done (the run has ended)\n",
		    "checkpoints:", u64(c, "number"));
	else if (boolean(c, "pending"))
		fprintf(fp, "  %-15s checkpoint due (at the next cycle "
		    "boundary)\n", "checkpoints:");
	else if (u64(c, "next_at_bytes") > 0)
		fprintf(fp, "  %-15s %" PRIu64 " done, the next at %s written\n",
		    "checkpoints:", u64(c, "number"), units_fmt_dec(u64(c,
		    "next_at_bytes"), a, sizeof(a)));
}

/* "rated: 1.000 TB, 83.3 % of it written", or past 1000 % "written
 * 12.5 times over". */
static void
detail_rated(FILE *fp, json_object *d)
{
	double	pct = 100.0 * (double)u64(d, "host_bytes_written") /
	    (double)u64(d, "rated_tbw_bytes");
	char	a[40], b[40];

	units_fmt_dec(u64(d, "rated_tbw_bytes"), a, sizeof(a));
	output_share(pct, b, sizeof(b));
	fprintf(fp, pct < 1000 ? "  %-15s %s, %s of it written\n" :
	    "  %-15s %s, written %s over\n", "rated:", a, b);
}

/* The OCP C0h log's current throttling status byte, in words. */
static const char *
throttle_text(json_object *v, char *buf, size_t len)
{
	int64_t	st = json_object_get_int64(v);

	if (st == 0)
		snprintf(buf, len, "unthrottled");
	else if (st >= 1 && st <= 3)
		snprintf(buf, len, "throttling, level %d", (int)st);
	else
		snprintf(buf, len, "status 0x%02x", (unsigned)st);
	return buf;
}

/*
 * One line of the status' smart object: `what` (its figure, "-" when
 * unknown), then an NVMe drive's two OCP figures k1 and k2 as fmt puts
 * them and their source, or `none` and "unknown (why)" when the drive
 * has no OCP log ("ocp_source" says which).
 */
static void
smart_pair(FILE *fp, const char *label, const char *what, json_object *s,
    const char *k1, const char *k2, const char *fmt, const char *none)
{
	json_object	*v1, *v2;
	char		 b[160], t[40];

	b[0] = '\0';
	if (json_object_object_get_ex(s, k1, &v1) && v1 != NULL &&
	    json_object_object_get_ex(s, k2, &v2) && v2 != NULL) {
		snprintf(b, sizeof(b), fmt, json_object_get_string(v1),
		    strcmp(k2, "ocp_throttle_status") == 0 ?
		    throttle_text(v2, t, sizeof(t)) :
		    json_object_get_string(v2));
		fprintf(fp, "  %-15s %s%s  [%s]\n", label, what, b,
		    str(s, "ocp_source"));
	} else if (json_object_object_get_ex(s, "ocp_source", &v1))
		fprintf(fp, "  %-15s %s; %s %s\n", label, what, none,
		    json_object_get_string(v1));
	else
		fprintf(fp, "  %-15s %s\n", label, what);
}

/* Wear and temperature (when the drive has SMART), with an NVMe drive's
 * OCP erase counts beside percentage used and its throttling beside the
 * temperature. */
static void
detail_smart(FILE *fp, json_object *d)
{
	json_object	*s;
	char		 w[16], t[16];

	if (!json_object_object_get_ex(d, "smart", &s) || s == NULL)
		return;
	wear_temp(d, w, sizeof(w), t, sizeof(t));
	smart_pair(fp, "wear:", w, s, "ocp_erase_count_max",
	    "ocp_erase_count_min", "; erase counts max %s, min %s",
	    "erase counts");
	smart_pair(fp, "temperature:", t, s, "ocp_throttle_events",
	    "ocp_throttle_status", "; throttling events %s, now %s",
	    "throttling");
}

void
output_status_detail(FILE *fp, json_object *d)
{
	char	a[40], b[40], ph[160], eta[64];

	phase_text(d, ph, sizeof(ph), 1);
	fprintf(fp, "%s\n", str(d, "name"));
	fprintf(fp, "  %-15s %s\n", "device:", str(d, "device"));
	fprintf(fp, "  %-15s %s\n", "serial:", str(d, "serial"));
	if (str(d, "model")[0] != '\0')
		fprintf(fp, "  %-15s %s\n", "model:", str(d, "model"));
	fprintf(fp, "  %-15s %s%s%s\n", "state:", state_colour(state_of(d)),
	    state_of(d), reset());
	if (str(d, "reason")[0] != '\0')
		fprintf(fp, "  %-15s %s\n", "reason:", str(d, "reason"));
	if (u64(d, "eta_seconds") > 0)
		snprintf(eta, sizeof(eta), " (ETA %s)", units_fmt_duration(
		    u64(d, "eta_seconds"), a, sizeof(a)));
	else
		eta[0] = '\0';
	fprintf(fp, "  %-15s %s%s\n", "phase:", ph, eta);
	detail_checkpoint(fp, d);
	fprintf(fp, "  %-15s %" PRIu64 " (%" PRIu64 " done)\n", "cycle:",
	    u64(d, "cycle"), u64(d, "cycles_done"));
	fprintf(fp, "  %-15s %s of %s\n", "span:", units_fmt_bin(u64(d,
	    "span_bytes"), a, sizeof(a)), units_fmt_bin(u64(d, "capacity"), b,
	    sizeof(b)));
	fprintf(fp, "  %-15s %s (%.6f TB)\n", "written:", units_fmt_dec(u64(d,
	    "host_bytes_written"), a, sizeof(a)),
	    (double)u64(d, "host_bytes_written") / 1e12);
	if (u64(d, "probe_bytes_written") > 0)	/* of it, the checkpoints' */
		fprintf(fp, "  %-15s %s\n", "by probes:", units_fmt_dec(u64(d,
		    "probe_bytes_written"), a, sizeof(a)));
	if (u64(d, "rated_tbw_bytes") > 0)	/* the maker's rating */
		detail_rated(fp, d);
	fprintf(fp, "  %-15s %s\n", "read:", units_fmt_dec(u64(d,
	    "host_bytes_read"), a, sizeof(a)));
	fprintf(fp, "  %-15s write %s, read %s\n", "throughput:",
	    rate(dbl(d, "write_bytes_per_sec"), a, sizeof(a)),
	    rate(dbl(d, "read_bytes_per_sec"), b, sizeof(b)));
	detail_smart(fp, d);
	detail_flushes(fp, d);
	detail_power(fp, d);
	detail_errors(fp, d);
	detail_records(fp, d);
}

void
output_event(FILE *fp, json_object *ev)
{
	const char	*name = str(ev, "event");
	int		 bad = strcmp(name, "verify_error") == 0 ||
	    strcmp(name, "failed") == 0 || strcmp(name, "refused") == 0;

	fprintf(fp, "%s  %s%-12s%s  %s\n", str(ev, "time"),
	    bad && use_colour ? "\033[31m" : "", name, bad ? reset() : "",
	    str(ev, "message"));
}

/* One line of the SMART view: latest, and its change when known. */
static void
smart_line(FILE *fp, const char *label, json_object *latest,
    json_object *delta, const char *key, int bytes)
{
	json_object	*v, *dv, *srcs = NULL, *sv = NULL;
	char		 a[40], b[80];
	const char	*src;

	/* where the figure came from, or why it is unknown (sources) */
	json_object_object_get_ex(latest, "sources", &srcs);
	if (srcs != NULL)
		json_object_object_get_ex(srcs, key, &sv);
	src = sv != NULL ? json_object_get_string(sv) : NULL;
	if (!json_object_object_get_ex(latest, key, &v) || v == NULL) {
		if (src != NULL)
			fprintf(fp, "  %-22s %s\n", label, src);
		return;
	}
	if (bytes)
		units_fmt_dec((uint64_t)json_object_get_int64(v), a, sizeof(a));
	else
		snprintf(a, sizeof(a), "%s", json_object_get_string(v));
	b[0] = '\0';
	if (delta != NULL && json_object_object_get_ex(delta, key, &dv) &&
	    dv != NULL) {
		if (bytes) {
			char t[32];
			units_fmt_dec((uint64_t)json_object_get_int64(dv), t,
			    sizeof(t));
			snprintf(b, sizeof(b), "  (+%s since baseline)", t);
		} else
			snprintf(b, sizeof(b), "  (+%s since baseline)",
			    json_object_get_string(dv));
	}
	fprintf(fp, "  %-22s %s%s%s%s%s\n", label, a, b, src != NULL ? "  [" : "",
	    src != NULL ? src : "", src != NULL ? "]" : "");
}

/*
 * The rest of an NVMe drive's OCP C0h log: its figures when it has one,
 * else the one line that says why not (from the sources; nothing for a
 * reading without OCP figures: SATA, SAS).
 */
static void
smart_ocp(FILE *fp, json_object *l, json_object *d)
{
	json_object	*v, *srcs;

	if (!json_object_object_get_ex(l, "ocp_log_version", &v))
		return;
	if (v == NULL) {
		if (json_object_object_get_ex(l, "sources", &srcs) &&
		    json_object_object_get_ex(srcs, "ocp_log_version", &v))
			fprintf(fp, "  %-22s %s\n", "OCP C0h log:",
			    json_object_get_string(v));
		return;
	}
	fprintf(fp, "  %-22s version %s, GUID %s\n", "OCP C0h log:",
	    json_object_get_string(v), str(l, "ocp_guid"));
	smart_line(fp, "media read:", l, d, "ocp_media_bytes_read", 1);
	smart_line(fp, "bad user blocks:", l, d, "ocp_bad_user_blocks", 0);
	smart_line(fp, "  normalized:", l, NULL,
	    "ocp_bad_user_blocks_normalized", 0);
	smart_line(fp, "bad system blocks:", l, d, "ocp_bad_system_blocks", 0);
	smart_line(fp, "  normalized:", l, NULL,
	    "ocp_bad_system_blocks_normalized", 0);
	smart_line(fp, "XOR recoveries:", l, d, "ocp_xor_recoveries", 0);
	smart_line(fp, "uncorrectable reads:", l, d, "ocp_uncorrectable_reads",
	    0);
	smart_line(fp, "soft ECC errors:", l, d, "ocp_soft_ecc_errors", 0);
	smart_line(fp, "end-to-end detected:", l, d, "ocp_e2e_detected_errors",
	    0);
	smart_line(fp, "end-to-end corrected:", l, d,
	    "ocp_e2e_corrected_errors", 0);
	smart_line(fp, "system data used (%):", l, NULL,
	    "ocp_system_percent_used", 0);
}

void
output_smart(FILE *fp, const char *drive, json_object *r)
{
	json_object	*l = NULL, *d = NULL, *st = NULL, *v;

	json_object_object_get_ex(r, "latest", &l);
	json_object_object_get_ex(r, "delta", &d);
	json_object_object_get_ex(r, "status", &st);
	if (l == NULL)
		return;
	fprintf(fp, "%s: %s %s, firmware %s (%s%s%s)\n", drive,
	    str(l, "model"), str(l, "serial"), str(l, "firmware"),
	    str(l, "source"), *str(l, "read_with") != '\0' ? ", read with " :
	    "", str(l, "read_with"));
	smart_line(fp, "percent used:", l, d, "percent_used", 0);
	smart_line(fp, "erase count (max):", l, d, "ocp_erase_count_max", 0);
	smart_line(fp, "erase count (min):", l, d, "ocp_erase_count_min", 0);
	smart_line(fp, "available spare:", l, NULL, "available_spare", 0);
	smart_line(fp, "spare threshold:", l, NULL, "spare_threshold", 0);
	smart_line(fp, "temperature (C):", l, NULL, "temperature_c", 0);
	smart_line(fp, "critical warning:", l, NULL, "critical_warning", 0);
	smart_line(fp, "media errors:", l, d, "media_errors", 0);
	smart_line(fp, "reallocated:", l, d, "reallocated", 0);
	smart_line(fp, "pending:", l, NULL, "pending", 0);
	smart_line(fp, "device written:", l, d, "device_bytes_written", 1);
	smart_line(fp, "device read:", l, NULL, "device_bytes_read", 1);
	smart_line(fp, "NAND written:", l, d, "nand_bytes_written", 1);
	if (st != NULL && json_object_object_get_ex(st, "waf", &v) && v != NULL)
		fprintf(fp, "  %-22s %.3f\n", "write amplification:",
		    json_object_get_double(v));
	if (d != NULL && json_object_object_get_ex(d, "host_bytes_written", &v))
		fprintf(fp, "  %-22s %s since baseline\n", "we wrote:",
		    units_fmt_dec((uint64_t)json_object_get_int64(v),
		    (char[40]){0}, 40));
	smart_line(fp, "power-on hours:", l, NULL, "power_on_hours", 0);
	smart_line(fp, "power cycles:", l, NULL, "power_cycles", 0);
	smart_line(fp, "unsafe shutdowns:", l, NULL, "unsafe_shutdowns", 0);
	smart_line(fp, "warning temp (min):", l, NULL, "warning_temp_minutes", 0);
	smart_line(fp, "critical temp (min):", l, NULL, "critical_temp_minutes",
	    0);
	smart_line(fp, "throttling events:", l, NULL, "ocp_throttle_events", 0);
	smart_line(fp, "throttling status:", l, NULL, "ocp_throttle_status", 0);
	smart_line(fp, "health passed:", l, NULL, "health_passed", 0);
	smart_ocp(fp, l, d);
}
