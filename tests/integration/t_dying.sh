#!/bin/bash
# A dying drive: garbage over thousands of 4 KiB blocks. A verify pass
# records at most max_error_events verify_error events and a summary per
# class; the error map of the pass lists every bad block exactly (checked
# against what was planted); the state, the summaries and the map count
# the same blocks; the journal copy (stderr here) stays short;
# a second pass with more damage maps the new blocks too; damage to the
# static area is mapped the same way; max_bad_fraction fails the drive
# with its TBW and the pass's figures; ssdctl graph --what errormap draws
# each pass's bad extents where they are (from the daemon and from a state
# directory alike), and a clean drive as "no errors recorded".
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
checkpoint = off
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

# map_blocks PASS [DRIVE]: every block the map of a pass lists, one a
# line, with its class ("BLOCK CLASS"), decoded here independently of the
# daemon.
map_blocks() {
	python3 "$IT_DIR/errmap_blocks.py" "$ST/${2:-a}/errors/pass-$1.map"
}

# expect_map PASS LABEL [DRIVE]: the map of PASS is exactly the planted
# blocks, all corrupt, each once.
expect_map() {
	sort -n -u "$T/planted" | sed 's/$/ corrupt/' >"$T/want"
	map_blocks "$1" "${3:-a}" | sort -n >"$T/got"
	if cmp -s "$T/want" "$T/got"; then
		pass_check
	else
		fail "$2: map of pass $1 differs from what was planted:" \
		    "$(diff "$T/want" "$T/got" | head -5)"
	fi
}

# svgmap CMD FILE ARGS: the errormap picture, read as XML:
#   size FILE: "svg W H" if well-formed with width/height = viewBox
#   runs FILE PASS: the data rectangles of the row of PASS, one a line:
#     "X0 X1 CLASS FILL" (pixels within the plot)
#   covers FILE PASS CLASS FROM TO SPAN: exit 0 if a rectangle of CLASS
#     in PASS's row covers the pixels bytes FROM..TO of SPAN fall on
#   text FILE: every text, one a line
svgmap() {
	python3 "$IT_DIR/svgmap.py" "$@"
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
"$CTL" graph a --what errormap --map-dir "$ST/a" -o "$T/clean.svg" \
    >"$T/graph0.log" 2>&1
assert_rc "graph --what errormap --map-dir, a clean pass" 0 $? "$T/graph0.log"
assert_eq "clean map: image" "svg 1000 450" "$(svgmap size "$T/clean.svg")"
assert_eq "clean map: nothing drawn" "" "$(svgmap runs "$T/clean.svg" 1)"
assert_contains "clean map: says so" "$(svgmap text "$T/clean.svg")" \
    "no errors recorded in 1 verify pass"

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
# --again: the blocks of a pass an earlier pass had bad too, against the
# maps read here (errmap_blocks.py)
for p in 2 3 4; do
	for q in $(seq 1 $((p - 1))); do map_blocks "$q"; done |
	    cut -d' ' -f1 | sort -u >"$T/earlier"	# join's order
	map_blocks "$p" | sort -u | join - "$T/earlier" | sort -n -u \
	    >"$T/want.again"
	"$CTL" -s "$ST.sock" errors a --pass "$p" --again --json >"$T/again.json"
	python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
assert r["again"] is True
for e in r["extents"]:
    for b in range(e["offset"] // 4096, e["offset"] // 4096 + e["blocks"]):
        print(b, e["class"])' "$T/again.json" | sort -n -u >"$T/got.again"
	if cmp -s "$T/want.again" "$T/got.again"; then pass_check; else
		fail "errors --pass $p --again: not the blocks earlier maps had bad too"; fi
	assert_eq "errors --pass $p --again: its count" "$(wc -l <"$T/want.again")" \
	    "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["blocks"])' "$T/again.json")"
done
check "the static damage of pass 4 was found by pass 3 too: all again" \
    test "$(wc -l <"$T/want.again")" -eq "$PLANTED"
"$CTL" -s "$ST.sock" errors a --again >"$T/again.txt"
assert_contains "ssdctl errors --again says what it lists" \
    "$(head -1 "$T/again.txt")" "an earlier pass found bad too"
assert_eq "status counts every bad block" "$(state_get "$S" errors.corrupt)" \
    "$("$CTL" -s "$ST.sock" --json status a | python3 -c 'import json,sys
print(json.load(sys.stdin)["drives"][0]["errors"]["corrupt"])')"

# the archive counts them too (bad_blocks, every class, each second)
sleep 1.5
B=$(rrdtool lastupdate "$ST/a/a.rrd" | awk 'NR == 1 { for (i = 1; i <= NF; i++)
    if ($i == "bad_blocks") c = i + 1 } NR == 3 { print $c + 0 }')
assert_eq "archive bad_blocks counts every bad block" \
    "$(awk '$1 ~ /^errors\.(corrupt|misdirected|stale|foreign|unwritten|io_error)$/ { n += $2 } END { print n }' "$S")" "$B"

# ---- the picture of where it fails: ssdctl graph --what errormap
"$CTL" -s "$ST.sock" graph a --what errormap -o "$T/map.svg" \
    >"$T/graph.log" 2>&1
assert_rc "graph --what errormap" 0 $? "$T/graph.log"
assert_eq "errormap: image" "svg 1000 450" "$(svgmap size "$T/map.svg")"
assert_eq "errormap: the clean pass 1 draws nothing" "" \
    "$(svgmap runs "$T/map.svg" 1)"
RUN=($(((SBLK + 1000) * BS)) $(((SBLK + 3048) * BS)) $SIZE)
if svgmap covers "$T/map.svg" 2 corrupt "${RUN[@]}"; then pass_check; else
	fail "errormap: the 8 MiB run is not drawn corrupt in pass 2"; fi
if svgmap covers "$T/map.svg" 3 corrupt "${RUN[@]}"; then
	fail "errormap: the run (rewritten in cycle 2) is drawn in pass 3"
else pass_check; fi
if svgmap covers "$T/map.svg" 4 corrupt $((3000 * BS)) $((4500 * BS)) $SIZE
then pass_check; else fail "errormap: the static damage is not drawn in pass 4"; fi
assert_eq "errormap: corrupt is drawn vermilion (palette.h RED)" "#D55E00" \
    "$(svgmap runs "$T/map.svg" 2 | awk '$3 == "corrupt" {print $4}' | sort -u)"
total=0
for p in 1 2 3 4; do total=$((total + $(map_blocks $p | wc -l))); done
assert_contains "errormap: legend counts every bad block of the passes" \
    "$(svgmap text "$T/map.svg")" "corrupt: $total bad blocks"
"$CTL" graph a --what errormap --map-dir "$ST/a" -o "$T/map_dir.svg" \
    >"$T/graph2.log" 2>&1
assert_rc "graph --what errormap --map-dir" 0 $? "$T/graph2.log"
for p in 1 2 3 4; do
	assert_eq "errormap: pass $p from the daemon (merged to the pixel) as from the maps" \
	    "$(svgmap runs "$T/map_dir.svg" $p)" "$(svgmap runs "$T/map.svg" $p)"
done
"$CTL" -s "$ST.sock" graph a --what errormap -o "$T/map.png" >"$T/graph3.log" 2>&1
assert_rc "graph --what errormap -o FILE.png: refused" 2 $? "$T/graph3.log"
assert_file_contains "errormap PNG: says why" "$T/graph3.log" "SVG only"
if [ -e "$T/map.png" ]; then fail "errormap PNG: a file was written"
else pass_check; fi
kill_and_reap TERM "$SSDT_PID"

# ---- kill -9 in the middle of a damaged verify pass, then the pass
# resumed: the map holds every planted block once, the events stay within
# max_error_events. 256 MiB, 90% static (kept across cycles, so its damage
# is read again), queue depth 1 for a verify pass of some seconds.
log "kill -9 in a damaged verify pass, resumed"
SIZE=$((256 * 1024 * 1024)) FRAC=0.9
layout $SIZE $BS $FRAC
IMG=$T/b.img
S=$ST/b/state
EV=$ST/b/events.jsonl
conf_b() {	# CYCLES QUEUE_DEPTH
	write_conf "$T/b.conf" "$ST" <<EOF
[drive:b]
checkpoint = off
device = $IMG
size = 256M
block_size = 4k
queue_depth = $2
static_fraction = $FRAC
trim = no
cycles = $1
max_error_events = $MAXEV
max_bad_fraction = 100%
EOF
}
conf_b 1 32
run_ssdt "$T/b1.log" -c "$T/b.conf" --oneshot
assert_rc "b: first --oneshot" 0 "$RC" "$T/b1.log"
: >"$T/planted"
garbage 100 $((SBLK / 5 - 20)) 5
garbage $((SBLK / 2 + 1)) 2048
PLANTED=$(sort -u "$T/planted" | wc -l)
conf_b 2 1
from=$(events_mark "$EV" "$S")
c0=$(state_get "$S" errors.corrupt)
start_ssdt "$T/b2.log" -c "$T/b.conf" --oneshot
wait_state "$S" "$SSDT_PID" 120 '(s["phase"] == "verify" and
    s["errors.map_bytes"] > 16 and s["position"] < '"$((SBLK / 2))"')' ||
	die "b: never saw the damaged verify pass under way"
kill_and_reap KILL "$SSDT_PID"
assert_eq "b: killed by SIGKILL" 137 "$RC"
assert_eq "b: killed in the verify pass" verify "$(state_get "$S" phase)"
note "b: killed at item $(state_get "$S" position) of $NBLK, map checkpoint" \
    "$(state_get "$S" errors.map_bytes) bytes of $(stat -c %s "$ST/b/errors/pass-2.map")"
assert_lt "b: killed before the end of the damage" \
    "$(state_get "$S" position)" $((SBLK / 2))
conf_b 2 32	# the rest of the pass at full speed
run_ssdt "$T/b3.log" -c "$T/b.conf" --oneshot
assert_rc "b: resumed --oneshot" 3 "$RC" "$T/b3.log"
assert_eq "b: cycle 2 done" 2 "$(state_get "$S" cycles_done)"
expect_map 2 "b: the resumed pass" b
assert_eq "b: state counts every planted block once" $((c0 + PLANTED)) \
    "$(state_get "$S" errors.corrupt)"
assert_eq "b: verify_error events of the pass stop at max_error_events" \
    $MAXEV "$(ev_count "$EV" "$from" event=verify_error)"
assert_eq "b: one notice that the rest is summarized" 1 \
    "$(ev_count "$EV" "$from" event=verify_errors_summarized)"
assert_eq "b: summary counts every planted block" "$PLANTED" \
    "$(summary_blocks "$from")"
finish
