#!/bin/bash
# kill -9 in the middle of a phase, then resume: no false verify errors,
# no counter going backwards, no work lost or repeated in the accounting.
#   A: killed in the write pass (512 MiB, 4k random, queue depth 32)
#   B: killed in the static pass, resumed, killed again in the verify pass
#   C: a crash right after a trim completed, before the next checkpoint
. "$(dirname "$0")/lib.sh"

BS=4096

# check_clean LABEL STATEFILE EVENTS : no verify error anywhere.
check_clean() {
	local c
	for c in corrupt misdirected stale foreign unwritten io_error; do
		assert_eq "$1: errors.$c" 0 "$(state_get "$2" errors.$c)"
	done
	assert_eq "$1: verify_error events" 0 "$(ev_count "$3" 0 event=verify_error)"
}

# resume_oneshot LABEL CONF STATEFILE : --oneshot in the background with
# the state file sampled until it exits; sets RC.
resume_oneshot() {
	local label=$1 conf=$2 sf=$3 mon
	start_ssdt "$T/$label.log" -c "$conf" --oneshot
	monitor_state "$sf" "$SSDT_PID" >"$T/$label.mon" 2>&1
	mon=$?
	wait_exit "$SSDT_PID" 120
	if [ $mon -eq 0 ]; then pass_check; else
		fail "$label: counters went backwards"; show_file "$T/$label.mon"; fi
	samples=$(sed -n 's/^samples //p' "$T/$label.mon")
	assert_ge "$label: state samples taken while it ran" "${samples:-0}" 3
}

# ---------------------------------------------------------------- A
log "A: kill -9 during the write pass"
SIZE=$((512 * 1024 * 1024))
layout $SIZE $BS 0.25
ST=$T/state_a
S=$ST/a/state
EV=$ST/a/events.jsonl
write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
device = $T/a.img
size = 512M
block_size = 4k
order = random
queue_depth = 32
trim = no
cycles = 1
EOF
start_ssdt "$T/a1.log" -c "$T/a.conf"
wait_state "$S" "$SSDT_PID" 90 's["phase"] == "write" and s["position"] > 0' ||
    die "A: never saw the write pass under way"
kill_and_reap KILL "$SSDT_PID"
assert_eq "A: killed by SIGKILL" 137 "$RC"
phase=$(state_get "$S" phase)
P=$(state_get "$S" position)
H=$(state_get "$S" host_bytes_written)
note "killed at phase $phase position $P/$DBLK, host_bytes_written $H"
assert_eq "A: phase at the kill" write "$phase"
assert_eq "A: run at the kill" running "$(state_get "$S" run)"
assert_gt "A: position at the kill" "$P" 0
assert_lt "A: position at the kill" "$P" "$DBLK"
assert_ge "A: position not behind the last seen checkpoint" "$P" \
    "$(state_get "$S.snap" position)"

# what the device holds now must match the checkpoint's expectations
from=$(events_size "$EV")
run_ssdt "$T/a_verify.log" -c "$T/a.conf" --verify
assert_rc "A: --verify after the kill" 0 "$RC" "$T/a_verify.log"
check_clean "A after --verify" "$S" "$EV"
# --verify is one read-only pass: it must not go on with the write pass
# of a drive whose state says running
assert_eq "A: --verify wrote nothing (host_bytes_written)" "$H" \
    "$(state_get "$S" host_bytes_written)"
assert_eq "A: --verify kept the write position" "$P" "$(state_get "$S" position)"
assert_eq "A: --verify ran no write phase (phase_start events after it)" 0 \
    "$(ev_count "$EV" "$from" event=phase_start)"

cp "$S" "$S.verify"
resume_oneshot a_resume "$T/a.conf" "$S"
assert_rc "A: resumed --oneshot" 0 "$RC" "$T/a_resume.log"
assert_eq "A: run" finished "$(state_get "$S" run)"
assert_eq "A: cycles_done" 1 "$(state_get "$S" cycles_done)"
check_clean "A" "$S" "$EV"
HF=$(state_get "$S" host_bytes_written)
assert_ge "A: final host_bytes_written >= the one at the kill" "$HF" "$H"
assert_eq "A: final host_bytes_written == at --verify + rest of the pass" \
    $(($(state_get "$S.verify" host_bytes_written) + (DBLK - $(state_get "$S.verify" position)) * BS)) "$HF"
assert_ge "A: resume events" "$(ev_count "$EV" 0 event=resume)" 2
assert_eq "A: phase_end verify" 1 "$(ev_count "$EV" 0 event=phase_end what=verify)"
rm -f "$T/a.img"

# ---------------------------------------------------------------- B
log "B: kill -9 during the static pass, then during the verify pass"
SIZE=$((512 * 1024 * 1024))
layout $SIZE $BS 0.5
ST=$T/state_b
S=$ST/b/state
EV=$ST/b/events.jsonl
write_conf "$T/b.conf" "$ST" <<EOF
[drive:b]
device = $T/b.img
size = 512M
block_size = 4k
order = random
queue_depth = 4
static_fraction = 0.5
trim = no
cycles = 1
EOF
start_ssdt "$T/b1.log" -c "$T/b.conf"
wait_state "$S" "$SSDT_PID" 90 's["phase"] == "static" and s["position"] > 0' ||
    die "B: never saw the static pass under way"
kill_and_reap KILL "$SSDT_PID"
assert_eq "B: killed by SIGKILL (static)" 137 "$RC"
P1=$(state_get "$S" position)
H1=$(state_get "$S" host_bytes_written)
note "killed at phase $(state_get "$S" phase) position $P1/$SBLK"
assert_eq "B: phase at the first kill" static "$(state_get "$S" phase)"
assert_gt "B: static position" "$P1" 0
assert_lt "B: static position" "$P1" "$SBLK"
assert_eq "B: static_done" 0 "$(state_get "$S" static_done)"

run_ssdt "$T/b_verify1.log" -c "$T/b.conf" --verify
assert_rc "B: --verify after the static kill" 0 "$RC" "$T/b_verify1.log"
check_clean "B after the static kill" "$S" "$EV"
R1=$(state_get "$S" host_bytes_read)

start_ssdt "$T/b2.log" -c "$T/b.conf"
wait_state "$S" "$SSDT_PID" 120 's["phase"] == "verify" and s["position"] > 0' ||
    die "B: never saw the verify pass under way"
kill_and_reap KILL "$SSDT_PID"
assert_eq "B: killed by SIGKILL (verify)" 137 "$RC"
P2=$(state_get "$S" position)
H2=$(state_get "$S" host_bytes_written)
R2=$(state_get "$S" host_bytes_read)
note "killed at phase $(state_get "$S" phase) position $P2/$NBLK"
assert_eq "B: phase at the second kill" verify "$(state_get "$S" phase)"
assert_gt "B: verify position" "$P2" 0
assert_lt "B: verify position" "$P2" "$NBLK"
assert_eq "B: host_bytes_written == at the static kill + rest of static + dynamic" \
    $((H1 + (SBLK - P1) * BS + DBYTES)) "$H2"
assert_ge "B: host_bytes_read went on" "$R2" "$R1"
check_clean "B after the verify kill" "$S" "$EV"

run_ssdt "$T/b_verify2.log" -c "$T/b.conf" --verify
assert_rc "B: --verify after the verify kill" 0 "$RC" "$T/b_verify2.log"
assert_eq "B: --verify read the whole span, nothing more" $((R2 + NBLK * BS)) \
    "$(state_get "$S" host_bytes_read)"
assert_eq "B: --verify kept the verify position" "$P2" "$(state_get "$S" position)"
R3=$(state_get "$S" host_bytes_read)
P3=$(state_get "$S" position)

resume_oneshot b_resume "$T/b.conf" "$S"
assert_rc "B: resumed --oneshot" 0 "$RC" "$T/b_resume.log"
assert_eq "B: run" finished "$(state_get "$S" run)"
assert_eq "B: cycles_done" 1 "$(state_get "$S" cycles_done)"
check_clean "B" "$S" "$EV"
assert_eq "B: final host_bytes_written" "$H2" "$(state_get "$S" host_bytes_written)"
assert_eq "B: final host_bytes_read == at the resume + rest of the verify pass" \
    $((R3 + (NBLK - P3) * BS)) "$(state_get "$S" host_bytes_read)"
assert_eq "B: phase_end static" 1 "$(ev_count "$EV" 0 event=phase_end what=static)"
assert_eq "B: phase_end verify" 1 "$(ev_count "$EV" 0 event=phase_end what=verify)"
rm -f "$T/b.img"

# ---------------------------------------------------------------- C
# The trim phase checkpoints when it starts, then discards. Take the state
# file as it is at that moment, let the discard finish, and put that state
# back: exactly what a crash before the next checkpoint leaves behind. A
# discarded block may read as zeros or as its old data; either is right.
log "C: crash after a completed trim, before the next checkpoint"
SIZE=$((256 * 1024 * 1024))
layout $SIZE $BS 0.25
ST=$T/state_c
S=$ST/c/state
EV=$ST/c/events.jsonl
write_conf "$T/c.conf" "$ST" <<EOF
[drive:c]
device = $T/c.img
size = 256M
block_size = 4k
order = sequential
queue_depth = 32
trim = yes
cycles = 1
EOF
start_ssdt "$T/c1.log" -c "$T/c.conf" --oneshot
if wait_state "$S" "$SSDT_PID" 90 's["phase"] == "trim"'; then
	wait_exit "$SSDT_PID" 60
	assert_rc "C: --oneshot" 0 "$RC" "$T/c1.log"
	assert_eq "C: trimmed_bytes at the end" "$DBYTES" "$(state_get "$S" trimmed_bytes)"
	assert_eq "C: trimmed_bytes at trim start" 0 "$(state_get "$S.snap" trimmed_bytes)"
	assert_lt "C: the dynamic area is discarded" "$(alloc_bytes "$T/c.img")" \
	    $((SBYTES + DBYTES / 4))
	cp "$S.snap" "$S"
	from=$(state_get "$S" events_bytes)
	run_ssdt "$T/c_verify.log" -c "$T/c.conf" --verify
	assert_rc "C: --verify from the trim-start checkpoint" 0 "$RC" "$T/c_verify.log"
	assert_eq "C: verify_error events" "" "$(ev_query "$EV" "$from" \
	    class,offset,blocks event=verify_error | head -5)"
	run_ssdt "$T/c_resume.log" -c "$T/c.conf" --oneshot
	assert_eq "C: run after the resumed trim" finished "$(state_get "$S" run)"
	assert_eq "C: cycles_done after the resumed trim" 1 "$(state_get "$S" cycles_done)"
else
	fail "C: never saw the trim phase (too fast to catch on this machine?)"
fi

finish
