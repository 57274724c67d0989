#!/usr/bin/env bash
#
# degrade.sh: a full checkpoint's degradation run against fio running the
# same workload on the same device and area, second by second.
#
# Target: a loop device of 512-byte sectors with direct I/O over a file in
# /dev/shm (tmpfs). ssdtortured: one --oneshot run (a static fill, one
# cycle, then a full checkpoint of the degrade and recovery parts: the
# area filled with units, DURATION s of 4 KiB random writes at QD32 over
# the whole dynamic area, GC_IDLE s idle, 60 s again); its figures from
# checkpoints.jsonl and series/. fio: the same workload (randwrite, 4k,
# iodepth 32, io_uring, O_DIRECT, --offset the static area, --size the
# dynamic area, norandommap) for as long, its IOPS logged each second
# (--write_iops_log, --log_avg_msec=1000); then SNIA's steady-state rule
# and the review figures (common/degrade.c's definitions, restated here in
# Python) over fio's seconds.
#
# Printed: for each tool, the mean and median IOPS of the seconds, the
# initial IOPS (first 60 s), whether and when steady state was reached,
# the steady IOPS and the worst second; the ratio of the means
# ssdtortured / fio; the Markdown table with the machine and the date.
# A tmpfs device does not wear: the figures say how close the probe
# engine's run is to fio's, not what a drive does.
#
# Usage: bench/degrade.sh [-d SECONDS] [--quick]
#   -d SECONDS   the degradation run (default 360: steady state needs 300)
#   --quick      60 s, a 512 MiB span
# Needs root, fio, python3, losetup, the span free in /dev/shm. Exits 0
# whatever the figures, non-zero only when something fails to run.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DAEMON=$ROOT/daemon/ssdtortured
BENCH_NAME=degrade
# shellcheck source=bench/lib/common.sh
. "$ROOT/bench/lib/common.sh"

usage() {
	echo "usage: $0 [-d SECONDS] [--quick]"
}

DUR=360 SPAN=2G
while [ $# -gt 0 ]; do
	case $1 in
	-d) [ $# -ge 2 ] || { usage >&2; exit 2; }; DUR=$2; shift ;;
	--quick) DUR=60 SPAN=512M ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done
case $DUR in ''|*[!0-9]*) die "-d: seconds expected" ;; esac
BS=1M SF=0.25
DEV_BYTES=$(span_bytes "$SPAN")
read -r OFF LEN < <(python3 -c 'import sys; n, bs, f = (int(sys.argv[1]),
    int(sys.argv[2]), float(sys.argv[3])); s = int(n // bs * f) * bs
print(s, n // bs * bs - s)' "$DEV_BYTES" "$(span_bytes "$BS")" "$SF")

WORK= IMG= LOOP= CHILD=
# shellcheck disable=SC2317  # called from the traps
cleanup() {
	trap '' INT TERM
	[ -n "$CHILD" ] && stop_pid "$CHILD"
	[ -n "$LOOP" ] && loop_detach "$LOOP"
	[ -n "$IMG" ] && rm -f "$IMG"
	[ -n "$WORK" ] && rm -rf "$WORK"
	LOOP='' IMG='' WORK='' CHILD=''
}
bench_traps

preflight
make -s -C "$ROOT" daemon/ssdtortured >&2 || die "the build failed"
shm_need $((DEV_BYTES + (64 << 20)))
WORK=$(mktemp -d /tmp/ssdt-degrade.XXXXXX) || die "mktemp"
RES=$WORK/results.tsv
: >"$RES"
IMG=$(mktemp /dev/shm/ssdt-degrade.XXXXXX.img) || die "mktemp in /dev/shm"
truncate -s "$DEV_BYTES" "$IMG" || die "truncate $IMG"
LOOP=$(losetup -f --show --direct-io=on --sector-size 512 "$IMG") ||
    die "losetup"

cat >"$WORK/c.conf" <<EOF
[daemon]
state_dir = $WORK/state
socket = $WORK/sock
[drive:d]
device = $LOOP
serial = none
block_size = $BS
static_fraction = $SF
idle = 0
cycles = 1
checkpoint = full
checkpoint_probes = rand-write-4k-qd32
probe_seconds = 5s
probe_ramp = 1s
full_checkpoint_tests = degrade,recovery
degrade_duration = ${DUR}s
gc_idle = 30s
recovery_duration = 60s
EOF
msg "ssdtortured: a cycle, then a degradation run of $DUR s over $((LEN >> 20)) MiB"
"${AS_SERVICE[@]}" "$DAEMON" -c "$WORK/c.conf" --oneshot >"$WORK/d.log" 2>&1 ||
    die "ssdtortured failed: $(tail -3 "$WORK/d.log")"
msg "fio: the same workload for $DUR s"
fio --name=degrade --filename="$LOOP" --offset="$OFF" --size="$LEN" \
    --rw=randwrite --bs=4k --iodepth=32 --ioengine=io_uring --direct=1 \
    --norandommap --randrepeat=0 --time_based --runtime="$DUR" \
    --write_iops_log="$WORK/fio" --log_avg_msec=1000 \
    --output-format=json >"$WORK/fio.json" 2>"$WORK/fio.err" ||
    die "fio failed: $(tail -3 "$WORK/fio.err")"

python3 - "$WORK/state/d" "$WORK/fio_iops.1.log" "$DUR" <<'EOF'
import glob, json, os, platform, statistics, subprocess, sys, time

state, fio_log, dur = sys.argv[1], sys.argv[2], int(sys.argv[3])
ROUND, WINDOW = 60, 5

def steady(iops):
    """SNIA PTS: the first window of 5 rounds of 60 s whose range is within
    20 % of its mean and whose least-squares line changes by at most 10 %
    of it across the window."""
    rounds = [statistics.mean(iops[i:i + ROUND])
              for i in range(0, len(iops) - ROUND + 1, ROUND)]
    for k in range(len(rounds) - WINDOW + 1):
        w = rounds[k:k + WINDOW]
        m = statistics.mean(w)
        xs = range(WINDOW)
        xm = statistics.mean(xs)
        slope = sum((x - xm) * (y - m) for x, y in zip(xs, w)) / \
            sum((x - xm) ** 2 for x in xs)
        if max(w) - min(w) <= 0.2 * m and abs(slope * (WINDOW - 1)) <= 0.1 * m:
            return m, (k + WINDOW) * ROUND
    return None, None

def figures(iops):
    s, at = steady(iops)
    worst = min(range(len(iops)), key=lambda i: iops[i])
    return {"seconds": len(iops), "mean": statistics.mean(iops),
            "median": statistics.median(iops),
            "initial": statistics.mean(iops[:ROUND]) if len(iops) >= ROUND else None,
            "steady": s, "steady_at": at, "worst": iops[worst], "worst_s": worst}

ours = json.load(open(glob.glob(os.path.join(state, "series", "ckpt-1-degrade.json"))[0]))["iops"]
line = [json.loads(l) for l in open(os.path.join(state, "checkpoints.jsonl"))
        if '"probe":"degrade"' in l][0]
fio = [0.0] * dur
for l in open(fio_log):
    t, v = l.split(",")[:2]
    i = int(t) // 1000 - 1
    if 0 <= i < dur:
        fio[i] += float(v)
fio = [v for v in fio if v > 0]
a, b = figures(ours), figures(fio)

def cell(v, fmt="%.0f"):
    return "-" if v is None else fmt % v

rows = [("seconds", "seconds", "%d"), ("mean IOPS", "mean", "%.0f"),
        ("median IOPS", "median", "%.0f"), ("initial IOPS (first 60 s)", "initial", "%.0f"),
        ("steady IOPS (SNIA)", "steady", "%.0f"), ("steady at (s)", "steady_at", "%d"),
        ("worst second (IOPS)", "worst", "%.0f")]
print("%-28s %12s %12s" % ("", "ssdtortured", "fio"))
for name, k, fmt in rows:
    print("%-28s %12s %12s" % (name, cell(a[k], fmt), cell(b[k], fmt)))
print("ratio of the means ssdtortured / fio: %.3f" % (a["mean"] / b["mean"]))
print("the daemon's own figures (checkpoints.jsonl): initial %s, steady %s, "
      "at %s s" % (cell(line.get("initial_iops")), line.get("steady"),
                   line.get("steady_at_seconds", "-")))
print()
print("| %s | ssdtortured | fio |" % time.strftime("%Y-%m-%d"))
print("| --- | ---: | ---: |")
for name, k, fmt in rows:
    print("| %s | %s | %s |" % (name, cell(a[k], fmt), cell(b[k], fmt)))
print("| ratio of the means | %.3f | |" % (a["mean"] / b["mean"]))
print("\n(%s, %d CPUs, kernel %s; a loop device over tmpfs)" % (
    platform.machine(), os.cpu_count(), platform.release()))
EOF
