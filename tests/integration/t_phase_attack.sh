#!/bin/bash
# A phase change whose checkpoint cannot be saved (the state directory
# full): the phase's first job must still wait for a state
# naming the phase. The drive may go on within max_unrecorded, but not
# into a new phase's I/O: a kill -9 there, then a --verify of what the
# state on disk says against the drive, must find nothing but torn
# blocks. Each round fills the state directory while an 8 MiB drive on
# tmpfs changes phase every few ms, kills the daemon a second later,
# gives the space back and verifies.
. "$(dirname "$0")/lib.sh"
need_root

ROUNDS=${PHASE_ATTACK_ROUNDS:-4}
do_mount -t tmpfs -o size=64m tmpfs "$T/shm"
do_mount -t tmpfs -o size=16m tmpfs "$T/sd"
ST=$T/sd/state
S=$ST/a/state
EV=$ST/a/events.jsonl
tiny_drive_conf "$T/a.conf" "$ST" "$T/shm/a.img"

for i in $(seq 1 "$ROUNDS"); do
	start_ssdt "$T/k$i.log" -c "$T/a.conf"
	wait_state "$S" "$SSDT_PID" 60 's["run"] == "running"' ||
	    die "round $i: the drive never ran"
	sleep 0.3
	c0=$(state_get "$S" cycle)
	how="state directory full"
	dd if=/dev/zero of="$T/sd/fill" bs=64k status=none 2>/dev/null
	sleep 1
	kill_and_reap KILL "$SSDT_PID"
	assert_eq "round $i: killed by SIGKILL" 137 "$RC"
	rm -f "$T/sd/fill"
	from=$(events_mark "$EV" "$S")
	c=$(state_get "$S" cycle)
	run_ssdt "$T/v$i.log" -c "$T/a.conf" --verify
	assert_rc "round $i ($how): --verify" 0 "$RC" "$T/v$i.log"
	assert_no_findings "round $i ($how, state cycle $c0 -> $c $(state_get "$S" phase))" \
	    "$EV" "$from"
	# a drive failed by the findings would not run the next round
	rm -f "$T/shm/a.img"; truncate -s 8M "$T/shm/a.img"
	rm -rf "$ST"
done
finish
