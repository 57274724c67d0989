#!/bin/bash
# A drive that loses one flushed write at a power cut, then cuts that lose
# nothing, across the write passes of two cycles: the loss is a lost_flush
# once, never again. A file target, order = sequential, static_fraction =
# 0 (item = block), queue depth 1, cuts asked for by ssdctl powercut. The
# command "cuts the power" by moving the file away; at the first cut only
# it also blanks the last block below the flushed position the state
# records (the drive lies: it lost a write a completed flush covered).
#   cut 1 (cycle 1, flushed position F): the verify after it finds
#         lost_flush at block F-1, expected generation 1, and nothing else
#   cut 2 (cycle 1 again, further on): lost_flush 0 (block F-1 is the
#         same loss, written before the verify of cut 1 looked at it)
#   cycle 1's verify: block F-1 unwritten, expected generation 1
#   cut 3 (cycle 2, before its pass reaches F-1): lost_flush 0 (nothing
#         cycle 2 flushed before the cut is lost); block F-1 unwritten,
#         expected generation 1 (the pass that last wrote it), not 2
#   the state: errors.lost_flush 1, power.cuts 3
. "$(dirname "$0")/lib.sh"
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}

BS=4096
SIZE=$((512 * 1024 * 1024))
NBLK=$((SIZE / BS))
S=$T/state/d/state
EV=$T/state/d/events.jsonl
SOCK=$T/state.sock

cat >"$T/cut" <<EOF
#!/bin/sh
echo "\$1 \$2 \$3" >>"$T/cmd.log"
case \$1 in
off)	mv "$T/d.img" "$T/d.img.off"
	if [ -e "$T/lie" ]; then
		rm -f "$T/lie"
		f=\$(awk '\$1 == "position" { print \$2 }' "$S")
		echo "\$f" >"$T/lied_at"
		dd if=/dev/zero of="$T/d.img.off" bs=$BS seek=\$((f - 1)) \\
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
size = 512M
block_size = 4k
order = sequential
static_fraction = 0
queue_depth = 1
trim = no
cycles = 2
power_cut_command = $T/cut
power_cut_timeout = 20s
EOF

# cut WHAT N: ask for a cut, wait for its verify (power.cuts = N, no
# verify owed)
cut() {
	"$CTL" -s "$SOCK" powercut d >"$T/ctl.out" 2>&1 ||
		fail "$1: ssdctl powercut: $(cat "$T/ctl.out")"
	wait_state "$S" "$SSDT_PID" 120 "(int(s[\"power.cuts\"]) == $2 and
	    int(s[\"power.verify\"]) == 0)" || die "$1: the cut never ended"
}

start_ssdt "$T/d.log" -c "$T/d.conf"
wait_state "$S" "$SSDT_PID" 120 "(s[\"phase\"] == \"write\" and
    int(s[\"position\"]) > $((NBLK / 4)))" ||
	die "never saw cycle 1's pass a quarter through"
touch "$T/lie"
cut "cut 1" 1
F=$(cat "$T/lied_at" 2>/dev/null)
[ -n "$F" ] || die "the command did not lie"
note "cut 1 at flushed position $F"
# cut 2: the pass goes on from F; its next flushed position is past F-1
wait_state "$S" "$SSDT_PID" 60 "(s[\"phase\"] == \"write\" and
    int(s[\"cycle\"]) == 1)" || die "cycle 1's pass did not go on"
cut "cut 2" 2
wait_state "$S" "$SSDT_PID" 300 "(s[\"phase\"] == \"write\" and
    int(s[\"cycle\"]) == 2)" || die "never saw cycle 2's pass"
cut "cut 3" 3
wait_state "$S" "$SSDT_PID" 600 "s[\"run\"] in (\"finished\", \"failed\")" ||
	die "the run did not end"
kill_and_reap TERM "$SSDT_PID"

mapfile -t CUTS < <(ev_query "$EV" 0 cycle,position,flushed_position event=power_cut)
mapfile -t VER < <(ev_query "$EV" 0 lost_flush event=power_loss_verified)
for i in 0 1 2; do
	note "cut $((i + 1)): cycle, item, flushed: ${CUTS[$i]:-}; lost: ${VER[$i]:-}"
done
read -r c1 _ f1 <<<"${CUTS[0]:-- - -}"
read -r c2 p2 f2 <<<"${CUTS[1]:-- - -}"
read -r c3 p3 _ <<<"${CUTS[2]:-- - -}"
assert_eq "the cycles of the cuts" "1 1 2" "$c1 $c2 $c3"
assert_eq "cut 1's flushed position is where the command lied" "$F" "$f1"
# what the checks below need: cut 2 flushed past the lost block, cut 3
# came before cycle 2's pass rewrote it
assert_le "cut 2 flushed at or past F" "$F" "$f2"
assert_le "cut 3 before cycle 2's pass reached F-1" "$p3" $((F - 2))
assert_eq "lost_flush found by each verify" "1 0 0" "${VER[*]}"
assert_eq "errors.lost_flush" 1 "$(state_get "$S" errors.lost_flush)"
assert_eq "power.cuts" 3 "$(state_get "$S" power.cuts)"
assert_eq "the lost_flush finding" "$(((F - 1) * BS)) 1 1" \
    "$(ev_query "$EV" 0 offset,blocks,expected_generation event=verify_error class=lost_flush)"
# every finding is block F-1: lost_flush once, then unwritten, expected
# generation 1 (cycle 1's verify, the verify after cut 2 and after cut 3,
# cycle 2 had not reached it), and cycle 2's verify after its pass wrote
# it: nothing
assert_eq "the findings" "lost_flush $(((F - 1) * BS)) 1|unwritten $(((F - 1) * BS)) 1|unwritten $(((F - 1) * BS)) 1|unwritten $(((F - 1) * BS)) 1" \
    "$(ev_query "$EV" 0 class,offset,expected_generation event=verify_error | paste -sd'|')"
rm -f "$T/d.img"
finish
