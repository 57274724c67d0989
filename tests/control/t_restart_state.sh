#!/bin/bash
# t_restart_state: the state an operator sets survives a daemon restart
# (SIGTERM and SIGKILL): a paused drive stays paused, a stopped one stopped,
# until resumed/started. Also: a follower sees the daemon go; a second
# daemon on the same socket does not take it over; a stale socket file left
# by SIGKILL does not stop the next start.
. "$(dirname "$0")/lib.sh"

log "drive states across restarts"
write_conf
start_daemon

check "a writes" wait_for 15 written_past a 0
check "b writes" wait_for 15 written_past b 0

# A second daemon on the same state directory refuses to start, naming
# the first; on another state directory but the same socket it refuses
# too, and leaves the socket alone.
SSDTORTURE_LOG=stderr timeout 10 "$SSDTORTURED" -c "$CONF" 2>"$T/second.log"
rc=$?
assert_eq "a second daemon on the same state directory does not run" 1 "$rc"
assert_match "... and names the owner" "in use by pid $DAEMON_PID" \
    "$(cat "$T/second.log")"
sed "s|^state_dir = .*|state_dir = $T/state2|" "$CONF" >"$T/other.conf"
SSDTORTURE_LOG=stderr timeout 10 "$SSDTORTURED" -c "$T/other.conf" \
    2>"$T/second.log"
rc=$?
assert_ne "a second daemon on the same socket does not run" 0 "$rc"
assert_ne "... nor hang" 124 "$rc"
assert_match "... and says another daemon answers" "another ssdtortured answers" \
    "$(cat "$T/second.log")"
check "the first daemon still answers" socket_answers
check "... on the same socket file" test -S "$SOCK"

out=$(vcall io.ssdtorture.Manager.Pause '{"drive":"a"}')
assert_eq "Pause a" '{"parameters": {}}' "$out"
out=$(vcall io.ssdtorture.Manager.Stop '{"drive":"b"}')
assert_eq "Stop b" '{"parameters": {}}' "$out"
assert_eq "a paused" paused "$(drive_field a state)"
assert_eq "b stopped" stopped "$(drive_field b state)"
wa=$(drive_field a host_bytes_written)
wb=$(drive_field b host_bytes_written)

# a follower of a's events sees the daemon go
"$SSDCTL" -s "$SOCK" events a -n 1 -f >"$T/follow.out" 2>"$T/follow.err" &
fpid=$!
BG_PIDS="$BG_PIDS $fpid"
has_line() { [ -s "$T/follow.out" ]; }
check "follower started" wait_for 5 has_line

# ------------------------------------------------------------ SIGTERM
t0=$(date +%s%N)
stop_daemon
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
assert_eq "SIGTERM: exit status 0" 0 "$DAEMON_RC"
check "SIGTERM: gone within 5 s (${ms} ms)" test "$ms" -le 5000
check "SIGTERM: socket file removed" test ! -e "$SOCK"
follower_gone() { ! kill -0 "$fpid" 2>/dev/null; }
check "the follower ends when the daemon goes" wait_for 5 follower_gone
wait "$fpid" 2>/dev/null
frc=$?
assert_eq "the follower exits 1" 1 "$frc"
assert_match "the follower says the connection closed" "connection closed" \
    "$(cat "$T/follow.err")"

start_daemon
assert_eq "after restart: a still paused" paused "$(drive_field a state)"
assert_eq "after restart: b still stopped" stopped "$(drive_field b state)"
assert_eq "after restart: a's reason kept" "paused by operator" "$(drive_field a reason)"
assert_eq "after restart: b's reason kept" "stopped by operator" "$(drive_field b reason)"
ra=$(drive_field a host_bytes_written)
rb=$(drive_field b host_bytes_written)
check "after restart: a's counter did not go back ($ra >= $wa)" test "$ra" -ge "$wa"
check "after restart: b's counter did not go back ($rb >= $wb)" test "$rb" -ge "$wb"
assert_match "after restart: a's log has a resume event saying paused" \
    '"event":"resume".*"message":"resuming [^"]*: paused' \
    "$(tail -n 3 "$T/state/a/events.jsonl")"
# nothing runs meanwhile: the counters stay put (give it a second and a bit)
sleep 1.5
assert_eq "paused a does not write after restart" "$ra" "$(drive_field a host_bytes_written)"
assert_eq "stopped b does not write after restart" "$rb" "$(drive_field b host_bytes_written)"
assert_eq "and stays paused" paused "$(drive_field a state)"

ioa=$(drive_io a)
iob=$(drive_io b)
out=$(vcall io.ssdtorture.Manager.Resume '{"drive":"a"}')
assert_eq "Resume a" '{"parameters": {}}' "$out"
out=$(vcall io.ssdtorture.Manager.Start '{"drive":"b"}')
assert_eq "Start b" '{"parameters": {}}' "$out"
assert_eq "a running" running "$(drive_field a state)"
assert_eq "b running" running "$(drive_field b state)"
check "a does I/O again" wait_for 30 io_past a "$ioa"
check "b does I/O again" wait_for 30 io_past b "$iob"

# ------------------------------------------------------------ SIGKILL
# The running states were checkpointed when set: they survive a SIGKILL.
out=$(vcall io.ssdtorture.Manager.Pause '{"drive":"b"}')
assert_eq "Pause b" '{"parameters": {}}' "$out"
kill -KILL "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null
DAEMON_PID=
check "SIGKILL: the socket file stays behind" test -S "$SOCK"
start_daemon
check "a stale socket file does not stop the next start" socket_answers
assert_eq "after SIGKILL: a running" running "$(drive_field a state)"
assert_eq "after SIGKILL: b paused" paused "$(drive_field b state)"
ka=$(drive_io a)
check "after SIGKILL: a does I/O" wait_for 30 io_past a "$ka"
out=$(vcall io.ssdtorture.Manager.Resume '{"drive":"b"}')
assert_eq "Resume b" '{"parameters": {}}' "$out"
assert_eq "b running" running "$(drive_field b state)"

stop_daemon
assert_eq "daemon exit status" 0 "$DAEMON_RC"

# ------------------------------------------------------------ not a socket
# Only a stale socket may be replaced: a regular file that happens to be at
# the socket path (a mistyped "socket =") must survive, and the daemon must
# not start on it.
echo "precious data" >"$SOCK"
SSDTORTURE_LOG=stderr timeout 10 "$SSDTORTURED" -c "$CONF" 2>"$T/notsock.log" &
npid=$!
BG_PIDS="$BG_PIDS $npid"
ended() { ! kill -0 "$npid" 2>/dev/null; }
wait_for 3 ended
if ended; then
	wait "$npid"
	rc=$?
else
	rc=running
	kill -TERM "$npid"
	wait "$npid" 2>/dev/null
fi
check "a regular file at the socket path is not replaced" test -f "$SOCK"
assert_eq "... nor changed" "precious data" "$(cat "$SOCK" 2>/dev/null)"
assert_ne "... and the daemon does not run on it" running "$rc"
finish
