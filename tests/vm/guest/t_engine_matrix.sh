#!/bin/bash
# The engine on the targets the host cannot give it: the emulated NVMe
# namespace itself, then a device-mapper device (linear) over it (while
# that exists the namespace has a holder and is refused). Block size
# (512 B, 4 KiB, 1 MiB) x queue depth (1, 1024; 256 at 1 MiB: this guest
# has 1 GiB of memory, and 1024 buffers of 1 MiB are refused at start, as
# checked last), random order, one short cycle each with io_timeout at its
# minimum: each finishes, its own verify finds nothing, every byte is
# counted once, no stall.
. "$(dirname "$0")/lib.sh"

NV=/dev/nvme0n1
[ -b $NV ] || die "$NV missing"
SECT=$(blockdev --getsz $NV)
LBS=$(blockdev --getss $NV)
note "$NV: $SECT sectors, logical block $LBS"

# one NAME DEVICE SERIAL BS QD
one() {
	local name=$1 dev=$2 serial=$3 bs=$4 qd=$5 st=$T/st-$1 S
	write_conf "$T/$name.conf" "$st" <<EOC
[drive:$name]
checkpoint = off
device = $dev
serial = $serial
span = 16M
block_size = $bs
queue_depth = $qd
order = random
static_fraction = 0.25
trim = yes
idle = 0
cycles = 1
io_timeout = 5s
EOC
	run_ssdt "$T/$name.log" -c "$T/$name.conf" --oneshot
	S=$st/$name/state
	assert_rc "$name ($dev bs=$bs qd=$qd)" 0 "$RC" "$T/$name.log"
	assert_eq "$name: finished" finished "$(state_get "$S" run)"
	assert_eq "$name: written" $((16 << 20)) "$(state_get "$S" host_bytes_written)"
	assert_eq "$name: read" $((16 << 20)) "$(state_get "$S" host_bytes_read)"
	assert_eq "$name: verify errors" 0 "$(errors_sum "$S")"
	if grep -q "stopped answering" "$T/$name.log"; then
		fail "$name: a stall was declared"
	fi
	rm -rf "$st"
}

# the corners of the matrix (the host test covers the rest on files and
# loop devices), half on each target
one nv512-1024 $NV SSDTNVME0001 512 1024
one nv4096-1 $NV SSDTNVME0001 4096 1
one nv1m-256 $NV SSDTNVME0001 1048576 256
dm_create lin "0 $SECT linear $NV 0"
one dm512-1 /dev/mapper/lin none 512 1
one dm4096-1024 /dev/mapper/lin none 4096 1024
one dm1m-1 /dev/mapper/lin none 1048576 1
dmsetup remove lin

# buffers the guest cannot hold: refused at start with the reason
write_conf "$T/big.conf" "$T/st-big" <<EOC
[drive:big]
checkpoint = off
device = $NV
serial = SSDTNVME0001
span = 16M
block_size = 1M
queue_depth = 1024
cycles = 1
EOC
run_ssdt "$T/big.log" -c "$T/big.conf" --oneshot
assert_rc "1 GiB of buffers in a 1 GiB guest" 4 "$RC" "$T/big.log"
assert_contains "... the reason" "$(cat "$T/big.log")" "cannot allocate I/O buffers"
finish
