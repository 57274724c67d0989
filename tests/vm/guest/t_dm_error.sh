#!/bin/bash
# I/O errors from a device-mapper device whose table is swapped to `error`
# while the daemon writes to it (dmsetup load + suspend + resume).
#   on_io_error = stop:     that drive fails with an I/O error reason, and a
#                           second drive in the same daemon (the SATA disk)
#                           goes on and finishes its cycle (exit 4)
#   on_io_error = continue: the drive keeps going, every failed write and
#                           every failed read is counted as io_error, and
#                           it finishes its cycle (exit 3)
. "$(dirname "$0")/lib.sh"

NV=/dev/nvme0n1
SD=/dev/sda
[ -b $SD ] || die "$SD missing"
SECT=$(blockdev --getsz $NV)

# ---------------------------------------------------------------- stop
log "on_io_error = stop: drive e on a linear dm device, drive s on $SD"
dm_create e "0 $SECT linear $NV 0"
ST=$T/state
write_conf "$T/stop.conf" "$ST" <<EOC
[drive:e]
checkpoint = off
device = /dev/mapper/e
serial = none
span = 256M
block_size = 4k
order = random
queue_depth = 8
static_fraction = 0.25
trim = no
cycles = 2
max_error_events = 1000000
max_bad_fraction = 100%
on_io_error = stop

[drive:s]
checkpoint = off
device = $SD
serial = SSDTSATA0001
span = 128M
block_size = 4k
order = random
queue_depth = 8
static_fraction = 0.5
trim = no
cycles = 1
max_error_events = 1000000
max_bad_fraction = 100%
on_io_error = stop
EOC
SE=$ST/e/state EE=$ST/e/events.jsonl
SS=$ST/s/state ES=$ST/s/events.jsonl
start_ssdt "$T/stop.log" -c "$T/stop.conf" --oneshot
P=$SSDT_PID
if wait_state "$SE" $P 60 's["phase"] == "write" and s["position"] > 2000'; then
	pass_check "drive e is in its write pass"
	note "e: $(state_get "$SE" phase) at item $(state_get "$SE" position); s: $(state_get "$SS" phase) at item $(state_get "$SS" position)"
	dm_swap e "0 $SECT error"
	T_SWAP=$(date +%s.%N)
else
	fail "drive e never reached its write pass"
fi
if wait_state "$SE" $P 60 's["run"] == "failed"'; then
	T_FAIL=$(date +%s.%N)
	pass_check "drive e failed $(awk -v a="$T_SWAP" -v b="$T_FAIL" 'BEGIN { printf "%.2f", b - a }') s after the swap"
	assert_eq "drive s still runs when e has failed" running "$(state_get "$SS" run)"
else
	fail "drive e did not fail"
fi
wait_pid $P 120
assert_rc "--oneshot (a drive failed)" 4 "$RC" "$T/stop.log"
show_state "$SE"
show_state "$SS"
assert_eq "e: run" failed "$(state_get "$SE" run)"
assert_contains "e: reason" "$(state_get "$SE" reason)" "I/O error"
assert_ge "e: errors.io_error" "$(state_get "$SE" errors.io_error)" 1
assert_eq "e: failed events" 1 "$(ev_count "$EE" 0 event=failed)"
assert_contains "e: reason in the failed event" "$(ev_query "$EE" 0 reason event=failed)" "I/O error"
assert_eq "e: failed_at_tbw == host_bytes_written" "$(state_get "$SE" host_bytes_written)" \
    "$(state_get "$SE" failed_at_tbw)"
assert_eq "s: run" finished "$(state_get "$SS" run)"
assert_eq "s: cycles_done" 1 "$(state_get "$SS" cycles_done)"
assert_eq "s: verify errors" 0 "$(ev_count "$ES" 0 event=verify_error)"
tf=$(ev_query "$EE" 0 time event=failed | head -n 1)
tn=$(ev_query "$ES" 0 time event=finished | head -n 1)
note "e failed at $tf, s finished at $tn"
if [[ -n "$tf" && -n "$tn" && "$tn" > "$tf" ]]; then
	pass_check "s finished after e had failed (the daemon kept s running)"
else
	fail "s did not finish after e failed (failed $tf, finished $tn)"
fi
assert_contains "stderr names the failure" "$(cat "$T/stop.log")" "e: failed: I/O error"
dmsetup remove e --noudevsync || fail "dmsetup remove e"

# ---------------------------------------------------------------- continue
# 256 MiB: static area [0, 64M), dynamic area [64M, 256M). Mid-write, the
# 16 MiB [128M, 144M) of the dynamic area turns into an `error` target and
# the rest stays linear: the writes that land there fail, the drive goes on,
# and the verify pass cannot read any of that region.
SPAN=$((256 * 1024 * 1024)) BS=4096 FRAC=0.25
layout $SPAN $BS $FRAC
CSECT=$((SPAN / 512)) E0=$((128 * 2048)) EN=$((16 * 2048))
EBLK=$((EN * 512 / BS))
log "on_io_error = continue: drive c on a 256 MiB linear dm device"
dm_create c "0 $CSECT linear $NV 0"
ST=$T/cstate
write_conf "$T/cont.conf" "$ST" <<EOC
[drive:c]
checkpoint = off
device = /dev/mapper/c
serial = none
block_size = 4k
order = random
queue_depth = 8
static_fraction = $FRAC
trim = no
cycles = 1
max_error_events = 1000000
max_bad_fraction = 100%
on_io_error = continue
EOC
SC=$ST/c/state EC=$ST/c/events.jsonl
start_ssdt "$T/cont.log" -c "$T/cont.conf" --oneshot
P=$SSDT_PID
if wait_state "$SC" $P 60 's["phase"] == "write" and s["position"] > 1000'; then
	pass_check "drive c is in its write pass (item $(state_get "$SC" position) of $DBLK)"
	dm_swap c "0 $E0 linear $NV 0
$E0 $EN error
$((E0 + EN)) $((CSECT - E0 - EN)) linear $NV $((E0 + EN))"
else
	fail "drive c never reached its write pass"
fi
: >"$T/samples"
if wait_state "$SC" $P 60 's["errors.io_error"] > 0'; then
	n1=$(state_get "$SC" errors.io_error)
	pass_check "io errors are counted ($n1) and the drive runs on: $(state_get "$SC" run), $(state_get "$SC" phase) item $(state_get "$SC" position)"
	if wait_state "$SC" $P 60 "s['errors.io_error'] > $n1 and s['run'] == 'running'"; then
		pass_check "the io_error count grows while the drive keeps running: $(state_get "$SC" errors.io_error), $(state_get "$SC" phase) item $(state_get "$SC" position)"
	else
		fail "the io_error count did not grow while the drive ran"
	fi
else
	fail "no io_error counted"
fi
wait_pid $P 180
assert_rc "--oneshot (errors found)" 3 "$RC" "$T/cont.log"
show_state "$SC"
assert_eq "c: run" finished "$(state_get "$SC" run)"
assert_eq "c: cycles_done" 1 "$(state_get "$SC" cycles_done)"
H=$(state_get "$SC" host_bytes_written)
ev_query "$EC" 0 phase,offset,blocks,errno event=verify_error class=io_error >"$T/ioe"
WF=$(awk '$1 == "write" { s += $3 } END { print s + 0 }' "$T/ioe")
RF=$(awk '$1 == "verify" { s += $3 } END { print s + 0 }' "$T/ioe")
OUT=$(awk -v a=$((E0 * 512)) -v b=$(((E0 + EN) * 512)) -v bs=$BS \
    '$2 < a || $2 + $3 * bs > b' "$T/ioe" | wc -l)
note "failed writes $WF, failed reads $RF, written $H bytes, errnos: $(awk '{ print $4 }' "$T/ioe" | sort | uniq -c | xargs)"
assert_gt "c: writes that failed" "$WF" 0
assert_le "c: writes that failed (at most the error region)" "$WF" "$EBLK"
assert_eq "c: written + failed writes == static + dynamic area" $((SBYTES + DBYTES)) $((H + WF * BS))
assert_eq "c: failed reads == the blocks of the error region" "$EBLK" "$RF"
assert_eq "c: io_error events outside the error region" 0 "$OUT"
assert_eq "c: errors.io_error == failed writes + failed reads" $((WF + RF)) "$(state_get "$SC" errors.io_error)"
for cl in corrupt misdirected stale foreign unwritten; do
	assert_eq "c: errors.$cl" 0 "$(state_get "$SC" errors.$cl)"
done
assert_eq "c: failed events" 0 "$(ev_count "$EC" 0 event=failed)"
assert_eq "c: io_error events without errno" 0 "$(awk '$4 == "-"' "$T/ioe" | wc -l)"

finish
