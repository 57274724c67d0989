#!/bin/sh
# make demo: ssdtortured in the foreground on a 1 GiB file-backed scratch
# drive for about a minute, a short performance checkpoint included, then
# its graphs and its report. No real disk is touched.
set -eu

DIR=${DEMO_DIR:-/var/tmp/ssdtorture-demo}
SECONDS_TO_RUN=${DEMO_SECONDS:-60}
BIN=$(dirname "$0")/../daemon/ssdtortured

mkdir -p "$DIR"
rm -rf "$DIR/state" "$DIR/scratch.img"
cat > "$DIR/demo.conf" <<CONF
# ssdtorture demo: one 1 GiB scratch file, created sparse.
[daemon]
state_dir = $DIR/state
socket = $DIR/ctl.sock

[drive:scratch]
device = $DIR/scratch.img
size = 1G
block_size = 128k
order = random
queue_depth = 16
static_fraction = 0.25
trim = yes
idle = 0
# a short performance checkpoint: four probes of 3 s each
checkpoint_every = 4GB
checkpoint_probes = seq-read-128k-qd32, rand-read-4k-qd1, rand-write-4k-qd32, desktop
probe_seconds = 3s
probe_ramp = 1s
CONF

echo "== configuration check (ssdtortured -n)"
"$BIN" -c "$DIR/demo.conf" -n
echo
echo "== running for ${SECONDS_TO_RUN} s (progress every 2 s; Ctrl-C stops it cleanly)"
SSDTORTURE_LOG=stderr timeout -s TERM "$SECONDS_TO_RUN" \
    "$BIN" -c "$DIR/demo.conf" -p2 2>"$DIR/daemon.log" || rc=$?
rc=${rc:-0}
# timeout's 124 means our SIGTERM ended it: that is the normal way out here
[ "$rc" -eq 124 ] || [ "$rc" -eq 0 ] || { echo "ssdtortured exited $rc"; cat "$DIR/daemon.log"; exit 1; }
echo
echo "== graphs of the run (ssdctl graph)"
for what in throughput tbw latency; do
	"$(dirname "$0")/../ctl/ssdctl" graph scratch \
	    --rrd "$DIR/state/scratch/scratch.rrd" --what "$what" --since 2m \
	    -o "$DIR/$what.png" && echo "  $DIR/$what.png"
done
"$(dirname "$0")/../ctl/ssdctl" graph scratch --state-dir "$DIR/state" \
    --what checkpoints -o "$DIR/checkpoints.png" && echo "  $DIR/checkpoints.png"
echo
echo "== performance checkpoints (ssdctl checkpoints)"
"$(dirname "$0")/../ctl/ssdctl" checkpoints scratch --state-dir "$DIR/state" || true
echo
echo "== last events"
tail -n 8 "$DIR/state/scratch/events.jsonl" | sed 's/.*"message":"\([^"]*\)".*/  \1/'
echo
echo "== the drive's report (ssdctl report: one page, open it in a browser)"
"$(dirname "$0")/../ctl/ssdctl" report scratch --state-dir "$DIR/state" \
    -o "$DIR/report.html" && echo "  $DIR/report.html"
echo
echo "state:        $DIR/state/scratch/state"
echo "events:       $DIR/state/scratch/events.jsonl"
echo "daemon log:   $DIR/daemon.log"
echo "configuration: $DIR/demo.conf (run again: $BIN -c $DIR/demo.conf -p2)"
