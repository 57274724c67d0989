#!/bin/bash
# reservation = yes on a target that cannot be reserved is refused with
# the reason, before anything is written: a loop device (no persistent
# reservations in the loop driver) and a file. -n shows the key.
. "$(dirname "$0")/lib.sh"
need_root
command -v losetup >/dev/null || skip "losetup missing"

truncate -s 32M "$T/loop.img"
new_loop "$T/loop.img"
truncate -s 16M "$T/f.img"
S=$T/st
{
	printf '[drive:l]\ncheckpoint = off\ndevice = %s\nserial = none\n' "$LOOPDEV"
	printf 'block_size = 64k\ncycles = 1\nidle = 0\nreservation = yes\n\n'
	printf '[drive:f]\ncheckpoint = off\ndevice = %s\nblock_size = 64k\n' "$T/f.img"
	printf 'cycles = 1\nidle = 0\nreservation = yes\n'
} | write_conf "$T/r.conf" "$S"

"$SSDT" -n -c "$T/r.conf" >"$T/n.out" 2>&1
assert_rc "-n accepts reservation = yes" 0 $? "$T/n.out"
assert_eq "-n shows the key for both drives" 2 \
    "$(grep -cE '^ *reservation +=  *yes$' "$T/n.out")"

run_ssdt "$T/r.log" -c "$T/r.conf" --oneshot
assert_rc "exit status (drives refused)" 4 "$RC" "$T/r.log"
assert_contains "the loop device is refused: no reservations" \
    "$(ev_query "$S/l/events.jsonl" 0 reason event=refused)" \
    "reservation = yes: the device does not support persistent reservations"
assert_contains "the file is refused: not a block device" \
    "$(ev_query "$S/f/events.jsonl" 0 reason event=refused)" \
    "reservation = yes needs a block device"
assert_eq "nothing written to the loop device" 0 "$(alloc_bytes "$T/loop.img")"
assert_eq "nothing written to the file" 0 "$(alloc_bytes "$T/f.img")"
finish
