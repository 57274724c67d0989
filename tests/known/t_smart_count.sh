#!/bin/bash
# run: timed
# The drive's write counter against ours while it writes: SMART read
# through smart_command every second during 128 KiB sequential writes on
# the 600p-like drive (up to 150 MB/s into its cache). Each reading must
# fall in the window our counter gives for it: no smart_mismatch event,
# though a snapshot of the worker's counters is up to 50 ms old (megabytes
# at the drive's speed); at the end the drive's host bytes written are
# exactly our TBW.
. "$(dirname "$0")/lib.sh"
need_root

sim_start a intel-600p
ST=$T/state
write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
device = $SIM_FILE
serial = none
block_size = 128k
queue_depth = 1
order = sequential
static_fraction = 0.25
trim = yes
idle = 0
cycles = 2
checkpoint = off
smart_command = $SSDSIM smart --control $SIM_CTL
thermal_interval = 1s
EOF
SSDT_TIMEOUT=200 run_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
assert_rc "two cycles on the 600p-like drive, SMART every second" 0 "$RC" "$T/a.log"
EV=$ST/a/events.jsonl
assert_eq "no smart_mismatch" 0 "$(ev_count "$EV" 0 event=smart_mismatch)"
assert_eq "a SMART baseline" 1 "$(ev_count "$EV" 0 event=smart_baseline)"
dev=$(sim_smart | python3 -c 'import json, sys; print(json.load(sys.stdin)["ssdsim"]["host_bytes_written"])')
assert_eq "the drive's host bytes written are our TBW" \
    "$(state_get "$ST/a/state" host_bytes_written)" "$dev"
finish
