#!/bin/bash
# The engine under every kind of configuration it accepts: block size
# (512 B, 4 KiB, 128 KiB, 1 MiB) x queue depth (1, 32, 1024) x order
# (sequential, random) x target (a file on this filesystem, a loop
# device), one short cycle each with io_timeout at its minimum (5 s).
# Each run must finish with its own verify finding nothing, every byte
# counted once and no stall; the largest (1 MiB at QD 1024 on a file, the
# case that once failed a healthy drive at its start) runs three times.
# MATRIX_REPEAT=N runs the whole matrix N times (make stress);
# MATRIX_CORNERS=1 only its corners (the sanitizer stage of make check).
# run: heavy
# (tests/lib/jobs.sh; it keeps both the CPU and the disk busy: 1 MiB
# blocks at queue depth 1024)
. "$(dirname "$0")/lib.sh"
need_root
command -v losetup >/dev/null || skip "losetup missing"

FRAC=0.25
REPEAT=${MATRIX_REPEAT:-1}

# Enough blocks for the queue depth where that stays small; 64 MiB at most
# (1 MiB blocks at QD 1024 still take their 1 GiB of buffers).
size_for() {	# BS
	local s=$(($1 * 2048))
	[ $s -lt $((8 << 20)) ] && s=$((8 << 20))
	[ $s -gt $((64 << 20)) ] && s=$((64 << 20))
	echo $s
}

# one TARGET BS QD ORDER
one() {
	local kind=$1 bs=$2 qd=$3 order=$4 size dev name st S
	size=$(size_for "$bs")
	name=m$RANDOM
	st=$T/st-$name
	rm -f "$T/img"
	truncate -s "$size" "$T/img"
	dev=$T/img
	if [ "$kind" = loop ]; then
		new_loop "$T/img"
		dev=$LOOPDEV
	fi
	write_conf "$T/$name.conf" "$st" <<EOF
[drive:$name]
checkpoint = off
device = $dev
serial = none
size = $size
block_size = $bs
queue_depth = $qd
order = $order
static_fraction = $FRAC
trim = yes
idle = 0
cycles = 1
io_timeout = 5s
EOF
	run_ssdt "$T/$name.log" -c "$T/$name.conf" --oneshot
	S=$st/$name/state
	layout "$size" "$bs" "$FRAC"
	local what="$kind bs=$bs qd=$qd $order"
	if [ "$RC" -ne 0 ] || [ "$(state_get "$S" run)" != finished ] ||
	    grep -q "stopped answering" "$T/$name.log"; then
		fail "$what: exit $RC, run $(state_get "$S" run 2>/dev/null)"
		tail -n 5 "$T/$name.log" | sed 's/^/      /'
	else
		pass_check
	fi
	assert_eq "$what: written" $((SBYTES + DBYTES)) \
	    "$(state_get "$S" host_bytes_written)"
	assert_eq "$what: read" $((NBLK * bs)) "$(state_get "$S" host_bytes_read)"
	for c in corrupt misdirected stale foreign unwritten io_error lost_flush; do
		[ "$(state_get "$S" errors.$c)" = 0 ] ||
		    fail "$what: errors.$c = $(state_get "$S" errors.$c)"
	done
	if [ "$kind" = loop ]; then
		losetup -d "$dev"
	fi
	rm -rf "$st"
}

# refused_bs NAME DEVICE: block_size 512 on a target whose direct I/O needs
# 4096 is refused up front, with the reason, and nothing is written.
refused_bs() {
	local name=$1 dev=$2 st=$T/st-$1 before
	before=$(sha256sum <"$dev")
	write_conf "$T/$name.conf" "$st" <<EOF
[drive:$name]
checkpoint = off
device = $dev
serial = none
size = 8M
block_size = 512
cycles = 1
EOF
	run_ssdt "$T/$name.log" -c "$T/$name.conf" --oneshot
	assert_rc "$name: 512-byte blocks where 4096 is needed" 4 "$RC" "$T/$name.log"
	assert_file_contains "$name: the reason" "$T/$name.log" \
	    "block_size 512 is not a multiple of the logical block size 4096"
	assert_eq "$name: nothing written" "$before" "$(sha256sum <"$dev")"
}

log "a 4 KiB-sector device, and a file on it, refuse 512-byte blocks"
truncate -s 64M "$T/k4.img"
new_loop --sector-size 4096 "$T/k4.img"
K4=$LOOPDEV
refused_bs k4dev "$K4"
mkfs.ext4 -q -F "$K4" || die "mkfs.ext4 failed"
do_mount "$K4" "$T/k4m"
truncate -s 8M "$T/k4m/f.img"
refused_bs k4file "$T/k4m/f.img"
umount "$T/k4m"

log "buffers the locked-memory limit cannot hold: plain buffers, same run"
write_conf "$T/lim.conf" "$T/st-lim" <<EOF
[drive:lim]
checkpoint = off
device = $T/lim.img
size = 64M
block_size = 1M
queue_depth = 64
cycles = 1
EOF
# without CAP_IPC_LOCK the kernel counts registered buffers against the limit
timeout --foreground -k 10 180 prlimit --memlock=65536:65536 setpriv \
    --inh-caps=-ipc_lock --bounding-set=-ipc_lock \
    "$SSDT" -c "$T/lim.conf" --oneshot >"$T/lim.log" 2>&1
RC=$?
assert_rc "lim: a run on plain buffers" 0 "$RC" "$T/lim.log"
assert_file_contains "lim: says why, with the sizes and the limit" "$T/lim.log" \
    "cannot register 64 buffers of 1048576 bytes (67108864 bytes; locked-memory limit 65536 bytes)"
assert_eq "lim: finished" finished "$(state_get "$T/st-lim/lim/state" run)"
assert_eq "lim: read back" $((64 << 20)) "$(state_get "$T/st-lim/lim/state" host_bytes_read)"
assert_no_errors "lim" "$T/st-lim/lim/state"

start=$(date +%s)
if [ -n "${MATRIX_CORNERS:-}" ]; then
	one file 512 1 random
	one loop 4096 1024 random
	one file 131072 32 sequential
	one loop 1048576 1 sequential
	one file 1048576 1024 random
	REPEAT=0
fi
for rep in $(seq "$REPEAT"); do
	for kind in file loop; do
		for bs in 512 4096 131072 1048576; do
			for qd in 1 32 1024; do
				for order in sequential random; do
					one $kind $bs $qd $order
				done
			done
		done
	done
	one file 1048576 1024 sequential
	one file 1048576 1024 random
done
log "matrix x$REPEAT: $(( $(date +%s) - start )) s"
finish
