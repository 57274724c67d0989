#!/bin/sh
# make demo: ssdtortured on a simulated SSD (sim/ssdsim, mounted with FUSE
# under DEMO_DIR), then its graphs and its report. No real disk is touched.
#
#   make demo              the Intel 600p-like drive (sim/profiles/
#                          intel-600p-demo.conf) for about a minute: its SLC
#                          cache's knee and the gusts after it, a short
#                          checkpoint whose sequential read throttles it,
#                          wear, write amplification and temperature from
#                          the drive's SMART (smart_command = ssdsim smart)
#   DEMO_LIFE=1 make demo  the short-lived drive (sim/profiles/
#                          short-lived.conf) written until it fails: its
#                          wear, the blocks it loses mapped at their
#                          offsets, the drive's SMART failing it
#
# DEMO_DIR (default /var/tmp/ssdtorture-demo, -life for the long one) holds
# everything; DEMO_SECONDS bounds the run. Needs root (a FUSE mount and direct I/O on it). Whatever
# ends the script (the end, an error, Ctrl-C) unmounts the drive.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/daemon/ssdtortured
CTL=$ROOT/ctl/ssdctl
SIM=$ROOT/sim/ssdsim
LIFE=${DEMO_LIFE:-0}
[ "$LIFE" = 0 ] || LIFE=1
if [ "$LIFE" = 1 ]; then
	DIR=${DEMO_DIR:-/var/tmp/ssdtorture-demo-life}
else
	DIR=${DEMO_DIR:-/var/tmp/ssdtorture-demo}
fi
MNT=$DIR/mnt
SIM_SOCK=$DIR/sim.sock

[ "$(id -u)" -eq 0 ] || { echo "make demo: run it as root (it mounts a FUSE" \
    "file system and writes it with direct I/O)" >&2; exit 1; }
[ -c /dev/fuse ] || { echo "make demo: /dev/fuse is missing (modprobe fuse)" >&2
    exit 1; }
for f in "$BIN" "$CTL" "$SIM"; do
	[ -x "$f" ] || { echo "make demo: $f is missing (make all)" >&2; exit 1; }
done
case $DIR in /*) ;; *) DIR=$(pwd)/$DIR MNT=$DIR/mnt SIM_SOCK=$DIR/sim.sock ;; esac

DPID=
# The way out, however the script ends: stop the daemon, then unmount the
# simulated drive (which ends ssdsim), so that no FUSE mount is left.
cleanup() {
	trap - EXIT INT TERM HUP
	if [ -n "$DPID" ] && kill -0 "$DPID" 2>/dev/null; then
		kill -TERM "$DPID" 2>/dev/null || true
		wait "$DPID" 2>/dev/null || true
	fi
	if mountpoint -q "$MNT" 2>/dev/null; then
		umount "$MNT" 2>/dev/null || { sleep 1; umount "$MNT" 2>/dev/null; } ||
		    umount -l "$MNT" 2>/dev/null ||
		    echo "make demo: cannot unmount $MNT" >&2
	fi
	rm -f "$SIM_SOCK"
}
trap cleanup EXIT
trap 'echo; echo "make demo: interrupted"; exit 130' INT TERM HUP

# a mount left by a run killed with SIGKILL would hold the old drive
if mountpoint -q "$MNT" 2>/dev/null; then
	umount "$MNT" 2>/dev/null || umount -l "$MNT"
fi
mkdir -p "$DIR" "$MNT"
rm -rf "$DIR/state" "$DIR/drive.data" "$DIR/truth.jsonl" "$DIR"/*.png \
    "$DIR"/*.svg "$DIR/report.html" "$SIM_SOCK"

# The Intel 600p-like drive for about a minute: a sequential first pass
# (its SLC cache's knee, the gusts of its folds after it), verify, a quick
# checkpoint whose sequential reads heat it to its throttle, TRIM, again.
conf_600p() {
	cat <<CONF
# ssdtorture demo: the simulated Intel 600p-like drive
[daemon]
state_dir = $DIR/state
socket = $DIR/ctl.sock

[drive:$DRIVE]
device = $MNT/drive
serial = none
block_size = 128k
order = sequential
queue_depth = 1
static_fraction = 0.25
trim = yes
idle = 0
cycles = 2
smart_command = $SIM smart --control $SIM_SOCK
thermal_interval = 1s
smart_interval = 5s
snapshot_every = 64MB
timeline_every = 1
checkpoint = quick
checkpoint_every = 1TB
checkpoint_region = 32M
checkpoint_probes = seq-read-128k-qd32, rand-read-4k-qd1, rand-write-4k-qd32
probe_seconds = 8s
probe_ramp = 1s
CONF
}

# The short-lived drive written until it dies: every verify pass maps the
# blocks that went bad (nothing fails the drive for them), and a quick
# checkpoint every 1 GB shows its reads slowing as it wears; its end is
# the drive's own (read-only, then gone).
conf_life() {
	cat <<CONF
# ssdtorture demo: the simulated short-lived drive, to its death
[daemon]
state_dir = $DIR/state
socket = $DIR/ctl.sock

[drive:$DRIVE]
device = $MNT/drive
serial = none
block_size = 128k
order = random
queue_depth = 32
static_fraction = 0.25
trim = yes
idle = 0
on_io_error = continue
max_bad_fraction = 0
max_new_bad_blocks = 1000000
smart_command = $SIM smart --control $SIM_SOCK
thermal_interval = 1s
smart_interval = 5s
snapshot_every = 128MB
checkpoint = quick
checkpoint_every = 1GB
checkpoint_region = 16M
checkpoint_probes = rand-read-4k-qd1, seq-read-128k-qd32
probe_seconds = 2s
probe_ramp = 1s
CONF
}

show_life() {
	echo
	echo "== graphs of its life (ssdctl graph)"
	for g in throughput wear errors; do
		graph "$g" --rrd "$DIR/state/$DRIVE/$DRIVE.rrd" \
		    --since "$((RAN + 10))s"
	done
	"$CTL" graph "$DRIVE" --what errormap --map-dir "$DIR/state/$DRIVE" \
	    -o "$DIR/errormap.svg" && echo "  $DIR/errormap.svg"
	graph checkpoints --state-dir "$DIR/state"
	echo
	echo "== the bad blocks of the last verify pass (ssdctl errors)"
	"$CTL" -s "$DIR/ctl.sock" errors "$DRIVE" | head -n 20 || true
	echo
	echo "== the end (ssdctl events)"
	"$CTL" -s "$DIR/ctl.sock" events "$DRIVE" -n 8 || true
	echo
	echo "== SMART at the end (ssdctl smart)"
	"$CTL" -s "$DIR/ctl.sock" smart "$DRIVE" || true
}

# graph WHAT [ssdctl graph options]: draw one graph into DIR/WHAT.png
graph() {
	g=$1
	shift
	"$CTL" graph "$DRIVE" --what "$g" "$@" -o "$DIR/$g.png" &&
	    echo "  $DIR/$g.png"
}

# Each write pass's cache estimate, from its phase_end event.
passes() {
	python3 - "$DIR/state/$DRIVE/events.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") != "phase_end" or e.get("phase") not in ("write", "static"):
        continue
    what = "pass %d" % e["cycle"] if e["phase"] == "write" else "static fill"
    head = "  %-12s %6.1f MB/s over %5.1f s: " % (what, e["bytes_per_sec"] / 1e6,
                                                 e["seconds"])
    if not e.get("slc_knee"):
        print(head + "no cache (no knee)")
        continue
    print(head + "cache %.1f MB at %.0f MB/s, then %.1f MB/s" % (
        e["slc_cache_bytes"] / 1e6, e["in_cache_bytes_per_sec"] / 1e6,
        e["post_cache_bytes_per_sec"] / 1e6) + (
        ", gusts: %d stalls of %.0f ms (%.0f %% of the time)" % (
            e["post_cache_stalls"], e["post_cache_stall_seconds"] * 1e3,
            e["post_cache_stall_share"] * 100)
        if e.get("post_cache_gusts") else ""))
PY
}

show_600p() {
	echo
	echo "== graphs of the run (ssdctl graph)"
	for g in throughput temperature wear; do
		graph "$g" --rrd "$DIR/state/$DRIVE/$DRIVE.rrd" \
		    --since "$((RAN + 10))s"
	done
	graph timeline --state-dir "$DIR/state" --pass 0 --pass 1 --pass 2
	graph checkpoints --state-dir "$DIR/state"
	echo
	echo "== the write cache of each pass (the write passes' phase_end events)"
	passes
	echo
	echo "== performance checkpoints (ssdctl checkpoints)"
	"$CTL" checkpoints "$DRIVE" --state-dir "$DIR/state" || true
	echo
	echo "== SMART (ssdctl smart: the model's counters through smart_command)"
	"$CTL" -s "$DIR/ctl.sock" smart "$DRIVE" || true
}

if [ "$LIFE" = 1 ]; then
	PROFILE_NAME=short-lived DRIVE=shortlived RUN_SECONDS=${DEMO_SECONDS:-600}
	RUN_WHAT="writing the short-lived drive until it dies"
	demo_conf() { conf_life; }
	demo_show() { show_life; }
else
	PROFILE_NAME=intel-600p-demo DRIVE=600p RUN_SECONDS=${DEMO_SECONDS:-120}
	RUN_WHAT="two cycles on the 600p-like drive"
	demo_conf() { conf_600p; }
	demo_show() { show_600p; }
fi
PROFILE=$ROOT/sim/profiles/$PROFILE_NAME.conf

echo "== the simulated drive: $PROFILE_NAME ($PROFILE)"
"$SIM" run --profile "$PROFILE" --data "$DIR/drive.data" \
    --control "$SIM_SOCK" --truth "$DIR/truth.jsonl" "$MNT" \
    >"$DIR/ssdsim.log" 2>&1 || { cat "$DIR/ssdsim.log"; exit 1; }
echo "  mounted at $MNT: $(stat -c %s "$MNT/drive") bytes"
demo_conf >"$DIR/demo.conf"

echo
echo "== configuration check (ssdtortured -n)"
"$BIN" -c "$DIR/demo.conf" -n
echo
echo "== $RUN_WHAT (progress every 2 s; Ctrl-C stops it cleanly)"
# the daemon in the background, so that the trap can stop it on Ctrl-C;
# it stays up after the drive's end, for ssdctl's questions
SSDTORTURE_LOG=stderr "$BIN" -c "$DIR/demo.conf" -p2 2>"$DIR/daemon.log" &
DPID=$!
i=0 st=
while [ "$i" -lt "$RUN_SECONDS" ]; do
	kill -0 "$DPID" 2>/dev/null || { echo "ssdtortured exited"
		tail -n 20 "$DIR/daemon.log"; exit 1; }
	st=$(awk '$1 == "run" { print $2; exit }' \
	    "$DIR/state/$DRIVE/state" 2>/dev/null || true)
	case $st in finished|failed) break ;; esac
	sleep 1
	i=$((i + 1))
done
RAN=$i
echo "  the drive is ${st:-unknown} after about $i s"
if [ "$i" -ge "$RUN_SECONDS" ]; then
	echo "  (DEMO_SECONDS=$RUN_SECONDS are up: stopping it)"
	"$CTL" -s "$DIR/ctl.sock" stop "$DRIVE" >/dev/null || true
fi
echo
echo "== ssdctl status"
"$CTL" -s "$DIR/ctl.sock" status "$DRIVE" || true
demo_show
# the daemon's progress lines would follow what is below
kill -TERM "$DPID" 2>/dev/null || true
wait "$DPID" || true
DPID=
echo
echo "== the drive's report (ssdctl report: one page, open it in a browser)"
"$CTL" report "$DRIVE" --state-dir "$DIR/state" -o "$DIR/report.html" &&
    echo "  $DIR/report.html"
echo
echo "state:         $DIR/state/$DRIVE/state"
echo "events:        $DIR/state/$DRIVE/events.jsonl"
echo "daemon log:    $DIR/daemon.log"
echo "model's truth: $DIR/truth.jsonl (what the simulated drive did)"
echo "configuration: $DIR/demo.conf"
