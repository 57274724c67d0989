#!/bin/bash
# A failing state disk: state_dir on a device-mapper device over /dev/sda
# whose table is switched to `error` while a drive runs, then back to
# linear. The drive pauses once its records lag by max_unrecorded (reason
# "state directory: Input/output error", no writes while paused, ssdctl
# status says why) and resumes by itself when the disk is back. Then, read
# from the disk itself (page cache dropped by a remount), events.jsonl
# holds every phase and cycle event in order, once, and the state's
# events_bytes is the file's size.
#
# A failed fsync leaves the lines written before it in the page cache,
# marked clean but not on disk ("fsyncgate"). While the disk fails, the
# whole page cache is dropped (memory pressure would evict it in time): a
# line the daemon wrote only once is then gone from the cache as well, and
# only one kept in memory and written again survives. The archive, which
# librrd maps, can then not be read back either: touching it raises SIGBUS,
# which must cost the archive a gap, not the daemon its life.
. "$(dirname "$0")/lib.sh"

SD=/dev/sda
[ -b $SD ] || die "$SD missing"
NV=/dev/nvme0n1
[ -b $NV ] || die "$NV missing"
SECT=$((64 * 2048))	# 64 MiB
ERRS=${ERRS:-8}		# seconds the disk fails after the drive pauses

# The state filesystem. ext4 without a journal and with errors=continue:
# a failed write is returned to the writer (fsync, write, open say EIO)
# and the filesystem takes writes again once the device does. With a
# journal, the first failed metadata write aborts it and the filesystem
# stays read-only until it is mounted again: that is the read-only case
# (tests/integration/t_state_full.sh), not a disk that fails for a while.
# -m 0: no blocks reserved for root; the daemon runs as root here.
# ext4 is not among the initramfs' modules: the host's, seen in the chroot
grep -qw ext4 /proc/filesystems || modprobe ext4 || die "modprobe ext4 failed"
dm_create st "0 $SECT linear $SD 0"
mkfs.ext4 -q -F -O ^has_journal -m 0 /dev/mapper/st || die "mkfs.ext4 (state) failed"
mkdir -p "$T/mnt"
mount -o errors=continue /dev/mapper/st "$T/mnt" || die "mount (state) failed"
# The drive: a file on a filesystem of its own (the guest's /tmp is tmpfs,
# without O_DIRECT on its kernel).
mkfs.ext4 -q -F $NV || die "mkfs.ext4 (data) failed"
mkdir -p "$T/data"
mount $NV "$T/data" || die "mount (data) failed"

ST=$T/mnt/state
S=$ST/a/state
EV=$ST/a/events.jsonl
SOCK=$T/ctl.sock
cat >"$T/c.conf" <<EOC
[daemon]
state_dir = $ST
socket = $SOCK

[drive:a]
checkpoint = off
device = $T/data/a.img
size = 16M
block_size = 64k
queue_depth = 4
idle = 1s
cycles = 0
max_unrecorded = 2s
EOC

ctl() { "$SSDCTL" -s "$SOCK" "$@" 2>&1; }

# swap TABLE: dm_swap without freezing the filesystem first (a freeze
# syncs it, which fails on the error table)
swap() {
	dmsetup load st --noudevsync --table "$1" &&
	    dmsetup suspend st --noudevsync --nolockfs &&
	    dmsetup resume st --noudevsync ||
	    die "swapping the table of st to '$1' failed"
	note "dm st now: $(dmsetup table st)"
}

# jst PYEXPR: an expression over `d`, drive a's `ssdctl --json status`
jst() {
	ctl --json status a | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d.get("drives", [d])[0] if isinstance(d, dict) else d[0]
v = eval(sys.argv[1])
print(str(v).lower() if isinstance(v, bool) else v)' "$1" 2>/dev/null
}

# wait_st TIMEOUT_S PYEXPR: until the expression over `d` is true
wait_st() {
	local end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$end" ]; do
		[ "$(jst "$2")" = true ] && return 0
		sleep 0.3
	done
	return 1
}

start_ssdt "$T/run.log" -c "$T/c.conf"
P=$SSDT_PID
wait_state "$S" $P 90 's["cycles_done"] >= 2' ||
    { show_file "$T/run.log"; die "the drive never completed two cycles"; }
pass_check "two cycles done: $(state_get "$S" cycles_done)"

log "the state disk fails"
swap "0 $SECT error"
if wait_st 30 "d['state'] == 'paused'"; then
	out=$(ctl status a)
	note "$(printf '%s' "$out" | grep -E 'state:|reason:|records:' | xargs)"
	assert_contains "ssdctl status: reason" "$out" "state directory: Input/output error"
	assert_contains "ssdctl status: records behind" "$out" "s behind, I/O error"
	h1=$(jst "d['host_bytes_written']")
	# the pages whose writeback failed are evicted, as memory pressure would
	sync 2>/dev/null
	echo 3 >/proc/sys/vm/drop_caches
	sleep "$ERRS"
	kill -0 "$P" 2>/dev/null && pass_check "the daemon lives on with its cache dropped" ||
	    die "the daemon died while the disk failed: $(tail -n 3 "$T/run.log")"
	h2=$(jst "d['host_bytes_written']")
	assert_eq "no writes while paused (host_bytes_written)" "$h1" "$h2"
	assert_eq "still paused while the disk fails" paused "$(jst "d['state']")"
	assert_contains "an operator's resume waits for the records" \
	    "$(ctl resume a)" "records are not written"
else
	fail "the drive did not pause: $(ctl status a | xargs)"
	show_file "$T/run.log"
fi

log "the state disk is back"
swap "0 $SECT linear $SD 0"
if wait_st 30 "d['state'] == 'running' and d['records']['current']"; then
	pass_check "the drive resumed by itself, records current"
else
	fail "the drive did not resume: $(ctl status a | xargs)"
	show_file "$T/run.log"
fi
note "archive: $(grep -c 'cannot be read back' "$T/run.log") SIGBUS caught, $(grep -c 'readable again' "$T/run.log") taken up again"
c=$(jst "d['cycles_done']")
wait_st 60 "d['cycles_done'] >= $c + 1" || fail "no cycle done after the resume"
stop_ssdt $P "$T/run.log"

log "the records, read from the disk"
umount "$T/mnt" || die "umount (state) failed"
echo 3 >/proc/sys/vm/drop_caches
mount -o errors=continue /dev/mapper/st "$T/mnt" || die "mount (state) again failed"
show_state "$S"
assert_eq "events_bytes == the size of events.jsonl" "$(stat -c %s "$EV")" \
    "$(state_get "$S" events_bytes)"
if out=$("$ROOT/tests/lib/event_seq.py" "$EV" "$(state_get "$S" cycles_done)" 2>&1); then
	pass_check "phase and cycle events: $out"
else
	fail "phase and cycle events: $out"
fi
assert_eq "paused event" 1 "$(ev_count "$EV" 0 event=paused 2>/dev/null \
    "reason=state directory: Input/output error")"
assert_ge "running events after the pause" "$(ev_count "$EV" 0 event=running 2>/dev/null)" 1
assert_contains "the pause is logged" "$(cat "$T/run.log")" "the drive pauses until they are"
assert_contains "the resume is logged" "$(cat "$T/run.log")" \
    "records are written again; the drive resumes"
umount "$T/mnt"
umount "$T/data"
dmsetup remove st --noudevsync || fail "dmsetup remove st"
finish
