#!/bin/bash
# Never claim more than the drive promised. A dm-log-writes target under
# the drive logs every write and flush as the drive acknowledged them (a
# write enters the log with the flush that covers it). While a cycle runs,
# the state is copied every moment and a mark set in the log right after.
# Each copy is then checked against the drive as a power cut at its mark
# would leave it: the log replayed onto the zeroed drive up to the mark
# (what completed flushes covered) plus a random half of the writes the
# next flush would have covered (acknowledged, held in a volatile cache).
# `ssdtortured --verify` with that copy must find nothing. A replay that
# leaves out one write a flush covered (a drive that lies about FLUSH)
# must be found, at exactly that block.
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
	awk '$1 ~ /^errors\.(corrupt|misdirected|stale|foreign|unwritten|io_error)$/ {
	    n += $2 } END { print n + 0 }' "$1"
}

# the drive as it was before the cycle, under the same name: a linear map
dm_create lw "0 $DSECT linear /dev/mapper/lwdata 0"
# verify_at COPY LABEL [--omit-in A B]: replay at the copy's mark, --verify
verify_at() {
	local c=$1 label=$2
	shift 2
	rm -rf "$T/v"
	cp -r "$T/snap/$c" "$T/v"
	conf "$T/v"
	python3 "$LW" /dev/mapper/lwlog replay /dev/mapper/lwdata "m$c" \
	    --seed "$c" --zero $((DSECT * 512)) "$@" >"$T/replay" ||
	    { fail "$label: replay failed"; return 1; }
	note "$label: $(tr '\n' ' ' <"$T/replay")"
	run_ssdt "$T/v.log" -c "$T/lw.conf" --verify
}

while read -r c phase pos run tight; do
	verify_at "$c" "copy $c ($phase, position $pos)"
	assert_rc "copy $c ($phase at $pos): --verify after the power cut" 0 "$RC" "$T/v.log"
	assert_eq "copy $c: nothing found" 0 "$(all_errors "$T/v/lw/state")"
done <"$T/picks"

log "a drive that loses a flushed write is caught, at that block"
c=$(awk '$2 == "write" && $3 > 0 { print $1; exit }' "$T/picks")
verify_at "$c" "copy $c, one flushed static write lost" --omit-in 0 "$SBYTES"
OFF=$(awk '$1 == "omitted" { print $2 }' "$T/replay")
assert_rc "--verify finds it" 3 "$RC" "$T/v.log"
assert_eq "blocks found bad" 1 "$(all_errors "$T/v/lw/state")"
assert_eq "the finding is at the lost block" "$OFF" \
    "$(ev_query "$T/v/lw/events.jsonl" 0 offset event=verify_error | tail -n 1)"
finish
