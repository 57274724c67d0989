#!/bin/bash
# SNIA's steady-state rule and the recovery figures (README "The long
# tests") on a device that slows down and recovers on a known schedule: a
# memory-backed null_blk behind two device-mapper `delay` targets, one
# that holds every request D_FAST ms and one D_SLOW ms, and a `linear`
# device over the fast one; SLOW_AT s into the degradation run its table
# is swapped for one over the slow one, and back when the run is over
# (steady_schedule.py, which follows the checkpoint's step through the
# daemon's Status call). A delay target's own table is not swapped: its
# suspend lets requests through undelayed until its resume, a burst that
# put a second of up to twice the fast IOPS in the series after the
# slowdown. At queue depth 32 such a device completes 32 requests per D:
#   - the initial IOPS (the first round) is the fast device's, at most
#     32 / D_FAST (+ 2 %) and at least TCG_LOW of it;
#   - steady state is reached, at the end of the first window of five
#     rounds that lie wholly after the slowdown: (ceil(k / R) + 5) x R for
#     a slowdown in second k of the series, or one round later (the round
#     the swap lands in may carry its edge); k itself not before the
#     second SLOW_AT falls in and at most a second after the one the
#     swap's resume fell in (its time, plus the lag of the poll that saw
#     the run start);
#   - the steady IOPS is the slow device's, at most 32 / D_SLOW (+ 2 %) and
#     at least TCG_LOW of it;
#   - the same figures computed here from the per-second series on their
#     own (rounds of R s, five in a window, range within 20 % of the mean,
#     fitted line within 10 %) are the daemon's;
#   - no second of the series holds more than the fast device can do;
#   - the recovery run after the idle time, on the recovered device, gives
#     back what the first round had: its shares of the initial IOPS within
#     REC_TOL of 1;
#   - nothing found bad by the checks after the runs.
# R (degrade_round) is 3 s rather than SNIA's 60 s, so that the schedule
# fits in a minute; the rule and its code are the same. SLOW_AT leaves the
# fast device about three rounds and the swap up to six seconds before a
# fourth and a fifth would make a steady window of their own (the rule
# takes the first). It puts the swap's edge (the suspend waits for the
# fast device's held batch, the resume follows some 0.15 s later) at the end
# of the third round, so that the fourth is wholly slow: an edge in the
# fourth adds to it what may be a tenth of a round's IOPS.
# The batches: dm-delay releases the 32 requests of the queue together, so
# the device completes a batch of 32 every cycle (D plus the guest's timer
# tick and turn-around, 32 / IOPS), and a round of R s holds R / cycle
# batches, give or take one where the round's edges fall and one more
# where the per-second samples' edges fall: two rounds of a steady device
# differ by up to GRAIN = 2 x cycle / R of their mean. The prediction
# above holds while GRAIN, computed from the measured steady IOPS, leaves
# at least half of the rule's 20 % to the guest's timers and the host (a
# late batch is lost time: 10 % of a round is 0.3 s); the test checks
# that. At D_SLOW = 200 ms a round held 15 batches and GRAIN was 14 %: one
# batch late in one round made the window of five unsteady; at 96 ms it
# holds 28 and GRAIN is 7 %. D_FAST = D_SLOW / 4 as before, both whole
# ticks of the guest kernel's 4 ms (HZ 250), which dm-delay rounds up to.
# run: serial
# (tests/lib/jobs.sh; figures against a device's delay)
. "$(dirname "$0")/lib.sh"

D_FAST=24 D_SLOW=96	# ms each request is held, before and after
SLOW_AT=8.5 R=3 DUR=33	# s: the slowdown, the round, the run
TCG_LOW=0.6		# the guest's CPU and timers: at least this of 32 / D
REC_TOL=0.25
SPAN=$((48 << 20)) BS=$((1 << 20))
ST=$T/state
S=$ST/s/state CK=$ST/s/checkpoints.jsonl

dmsetup targets | grep -q '^delay ' || modprobe dm-delay ||
    die "no dm-delay target (tests/vm/mkinitramfs.sh packs dm-delay)"
nullb_make nbs $((SPAN >> 20)) irqmode=0
dm_create sst_fast "0 $((SPAN / 512)) delay $NBDEV 0 $D_FAST"
dm_create sst_slow "0 $((SPAN / 512)) delay $NBDEV 0 $D_SLOW"
table() { echo "0 $((SPAN / 512)) linear /dev/mapper/sst_$1 0"; }
dm_create sst "$(table fast)"
DEV=/dev/mapper/sst

write_conf "$T/s.conf" "$ST" <<EOC
[drive:s]
device = $DEV
serial = none
span = $((SPAN >> 20))M
block_size = $((BS >> 10))k
static_fraction = 0.25
trim = no
idle = 0
cycles = 1
checkpoint = full
checkpoint_probes = rand-read-4k-qd1
probe_seconds = 1s
probe_ramp = 0s
full_checkpoint_tests = degrade,recovery
degrade_duration = ${DUR}s
degrade_round = ${R}s
gc_idle = 2s
recovery_duration = 6s
EOC
start_ssdt "$T/d.log" -c "$T/s.conf" --oneshot
python3 "$GUEST_DIR/steady_schedule.py" "$ST.sock" s sst \
    "$(table slow)" "$(table fast)" "$SLOW_AT" 400 >"$T/sched.txt" 2>&1 ||
    { show_file "$T/sched.txt"; die "the device's schedule was not kept"; }
show_file "$T/sched.txt"
wait_pid "$SSDT_PID" 300
assert_rc "--oneshot with the degradation and recovery runs" 0 "$RC" "$T/d.log"
assert_eq "no verify error" 0 "$(errors_sum "$S")"
LATE=$(awk '$1 == "late" { print $2 }' "$T/sched.txt")
SLOWS=$(awk '$1 == "slow" { print $2 }' "$T/sched.txt")

# one line: the daemon's figures, then those computed here, then k, the
# recovery shares, the rounds and the first wholly slow window's range
python3 - "$CK" "$ST/s/series" "$R" <<'EOF' >"$T/fig" || die "reading the lines and the series failed"
import json, math, os, sys
ck, sdir, R = sys.argv[1], sys.argv[2], int(sys.argv[3])
L = {o["probe"]: o for o in map(json.loads, open(ck))}
d, rec = L["degrade"], L["recover-idle"]
y = json.load(open(os.path.join(sdir, d["series"])))["iops"]
rounds = [sum(y[i * R:(i + 1) * R]) / R for i in range(len(y) // R)]
at = None
for i in range(len(rounds) - 4):
    w = rounds[i:i + 5]
    m = sum(w) / 5
    slope = sum((j - 2) * (v - m) for j, v in enumerate(w)) / 10
    if max(w) - min(w) <= 0.2 * m and abs(slope) * 4 <= 0.1 * m:
        at, mean = (i + 5) * R, m
        break
half = (y[0] + min(y)) / 2
k = next(i for i, v in enumerate(y) if v < half)
# the range of the first window of five wholly slow rounds, of its mean
w = rounds[-(-k // R):-(-k // R) + 5]
spread = (max(w) - min(w)) / (sum(w) / len(w)) if len(w) == 5 else -1
print(d["round_seconds"], d["initial_iops"], str(d["steady"]).lower(),
      d.get("steady_at_seconds", "-"), d.get("steady_iops", "-"),
      rounds[0], "-" if at is None else at, "-" if at is None else mean,
      k, rec["first_share"], rec["all_share"], len(y),
      ",".join("%.0f" % v for v in rounds), "%.3f" % spread,
      ",".join("%d:%.0f" % (i, y[i]) for i in range(max(0, k - 4),
                                                   min(len(y), k + 3))),
      "%.0f" % max(y))
EOF
read -r RND INIT STEADY AT SIOPS MYINIT MYAT MYSIOPS K FSHARE ASHARE N ROUNDS SPREAD SECS YMAX <"$T/fig"
GRAIN=$(awk -v r=$R -v i="$SIOPS" 'BEGIN { printf "%.3f", (i > 0 ? 2 * 32 / (r * i) : 1) }')
note "the rounds' IOPS: $ROUNDS; the first window of five wholly slow rounds: range $SPREAD of its mean (the batches' GRAIN $GRAIN, the rule's limit 0.2)"
note "the seconds around the slowdown (second:IOPS): $SECS"
note "degradation run: $N s, rounds of $RND s; initial $INIT IOPS, steady $STEADY at $AT s, $SIOPS IOPS; here: initial $MYINIT, steady at $MYAT s, $MYSIOPS IOPS; slow from second $K; recovery shares $FSHARE, $ASHARE"
FASTMAX=$((32000 / D_FAST)) SLOWMAX=$((32000 / D_SLOW))
assert_eq "the line's round" "$R" "$RND"
assert_ge "the series: a second per second of the run" "$N" $((DUR - 1))
assert_le "initial IOPS: at most 32 / D_FAST (+ 2 %)" "${INIT%.*}" $((FASTMAX * 102 / 100))
assert_ge "initial IOPS: at least $TCG_LOW of 32 / D_FAST" "${INIT%.*}" \
    "$(awk -v m=$FASTMAX -v f=$TCG_LOW 'BEGIN { printf "%d", m * f }')"
assert_eq "steady state reached" true "$STEADY"
assert_le "no second of the series above what the fast device can do (32 / D_FAST + 10 %)" \
    "$YMAX" $((FASTMAX * 110 / 100))
awk -v g="$GRAIN" 'BEGIN { exit !(g != "" && g + 0 <= 0.1) }' &&
    pass_check "the batches: two slow rounds differ by up to GRAIN $GRAIN of their mean, at most half the rule's 0.2" ||
    fail "the batches: GRAIN $GRAIN (2 x 32 / (R x steady IOPS)) over half the rule's 0.2: rounds too coarse for the prediction"
assert_ge "the slowdown in the series: not before the second of SLOW_AT ($SLOW_AT s)" "$K" "${SLOW_AT%.*}"
assert_le "the slowdown in the series: the second after the resume's ($SLOWS s + the poll's lag $LATE s) at most" \
    "$K" "$(awk -v s="$SLOWS" -v l="$LATE" 'BEGIN { printf "%d", int(s + l) + 1 }')"
WANT=$(( ((K + R - 1) / R + 5) * R ))
if [ "$AT" = "$WANT" ] || [ "$AT" = $((WANT + R)) ]; then
	pass_check "steady at $AT s: the end of the first window of five slow rounds ($WANT s, or a round later)"
else
	fail "steady at $AT s, not $WANT s (or $((WANT + R))): the slowdown was in second $K"
fi
assert_le "steady IOPS: at most 32 / D_SLOW (+ 2 %)" "${SIOPS%.*}" $((SLOWMAX * 102 / 100))
assert_ge "steady IOPS: at least $TCG_LOW of 32 / D_SLOW" "${SIOPS%.*}" \
    "$(awk -v m=$SLOWMAX -v f=$TCG_LOW 'BEGIN { printf "%d", m * f }')"
assert_within "initial IOPS: the first round of the series" "$INIT" "$MYINIT" 0.01
assert_eq "steady at: as computed here from the series" "$MYAT" "$AT"
assert_within "steady IOPS: as computed here from the series" "$SIOPS" "$MYSIOPS" 0.01
for f in "first_share $FSHARE" "all_share $ASHARE"; do
	set -- $f
	awk -v v="$2" -v t=$REC_TOL 'BEGIN { exit !(v >= 1 - t && v <= 1 + t) }' &&
	    pass_check "recovery $1 $2: the recovered device gives back the initial IOPS (within $REC_TOL)" ||
	    fail "recovery $1 $2: not within $REC_TOL of 1"
done
finish
