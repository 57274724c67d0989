#!/bin/bash
# The Prometheus textfile ([daemon] prometheus_textfile): the daemon keeps
# the file current (rewritten every 15 s), it passes `promtool check
# metrics` without a lint complaint (or promcheck.py, a strict parser, when
# promtool is missing), its values agree with the daemon's own counters
# (ssdctl --json status) within the 15 s staleness, and it is replaced
# atomically: read thousands of times while the daemon rewrites it, every
# read is a whole file, every version a new inode, no temp file remains.
# Takes about a minute (the daemon writes the file every 15 s).
# Then metrics.c alone on synthetic drives: label escaping, NaN/Inf, SMART
# ratios and nulls, the refused state, no drives, failures.
# run: timed
# (tests/lib/jobs.sh; the bound: the file rewritten every 15 s, read back within that)
. "$(dirname "$0")/lib.sh"
need_root

CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
[ -x "$CTL" ] || die "$CTL is missing (make -C $ROOT)"
cp "$CTL" "$T/ssdctl" || die "cannot copy $CTL"
CTL=$T/ssdctl
# PROMTOOL= (empty) in the environment: as if promtool were missing
PROMTOOL=${PROMTOOL-$(command -v promtool || true)}
[ -n "$PROMTOOL" ] || note "promtool missing: promcheck.py alone validates"

ST=$T/state
SOCK=$ST.sock
PDIR=$T/textfile
PROM=$PDIR/ssdtorture.prom
mkdir -p "$PDIR"

# a: never ends (random 4k blocks, no idle); b: one cycle, finished within
# a second or so, its counters frozen from then on
write_conf "$T/c.conf" "$ST" <<EOF
prometheus_textfile = $PROM
[drive:a]
device = $T/a.img
size = 64M
block_size = 4k
order = random
queue_depth = 32
idle = 0
cycles = 0
[drive:b]
device = $T/b.img
size = 128M
block_size = 128k
idle = 0
cycles = 1
EOF

# validate WHAT FILE : promtool (when installed) and promcheck.py, both
# silent and successful.
validate() {
	local out rc
	if [ -n "$PROMTOOL" ]; then
		out=$("$PROMTOOL" check metrics <"$2" 2>&1)
		rc=$?
		assert_rc "$1: promtool check metrics" 0 "$rc"
		assert_eq "$1: promtool complaints" "" "$out"
	fi
	out=$(python3 "$IT_DIR/promcheck.py" "$2" 2>&1)
	rc=$?
	assert_rc "$1: promcheck.py" 0 "$rc"
	assert_eq "$1: promcheck.py complaints" "" "$out"
}

# monitor OUTDIR TIMEOUT_S VERSIONS [DRIVE=STATE] : read the textfile in a
# tight loop, the daemon's status between rounds of reads; stop once
# VERSIONS versions were seen (and one with DRIVE in STATE, when given).
# Each version is saved as OUTDIR/ver.N.prom. Complaints on stdout, exit
# status 1 when any; the last line sums up.
monitor() {
	python3 - "$IT_DIR" "$PROM" "$CTL" "$SOCK" "$SSDT_PID" "$@" <<'EOF'
import json, math, os, subprocess, sys, time
sys.path.insert(0, sys.argv[1])
import promcheck
prom, ctl, sock, pid = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
outdir, limit, want = sys.argv[6], float(sys.argv[7]), int(sys.argv[8])
until = sys.argv[9].split("=") if len(sys.argv) > 9 else None
P = "ssdtorture_"
COUNTERS = {P + "host_written_bytes_total": "host_bytes_written",
            P + "host_read_bytes_total": "host_bytes_read",
            P + "cycles_completed_total": "cycles_done"}
GAUGES = {P + "cycle": "cycle", P + "capacity_bytes": "capacity",
          P + "span_bytes": "span_bytes"}
TYPES = dict([(k, "counter") for k in COUNTERS] + [(k, "gauge") for k in GAUGES] + [
    (P + "write_bytes_per_second", "gauge"), (P + "read_bytes_per_second", "gauge"),
    (P + "verify_errors_total", "counter"), (P + "phase_progress_ratio", "gauge"),
    (P + "phase_info", "gauge"), (P + "state", "gauge")])
EXTRA = {P + "verify_errors_total": "class", P + "phase_info": "phase",
         P + "state": "state"}
CLASSES = ["corrupt", "misdirected", "stale", "foreign", "unwritten", "io_error"]
STATES = ["running", "paused", "stopped", "finished", "failed", "refused"]
PHASES = ["static", "write", "verify", "trim", "idle", "none"]
SMART = {"percentage_used_ratio": "percent_used",
         "available_spare_ratio": "available_spare",
         "temperature_celsius": "temperature_c",
         "media_errors_total": "media_errors",
         "critical_warning": "critical_warning",
         "device_written_bytes_total": "device_bytes_written",
         "nand_written_bytes_total": "nand_bytes_written",
         "write_amplification": "waf",
         "reallocated_sectors_total": "reallocated"}
bad = 0
def complain(msg):
    global bad
    bad += 1
    if bad <= 40:
        print("  " + msg)
def alive(p):
    try:
        with open("/proc/%d/stat" % p) as f:
            return f.read().rsplit(") ", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False
def status():
    r = subprocess.run([ctl, "-s", sock, "--json", "status"],
                       capture_output=True, text=True, timeout=10)
    if r.returncode != 0:
        raise RuntimeError("ssdctl status: %s" % r.stderr.strip())
    return {d["name"]: d for d in json.loads(r.stdout)["drives"]}

def values(fams):
    """drive -> {(family, extra label value): value}, checking the labels."""
    out = {}
    for name, f in fams.items():
        if not name.startswith(P):
            complain("foreign family %s" % name)
        for sname, labels, v in f.samples:
            want_labels = {"drive", "serial", "model"}
            if name in EXTRA:
                want_labels.add(EXTRA[name])
            if set(labels) != want_labels:
                complain("%s: labels %s" % (name, sorted(labels)))
                continue
            out.setdefault(labels["drive"], {})[
                (name, labels.get(EXTRA.get(name, ""), ""))] = (v, labels)
    return out

def complete(text, drives):
    """A whole file: parses cleanly, every family has every drive."""
    fams, problems = promcheck.check(text)
    for p in problems:
        complain("read: " + p)
    for name, typ in TYPES.items():
        f = fams.get(name)
        if f is None:
            complain("read: family %s missing" % name); continue
        if f.type != typ:
            complain("%s: TYPE %s, expected %s" % (name, f.type, typ))
        n = {"class": 6, "state": 6}.get(EXTRA.get(name), 1)
        for d in drives:
            got = sum(1 for _, l, _ in f.samples if l.get("drive") == d)
            if got != n:
                complain("read: %s has %d series of drive %s, expected %d"
                         % (name, got, d, n))
    return fams

def check_version(fams, before, after, stale, prev):
    """One version against the statuses before it (None: unknown), after
    it, >= 20 s before it; prev: the counters of the version before.
    Returns this version's counters."""
    vals, counts = values(fams), {}
    if sorted(vals) != sorted(after):
        complain("drives %s, status has %s" % (sorted(vals), sorted(after)))
    for d, sa in after.items():
        v = vals.get(d, {})
        get = lambda fam, x="": v.get((fam, x), (None, {}))[0]
        for fam, (val, labels) in v.items():
            if (labels["serial"], labels["model"]) != (sa["serial"], sa["model"]):
                complain("%s: serial/model %r/%r, status %r/%r" % (d,
                         labels["serial"], labels["model"], sa["serial"], sa["model"]))
                break
        sb = before.get(d) if before else None
        cnt = {(fam, ""): get(fam) for fam in COUNTERS}
        for c in CLASSES:
            cnt[(P + "verify_errors_total", c)] = get(P + "verify_errors_total", c)
        skey = lambda s, k: s["errors"][k[1]] if k[1] else s[COUNTERS[k[0]]]
        for k, val in cnt.items():
            if val is None:
                continue            # complete() told already
            if val != int(val) or val < 0:
                complain("%s %s: not a count: %r" % (d, k, val))
            if val > skey(sa, k):
                complain("%s %s: %d in the file > %d in the status after it"
                         % (d, k, val, skey(sa, k)))
            for label, s in (("the status >= 20 s before", stale),
                             ("the status before", before)):
                if s is not None and d in s and val < skey(s[d], k):
                    complain("%s %s: %d in the file < %d in %s"
                             % (d, k, val, skey(s[d], k), label))
            pv = (prev or {}).get(d, {}).get(k)
            if pv is not None and val < pv:
                complain("%s %s went backwards: %d -> %d" % (d, k, pv, val))
        counts[d] = cnt
        for fam, key in GAUGES.items():
            g = get(fam)
            if key == "cycle":
                lo = sb["cycle"] if sb else 0
                if g is None or not lo <= g <= sa["cycle"]:
                    complain("%s cycle %r not in [%d, %d]" % (d, g, lo, sa["cycle"]))
            elif g != sa[key]:
                complain("%s %s: %r in the file, %r in the status" % (d, fam, g, sa[key]))
        pr = get(P + "phase_progress_ratio")
        if pr is None or not 0 <= pr <= 1:
            complain("%s phase_progress_ratio %r" % (d, pr))
        for fam in ("write_bytes_per_second", "read_bytes_per_second"):
            r = get(P + fam)
            if r is None or not math.isfinite(r) or r < 0:
                complain("%s %s %r" % (d, fam, r))
        ph = [x for (fam, x) in v if fam == P + "phase_info"]
        if len(ph) != 1 or ph[0] not in PHASES or get(P + "phase_info", ph[0]) != 1:
            complain("%s phase_info %r" % (d, ph))
        hot = [x for x in STATES if get(P + "state", x) == 1]
        cold = [x for x in STATES if get(P + "state", x) == 0]
        if len(hot) != 1 or len(cold) != 5:
            complain("%s state not one-hot: %r" % (d, hot))
        # the state then: the one before or after (unknown for a version
        # that was there when the monitor began)
        cur = {"refused" if x["refused"] else x["state"] for x in (sb, sa) if x}
        if hot and sb and hot[0] not in cur:
            complain("%s state %s in the file, status %s" % (d, hot[0], sorted(cur)))
        # a finished drive's counters are final: exactly the status's
        if hot == ["finished"] and sa["state"] == "finished":
            for k, val in cnt.items():
                if val != skey(sa, k):
                    complain("%s (finished) %s: %r in the file, %r in the status"
                             % (d, k, val, skey(sa, k)))
        # SMART: a sample exactly when the status has a value
        for suffix, key in SMART.items():
            x = get(P + "smart_" + suffix)
            has = [(y.get("smart") or {}).get(key) is not None for y in (sb, sa) if y]
            if x is not None and not any(has):
                complain("%s smart_%s in the file, null in the status" % (d, suffix))
            if x is None and all(has):
                complain("%s smart_%s missing, the status has it" % (d, suffix))
    return counts


t0 = time.time()
hist = []                       # (time, status)
last_key, last_ino, versions, reads = None, None, 0, 0
first_seen = []
prev_counts = None
pending = None                  # (fams, status before) awaiting a status after
reached = until is None
try:
    while True:
        now = time.time()
        try:
            s = status()
        except Exception as e:
            if not alive(pid):
                complain("the daemon exited"); break
            complain("status: %s" % e); time.sleep(0.2); continue
        hist.append((now, s))
        if pending is not None:
            fams, before, seen_at = pending
            stale = None
            for t, h in hist:
                if t <= seen_at - 20:
                    stale = h
            prev_counts = check_version(fams, before, s, stale, prev_counts)
            if until and any(l.get("drive") == until[0] and l.get("state") == until[1] and v == 1
                             for _, l, v in fams.get(P + "state", promcheck.Family("")).samples):
                reached = True
            pending = None
        if (versions >= want and reached) or time.time() - t0 > limit:
            break
        # a round of reads (~150 ms)
        end = time.time() + 0.15
        while time.time() < end and pending is None:
            try:
                with open(prom, "rb") as f:
                    st = os.fstat(f.fileno())
                    data = f.read()
            except FileNotFoundError:
                complain("the file is missing"); time.sleep(0.01); continue
            reads += 1
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                complain("read: not UTF-8"); continue
            fams = complete(text, sorted(s))
            age = time.time() - st.st_mtime
            if age > 20:
                complain("the file is %.1f s old" % age)
            if st.st_mode & 0o004 == 0:
                complain("the file is not readable by others: %o" % st.st_mode)
            key = (st.st_ino, st.st_ctime_ns)
            if key == last_key:
                if text != last_text:
                    complain("the same file changed its content (written in place)")
                continue
            if last_ino is not None and st.st_ino == last_ino:
                complain("a new version in the same inode (written in place)")
            last_key, last_ino, last_text = key, st.st_ino, text
            versions += 1
            first_seen.append(time.time())
            with open(os.path.join(outdir, "ver.%d.prom" % versions), "wb") as f:
                f.write(data)
            # a bound from before: only for a version seen appearing, and
            # 5 s back (the file is made, fsynced, then renamed)
            before = None
            for t, h in hist:
                if versions > 1 and t < hist[-1][0] - 5:
                    before = h
            pending = (fams, before, time.time())
except Exception as e:
    complain("monitor failure: %r" % e)
gaps = [b - a for a, b in zip(first_seen, first_seen[1:])]
for g in gaps:
    if g > 20:
        complain("a version stayed %.1f s (rewrites every 15 s expected)" % g)
if versions < want or not reached:
    complain("saw %d version(s) in %.0f s, wanted %d%s" % (versions, time.time() - t0,
             want, "" if reached else " and %s=%s" % tuple(until)))
print("reads %d versions %d gaps %s" % (reads, versions, " ".join("%.1f" % g for g in gaps)))
sys.exit(1 if bad else 0)
EOF
}

# ---------------------------------------------------------------- the daemon

log "two file targets, textfile $PROM"
start_ssdt "$T/run.log" -c "$T/c.conf"
ok=0
for _ in $(seq 1 200); do
	"$CTL" -s "$SOCK" status >/dev/null 2>&1 && { ok=1; break; }
	pid_alive "$SSDT_PID" || break
	sleep 0.05
done
[ "$ok" = 1 ] || { show_file "$T/run.log"; die "the daemon's socket never answered"; }

t0=$(date +%s%3N)
for _ in $(seq 1 440); do
	[ -f "$PROM" ] && break
	pid_alive "$SSDT_PID" || break
	sleep 0.05
done
[ -f "$PROM" ] || { show_file "$T/run.log"; die "no $PROM within 22 s"; }
note "first file after $(awk -v ms="$(($(date +%s%3N) - t0))" 'BEGIN { printf "%.1f", ms / 1000 }') s"
validate "first file" "$PROM"
assert_eq "file mode" 644 "$(stat -c %a "$PROM")"

# three versions (two rewrites) under a tight read loop
mkdir -p "$T/v1"
log "reading the file while the daemon rewrites it"
out=$(monitor "$T/v1" 60 3)
rc=$?
printf '%s\n' "$out" | sed '$!d; s/^/  .. /'
printf '%s\n' "$out" | sed '$d'
assert_rc "values, completeness and atomicity" 0 "$rc"
# a stalled main loop shows the file late: the daemon says when it was
[ "$rc" -eq 0 ] || grep -E 'blocked|metrics' "$T/run.log" | tail -n 5 | sed 's/^/  log: /'
reads=$(printf '%s\n' "$out" | awk '$1 == "reads" { print $2 }')
assert_ge "reads of the file" "${reads:-0}" 1000
for f in "$T"/v1/ver.*.prom; do
	[ -f "$f" ] && validate "$(basename "$f")" "$f"
done

# pause a: a version with state="paused" 1 comes within a rewrite or two
log "pause a; the file follows"
"$CTL" -s "$SOCK" pause a >"$T/pause.out" 2>&1
assert_rc "ssdctl pause a" 0 $? "$T/pause.out"
mkdir -p "$T/v2"
out=$(monitor "$T/v2" 40 1 a=paused)
rc=$?
printf '%s\n' "$out" | sed '$!d; s/^/  .. /'
printf '%s\n' "$out" | sed '$d'
assert_rc "values after the pause" 0 "$rc"
n=$(find "$T/v2" -name 'ver.*.prom' | wc -l)
last=$T/v2/ver.$n.prom
if [ "$n" -gt 0 ]; then
	validate "after the pause" "$last"
	assert_file_contains "state of a" "$last" \
	    'ssdtorture_state{drive="a",serial="none",model="",state="paused"} 1'
	assert_file_contains "state of b" "$last" \
	    'ssdtorture_state{drive="b",serial="none",model="",state="finished"} 1'
	# no SMART on file targets: no smart_ family at all
	assert_eq "smart families of file targets" 0 \
	    "$(grep -c '^ssdtorture_smart_' "$last")"
fi

# no temp file at any time we look, and none after a stop
left=$(find "$PDIR" -mindepth 1 ! -name ssdtorture.prom)
kill -TERM "$SSDT_PID"
wait_exit "$SSDT_PID" 15
assert_rc "exit after SIGTERM" 0 "$RC" "$T/run.log"
left="$left$(find "$PDIR" -mindepth 1 ! -name ssdtorture.prom)"
assert_eq "files beside the textfile (temp files left)" "" "$left"
[ -f "$PROM" ] && validate "file after the stop" "$PROM"

# ---------------------------------------------------------------- metrics.c alone

log "metrics.c on synthetic drives"
CFLAGS_M=$(pkg-config --cflags json-c libsystemd 2>/dev/null)
LIBS_M=$(pkg-config --libs json-c libxxhash 2>/dev/null)
if ! command -v cc >/dev/null || [ -z "$LIBS_M" ]; then
	note "cc or pkg-config data missing: synthetic part skipped"
	finish
fi
cat >"$T/drv.c" <<'EOF'
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

/* metrics.c needs only these two of a drive. */
struct drive {
	struct drive_status	 st;
	const char		*smart;
};

void
drive_status(const struct drive *d, struct drive_status *s)
{
	*s = d->st;
}

json_object *
drive_smart_status(const struct drive *d)
{
	return d->smart ? json_tokener_parse(d->smart) : NULL;
}

int
main(int argc, char **argv)
{
	struct drive	 a, b, c, *v[3] = { &a, &b, &c };

	memset(&a, 0, sizeof(a));
	b = c = a;
	a.st.name = "a";
	a.st.serial = "S\\N\"1\n2";
	a.st.model = "M\xff\xc0od\xc3\xa9l \xe2\x82\xac";
	a.st.run = RUN_RUNNING;
	a.st.phase = PHASE_VERIFY;
	a.st.phase_progress = 0.1;
	a.st.cycle = 3;
	a.st.cycles_done = 2;
	a.st.host_bytes_written = UINT64_MAX;
	a.st.host_bytes_read = 12345;
	a.st.write_bps = 1.5e9;
	a.st.read_bps = NAN;
	a.st.errors[BLK_CORRUPT] = 7;
	a.st.errors[BLK_IO_ERROR] = 1;
	a.st.capacity = 1ULL << 40;
	a.st.span_bytes = 1ULL << 39;
	a.smart = "{\"percent_used\": 255.0, \"available_spare\": 5, "
	    "\"temperature_c\": -3, \"media_errors\": 18446744073709551615, "
	    "\"critical_warning\": 4, \"device_bytes_written\": 1000, "
	    "\"nand_bytes_written\": null, \"waf\": 1.0000000000000002, "
	    "\"reallocated\": null}";
	b.st.name = "b";
	b.st.refused = 1;
	b.st.run = RUN_STOPPED;
	b.st.phase = PHASE_NONE;
	b.st.write_bps = INFINITY;
	b.st.read_bps = -INFINITY;
	c.st.name = "c";
	c.st.serial = "x";
	c.st.model = "y";
	c.st.run = RUN_FAILED;
	c.st.phase = PHASE_IDLE;
	c.smart = "{\"percent_used\": 3, \"waf\": null, \"temperature_c\": 40}";
	if (metrics_write(argv[1], v, argc > 2 ? (size_t)atoi(argv[2]) : 3)) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	return 0;
}
EOF
SRC="$ROOT/daemon/metrics.c $ROOT/daemon/block.c $ROOT/daemon/layout.c $ROOT/daemon/state.c $ROOT/daemon/statedir.c $ROOT/daemon/perm.c"
# shellcheck disable=SC2086
if ! cc -D_GNU_SOURCE -I"$ROOT/common" -I"$ROOT/daemon" -std=c11 -Wall -Wextra \
    -Werror -Wshadow $CFLAGS_M -o "$T/drv" "$T/drv.c" $SRC $LIBS_M -lm \
    >"$T/cc.log" 2>&1; then
	fail "the synthetic driver does not build"
	show_file "$T/cc.log"
	finish
fi
mkdir -p "$T/syn"
"$T/drv" "$T/syn/m.prom" >"$T/drv.out" 2>&1
assert_rc "metrics_write on synthetic drives" 0 $? "$T/drv.out"
validate "synthetic" "$T/syn/m.prom"
python3 - "$IT_DIR" "$T/syn/m.prom" <<'EOF' || fail "synthetic values (above)"
import math, sys
sys.path.insert(0, sys.argv[1])
import promcheck
fams, problems = promcheck.check(open(sys.argv[2], encoding="utf-8").read())
bad = list(problems)
def val(fam, drive, **extra):
    got = [v for _, l, v in fams["ssdtorture_" + fam].samples
           if l["drive"] == drive and all(l.get(k) == x for k, x in extra.items())]
    return got[0] if len(got) == 1 else ("%d samples" % len(got))
def eq(what, a, b):
    same = (isinstance(a, float) and isinstance(b, float) and math.isnan(a)
            and math.isnan(b)) or a == b
    if not same:
        bad.append("%s: %r, expected %r" % (what, a, b))
lab = [l for _, l, _ in fams["ssdtorture_cycle"].samples if l["drive"] == "a"][0]
eq("serial escaped", lab["serial"], 'S\\N"1\n2')
eq("model (invalid UTF-8 replaced)", lab["model"], "M\ufffd\ufffdod\u00e9l \u20ac")
eq("u64 max", val("host_written_bytes_total", "a"), float(2**64 - 1))
eq("NaN", val("read_bytes_per_second", "a"), math.nan)
eq("+Inf", val("write_bytes_per_second", "b"), math.inf)
eq("-Inf", val("read_bytes_per_second", "b"), -math.inf)
eq("corrupt", val("verify_errors_total", "a", **{"class": "corrupt"}), 7)
eq("io_error", val("verify_errors_total", "a", **{"class": "io_error"}), 1)
eq("no 'ok' class", [l for _, l, _ in fams["ssdtorture_verify_errors_total"].samples
    if l["class"] == "ok"], [])
eq("phase", val("phase_info", "a", phase="verify"), 1)
eq("phase none", val("phase_info", "b", phase="none"), 1)
for d, hot in (("a", "running"), ("b", "refused"), ("c", "failed")):
    for s in ("running", "paused", "stopped", "finished", "failed", "refused"):
        eq("state %s of %s" % (s, d), val("state", d, state=s), 1 if s == hot else 0)
eq("percent used", val("smart_percentage_used_ratio", "a"), 2.55)
eq("percent used c", val("smart_percentage_used_ratio", "c"), 0.03)
eq("spare", val("smart_available_spare_ratio", "a"), 0.05)
eq("temperature", val("smart_temperature_celsius", "a"), -3)
eq("media errors", val("smart_media_errors_total", "a"), float(2**64 - 1))
eq("critical warning", val("smart_critical_warning", "a"), 4)
eq("waf", val("smart_write_amplification", "a"), 1.0000000000000002)
eq("null nand", "ssdtorture_smart_nand_written_bytes_total" in fams, False)
eq("null reallocated", "ssdtorture_smart_reallocated_sectors_total" in fams, False)
eq("no SMART of b", [f for f in fams if "smart" in f and any(
    l["drive"] == "b" for _, l, _ in fams[f].samples)], [])
eq("capacity", val("capacity_bytes", "a"), 2**40)
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
EOF
assert_file_contains "integers as integers" "$T/syn/m.prom" \
    'ssdtorture_host_written_bytes_total{drive="a",serial="S\\N\"1\n2",model="M'
if grep -q '} 18446744073709551615$' "$T/syn/m.prom"; then pass_check; else
	fail "u64 max not printed as an integer"; fi
if grep -q '^ssdtorture_smart_percentage_used_ratio{drive="a".*} 2.55$' \
    "$T/syn/m.prom"; then pass_check; else
	fail "percentage used not printed as 2.55"; fi
"$T/drv" "$T/syn/empty.prom" 0 >"$T/drv.out" 2>&1
assert_rc "no drives" 0 $? "$T/drv.out"
assert_eq "no drives: an empty file" 0 "$(stat -c %s "$T/syn/empty.prom" 2>/dev/null)"
assert_eq "a missing directory" ENOENT "$("$T/drv" "$T/syn/nodir/m.prom")"
mkdir -p "$T/syn/isdir"
assert_eq "a directory in the way" EISDIR "$("$T/drv" "$T/syn/isdir")"
assert_eq "files left in syn" "empty.prom isdir m.prom" "$(find "$T/syn" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | xargs)"

finish
