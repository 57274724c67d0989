#!/bin/bash
# A power cut after which the device comes back with another size: a loop
# device over a 256M file, detached at "off"; at "on" the file grows to
# 320M before it is attached again. The cut happened: it is counted and
# logged (a power_cut event); the drive is refused, the reason naming the
# size change (both sizes), and ssdctl status says "refused" while --json
# does not call the run failed. The size restored (losetup -c) and the
# drive started, the verify of the cut runs as after any cut: one cut, one
# loss, nothing flushed lost, the kept count bounded by the cut's item
# (every unflushed write kept, exactly), and no "whether the power went is
# not known". The daemon restarts between the refusal and the size's
# return: the state it saved at the refusal keeps the size at the cut and
# the cut counted, so the restarted daemon refuses the drive naming the
# size again, counts the cut no second time, and the start once the size
# is back runs the cut's verify.
. "$(dirname "$0")/lib.sh"
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
need_root

truncate -s 256M "$T/r.bin"
new_loop "$T/r.bin"
L=$LOOPDEV
cat >"$T/cut" <<EOF
#!/bin/sh
echo "\$1 \$2 \$3" >>"$T/cmd.log"
case \$1 in
off)	losetup -d $L ;;
on)	truncate -s 320M "$T/r.bin"
	losetup $L "$T/r.bin" ;;
esac
EOF
chmod +x "$T/cut"
write_conf "$T/r.conf" "$T/state" <<EOF
[drive:r]
checkpoint = off
device = $L
serial = none
block_size = 4k
order = random
queue_depth = 4
trim = no
cycles = 1
power_cut_command = $T/cut
power_cut_every = 1
power_cut_timeout = 20s
EOF
S=$T/state/r/state
EV=$T/state/r/events.jsonl
SOCK=$T/state.sock
start_ssdt "$T/r.log" -c "$T/r.conf"
for _ in $(seq 600); do
	[ "$(ev_count "$EV" 0 event=refused)" -ge 1 ] && break
	kill -0 "$SSDT_PID" 2>/dev/null || break
	sleep 0.1
done
assert_eq "the commands" "off r none|on r none" "$(paste -sd'|' "$T/cmd.log")"
assert_eq "refused once" 1 "$(ev_count "$EV" 0 event=refused)"
assert_match "the reason names the size change" \
    "came back with another size: 268435456 bytes before the cut, 335544320 now" \
    "$(ev_query "$EV" 0 reason event=refused)"
assert_eq "the cut logged" 1 "$(ev_count "$EV" 0 event=power_cut)"
read -r cuts pos fl unfl <<<"$(ev_query "$EV" 0 cuts,position,flushed_position,unflushed_blocks event=power_cut)"
assert_eq "the event counts it" 1 "$cuts"
"$CTL" -s "$SOCK" --json status r >"$T/st.json" || fail "status --json"
"$CTL" -s "$SOCK" status r >"$T/st.txt" || fail "status"
assert_eq "status --json: power_cuts, refused, not failed" "1 True running" \
    "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d = d["drives"][0] if "drives" in d else d
print(d["power_cuts"], d["refused"], d["state"])' "$T/st.json")"
assert_match "status: refused" "state: +refused" "$(cat "$T/st.txt")"
assert_eq "the state on disk counts the cut" 1 "$(state_get "$S" power.cuts)"
# a restart of the daemon, the size still changed
kill_and_reap TERM "$SSDT_PID"
start_ssdt "$T/r2.log" -c "$T/r.conf"
for _ in $(seq 600); do
	[ "$(ev_count "$EV" 0 event=refused)" -ge 2 ] && break
	kill -0 "$SSDT_PID" 2>/dev/null || break
	sleep 0.1
done
assert_eq "refused again after the restart" 2 "$(ev_count "$EV" 0 event=refused)"
assert_match "the reason still names the size change" \
    "came back with another size: 268435456 bytes before the cut, 335544320 now" \
    "$(ev_query "$EV" 0 reason event=refused | sed -n 2p)"
assert_eq "the cut logged once" 1 "$(ev_count "$EV" 0 event=power_cut)"
"$CTL" -s "$SOCK" --json status r >"$T/st.json" || fail "status --json"
assert_eq "status --json after the restart: power_cuts, refused" "1 True" \
    "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d = d["drives"][0] if "drives" in d else d
print(d["power_cuts"], d["refused"])' "$T/st.json")"
# the size back: the drive goes on, the cut's verify as for any cut
truncate -s 256M "$T/r.bin"
losetup -c "$L"
"$CTL" -s "$SOCK" start r >"$T/start.out" 2>&1
assert_rc "ssdctl start with the size back" 0 "$?" "$T/start.out"
wait_state "$S" "$SSDT_PID" 120 "(s[\"run\"] == \"finished\")" ||
	fail "the run did not finish"
kill_and_reap TERM "$SSDT_PID"
assert_eq "power.cuts" 1 "$(state_get "$S" power.cuts)"
assert_eq "power.losses" 1 "$(state_get "$S" power.losses)"
assert_eq "no cut under way" 0 "$(state_get "$S" power.cut_pending)"
assert_eq "the verify after it: nothing lost, every unflushed write kept" \
    "0 $unfl" "$(ev_query "$EV" 0 lost_flush,unflushed_kept event=power_loss_verified)"
assert_eq "power.unflushed_kept" "$unfl" "$(state_get "$S" power.unflushed_kept)"
assert_eq "no 'not known'" 0 "$(cat "$T/r.log" "$T/r2.log" |
    grep -c 'whether the power went is not known')"
assert_eq "the verify after the cut ran once" 1 \
    "$(ev_count "$EV" 0 event=power_loss_verified)"
note "cut at item $pos, flushed $fl, unflushed $unfl"
finish
