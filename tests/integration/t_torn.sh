#!/bin/bash
# kill -9 in write passes at random moments, then --verify: a block whose
# write the kill cut (part new generation, part the old, trimmed, content)
# is a torn finding at exactly that block, never corrupt.
#   A: a file on tmpfs, where direct I/O is a page-by-page copy that the
#      kill interrupts (said at start: a dio_emulated event); 1 MiB blocks,
#      queue depth 8. Killed again and again until a few writes were cut.
#      Every third kill is taken for a power loss (the restart in another
#      boot verifies first), every kill once three writes were cut: the
#      same there, and at least one write cut so.
#   B: a loop device (over a file on the same tmpfs): the same kills.
# After each kill the image is read here, independently of the daemon:
# a block with both blank and written 512-byte pieces is one a write was
# cut in (a random payload has no blank 512 bytes). The torn findings of
# the --verify must be exactly those blocks, each with the byte where the
# blank part starts, in the window the state did not yet know as written;
# nothing is corrupt, nor of any other class. A torn block is no verify
# error: errors.torn counts it, errors_total (status --json) and the exit
# status of --verify do not. Needs root (tmpfs mount, loop device).
# run: heavy
. "$(dirname "$0")/lib.sh"
need_root
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}

BS=$((1024 * 1024))
OTHER_BOOT=00000000-0000-4000-8000-000000000000
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

# kill_at LABEL CONF STATEFILE : start the drive (it goes on where it was),
# kill -9 it at a random moment in a write pass past the first (cycle 1 may
# find anything: what the device held before); sets POS and CYC, the
# flushed position and cycle the state recorded.
kill_at() {
	start_ssdt "$T/$1.log" -c "$2"
	wait_state "$3" "$SSDT_PID" 60 \
	    's["cycle"] >= 2 and s["phase"] == "write"' ||
	    die "$1: never saw a write pass past cycle 1"
	# a write pass over tmpfs takes 0.07 to 0.13 s here (phase_end): a
	# kill within its first 60 ms finds writes under way
	sleep "0.0$(printf '%02d' $((RANDOM % 60)))"
	kill_and_reap KILL "$SSDT_PID"
	assert_eq "$1: killed by SIGKILL" 137 "$RC"
	POS=$(state_get "$3" position)
	CYC=$(state_get "$3" cycle)
}

# check_torn LABEL EVENTS FROM WANT : the torn findings since byte FROM
# are exactly WANT (cut_blocks' lines), each in the window the state did
# not know as written, cut at a page, new data then blank; no finding of
# another class. Adds them to TEARS.
check_torn() {
	local label=$1 ev=$2 from=$3 want=$4 got o at n
	got=$(ev_query "$ev" "$from" offset,torn_at event=verify_error class=torn)
	assert_eq "$label: torn findings = the blocks a write was cut in" \
	    "$want" "$got"
	assert_no_findings "$label" "$ev" "$from"
	while read -r o at; do
		[ -n "$o" ] || continue
		# sequential order, no static area: block = item of the pass
		assert_ge "$label: torn block $o in the unflushed window" \
		    $((o / BS)) "$POS"
		assert_eq "$label: torn block $o: a cut at a page boundary" 0 \
		    $((at % 4096))
		assert_eq "$label: torn block $o: new and blank parts" \
		    "generation $CYC blank 1" "$(ev_query "$ev" "$from" \
		    torn_head,torn_tail,torn_changes event=verify_error \
		    class=torn offset="$o")"
	done <<<"$got"
	n=$(printf '%s' "$want" | grep -c .)
	[ "$n" -gt 0 ] && note "$label: killed in cycle $CYC at item $POS:" \
	    "$n block(s) cut: $(tr '\n' ' ' <<<"$want")"
	TEARS=$((TEARS + n))
}

# kill_verify LABEL CONF STATEFILE EVENTS IMAGE : kill_at, --verify, and
# its torn findings checked against the blocks cut.
kill_verify() {
	local from want n
	kill_at "$1" "$2" "$3"
	from=$(events_mark "$4" "$3")
	run_ssdt "$T/$1.v.log" -c "$2" --verify
	want=$(cut_blocks "$5")
	# torn blocks are no verify errors: 0, not 3, when only they are found
	assert_rc "$1: --verify (torn blocks are no verify errors)" 0 "$RC" \
	    "$T/$1.v.log"
	check_torn "$1" "$4" "$from" "$want"
}

# kill_powerloss LABEL CONF STATEFILE EVENTS IMAGE : kill_at, then the
# restart as in another boot (a power loss): the verify it makes first
# finds what was cut, as torn; then a clean stop.
kill_powerloss() {
	local from want
	kill_at "$1" "$2" "$3"
	want=$(cut_blocks "$5")
	from=$(events_mark "$4" "$3")
	sed -i "s/^boot_id .*/boot_id $OTHER_BOOT/" "$3"
	start_ssdt "$T/$1.p.log" -c "$2"
	for _ in $(seq 1 600); do
		[ "$(ev_count "$4" "$from" event=power_loss_verified)" -gt 0 ] &&
		    break
		sleep 0.05
	done
	# counted, verified: the status of the running daemon, saved
	"$CTL" -s "$ST.sock" --json status a >"$T/$1.st.json" 2>&1 ||
	    fail "$1: ssdctl status: $(cat "$T/$1.st.json")"
	kill_and_reap TERM "$SSDT_PID"
	assert_eq "$1: the verify after the power loss" 1 \
	    "$(ev_count "$4" "$from" event=power_loss_verified)"
	local t0=$TEARS
	check_torn "$1" "$4" "$from" "$want"
	PTEARS=$((PTEARS + TEARS - t0))
	# every tear so far counted as torn, none of them as a verify error
	assert_eq "$1: status --json: errors.torn, errors_total" "$TEARS 0" \
	    "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d = d["drives"][0] if "drives" in d else d
print(d["errors"]["torn"], d["errors_total"])' "$T/$1.st.json")"
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
PTEARS=0
k=0
# Measured (30 kills in a row, 2 shared CPUs): 18 cut a write, 5 of the 10
# power losses among them; a kill takes 0.8 s. Once kills alone cut three,
# every kill is a power loss: 24 kills leave at least 14 of them, all
# without a cut about 0.5^14 (1 in 16000), in 20 s at the most.
while [ $k -lt 24 ] && { [ $TEARS -lt 3 ] || [ $PTEARS -lt 1 ]; }; do
	k=$((k + 1))
	# every third a power loss: the restart in another boot verifies
	if [ $((k % 3)) -eq 0 ] || [ $TEARS -ge 3 ]; then
		f=kill_powerloss
	else
		f=kill_verify
	fi
	$f "a$k" "$T/a.conf" "$ST/a/state" "$ST/a/events.jsonl" "$T/shm/a.img"
done
note "A: $TEARS torn block(s) in $k kills ($PTEARS after a power loss)"
# the point of A: writes were cut (about one kill in two cuts one here)
assert_gt "A: writes cut by the kills" "$TEARS" 0
assert_gt "A: writes cut by a power loss, found by its verify" "$PTEARS" 0
assert_eq "A: errors.torn, counted" "$TEARS" "$(state_get "$ST/a/state" errors.torn)"
assert_no_errors "A" "$ST/a/state"
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
assert_no_errors "B" "$ST/a/state"
assert_eq "B: no dio_emulated on a block device" 0 \
    "$(ev_count "$ST/a/events.jsonl" 0 event=dio_emulated)"
finish
