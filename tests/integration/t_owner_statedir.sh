#!/bin/bash
# The state directory has one owner. While a daemon runs, a second daemon
# on the same state directory (another socket), --verify and --oneshot
# exit at once with status 1 naming the owner's pid and how to stop it; the
# owner goes on untouched (no resume by the other, no verify error, its
# state still advancing). -n works beside it and touches no state. After
# kill -9 of the owner its lock file stays behind, and a new daemon starts
# regardless (the kernel dropped the lock with the process).
. "$(dirname "$0")/lib.sh"

ST=$T/st
EV=$ST/f/events.jsonl
SF=$ST/f/state
write_conf "$T/a.conf" "$ST" <<EOF
[drive:f]
checkpoint = off
device = $T/f.img
size = 16M
block_size = 64k
idle = 0
EOF
# the same configuration on another control socket: only the state
# directory is shared
sed "s|^socket = .*|socket = $T/other.sock|" "$T/a.conf" >"$T/b.conf"

# no_errors LABEL : no verify error counted or reported so far
no_errors() {
	assert_no_errors "$1" "$SF"
	assert_eq "$1: verify_error events" 0 "$(ev_count "$EV" 0 event=verify_error)"
}

# refused_beside LABEL ARGS... : refused at once while $OWNER runs
refused_beside() {
	local label=$1
	shift
	run_ssdt "$T/$label.log" "$@"
	assert_rc "$label: exit status" 1 "$RC" "$T/$label.log"
	assert_file_contains "$label: names the owner's pid" "$T/$label.log" \
	    "in use by pid $OWNER"
	assert_file_contains "$label: says how to stop it" "$T/$label.log" \
	    "kill $OWNER"
	assert_file_contains "$label: names the state directory" \
	    "$T/$label.log" "$ST"
}

log "a daemon owns the state directory"
start_ssdt "$T/owner.log" -c "$T/a.conf"
OWNER=$SSDT_PID
wait_state "$SF" "$OWNER" 60 's["host_bytes_written"] > 0' ||
    die "the first daemon never wrote"
assert_eq "the lock file holds the owner's pid" "$OWNER" \
    "$(cat "$ST/.lock" 2>/dev/null)"

log "a second daemon, --verify and --oneshot are refused beside it"
refused_beside second -c "$T/b.conf"
refused_beside verify -c "$T/b.conf" --verify
refused_beside oneshot -c "$T/b.conf" --oneshot
assert_eq "only the owner's start resumed or created the drive" 1 \
    "$(ev_query "$EV" 0 event | grep -cE '^(created|resume)$')"
assert_eq "the lock file still holds the owner's pid" "$OWNER" \
    "$(cat "$ST/.lock" 2>/dev/null)"

log "-n works beside it and reads no state"
run_ssdt "$T/check.log" -c "$T/b.conf" -n
assert_rc "-n: exit status" 0 "$RC" "$T/check.log"
assert_file_contains "-n: checked" "$T/check.log" "configuration OK"
sed "s|^state_dir = .*|state_dir = $T/never|" "$T/b.conf" >"$T/never.conf"
run_ssdt "$T/check2.log" -c "$T/never.conf" -n
assert_rc "-n on a new state directory: exit status" 0 "$RC" "$T/check2.log"
if [ -e "$T/never" ]; then fail "-n created the state directory"
else pass_check; fi

log "the owner goes on untouched: writes, verifies, no error"
c0=$(state_get "$SF" cycles_done)
wait_state "$SF" "$OWNER" 120 "s['cycles_done'] >= $c0 + 2" ||
    fail "the owner did not finish two more cycles"
if pid_alive "$OWNER"; then pass_check; else fail "the owner died"; fi
no_errors "owner"
assert_eq "no state save failed" 0 "$(grep -c 'cannot save state' \
    "$T/owner.log")"

log "kill -9 of the owner: the lock file stays, a new daemon starts"
kill_and_reap KILL "$OWNER"
assert_eq "killed by SIGKILL" 137 "$RC"
assert_eq "the stale lock file names the dead owner" "$OWNER" \
    "$(cat "$ST/.lock" 2>/dev/null)"
start_ssdt "$T/next.log" -c "$T/b.conf"
NEXT=$SSDT_PID
wait_log "$T/next.log" "resuming" 30 "$NEXT" ||
    fail "the new daemon did not resume the drive"
assert_eq "the lock file holds the new owner's pid" "$NEXT" \
    "$(cat "$ST/.lock" 2>/dev/null)"
w=$(state_get "$SF" host_bytes_written)
wait_state "$SF" "$NEXT" 60 "s['host_bytes_written'] > $w" ||
    fail "the new daemon does not write"
# and it owns the directory now
OWNER=$NEXT
refused_beside after-restart -c "$T/a.conf" --verify
kill_and_reap TERM "$NEXT"
assert_eq "the new daemon stopped cleanly" 0 "$RC"
no_errors "after the restart"
finish
