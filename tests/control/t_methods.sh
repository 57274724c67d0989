#!/bin/bash
# t_methods: every method's success reply and its shape; drive commands move
# the state machine; Events (last N, order, follow); oneway; pipelining;
# socat as an independent client for GetInfo and Status.
. "$(dirname "$0")/lib.sh"

log "every method's success reply"
write_conf
start_daemon

# ------------------------------------------------------------ the socket file
assert_eq "socket mode" 660 "$(stat -c %a "$SOCK")"
assert_eq "socket group (default root)" root "$(stat -c %G "$SOCK")"
assert_eq "socket owner" root "$(stat -c %U "$SOCK")"
assert_eq "socket is a socket" socket "$(stat -c %F "$SOCK")"

# ------------------------------------------------------------ socat client
# An independent client: raw bytes in, NUL-terminated reply out.
out=$(printf '%s\0' '{"method":"org.varlink.service.GetInfo"}' |
    socat -t 2 - "UNIX-CONNECT:$SOCK" | tr '\0' '\n')
assert_eq "socat GetInfo: exactly one NUL-terminated reply" 1 \
    "$(printf '%s\n' "$out" | grep -c .)"
assert_match "socat GetInfo: interfaces" \
    '"interfaces":\["org.varlink.service","io.ssdtorture.Manager"\]' "$out"
assert_eq "socat GetInfo: product" ssdtortured \
    "$(printf '%s' "$out" | jget parameters.product)"
nuls=$(printf '%s\0' '{"method":"org.varlink.service.GetInfo"}' |
    socat -t 2 - "UNIX-CONNECT:$SOCK" | tr -cd '\0' | wc -c)
assert_eq "socat GetInfo: reply ends with one NUL" 1 "$nuls"

out=$(printf '%s\0' '{"method":"io.ssdtorture.Manager.Status","parameters":{}}' |
    socat -t 2 - "UNIX-CONNECT:$SOCK" | tr '\0' '\n')
assert_eq "socat Status: two drives" '["a", "b"]' \
    "$(printf '%s' "$out" | python3 -c 'import json,sys
print(json.dumps(sorted(d["name"] for d in json.load(sys.stdin)["parameters"]["drives"])))')"
out=$(printf '%s\0%s\0' '{"method":"io.ssdtorture.Manager.Status","parameters":{"drive":"b"}}' \
    '{"method":"org.varlink.service.GetInfo"}' |
    socat -t 2 - "UNIX-CONNECT:$SOCK" | tr '\0' '\n')
assert_eq "socat: two pipelined calls, two replies" 2 \
    "$(printf '%s\n' "$out" | grep -c .)"
assert_eq "socat: first reply is Status of b" b \
    "$(printf '%s\n' "$out" | head -n 1 | jget parameters.drives.0.name)"
assert_match "socat: second reply is GetInfo" '"vendor":"ssdtorture"' \
    "$(printf '%s\n' "$out" | sed -n 2p)"

# ------------------------------------------------------------ protocol level
pyrun "$CT_DIR/py/methods_protocol.py"

stop_daemon
assert_eq "daemon exit status after SIGTERM" 0 "$DAEMON_RC"
check "socket removed at exit" test ! -e "$SOCK"
finish
