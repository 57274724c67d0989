#!/bin/bash
# Targets that must never be written: each is refused with exit status 4,
# a reason naming the cause, and its content byte-for-byte unchanged (a
# file it had to create is removed again). A refused drive does not stop a
# good one in the same configuration.
. "$(dirname "$0")/lib.sh"
need_root
command -v losetup >/dev/null || skip "losetup missing"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing"

SIZE=$((64 * 1024 * 1024))

# refused NAME DEVICE BACKING NEEDLE [extra drive lines...] : run --oneshot
# on one drive; check status 4, the reason, the untouched backing file, and
# that no state claims the target.
refused() {
	local name=$1 dev=$2 back=$3 needle=$4 before after reason st=$T/st_$1
	shift 4
	before=$(hash_backing "$back" "$dev")
	{
		printf '[drive:%s]\ncheckpoint = off\ndevice = %s\nblock_size = 4k\ncycles = 1\n' \
		    "$name" "$dev"
		printf '%s\n' "$@"
	} | write_conf "$T/$name.conf" "$st"
	run_ssdt "$T/$name.log" -c "$T/$name.conf" --oneshot
	assert_rc "$name: exit status" 4 "$RC" "$T/$name.log"
	after=$(hash_backing "$back" "$dev")
	assert_eq "$name: content unchanged (sha256)" "$before" "$after"
	reason=$(ev_query "$st/$name/events.jsonl" 0 reason event=refused)
	assert_contains "$name: refused event reason" "$reason" "$needle"
	assert_file_contains "$name: stderr names the reason" "$T/$name.log" "$needle"
	if [ -e "$st/$name/state" ]; then
		fail "$name: a state file now claims the refused target"
	else pass_check; fi
	if [ "$RC" -ne 4 ]; then
		note "$name: not refused; its follow-up checks are skipped"
		return 0
	fi
	# and again: a second start is refused the same way
	run_ssdt "$T/$name.2.log" -c "$T/$name.conf" --oneshot
	assert_rc "$name: exit status of a second start" 4 "$RC" "$T/$name.2.log"
	assert_eq "$name: content unchanged after a second start" "$before" \
	    "$(hash_backing "$back" "$dev")"
	# -n does not write either
	run_ssdt "$T/$name.n.log" -c "$T/$name.conf" -n
	assert_eq "$name: content unchanged after -n" "$before" \
	    "$(hash_backing "$back" "$dev")"
}

# ---- (a) ext4, mounted
log "(a) mounted ext4 on a loop device"
truncate -s $SIZE "$T/fs.img"
new_loop "$T/fs.img"
FSDEV=$LOOPDEV
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard "$FSDEV" ||
    die "mkfs.ext4 failed"
# read-only: the file system itself must not change the bytes under test
do_mount -o ro "$FSDEV" "$T/mnt"
refused mounted "$FSDEV" "$T/fs.img" "mounted" "serial = none"

# mounted read-write, as a file system in use is: refused the same way
# (no byte comparison here: the file system may write by itself)
umount "$T/mnt" || die "umount failed"
do_mount "$FSDEV" "$T/mnt"
echo data >"$T/mnt/file" && sync
write_conf "$T/rw.conf" "$T/st_rw" <<EOF
[drive:rw]
checkpoint = off
device = $FSDEV
serial = none
block_size = 4k
cycles = 1
EOF
run_ssdt "$T/rw.log" -c "$T/rw.conf" --oneshot
assert_rc "mounted rw: exit status" 4 "$RC" "$T/rw.log"
assert_contains "mounted rw: refused event reason" \
    "$(ev_query "$T/st_rw/rw/events.jsonl" 0 reason event=refused)" "mounted on $T/mnt"
assert_eq "mounted rw: the file system's file is intact" data "$(cat "$T/mnt/file")"
umount "$T/mnt" || die "umount failed"

# ---- (b) ext4 signature, not mounted
log "(b) ext4 signature, not mounted"
refused ext4sig "$FSDEV" "$T/fs.img" "'ext4' signature" "serial = none"

# ---- (c) serial mismatch, (d) serial missing: a blank loop device
log "(c) serial mismatch, (d) no serial for a block device"
truncate -s $SIZE "$T/blank.img"
new_loop "$T/blank.img"
BLANK=$LOOPDEV
refused wrongserial "$BLANK" "$T/blank.img" "serial mismatch" "serial = WRONG"
refused noserial "$BLANK" "$T/blank.img" "serial = is required"
assert_eq "the blank device stayed blank" 0 "$(alloc_bytes "$T/blank.img")"

# ---- (e) a regular file that already holds data not written by us
log "(e) a file that holds foreign data"
head -c $((1024 * 1024)) /dev/urandom >"$T/data.img"
truncate -s $SIZE "$T/data.img"
refused datafile "$T/data.img" "$T/data.img" "already holds data" "size = 64M"
assert_eq "datafile: size unchanged" $SIZE "$(stat -c %s "$T/data.img")"

# ---- (f) a partition table (dos label with one partition)
log "(f) a partition table"
truncate -s $SIZE "$T/pt.img"
if command -v sfdisk >/dev/null; then
	printf 'label: dos\n,\n' | sfdisk -q "$T/pt.img" >/dev/null 2>&1 ||
	    die "sfdisk failed"
else
	# no fdisk package: write the same MBR (one Linux partition) by hand
	python3 "$IT_DIR/write_mbr.py" "$T/pt.img" $SIZE || die "cannot write an MBR"
fi
command -v blkid >/dev/null &&
    note "blkid: $(blkid -p -o export "$T/pt.img" 2>/dev/null | grep PTTYPE)"
new_loop "$T/pt.img"
PTDEV=$LOOPDEV
refused parttable "$PTDEV" "$T/pt.img" "'dos' signature" "serial = none"

# refused_new NAME FILE NEEDLE [drive lines...]: a drive on a file that
# does not exist yet is refused (exit 4, NEEDLE in the refused event and
# on stderr) and the file made for it is gone again
refused_new() {
	local name=$1 file=$2 needle=$3
	shift 3
	{
		printf '[drive:%s]\ncheckpoint = off\ndevice = %s\nsize = 8M\nblock_size = 4k\n' \
		    "$name" "$file"
		printf 'cycles = 1\n'
		printf '%s\n' "$@"
	} | write_conf "$T/$name.conf" "$T/st_$name"
	run_ssdt "$T/$name.log" -c "$T/$name.conf" --oneshot
	assert_rc "$name: exit status" 4 "$RC" "$T/$name.log"
	assert_file_contains "$name: stderr says why" "$T/$name.log" "$needle"
	assert_contains "$name: refused event reason" "$(ev_query \
	    "$T/st_$name/$name/events.jsonl" 0 reason event=refused)" "$needle"
	if [ -e "$file" ]; then
		fail "$name: the refused drive left the file it created"
	else pass_check; fi
}

# ---- (g) a new file on a filesystem without O_DIRECT (ramfs)
log "(g) a file target on a filesystem without direct I/O"
do_mount -t ramfs ramfs "$T/ramfs"
refused_new nodirect "$T/ramfs/target.img" \
    "does not support direct I/O (O_DIRECT)"
# an existing (empty) file there is refused the same way, and kept
: >"$T/ramfs/target.img"
run_ssdt "$T/nodirect2.log" -c "$T/nodirect.conf" --oneshot
assert_rc "nodirect, existing file: exit status" 4 "$RC" "$T/nodirect2.log"
assert_file_contains "nodirect, existing file: stderr says why" \
    "$T/nodirect2.log" "O_DIRECT"
if [ -e "$T/ramfs/target.img" ]; then pass_check; else
	fail "nodirect: a file that was there before was removed"; fi

# ---- (h) a new file refused after the open: its span is past its end
log "(h) a new file whose span does not fit: refused, and not left behind"
refused_new late "$T/late.img" "span" "span = 100M"

# ---- a refused drive next to a good one
log "a refused drive does not stop a good one"
before=$(hash_backing "$T/data.img")
write_conf "$T/mixed.conf" "$T/st_mixed" <<EOF
[drive:bad]
checkpoint = off
device = $T/data.img
size = 64M
block_size = 4k
cycles = 1

[drive:good]
checkpoint = off
device = $T/good.img
size = 32M
block_size = 4k
cycles = 1
EOF
run_ssdt "$T/mixed.log" -c "$T/mixed.conf" --oneshot
assert_rc "mixed: exit status (one drive refused)" 4 "$RC" "$T/mixed.log"
GS=$T/st_mixed/good/state
assert_eq "good drive: run" finished "$(state_get "$GS" run)"
assert_eq "good drive: cycles_done" 1 "$(state_get "$GS" cycles_done)"
assert_eq "good drive: errors" "0 0 0 0 0 0 0" "$(for c in corrupt misdirected \
    stale foreign unwritten io_error lost_flush; do state_get "$GS" errors.$c; done | xargs)"
assert_eq "good drive: phase_end verify" 1 \
    "$(ev_count "$T/st_mixed/good/events.jsonl" 0 event=phase_end what=verify)"
assert_eq "bad drive: refused events" 1 \
    "$(ev_count "$T/st_mixed/bad/events.jsonl" 0 event=refused)"
assert_eq "bad drive: content unchanged" "$before" "$(hash_backing "$T/data.img")"

# ---- the file of a drive under test disappears: refused, not re-created
log "a drive whose file is gone is refused, not started afresh"
rm -f "$T/good.img"
run_ssdt "$T/gone.log" -c "$T/mixed.conf" --oneshot
assert_rc "gone: exit status" 4 "$RC" "$T/gone.log"
assert_file_contains "gone: stderr says why" "$T/gone.log" "the file under test is gone"
if [ -e "$T/good.img" ]; then fail "gone: an empty file took the place of the lost one"
else pass_check; fi
assert_eq "gone: the state still records the finished run" finished "$(state_get "$GS" run)"

finish
