#!/bin/bash
# prepare = format | sanitize: the drive erases itself before a fresh run.
#  - NVMe, prepare = format: the emulated namespace gets Format NVM with
#    user data erase; what was on it is gone (a marker written at its
#    last block reads back as zeros before the write pass could reach
#    it), the namespace keeps its block size, the created event names the
#    command, the prepare phase ends and the run goes on; a resumed run
#    does not format again (what the first start wrote survives the
#    restart, and there is no second prepare);
#  - refusals, before anything is written (the device's bytes unchanged):
#    sanitize on the emulated NVMe controller, which has no Sanitize
#    (SANICAP 0); format on the SATA disk (not NVMe); sanitize on the
#    SATA disk, whose IDENTIFY DEVICE (read through SG_IO) names no
#    SANITIZE command; format on a device-mapper device over half the
#    namespace (the drive would erase all of it).
. "$(dirname "$0")/lib.sh"

NV=/dev/nvme0n1
SATA=/dev/sda
ST=$T/state
EV=$ST/nv/events.jsonl
S=$ST/nv/state

conf() {	# FILE STATE_DIR NAME DEVICE SERIAL PREPARE
	write_conf "$1" "$2" <<EOC
[drive:$3]
device = $4
serial = $5
block_size = 64k
static_fraction = 0
order = sequential
cycles = 1
checkpoint = off
smart = off
prepare = $6
EOC
}

# marker DEV: 4 KiB of random bytes at the device's last 4 KiB; its sha256
LASTK=$(($(blockdev --getsize64 $NV) / 4096 - 1))
marker() {
	head -c 4096 /dev/urandom >"$T/mark"
	dd if="$T/mark" of="$1" bs=4096 seek="$LASTK" oflag=direct conv=notrunc \
	    status=none
	sha256sum <"$T/mark" | cut -d' ' -f1
}
last_sha() {
	dd if="$1" bs=4096 skip="$LASTK" count=1 iflag=direct status=none |
	    sha256sum | cut -d' ' -f1
}
ZERO=$(head -c 4096 /dev/zero | sha256sum | cut -d' ' -f1)
# has EVENT [key=value...]: the drive's log holds such an event
has() { [ "$(ev_count "$EV" 0 "event=$1" "${@:2}")" -ge 1 ]; }

# ------------------------------------------------------------ format, NVMe
log "prepare = format on $NV"
lbs0=$(cat /sys/block/nvme0n1/queue/logical_block_size)
m=$(marker $NV)
assert_eq "the marker is on the namespace" "$m" "$(last_sha $NV)"
conf "$T/f.conf" "$ST" nv $NV SSDTNVME0001 format
start_ssdt "$T/f.log" -c "$T/f.conf"
P=$SSDT_PID
if wait_for 120 has phase_end what=prepare; then
	pass_check "the prepare phase ended"
else
	fail "no phase_end of prepare within 120 s"
fi
after=$(last_sha $NV)
stop_ssdt $P "$T/f.log"
show_state "$S"
assert_eq "the namespace's last block: erased (zeros)" "$ZERO" "$after"
assert_eq "the namespace keeps its logical block size" "$lbs0" \
    "$(cat /sys/block/nvme0n1/queue/logical_block_size)"
assert_eq "created: prepare format by Format NVM" \
    "format NVMe Format NVM (user data erase)" \
    "$(ev_query "$EV" 0 prepare,prepare_by event=created)"
assert_ne "the drive did not fail" failed "$(state_get "$S" run)"
assert_ne "the run went on past prepare" prepare "$(state_get "$S" phase)"
assert_gt "the write pass began" "$(state_get "$S" host_bytes_written)" 0

log "a resumed run does not format again"
# the first MiB: written by the first start, not again in its one cycle
h0=$(sha_mib $NV)
assert_ne "the first MiB holds the run's blocks" \
    "$(head -c 1M /dev/zero | sha256sum | cut -d' ' -f1)" "$h0"
n0=$(ev_count "$EV" 0 event=phase_end what=prepare)
start_ssdt "$T/r.log" -c "$T/f.conf"
P=$SSDT_PID
wait_for 60 has resume || fail "no resume event"
sleep 1
stop_ssdt $P "$T/r.log"
assert_eq "the first MiB as the first start left it" "$h0" "$(sha_mib $NV)"
assert_eq "no second prepare" "$n0" \
    "$(ev_count "$EV" 0 event=phase_end what=prepare)"
assert_eq "the resume went on where the run stood, not at prepare" 0 \
    "$(ev_count "$EV" 0 event=phase_start phase=prepare)"

# ------------------------------------------------------------ refusals
# refused LABEL DEVICE SERIAL PREPARE REASON
refused() {
	local h0 dir=$T/ref_$4_$(basename "$2")
	h0=$(sha_mib "$2")
	conf "$T/x.conf" "$dir" x "$2" "$3" "$4"
	run_ssdt "$T/x.log" -c "$T/x.conf" --oneshot
	assert_ne "$1: refused" 0 "$RC"
	assert_file_contains "$1: the reason" "$dir/x/events.jsonl" "$5"
	assert_eq "$1: the first MiB unchanged" "$h0" "$(sha_mib "$2")"
}
log "what cannot be done is refused"
refused "sanitize on the emulated NVMe" $NV SSDTNVME0001 sanitize \
    "prepare = sanitize: the controller supports neither block erase nor crypto erase Sanitize"
refused "format on the SATA disk" $SATA SSDTSATA0001 format \
    "prepare = format: the device is not an NVMe namespace"
refused "sanitize on the SATA disk" $SATA SSDTSATA0001 sanitize \
    "prepare = sanitize: the drive supports neither BLOCK ERASE nor CRYPTO SCRAMBLE"
# a mapping over half the namespace: its ioctls would reach the drive,
# whose Format NVM erases the whole namespace
dm_create half "0 $(($(blockdev --getsz $NV) / 2)) linear $NV 0"
h_last=$(last_sha $NV)
refused "format on a device-mapper device over the namespace" \
    /dev/mapper/half none format \
    "prepare = format: the device is mapped over nvme0n1 (device-mapper or md)"
assert_eq "  the namespace's last block (outside the mapping) unchanged" \
    "$h_last" "$(last_sha $NV)"
dmsetup remove half
finish
