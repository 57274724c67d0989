#!/bin/bash
# t_ssdctl: the command-line client end to end: output, exit statuses
# (0 success, 1 daemon error or no daemon, 2 usage), live event following,
# the socket from -s and from SSDTORTURE_SOCKET.
. "$(dirname "$0")/lib.sh"

log "ssdctl end to end"
write_conf
start_daemon

# ctl ARGS...: run ssdctl on our socket; sets OUT, ERR, RC.
ctl() {
	"$SSDCTL" -s "$SOCK" "$@" >"$T/ctl.out" 2>"$T/ctl.err"
	RC=$?
	OUT=$(cat "$T/ctl.out")
	ERR=$(cat "$T/ctl.err")
}
# raw ARGS...: ssdctl without -s.
raw() {
	"$SSDCTL" "$@" >"$T/ctl.out" 2>"$T/ctl.err"
	RC=$?
	OUT=$(cat "$T/ctl.out")
	ERR=$(cat "$T/ctl.err")
}
esc=$(printf '\033')
has_lines() { [ "$(grep -c . "$1" 2>/dev/null)" -ge "$2" ]; }
table_state() {	# DRIVE: the STATE column of the table
	"$SSDCTL" -s "$SOCK" status | awk -v d="$1" '$1 == d { print $2 }'
}
detail_state() {	# DRIVE: "state:" of the detail view
	"$SSDCTL" -s "$SOCK" status "$1" | awk '$1 == "state:" { print $2 }'
}

# ------------------------------------------------------------ status
ctl status
assert_rc "status" 0 "$RC" "$ERR"
assert_eq "status: nothing on stderr" "" "$ERR"
assert_match "status: table header" \
    '^DRIVE +STATE +PHASE +ETA +CYCLE +WRITTEN +WRITE +READ +WEAR +TEMP +ERRORS$' \
    "$(printf '%s\n' "$OUT" | head -n 1)"
assert_eq "status: header + one row per drive" 3 "$(printf '%s\n' "$OUT" | wc -l)"
assert_match "status: row for a" '^a +running +(static|write|verify|trim|idle) ' "$OUT"
assert_match "status: row for b" '^b +running ' "$OUT"
assert_nomatch "status: no ANSI escapes when stdout is not a terminal" "$esc" "$OUT"
assert_match "status: ERRORS column is 0" '^a .* 0$' "$OUT"

ctl status a
assert_rc "status a" 0 "$RC" "$ERR"
assert_eq "status a: detail view starts with the name" a "$(printf '%s\n' "$OUT" | head -n 1)"
for f in device serial state phase cycle span written read throughput; do
	assert_match "status a: detail has $f:" "^  $f: " "$OUT"
done
assert_match "status a: device" "^  device: +$T/a.img$" "$OUT"
assert_match "status a: verify errors total" '^  verify errors: +0$' "$OUT"
assert_match "status a: per-class breakdown" \
    '^ +corrupt 0, misdirected 0, stale 0, foreign 0, unwritten 0, io_error 0, lost_flush 0$' "$OUT"
assert_match "status a: torn blocks apart" \
    '^  torn blocks: +0 \(writes a crash or power loss cut: not verify errors\)$' "$OUT"
assert_nomatch "status a: no ANSI escapes" "$esc" "$OUT"

ctl status a b
assert_rc "status a b" 0 "$RC" "$ERR"
assert_match "status a b: a table" '^DRIVE ' "$OUT"
assert_eq "status a b: two rows" 3 "$(printf '%s\n' "$OUT" | wc -l)"

ctl status zz
assert_rc "status of an unknown drive exits 1" 1 "$RC" "$OUT"
assert_match "status zz: says so" "no such drive: zz" "$ERR"
ctl status a zz
assert_rc "status a zz exits 1" 1 "$RC"
assert_match "status a zz: still shows a" '^a ' "$OUT"

# ------------------------------------------------------------ --json status
ctl --json status
assert_rc "--json status" 0 "$RC" "$ERR"
printf '%s' "$OUT" >"$T/status.json"
pyrun "$CT_DIR/py/ssdctl_status_json.py" "$T/status.json"
ctl --json status b
assert_rc "--json status b" 0 "$RC"
assert_eq "--json status b: one drive, b" b \
    "$(printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin)["drives"]; print(len(d) == 1 and d[0]["name"])')"
ctl -j status
assert_rc "-j is --json" 0 "$RC"
check "-j status parses" python3 -c 'import json,sys; json.loads(sys.argv[1])["drives"]' "$OUT"

# ------------------------------------------------------------ drive commands
ctl pause a
assert_rc "pause a" 0 "$RC" "$ERR"
assert_eq "pause a: prints nothing" "" "$OUT$ERR"
assert_eq "after pause: table shows paused" paused "$(table_state a)"
assert_eq "after pause: detail shows paused" paused "$(detail_state a)"
assert_match "after pause: detail shows the reason" '^  reason: +paused by operator$' \
    "$("$SSDCTL" -s "$SOCK" status a)"
ctl pause a
assert_rc "pause of a paused drive exits 1" 1 "$RC" "$OUT"
assert_match "pause of a paused drive: one message" '^ssdctl: a: cannot pause: drive is paused$' "$ERR"
assert_eq "pause of a paused drive: nothing on stdout" "" "$OUT"
ctl resume a
assert_rc "resume a" 0 "$RC" "$ERR"
assert_eq "after resume: running" running "$(table_state a)"
ctl resume a
assert_rc "resume of a running drive exits 1" 1 "$RC"
assert_match "resume of a running drive: message" "cannot resume" "$ERR"
ctl stop a
assert_rc "stop a" 0 "$RC" "$ERR"
assert_eq "after stop: stopped" stopped "$(table_state a)"
ctl stop a
assert_rc "stop of a stopped drive exits 1" 1 "$RC"
ctl start a
assert_rc "start a" 0 "$RC" "$ERR"
assert_eq "after start: running" running "$(table_state a)"
ctl start a
assert_rc "start of a running drive exits 1" 1 "$RC"
ctl --json pause b
assert_rc "--json pause b" 0 "$RC"
assert_eq "--json pause b prints the empty reply" "{}" "$(printf '%s' "$OUT" | tr -d ' \n')"
ctl resume b
assert_rc "resume b" 0 "$RC"

ctl verify a
assert_rc "verify a" 0 "$RC" "$ERR"
verifying_shown() {
	"$SSDCTL" -s "$SOCK" status | grep -Eq '^a +running +verify\*' ||
	    "$SSDCTL" -s "$SOCK" events a -n 50 | grep -q 'verify_now'
}
check "after verify: 'verify*' in the table or a verify_now event" wait_for 10 verifying_shown

for c in start stop pause resume verify; do
	ctl "$c" zz
	assert_rc "$c of an unknown drive exits 1" 1 "$RC"
	assert_eq "$c zz: 'no such drive'" "ssdctl: no such drive: zz" "$ERR"
done
ctl events zz
assert_rc "events of an unknown drive exits 1" 1 "$RC"
assert_eq "events zz: 'no such drive'" "ssdctl: no such drive: zz" "$ERR"

# ------------------------------------------------------------ usage
usage_case() {	# WHAT ARGS...
	local what=$1
	shift
	raw "$@"
	assert_rc "usage: $what exits 2" 2 "$RC" "$OUT$ERR"
	assert_ne "usage: $what says something on stderr" "" "$ERR"
	assert_eq "usage: $what prints nothing on stdout" "" "$OUT"
}
usage_case "no command" -s "$SOCK"
usage_case "unknown command" -s "$SOCK" frobnicate
assert_match "unknown command: named" "unknown command 'frobnicate'" "$ERR"
usage_case "pause without a drive" -s "$SOCK" pause
usage_case "pause with two drives" -s "$SOCK" pause a b
usage_case "unknown global option" -s "$SOCK" --bogus status
usage_case "-s without a value" -s
usage_case "events without a drive" -s "$SOCK" events
usage_case "events -n not a number" -s "$SOCK" events a -n x
usage_case "events -n 10001" -s "$SOCK" events a -n 10001
usage_case "events -n -1" -s "$SOCK" events a -n -1
usage_case "events, unknown option" -s "$SOCK" events a -x
usage_case "events with two drives" -s "$SOCK" events a b
usage_case "reload with an operand" -s "$SOCK" reload now
usage_case "version with an operand" -s "$SOCK" version 2
raw -h
assert_rc "-h exits 0" 0 "$RC"
assert_match "-h prints the usage on stdout" '^usage: ssdctl' "$OUT"
raw --help
assert_rc "--help exits 0" 0 "$RC"
assert_eq "usage errors leave the drives alone" running "$(table_state a)"

# ------------------------------------------------------------ no daemon
gone=$T/nodaemon.sock
for args in "status" "status a" "pause a" "events a" "reload" "version"; do
	# shellcheck disable=SC2086
	raw -s "$gone" $args
	assert_rc "no daemon: '$args' exits 1" 1 "$RC" "$OUT$ERR"
	assert_eq "no daemon: '$args': one line on stderr" 1 \
	    "$(printf '%s\n' "$ERR" | grep -c .)"
	assert_match "no daemon: '$args': names the socket, hints at systemctl" \
	    "^ssdctl: cannot connect to $gone: No such file or directory .*systemctl status ssdtortured" \
	    "$ERR"
done
: >"$T/not-a-socket"
raw -s "$T/not-a-socket" status
assert_rc "a path that is not a socket exits 1" 1 "$RC"
assert_match "a path that is not a socket: cannot connect" "cannot connect to $T/not-a-socket" "$ERR"

# ------------------------------------------------------------ events
ctl events a -n 3
assert_rc "events a -n 3" 0 "$RC" "$ERR"
assert_eq "events a -n 3: 3 lines" 3 "$(printf '%s\n' "$OUT" | grep -c .)"
assert_eq "events a -n 3: each line starts with a timestamp" 3 \
    "$(printf '%s\n' "$OUT" | grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z  [a-z_]+ ')"
ctl events -n 3 a
assert_rc "events -n 3 a (option first)" 0 "$RC" "$ERR"
assert_eq "events -n 3 a: 3 lines" 3 "$(printf '%s\n' "$OUT" | grep -c .)"
ctl events a -n 0
assert_rc "events a -n 0" 0 "$RC"
assert_eq "events a -n 0: nothing" "" "$OUT"
check "b has logged 21+ events" wait_for 20 has_lines "$T/state/b/events.jsonl" 21
ctl events b
assert_eq "events b: 20 by default" 20 "$(printf '%s\n' "$OUT" | grep -c .)"
ctl --json events a -n 4
assert_rc "--json events a -n 4" 0 "$RC"
assert_eq "--json events: 4 JSON lines with drive a" 4 \
    "$(printf '%s\n' "$OUT" | python3 -c 'import json,sys
print(sum(1 for l in sys.stdin if json.loads(l)["drive"] == "a"))')"
# the text lines are the same events as the JSON ones
text_json_agree() {
	local t1 t2
	t1=$("$SSDCTL" -s "$SOCK" events b -n 5 | awk '{print $1, $2}')
	t2=$("$SSDCTL" -s "$SOCK" --json events b -n 5 | python3 -c 'import json,sys
for l in sys.stdin: e = json.loads(l); print(e["time"], e["event"])')
	[ -n "$t1" ] && [ "$t1" = "$t2" ]
}
ctl pause b
check "events text and --json agree (time, event)" wait_for 5 text_json_agree
ctl resume b

# follow: ssdctl events a -n 1 -f in the background
"$SSDCTL" -s "$SOCK" events a -n 1 -f >"$T/follow.out" 2>"$T/follow.err" &
fpid=$!
BG_PIDS="$BG_PIDS $fpid"
check "events -f: prints the last event at once" wait_for 5 has_lines "$T/follow.out" 1
ctl pause a
check "events -f: the pause shows up live" \
    wait_for 5 grep -qE '^[^ ]+  paused +paused: paused by operator' "$T/follow.out"
ctl resume a
check "events -f: the resume shows up live" \
    wait_for 5 grep -qE '^[^ ]+  running ' "$T/follow.out"
ctl stop a
check "events -f: the stop shows up live" \
    wait_for 5 grep -qE '^[^ ]+  stopped +stopped: stopped by operator' "$T/follow.out"
ctl start a
# (counted anew each time wait_for asks, not once before it)
running_lines_ge() { [ "$(grep -cE '^[^ ]+  running ' "$T/follow.out")" -ge "$1" ]; }
check "events -f: the start shows up live" wait_for 5 running_lines_ge 2
check "events -f: still following" kill -0 "$fpid"
assert_nomatch "events -f: no b events in a's stream" '  b ' "$(cat "$T/follow.out")"
kill "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null

"$SSDCTL" -s "$SOCK" --json events b -n 0 -f >"$T/followb.out" 2>"$T/followb.err" &
fpid=$!
BG_PIDS="$BG_PIDS $fpid"
# -n 0: nothing to print first, so we cannot see when it is following; the
# pause is retried until its event shows (each try adds a paused/running pair)
follow_sees_pause() {
	"$SSDCTL" -s "$SOCK" pause b && "$SSDCTL" -s "$SOCK" resume b &&
	    wait_for 1 grep -q '"event":"paused"' "$T/followb.out"
}
check "--json events -n 0 -f: a pause of b shows up" wait_for 5 follow_sees_pause
check "--json events -f: the resume shows up" \
    wait_for 5 grep -q '"event":"running"' "$T/followb.out"
check "--json events -f: every line is JSON of drive b" python3 -c 'import json,sys
lines = [l for l in open(sys.argv[1]) if l.endswith("\n")]
sys.exit(0 if lines and all(json.loads(l)["drive"] == "b" for l in lines) else 1)' "$T/followb.out"
check "--json events -f: still following" kill -0 "$fpid"
kill "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null

# ------------------------------------------------------------ reload
ctl reload
assert_rc "reload" 0 "$RC" "$ERR"
assert_eq "reload: prints nothing" "" "$OUT$ERR"
cp "$CONF" "$T/good.conf"
echo "frobnicate = yes" >>"$CONF"
line=$(wc -l <"$CONF")
ctl reload
assert_rc "reload of a broken config exits 1" 1 "$RC"
assert_match "reload of a broken config: rejected, running one kept" \
    "^ssdctl: reload rejected; the running configuration is kept:$" "$ERR"
assert_match "reload of a broken config: the FILE:LINE error" "^  $CONF:$line: .*frobnicate" "$ERR"
assert_eq "after the rejected reload: a still running" running "$(table_state a)"
cp "$T/good.conf" "$CONF"
ctl reload
assert_rc "reload of the fixed config" 0 "$RC" "$ERR"

# ------------------------------------------------------------ version
ctl version
assert_rc "version" 0 "$RC" "$ERR"
assert_match "version: ssdctl's" '^ssdctl [0-9]+\.[0-9]+\.[0-9]+$' "$OUT"
assert_match "version: the daemon's, with the socket" \
    "^ssdtortured [0-9]+\.[0-9]+\.[0-9]+ \($SOCK\)$" "$OUT"
assert_eq "version: two lines" 2 "$(printf '%s\n' "$OUT" | wc -l)"
ctl --json version
assert_rc "--json version" 0 "$RC"
assert_eq "--json version: GetInfo's product" ssdtortured "$(printf '%s' "$OUT" | jget product)"

# ------------------------------------------------------------ SSDTORTURE_SOCKET
SSDTORTURE_SOCKET=$SOCK "$SSDCTL" status >"$T/env.out" 2>&1
assert_rc "SSDTORTURE_SOCKET: status" 0 "$?" "$(cat "$T/env.out")"
assert_match "SSDTORTURE_SOCKET: the table" '^a +' "$(cat "$T/env.out")"
SSDTORTURE_SOCKET=$SOCK "$SSDCTL" version >"$T/env.out" 2>&1
assert_match "SSDTORTURE_SOCKET: version names it" "\($SOCK\)" "$(cat "$T/env.out")"
SSDTORTURE_SOCKET=$T/elsewhere.sock "$SSDCTL" status >"$T/env.out" 2>&1
assert_rc "SSDTORTURE_SOCKET to nowhere: exits 1" 1 "$?"
assert_match "SSDTORTURE_SOCKET to nowhere: names that socket" \
    "cannot connect to $T/elsewhere.sock" "$(cat "$T/env.out")"
SSDTORTURE_SOCKET=$T/elsewhere.sock "$SSDCTL" -s "$SOCK" status >"$T/env.out" 2>&1
assert_rc "-s wins over SSDTORTURE_SOCKET" 0 "$?" "$(cat "$T/env.out")"
SSDTORTURE_SOCKET=$T/elsewhere.sock "$SSDCTL" --socket "$SOCK" status >"$T/env.out" 2>&1
assert_rc "--socket wins over SSDTORTURE_SOCKET" 0 "$?" "$(cat "$T/env.out")"

# ------------------------------------------------------------ colour on a terminal
pyrun "$CT_DIR/py/ssdctl_colour.py"

stop_daemon
finish
