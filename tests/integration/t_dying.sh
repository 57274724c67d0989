#!/bin/bash
# A dying drive: garbage over thousands of 4 KiB blocks. A verify pass
# records at most max_error_events verify_error events and a summary per
# class; the error map of the pass lists every bad block exactly (checked
# against what was planted); the state, the summaries and the map count
# the same blocks; the journal copy (stderr here) stays short;
# a second pass with more damage maps the new blocks too; damage to the
# static area is mapped the same way; max_bad_fraction fails the drive
# with its TBW and the pass's figures.
. "$(dirname "$0")/lib.sh"

CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
[ -x "$CTL" ] || die "$CTL is missing (make -C $ROOT)"

SIZE=$((128 * 1024 * 1024)) BS=4096 FRAC=0.25 MAXEV=20
IMG=$T/a.img
ST=$T/state
layout $SIZE $BS $FRAC
S=$ST/a/state
EV=$ST/a/events.jsonl

conf_a() {	# CYCLES MAX_BAD_FRACTION
	write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
device = $IMG
size = 128M
block_size = 4k
queue_depth = 32
static_fraction = $FRAC
trim = no
cycles = $1
max_error_events = $MAXEV
max_bad_fraction = $2
EOF
}

# garbage FIRST_BLOCK COUNT [STEP]: random bytes over COUNT blocks, STEP
# apart (default 1: one run); the blocks go to $T/planted.
garbage() {
	python3 - "$IMG" $BS "$@" >>"$T/planted" <<'EOF'
import os, sys
img, bs, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
step = int(sys.argv[5]) if len(sys.argv) > 5 else 1
fd = os.open(img, os.O_RDWR)
for i in range(count):
    b = first + i * step
    os.pwrite(fd, os.urandom(bs), b * bs)
    print(b)
os.fsync(fd)
os.close(fd)
EOF
}

# map_blocks PASS: every block the map of a pass lists, one a line, with
# its class ("BLOCK CLASS"), decoded here independently of the daemon.
map_blocks() {
	python3 - "$ST/a/errors/pass-$1.map" <<'EOF'
import sys
CLS = {1: "corrupt", 2: "misdirected", 3: "stale", 4: "foreign",
       5: "unwritten", 6: "io_error"}
p = open(sys.argv[1], "rb").read()
assert p[:8] == b"ssdtmap1", "not a map"
at, nxt = 16, 0
def varint():
    global at
    v = s = 0
    while True:
        b = p[at]; at += 1
        v |= (b & 0x7f) << s; s += 7
        if not b & 0x80:
            return v
while at < len(p):
    gap = varint(); n = varint(); c = CLS[p[at]]; at += 1
    start = nxt + gap
    for b in range(start, start + n):
        print(b, c)
    nxt = start + n
EOF
}

# expect_map PASS LABEL: the map of PASS is exactly the planted blocks,
# all corrupt.
expect_map() {
	sort -n -u "$T/planted" | sed 's/$/ corrupt/' >"$T/want"
	map_blocks "$1" | sort -n >"$T/got"
	if cmp -s "$T/want" "$T/got"; then
		pass_check
	else
		fail "$2: map of pass $1 differs from what was planted:" \
		    "$(diff "$T/want" "$T/got" | head -5)"
	fi
}

# summary_blocks FROM: the blocks of the corrupt verify_summary events
summary_blocks() {
	ev_query "$EV" "$1" blocks event=verify_summary class=corrupt | xargs
}

# ---- a clean first cycle
conf_a 1 100%
log "128 MiB file, $NBLK blocks of 4k, static area $SBLK blocks"
run_ssdt "$T/run1.log" -c "$T/a.conf" --oneshot
assert_rc "first --oneshot" 0 "$RC" "$T/run1.log"
assert_eq "run after cycle 1" finished "$(state_get "$S" run)"
assert_eq "a clean pass maps nothing" "" "$(map_blocks 1)"

# ---- garbage: 8 MiB run in the dynamic area, 2000 scattered blocks,
# and 1 MiB of the static area (its start, as wipefs would hit)
: >"$T/planted"
garbage $((SBLK + 1000)) 2048
garbage $((SBLK + 5000)) 2000 3
garbage 0 256
PLANTED=$(sort -u "$T/planted" | wc -l)
from=$(events_mark "$EV" "$S")
size0=$(events_size "$EV")
c0=$(state_get "$S" errors.corrupt)
run_ssdt "$T/verify1.log" -c "$T/a.conf" --verify
assert_rc "--verify over $PLANTED bad blocks" 3 "$RC" "$T/verify1.log"
assert_eq "verify_error events stop at max_error_events" $MAXEV \
    "$(ev_count "$EV" "$from" event=verify_error)"
assert_eq "one notice that the rest is summarized" 1 \
    "$(ev_count "$EV" "$from" event=verify_errors_summarized)"
assert_eq "one summary per class" corrupt \
    "$(ev_query "$EV" "$from" class event=verify_summary | xargs)"
grew=$(($(events_size "$EV") - size0))
assert_lt "events.jsonl grew by a bounded amount (bytes)" "$grew" 40000
expect_map 2 "on-demand pass"
assert_eq "state counts every planted block" $((c0 + PLANTED)) \
    "$(state_get "$S" errors.corrupt)"
assert_eq "summary counts every planted block" "$PLANTED" \
    "$(summary_blocks "$from")"
assert_le "journal copy: verify error lines" \
    "$(grep -c 'corrupt at offset' "$T/verify1.log")" 10
assert_le "journal copy: lines in all" "$(wc -l <"$T/verify1.log")" 40
assert_eq "a high max_bad_fraction leaves the drive be" finished \
    "$(state_get "$S" run)"

# ---- more damage in the static area; cycle 2 rewrites the dynamic
# area (its damage heals), its verify pass maps the static damage, old
# and new
: >"$T/planted"
garbage 0 256
garbage 3000 1500
PLANTED=$(sort -u "$T/planted" | wc -l)
conf_a 2 100%
from=$(events_mark "$EV" "$S")
c0=$(state_get "$S" errors.corrupt)
run_ssdt "$T/run2.log" -c "$T/a.conf" --oneshot
assert_rc "--oneshot of cycle 2" 3 "$RC" "$T/run2.log"
assert_eq "cycle 2 done" 2 "$(state_get "$S" cycles_done)"
assert_eq "verify_error events of cycle 2 stop at max_error_events" $MAXEV \
    "$(ev_count "$EV" "$from" event=verify_error)"
expect_map 3 "scheduled pass of cycle 2"
assert_eq "state counts the pass" $((c0 + PLANTED)) \
    "$(state_get "$S" errors.corrupt)"
assert_eq "summary of cycle 2" "$PLANTED" "$(summary_blocks "$from")"
assert_le "journal copy of cycle 2: verify error lines" \
    "$(grep -c 'corrupt at offset' "$T/run2.log")" 10

# ---- max_bad_fraction 1%: 1756 of 32768 blocks bad, the drive fails
conf_a 3 1%
run_ssdt "$T/run3.log" -c "$T/a.conf" --oneshot
assert_eq "run after a pass over max_bad_fraction" failed \
    "$(state_get "$S" run)"
reason=$(state_get "$S" reason)
assert_contains "reason: the pass's figures" "$reason" \
    "verify pass 4: $PLANTED of $NBLK blocks bad"
assert_contains "reason: the rule" "$reason" "max_bad_fraction 1%"
assert_contains "reason: the TBW" "$reason" "at TBW 0.000"
assert_eq "failed_at_tbw" "$(state_get "$S" host_bytes_written)" \
    "$(state_get "$S" failed_at_tbw)"
expect_map 4 "the failing pass"

# ---- the views: ssdctl errors and status of the failed drive
start_ssdt "$T/run4.log" -c "$T/a.conf"
ok=0
for _ in $(seq 1 200); do
	"$CTL" -s "$ST.sock" status >/dev/null 2>&1 && { ok=1; break; }
	pid_alive "$SSDT_PID" || break
	sleep 0.05
done
[ "$ok" = 1 ] || { show_file "$T/run4.log"; die "the daemon's socket never answered"; }
"$CTL" -s "$ST.sock" errors a --json >"$T/errors.json"
assert_eq "ssdctl errors: the latest pass" "4 4 $PLANTED false" \
    "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
print(r["pass"], r["passes"], r["blocks"], r["truncated"] and "true" or "false")' \
    "$T/errors.json")"
python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
for e in r["extents"]:
    for b in range(e["offset"] // 4096, e["offset"] // 4096 + e["blocks"]):
        print(b, e["class"])' "$T/errors.json" >"$T/got"
sort -n -u "$T/planted" | sed 's/$/ corrupt/' >"$T/want"
if cmp -s "$T/want" "$T/got"; then pass_check; else fail "ssdctl errors lists other blocks than were planted"; fi
"$CTL" -s "$ST.sock" errors a --pass 2 >"$T/errors2.txt"
assert_contains "ssdctl errors --pass 2" "$(head -1 "$T/errors2.txt")" \
    "verify pass 2 of 4, block size 4096: 4304 bad blocks"
"$CTL" -s "$ST.sock" errors a --pass 9 >/dev/null 2>&1
assert_eq "ssdctl errors --pass 9 (no such pass)" 1 $?
assert_eq "status counts every bad block" "$(state_get "$S" errors.corrupt)" \
    "$("$CTL" -s "$ST.sock" --json status a | python3 -c 'import json,sys
print(json.load(sys.stdin)["drives"][0]["errors"]["corrupt"])')"
kill_and_reap TERM "$SSDT_PID"
finish
