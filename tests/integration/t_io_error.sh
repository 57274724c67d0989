#!/bin/bash
# Real I/O errors from a block device, without device-mapper (this kernel
# has none): a loop device over a 64 MiB sparse file on a 24 MiB tmpfs.
# Once the tmpfs is full every write fails (ENOSPC), deterministically.
#   on_io_error = stop:     the drive fails (exit 4), the errors are logged
#   on_io_error = continue: the pass goes on; every failed write is found
#                           unwritten by the verify pass (exit 3)
. "$(dirname "$0")/lib.sh"
need_root
command -v losetup >/dev/null || skip "losetup missing"

SIZE=$((64 * 1024 * 1024)) BS=4096 FRAC=0.25 FS=$((24 * 1024 * 1024))
layout $SIZE $BS $FRAC

# make_target NAME : a fresh tmpfs, sparse file and loop device; sets DEV.
make_target() {
	mkdir -p "$T/$1"
	echo "$T/$1" >>"$T/.mounts"
	mount -t tmpfs -o size=$FS tmpfs "$T/$1" ||
	    skip "cannot mount a tmpfs"
	truncate -s $SIZE "$T/$1/disk.img"
	new_loop "$T/$1/disk.img"
	DEV=$LOOPDEV
}

# conf NAME MODE [MAX_ERROR_EVENTS]
conf() {
	write_conf "$T/$1.conf" "$T/state_$1" <<EOF
[drive:$1]
checkpoint = off
device = $DEV
serial = none
block_size = 4k
order = random
queue_depth = 16
static_fraction = $FRAC
trim = no
cycles = 1
on_io_error = $2
# every failed block its own event, and no failure for their number: this
# test is about the errors themselves (t_dying covers the bounds)
max_error_events = ${3:-100000}
max_bad_fraction = 100%
EOF
}

# every class counter equals the blocks of its verify_error events
counters_match_events() {
	local st=$1 ev=$2 c sum
	for c in corrupt misdirected stale foreign unwritten io_error lost_flush; do
		sum=$(ev_query "$ev" 0 blocks event=verify_error class=$c |
		    awk '{ s += $1 } END { print s + 0 }')
		assert_eq "$3: errors.$c == blocks in its events" "$sum" \
		    "$(state_get "$st" errors.$c)"
	done
}

# ---------------------------------------------------------------- stop
log "on_io_error = stop"
make_target stop
conf stop stop
S=$T/state_stop/stop/state
EV=$T/state_stop/stop/events.jsonl
run_ssdt "$T/stop.log" -c "$T/stop.conf" --oneshot
assert_rc "exit status" 4 "$RC" "$T/stop.log"
assert_eq "run" failed "$(state_get "$S" run)"
assert_contains "reason" "$(state_get "$S" reason)" "I/O error"
assert_eq "phase at the failure" write "$(state_get "$S" phase)"
H=$(state_get "$S" host_bytes_written)
assert_eq "failed_at_tbw" "$H" "$(state_get "$S" failed_at_tbw)"
assert_le "host_bytes_written (what the tmpfs could hold)" "$H" $FS
assert_gt "io errors counted" "$(state_get "$S" errors.io_error)" 0
for c in corrupt misdirected stale foreign unwritten; do
	assert_eq "errors.$c" 0 "$(state_get "$S" errors.$c)"
done
counters_match_events "$S" "$EV" stop
assert_eq "failed events" 1 "$(ev_count "$EV" 0 event=failed)"
assert_ge "io_error events" "$(count_class "$EV" io_error)" 1
assert_eq "io_error events without errno" 0 \
    "$(ev_count "$EV" 0 event=verify_error class=io_error errno=)"
# a write failure of cycle 1 expected generation 1 there, not 0
assert_eq "write io_error events whose expected_generation is not 1" "" \
    "$(ev_query "$EV" 0 offset,expected_generation event=verify_error \
    class=io_error phase=write | awk '$2 != 1' | head -3)"
assert_file_contains "stderr says failed" "$T/stop.log" "failed: I/O error"

# a failed drive stays failed: a new start writes nothing
run_ssdt "$T/stop2.log" -c "$T/stop.conf" --oneshot
assert_rc "exit status of a restart" 4 "$RC" "$T/stop2.log"
assert_eq "run after a restart" failed "$(state_get "$S" run)"
assert_eq "host_bytes_written after a restart" "$H" "$(state_get "$S" host_bytes_written)"

# ---------------------------------------------------------------- continue
log "on_io_error = continue"
make_target cont
conf cont continue
S=$T/state_cont/cont/state
EV=$T/state_cont/cont/events.jsonl
run_ssdt "$T/cont.log" -c "$T/cont.conf" --oneshot
assert_rc "exit status (errors found)" 3 "$RC" "$T/cont.log"
assert_eq "run" finished "$(state_get "$S" run)"
assert_eq "cycles_done" 1 "$(state_get "$S" cycles_done)"
H=$(state_get "$S" host_bytes_written)
IOE=$(state_get "$S" errors.io_error)
assert_gt "io errors counted" "$IOE" 0
assert_eq "written + failed == static + dynamic" $((SBYTES + DBYTES)) \
    $((H + IOE * BS))
assert_eq "every failed write is found unwritten" "$IOE" \
    "$(state_get "$S" errors.unwritten)"
for c in corrupt misdirected stale foreign; do
	assert_eq "errors.$c" 0 "$(state_get "$S" errors.$c)"
done
counters_match_events "$S" "$EV" continue
assert_eq "io_error events outside the write pass" 0 \
    "$(ev_query "$EV" 0 phase event=verify_error class=io_error | grep -vc '^write$')"
assert_eq "unwritten events outside the verify pass" 0 \
    "$(ev_query "$EV" 0 phase event=verify_error class=unwritten | grep -vc '^verify$')"
assert_eq "phase_end verify" 1 "$(ev_count "$EV" 0 event=phase_end what=verify)"

# ---------------------------------------------------------------- bound
log "on_io_error = continue, max_error_events = 5: the write pass's errors bounded"
make_target bnd
conf bnd continue 5
S=$T/state_bnd/bnd/state
EV=$T/state_bnd/bnd/events.jsonl
run_ssdt "$T/bnd.log" -c "$T/bnd.conf" --oneshot
assert_rc "exit status (errors found)" 3 "$RC" "$T/bnd.log"
IOE=$(state_get "$S" errors.io_error)
assert_gt "io errors counted" "$IOE" 0
assert_eq "io_error events of the write pass: the bound" 5 \
    "$(ev_count "$EV" 0 event=verify_error class=io_error)"
assert_eq "one notice" 1 "$(ev_count "$EV" 0 event=errors_summarized phase=write)"
shown=$(ev_query "$EV" 0 blocks event=verify_error class=io_error |
    awk '{ s += $1 } END { print s + 0 }')
assert_eq "the summary has the rest of the blocks" $((IOE - shown)) \
    "$(ev_query "$EV" 0 blocks event=errors_summary what=write)"
assert_eq "every failed write is found unwritten" "$IOE" \
    "$(state_get "$S" errors.unwritten)"
assert_le "events.jsonl stays small" "$(stat -c %s "$EV")" 40000

finish
