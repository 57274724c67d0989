#!/bin/bash
# A device that stops answering, then answers again, without device-mapper
# (this kernel has none): the target is a file on a FUSE file system
# (stallfs.py) whose reads and writes wait while a flag file exists.
#   - no I/O completes for io_timeout: the drive fails, not sooner;
#   - the device answers again and `ssdctl start` resumes the run: the
#     stall watchdog applies again (a second stall fails it again);
#   - `ssdctl start` while the worker is still stuck: a new worker takes
#     over, is watched too, and the old one's late completion counts
#     nothing twice (counters plausible and never going back);
#   - SIGTERM then stops promptly with a checkpoint that --verify finds
#     true.
# run: timed
# (tests/lib/jobs.sh; the bound: the stall found within io_timeout + 7 s, the exit within 5 s)
. "$(dirname "$0")/lib.sh"
need_root
SSDCTL=${SSDCTL:-$ROOT/ctl/ssdctl}
[ -x "$SSDCTL" ] || die "$SSDCTL is missing (make -C $ROOT)"

SIZE=$((16 * 1024 * 1024)) BS=4096 FRAC=0.25 TIMEOUT=5
layout $SIZE $BS $FRAC
MNT=$T/mnt FLAG=$T/stall
ST=$T/state S=$T/state/a/state EV=$T/state/a/events.jsonl
SOCK=$ST.sock

truncate -s $SIZE "$T/back.img"
stallfs "$T/back.img" "$MNT" "$FLAG"

write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
checkpoint = off
device = $MNT/disk
size = 16M
block_size = 4k
order = random
queue_depth = 4
static_fraction = $FRAC
trim = no
idle = 0
cycles = 0
io_timeout = ${TIMEOUT}s
EOF

ctl() { timeout 10 "$SSDCTL" -s "$SOCK" "$@"; }
# the drive's bytes written now (the live counter, not the checkpoint's)
written_now() {
	ctl --json status | python3 -c \
	    'import json, sys; print(json.load(sys.stdin)["drives"][0]["host_bytes_written"])'
}

# answered N : wait (10 s) for the Nth "answered again" in the log: the
# job given up at a stall ended once the device answered.
answered() {
	local i
	for i in $(seq 1 200); do
		[ "$(grep -c "answered again" "$T/d.log")" -ge "$1" ] && return 0
		sleep 0.05
	done
	return 1
}

# stall LABEL MIN_S [T0] : stop the device; the drive must fail after MIN_S
# (io_timeout) and within 7 s more, for the stall; counted from T0 (ms)
# when the device was stuck before (a start while it was).
# Before a stop of a device that answers, the write rate (RMAX: the
# fastest seen) for the bound on what the drive writes again.
RMAX=0
stall() {
	local t0 ms h0 h1
	if [ ! -e "$FLAG" ]; then
		h0=$(written_now) t0=$(date +%s%3N)
		sleep 1
		h1=$(written_now) ms=$(($(date +%s%3N) - t0))
		[ -n "$h0" ] && [ -n "$h1" ] &&
		    RMAX=$(awk -v a="$h0" -v b="$h1" -v ms="$ms" -v m="$RMAX" \
			'BEGIN { r = (b - a) * 1000 / ms; printf "%d", (r > m ? r : m) }')
	fi
	touch "$FLAG"
	t0=${3:-$(date +%s%3N)}
	if wait_state "$S" "$SSDT_PID" $((TIMEOUT + 15)) 's["run"] != "running"'; then
		ms=$(($(date +%s%3N) - t0))
		note "$1: $(state_get "$S" run) after $ms ms"
		assert_ge "$1: failed no sooner than io_timeout (ms)" "$ms" $(($2 * 1000 - 200))
		assert_le "$1: failed within io_timeout + 7 s (ms)" "$ms" $((TIMEOUT * 1000 + 7000))
	else
		fail "$1: still running $((TIMEOUT + 15)) s after the device stopped answering"
	fi
	assert_eq "$1: run" failed "$(state_get "$S" run)"
	assert_contains "$1: reason" "$(state_get "$S" reason)" "stopped answering"
}

# start_again LABEL : ssdctl start; the run must go on writing.
start_again() {
	local h
	h=$(state_get "$S" host_bytes_written)
	ctl start a >"$T/start.out" 2>&1
	assert_rc "$1: ssdctl start" 0 $? "$T/start.out"
	if wait_state "$S" "$SSDT_PID" 30 \
	    "s[\"run\"] == \"running\" and s[\"host_bytes_written\"] > $h + 1048576"; then
		pass_check
	else
		fail "$1: no progress after the start"
	fi
	ctl status >"$T/status" 2>&1
	assert_contains "$1: ssdctl status says running" "$(grep '^a ' "$T/status")" running
}

start_ssdt "$T/d.log" -c "$T/a.conf"
P=$SSDT_PID
monitor_state "$S" $P >"$T/monitor.out" 2>&1 &
MON=$!
wait_state "$S" $P 60 's["host_bytes_written"] > 2 * 1048576' ||
    die "the drive never got going"

log "the device stops answering"
stall first $TIMEOUT
assert_eq "failed events" 1 "$(ev_count "$EV" 0 event=failed)"
ctl status >"$T/status" 2>&1
assert_rc "ssdctl status answers" 0 $? "$T/status"
assert_contains "ssdctl status says failed" "$(grep '^a ' "$T/status")" failed

log "it answers again; start: the watchdog applies again"
rm -f "$FLAG"
answered 1 || fail "the job given up never ended after the device answered"
start_again "after the first stall"
stall second $TIMEOUT
assert_eq "failed events" 2 "$(ev_count "$EV" 0 event=failed)"

log "start while the worker is still stuck: a new worker, watched too"
t_start=$(date +%s%3N)	# the new worker's I/O stalls from its start on
ctl start a >"$T/start.out" 2>&1
assert_rc "ssdctl start while stuck" 0 $? "$T/start.out"
assert_file_contains "the stuck worker is left behind" "$T/d.log" "left behind"
stall third $TIMEOUT "$t_start"
rm -f "$FLAG"
answered 2 || fail "the new worker's job never ended"
sleep 1		# the old worker's I/O completes too: it must count nothing
start_again "after the third stall"
if kill -0 $P 2>/dev/null; then pass_check; else fail "the daemon exited"; fi

log "SIGTERM: prompt, with a checkpoint"
from=$(events_mark "$EV" "$S")
kill -TERM $P
wait_exit $P 10
assert_rc "exit status" 0 "$RC" "$T/d.log"
if awk -v e="$ELAPSED" 'BEGIN { exit !(e <= 5.0) }'; then pass_check; else
	fail "took $ELAPSED s to exit (limit 5)"; fi
assert_eq "shutdown events" 1 "$(ev_count "$EV" "$from" event=shutdown)"
assert_eq "run at the stop" running "$(state_get "$S" run)"
wait $MON
assert_eq "counters never went back" 0 $?
grep -v '^samples' "$T/monitor.out" | head -n 5 | sed 's/^/  monitor: /'
# every byte counted was written once, but for what each stall makes the
# drive write again from the checkpoint: the blocks in flight (a window)
# and those written since the last completed cache flush the checkpoint
# could record (a flush a second, a checkpoint a second: at most 2 s of
# writes at the fastest rate: of a write pass, or measured before a stall)
H=$(state_get "$S" host_bytes_written)
C=$(state_get "$S" cycle)
R=$(ev_query "$EV" 0 bytes_per_sec event=phase_end what=write |
    awk -v m="$RMAX" '$1 > m { m = $1 } END { printf "%d", m }')
note "fastest write rate: $R bytes/s (before the stalls: $RMAX)"
assert_le "host_bytes_written fits the cycles done" "$H" \
    $((SBYTES + C * DBYTES + 3 * (1048576 + 2 * R)))

log "--verify: the checkpoint is what the device holds"
run_ssdt "$T/v.log" -c "$T/a.conf" --verify
assert_rc "--verify" 0 "$RC" "$T/v.log"
assert_eq "verify_error events" 0 "$(ev_count "$EV" 0 event=verify_error)"

if ev_valid "$EV"; then pass_check; else fail "malformed event lines"; fi
finish
