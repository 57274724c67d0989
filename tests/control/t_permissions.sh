#!/bin/bash
# t_permissions: who may connect (the socket: mode 0660, group socket_group)
# and who may change things (uid 0, or admin_group as primary or
# supplementary group, asked with SO_PEERCRED on every call).
#
# Makes a system user ssdt-test and the groups ssdt-sock (socket_group) and
# ssdt-admin (admin_group); removes them at the end. A lock serialises
# concurrent runs of this test, which share those names.
. "$(dirname "$0")/lib.sh"

log "socket access and admin rights"
[ "$(id -u)" -eq 0 ] || die "must run as root (makes a user, starts clients as it)"

USER_NAME=ssdt-test
SOCK_GROUP=ssdt-sock
ADMIN_GROUP=ssdt-admin
MARK="ssdtorture control tests"

exec 9>/tmp/ssdtorture-control-users.lock
flock -w 120 9 || die "another t_permissions holds the user lock"

remove_ids() {
	if getent passwd "$USER_NAME" >/dev/null; then
		pkill_user_procs=$(pgrep -u "$USER_NAME" 2>/dev/null | tr '\n' ' ')
		[ -z "$pkill_user_procs" ] || note "processes of $USER_NAME left: $pkill_user_procs"
		userdel "$USER_NAME" 2>/dev/null ||
		    note "userdel $USER_NAME failed"
	fi
	getent group "$USER_NAME" >/dev/null && groupdel "$USER_NAME" 2>/dev/null
	getent group "$SOCK_GROUP" >/dev/null && groupdel "$SOCK_GROUP"
	getent group "$ADMIN_GROUP" >/dev/null && groupdel "$ADMIN_GROUP"
}
# leftovers of an interrupted run have our names: start clean
remove_ids
at_exit remove_ids
groupadd -r "$SOCK_GROUP" || die "groupadd $SOCK_GROUP"
groupadd -r "$ADMIN_GROUP" || die "groupadd $ADMIN_GROUP"
useradd -M -r -U -s /usr/sbin/nologin -c "$MARK" -G "$SOCK_GROUP" \
    "$USER_NAME" || die "useradd $USER_NAME"
UID_T=$(id -u "$USER_NAME")
GID_T=$(getent group "$USER_NAME" | cut -d: -f3)
GID_SOCK=$(getent group "$SOCK_GROUP" | cut -d: -f3)
GID_ADMIN=$(getent group "$ADMIN_GROUP" | cut -d: -f3)
note "uid $UID_T; gids: own $GID_T, socket $GID_SOCK, admin $GID_ADMIN"

# The test user must reach the socket: a traversable directory.
chmod 0711 "$T"
mkdir -m 0777 "$T/sync"
# ...and run the clients, whatever the mode of the checkout's parents
# (a clone under mktemp's 0700 directory): copies in a readable place.
mkdir -m 0755 "$T/bin"
install -m 0755 "$VL" "$SSDCTL" "$T/bin/" || die "copy the clients to $T/bin"
VL="$T/bin/$(basename "$VL")"
SSDCTL="$T/bin/$(basename "$SSDCTL")"

write_conf "socket_group = $SOCK_GROUP" "admin_group = $ADMIN_GROUP"
start_daemon

# ------------------------------------------------------------ the socket file
assert_eq "socket mode" 660 "$(stat -c %a "$SOCK")"
assert_eq "socket group is socket_group" "$SOCK_GROUP" "$(stat -c %G "$SOCK")"
assert_eq "socket owner" root "$(stat -c %U "$SOCK")"

# How clients are started as the test user:
#   MEMBER  its login groups (own + socket group): may connect, not change
#   SUPP    admin_group as a supplementary group
#   PRIM    admin_group as the primary group
#   NOSOCK  no supplementary groups: not even connect
MEMBER=(setpriv --reuid="$UID_T" --regid="$GID_T" --init-groups)
SUPP=(setpriv --reuid="$UID_T" --regid="$GID_T" --groups="$GID_SOCK,$GID_ADMIN")
PRIM=(setpriv --reuid="$UID_T" --regid="$GID_ADMIN" --groups="$GID_SOCK")
NOSOCK=(setpriv --reuid="$UID_T" --regid="$GID_T" --clear-groups)
RUNUSER=(runuser -u "$USER_NAME" --)

# run_as WHO... -- COMMAND: run a client; sets OUT (stdout+stderr) and RC.
run_as() {
	local -a who=()
	while [ "$1" != -- ]; do who+=("$1"); shift; done
	shift
	OUT=$(cd / && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C \
	    "${who[@]}" "$@" 2>&1)
	RC=$?
}
# asvl WHO... -- METHOD [PARAMS]: one Varlink call as WHO.
asvl() {
	local -a who=()
	while [ "$1" != -- ]; do who+=("$1"); shift; done
	shift
	run_as "${who[@]}" -- python3 "$VL" call "$SOCK" "$@"
}

check "the test user's login groups are own + socket group" \
    test "$("${MEMBER[@]}" id -G | tr ' ' '\n' | sort -n | tr '\n' ' ')" = \
    "$(printf '%s\n' "$GID_T" "$GID_SOCK" | sort -n | tr '\n' ' ')"

# ------------------------------------------------------------ socket group member, not admin
asvl "${MEMBER[@]}" -- org.varlink.service.GetInfo
assert_rc "member: GetInfo" 0 "$RC" "$OUT"
asvl "${MEMBER[@]}" -- org.varlink.service.GetInterfaceDescription \
    '{"interface":"io.ssdtorture.Manager"}'
assert_rc "member: GetInterfaceDescription" 0 "$RC" "$OUT"
asvl "${MEMBER[@]}" -- io.ssdtorture.Manager.Status
assert_rc "member: Status" 0 "$RC" "$OUT"
assert_eq "member: Status lists 2 drives" 2 \
    "$(printf '%s' "$OUT" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["parameters"]["drives"]))')"
asvl "${MEMBER[@]}" -- io.ssdtorture.Manager.Status '{"drive":"a"}'
assert_rc "member: Status a" 0 "$RC" "$OUT"
asvl "${MEMBER[@]}" -- io.ssdtorture.Manager.Events '{"drive":"a","count":3}'
assert_rc "member: Events" 0 "$RC" "$OUT"
assert_eq "member: Events gives 3" 3 \
    "$(printf '%s' "$OUT" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["parameters"]["events"]))')"
asvl "${MEMBER[@]}" -- io.ssdtorture.Manager.Events '{"drive":"a","count":1}' --more 1
assert_rc "member: Events with more (first reply)" 0 "$RC" "$OUT"
assert_match "member: Events with more continues" '"continues": true' "$OUT"
asvl "${MEMBER[@]}" -- io.ssdtorture.Manager.Checkpoints '{"drive":"a"}'
assert_rc "member: Checkpoints (a reading method)" 0 "$RC" "$OUT"
asvl "${MEMBER[@]}" -- io.ssdtorture.Manager.Snapshots '{"drive":"a"}'
assert_rc "member: Snapshots (a reading method)" 0 "$RC" "$OUT"
asvl "${MEMBER[@]}" -- io.ssdtorture.Manager.Timelines '{"drive":"a"}'
assert_rc "member: Timelines (a reading method)" 0 "$RC" "$OUT"
asvl "${MEMBER[@]}" -- io.ssdtorture.Manager.Series '{"drive":"a"}'
assert_rc "member: Series (a reading method)" 0 "$RC" "$OUT"

denied='{"error": "org.varlink.service.PermissionDenied", "parameters": {}}'
for m in Pause Resume Stop Start Verify Checkpoint PowerCut; do
	asvl "${MEMBER[@]}" -- "io.ssdtorture.Manager.$m" '{"drive":"a"}'
	assert_eq "member: $m -> PermissionDenied" "$denied" "$OUT"
done
asvl "${MEMBER[@]}" -- io.ssdtorture.Manager.Reload
assert_eq "member: Reload -> PermissionDenied" "$denied" "$OUT"
asvl "${MEMBER[@]}" -- io.ssdtorture.Manager.Pause '{"drive":"zz"}'
assert_eq "member: Pause of an unknown drive -> PermissionDenied (no drive lookup first)" \
    "$denied" "$OUT"
assert_match "the daemon logs the denial (method, uid, group)" \
    "Pause denied to uid $UID_T .*$ADMIN_GROUP" "$(cat "$DLOG")"
assert_match "the daemon logs a denied Reload" "Reload denied to uid $UID_T" "$(cat "$DLOG")"
assert_eq "after the denied calls: a still running" running "$(drive_field a state)"

run_as "${MEMBER[@]}" -- "$SSDCTL" -s "$SOCK" status
assert_rc "member: ssdctl status" 0 "$RC" "$OUT"
assert_match "member: ssdctl status shows a" '^a +running' "$OUT"
run_as "${MEMBER[@]}" -- "$SSDCTL" -s "$SOCK" events a -n 2
assert_rc "member: ssdctl events" 0 "$RC" "$OUT"
run_as "${MEMBER[@]}" -- "$SSDCTL" -s "$SOCK" pause a
assert_rc "member: ssdctl pause exits 1" 1 "$RC" "$OUT"
assert_match "member: ssdctl pause says permission denied" "permission denied" "$OUT"
run_as "${MEMBER[@]}" -- "$SSDCTL" -s "$SOCK" reload
assert_rc "member: ssdctl reload exits 1" 1 "$RC" "$OUT"

run_as "${RUNUSER[@]}" -- python3 "$VL" call "$SOCK" io.ssdtorture.Manager.Pause '{"drive":"a"}'
assert_eq "runuser (login groups): Pause -> PermissionDenied" "$denied" "$OUT"

# ------------------------------------------------------------ admin_group members
asvl "${SUPP[@]}" -- io.ssdtorture.Manager.Pause '{"drive":"a"}'
assert_eq "admin (supplementary): Pause -> {}" '{"parameters": {}}' "$OUT"
assert_eq "admin (supplementary): a paused" paused "$(drive_field a state)"
asvl "${SUPP[@]}" -- io.ssdtorture.Manager.Resume '{"drive":"a"}'
assert_eq "admin (supplementary): Resume -> {}" '{"parameters": {}}' "$OUT"
assert_eq "admin (supplementary): a running" running "$(drive_field a state)"
asvl "${SUPP[@]}" -- io.ssdtorture.Manager.Reload
assert_eq "admin (supplementary): Reload -> {}" '{"parameters": {}}' "$OUT"

asvl "${PRIM[@]}" -- io.ssdtorture.Manager.Pause '{"drive":"b"}'
assert_eq "admin (primary group): Pause -> {}" '{"parameters": {}}' "$OUT"
assert_eq "admin (primary group): b paused" paused "$(drive_field b state)"
asvl "${PRIM[@]}" -- io.ssdtorture.Manager.Resume '{"drive":"b"}'
assert_eq "admin (primary group): Resume -> {}" '{"parameters": {}}' "$OUT"

run_as "${SUPP[@]}" -- "$SSDCTL" -s "$SOCK" pause b
assert_rc "admin: ssdctl pause b" 0 "$RC" "$OUT"
assert_eq "admin: b paused" paused "$(drive_field b state)"
run_as "${SUPP[@]}" -- "$SSDCTL" -s "$SOCK" resume b
assert_rc "admin: ssdctl resume b" 0 "$RC" "$OUT"
assert_eq "admin: b running" running "$(drive_field b state)"

# real group membership, through the login groups
usermod -aG "$ADMIN_GROUP" "$USER_NAME"
run_as "${RUNUSER[@]}" -- python3 "$VL" call "$SOCK" io.ssdtorture.Manager.Pause '{"drive":"a"}'
assert_eq "runuser, user added to admin_group: Pause -> {}" '{"parameters": {}}' "$OUT"
run_as "${RUNUSER[@]}" -- python3 "$VL" call "$SOCK" io.ssdtorture.Manager.Resume '{"drive":"a"}'
assert_eq "runuser, user added to admin_group: Resume -> {}" '{"parameters": {}}' "$OUT"
gpasswd -d "$USER_NAME" "$ADMIN_GROUP" >/dev/null
run_as "${RUNUSER[@]}" -- python3 "$VL" call "$SOCK" io.ssdtorture.Manager.Pause '{"drive":"a"}'
assert_eq "runuser, user removed from admin_group: Pause -> PermissionDenied" "$denied" "$OUT"

# ------------------------------------------------------------ not in socket_group
run_as "${NOSOCK[@]}" -- python3 -c 'import errno, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect(sys.argv[1])
except OSError as e:
    print(errno.errorcode.get(e.errno, e.errno)); sys.exit(1)
print("connected")' "$SOCK"
assert_eq "not in socket_group: connect fails with EACCES" EACCES "$OUT"
run_as "${NOSOCK[@]}" -- "$SSDCTL" -s "$SOCK" status
assert_rc "not in socket_group: ssdctl status exits 1" 1 "$RC" "$OUT"
assert_eq "not in socket_group: one line from ssdctl" 1 "$(printf '%s\n' "$OUT" | grep -c .)"
assert_match "not in socket_group: 'cannot connect', the socket, the reason and the hint" \
    "^ssdctl: cannot connect to $SOCK: Permission denied .*systemctl status ssdtortured" "$OUT"

# ------------------------------------------------------------ root
for m in Pause Resume; do
	out=$(vcall "io.ssdtorture.Manager.$m" '{"drive":"a"}')
	assert_eq "root: $m -> {}" '{"parameters": {}}' "$out"
done
out=$(setpriv --reuid=0 --regid=0 --clear-groups python3 "$VL" call "$SOCK" \
    io.ssdtorture.Manager.Pause '{"drive":"b"}')
assert_eq "root without any group: Pause -> {}" '{"parameters": {}}' "$out"
vcall io.ssdtorture.Manager.Resume '{"drive":"b"}' >/dev/null

# ------------------------------------------------------------ asked anew on every call
# An admin keeps one connection open; the configuration loses admin_group
# and is reloaded; the next mutating call on that same connection is denied.
cat >"$T/sync/client.py" <<'PY'
import json, os, sys, time
sys.dont_write_bytecode = True
sys.path.insert(0, os.environ["CT_DIR"])
from vl import *
S, sync = sys.argv[1], sys.argv[2]
M = IFACE + "."
with Conn(S) as c:
    r1 = c.call(M + "Pause", {"drive": "a"})
    r2 = c.call(M + "Resume", {"drive": "a"})
    open(sync + "/ready", "w").close()
    deadline = time.monotonic() + 20
    while not os.path.exists(sync + "/go") and time.monotonic() < deadline:
        time.sleep(0.05)
    r3 = c.call(M + "Pause", {"drive": "a"})
print(json.dumps(r1)); print(json.dumps(r2)); print(json.dumps(r3))
PY
chmod 0644 "$T/sync/client.py"
(cd / && env -i PATH=/usr/bin:/bin CT_DIR="$T/bin" "${SUPP[@]}" \
    python3 "$T/sync/client.py" "$SOCK" "$T/sync" >"$T/sync/out" 2>&1) &
client=$!
BG_PIDS="$BG_PIDS $client"
if wait_for 10 test -e "$T/sync/ready"; then
	sed -i "/^admin_group = /d" "$CONF"
	out=$(vcall io.ssdtorture.Manager.Reload)
	assert_eq "root: Reload without admin_group -> {}" '{"parameters": {}}' "$out"
	touch "$T/sync/go"
else
	fail "the long-lived admin client did not get ready: $(cat "$T/sync/out")"
fi
wait "$client"
out=$(cat "$T/sync/out")
assert_eq "long-lived admin connection: Pause, Resume allowed before" \
    '{"parameters": {}}
{"parameters": {}}' "$(printf '%s\n' "$out" | head -n 2)"
assert_eq "same connection, after a reload that drops admin_group: Pause -> PermissionDenied" \
    "$denied" "$(printf '%s\n' "$out" | sed -n 3p)"
asvl "${SUPP[@]}" -- io.ssdtorture.Manager.Pause '{"drive":"a"}'
assert_eq "new connection, after a reload that drops admin_group: Pause -> PermissionDenied" \
    "$denied" "$OUT"
# put a back, whatever happened
[ "$(drive_field a state)" = paused ] &&
    vcall io.ssdtorture.Manager.Resume '{"drive":"a"}' >/dev/null

stop_daemon
assert_eq "daemon exit status" 0 "$DAEMON_RC"
finish
