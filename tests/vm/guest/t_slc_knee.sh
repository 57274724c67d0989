#!/bin/bash
# The write-cache estimate (README "Write timelines and the write cache")
# on a device-mapper device whose first part is fast and whose rest is
# slow: a memory-backed null_blk that completes every request DN ms after
# it arrives, its first FAST bytes mapped `linear`, the rest through a
# `delay` target that holds each write DD ms more (reads not at all).
# FAST covers the static area and the first X bytes of the dynamic area;
# sequential passes of one write at a time, so each cycle's pass writes X
# bytes at up to block / DN a second, then crosses into the slow part
# once and goes on at up to block / (DN + DD).
#   - the static fill (all fast) shows no knee;
#   - each cycle's pass shows one, its estimate within 5 % of X; the
#     speed before it at most block / DN, the speed after it at most half
#     that before it and at most block / (DN + DD) for the slow part's
#     bytes (plus a timer tick: dm-delay counts DD in jiffies from the
#     write's arrival, so a write may wait a tick less; the fast part's
#     bytes that a knee found early puts after it counted as no time);
#   - each pass's timeline file (all are kept: the static fill's, the
#     first and the latest 3) exists and is whole (the pass's bytes, steps
#     of whole blocks, times never going back), with the event's estimate.
# Why this device: without DN, null_blk's speed under TCG is the guest's
# CPU, which swings several-fold from one 1 % of a pass to the next and
# makes false knees; a short DN lets the host's own delays weigh as much
# as the device's. Why one write at a time: dm-delay releases the writes
# it holds by timer, in batches, so at a queue depth above 1 the writes
# of a round come back together and the slow part looks fast in places.
# (The same with a FUSE file on the host: tests/integration/t_timeline.sh.)
# run: serial
# (tests/lib/jobs.sh; figures against a device's delay)
. "$(dirname "$0")/lib.sh"

SPAN=$((64 * 1024 * 1024)) BS=$((256 * 1024)) FRAC=0.25
layout $SPAN $BS $FRAC
X=$((40 * 1024 * 1024))		# of the dynamic area, before the slow part
FAST=$((SBYTES + X))
DN_MS=30		# null_blk: every request completed DN_MS after it arrives
DD_MS=60		# dm-delay: writes to the slow part held DD_MS more
FAST_MAX=$((BS * 1000 / DN_MS))			# bytes a second, at most
SLOW_MAX=$((BS * 1000 / (DN_MS + DD_MS)))
TICK_PCT=10		# a tick of HZ 250 (4 ms) in 90 ms, and some
CYCLES=2
ST=$T/state EV=$T/state/k/events.jsonl TLD=$T/state/k/timelines

dmsetup targets | grep -q '^delay ' || modprobe dm-delay ||
    die "no dm-delay target (tests/vm/mkinitramfs.sh packs dm-delay)"
# the backing: null_blk of SPAN, memory backed, every request completed by
# a timer DN_MS after it arrives
nullb_make nbk $((SPAN >> 20)) irqmode=2 completion_nsec=$((DN_MS * 1000000))
note "$NBDEV: $(blockdev --getsize64 "$NBDEV") bytes, memory backed, completion after $DN_MS ms"

FS=$((FAST / 512)) SS=$(((SPAN - FAST) / 512))
dm_create slc "0 $FS linear $NBDEV 0
$FS $SS delay $NBDEV $FS 0 $NBDEV $FS $DD_MS"
DEV=/dev/mapper/slc
log "dm slc: bytes [0, $FAST) fast (at most $FAST_MAX B/s), the rest's writes held $DD_MS ms more (at most $SLOW_MAX B/s); static area $SBYTES B, X = $X B of the dynamic area's $DBYTES"

write_conf "$T/k.conf" "$ST" <<EOC
[drive:k]
checkpoint = off
device = $DEV
serial = none
span = $((SPAN >> 20))M
block_size = $((BS >> 10))k
order = sequential
queue_depth = 1
static_fraction = $FRAC
trim = no
cycles = $CYCLES
EOC
SSDT_TIMEOUT=200 run_ssdt "$T/k.log" -c "$T/k.conf" --oneshot
assert_rc "--oneshot on $DEV" 0 "$RC" "$T/k.log"
assert_eq "no verify error" 0 "$(errors_sum "$ST/k/state")"

# one line a pass: PASS FILE_STATE KNEE CACHE IN POST AVG, KNEE..AVG
# from its phase_end event ("-" for a missing field), FILE_STATE "ok" when
# its timeline file is whole, sound and has the event's estimate (else
# what is wrong with it, no blanks)
python3 - "$EV" "$TLD" "$CYCLES" "$SBYTES" "$DBYTES" "$BS" >"$T/passes" <<'EOF' ||
import json, os, sys
ev, tld = sys.argv[1], sys.argv[2]
cycles, sbytes, dbytes, bs = (int(a) for a in sys.argv[3:])
FIELDS = ("slc_knee", "slc_cache_bytes", "in_cache_bytes_per_sec",
          "post_cache_bytes_per_sec", "pass_bytes_per_sec")
ends = {}
for ln in open(ev):
    e = json.loads(ln)
    if e.get("event") == "phase_end" and e.get("what") in ("static", "write"):
        ends[0 if e["what"] == "static" else e.get("cycle")] = e
def s(v):
    if v is None: return "-"
    if isinstance(v, bool): return "true" if v else "false"
    return str(v)
for n in range(cycles + 1):
    e, nbytes = ends.get(n, {}), sbytes if n == 0 else dbytes
    path, bad = os.path.join(tld, "pass-%d.json" % n), []
    try:
        o = json.load(open(path))
        t = o["t_us"]
        if not o["whole"] or o["first_step"] != 0: bad.append("not-whole")
        if o["pass_bytes"] != nbytes: bad.append("pass_bytes=%d" % o["pass_bytes"])
        if o["step_bytes"] % bs or o["step_bytes"] * o["steps"] > nbytes or \
           o["step_bytes"] * (o["steps"] + 1) <= nbytes: bad.append("steps")
        if len(t) != o["steps"] + 1 or t[0] != 0: bad.append("t_us-length")
        if any(b < a for a, b in zip(t, t[1:])): bad.append("time-goes-back")
        if [o.get(k) for k in FIELDS] != [e.get(k) for k in FIELDS]:
            bad.append("estimate-not-the-event's")
    except (OSError, ValueError, KeyError, TypeError) as x:
        bad.append(type(x).__name__)
    print(n, ",".join(bad) or "ok", *(s(e.get(k)) for k in FIELDS))
EOF
    die "reading the events and timelines failed"

while read -r n file knee cache inb postb avg; do
	if [ "$n" = 0 ]; then
		note "static fill: knee $knee, $avg B/s"
		assert_eq "static fill: timeline file whole and sound" ok "$file"
		assert_eq "static fill (all fast): no knee" "false -" "$knee $cache"
		continue
	fi
	note "pass $n: knee $knee, cache $cache B (X $X), $inb B/s in it (at most $FAST_MAX), $postb after (at most $SLOW_MAX), $avg over the pass"
	assert_eq "pass $n: timeline file whole and sound" ok "$file"
	assert_eq "pass $n: a knee" true "$knee"
	[ "$knee" = true ] || continue
	assert_within "pass $n: cache estimate, of X" "$cache" "$X" 5
	assert_le "pass $n: speed before the knee, at most block / DN (+ 1 %)" \
	    "${inb%.*}" $((FAST_MAX * 101 / 100))
	assert_le "pass $n: speed after the knee, at most half that before it" \
	    "${postb%.*}" $((${inb%.*} / 2))
	# after the knee: the slow part's bytes, at most block / (DN + DD),
	# and those of the fast part a knee found early counts there, as if
	# they took no time
	c=$((cache < X ? cache : X))
	assert_le "pass $n: speed after the knee, at most the slow part's block / (DN + DD) (+ $TICK_PCT %)" \
	    "${postb%.*}" $((SLOW_MAX * (100 + TICK_PCT) * (DBYTES - c) / (100 * (DBYTES - X))))
done <"$T/passes"
assert_eq "passes with a phase_end and a timeline" $((CYCLES + 1)) "$(wc -l <"$T/passes")"
finish
