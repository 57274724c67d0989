#!/bin/bash
# Corruption on the read path: dm-flakey corrupt_bio_byte N r VALUE 0
# overwrites byte N (1-based) of every read bio with VALUE while the table
# is "down". The daemon reads one block per I/O (O_DIRECT), so each block
# read is one bio: byte N-1 of every block is hit, when the bio (= the
# block) is long enough, and a block whose byte already held VALUE reads
# back intact. --verify must report exactly the blocks that changed, as
# `corrupt` events at block offsets with first_bad_byte = N-1.
#
# Two drives over two regions of the NVMe namespace:
#   a: 16 MiB, 4k blocks       b: 32 MiB, 64k blocks
. "$(dirname "$0")/lib.sh"

NV=/dev/nvme0n1
A_SECT=32768 B_SECT=65536 B_START=32768
A_BS=4096 B_BS=65536 FRAC=0.5
A_NBLK=$((A_SECT * 512 / A_BS)) B_NBLK=$((B_SECT * 512 / B_BS))
ST=$T/state
SA=$ST/a/state SB=$ST/b/state
EA=$ST/a/events.jsonl EB=$ST/b/events.jsonl

up() { echo "0 $1 flakey $NV $2 86400 0"; }
corrupt() { echo "0 $1 flakey $NV $2 0 86400 5 corrupt_bio_byte $3 r $4 0"; }

write_conf "$T/c.conf" "$ST" <<EOC
[drive:a]
checkpoint = off
device = /dev/mapper/fa
serial = none
block_size = 4k
order = random
queue_depth = 8
static_fraction = $FRAC
trim = no
cycles = 1
max_error_events = 1000000
max_bad_fraction = 100%

[drive:b]
checkpoint = off
device = /dev/mapper/fb
serial = none
block_size = 64k
order = random
queue_depth = 8
static_fraction = $FRAC
trim = no
cycles = 1
max_error_events = 1000000
max_bad_fraction = 100%
EOC

log "two flakey devices (up) over $NV: a = 16 MiB 4k blocks, b = 32 MiB 64k blocks"
dm_create fa "$(up $A_SECT 0)"
dm_create fb "$(up $B_SECT $B_START)"
run_ssdt "$T/c1.log" -c "$T/c.conf" --oneshot
assert_rc "cycle 1 on both, clean" 0 "$RC" "$T/c1.log"
assert_eq "a: run" finished "$(state_get "$SA" run)"
assert_eq "b: run" finished "$(state_get "$SB" run)"

# intact COUNT: how many blocks of a region hold VALUE at byte IDX already
# (those read back unchanged). Reads the backing namespace directly.
intact() {	# START_SECTOR SECTORS BS IDX VALUE
	dd if=$NV bs=1M iflag=direct,skip_bytes,count_bytes skip=$(($1 * 512)) \
	    count=$(($2 * 512)) status=none | python3 -c '
import sys
bs, idx, val = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
data = sys.stdin.buffer.read()
n = len(data) // bs
print(sum(1 for i in range(n) if idx < bs and data[i * bs + idx] == val))' "$3" "$4" "$5"
}

# findings LABEL EVENTS FROM_BYTE BS NBLK: a summary of the corrupt events
# after FROM_BYTE: total blocks, events, and the distinct first_bad_byte,
# bad_bytes values, and bad offsets
findings() {
	tail -c +$(($3 + 1)) "$2" >"$T/ev.$1"
	ev_query "$T/ev.$1" 0 class,offset,blocks,first_bad_byte,bad_bytes,phase event=verify_error |
	    python3 -c '
import sys, collections
bs, nblk = int(sys.argv[1]), int(sys.argv[2])
blocks = events = badoff = 0
classes, fbb, bb, phases = collections.Counter(), collections.Counter(), collections.Counter(), collections.Counter()
for l in sys.stdin:
    cls, off, n, f, b, ph = l.split()
    off, n = int(off), int(n)
    events += 1; blocks += n
    classes[cls] += n; fbb[f] += n; bb[b] += n; phases[ph] += 1
    if off % bs or off + n * bs > nblk * bs: badoff += 1
fmt = lambda c: ",".join("%s:%d" % kv for kv in sorted(c.items())) or "none"
print("blocks", blocks); print("events", events); print("badoff", badoff)
print("classes", fmt(classes)); print("first_bad_byte", fmt(fbb))
print("bad_bytes", fmt(bb)); print("phases", fmt(phases))' "$4" "$5" >"$T/sum.$1"
	note "$1: $(tr '\n' ' ' <"$T/sum.$1")"
}
sv() { awk -v k="$2" '$1 == k { print $2; exit }' "$T/sum.$1"; }

# verify_round LABEL N VALUE: swap both tables to corrupt byte N, --verify
verify_round() {
	local label=$1 n=$2 val=$3 ia ib ca cb ea eb
	log "$label: corrupt_bio_byte $n r $val 0 on both, then --verify"
	ia=$(intact 0 $A_SECT $A_BS $((n - 1)) "$val")
	ib=$(intact $B_START $B_SECT $B_BS $((n - 1)) "$val")
	EXP_A=$((A_NBLK - ia)) EXP_B=$((B_NBLK - ib))
	[ "$n" -gt $A_BS ] && EXP_A=0
	[ "$n" -gt $B_BS ] && EXP_B=0
	note "a: $ia of $A_NBLK blocks already hold $val at byte $((n - 1)): expect $EXP_A corrupt"
	note "b: $ib of $B_NBLK blocks already hold $val at byte $((n - 1)): expect $EXP_B corrupt"
	dm_swap fa "$(corrupt $A_SECT 0 "$n" "$val")"
	dm_swap fb "$(corrupt $B_SECT $B_START "$n" "$val")"
	ca=$(state_get "$SA" errors.corrupt) cb=$(state_get "$SB" errors.corrupt)
	ea=$(stat -c %s "$EA") eb=$(stat -c %s "$EB")
	run_ssdt "$T/$label.log" -c "$T/c.conf" --verify
	if [ $((EXP_A + EXP_B)) -gt 0 ]; then
		assert_rc "$label: --verify (errors found)" 3 "$RC" "$T/$label.log"
	else
		assert_rc "$label: --verify (clean)" 0 "$RC" "$T/$label.log"
	fi
	assert_eq "$label: a: errors.corrupt grew by" "$EXP_A" $(($(state_get "$SA" errors.corrupt) - ca))
	assert_eq "$label: b: errors.corrupt grew by" "$EXP_B" $(($(state_get "$SB" errors.corrupt) - cb))
	findings "$label.a" "$EA" "$ea" $A_BS $A_NBLK
	findings "$label.b" "$EB" "$eb" $B_BS $B_NBLK
	dm_swap fa "$(up $A_SECT 0)"
	dm_swap fb "$(up $B_SECT $B_START)"
}

# every finding: class corrupt, at a block offset in the span, found in verify
# (corrupt blocks are never merged: one event per block)
check_shape() {	# LABEL.X EXPECTED_BLOCKS [FIRST_BAD_BYTE BAD_BYTES]
	local l=$1 ph
	assert_eq "$l: blocks in verify_error events" "$2" "$(sv "$l" blocks)"
	[ "$2" -gt 0 ] || return 0
	assert_eq "$l: classes (class:blocks)" "corrupt:$2" "$(sv "$l" classes)"
	assert_eq "$l: events not at a block offset inside the span" 0 "$(sv "$l" badoff)"
	# the events of an on-demand verify pass carry the drive's schedule
	# phase (idle for a finished drive), not "verify"
	ph=$(sv "$l" phases)
	case $ph in
	"verify:"*|"idle:"*) pass_check "$l: phase of the events (phase:events): $ph" ;;
	*) fail "$l: phase of the events (phase:events): $ph" ;;
	esac
	[ $# -ge 4 ] || return 0
	assert_eq "$l: first_bad_byte (value:blocks)" "$3:$2" "$(sv "$l" first_bad_byte)"
	assert_eq "$l: bad_bytes (value:blocks)" "$4:$2" "$(sv "$l" bad_bytes)"
}

# 1. a payload byte: byte 101 of the bio = byte 100 of each block
verify_round payload 101 1
check_shape payload.a $EXP_A 100 1
check_shape payload.b $EXP_B 100 1

# 2. a byte beyond a 4k bio: only the 64k blocks are hit
verify_round beyond4k 5001 1
check_shape beyond4k.a 0
check_shape beyond4k.b $EXP_B 5000 1

# 3. a header byte: byte 32 of the bio = byte 31 of the block, the top byte
#    of the header's little-endian offset field (0 on this small device, so
#    every block changes). The checksum fails; the first differing byte is
#    31, but the daemon compares only the payload, and only when the header's
#    instance and offset are the expected ones: it can name no byte here.
verify_round header 32 1
assert_eq "header.a: every block is hit" "$A_NBLK" "$EXP_A"
check_shape header.a $EXP_A
check_shape header.b $EXP_B
for x in a b; do
	f=$(sv header.$x first_bad_byte) b=$(sv header.$x bad_bytes)
	case $f in
	31:*) pass_check "header.$x: first_bad_byte (value:blocks): $f" ;;
	*) note "header.$x: first_bad_byte (value:blocks) $f, bad_bytes $b: a header byte (31, the offset field) is not located (README: corrupt comes 'with the first differing byte')" ;;
	esac
done

log "tables back up: the medium was never touched"
ca=$(state_get "$SA" errors.corrupt) cb=$(state_get "$SB" errors.corrupt)
ea=$(stat -c %s "$EA") eb=$(stat -c %s "$EB")
run_ssdt "$T/clean.log" -c "$T/c.conf" --verify
assert_eq "clean pass: a: errors.corrupt unchanged" "$ca" "$(state_get "$SA" errors.corrupt)"
assert_eq "clean pass: b: errors.corrupt unchanged" "$cb" "$(state_get "$SB" errors.corrupt)"
assert_eq "clean pass: new verify_error events" 0 \
    "$(( $(tail -c +$((ea + 1)) "$EA" | grep -c '"verify_error"') + $(tail -c +$((eb + 1)) "$EB" | grep -c '"verify_error"') ))"
# README: --verify makes one pass "then exits with the same codes" as
# --oneshot: 0 when all data verified clean. This pass found nothing.
assert_rc "--verify exit status of a clean pass (drives with errors from earlier passes)" 0 "$RC" "$T/clean.log"

finish
