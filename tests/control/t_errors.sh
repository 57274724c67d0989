#!/bin/bash
# t_errors: every error reply of the protocol, with its parameters; bad input
# never costs the connection (except framing loss, see t_limits); a Reload
# of a broken configuration is rejected with FILE:LINE errors and the
# running configuration kept. PermissionDenied is in t_permissions,
# MessageTooLarge in t_limits.
. "$(dirname "$0")/lib.sh"

log "error replies"
write_conf
start_daemon

# ------------------------------------------------------------ socat client
out=$(printf '%s\0' '{"method":"io.ssdtorture.Manager.Frobnicate"}' |
    socat -t 2 - "UNIX-CONNECT:$SOCK" | tr '\0' '\n')
assert_eq "socat: unknown method -> MethodNotFound" \
    '{"error":"org.varlink.service.MethodNotFound","parameters":{"method":"io.ssdtorture.Manager.Frobnicate"}}' \
    "$out"
out=$(printf '%s\0' '{"method":' | socat -t 2 - "UNIX-CONNECT:$SOCK" | tr '\0' '\n')
assert_eq "socat: invalid JSON -> InvalidParameter(message)" \
    '{"error":"org.varlink.service.InvalidParameter","parameters":{"parameter":"message"}}' \
    "$out"
out=$(printf '%s\0' '{"method":"io.ssdtorture.Manager.Status","parameters":{"drive":"zz"}}' |
    socat -t 2 - "UNIX-CONNECT:$SOCK" | tr '\0' '\n')
assert_eq "socat: NoSuchDrive" \
    '{"error":"io.ssdtorture.Manager.NoSuchDrive","parameters":{"drive":"zz"}}' "$out"

# ------------------------------------------------------------ protocol level
pyrun "$CT_DIR/py/errors_protocol.py"

# ------------------------------------------------------------ ReloadFailed
cp "$CONF" "$T/good.conf"
# a bad key in [drive:b], and a bad value in [drive:a]
bad_line=$(( $(wc -l <"$CONF") + 1 ))
echo "bogus_key = 1" >>"$CONF"
sed -i 's/^order = random$/order = sideways/' "$CONF"
order_line=$(grep -n '^order = sideways$' "$CONF" | cut -d: -f1)
w0=$(drive_io a)

out=$(vcall io.ssdtorture.Manager.Reload)
rc=$?
assert_rc "Reload of a broken config: an error reply" 3 "$rc" "$out"
assert_eq "Reload of a broken config -> ReloadFailed" \
    io.ssdtorture.Manager.ReloadFailed "$(printf '%s' "$out" | jget error)"
errs=$(printf '%s' "$out" | python3 -c 'import json,sys
for e in json.load(sys.stdin)["parameters"]["errors"]: print(e)')
assert_match "ReloadFailed names FILE:LINE of the bad key" \
    "^$CONF:$bad_line: .*bogus_key" "$errs"
assert_match "ReloadFailed names FILE:LINE of the bad value" \
    "^$CONF:$order_line: .*sideways" "$errs"
assert_eq "ReloadFailed: one line per error" 2 "$(printf '%s\n' "$errs" | grep -c .)"
assert_match "the daemon logs the rejected reload" "reload: .*kept" "$(cat "$DLOG")"
check "after ReloadFailed the daemon answers" socket_answers
assert_eq "after ReloadFailed: a still running" running "$(drive_field a state)"
assert_eq "after ReloadFailed: b still running" running "$(drive_field b state)"
check "after ReloadFailed: a still does I/O" wait_for 30 io_past a "$w0"

# unreadable configuration
mv "$CONF" "$T/moved.conf"
out=$(vcall io.ssdtorture.Manager.Reload)
assert_eq "Reload of a missing config -> ReloadFailed" \
    io.ssdtorture.Manager.ReloadFailed "$(printf '%s' "$out" | jget error)"
assert_match "ReloadFailed for a missing file names it" "$CONF" "$out"
rm -f "$T/moved.conf"

# fixed again
cp "$T/good.conf" "$CONF"
out=$(vcall io.ssdtorture.Manager.Reload)
assert_eq "Reload of the fixed config -> {}" '{"parameters": {}}' "$out"
assert_eq "after the good Reload: a running" running "$(drive_field a state)"

stop_daemon
assert_eq "daemon exit status" 0 "$DAEMON_RC"
finish
