#!/bin/bash
# A fresh run never takes a target whose run another directory of the
# state directory records. Sections a (loop device) and f (file) run and
# stop; renamed x (through a symlink to the loop device) and g (the same
# file path) would start fresh on their targets: refused with a reason
# naming the old directory, nothing written to either target.
# Once the old directories are removed (and, for the file, the file: it
# holds data no state owns), x and g start.
. "$(dirname "$0")/lib.sh"
need_root
command -v losetup >/dev/null || skip "losetup missing"

truncate -s 32M "$T/loop.img"
new_loop "$T/loop.img"
LOOP=$LOOPDEV
ln -s "$LOOP" "$T/loop.link"
truncate -s 16M "$T/f.img"
S=$T/st

# sections NAME=DEVICE... : drive sections, block devices with serial none
sections() {
	local a
	for a in "$@"; do
		printf '[drive:%s]\ncheckpoint = off\ndevice = %s\nblock_size = 64k\nidle = 0\n' \
		    "${a%%=*}" "${a#*=}"
		case ${a#*=} in /dev/*|*/loop.*) echo "serial = none" ;; esac
		echo
	done
}

log "a and f run, then stop with their runs under way"
sections "a=$LOOP" "f=$T/f.img" | write_conf "$T/first.conf" "$S"
start_ssdt "$T/first.log" -c "$T/first.conf"
P=$SSDT_PID
wait_state "$S/a/state" "$P" 60 's["host_bytes_written"] > 0' ||
    fail "a never wrote"
wait_state "$S/f/state" "$P" 60 's["host_bytes_written"] > 0' ||
    fail "f never wrote"
kill_and_reap TERM "$P"
assert_eq "first: daemon stopped cleanly" 0 "$RC"

log "renamed x and g would start fresh on a's and f's targets: refused"
h_loop=$(hash_backing "$T/loop.img" "$LOOP")
h_file=$(hash_backing "$T/f.img")
sections "x=$T/loop.link" "g=$T/f.img" | sed 's/^idle = 0$/cycles = 1/' |
    write_conf "$T/renamed.conf" "$S"
run_ssdt "$T/renamed.log" -c "$T/renamed.conf" --oneshot
assert_rc "renamed: exit status (drives refused)" 4 "$RC" "$T/renamed.log"
for p in "x:a:$T/loop.link:device" "g:f:$T/f.img:path"; do
	IFS=: read -r new old dev how <<<"$p"
	reason=$(ev_query "$S/$new/events.jsonl" 0 reason event=refused)
	assert_contains "renamed: $new's reason names $old's directory" \
	    "$reason" "$S/$old holds a run on $dev (the same $how)"
	assert_contains "renamed: $new's reason says how to go on" "$reason" \
	    "rename the section back to $old to resume it, or remove $S/$old"
	if [ -e "$S/$new/state" ]; then
		fail "renamed: $new has a state file"
	else pass_check; fi
done
assert_eq "renamed: loop device unchanged" "$h_loop" \
    "$(hash_backing "$T/loop.img" "$LOOP")"
assert_eq "renamed: file unchanged" "$h_file" "$(hash_backing "$T/f.img")"

assert_contains "renamed: g's reason says to remove the file too" \
    "$(ev_query "$S/g/events.jsonl" 0 reason event=refused)" \
    "remove $S/f and the file to start over"

log "with the old directories (and the file) removed, x and g start"
rm -rf "${S:?}/a" "${S:?}/f" "$T/f.img"
truncate -s 16M "$T/f.img"
run_ssdt "$T/fresh.log" -c "$T/renamed.conf" --oneshot
assert_rc "fresh: exit status" 0 "$RC" "$T/fresh.log"
assert_eq "fresh: x finished" finished "$(state_get "$S/x/state" run)"
assert_eq "fresh: g finished" finished "$(state_get "$S/g/state" run)"
assert_eq "fresh: x's instance on the loop device" \
    "$(hex16 "$(state_get "$S/x/state" instance)")" \
    "$(blk_header "$T/loop.img" 65536 0 | cut -d' ' -f4)"
finish
