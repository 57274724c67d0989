#!/bin/bash
# Never claim more than the drive promised. A dm-log-writes target under
# the drive logs every write and flush as the drive acknowledged them (a
# write enters the log with the flush that covers it). While a cycle runs,
# the state is copied every moment and a mark set in the log right after.
# Each copy is then checked against the drive as a power cut at its mark
# would leave it: the log replayed onto the zeroed drive up to the mark
# (what completed flushes covered) plus a random half of the writes the
# next flush would have covered (acknowledged, held in a volatile cache).
# `ssdtortured --verify` with that copy, made to say it ran in another
# boot (a power loss), must find nothing, the flushes must cover what the
# state claims, and it must count as kept the writes the replay put back
# past that claim (below). A replay that leaves out
# one write a flush covered (a drive that lies about FLUSH) must be found
# as lost_flush, at exactly that block (unwritten, in the same boot).
. "$(dirname "$0")/lib.sh"

NV=/dev/nvme0n1
LW=$ROOT/tests/lib/logwrites.py
DATA_MB=80
SECT=$(blockdev --getsz $NV) || die "blockdev --getsz $NV"
DSECT=$((DATA_MB * 2048))
SPAN=$((64 * 1024 * 1024)) BS=4096 FRAC=0.25
layout $SPAN $BS $FRAC
ST=$T/state
S=$ST/lw/state
EV=$ST/lw/events.jsonl

log "data ${DATA_MB} MiB and log on $NV; log-writes over them"
dm_create lwdata "0 $DSECT linear $NV 0"
dm_create lwlog "0 $((SECT - DSECT)) linear $NV $DSECT"
dd if=/dev/zero of=/dev/mapper/lwlog bs=1M count=1 oflag=direct status=none
dm_create lw "0 $DSECT log-writes /dev/mapper/lwdata /dev/mapper/lwlog"

conf() {	# STATE_DIR
	write_conf "$T/lw.conf" "$1" <<EOC
[drive:lw]
checkpoint = off
device = /dev/mapper/lw
serial = none
span = 64M
block_size = 4k
order = random
queue_depth = 1
static_fraction = $FRAC
trim = no
cycles = 1
on_io_error = stop
EOC
}
conf "$ST"

# queue depth 1: a cycle long enough for many copies, however fast the host
log "one cycle; the state copied and a mark set every moment"
start_ssdt "$T/run.log" -c "$T/lw.conf" --oneshot
# A copy stands for a power cut at its mark only if it was the state on
# disk at that moment: the state file (replaced whole at each checkpoint)
# must be the same inode before the mark and after the copy; otherwise
# the copy is dropped (the daemon moved on between the two). The mark is
# set as soon as a new state appears, before the next flush completes as
# a rule: then a state that claimed more than the last flush covered
# would be caught. One Python loop, so that this is quick in a slow guest.
python3 "$GUEST_DIR/flush_replay_copy.py" "$SSDT_PID" "$S" "$EV" "$T/snap" || fail "the copying loop failed"
wait_pid "$SSDT_PID" 5
assert_rc "the cycle" 0 "$RC" "$T/run.log"
assert_eq "cycle done" 1 "$(state_get "$S" cycles_done)"
note "$(wc -l <"$T/snap/good") state copies kept; flushes sent: $(state_get "$S" flushes)"
dmsetup remove --noudevsync lw || die "dmsetup remove lw"
python3 "$LW" /dev/mapper/lwlog list >"$T/marks" || die "cannot read the log"
note "marks in the log: $(wc -l <"$T/marks"), flushes logged: $(tail -n 1 "$T/marks" | awk '{ print $3 }')"
assert_ge "flushes in the log >= flushes the state counts" \
    "$(tail -n 1 "$T/marks" | awk '{ print $3 }')" "$(state_get "$S" flushes)"

# The copies to check: the last of each phase, and two in the middle of
# the write pass. Preferred are copies whose mark no flush preceded since
# the state was saved (the log's flush count at the mark equals the
# state's): there, a state that claimed more than the last completed
# flush covered would meet a replay without those writes.
python3 "$GUEST_DIR/flush_replay_picks.py" "$T/snap" "$T/marks" >"$T/picks"
note "copies checked (copy phase position run tight|loose):"
sed 's/^/     /' "$T/picks"
assert_ge "tight copies taken in the middle of the write pass" \
    "$(awk '$2 == "write" && $3 > 0 && $5 == "tight"' "$T/picks" | wc -l)" 1

# all_errors STATE: blocks found bad, every class
all_errors() {
	awk '$1 ~ /^errors\.(corrupt|misdirected|stale|foreign|unwritten|io_error|lost_flush)$/ {
	    n += $2 } END { print n + 0 }' "$1"
}

# the drive as it was before the cycle, under the same name: a linear map
dm_create lw "0 $DSECT linear /dev/mapper/lwdata 0"
# A boot id that no boot has: a copy that says it ran in that boot was
# cut by a power loss, as far as the daemon can tell (its state's boot_id
# is not this boot's, and it was not stopped cleanly)
OTHER_BOOT=00000000-0000-4000-8000-000000000000
# verify_at COPY LABEL BOOT [--omit-in A B]: replay at the copy's mark,
# the copy's boot id set to BOOT ("": as it is, this boot's), --verify
verify_at() {
	local c=$1 label=$2 boot=$3
	shift 3
	rm -rf "$T/v"
	cp -r "$T/snap/$c" "$T/v"
	[ -z "$boot" ] || sed -i "s/^boot_id .*/boot_id $boot/" "$T/v/lw/state"
	conf "$T/v"
	python3 "$LW" /dev/mapper/lwlog replay /dev/mapper/lwdata "m$c" \
	    --seed "$c" --zero $((DSECT * 512)) "$@" >"$T/replay" ||
	    { fail "$label: replay failed"; return 1; }
	note "$label: $(tr '\n' ' ' <"$T/replay")"
	run_ssdt "$T/v.log" -c "$T/lw.conf" --verify
}
VEV=$T/v/lw/events.jsonl

# After a power cut the verify knows it (the boot changed): it finds
# nothing, and counts as kept the writes the replay put back past what
# the state claims. At queue depth 1 the log holds the writes in the
# order of their items: the state claims the first W (the static pass,
# then the write pass to its position), and the flushes before the mark
# must cover them (F >= W). A flush covers more than the state claims:
# the engine claims what had completed when it queued the flush, and
# io_uring runs the fsync in a worker thread, so the writes that complete
# before the FLUSH reaches the drive are covered too, as many as the
# worker's delay lets through (a host under load: many). The verify
# counts as kept those F - W and the U unflushed ones: exactly that many
# for a tight copy (its state's last flush is the log's last before the
# mark), at least the U for a loose one.
while read -r c phase pos run tight; do
	verify_at "$c" "copy $c ($phase, position $pos)" "$OTHER_BOOT"
	assert_rc "copy $c ($phase at $pos): --verify after the power cut" 0 "$RC" "$T/v.log"
	assert_eq "copy $c: nothing found" 0 "$(all_errors "$T/v/lw/state")"
	if [ "$run" = finished ]; then
		assert_eq "copy $c: finished, no power loss to verify" 0 \
		    "$(ev_count "$VEV" 0 event=power_loss)"
		continue
	fi
	assert_eq "copy $c: the power loss seen" 1 "$(ev_count "$VEV" 0 event=power_loss)"
	read -r lost kept < <(ev_query "$VEV" 0 lost_flush,unflushed_kept \
	    event=power_loss_verified)
	U=$(awk '$1 == "unflushed" { print $2 }' "$T/replay")
	F=$(awk '$1 == "kept" { print $2 }' "$T/replay")
	case $phase in
	static)	W=$pos ;;
	write)	W=$((SBLK + pos)) ;;
	*)	W=$NBLK ;;
	esac
	assert_eq "copy $c: flushed blocks lost" 0 "$lost"
	note "copy $c: flushed writes replayed $F, claimed $W;" \
	    "unflushed writes replayed $U, counted kept $kept"
	assert_ge "copy $c: the flushes covered what the state claims" "$F" "$W"
	if [ "$tight" = tight ]; then
		assert_eq "copy $c (tight): the writes replayed past the claim kept" \
		    $((F - W + U)) "$kept"
	else
		assert_ge "copy $c (loose): the unflushed writes kept" "$kept" "$U"
		assert_le "copy $c (loose): no more than the replay put back past the claim" \
		    "$kept" $((F - W + U))
	fi
done <"$T/picks"

# lost_at BOOT CLASS: a replay without one write a flush covered is found
# as CLASS at exactly that block
lost_at() {
	local c
	c=$(awk '$2 == "write" && $3 > 0 { print $1; exit }' "$T/picks")
	verify_at "$c" "copy $c, one flushed static write lost (${1:-this boot})" \
	    "$1" --omit-in 0 "$SBYTES"
	OFF=$(awk '$1 == "omitted" { print $2 }' "$T/replay")
	assert_rc "--verify finds it ($2)" 3 "$RC" "$T/v.log"
	assert_eq "blocks found bad ($2)" 1 "$(all_errors "$T/v/lw/state")"
	assert_eq "counted as $2" 1 "$(state_get "$T/v/lw/state" errors.$2)"
	assert_eq "the $2 finding is at the lost block" "$OFF 1" \
	    "$(ev_query "$VEV" 0 offset,blocks event=verify_error class=$2 | tail -n 1)"
}

log "a drive that loses a flushed write in a power cut is caught, at that block"
lost_at "$OTHER_BOOT" lost_flush
assert_eq "the power loss verify says so" 1 \
    "$(ev_query "$VEV" 0 lost_flush event=power_loss_verified)"
log "without a power loss (the same boot), the same block is unwritten"
lost_at "" unwritten
assert_eq "the same boot: no power loss" 0 "$(ev_count "$VEV" 0 event=power_loss)"
finish
