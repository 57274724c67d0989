#!/bin/bash
# stop_at_tbw in the middle of the first write pass: the drive stops
# writing at the limit, verifies what it holds (the half-written pass is
# no error), and finishes with "stop_at_tbw reached". Raising the limit
# lets it go on from the cut pass, into the next cycle.
. "$(dirname "$0")/lib.sh"

SIZE=$((64 * 1024 * 1024)) BS=4096 FRAC=0.25 QD=32
layout $SIZE $BS $FRAC
ST=$T/state
S=$ST/a/state
EV=$ST/a/events.jsonl

# the limit: static area + 40% of the dynamic area, in decimal TB
LIMIT=$((SBYTES + DBYTES * 40 / 100))
LIMIT_TB=$(python3 -c 'import sys; print("%.12fTB" % (int(sys.argv[1]) / 1e12))' $LIMIT)
conf() {	# STOP_AT_TBW
	write_conf "$T/c.conf" "$ST" <<EOF
[drive:a]
checkpoint = off
device = $T/a.img
size = 64M
block_size = 4k
order = random
queue_depth = $QD
static_fraction = $FRAC
trim = yes
cycles = 0
stop_at_tbw = $1
EOF
}
conf "$LIMIT_TB"
log "stop_at_tbw = $LIMIT_TB ($LIMIT bytes: static $SBYTES + 40% of $DBYTES)"

run_ssdt "$T/n.log" -c "$T/c.conf" -n
assert_rc "-n" 0 "$RC" "$T/n.log"

run_ssdt "$T/run1.log" -c "$T/c.conf" --oneshot
assert_rc "--oneshot" 0 "$RC" "$T/run1.log"
H=$(state_get "$S" host_bytes_written)
assert_eq "run" finished "$(state_get "$S" run)"
assert_eq "reason" "stop_at_tbw reached" "$(state_get "$S" reason)"
assert_ge "host_bytes_written >= stop_at_tbw" "$H" "$LIMIT"
assert_lt "host_bytes_written < stop_at_tbw + queue_depth * block_size" \
    "$H" $((LIMIT + QD * BS))
assert_eq "cycles_done" 0 "$(state_get "$S" cycles_done)"
assert_eq "cycle" 1 "$(state_get "$S" cycle)"
assert_eq "phase (the cut write pass, to go on later)" write "$(state_get "$S" phase)"
W=$(state_get "$S" written)
assert_eq "position == written" "$W" "$(state_get "$S" position)"
assert_eq "written blocks == bytes written in the pass" $(((H - SBYTES) / BS)) "$W"
assert_eq "verify_passes" 1 "$(state_get "$S" verify_passes)"
assert_eq "host_bytes_read (one full verify pass)" $((NBLK * BS)) \
    "$(state_get "$S" host_bytes_read)"
assert_no_errors "" "$S"
assert_eq "verify_error events" 0 "$(ev_count "$EV" 0 event=verify_error)"
# the verify pass ran after the stop, then the drive finished
order=$(ev_query "$EV" 0 event,what | awk '
    $1 == "phase_end" { print $1 "/" $2; next }
    $1 == "finished" { print $1 }' | xargs)
assert_eq "phase_end and finished events in order" \
    "phase_end/static phase_end/write phase_end/verify finished" "$order"
assert_eq "phase_end verify errors" 0 \
    "$(ev_query "$EV" 0 errors event=phase_end what=verify)"
assert_eq "trim phases (none: the pass was cut)" 0 \
    "$(ev_count "$EV" 0 event=phase_end what=trim)"
assert_eq "finished event reason" "stop_at_tbw reached" \
    "$(ev_query "$EV" 0 reason event=finished)"

# a restart with the same limit does nothing
run_ssdt "$T/run2.log" -c "$T/c.conf" --oneshot
assert_rc "second --oneshot with the same limit" 0 "$RC" "$T/run2.log"
assert_eq "host_bytes_written unchanged" "$H" "$(state_get "$S" host_bytes_written)"

# --verify of the cut pass is clean too
run_ssdt "$T/verify.log" -c "$T/c.conf" --verify
assert_rc "--verify of the cut pass" 0 "$RC" "$T/verify.log"

# a higher limit, in the middle of cycle 2: the cut pass goes on from where
# it stopped, cycle 1 completes (verify, trim), cycle 2 is cut in turn
LIMIT2=$((SBYTES + DBYTES + DBYTES / 2))
conf "$(python3 -c 'import sys; print("%.12fTB" % (int(sys.argv[1]) / 1e12))' $LIMIT2)"
from=$(events_mark "$EV" "$S")
run_ssdt "$T/run3.log" -c "$T/c.conf" --oneshot
assert_rc "--oneshot with a raised limit" 0 "$RC" "$T/run3.log"
H3=$(state_get "$S" host_bytes_written)
assert_eq "run (raised limit)" finished "$(state_get "$S" run)"
assert_eq "reason (raised limit)" "stop_at_tbw reached" "$(state_get "$S" reason)"
assert_ge "host_bytes_written >= the raised limit" "$H3" "$LIMIT2"
assert_lt "host_bytes_written < raised limit + queue_depth * block_size" \
    "$H3" $((LIMIT2 + QD * BS))
assert_eq "cycles_done (raised limit)" 1 "$(state_get "$S" cycles_done)"
assert_eq "cycle (raised limit)" 2 "$(state_get "$S" cycle)"
assert_eq "verify passes after the raise" 2 \
    "$(ev_count "$EV" "$from" event=phase_end what=verify)"
assert_eq "trim passes after the raise" 1 \
    "$(ev_count "$EV" "$from" event=phase_end what=trim)"
# the resumed pass wrote only what the cut pass had left
first_write=$(ev_query "$EV" "$from" bytes event=phase_end what=write | head -n 1)
assert_eq "bytes of the resumed write pass" $((DBYTES - W * BS)) "$first_write"
assert_no_errors "raised limit" "$S"
assert_eq "verify_error events (raised limit)" 0 "$(ev_count "$EV" 0 event=verify_error)"

finish
