#!/bin/bash
# kill -9 at random moments across many phase changes: an 8 MiB drive on
# tmpfs whose write, verify and trim passes take a few ms each, so that
# most kills land near a phase change. After each kill a --verify checks
# what the state on disk says against the drive: a restart goes on in the
# phase the state names, so the state must name a phase only once no I/O
# of the one after it was done (a phase's first job waits for the
# checkpoint that names it). Nothing but torn blocks (a write the kill
# cut) is found, counters never go back, and the run goes on where the
# state said, cycle after cycle.
. "$(dirname "$0")/lib.sh"
need_root

KILLS=${PHASE_KILLS:-24}
do_mount -t tmpfs -o size=64m tmpfs "$T/shm"
ST=$T/state
S=$ST/a/state
EV=$ST/a/events.jsonl
tiny_drive_conf "$T/a.conf" "$ST" "$T/shm/a.img"

# one --verify of the state against the drive: read only, nothing wrong
verify_clean() {
	local from h
	from=$(events_mark "$EV" "$S")
	h=$(state_get "$S" host_bytes_written)
	run_ssdt "$T/v$1.log" -c "$T/a.conf" --verify
	assert_rc "kill $1: --verify" 0 "$RC" "$T/v$1.log"
	assert_no_findings "kill $1 ($2)" "$EV" "$from"
	assert_eq "kill $1: --verify wrote nothing" "$h" \
	    "$(state_get "$S" host_bytes_written)"
}

prev_h=0
prev_c=0
phases=""
for i in $(seq 1 "$KILLS"); do
	start_ssdt "$T/k$i.log" -c "$T/a.conf"
	wait_state "$S" "$SSDT_PID" 60 's["run"] == "running"' ||
	    die "kill $i: the drive never ran"
	sleep "0.$(printf '%03d' $((RANDOM % 400)))"
	kill_and_reap KILL "$SSDT_PID"
	assert_eq "kill $i: killed by SIGKILL" 137 "$RC"
	h=$(state_get "$S" host_bytes_written)
	c=$(state_get "$S" cycle)
	p=$(state_get "$S" phase)
	phases="$phases $p"
	assert_ge "kill $i: host bytes written not behind" "$h" "$prev_h"
	assert_ge "kill $i: cycle not behind" "$c" "$prev_c"
	verify_clean "$i" "cycle $c, $p"
	prev_h=$h
	prev_c=$c
done
note "phases at the kills:$phases; cycle $prev_c at the end"
assert_ge "cycles run across the kills" "$prev_c" 4
assert_gt "phase changes across the kills" \
    "$(ev_count "$EV" 0 event=phase_start)" "$((KILLS * 2))"
finish
