#!/bin/bash
# run: serial (a 5 s answer, stalls timed)
# A drive that stops answering. Device-mapper suspends the device under a
# running write pass: its reads and writes queue in the kernel and never
# complete. With io_timeout = 5s the drive must turn failed ("stopped
# answering") after 5 s and not before, while the other drive goes on and
# the daemon answers on its socket. When the device comes back (resume)
# the queued I/O completes, the abandoned worker ends, SIGTERM stops the
# daemon, and a --verify of the hung drive's checkpoint finds no error:
# nothing was counted as written that was not on the device.
. "$(dirname "$0")/lib.sh"

NV=/dev/nvme0n1
SD=/dev/sda
[ -b $NV ] && [ -b $SD ] || die "$NV or $SD missing"
dm_create h "0 $((256 * 2048)) linear $NV 0"

ST=$T/state
SOCK=$ST.sock
write_conf "$T/h.conf" "$ST" <<EOC
[drive:h]
checkpoint = off
device = /dev/mapper/h
serial = none
block_size = 4k
order = random
queue_depth = 8
static_fraction = 0.25
trim = no
cycles = 0
io_timeout = 5s

[drive:s]
checkpoint = off
device = $SD
serial = SSDTSATA0001
span = 64M
block_size = 64k
order = random
queue_depth = 8
trim = no
cycles = 0
EOC
SH=$ST/h/state SS=$ST/s/state

log "two drives: h = /dev/mapper/h (linear over $NV), s = $SD"
start_ssdt "$T/d.log" -c "$T/h.conf"
P=$SSDT_PID

log "suspend h while it writes: its I/O hangs"
if wait_state "$SH" $P 60 's["phase"] == "write" and s["position"] > 2000'; then
	note "h: $(state_get "$SH" phase) item $(state_get "$SH" position)"
else
	fail "h never reached its write pass"
fi
dmsetup suspend h --noudevsync || fail "dmsetup suspend h failed"
t0=$(date +%s%N)
note "dm h: $(dmsetup info -c --noheadings -o name,suspended h)"
if wait_state "$SH" $P 40 's["run"] != "running"'; then
	ms=$((($(date +%s%N) - t0) / 1000000))
	pass_check "h: no longer running ${ms} ms after the suspend"
	assert_ge "h: failed no sooner than io_timeout (ms)" "$ms" 5000
	assert_le "h: failed within io_timeout + 5 s (ms)" "$ms" 10000
else
	fail "h: still running 40 s after its device stopped answering"
fi
show_state "$SH"
assert_eq "h: run" failed "$(state_get "$SH" run)"
assert_contains "h: reason" "$(state_get "$SH" reason)" "stopped answering"
assert_eq "h: failed events" 1 "$(ev_count "$ST/h/events.jsonl" 0 event=failed)"

log "the daemon and the other drive go on"
if kill -0 $P 2>/dev/null; then pass_check "the daemon is still running"; else
	fail "the daemon exited"; show_file "$T/d.log"; fi
timeout 5 "$SSDCTL" -s "$SOCK" status >"$T/status" 2>&1
assert_rc "ssdctl status answers within 5 s" 0 $? "$T/status"
sed 's/^/     | /' "$T/status"
assert_contains "ssdctl status: h failed" "$(grep '^h ' "$T/status")" "failed"
progress s "$SS" $P

log "resume h: the queued I/O completes; SIGTERM stops the daemon"
dmsetup resume h --noudevsync || fail "dmsetup resume h failed"
sleep 1
stop_ssdt $P "$T/d.log"
assert_eq "h after the stop" failed "$(state_get "$SH" run)"
assert_eq "s: errors" 0 "$(errors_sum "$SS")"
grep -E 'answering|failed' "$T/d.log" | head -n 4 | sed 's/^/     log: /'

log "--verify: h holds everything its checkpoint says it wrote"
run_ssdt "$T/v.log" -c "$T/h.conf" --verify
# 4: h is still a failed drive, though it verifies clean
assert_rc "--verify (exit 4: a failed drive)" 4 "$RC" "$T/v.log"
assert_contains "--verify read all of h" "$(cat "$T/v.log")" "h: verify_now done"
for c in corrupt stale unwritten misdirected foreign io_error lost_flush; do
	assert_eq "h: errors.$c after --verify" 0 "$(state_get "$SH" errors.$c)"
done
assert_eq "h: verify_error events" 0 "$(ev_count "$ST/h/events.jsonl" 0 event=verify_error)"
assert_eq "h: verify_now events" 1 "$(ev_count "$ST/h/events.jsonl" 0 event=verify_now)"
dmsetup remove h --noudevsync 2>/dev/null

finish
