#!/bin/bash
# Flush before checkpoint, on a real block device (a loop device over a
# file): every flush the daemon counts is one the device counted
# (/sys/block/DEV/stat, flush requests completed), a write pass sends
# about one a second and one at its end, and the flush count and latency
# are in ssdctl status (text and --json) and the metrics. A file target
# flushes too (fdatasync).
. "$(dirname "$0")/lib.sh"
need_root
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
command -v losetup >/dev/null || skip "losetup missing"

BACK=$T/backing.img
ST=$T/state
PROM=$T/prom/ssdtorture.prom
mkdir -p "$T/prom"
truncate -s 256M "$BACK"
new_loop "$BACK"
DEV=$LOOPDEV
SYS=/sys/block/$(basename "$DEV")/stat
[ "$(wc -w <"$SYS")" -ge 17 ] || skip "$SYS has no flush counters (kernel < 5.5)"
# flush requests completed: field 16 of the device's stat
dev_flushes() { awk '{ print $16 }' "$SYS"; }

write_conf "$T/c.conf" "$ST" <<EOF
prometheus_textfile = $PROM
[drive:loop]
checkpoint = off
device = $DEV
serial = none
block_size = 4k
order = random
queue_depth = 8
trim = no
idle = 0
cycles = 0
[drive:file]
checkpoint = off
device = $T/f.img
size = 32M
block_size = 4k
trim = no
cycles = 1
EOF

F0=$(dev_flushes)
log "a run of a few seconds on $DEV"
start_ssdt "$T/run.log" -c "$T/c.conf"
S=$ST/loop/state
wait_state "$S" "$SSDT_PID" 60 's["flushes"] >= 3' ||
    die "no three flushes seen in the state within 60 s"
"$CTL" -s "$ST.sock" --json status loop >"$T/st.json" ||
    fail "ssdctl status --json"
"$CTL" -s "$ST.sock" status loop >"$T/st.txt" || fail "ssdctl status"
# the metrics file is rewritten every 15 s: wait for a version written
# after a flush completed (the first may come before the first flush)
for _ in $(seq 1 200); do
	grep -qs 'ssdtorture_flush_latency_seconds{drive="loop"' "$PROM" && break
	sleep 0.1
done
kill -TERM "$SSDT_PID"
wait_exit "$SSDT_PID" 15
assert_rc "daemon exits on SIGTERM" 0 "$RC" "$T/run.log"

N=$(state_get "$S" flushes)
D=$(($(dev_flushes) - F0))
note "flushes: $N counted by the daemon, $D by the device"
assert_eq "every flush counted is one the device completed" "$D" "$N"
H=$(state_get "$S" host_bytes_written)
note "written: $H bytes"
assert_gt "bytes written" "$H" 0

log "status and metrics carry the figures"
python3 - "$T/st.json" <<'EOF' >"$T/st.check" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))["drives"][0]
assert d["flushes"] >= 3, d["flushes"]
lat, mx = d["flush_latency_seconds"], d["flush_latency_max_seconds"]
assert isinstance(lat, float) and 0 < lat <= mx < 10, (lat, mx)
print("ok", d["flushes"], lat, mx)
EOF
rc=$?
note "$(cat "$T/st.check" | tail -n 1)"
assert_eq "status --json: flushes and their latency" 0 "$rc"
assert_file_contains "status text: flushes line" "$T/st.txt" "flushes:"
assert_file_contains "status text: flush latency" "$T/st.txt" "ms, slowest"
assert_file_contains "metrics: flush counter" "$PROM" \
    'ssdtorture_flushes_total{drive="loop"'
assert_file_contains "metrics: flush latency" "$PROM" \
    'ssdtorture_flush_latency_seconds{drive="loop"'

log "a file target flushes too"
SF=$ST/file/state
assert_eq "file target: one cycle done" 1 "$(state_get "$SF" cycles_done)"
# the static pass and the write pass end with a flush each
assert_ge "file target: flushes" "$(state_get "$SF" flushes)" 2
assert_eq "file target: verify errors" 0 \
    "$(( $(state_get "$SF" errors.stale) + $(state_get "$SF" errors.unwritten) ))"
finish
