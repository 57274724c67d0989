#!/bin/bash
# A drive that loses flushed writes at some power cuts and nothing at
# others, across the write passes of several cycles: each loss is a
# lost_flush once, at the cut that lost it, never again while no pass has
# written the block since; a loss of a block lost before and written
# again, or of another block, is a new one. A file target, order =
# sequential, static_fraction = 0.25 (block = S + item), queue depth 1,
# cuts asked for by ssdctl powercut. The command "cuts the power" by
# moving the file away; when told to lie it also blanks one block (the
# drive lost a write a completed flush covered):
#   cut 1 (cycle 1, lie "flushed": the last block below the flushed
#         position F the state records, asked once Status shows a flush
#         in the pass, about half way: the next pass needs long to come
#         back to it):
#         lost_flush 1, block S+F-1, expected generation 1
#   cut 2 (honest, the next write pass it finds): lost_flush 0 (block
#         S+F-1 is the loss of cut 1, found again)
#   cut 3 (lie "static": static block 5, written and flushed by the
#         static pass): lost_flush 1, expected generation 0
#   cut 4 (cycle c >= 2, lie "last": the last block of the span, written
#         and flushed by cycle c-1's pass, which cycle c's pass has not
#         written yet whatever the moment of the cut): lost_flush 1,
#         expected generation c-1; block 5 is cut 3's loss: not again
#   cut 5 (honest, asked at once after cut 4's verify): lost_flush 0
#   the state: errors.lost_flush 3, power.cuts 5
# run: heavy
# (write passes at queue depth 1 on the host's disk, for over a minute)
. "$(dirname "$0")/lib.sh"
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}

BS=4096
SIZE_MB=384
SIZE=$((SIZE_MB * 1024 * 1024))
NBLK=$((SIZE / BS))
SB=$((NBLK / 4))
S=$T/state/d/state
EV=$T/state/d/events.jsonl
SOCK=$T/state.sock

cat >"$T/cut" <<EOF
#!/bin/sh
echo "\$1 \$2 \$3" >>"$T/cmd.log"
case \$1 in
off)	mv "$T/d.img" "$T/d.img.off"
	if [ -e "$T/lie" ]; then
		how=\$(cat "$T/lie")
		rm -f "$T/lie"
		f=\$(awk '\$1 == "position" { print \$2 }' "$S")
		sb=\$(awk '\$1 == "static_blocks" { print \$2 }' "$S")
		case \$how in
		flushed) b=\$((sb + f - 1)) ;;
		static)	b=5 ;;
		last)	b=$((NBLK - 1)) ;;
		esac
		echo "\$how \$f \$b" >>"$T/lied"
		dd if=/dev/zero of="$T/d.img.off" bs=$BS seek=\$b \\
		    count=1 conv=notrunc 2>/dev/null
	fi ;;
on)	mv "$T/d.img.off" "$T/d.img" ;;
esac
exit 0
EOF
chmod +x "$T/cut"

write_conf "$T/d.conf" "$T/state" <<EOF
[drive:d]
checkpoint = off
device = $T/d.img
size = ${SIZE_MB}M
block_size = 4k
order = sequential
static_fraction = 0.25
queue_depth = 1
trim = no
cycles = 3
power_cut_command = $T/cut
power_cut_timeout = 20s
EOF

# power_cut WHAT N [LIE]: ask for a cut (the command lies as LIE says), wait for
# its verify (power.cuts = N, no verify owed)
power_cut() {
	rm -f "$T/lie"
	[ -n "${3:-}" ] && echo "$3" >"$T/lie"
	"$CTL" -s "$SOCK" powercut d >"$T/ctl.out" 2>&1 ||
		fail "$1: ssdctl powercut: $(cat "$T/ctl.out")"
	power_cut_wait "$1" "$2"
}

# power_cut_wait WHAT N: wait for cut N's verify
power_cut_wait() {
	wait_state "$S" "$SSDT_PID" 180 "(int(s[\"power.cuts\"]) == $2 and
	    int(s[\"power.verify\"]) == 0)" || die "$1: the cut never ended"
}

start_ssdt "$T/d.log" -c "$T/d.conf"
# cut 1: asked in cycle 1's write pass once Status shows a flush in it (the
# periodic flush, once a second: the flushed position is past the pass's
# first block), at once, over the socket: Status moves once a second and
# a pass takes about 3 s, so a cut asked through ssdctl at some progress
# could reach the daemon after the pass (it then waits for cycle 2's)
echo flushed >"$T/lie"
python3 - "$SOCK" 240 "$ROOT/tests/control" <<'PY' || die "cut 1 not asked in cycle 1's pass"
import sys, time
sys.path.insert(0, sys.argv[3])
import vl
sock, limit = sys.argv[1], float(sys.argv[2])
t0 = time.monotonic()
seen, f0 = [], None
while time.monotonic() - t0 < limit:
    try:
        d = vl.status(sock, "d")
    except Exception:
        d = None
    if d and d["phase"] == "write" and d["cycle"] == 1:
        if f0 is None:
            f0 = d["flushes"]
        elif d["flushes"] > f0:
            r = vl.call(sock, vl.IFACE + ".PowerCut", {"drive": "d"})
            if vl.is_error(r):
                sys.exit("PowerCut: %s" % r)
            sys.exit(0)
    if d:
        k = (d["phase"], d["cycle"], round(d["phase_progress"], 2),
             d["flushes"])
        if not seen or seen[-1] != k:
            seen = (seen + [k])[-12:]
    if d and d["cycle"] > 1:
        sys.exit("cycle 1's write pass ended unseen: %s" % seen)
    time.sleep(0.005)
sys.exit("timeout")
PY
power_cut_wait "cut 1" 1
power_cut "cut 2" 2
power_cut "cut 3" 3 static
wait_state "$S" "$SSDT_PID" 300 "int(s[\"cycle\"]) >= 2" ||
	die "never saw cycle 2"
power_cut "cut 4" 4 last
power_cut "cut 5" 5
wait_state "$S" "$SSDT_PID" 600 "s[\"run\"] in (\"finished\", \"failed\")" ||
	die "the run did not end"
kill_and_reap TERM "$SSDT_PID"

mapfile -t LIED <"$T/lied"
mapfile -t CUTS < <(ev_query "$EV" 0 cycle,position,flushed_position event=power_cut)
mapfile -t VER < <(ev_query "$EV" 0 lost_flush event=power_loss_verified)
for i in 0 1 2 3 4; do
	note "cut $((i + 1)): cycle, item, flushed: ${CUTS[$i]:-}; lost: ${VER[$i]:-}"
done
note "lies (how, flushed position, block): ${LIED[*]}"
read -r _ F B1 <<<"${LIED[0]:-- - -}"
read -r _ _ B3 <<<"${LIED[1]:-- - -}"
read -r _ _ B4 <<<"${LIED[2]:-- - -}"
read -r c1 _ f1 <<<"${CUTS[0]:-- - -}"
read -r c4 _ _ <<<"${CUTS[3]:-- - -}"
read -r c5 _ _ <<<"${CUTS[4]:-- - -}"
assert_eq "three lies" 3 "${#LIED[@]}"
assert_eq "cut 1 in cycle 1, at the flushed position the command saw" \
    "1 $F" "$c1 $f1"
assert_eq "the blocks blanked" "$((SB + F - 1)) 5 $((NBLK - 1))" "$B1 $B3 $B4"
assert_le "cut 4 in cycle 2 or later" 2 "$c4"
assert_eq "lost_flush found by each verify" "1 0 1 1 0" "${VER[*]}"
assert_eq "errors.lost_flush" 3 "$(state_get "$S" errors.lost_flush)"
assert_eq "power.cuts" 5 "$(state_get "$S" power.cuts)"
assert_eq "the lost_flush findings: block, expected generation" \
    "$((B1 * BS)) 1 1|$((B3 * BS)) 1 0|$((B4 * BS)) 1 $((c4 - 1))" \
    "$(ev_query "$EV" 0 offset,blocks,expected_generation event=verify_error class=lost_flush | paste -sd'|')"
# a lost block found again before a pass wrote it: unwritten, expecting
# the generation that last wrote it, never lost_flush again
assert_eq "static block 5 after cut 3: unwritten, generation 0" "" \
    "$(ev_query "$EV" 0 class,expected_generation event=verify_error offset=$((B3 * BS)) |
      grep -v '^lost_flush 0$' | grep -v '^unwritten 0$')"
if [ "$c5" = "$c4" ]; then
	# cut 5 came before the pass wrote the last block again
	assert_eq "the last block found again after cut 5" \
	    "unwritten $((c4 - 1))" \
	    "$(ev_query "$EV" 0 class,expected_generation event=verify_error offset=$((B4 * BS)) | sed -n 2p)"
else
	note "cut 5 came in cycle $c5, after cycle $c4's pass wrote block $B4"
fi
rm -f "$T/d.img" "$T/d.img.off"
finish
