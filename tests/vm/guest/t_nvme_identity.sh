#!/bin/bash
# A full cycle on the emulated NVMe namespace, identified by its serial;
# a wrong serial is refused without a single write; the drive's own SMART
# counter of data units written follows the daemon's host_bytes_written.
. "$(dirname "$0")/lib.sh"

DEV=/dev/nvme0n1
SERIAL=SSDTNVME0001
SPAN=$((96 * 1024 * 1024)) BS=4096 FRAC=0.5
layout $SPAN $BS $FRAC

conf() {	# FILE STATE_DIR SERIAL
	write_conf "$1" "$2" <<EOC
[drive:nv]
checkpoint = off
device = $DEV
serial = $3
span = 96M
block_size = 4k
order = random
queue_depth = 8
static_fraction = $FRAC
trim = yes
cycles = 1
on_io_error = stop
EOC
}

log "the device reports its serial"
[ -b $DEV ] || die "$DEV missing"
assert_eq "/sys/block/nvme0n1/device/serial" "$SERIAL" \
    "$(tr -d ' \n' </sys/block/nvme0n1/device/serial)"
conf "$T/plan.conf" "$T/plan" "$SERIAL"
"$SSDT" -n -c "$T/plan.conf" >"$T/plan.log" 2>&1
assert_rc "ssdtortured -n" 0 $? "$T/plan.log"
assert_contains "-n names the reported serial" "$(cat "$T/plan.log")" "$SERIAL"

# ---------------------------------------------------------------- refusal
refuse() {	# LABEL
	local sha0 sha1 wc0 wc1 S
	log "serial = WRONG is refused ($1)"
	sha0=$(sha_mib $DEV)
	wc0=$(nvme_smart host_write_commands)
	rm -rf "$T/wrong"
	conf "$T/wrong.conf" "$T/wrong" WRONG
	run_ssdt "$T/wrong.log" -c "$T/wrong.conf" --oneshot
	assert_rc "--oneshot with serial = WRONG" 4 "$RC" "$T/wrong.log"
	assert_contains "the refusal names both serials" "$(cat "$T/wrong.log")" \
	    "serial mismatch: configured 'WRONG', device reports '$SERIAL'"
	S=$T/wrong/nv/state
	if [ -f "$S" ]; then
		note "refused drive left a state file: run=$(state_get "$S" run) reason=$(state_get "$S" reason)"
		assert_eq "state run of the refused drive" failed "$(state_get "$S" run)"
	fi
	[ -f "$T/wrong/nv/events.jsonl" ] &&
	    assert_ge "refused events" "$(ev_count "$T/wrong/nv/events.jsonl" 0 event=refused)" 1
	sha1=$(sha_mib $DEV)
	assert_eq "sha256 of the first MiB after the refusal" "$sha0" "$sha1"
	wc1=$(nvme_smart host_write_commands)
	assert_eq "SMART host_write_commands after the refusal (no write reached the drive)" "$wc0" "$wc1"
}
refuse "blank namespace"

# ---------------------------------------------------------------- full cycle
log "one full cycle: 96 MiB span, 4k random, qd 8, trim = yes"
ST=$T/state
S=$ST/nv/state
EV=$ST/nv/events.jsonl
conf "$T/good.conf" "$ST" "$SERIAL"
du0=$(nvme_smart data_units_written)
wc0=$(nvme_smart host_write_commands)
run_ssdt "$T/good.log" -c "$T/good.conf" --oneshot
T_CYCLE=$ELAPSED
assert_rc "--oneshot" 0 "$RC" "$T/good.log"
show_state "$S"
assert_eq "run" finished "$(state_get "$S" run)"
assert_eq "cycles_done" 1 "$(state_get "$S" cycles_done)"
for c in corrupt misdirected stale foreign unwritten io_error lost_flush; do
	assert_eq "errors.$c" 0 "$(state_get "$S" errors.$c)"
done
assert_eq "verify_error events" 0 "$(ev_count "$EV" 0 event=verify_error)"
HBW=$(state_get "$S" host_bytes_written)
assert_eq "host_bytes_written (static + dynamic area once)" $((SBYTES + DBYTES)) "$HBW"
assert_eq "host_bytes_trimmed (the dynamic area)" "$DBYTES" "$(state_get "$S" host_bytes_trimmed)"
ev_query "$EV" 0 what,bytes,seconds,bytes_per_sec,iops event=phase_end |
    awk '{ printf "   phase %-7s %10d bytes %6.2f s %7.1f MB/s %7.0f IOPS\n", $1, $2, $3, $4 / 1e6, $5 }'

log "SMART data units written follow host_bytes_written"
du1=$(nvme_smart data_units_written)
wc1=$(nvme_smart host_write_commands)
DU=$((du1 - du0))
note "data_units_written $du0 -> $du1 (+$DU units of 512,000 bytes = $((DU * 512000)) bytes)"
note "host_write_commands $wc0 -> $wc1 (+$((wc1 - wc0)))"
note "host_bytes_written $HBW = $(awk -v b="$HBW" 'BEGIN { printf "%.3f", b / 512000 }') units"
# QEMU counts 512-byte sectors and reports DIV_ROUND_UP(sectors, 1000)
EXP=$(((HBW + 511999) / 512000))
TOL=$((EXP / 1000 + 1))
note "expected +$EXP units, tolerance +-$TOL (0.1% + 1 unit)"
assert_ge "data_units_written growth >= expected - tolerance" $DU $((EXP - TOL))
assert_le "data_units_written growth <= expected + tolerance" $DU $((EXP + TOL))
# not one command per block: the block layer merges adjacent 4k writes
note "(the block layer merged adjacent writes: $((HBW / BS)) blocks in $((wc1 - wc0)) write commands)"

# ---------------------------------------------------------------- refusal again
refuse "namespace holding the run's data"
assert_eq "the first run's state is untouched by the refused one" finished "$(state_get "$S" run)"

note "timing: full cycle ${T_CYCLE}s"
finish
