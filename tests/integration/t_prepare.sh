#!/bin/bash
# prepare = trim: a fresh run begins with the whole span discarded, once.
#  - on a loop device (which passes discards to its backing file): the
#    created event says prepare trim; the prepare phase comes first, its
#    phase_end covers the span, and the device saw discards of at least
#    the span (its /sys stat) while the run's own TRIM is off; the static
#    area and the cycle follow, verified clean;
#  - a resumed run does not prepare again (no second prepare phase, no
#    more discards);
#  - a file on a file system that cannot punch holes (stallfs, FUSE
#    without fallocate) is refused with the reason before anything is
#    written: its bytes unchanged;
#  - the report says how the run began;
#  - prepare = format and sanitize, the drive's own erase commands, are
#    refused with the reason before anything is written where they
#    cannot be done: a loop device (neither NVMe nor ATA), a span short
#    of the device, a file;
#  - -n shows the key; a word it does not know is refused.
. "$(dirname "$0")/lib.sh"
need_root

ST=$T/state
EV=$ST/a/events.jsonl
dd if=/dev/urandom of="$T/lo.img" bs=1M count=32 status=none
new_loop "$T/lo.img"
DEV=$(basename "$LOOPDEV")
# discard_sectors DEV: sectors the device has discarded (field 14 of stat)
discard_sectors() { awk '{ print $14 + 0 }' "/sys/block/$1/stat"; }

conf() {
	write_conf "$T/c.conf" "$ST" <<EOF
[drive:a]
device = $LOOPDEV
serial = none
block_size = 64k
static_fraction = 0.25
trim = no
idle = 0
cycles = $1
checkpoint = off
prepare = trim
EOF
}
conf 1
d0=$(discard_sectors "$DEV")
run_ssdt "$T/a.log" -c "$T/c.conf" --oneshot
assert_rc "a run with prepare = trim" 0 "$RC" "$T/a.log"
d1=$(discard_sectors "$DEV")
SPAN=$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e.get("event") == "created":
        print(e["span_bytes"], e.get("prepare")); break' "$EV")
assert_eq "created: the span, prepare trim" "$((32 << 20)) trim" "$SPAN"
# (the run's first phase begins with "created", the others with phase_start)
assert_eq "the phases in order: prepare first, then static, the cycle" \
    "prepare static write verify" "$(python3 -c 'import json, sys
print(" ".join(e.get("phase") if e["event"] == "phase_start" else e["what"]
      for e in map(json.loads, open(sys.argv[1]))
      if e.get("event") == "phase_start" or (e.get("event") == "phase_end"
      and e.get("what") == "prepare")))' "$EV")"
assert_eq "prepare's phase_end: the span discarded" "$((32 << 20))" \
    "$(python3 -c 'import json, sys
print([e["bytes"] for e in map(json.loads, open(sys.argv[1]))
       if e.get("event") == "phase_end" and e.get("what") == "prepare"][0])' "$EV")"
assert_ge "the device saw the span's discards" "$((d1 - d0))" "$(((32 << 20) / 512))"
assert_eq "verified clean" 0 "$(count_class "$EV" corrupt)"
assert_eq "finished" finished "$(state_get "$ST/a/state" run)"
assert_eq "the report says how the run began" \
    "the whole span discarded first (prepare = trim)" \
    "$("${SSDCTL:-$ROOT/ctl/ssdctl}" report a --state-dir "$ST" --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["drives"][0]["began"])')"

conf 2
run_ssdt "$T/b.log" -c "$T/c.conf" --oneshot
assert_rc "the run resumed for a second cycle" 0 "$RC" "$T/b.log"
assert_eq "resumed: no second prepare" 1 "$(python3 -c 'import json, sys
print(sum(1 for e in map(json.loads, open(sys.argv[1]))
      if e.get("event") == "phase_end" and e.get("what") == "prepare"))' "$EV")"
assert_eq "resumed: no more discards" "$d1" "$(discard_sectors "$DEV")"

# a file system that cannot punch holes: refused, untouched
MNT=$T/mnt
truncate -s 8M "$T/f.back"	# a new, blank file: safe to write
stallfs "$T/f.back" "$MNT" "$T/never"
h0=$(hash_backing "$T/f.back")
write_conf "$T/f.conf" "$T/fst" <<EOF
[drive:f]
device = $MNT/disk
block_size = 64k
checkpoint = off
prepare = trim
EOF
run_ssdt "$T/f.log" -c "$T/f.conf" --oneshot
assert_ne "no hole punched: refused" 0 "$RC"
assert_file_contains "the reason" "$T/fst/f/events.jsonl" \
    "prepare = trim: the file's file system cannot punch holes"
assert_eq "the file's bytes unchanged" "$h0" "$(hash_backing "$T/f.back")"

# refuse LABEL KEY REASON [SPAN]: prepare = KEY on the loop device in a
# fresh state directory: refused with REASON, not a byte changed
refuse() {
	local h0 dir=$T/r_$2_${4:-all}
	h0=$(hash_backing "$T/lo.img")
	write_conf "$T/r.conf" "$dir" <<EOF
[drive:r]
device = $LOOPDEV
serial = none
span = ${4:-100%}
block_size = 64k
checkpoint = off
prepare = $2
EOF
	run_ssdt "$dir.log" -c "$T/r.conf" --oneshot
	assert_ne "$1: refused" 0 "$RC"
	assert_file_contains "$1: the reason" "$dir/r/events.jsonl" "$3"
	assert_eq "$1: the device's bytes unchanged" "$h0" \
	    "$(hash_backing "$T/lo.img")"
}
refuse "format on a loop device" format \
    "prepare = format: the device is not an NVMe namespace"
refuse "sanitize on a loop device" sanitize \
    "prepare = sanitize: the device is neither an NVMe namespace nor an ATA drive"
refuse "format with span = 50%" format \
    "the span (16777216 bytes) is less than the device (33554432 bytes)" 50%
write_conf "$T/fs.conf" "$T/fsst" <<EOF
[drive:f]
device = $T/sanitize.img
size = 8M
block_size = 64k
checkpoint = off
prepare = sanitize
EOF
run_ssdt "$T/fs.log" -c "$T/fs.conf" --oneshot
assert_ne "sanitize on a file: refused" 0 "$RC"
assert_file_contains "  the reason" "$T/fsst/f/events.jsonl" \
    "prepare = sanitize: a file has no drive to ask"

run_ssdt "$T/n.log" -c "$T/c.conf" -n
assert_eq "-n shows prepare" "trim" "$(sed -n 's/^ *prepare *= //p' "$T/n.log")"
sed -i 's/^prepare = trim$/prepare = erase/' "$T/c.conf"
run_ssdt "$T/n2.log" -c "$T/c.conf" -n
assert_rc "-n: prepare = erase is not a word it knows" 1 "$RC" "$T/n2.log"
assert_file_contains "  with the words" "$T/n2.log" "prepare"
finish
