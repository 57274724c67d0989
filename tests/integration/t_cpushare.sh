#!/bin/bash
# The daemon's share of the CPUs (cpushare.c): leading a session of its
# own (as systemd starts it, or setsid), it weighs its autogroup as one
# process per drive: 8 drives at autogroup nice -9 (the kernel's weight
# nearest to 8 x nice 0's), a reload to 2 drives -3, and back to 0 with
# one; started in this test's session it leaves the session's autogroup
# as it was, 8 drives or not. Where autogroups are off, nothing is
# written and nothing said of it.
. "$(dirname "$0")/lib.sh"
need_root

ST=$T/state
# conf N: N file drives that write for as long as the daemon runs
conf() {
	local i
	for i in $(seq 1 "$1"); do
		printf '[drive:d%d]\ncheckpoint = off\ndevice = %s\n' "$i" \
		    "$T/d$i.img"
		printf 'size = 16M\nblock_size = 128k\ncycles = 0\n'
	done | write_conf "$T/c.conf" "$ST"
}
# start_leader LOG ARGS...: start_ssdt, the daemon leading a session of
# its own (setsid runs it in place: the test's children lead no group)
start_leader() {
	local d=$SSDT log=$1
	shift
	SSDT=setsid
	start_ssdt "$log" -w "$d" "$@"
	SSDT=$d
}
ag_nice() { awk '{ print $3 }' "/proc/$1/autogroup"; }
# wait_nice PID WANT: the autogroup's nice WANT within 10 s
wait_nice() {
	local i
	for i in $(seq 1 100); do
		[ "$(ag_nice "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
running() { wait_state "$ST/d$1/state" "$SSDT_PID" 30 \
    's["host_bytes_written"] > 0' || die "d$1 never wrote"; }

ON=$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo 0)
conf 8
if [ "$ON" != 1 ]; then
	note "autogroups are off here: the daemon must not touch them"
	start_leader "$T/off.log" -c "$T/c.conf"
	running 8
	kill -TERM "$SSDT_PID"
	wait_exit "$SSDT_PID" 10
	assert_rc "8 drives, autogroups off" 0 "$RC" "$T/off.log"
	assert_eq "nothing said of a CPU share" 0 \
	    "$(grep -c 'CPU share' "$T/off.log")"
	finish
fi

log "leading its own session: one process per drive"
start_leader "$T/lead.log" -c "$T/c.conf"
running 8
assert_eq "the daemon leads its session" "$SSDT_PID" \
    "$(ps -o sid= -p "$SSDT_PID" | tr -d ' ')"
wait_nice "$SSDT_PID" -9
assert_eq "8 drives: autogroup nice" -9 "$(ag_nice "$SSDT_PID")"
assert_file_contains "said in the log" "$T/lead.log" \
    "CPU share: 8 drives weigh as as many processes (autogroup nice -9)"
conf 2
kill -HUP "$SSDT_PID"
wait_nice "$SSDT_PID" -3
assert_eq "reload to 2 drives: autogroup nice" -3 "$(ag_nice "$SSDT_PID")"
conf 1
kill -HUP "$SSDT_PID"
wait_nice "$SSDT_PID" 0
assert_eq "reload to 1 drive: autogroup nice" 0 "$(ag_nice "$SSDT_PID")"
kill -TERM "$SSDT_PID"
wait_exit "$SSDT_PID" 10
assert_rc "the leader's run" 0 "$RC" "$T/lead.log"

log "in the test's session: its autogroup untouched"
rm -rf "$ST" "$T"/d*.img
conf 8
before=$(ag_nice $$)
start_ssdt "$T/shell.log" -c "$T/c.conf"
running 8
assert_eq "the daemon is in the test's session" \
    "$(ps -o sid= -p $$ | tr -d ' ')" "$(ps -o sid= -p "$SSDT_PID" | tr -d ' ')"
sleep 1
assert_eq "the session's autogroup nice" "$before" "$(ag_nice "$SSDT_PID")"
assert_eq "nothing said of a CPU share" 0 "$(grep -c 'CPU share' "$T/shell.log")"
kill -TERM "$SSDT_PID"
wait_exit "$SSDT_PID" 10
assert_rc "the run in the test's session" 0 "$RC" "$T/shell.log"
finish
