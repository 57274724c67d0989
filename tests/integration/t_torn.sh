#!/bin/bash
# kill -9 in write passes at random moments, then --verify: a block whose
# write the kill cut (part new generation, part the old, trimmed, content)
# is a torn finding at exactly that block, never corrupt.
#   A: a file on tmpfs, where direct I/O is a page-by-page copy that the
#      kill interrupts (said at start: a dio_emulated event); 1 MiB blocks,
#      queue depth 8. Killed again and again until a few writes were cut.
#   B: a loop device (over a file on the same tmpfs): the same kills.
# After each kill the image is read here, independently of the daemon:
# a block with both blank and written 512-byte pieces is one a write was
# cut in (a random payload has no blank 512 bytes). The torn findings of
# the --verify must be exactly those blocks, each with the byte where the
# blank part starts, in the window the state did not yet know as written;
# nothing is corrupt, nor of any other class. Needs root (tmpfs mount,
# loop device).
# run: heavy
. "$(dirname "$0")/lib.sh"
need_root

BS=$((1024 * 1024))
SIZE=$((256 * 1024 * 1024))
CLASSES="corrupt misdirected stale foreign unwritten io_error lost_flush"
do_mount -t tmpfs -o size=600m tmpfs "$T/shm"

# cut_blocks IMAGE : "offset first_blank_byte" of each block that holds
# both blank and non-blank 512-byte pieces, in offset order.
cut_blocks() {
	python3 - "$1" "$BS" <<'EOF'
import sys
path, bs = sys.argv[1], int(sys.argv[2])
zero, piece = bytes(512), 512
with open(path, "rb") as f:
    off = 0
    while True:
        b = f.read(bs)
        if len(b) < bs:
            break
        blank = [b[i:i + piece] == zero for i in range(0, bs, piece)]
        if any(blank) and not all(blank):
            print(off, blank.index(True) * piece)
        off += bs
EOF
}

# kill_verify LABEL CONF STATEFILE EVENTS IMAGE : start the drive (it goes
# on where it was), kill -9 it at a random moment after a cycle past the
# first began (cycle 1 may find anything: what the device held before),
# --verify, and compare its torn findings with the blocks cut. Adds the
# tears found to TEARS.
kill_verify() {
	local label=$1 conf=$2 sf=$3 ev=$4 img=$5 from pos cyc want got n
	start_ssdt "$T/$label.log" -c "$conf"
	wait_state "$sf" "$SSDT_PID" 60 's["cycle"] >= 2' ||
	    die "$label: never reached cycle 2"
	sleep "0.$(printf '%03d' $((RANDOM % 600)))"
	kill_and_reap KILL "$SSDT_PID"
	assert_eq "$label: killed by SIGKILL" 137 "$RC"
	pos=$(state_get "$sf" position)
	cyc=$(state_get "$sf" cycle)
	from=$(events_mark "$ev" "$sf")
	run_ssdt "$T/$label.v.log" -c "$conf" --verify
	want=$(cut_blocks "$img")
	got=$(ev_query "$ev" "$from" offset,torn_at event=verify_error class=torn)
	n=$(printf '%s' "$want" | grep -c .)
	assert_rc "$label: --verify (3: torn found)" $((n > 0 ? 3 : 0)) "$RC" \
	    "$T/$label.v.log"
	assert_eq "$label: torn findings = the blocks a write was cut in" \
	    "$want" "$got"
	for c in $CLASSES; do
		assert_eq "$label: $c findings" 0 "$(count_class "$ev" "$c" "$from")"
	done
	while read -r o at; do
		[ -n "$o" ] || continue
		# sequential order, no static area: block = item of the pass
		assert_ge "$label: torn block $o in the unflushed window" \
		    $((o / BS)) "$pos"
		assert_eq "$label: torn block $o: a cut at a page boundary" 0 \
		    $((at % 4096))
		assert_eq "$label: torn block $o: new and blank parts" \
		    "generation $cyc blank 1" "$(ev_query "$ev" "$from" \
		    torn_head,torn_tail,torn_changes event=verify_error \
		    class=torn offset="$o")"
	done <<<"$got"
	[ "$n" -gt 0 ] && note "$label: killed in $(state_get "$sf" phase) of" \
	    "cycle $cyc at item $pos: $n block(s) cut: $(echo $want)"
	TEARS=$((TEARS + n))
}

# conf FILE STATE_DIR DEVICE [KEY = VALUE...]
conf() {
	local f=$1 st=$2 dev=$3
	shift 3
	write_conf "$f" "$st" <<EOF
[drive:a]
checkpoint = off
device = $dev
block_size = 1M
queue_depth = 8
order = sequential
static_fraction = 0
trim = yes
smart = off
$(printf '%s\n' "$@")
EOF
}

# ---------------------------------------------------------------- A
log "A: a file on tmpfs, kill -9 in write passes, --verify after each"
ST=$T/state_a
conf "$T/a.conf" "$ST" "$T/shm/a.img" "size = 256M"
TEARS=0
k=0
while [ $k -lt 16 ] && [ $TEARS -lt 3 ]; do
	k=$((k + 1))
	kill_verify "a$k" "$T/a.conf" "$ST/a/state" "$ST/a/events.jsonl" \
	    "$T/shm/a.img"
done
note "A: $TEARS torn block(s) in $k kills"
# the point of A: writes were cut (about one kill in two cuts one here)
assert_gt "A: writes cut by the kills" "$TEARS" 0
assert_eq "A: errors.torn, counted" "$TEARS" "$(state_get "$ST/a/state" errors.torn)"
for c in $CLASSES; do
	assert_eq "A: errors.$c" 0 "$(state_get "$ST/a/state" errors.$c)"
done
assert_eq "A: the emulated direct I/O said at the first start" tmpfs \
    "$(ev_query "$ST/a/events.jsonl" 0 filesystem event=dio_emulated | head -1)"
if ev_valid "$ST/a/events.jsonl"; then pass_check; else
	fail "A: malformed event lines"; fi
rm -f "$T/shm/a.img"

# ---------------------------------------------------------------- B
log "B: a loop device, kill -9 in write passes, --verify after each"
truncate -s 256M "$T/shm/b.img"
new_loop "$T/shm/b.img"
ST=$T/state_b
conf "$T/b.conf" "$ST" "$LOOPDEV" "serial = none"
TEARS=0
for k in 1 2 3 4 5 6; do
	kill_verify "b$k" "$T/b.conf" "$ST/a/state" "$ST/a/events.jsonl" \
	    "$T/shm/b.img"
done
note "B: $TEARS torn block(s) in 6 kills"
assert_eq "B: errors.torn, counted" "$TEARS" "$(state_get "$ST/a/state" errors.torn)"
for c in $CLASSES; do
	assert_eq "B: errors.$c" 0 "$(state_get "$ST/a/state" errors.$c)"
done
assert_eq "B: no dio_emulated on a block device" 0 \
    "$(ev_count "$ST/a/events.jsonl" 0 event=dio_emulated)"
finish
