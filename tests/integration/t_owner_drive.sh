#!/bin/bash
# A drive has one owner, whatever path names it. Drive sections naming a
# loop device already taken by another section through a symlink or a
# second device node, or a file through a symlink or a hard link, are
# refused with a reason naming the other drive, at start and when a reload
# adds them; the first drive runs on, alone on its target (one instance in
# its blocks, no verify error). A drive whose state directory holds the run
# on a device that another drive now has is refused with that reason.
. "$(dirname "$0")/lib.sh"
need_root
command -v losetup >/dev/null || skip "losetup missing"

truncate -s 32M "$T/loop.img"
new_loop "$T/loop.img"
LOOP=$LOOPDEV
ln -s "$LOOP" "$T/loop.link"
# stat prints the major and minor in hex: loop10 and up has letters in it
mknod "$T/loop.node" b "$((16#$(stat -c '%t' "$LOOP")))" \
    "$((16#$(stat -c '%T' "$LOOP")))" || die "mknod failed"
truncate -s 16M "$T/f.img"
ln -s "$T/f.img" "$T/f.link"
ln "$T/f.img" "$T/f.hard"

# sections NAME=DEVICE... : drive sections, block devices with serial none
sections() {
	local a
	for a in "$@"; do
		printf '[drive:%s]\ncheckpoint = off\ndevice = %s\nblock_size = 64k\nidle = 0\n' \
		    "${a%%=*}" "${a#*=}"
		case ${a#*=} in
		/dev/*|*/loop.*) echo "serial = none" ;;
		esac
		echo
	done
}

FIRST=("a=$LOOP" "f=$T/f.img")
DUPS=("b=$T/loop.link" "c=$T/loop.node" "g=$T/f.link" "h=$T/f.hard")

# refused_dups LABEL STATE_DIR FROM_BYTE : every duplicate was refused,
# naming its first drive, and left no state
refused_dups() {
	local d name first reason
	for d in "${DUPS[@]}"; do
		name=${d%%=*}
		case $name in b|c) first="drive a ($LOOP)" ;;
		*) first="drive f ($T/f.img)" ;; esac
		reason=$(ev_query "$2/$name/events.jsonl" 0 reason event=refused)
		assert_contains "$1: $name refused naming its owner" "$reason" \
		    "${d#*=} is the same"
		assert_contains "$1: $name's reason names $first" "$reason" "$first"
		if [ -e "$2/$name/state" ]; then
			fail "$1: $name has a state file"
		else pass_check; fi
	done
}

# alone LABEL STATE_DIR : a and f ran with no verify error, their targets
# hold blocks of their own instance only
alone() {
	local n sf
	for n in a f; do
		sf=$2/$n/state
		assert_no_errors "$1: $n" "$sf"
		assert_eq "$1: $n instances created" 1 \
		    "$(ev_count "$2/$n/events.jsonl" 0 event=created)"
	done
	assert_eq "$1: block 0 of the loop device is a's" \
	    "$(hex16 "$(state_get "$2/a/state" instance)")" \
	    "$(blk_header "$T/loop.img" 65536 0 | cut -d' ' -f4)"
	assert_eq "$1: block 0 of the file is f's" \
	    "$(hex16 "$(state_get "$2/f/state" instance)")" \
	    "$(blk_header "$T/f.img" 65536 0 | cut -d' ' -f4)"
}

log "two sections on one target at start: the second is refused"
sections "${FIRST[@]}" "${DUPS[@]}" | sed 's/^idle = 0$/idle = 0\ncycles = 1/' |
    write_conf "$T/start.conf" "$T/st1"
run_ssdt "$T/start.log" -c "$T/start.conf" --oneshot
assert_rc "start: exit status (drives refused)" 4 "$RC" "$T/start.log"
refused_dups start "$T/st1"
assert_eq "start: a finished" finished "$(state_get "$T/st1/a/state" run)"
assert_eq "start: f finished" finished "$(state_get "$T/st1/f/state" run)"
alone start "$T/st1"

log "the same sections added by a reload are refused"
# a new file: the one above holds the first run
rm -f "$T/f.img" "$T/f.hard"
truncate -s 16M "$T/f.img"
ln "$T/f.img" "$T/f.hard"
sections "${FIRST[@]}" | write_conf "$T/reload.conf" "$T/st2"
start_ssdt "$T/reload.log" -c "$T/reload.conf"
P=$SSDT_PID
wait_state "$T/st2/a/state" "$P" 60 's["cycles_done"] >= 1' ||
    fail "reload: a never finished a cycle"
sections "${FIRST[@]}" "${DUPS[@]}" | write_conf "$T/reload.conf" "$T/st2"
kill -HUP "$P"
wait_log "$T/reload.log" "drive h added" 30 "$P" ||
    fail "reload: the new sections were not added"
sleep 1
refused_dups reload "$T/st2"
c0=$(state_get "$T/st2/a/state" cycles_done)
wait_state "$T/st2/a/state" "$P" 60 "s['cycles_done'] >= $c0 + 1" ||
    fail "reload: a does not go on"
kill_and_reap TERM "$P"
assert_eq "reload: daemon stopped cleanly" 0 "$RC"
alone reload "$T/st2"

log "a state directory that holds the run on another drive's device"
# section a renamed x; a new section a on another device: a's state
# claims the loop device x now has
truncate -s 32M "$T/loop2.img"
new_loop "$T/loop2.img"
sections "x=$LOOP" "a=$LOOPDEV" | sed 's/^idle = 0$/cycles = 1/' |
    write_conf "$T/renamed.conf" "$T/st2"
run_ssdt "$T/renamed.log" -c "$T/renamed.conf" --oneshot
assert_rc "renamed: exit status" 4 "$RC" "$T/renamed.log"
assert_contains "renamed: a refused, naming x" "$(ev_query \
    "$T/st2/a/events.jsonl" 0 reason event=refused)" \
    "holds the run on $LOOP, which drive x ($LOOP) has"
assert_eq "renamed: nothing written to a's new device" 0 \
    "$(alloc_bytes "$T/loop2.img")"
finish
