#!/bin/bash
# SIGTERM (and SIGINT) stop a never-ending run within 5 s with status 0,
# checkpoint it as still running, log "shutdown", and the next start
# resumes it; the checkpoint matches what is on the target.
# run: timed
# (tests/lib/jobs.sh; the bound: the exit within 5 s)
. "$(dirname "$0")/lib.sh"

ST=$T/state
S=$ST/a/state
EV=$ST/a/events.jsonl
write_conf "$T/c.conf" "$ST" <<EOF
[drive:a]
checkpoint = off
device = $T/a.img
size = 128M
block_size = 4k
order = random
queue_depth = 32
trim = yes
cycles = 0
EOF

# stop_with SIGNAL LABEL : signal the running daemon, check the exit and
# the checkpoint it leaves.
stop_with() {
	local sig=$1 label=$2 from
	from=$3
	kill "-$sig" "$SSDT_PID"
	wait_exit "$SSDT_PID" 10
	note "$label: exited with $RC after $ELAPSED s"
	assert_rc "$label: exit status" 0 "$RC" "$T/$label.log"
	if awk -v e="$ELAPSED" 'BEGIN { exit !(e <= 5.0) }'; then pass_check; else
		fail "$label: took $ELAPSED s to exit (limit 5)"; fi
	assert_eq "$label: run still running" running "$(state_get "$S" run)"
	assert_eq "$label: shutdown events" 1 "$(ev_count "$EV" "$from" event=shutdown)"
	assert_eq "$label: last event" shutdown \
	    "$(ev_query "$EV" "$from" event | tail -n 1)"
	assert_eq "$label: events_bytes == log size" "$(events_size "$EV")" \
	    "$(state_get "$S" events_bytes)"
	assert_file_contains "$label: log says why it stops" "$T/$label.log" "stopping"
}

# 1: in the middle of a write pass. A fast disk may finish the pass
# between the checkpoint that shows it under way and the signal; then the
# stop lands in the verify pass, and the next cycle's write pass is tried.
log "SIGTERM during the write pass"
from=0
for try in 1 2 3 4 5; do
	start_ssdt "$T/run1.log" -c "$T/c.conf"
	wait_state "$S" "$SSDT_PID" 60 \
	    's["phase"] == "write" and s["host_bytes_written"] > 0' ||
	    die "never saw the write pass under way"
	stop_with TERM run1 "$from"
	[ "$(state_get "$S" phase)" = write ] && break
	note "try $try: the write pass ended before the signal came; again"
	from=$(events_mark "$EV" "$S")
done
H1=$(state_get "$S" host_bytes_written)
P1=$(state_get "$S" position)
assert_eq "phase after SIGTERM in the write pass" write "$(state_get "$S" phase)"

# the checkpoint describes the target exactly; --verify (three times, as
# what it must not do depends on timing) reads and never writes
from=$(events_mark "$EV" "$S")
for i in 1 2 3; do
	run_ssdt "$T/verify1.$i.log" -c "$T/c.conf" --verify
	assert_rc "--verify #$i after SIGTERM" 0 "$RC" "$T/verify1.$i.log"
done
assert_eq "verify_error events" 0 "$(ev_count "$EV" 0 event=verify_error)"
assert_eq "--verify wrote nothing" "$H1" "$(state_get "$S" host_bytes_written)"
assert_eq "--verify kept the position" "$P1" "$(state_get "$S" position)"
assert_eq "--verify started no phase" 0 "$(ev_count "$EV" "$from" event=phase_start)"
P1=$(state_get "$S" position)
H1=$(state_get "$S" host_bytes_written)

# 2: the next start resumes; stop it with SIGINT a few seconds later,
# wherever it is (several cycles of 128 MiB go by)
log "restart, then SIGINT"
from=$(events_mark "$EV" "$S")
start_ssdt "$T/run2.log" -c "$T/c.conf"
wait_state "$S" "$SSDT_PID" 60 \
    "s[\"host_bytes_written\"] > $H1 and s[\"cycles_done\"] >= 1" ||
    fail "the resumed run made no progress"
assert_eq "resume events" 1 "$(ev_count "$EV" "$from" event=resume)"
assert_eq "created events (only the first start)" 1 "$(ev_count "$EV" 0 event=created)"
assert_eq "the resume picks up at the checkpoint" "write $P1" \
    "$(ev_query "$EV" "$from" phase event=resume) $(sed -n \
    's/.* at item \([0-9]*\),.*/\1/p' < <(ev_query "$EV" "$from" message event=resume))"
stop_with INT run2 "$from"
H2=$(state_get "$S" host_bytes_written)
assert_gt "host_bytes_written grew" "$H2" "$H1"

# 3: several quick stops and starts, each at another point of the cycle
for i in 3 4 5; do
	case $i in 3) pause=0.3 ;; 4) pause=0.9 ;; 5) pause=1.7 ;; esac
	from=$(events_mark "$EV" "$S")
	start_ssdt "$T/run$i.log" -c "$T/c.conf"
	wait_log "$T/run$i.log" "started:" 20 "$SSDT_PID" ||
	    fail "run$i: no 'started' line"
	sleep "$pause"
	stop_with TERM "run$i" "$from"
	Hn=$(state_get "$S" host_bytes_written)
	assert_ge "run$i: host_bytes_written never goes back" "$Hn" "$H2"
	H2=$Hn
done

from=$(events_mark "$EV" "$S")
run_ssdt "$T/verify2.log" -c "$T/c.conf" --verify
assert_rc "--verify after the stops" 0 "$RC" "$T/verify2.log"
assert_no_errors "" "$S"

# a main loop held up for 3 s (SIGSTOP stands in for a stalled fsync):
# one warning that says so, no burst of missed ticks, and it goes on
log "a blocked main loop is reported"
from=$(events_mark "$EV" "$S")
start_ssdt "$T/run5.log" -c "$T/c.conf"
wait_log "$T/run5.log" "started:" 20 "$SSDT_PID" || fail "run5: no 'started' line"
sleep 1.5
kill -STOP "$SSDT_PID"
sleep 3
kill -CONT "$SSDT_PID"
wait_log "$T/run5.log" "main loop was blocked" 5 "$SSDT_PID" ||
    fail "run5: no warning about the blocked main loop"
assert_eq "run5: one warning for one stall" 1 "$(grep -c 'main loop was blocked' "$T/run5.log")"
h=$(state_get "$S" host_bytes_written)
wait_state "$S" "$SSDT_PID" 10 "s['host_bytes_written'] > $h" ||
    fail "run5: no progress after the stall"
stop_with TERM run5 "$from"

# --oneshot stopped by SIGTERM: status 0 too while no error was found
from=$(events_mark "$EV" "$S")
start_ssdt "$T/run6.log" -c "$T/c.conf" --oneshot
wait_log "$T/run6.log" "started:" 20 "$SSDT_PID" || fail "run6: no 'started' line"
sleep 0.5
stop_with TERM run6 "$from"

if ev_valid "$EV"; then pass_check; else fail "malformed event lines"; fi
finish
