#!/bin/bash
# run: heavy
# A probe measured while the daemon could not run is no figure of the
# drive's; one measured on a busy host is, with a note. Four checkpoints
# of one probe (rand-read-4k-qd1, 6 s windows, no ramp):
#  1. undisturbed: the baseline;
#  2. the daemon stopped (SIGSTOP) for 2.5 s in each of the probe's three
#     windows: in the first two the stop ends inside the window (no
#     overrun to see), in the third it crosses the window's end: every
#     window void ("stopped"), the line says so with the reason and has no
#     figure; no regression flag or event; ssdctl checkpoints and the
#     report show it void; the baseline stays checkpoint 1;
#  3. stopped once for 3 s, 1.5 s into its first window, the stop ending
#     inside it: measured again, the line's figure that of a whole
#     undisturbed window (its length, no 3 s latency), the void window
#     listed with its reason;
#  4. a busy host: the daemon pinned to one CPU beside three busy loops of
#     the same priority for the whole window: the I/O thread waits for a
#     CPU much of it, but is never kept from it for long at a stretch: the
#     figure recorded, not void, noted "host busy" on the line, in ssdctl
#     checkpoints and in the report.
# Windows are found by the daemon's own notices ("measured again"), not by
# timing, and each check allows for a loaded host (attempts at least, the
# reasons, no exact timings).
. "$(dirname "$0")/lib.sh"
need_root
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
PROBE=rand-read-4k-qd1
STEP=$(( $("$CTL" --json probes | python3 -c '
import json, sys
print([p["id"] for p in json.load(sys.stdin)].index(sys.argv[1]))' "$PROBE") + 1 ))

truncate -s 128M "$T/a.img"
new_loop "$T/a.img"
ST=$T/state
write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
device = $LOOPDEV
serial = none
block_size = 64k
trim = no
idle = 0
cycles = 4
checkpoint_every = 100MB
checkpoint_region = 16M
checkpoint_probes = $PROBE
probe_seconds = 6s
probe_ramp = 0s
EOF
S=$ST/a/state EV=$ST/a/events.jsonl CK=$ST/a/checkpoints.jsonl

# in_probe N : wait for checkpoint N's probe step to begin
in_probe() {
	wait_state "$S" "$SSDT_PID" 120 "s['phase'] == 'checkpoint' and \
s['checkpoint.done'] == $(($1 - 1)) and s['checkpoint.step'] == $STEP" ||
	    { fail "checkpoint $1: its probe's step not seen"; return 1; }
}
# stop_at AFTER SECONDS : the whole daemon stopped AFTER s from now
stop_at() {
	sleep "$1"
	kill -STOP "$SSDT_PID"
	sleep "$2"
	kill -CONT "$SSDT_PID"
}
# reruns N : wait for the daemon's Nth notice of a window measured again
# (the next window opens right after it)
reruns() {
	local i
	for i in $(seq 1 1200); do
		[ "$(grep -c 'window void, measured again' "$T/a.log")" -ge "$1" ] &&
		    return 0
		sleep 0.05
	done
	fail "notice $1 of a window measured again not seen"
	return 1
}
# line N : checkpoint N's line of the probe
line() {
	python3 -c '
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o["checkpoint"] == int(sys.argv[2]) and o["probe"] == sys.argv[3]:
        print(json.dumps(o))' "$CK" "$1" "$PROBE"
}
# field JSON EXPR : a Python expression over the line `o`
field() {
	python3 -c 'import json, sys
o = json.loads(sys.argv[1]); r = eval("(" + sys.argv[2] + "\n)")
print(*r) if isinstance(r, tuple) else print(r)' "$1" "$2"
}

start_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
# no trap of our own: lib.sh's cleanup kills a stopped daemon too, and
# replacing its trap would leave the loop device and $T behind

log "checkpoint 2: stopped in every window"
in_probe 2 && stop_at 1 2.5
reruns 1 && stop_at 1 2.5
reruns 2 && stop_at 4.5 2.5	# across the window's end
log "checkpoint 3: stopped once, inside the first window"
in_probe 3 && stop_at 1.5 3

log "checkpoint 4: a busy host for the whole window"
if in_probe 4 && taskset -a -p -c 1 "$SSDT_PID" >/dev/null; then
	hogs=""
	for i in 1 2 3; do
		timeout 8 taskset -c 1 sh -c 'while :; do :; done' &
		hogs="$hogs $!"
	done
	wait $hogs	# theirs only: the daemon runs in the background too
fi
taskset -a -p -c 0,1 "$SSDT_PID" >/dev/null 2>&1
wait_exit "$SSDT_PID" 180
assert_rc "the run ends well" 0 "$RC" "$T/a.log"

l1=$(line 1) l2=$(line 2) l3=$(line 3) l4=$(line 4)
[ -n "$l1" ] && [ -n "$l2" ] && [ -n "$l3" ] && [ -n "$l4" ] ||
    die "a checkpoint's line is missing: $(cat "$CK")"
assert_eq "1: measured, the baseline" "None True" \
    "$(field "$l1" 'o.get("void"), o["read_iops"] > 0')"
log "1: $(field "$l1" '"%.2f s of %.2f s waiting for a CPU, %.0f IOPS" %
(o["cpu_wait_seconds"], o["seconds"], o["read_iops"])')"

assert_match "2: void, the reason says the thread was stopped" \
    'I/O thread was stopped or kept from every CPU for [0-9.]+ s at a stretch' \
    "$(field "$l2" 'o.get("void")')"
assert_eq "2: three windows, all void, each for a stop of 2 s or more" \
    "3 3 True" "$(field "$l2" 'o["attempts"], len(o["void_windows"]),
all(float(w["why"].split(" for ")[1].split(" s ")[0]) >= 2 and
"was stopped" in w["why"] for w in o["void_windows"])')"
assert_eq "2: the first two stops ended inside their windows" "True True" \
    "$(field "$l2" 'tuple(w["seconds"] < 6.6 for w in o["void_windows"][:2])')"
assert_eq "2: no figure, no flag, no baseline ratio" "None None None None" \
    "$(field "$l2" 'o.get("read_iops"), o.get("read_lat_us"), o.get("flags"), o.get("vs_baseline")')"
assert_match "2: skipped too, for readers that know no void" '^void: ' \
    "$(field "$l2" 'o.get("skipped")')"
assert_eq "2: no probe_regression event" 0 \
    "$(ev_count "$EV" 0 event=probe_regression checkpoint=2)"
assert_eq "one probe_void event, of checkpoint 2" "2 $PROBE 3" \
    "$(ev_query "$EV" 0 checkpoint,probe,attempts event=probe_void)"

assert_ge "3: measured again after the void window" \
    "$(field "$l3" 'o["attempts"]')" 2
assert_eq "3: the first window void, its stop inside it" "True True" \
    "$(field "$l3" '"I/O thread was stopped" in o["void_windows"][0]["why"],
o["void_windows"][0]["seconds"] < 6.6')"
assert_eq "3: a whole window, no stop in its latency or gaps" \
    "None True True True True" "$(field "$l3" 'o.get("void"),
5.9 <= o["seconds"] <= 6.6, o["read_lat_us"]["max"] < 1e6,
o["read_iops"] > 0, o["round_gap_seconds"] <= 1')"
assert_eq "3: compared with checkpoint 1, the baseline" 1 \
    "$(field "$l3" 'o["baseline"]')"

assert_eq "4: busy, not void: a figure, the host busy noted" \
    "None True True True" "$(field "$l4" 'o.get("void"), o["read_iops"] > 0,
o.get("host_busy"), o["cpu_wait_seconds"] > 0.25 * o["seconds"]')"
assert_eq "4: never kept from running at a stretch: one window" \
    "1 True" "$(field "$l4" 'o["attempts"], o["round_gap_seconds"] <= 1')"
log "4: $(field "$l4" '"%.2f s of %.2f s waiting for a CPU, %.0f IOPS" %
(o["cpu_wait_seconds"], o["seconds"], o["read_iops"])')"

t=$("$CTL" checkpoints a --state-dir "$ST")
assert_match "ssdctl checkpoints: void in checkpoint 2's cell, host busy noted" \
    "^$PROBE +IOPS +[0-9]+ +void +[0-9]+ +[0-9]+ .*\\(host busy\\)\$" "$t"
"$CTL" report a --state-dir "$ST" --json >"$T/r4.json" || fail "report --json"
assert_eq "the report's row: checkpoint 4 host busy, not void" "True None" \
    "$(python3 -c 'import json, sys
def rows(o):
    if isinstance(o, dict):
        if o.get("probe") == sys.argv[2] and "values" in o:
            yield o
        for v in o.values():
            yield from rows(v)
    elif isinstance(o, list):
        for v in o:
            yield from rows(v)
r = next(rows(json.load(open(sys.argv[1]))))
print(r.get("host_busy"), r.get("void"))' "$T/r4.json" "$PROBE" 2>&1)"
"$CTL" report a --state-dir "$ST" -o "$T/r4.html" >"$T/r4.out" 2>&1 ||
    fail "report -o: $(cat "$T/r4.out")"
assert_eq "the report's table: checkpoint 4's row notes the busy host" True \
    "$(python3 -c '
import re, sys
h = open(sys.argv[1]).read()
m = re.search(r"<tr[^>]*><td class=\"l\">%s</td>.*?</tr>" % re.escape(sys.argv[2]), h, re.S)
print(m is not None and "host busy" in m.group(0))' "$T/r4.html" "$PROBE" 2>&1)"
# the records as they were after checkpoint 2: its void line the latest
mkdir -p "$T/cut/a"
python3 -c 'import json, sys
for l in open(sys.argv[1]):
    if json.loads(l)["checkpoint"] <= 2:
        print(l, end="")' "$CK" >"$T/cut/a/checkpoints.jsonl"
cp "$S" "$EV" "$T/cut/a/"
t=$("$CTL" checkpoints a --state-dir "$T/cut")
assert_match "ssdctl checkpoints: a void latest line, no change, no flag" \
    "^$PROBE +IOPS +[0-9]+ +void +void\$" "$t"
"$CTL" report a --state-dir "$T/cut" --json >"$T/r.json" || fail "report --json"
assert_eq "the report's row: void with why, no figure, no change, no flag" \
    "True None None []" "$(python3 -c '
import json, sys
def rows(o):
    if isinstance(o, dict):
        if o.get("probe") == sys.argv[2] and "values" in o:
            yield o
        for v in o.values():
            yield from rows(v)
    elif isinstance(o, list):
        for v in o:
            yield from rows(v)
r = next(rows(json.load(open(sys.argv[1]))))
print("stopped" in (r.get("void") or ""), r["values"][1], r["change_percent"], r["flags"])' \
    "$T/r.json" "$PROBE" 2>&1)"
"$CTL" report a --state-dir "$T/cut" -o "$T/r.html" >"$T/r.out" 2>&1 ||
    fail "report -o: $(cat "$T/r.out")"
assert_eq "the report's table: void with why, the row not a regression's" \
    "True True" "$(python3 -c '
import re, sys
h = open(sys.argv[1]).read()
m = re.search(r"<tr[^>]*><td class=\"l\">%s</td>.*?</tr>" % re.escape(sys.argv[2]), h, re.S)
print(m is not None and m.group(0).startswith("<tr><"),
    m is not None and "void: the I/O thread was stopped" in m.group(0))' "$T/r.html" "$PROBE" 2>&1)"
finish
