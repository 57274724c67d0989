#!/bin/bash
# A full run on a real block device (a loop device over a sparse file):
# serial = none, sequential order, queue depth 8, 2 cycles with trim.
. "$(dirname "$0")/lib.sh"
need_root
command -v losetup >/dev/null || skip "losetup missing"

SIZE=$((64 * 1024 * 1024)) BS=4096 FRAC=0.25
BACK=$T/backing.img
ST=$T/state
truncate -s $SIZE "$BACK"
new_loop "$BACK"
DEV=$LOOPDEV
layout $SIZE $BS $FRAC
log "loop device $DEV over a sparse 64 MiB file"

write_conf "$T/c.conf" "$ST" <<EOF
[drive:loop]
checkpoint = off
device = $DEV
serial = none
block_size = 4k
order = sequential
queue_depth = 8
static_fraction = $FRAC
trim = yes
cycles = 2
EOF

run_ssdt "$T/check.log" -c "$T/c.conf" -n
assert_rc "-n" 0 "$RC" "$T/check.log"
assert_file_contains "-n names a block device" "$T/check.log" "block device, serial 'none'"
assert_file_contains "-n capacity" "$T/check.log" "($SIZE bytes)"

run_ssdt "$T/run.log" -c "$T/c.conf" --oneshot
assert_rc "--oneshot" 0 "$RC" "$T/run.log"

S=$ST/loop/state
EV=$ST/loop/events.jsonl
[ -f "$S" ] || die "no state file"

assert_eq "run" finished "$(state_get "$S" run)"
assert_eq "cycles_done" 2 "$(state_get "$S" cycles_done)"
assert_eq "serial" none "$(state_get "$S" serial)"
assert_eq "device" "$DEV" "$(state_get "$S" device)"
assert_eq "pass_random" 0 "$(state_get "$S" pass_random)"
assert_eq "host_bytes_written == static + 2 * dynamic" \
    $((SBYTES + 2 * DBYTES)) "$(state_get "$S" host_bytes_written)"
assert_eq "host_bytes_read" $((2 * NBLK * BS)) "$(state_get "$S" host_bytes_read)"
assert_no_errors "" "$S"
for w in static write verify trim; do
	n=$(ev_count "$EV" 0 event=phase_end what=$w)
	assert_ge "phase_end $w events" "$n" 1
done
assert_eq "verify_error events" 0 "$(ev_count "$EV" 0 event=verify_error)"
assert_eq "trim_unsupported events" 0 "$(ev_count "$EV" 0 event=trim_unsupported)"
assert_eq "refused events" 0 "$(ev_count "$EV" 0 event=refused)"

# what reached the backing file: generation-0 blocks of this instance
INST=$(hex16 "$(state_get "$S" instance)")
sync
blockdev --flushbufs "$DEV" 2>/dev/null
assert_eq "header of block 0" "SSDTRT1 1 $BS $INST 0 0" "$(blk_header "$BACK" $BS 0)"
assert_eq "header of block $((SBLK - 1))" \
    "SSDTRT1 1 $BS $INST $(((SBLK - 1) * BS)) 0" \
    "$(blk_header "$BACK" $BS $((SBLK - 1)))"

# a restart on the same device is accepted (the state owns it) and, the
# run being finished, writes nothing. Give the previous instance a moment
# to let go of the device: that race is checked on its own below.
sleep 1
run_ssdt "$T/run2.log" -c "$T/c.conf" --oneshot
assert_rc "second --oneshot" 0 "$RC" "$T/run2.log"
assert_eq "host_bytes_written unchanged" $((SBYTES + 2 * DBYTES)) \
    "$(state_get "$S" host_bytes_written)"

# --verify of the finished, trimmed drive is clean, also when started right
# after the previous instance exited (as a script or a service restart
# does): our own last run must not make the device look busy
sleep 1
n_ok=0
for i in 1 2 3 4; do
	run_ssdt "$T/verify$i.log" -c "$T/c.conf" --verify
	assert_rc "--verify #$i started right after the previous run" 0 "$RC" "$T/verify$i.log"
	[ "$RC" -eq 0 ] && n_ok=$((n_ok + 1))
done
assert_eq "verify_error events after --verify" 0 "$(ev_count "$EV" 0 event=verify_error)"
assert_eq "verify_passes" $((2 + n_ok)) "$(state_get "$S" verify_passes)"

finish
