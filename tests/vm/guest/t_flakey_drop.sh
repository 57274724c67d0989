#!/bin/bash
# Lost writes: dm-flakey over the NVMe namespace. Cycle 1 runs clean with
# the table in a permanent "up" state (like linear); then the table is
# swapped to one that silently drops every write (drop_writes, always
# "down"), cycles is raised to 2, and the daemon runs again: cycle 2's
# write pass "succeeds", and its verify must find the whole dynamic area
# stale (generation 1 found, 2 expected) and nothing else.
. "$(dirname "$0")/lib.sh"

NV=/dev/nvme0n1
SECT=$(blockdev --getsz $NV) || die "blockdev --getsz $NV"
DM=fl
DEV=/dev/mapper/$DM
UP="0 $SECT flakey $NV 0 86400 0"
DROP="0 $SECT flakey $NV 0 0 86400 1 drop_writes"
SPAN=$((64 * 1024 * 1024)) BS=4096 FRAC=0.5
layout $SPAN $BS $FRAC
ST=$T/state
S=$ST/fl/state
EV=$ST/fl/events.jsonl

conf() {	# CYCLES
	write_conf "$T/fl.conf" "$ST" <<EOC
[drive:fl]
checkpoint = off
device = $DEV
serial = none
span = 64M
block_size = 4k
order = random
queue_depth = 8
static_fraction = $FRAC
trim = no
cycles = $1
max_error_events = 1000000
max_bad_fraction = 100%
on_io_error = stop
EOC
}

log "dm-flakey over $NV ($SECT sectors), up state"
dm_create $DM "$UP"
note "span 64 MiB: $NBLK blocks of 4k, static area [0, $SBYTES), dynamic area [$SBYTES, $((SBYTES + DBYTES)))"

log "the backing namespace now has a holder: the daemon refuses it"
write_conf "$T/raw.conf" "$T/raw" <<EOC
[drive:raw]
checkpoint = off
device = $NV
serial = SSDTNVME0001
span = 64M
block_size = 4k
cycles = 1
max_error_events = 1000000
max_bad_fraction = 100%
EOC
run_ssdt "$T/raw.log" -c "$T/raw.conf" --oneshot
assert_rc "--oneshot on the dm device's backing disk" 4 "$RC" "$T/raw.log"
assert_contains "refusal reason" "$(cat "$T/raw.log")" "has holders"

log "cycle 1, flakey up: clean"
conf 1
run_ssdt "$T/c1.log" -c "$T/fl.conf" --oneshot
assert_rc "cycle 1 --oneshot" 0 "$RC" "$T/c1.log"
show_state "$S"
assert_eq "run after cycle 1" finished "$(state_get "$S" run)"
assert_eq "cycles_done" 1 "$(state_get "$S" cycles_done)"
assert_eq "errors.stale after cycle 1" 0 "$(state_get "$S" errors.stale)"
H1=$(state_get "$S" host_bytes_written)
assert_eq "host_bytes_written after cycle 1" $((SBYTES + DBYTES)) "$H1"
EV1=$(stat -c %s "$EV")

log "swap the table to drop every write, cycles = 2"
dm_swap $DM "$DROP"
conf 2
run_ssdt "$T/c2.log" -c "$T/fl.conf" --oneshot
assert_rc "cycle 2 --oneshot (verify errors found)" 3 "$RC" "$T/c2.log"
show_state "$S"
assert_eq "run after cycle 2" finished "$(state_get "$S" run)"
assert_eq "cycles_done" 2 "$(state_get "$S" cycles_done)"
assert_eq "host_bytes_written: the dropped writes count as written" \
    $((H1 + DBYTES)) "$(state_get "$S" host_bytes_written)"
assert_eq "errors.stale == the dynamic area's blocks" "$DBLK" "$(state_get "$S" errors.stale)"
for c in corrupt misdirected foreign unwritten io_error lost_flush; do
	assert_eq "errors.$c" 0 "$(state_get "$S" errors.$c)"
done

# the events of the second run only
tail -c +$((EV1 + 1)) "$EV" >"$T/ev2.jsonl"
ev_query "$T/ev2.jsonl" 0 cycle,phase,class,offset,blocks,expected_generation,found_generation,found_instance event=verify_error >"$T/findings"
note "verify_error events of cycle 2: $(wc -l <"$T/findings")"
head -n 5 "$T/findings" | sed 's/^/     cycle phase class offset blocks exp found inst: /'
INST=$(printf '%016x' "$(state_get "$S" instance)")
python3 "$GUEST_DIR/flakey_drop_findings.py" "$T/findings" "$SBYTES" "$DBYTES" "$BS" "$INST" >"$T/verdict"
v() { awk -v k="$1" '$1 == k { print $2; exit }' "$T/verdict"; }
assert_eq "blocks in the stale events" "$DBLK" "$(v blocks)"
assert_eq "events that are not stale, gen 1 of our instance in cycle 2's verify, in the dynamic area" 0 "$(v bad)"
grep '^example' "$T/verdict" | sed 's/^/     /'
assert_eq "the stale events cover the dynamic area without gaps (end)" $((SBYTES + DBYTES)) "$(v end)"
assert_eq "gaps between the stale events" 0 "$(v gaps)"
assert_eq "phase_end write of cycle 2 reported" 1 "$(ev_count "$T/ev2.jsonl" 0 event=phase_end what=write)"

log "swap back to the up state: a --verify still finds the lost writes (they are on the medium)"
dm_swap $DM "$UP"
ST0=$(state_get "$S" errors.stale)
run_ssdt "$T/v.log" -c "$T/fl.conf" --verify
assert_rc "--verify" 3 "$RC" "$T/v.log"
assert_eq "errors.stale grew by the dynamic area again" $((ST0 + DBLK)) "$(state_get "$S" errors.stale)"
assert_eq "run after --verify" finished "$(state_get "$S" run)"

finish
