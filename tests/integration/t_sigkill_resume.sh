#!/bin/bash
# kill -9 in the middle of a phase, then resume: no false verify errors,
# no counter going backwards, no work lost or repeated in the accounting.
#   A: killed in the write pass (384 MiB, 4k random, queue depth 32), then
#      resumed with --oneshot
#   B: one drive killed in its static, write and verify passes in turn;
#      after each kill a --verify checks the checkpoint against the target
#      (and must itself be read-only), then the run resumes
#   C: a crash right after a trim completed, before the next checkpoint
# Hundreds of MiB written to the disk under /tmp: a timed test beside it
# would see its fsyncs take seconds.
# run: heavy
. "$(dirname "$0")/lib.sh"

BS=4096

# check_clean LABEL STATEFILE EVENTS : no verify error anywhere.
check_clean() {
	assert_no_errors "$1" "$2"
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
	[ "$(state_get "$sf" run)" = finished ] || show_file "$T/$label.log"
}

# kill_in PHASE LABEL CONF STATEFILE [WRITTEN] : start the daemon, wait
# until the state file shows PHASE under way, kill -9 it. Under way: its
# position moved, or (a write pass on a fast disk, whose position moves
# only with a completed cache flush, once a second) more than WRITTEN
# bytes written.
kill_in() {
	start_ssdt "$T/$2.log" -c "$3"
	wait_state "$4" "$SSDT_PID" 120 \
	    "s[\"phase\"] == \"$1\" and (s[\"position\"] > 0 or
	     s[\"host_bytes_written\"] > ${5:-1e30})" ||
	    die "$2: never saw the $1 pass under way"
	kill_and_reap KILL "$SSDT_PID"
	assert_eq "$2: killed by SIGKILL" 137 "$RC"
	assert_eq "$2: phase at the kill" "$1" "$(state_get "$4" phase)"
	assert_eq "$2: run at the kill" running "$(state_get "$4" run)"
	assert_ge "$2: position not behind the last checkpoint seen" \
	    "$(state_get "$4" position)" "$(state_get "$4.snap" position)"
	note "$2: killed in $(state_get "$4" phase) at item $(state_get "$4" position)"
}

# verify_readonly LABEL CONF STATEFILE EVENTS : --verify finds nothing
# wrong with the checkpoint, and writes and moves nothing.
verify_readonly() {
	local h p r from
	h=$(state_get "$3" host_bytes_written)
	p=$(state_get "$3" position)
	r=$(state_get "$3" host_bytes_read)
	from=$(events_mark "$4" "$3")
	run_ssdt "$T/$1.log" -c "$2" --verify
	assert_rc "$1: --verify" 0 "$RC" "$T/$1.log"
	check_clean "$1" "$3" "$4"
	assert_eq "$1: --verify wrote nothing" "$h" "$(state_get "$3" host_bytes_written)"
	assert_eq "$1: --verify kept the position" "$p" "$(state_get "$3" position)"
	assert_eq "$1: --verify read the span once" $((r + NBLK * BS)) \
	    "$(state_get "$3" host_bytes_read)"
	assert_eq "$1: verify_now events" 1 "$(ev_count "$4" "$from" event=verify_now)"
}

# ---------------------------------------------------------------- A
log "A: kill -9 during the write pass, resume with --oneshot"
# the kill needs a checkpoint inside the write pass, whose position is the
# durable mark (a flush a second, up to a second behind): a pass of several
# seconds, also on a fast host
SIZE=$((1024 * 1024 * 1024))
layout $SIZE $BS 0.25
ST=$T/state_a
S=$ST/a/state
EV=$ST/a/events.jsonl
write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
checkpoint = off
device = $T/a.img
size = 1G
block_size = 4k
order = random
queue_depth = 32
trim = no
cycles = 1
EOF
kill_in write a1 "$T/a.conf" "$S"
P=$(state_get "$S" position)
H=$(state_get "$S" host_bytes_written)
assert_gt "A: position at the kill" "$P" 0
assert_lt "A: position at the kill" "$P" "$DBLK"
assert_ge "A: host_bytes_written at the kill covers static + position" \
    "$H" $((SBYTES + P * BS))

resume_oneshot a_resume "$T/a.conf" "$S"
assert_rc "A: resumed --oneshot" 0 "$RC" "$T/a_resume.log"
assert_eq "A: run" finished "$(state_get "$S" run)"
assert_eq "A: cycles_done" 1 "$(state_get "$S" cycles_done)"
check_clean "A" "$S" "$EV"
HF=$(state_get "$S" host_bytes_written)
assert_ge "A: final host_bytes_written >= the one at the kill" "$HF" "$H"
assert_eq "A: final host_bytes_written == at the kill + rest of the pass" \
    $((H + (DBLK - P) * BS)) "$HF"
assert_eq "A: resume events" 1 "$(ev_count "$EV" 0 event=resume)"
assert_eq "A: the resume starts at the checkpoint" "write at item $P," \
    "$(ev_query "$EV" 0 message event=resume | grep -o 'write at item [0-9]*,')"
assert_eq "A: phase_end write" 1 "$(ev_count "$EV" 0 event=phase_end what=write)"
# the resumed pass: a timeline from where it went on, no cache estimate
TL=$ST/a/timelines/pass-1.json
assert_eq "A: the resumed pass's timeline is not whole" False \
    "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["whole"])' "$TL")"
assert_eq "A: it starts at or past the resume point" True \
    "$(python3 -c 'import json,sys; o = json.load(open(sys.argv[1]))
print(o["first_step"] * o["step_bytes"] >= int(sys.argv[2]) * int(sys.argv[3]))' \
    "$TL" "$P" "$BS")"
assert_eq "A: no cache estimate for the resumed pass" "- -" \
    "$(ev_query "$EV" 0 slc_knee,slc_cache_bytes event=phase_end what=write)"
assert_eq "A: the static fill's estimate" "True" \
    "$(python3 -c 'import json,sys; print("slc_knee" in json.load(open(sys.argv[1])))' \
    "$ST/a/timelines/pass-0.json")"
assert_eq "A: phase_end verify" 1 "$(ev_count "$EV" 0 event=phase_end what=verify)"
if ev_valid "$EV"; then pass_check; else fail "A: malformed event lines"; fi
rm -f "$T/a.img"
note "A done at ${SECONDS}s"

# ---------------------------------------------------------------- B
log "B: kill -9 in the static, write and verify passes, --verify after each"
SIZE=$((384 * 1024 * 1024))
layout $SIZE $BS 0.5
ST=$T/state_b
S=$ST/b/state
EV=$ST/b/events.jsonl
write_conf "$T/b.conf" "$ST" <<EOF
[drive:b]
checkpoint = off
device = $T/b.img
size = 384M
block_size = 4k
order = random
queue_depth = 4
static_fraction = 0.5
trim = no
cycles = 1
EOF
kill_in static b_static "$T/b.conf" "$S" $((SBLK * BS / 4))
assert_lt "B: static position" "$(state_get "$S" position)" "$SBLK"
assert_eq "B: static_done" 0 "$(state_get "$S" static_done)"
verify_readonly b_verify_static "$T/b.conf" "$S" "$EV"
H0=$(state_get "$S" host_bytes_written)
P0=$(state_get "$S" position)

kill_in write b_write "$T/b.conf" "$S" $((H0 + (SBLK - P0) * BS + DBLK * BS / 4))
P1=$(state_get "$S" position)
assert_lt "B: write position" "$P1" "$DBLK"
assert_ge "B: host_bytes_written at the write kill" \
    "$(state_get "$S" host_bytes_written)" $((H0 + (SBLK - P0) * BS + P1 * BS))
verify_readonly b_verify_write "$T/b.conf" "$S" "$EV"
H1=$(state_get "$S" host_bytes_written)
P1=$(state_get "$S" position)

kill_in verify b_verify "$T/b.conf" "$S"
assert_lt "B: verify position" "$(state_get "$S" position)" "$NBLK"
H2=$(state_get "$S" host_bytes_written)
assert_eq "B: host_bytes_written == at the write resume + rest of the pass" \
    $((H1 + (DBLK - P1) * BS)) "$H2"
verify_readonly b_verify_verify "$T/b.conf" "$S" "$EV"
H3=$(state_get "$S" host_bytes_written)
R3=$(state_get "$S" host_bytes_read)
P3=$(state_get "$S" position)

resume_oneshot b_resume "$T/b.conf" "$S"
assert_rc "B: resumed --oneshot" 0 "$RC" "$T/b_resume.log"
assert_eq "B: run" finished "$(state_get "$S" run)"
assert_eq "B: cycles_done" 1 "$(state_get "$S" cycles_done)"
check_clean "B" "$S" "$EV"
assert_eq "B: final host_bytes_written" "$H3" "$(state_get "$S" host_bytes_written)"
assert_eq "B: final host_bytes_read == at the resume + rest of the verify pass" \
    $((R3 + (NBLK - P3) * BS)) "$(state_get "$S" host_bytes_read)"
assert_eq "B: resume events (3 restarts, 3 --verify)" 6 "$(ev_count "$EV" 0 event=resume)"
for w in static write verify; do
	assert_eq "B: phase_end $w" 1 "$(ev_count "$EV" 0 event=phase_end what=$w)"
done
if ev_valid "$EV"; then pass_check; else fail "B: malformed event lines"; fi
rm -f "$T/b.img"

# ---------------------------------------------------------------- C
# The trim phase checkpoints when it starts, then discards. Take the state
# file as it is at that moment, let the discard finish, and put that state
# back: exactly what a crash before the next checkpoint leaves behind. A
# discarded block may read as zeros or as its old data; either is right.
note "B done at ${SECONDS}s"
log "C: crash after a completed trim, before the next checkpoint"
SIZE=$((256 * 1024 * 1024))
layout $SIZE $BS 0.25
ST=$T/state_c
S=$ST/c/state
EV=$ST/c/events.jsonl
write_conf "$T/c.conf" "$ST" <<EOF
[drive:c]
checkpoint = off
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

note "C done at ${SECONDS}s"
finish
