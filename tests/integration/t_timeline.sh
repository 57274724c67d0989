#!/bin/bash
# Write timelines and the write-cache estimate, with a known answer: the
# target is a file on stallfs.py whose writes past a byte SLOW_FROM go at
# RATE bytes a second in all, those before it at FAST (a drive whose write
# cache takes the first bytes of a pass). FAST is well below what the host
# does, the sanitized daemon included (20 to 23 MB/s through stallfs on an
# otherwise idle 2-core host): stallfs then holds writes queued in its
# schedule, which absorbs the host's stalls, where at the host's own limit
# a stall shows as a slow spell of its own and can move the knee. Beside
# another test the sanitized daemon made only 10 MB/s, so the test runs
# alone. Sequential
# passes, so each cycle's pass crosses SLOW_FROM once.
#   - every pass has its timeline file: whole, steps of whole blocks, its
#     times never going back, the pass's bytes;
#   - the static fill (all before SLOW_FROM) shows no knee; each cycle's
#     pass shows one within 5 % of SLOW_FROM - the static area, the speed
#     after it within 15 % of RATE, the speed before it no more than FAST
#     (and less where the host is busy) and above RATE / 0.7;
#   - the event's figures are the file's;
#   - kept: the static fill's, the first pass's, every timeline_every-th
#     and the latest 3;
#   - ssdctl graph --what timeline, from the state directory and through
#     the daemon (Timelines): the first and the latest pass by default,
#     the passes asked for, each one's estimate in the key; a pass not
#     kept is said to be missing; --what slc, the estimates of the passes
#     kept against the TB written;
#   - the daemon's Timelines list follows the passes saved and removed
#     after it was first read.
# (A resumed pass's timeline: t_sigkill_resume.)
# run: serial
# (tests/lib/jobs.sh; the speeds against the FUSE server's pace)
. "$(dirname "$0")/lib.sh"
need_root

SIZE=$((64 * 1024 * 1024)) BS=$((128 * 1024)) FRAC=0.25
layout $SIZE $BS $FRAC
CACHE=$((36 * 1024 * 1024))		# of the dynamic area, before the slow part
SLOW_FROM=$((SBYTES + CACHE)) RATE=4000000 FAST=12000000
MNT=$T/mnt ST=$T/state EV=$T/state/a/events.jsonl TLD=$T/state/a/timelines
CYCLES=5 EVERY=4

truncate -s $SIZE "$T/back.img"
stallfs "$T/back.img" "$MNT" "$T/never" "$SLOW_FROM" "$RATE" "$FAST"
log "stallfs: writes at $FAST B/s, from byte $SLOW_FROM at $RATE B/s; dynamic area $DBYTES B"

write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
checkpoint = off
device = $MNT/disk
size = 64M
block_size = 128k
order = sequential
queue_depth = 8
static_fraction = $FRAC
trim = no
cycles = $CYCLES
timeline_every = $EVERY
EOF

run_ssdt "$T/run.log" -c "$T/a.conf" --oneshot
assert_rc "--oneshot" 0 "$RC" "$T/run.log"

# the files kept, in order
assert_eq "timelines kept (static, first, every ${EVERY}th, latest 3)" \
    "pass-0.json pass-1.json pass-3.json pass-4.json pass-5.json" \
    "$(cd "$TLD" && ls pass-*.json | sort -t- -k2 -n | tr '\n' ' ' | sed 's/ $//')"

# check_pass N BYTES : the file of pass N is a whole, sound timeline of a
# pass of BYTES; prints its estimate as "knee cache in post avg".
check_pass() {
	python3 - "$TLD/pass-$1.json" "$2" "$BS" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
nbytes, bs = int(sys.argv[2]), int(sys.argv[3])
t = o["t_us"]
bad = []
if not o["whole"] or o["first_step"] != 0: bad.append("not whole")
if o["pass_bytes"] != nbytes: bad.append("pass_bytes %d" % o["pass_bytes"])
if o["step_bytes"] % bs or o["step_bytes"] * o["steps"] > nbytes or \
   o["step_bytes"] * (o["steps"] + 1) <= nbytes: bad.append("steps")
if len(t) != o["steps"] + 1 or t[0] != 0: bad.append("t_us length")
if any(b < a for a, b in zip(t, t[1:])): bad.append("time goes back")
if bad:
    print("bad: " + ", ".join(bad))
else:
    print(o["slc_knee"], o.get("slc_cache_bytes", "-"),
          o.get("in_cache_bytes_per_sec", "-"),
          o.get("post_cache_bytes_per_sec", "-"), o["pass_bytes_per_sec"])
PY
}

read -r knee cache inb postb avg < <(check_pass 0 "$SBYTES")
assert_eq "static fill: no knee (all of it before the slow part)" False "$knee"
note "static fill: $avg B/s"

for c in 1 3 4 5; do
	read -r knee cache inb postb avg < <(check_pass $c "$DBYTES")
	assert_eq "pass $c: a knee" True "$knee"
	assert_within "pass $c: cache estimate, of $CACHE" "$cache" "$CACHE" 5
	assert_within "pass $c: speed after the knee, of $RATE" "$postb" "$RATE" 15
	assert_le "pass $c: speed before the knee, at most $FAST + 5 %" \
	    "${inb%.*}" $((FAST * 105 / 100))
	assert_gt "pass $c: speed before the knee, above $RATE / 0.7" \
	    "${inb%.*}" $((RATE * 10 / 7))
	assert_eq "pass $c: the event's estimate is the file's" \
	    "true $cache" "$(ev_query "$EV" 0 slc_knee,slc_cache_bytes \
	    event=phase_end what=write cycle=$c)"
	note "pass $c: cache $cache B, $inb B/s in it, $postb after"
done
assert_eq "static's event: no knee" "false -" \
    "$(ev_query "$EV" 0 slc_knee,slc_cache_bytes event=phase_end what=static)"
if ev_valid "$EV"; then pass_check; else fail "malformed event lines"; fi

log "ssdctl graph --what timeline"
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
export SSDTORTURE_SOCKET=$T/none.sock	# offline: no daemon asked
"$CTL" graph a --what timeline --state-dir "$ST" -o "$T/g.svg" >"$T/g.err" 2>&1
assert_rc "graph --state-dir" 0 $? "$T/g.err"
assert_eq "... a valid SVG" "svg 1000 450" "$(python3 "$IT_DIR/imgsize.py" "$T/g.svg")"
for k in "pass 1: cache 0.0377 GB" "pass $CYCLES: cache 0.0377 GB"; do
	assert_file_contains "... the key: $k" "$T/g.svg" "$k"
done
assert_eq "... the first and the latest pass only" 2 "$(grep -c 'cache 0.0377 GB' "$T/g.svg")"
"$CTL" graph a --what timeline --state-dir "$ST" --pass 0 --pass 2 --pass 3 \
    -o "$T/p.png" >"$T/p.err" 2>&1
assert_rc "graph --pass 0 --pass 2 --pass 3" 0 $? "$T/p.err"
assert_eq "... a valid PNG" "png 1000 450" "$(python3 "$IT_DIR/imgsize.py" "$T/p.png")"
assert_file_contains "... pass 2 is not kept" "$T/p.err" "1 of the passes asked for have no timeline kept"
"$CTL" graph a --what timeline --state-dir "$ST" --pass 2 -o "$T/n.png" >"$T/n.err" 2>&1
assert_rc "graph of a pass not kept" 1 $? "$T/n.err"
"$CTL" graph a --what throughput --pass 1 -o "$T/x.png" >"$T/x.err" 2>&1
assert_rc "--pass with another kind" 2 $? "$T/x.err"

"$CTL" graph a --what slc --state-dir "$ST" -o "$T/s.svg" >"$T/s.err" 2>&1
assert_rc "graph --what slc --state-dir" 0 $? "$T/s.err"
assert_eq "... a valid SVG" "svg 1000 450" "$(python3 "$IT_DIR/imgsize.py" "$T/s.svg")"
assert_file_contains "... the cache line" "$T/s.svg" "write cache (GB)"
assert_file_contains "... the speed after it" "$T/s.svg" "after the cache (MB/s)"

# the daemon, with 3 more cycles to run: the graphs through it; Timelines'
# list (kept in memory once read) follows the passes saved and removed
sed "s/^cycles = .*/cycles = $((CYCLES + 3))/" "$T/a.conf" >"$T/b.conf"
start_ssdt "$T/d.log" -c "$T/b.conf"
for _ in $(seq 1 200); do
	"$CTL" -s "$ST.sock" status a >/dev/null 2>&1 && break
	sleep 0.05
done
"$CTL" -s "$ST.sock" graph a --what timeline --pass 0 --pass 4 -o "$T/d.svg" \
    >"$T/d.err" 2>&1
assert_rc "graph through the daemon" 0 $? "$T/d.err"
assert_file_contains "... the static fill's key" "$T/d.svg" "static fill: no knee"
assert_file_contains "... pass 4's key" "$T/d.svg" "pass 4: cache 0.0377 GB"
"$CTL" -s "$ST.sock" graph a --what slc -o "$T/ds.png" >"$T/ds.err" 2>&1
assert_rc "graph --what slc through the daemon" 0 $? "$T/ds.err"
assert_eq "... a valid PNG" "png 1000 450" "$(python3 "$IT_DIR/imgsize.py" "$T/ds.png")"
wait_state "$ST/a/state" "$SSDT_PID" 120 "s['cycles_done'] == $((CYCLES + 3))" ||
    die "the 3 more cycles did not end"
listed=$(printf '{"method":"io.ssdtorture.Manager.Timelines","parameters":{"drive":"a"}}\0' |
    timeout 10 socat -t 10 - "UNIX-CONNECT:$ST.sock" | tr -d '\0' | python3 -c '
import json, sys
print(" ".join(str(t["pass"]) for t in json.load(sys.stdin)["parameters"]["timelines"]))')
assert_eq "Timelines after 3 more passes: the files kept now" \
    "$(cd "$TLD" && ls pass-*.json | sed 's/pass-\(.*\)\.json/\1/' | sort -n | xargs)" "$listed"
assert_eq "... the first, every ${EVERY}th, the latest 3" "0 1 4 6 7 8" "$listed"
kill_and_reap TERM "$SSDT_PID"
assert_rc "daemon exits on SIGTERM" 0 "$RC"
finish
