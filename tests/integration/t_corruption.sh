#!/bin/bash
# Inject every kind of damage into a file target and check that verify
# names each one exactly (class, offset, details), reports nothing else,
# and counts it in the state file.
. "$(dirname "$0")/lib.sh"

SIZE=$((32 * 1024 * 1024)) BS=4096 FRAC=0.5
IMG=$T/a.img
ST=$T/state
layout $SIZE $BS $FRAC
S=$ST/a/state
EV=$ST/a/events.jsonl

conf_a() {	# CYCLES
	write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
checkpoint = off
device = $IMG
size = 32M
block_size = 4k
order = random
queue_depth = 32
static_fraction = $FRAC
trim = no
cycles = $1
EOF
}

# expect_findings FROM_BYTE "class offset" ... : exactly these verify_error
# events (one each, any order) after FROM_BYTE, all one block long.
expect_findings() {
	local from=$1 want got
	shift
	want=$(printf '%s\n' "$@" | sort)
	got=$(ev_query "$EV" "$from" class,offset,blocks,block_size event=verify_error |
	    sort)
	assert_eq "verify_error events (class offset blocks block_size)" \
	    "$(printf '%s\n' "$@" | sed "s/\$/ 1 $BS/" | sort)" "$got"
	[ -n "$want" ] || true
}

# expect_counters CORRUPT MISDIRECTED STALE FOREIGN UNWRITTEN
expect_counters() {
	assert_eq "errors.corrupt" "$1" "$(state_get "$S" errors.corrupt)"
	assert_eq "errors.misdirected" "$2" "$(state_get "$S" errors.misdirected)"
	assert_eq "errors.stale" "$3" "$(state_get "$S" errors.stale)"
	assert_eq "errors.foreign" "$4" "$(state_get "$S" errors.foreign)"
	assert_eq "errors.unwritten" "$5" "$(state_get "$S" errors.unwritten)"
	assert_eq "errors.io_error" 0 "$(state_get "$S" errors.io_error)"
}

# The details every round must report for the static injections.
check_static_details() {
	local from=$1
	assert_eq "corrupt@40960 first_bad_byte,bad_bytes,expected_generation" \
	    "100 1 0" "$(ev_query "$EV" "$from" first_bad_byte,bad_bytes,expected_generation \
	    event=verify_error class=corrupt offset=40960)"
	assert_eq "misdirected@81920 found_offset,found_generation" "86016 0" \
	    "$(ev_query "$EV" "$from" found_offset,found_generation \
	    event=verify_error class=misdirected offset=81920)"
	assert_eq "misdirected@86016 found_offset,found_generation" "81920 0" \
	    "$(ev_query "$EV" "$from" found_offset,found_generation \
	    event=verify_error class=misdirected offset=86016)"
	assert_eq "misdirected found_instance is our own" "$INST $INST" \
	    "$(ev_query "$EV" "$from" found_instance event=verify_error \
	    class=misdirected | xargs)"
	assert_eq "unwritten@122880 expected_generation" 0 \
	    "$(ev_query "$EV" "$from" expected_generation event=verify_error \
	    class=unwritten offset=122880)"
	assert_eq "foreign@163840 found_instance,found_offset,found_generation" \
	    "$INST_B 163840 0" "$(ev_query "$EV" "$from" \
	    found_instance,found_offset,found_generation event=verify_error \
	    class=foreign offset=163840)"
	# random bytes: no header to compare with, and said so
	assert_eq "corrupt@204800 no_header,first_bad_byte,bad_bytes" \
	    "true - -" "$(ev_query "$EV" "$from" no_header,first_bad_byte,bad_bytes \
	    event=verify_error class=corrupt offset=204800)"
	assert_contains "corrupt@204800 message" "$(ev_query "$EV" "$from" \
	    message event=verify_error class=corrupt offset=204800)" \
	    "corrupt at offset 204800 (1 block): garbage: no valid block header"
	assert_not_contains "no event claims 0 bytes differ" \
	    "$(ev_query "$EV" "$from" message event=verify_error)" "0 bytes differ"
}

STATIC_FINDINGS=("corrupt 40960" "misdirected 81920" "misdirected 86016"
    "unwritten 122880" "foreign 163840" "corrupt 204800")

# ---- a clean first cycle
conf_a 1
log "32 MiB file, $NBLK blocks of 4k, static area $SBLK blocks"
run_ssdt "$T/run1.log" -c "$T/a.conf" --oneshot
assert_rc "first --oneshot" 0 "$RC" "$T/run1.log"
[ -f "$S" ] || die "no state"
assert_eq "run after cycle 1" finished "$(state_get "$S" run)"
expect_counters 0 0 0 0 0
INST=$(hex16 "$(state_get "$S" instance)")

# ---- an independent run of the same geometry, for a foreign block
IMG_B=$T/b.img
write_conf "$T/b.conf" "$T/state_b" <<EOF
[drive:b]
checkpoint = off
device = $IMG_B
size = 32M
block_size = 4k
static_fraction = $FRAC
trim = no
cycles = 1
EOF
run_ssdt "$T/runb.log" -c "$T/b.conf" --oneshot
assert_rc "--oneshot of the second drive" 0 "$RC" "$T/runb.log"
INST_B=$(hex16 "$(state_get "$T/state_b/b/state" instance)")
assert_ne "the two runs have different instances" "$INST" "$INST_B"

# ---- the generation-1 copy of a dynamic block, for a stale one later
STALE_BLK=$((NBLK - 10))
STALE_OFF=$((STALE_BLK * BS))
read_block "$IMG" $BS $STALE_BLK "$T/gen1.blk"
assert_eq "saved dynamic block header" "SSDTRT1 1 $BS $INST $STALE_OFF 1" \
    "$(blk_header "$T/gen1.blk" $BS 0)"

# ---- injections into the static area (generation 0)
# (a) flip one byte of block 10 at byte 100 of the block
python3 - "$IMG" $((10 * BS + 100)) <<'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
off = int(sys.argv[2])
b = os.pread(fd, 1, off)
os.pwrite(fd, bytes([b[0] ^ 0x5a]), off)
os.fsync(fd)
os.close(fd)
EOF
# (b) swap blocks 20 and 21
read_block "$IMG" $BS 20 "$T/b20"
read_block "$IMG" $BS 21 "$T/b21"
write_block "$IMG" $BS 20 "$T/b21"
write_block "$IMG" $BS 21 "$T/b20"
# (c) zero block 30
head -c $BS /dev/zero >"$T/zero.blk"
write_block "$IMG" $BS 30 "$T/zero.blk"
# (d) block 40 of the other run
read_block "$IMG_B" $BS 40 "$T/b40"
write_block "$IMG" $BS 40 "$T/b40"
# (f) random bytes over block 50
python3 -c 'import random, sys; sys.stdout.buffer.write(random.Random(7).randbytes(int(sys.argv[1])))' \
    $BS >"$T/random.blk"
write_block "$IMG" $BS 50 "$T/random.blk"

# ---- a read-only verify pass finds exactly those
from=$(events_mark "$EV" "$S")
hbw=$(state_get "$S" host_bytes_written)
run_ssdt "$T/verify1.log" -c "$T/a.conf" --verify
assert_rc "--verify after the static injections" 3 "$RC" "$T/verify1.log"
expect_findings "$from" "${STATIC_FINDINGS[@]}"
check_static_details "$from"
expect_counters 2 2 0 1 1
assert_eq "--verify writes nothing" "$hbw" "$(state_get "$S" host_bytes_written)"
assert_eq "verify_now events" 1 "$(ev_count "$EV" "$from" event=verify_now)"
assert_eq "run stays finished" finished "$(state_get "$S" run)"
assert_file_contains "stderr names the corrupt block" "$T/verify1.log" \
    "corrupt at offset 40960"

# ---- another cycle: the static area is verified again, with the same
# findings; the dynamic area is rewritten with generation 2
conf_a 2
from=$(events_mark "$EV" "$S")
run_ssdt "$T/run2.log" -c "$T/a.conf" --oneshot
assert_rc "--oneshot of cycle 2 (errors ever found: 3)" 3 "$RC" "$T/run2.log"
assert_eq "cycles_done" 2 "$(state_get "$S" cycles_done)"
assert_eq "run" finished "$(state_get "$S" run)"
expect_findings "$from" "${STATIC_FINDINGS[@]}"
check_static_details "$from"
expect_counters 4 4 0 2 2
assert_eq "host_bytes_written after cycle 2" $((SBYTES + 2 * DBYTES)) \
    "$(state_get "$S" host_bytes_written)"

# ---- (e) the old generation-1 block back in place: stale
write_block "$IMG" $BS $STALE_BLK "$T/gen1.blk"
from=$(events_mark "$EV" "$S")
run_ssdt "$T/verify2.log" -c "$T/a.conf" --verify
assert_rc "--verify with a stale block" 3 "$RC" "$T/verify2.log"
expect_findings "$from" "${STATIC_FINDINGS[@]}" "stale $STALE_OFF"
check_static_details "$from"
assert_eq "stale@$STALE_OFF expected_generation,found_generation,found_offset" \
    "2 1 $STALE_OFF" "$(ev_query "$EV" "$from" \
    expected_generation,found_generation,found_offset event=verify_error \
    class=stale offset=$STALE_OFF)"
expect_counters 6 6 1 3 3

if ev_valid "$EV"; then pass_check; else fail "malformed event lines"; fi
finish
