#!/bin/bash
# The verify after a power loss. The state names the boot the daemon ran
# the drive in; killed (-9) in a write pass and restarted in another boot
# (its state's boot_id set to one no boot has), the drive is verified
# first, then the cycle goes on:
#   A: the events power_loss, verify_now "after a power loss" and
#      power_loss_verified, in that order, before the write pass goes on;
#      nothing found; the writes after the last flush that the target kept
#      (a file keeps them all) counted as kept, between what the state
#      knew was written beyond its flushed position and the rest of the
#      pass; the loss in the state; a clean exit records a clean stop
#   B: a block below the flushed position blanked (a drive that lost a
#      flushed write): lost_flush at exactly that block, and with
#      on_lost_flush = fail the drive fails
#   C: stopped by SIGTERM, then another boot: no power loss
#   D: a drive stopped (ssdctl stop) when the power went, a flushed block
#      lost: the loss seen at start, the verify owed (ssdctl status, text
#      and --json) until the drive is started, then done first; stopped
#      by SIGTERM in the middle, it goes on from there at the next start
#      and the lost block counts once
# Not heavy: at queue depth 1 one write is in flight at a time, which a
# timed test beside it does not wait long behind.
. "$(dirname "$0")/lib.sh"
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}

BS=4096
SIZE=$((256 * 1024 * 1024))
layout $SIZE $BS 0.25
OTHER_BOOT=00000000-0000-4000-8000-000000000000
BOOT=$(cat /proc/sys/kernel/random/boot_id)

# conf NAME [KEY = VALUE...]: a drive of SIZE on a file, one cycle; queue
# depth 1, for a write pass of seconds in which to kill it
conf() {
	local n=$1
	shift
	write_conf "$T/$n.conf" "$T/state_$n" <<EOF
[drive:$n]
checkpoint = off
device = $T/$n.img
size = $((SIZE / 1048576))M
block_size = 4k
order = sequential
queue_depth = 1
trim = no
cycles = 1
$(printf '%s\n' "$@")
EOF
}

# kill_in_write NAME STATEFILE: killed -9 a quarter into the write pass
kill_in_write() {
	start_ssdt "$T/$1.log" -c "$T/$1.conf"
	wait_state "$2" "$SSDT_PID" 120 \
	    "(s[\"phase\"] == \"write\" and s[\"position\"] > 0 and
	     s[\"host_bytes_written\"] > $((SBYTES + DBYTES / 4)))" ||
	    die "$1: never saw the write pass under way"
	kill_and_reap KILL "$SSDT_PID"
	assert_eq "$1: killed by SIGKILL" 137 "$RC"
	assert_eq "$1: the boot in the state" "$BOOT" "$(state_get "$2" boot_id)"
	assert_eq "$1: not stopped cleanly" 0 "$(state_get "$2" stopped_clean)"
	sed -i "s/^boot_id .*/boot_id $OTHER_BOOT/" "$2"
}

# line_of EVENTS EVENT: the line of its first event of that kind
line_of() {
	grep -n "\"event\": *\"$2\"" "$1" | head -n 1 | cut -d: -f1
}

# ---------------------------------------------------------------- A
log "A: kill -9 in the write pass, restarted in another boot"
conf a
S=$T/state_a/a/state
EV=$T/state_a/a/events.jsonl
kill_in_write a "$S"
P=$(state_get "$S" position)
H=$(state_get "$S" host_bytes_written)
note "killed at item $P of $DBLK, $H bytes written"
run_ssdt "$T/a2.log" -c "$T/a.conf" --oneshot
assert_rc "A: --oneshot after the power loss" 0 "$RC" "$T/a2.log"
assert_eq "A: run" finished "$(state_get "$S" run)"
assert_eq "A: cycles_done" 1 "$(state_get "$S" cycles_done)"
assert_no_errors "A" "$S"
assert_eq "A: power_loss events" 1 "$(ev_count "$EV" 0 event=power_loss)"
assert_eq "A: its boot ids" "$BOOT $OTHER_BOOT" \
    "$(ev_query "$EV" 0 boot_id,previous_boot_id event=power_loss)"
assert_eq "A: the verify after it" 1 "$(ev_query "$EV" 0 message event=verify_now |
    grep -c 'after a power loss')"
read -r lost kept < <(ev_query "$EV" 0 lost_flush,unflushed_kept event=power_loss_verified)
note "A: unflushed writes kept $kept"
assert_eq "A: flushed blocks lost" 0 "$lost"
assert_ge "A: kept >= the writes the state knew beyond its position" \
    "$kept" $(((H - SBYTES) / BS - P))
assert_le "A: kept <= the rest of the pass" "$kept" $((DBLK - P))
assert_eq "A: the count in the state" "$kept" "$(state_get "$S" power.unflushed_kept)"
assert_eq "A: losses in the state" 1 "$(state_get "$S" power.losses)"
assert_eq "A: no verify owed" 0 "$(state_get "$S" power.verify)"
L1=$(line_of "$EV" power_loss)
L2=$(line_of "$EV" verify_now)
L3=$(line_of "$EV" power_loss_verified)
L4=$(grep -n '"what": *"write"' "$EV" | grep phase_end | head -n 1 | cut -d: -f1)
if [ -n "$L4" ] && [ "$L1" -lt "$L2" ] && [ "$L2" -lt "$L3" ] && [ "$L3" -lt "$L4" ]; then
	pass_check
else
	fail "A: events out of order: power_loss $L1, verify_now $L2, power_loss_verified $L3, phase_end write $L4"
fi
assert_eq "A: stopped cleanly at the end" 1 "$(state_get "$S" stopped_clean)"
assert_eq "A: this boot now" "$BOOT" "$(state_get "$S" boot_id)"
rm -f "$T/a.img"

# ---------------------------------------------------------------- B
log "B: a flushed block lost in the power loss, on_lost_flush = fail"
conf b "on_lost_flush = fail"
S=$T/state_b/b/state
EV=$T/state_b/b/events.jsonl
kill_in_write b "$S"
P=$(state_get "$S" position)
OFF=$(((SBLK + P / 2) * BS))
dd if=/dev/zero of="$T/b.img" bs=$BS seek=$((OFF / BS)) count=1 conv=notrunc \
    status=none || die "cannot blank a block"
run_ssdt "$T/b2.log" -c "$T/b.conf" --oneshot
assert_rc "B: --oneshot: the drive failed" 4 "$RC" "$T/b2.log"
assert_eq "B: run" failed "$(state_get "$S" run)"
assert_match "B: why" "on_lost_flush = fail" "$(state_get "$S" reason)"
assert_eq "B: errors.lost_flush" 1 "$(state_get "$S" errors.lost_flush)"
assert_eq "B: errors.unwritten" 0 "$(state_get "$S" errors.unwritten)"
assert_eq "B: the finding, at the block" "$OFF 1" \
    "$(ev_query "$EV" 0 offset,blocks event=verify_error class=lost_flush)"
assert_eq "B: power_loss_verified" 1 \
    "$(ev_query "$EV" 0 lost_flush event=power_loss_verified)"
assert_eq "B: the write pass did not go on" "$P" "$(state_get "$S" position)"
rm -f "$T/b.img"

# ---------------------------------------------------------------- C
log "C: stopped by SIGTERM, then another boot: no power loss"
conf c
S=$T/state_c/c/state
EV=$T/state_c/c/events.jsonl
start_ssdt "$T/c.log" -c "$T/c.conf"
wait_state "$S" "$SSDT_PID" 120 's["phase"] == "write" and s["position"] > 0' ||
    die "C: never saw the write pass under way"
kill_and_reap TERM "$SSDT_PID"
assert_eq "C: SIGTERM: clean exit" 0 "$RC"
assert_eq "C: stopped cleanly" 1 "$(state_get "$S" stopped_clean)"
sed -i "s/^boot_id .*/boot_id $OTHER_BOOT/" "$S"
run_ssdt "$T/c2.log" -c "$T/c.conf" --oneshot
assert_rc "C: --oneshot" 0 "$RC" "$T/c2.log"
assert_eq "C: no power_loss event" 0 "$(ev_count "$EV" 0 event=power_loss)"
assert_eq "C: no verify on demand" 0 "$(ev_count "$EV" 0 event=verify_now)"
assert_eq "C: run" finished "$(state_get "$S" run)"
# ---------------------------------------------------------------- D
log "D: stopped by ssdctl when the power went; the verify owed until started"
conf d
S=$T/state_d/d/state
EV=$T/state_d/d/events.jsonl
SOCK=$T/state_d.sock
start_ssdt "$T/d.log" -c "$T/d.conf"
wait_state "$S" "$SSDT_PID" 120 's["phase"] == "write" and s["position"] > 0' ||
    die "D: never saw the write pass under way"
"$CTL" -s "$SOCK" stop d >/dev/null || fail "D: ssdctl stop"
wait_state "$S" "$SSDT_PID" 30 's["run"] == "stopped"' || fail "D: not stopped"
kill_and_reap KILL "$SSDT_PID"
sed -i "s/^boot_id .*/boot_id $OTHER_BOOT/" "$S"
# and a flushed static block lost with it
dd if=/dev/zero of="$T/d.img" bs=$BS count=1 conv=notrunc status=none ||
    die "cannot blank a block"
start_ssdt "$T/d2.log" -c "$T/d.conf"
wait_state "$S" "$SSDT_PID" 30 's["power.verify"] == 1' || fail "D: no verify owed"
"$CTL" -s "$SOCK" --json status d >"$T/d.json" || fail "D: ssdctl --json status"
assert_eq "D: --json: losses, kept, owed" "1 0 True" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d = d["drives"][0] if "drives" in d else d
print(d["power_losses"], d["unflushed_kept"], d["power_verify_owed"])' "$T/d.json")"
assert_match "D: status" "^  power losses: +1 \(power cuts: 0; unflushed writes kept: 0; its verify owed\)$" \
    "$("$CTL" -s "$SOCK" status d)"
assert_eq "D: stopped, nothing run" 0 "$(ev_count "$EV" 0 event=verify_now)"
"$CTL" -s "$SOCK" start d >/dev/null || fail "D: ssdctl start"
# stopped in the middle: still owed, and it goes on from there, so that
# the lost block before that point counts once
wait_state "$S" "$SSDT_PID" 60 's["power.verify_position"] > 100' ||
    fail "D: the verify after the loss did not start"
kill_and_reap TERM "$SSDT_PID"
assert_eq "D: SIGTERM in the verify: clean exit" 0 "$RC"
assert_eq "D: still owed" 1 "$(state_get "$S" power.verify)"
POS=$(state_get "$S" power.verify_position)
assert_gt "D: how far it got" "$POS" 100
assert_lt "D: not to its end" "$POS" "$NBLK"
assert_eq "D: the lost block found" 1 "$(state_get "$S" errors.lost_flush)"
start_ssdt "$T/d3.log" -c "$T/d.conf"
wait_state "$S" "$SSDT_PID" 120 's["power.verify"] == 0 and s["phase"] == "write"' ||
    fail "D: the verify after the loss did not end"
assert_eq "D: verify_now events (the run and its resumption)" 2 \
    "$(ev_count "$EV" 0 event=verify_now)"
assert_eq "D: power_loss events" 1 "$(ev_count "$EV" 0 event=power_loss)"
assert_eq "D: lost_flush, counted once" 1 "$(state_get "$S" errors.lost_flush)"
assert_eq "D: power_loss_verified: lost_flush" 1 \
    "$(ev_query "$EV" 0 lost_flush event=power_loss_verified)"
assert_eq "D: the finding, at offset 0" "0 1" \
    "$(ev_query "$EV" 0 offset,blocks event=verify_error class=lost_flush)"
assert_match "D: status after it" "^  power losses: +1 \(power cuts: 0; unflushed writes kept: [0-9]+\)$" \
    "$("$CTL" -s "$SOCK" status d)"
kill_and_reap TERM "$SSDT_PID"
assert_eq "D: SIGTERM: clean exit" 0 "$RC"
finish
