# lib.sh: helpers shared by the control-plane tests (sourced by bash).
#
# Sourcing this file makes a private temporary directory $T (socket, config,
# state, drive files, daemon log all live there) and installs a trap that,
# on any exit, stops the daemon and the background processes started through
# these helpers and removes $T (kept when CT_KEEP=1). The checks are
# tests/lib/assert.sh's: failures are counted and the test goes on; call
# `finish` last. Python sections (pyrun) use vl.py.

set -u

CT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$CT_DIR/../.." && pwd)
SSDTORTURED=${SSDTORTURED:-$ROOT/daemon/ssdtortured}
SSDCTL=${SSDCTL:-$ROOT/ctl/ssdctl}
VL="$CT_DIR/vl.py"
TEST_NAME=$(basename "$0" .sh)
export LC_ALL=C PYTHONDONTWRITEBYTECODE=1
unset SSDTORTURE_SOCKET NO_COLOR

DAEMON_PID=
BG_PIDS=
CLEANUP_HOOKS=

T=$(mktemp -d "${TMPDIR:-/tmp}/ssdt-control.XXXXXX") || {
	echo "$TEST_NAME: mktemp failed"; exit 1; }
SOCK=$T/ctl.sock
CONF=$T/t.conf
DLOG=$T/log

# CT_VERBOSE (tests/control/run.sh) prints every check that held too; a
# fatal or failed end shows the daemon's log
ASSERT_VERBOSE=${CT_VERBOSE:-0}
ASSERT_LOG=$DLOG
# shellcheck source=tests/lib/assert.sh
. "$ROOT/tests/lib/assert.sh"

# ---------------------------------------------------------------- polling

# wait_for TIMEOUT_S COMMAND...: poll every 0.1 s until the command succeeds.
wait_for() {
	local limit=$1 start
	shift
	start=$(date +%s%N)
	while :; do
		"$@" && return 0
		if [ $(( ($(date +%s%N) - start) / 1000000 )) -ge \
		    $((limit * 1000)) ]; then
			return 1
		fi
		sleep 0.1
	done
}

# ---------------------------------------------------------------- JSON/varlink

vl() { python3 "$VL" "$@"; }

# vcall METHOD [PARAMS_JSON] [options]: one call on $SOCK, replies on stdout.
vcall() { python3 "$VL" call "$SOCK" "$@"; }

# jget PATH [DEFAULT] < JSON
jget() { python3 "$VL" get "$@"; }

# Status field of one drive ("state", "phase", "host_bytes_written", ...).
drive_field() {	# DRIVE FIELD
	vcall io.ssdtorture.Manager.Status "{\"drive\":\"$1\"}" 2>/dev/null |
	    jget "parameters.drives.0.$2" 2>/dev/null
}

state_is() { [ "$(drive_field "$1" state)" = "$2" ]; }

# wait_state DRIVE STATE [TIMEOUT]
wait_state() { wait_for "${3:-10}" state_is "$1" "$2"; }

# Bytes written by DRIVE grow past a value.
written_past() { [ "$(drive_field "$1" host_bytes_written)" -gt "$2" ] 2>/dev/null; }

# Bytes written + read by DRIVE: grows whatever phase the drive is in (a trim
# can take long where discard is slow, so prefer this to written_past).
drive_io() {
	vcall io.ssdtorture.Manager.Status "{\"drive\":\"$1\"}" 2>/dev/null |
	    python3 -c 'import json,sys
d = json.load(sys.stdin)["parameters"]["drives"][0]
print(d["host_bytes_written"] + d["host_bytes_read"])' 2>/dev/null
}
io_past() { [ "$(drive_io "$1")" -gt "$2" ] 2>/dev/null; }

# pyrun FILE [ARGS...]: a python part of the test (tests/control/py/) with
# the shared client vl.py importable and the environment of the test; its
# failure counts as one failed check.
pyrun() {
	local rc
	SOCK=$SOCK T=$T CONF=$CONF DLOG=$DLOG DAEMON_PID=${DAEMON_PID:-} \
	    SSDCTL=$SSDCTL PYTHONPATH=$CT_DIR PYTHONDONTWRITEBYTECODE=1 \
	    python3 "$@"
	rc=$?
	if [ "$rc" -eq 0 ]; then pass_check "python section"; else
		fail "python section (exit $rc)"; fi
	return "$rc"
}

# ---------------------------------------------------------------- daemon

# write_conf [LINES FOR [daemon]...]: the standard two-drive configuration.
write_conf() {
	{
		echo "[daemon]"
		echo "state_dir = $T/state"
		echo "socket = $SOCK"
		echo "client_timeout = 2s"
		for l in "$@"; do echo "$l"; done
		cat <<EOF

[drive:a]
checkpoint = off
device = $T/a.img
size = 256M
block_size = 128k
order = random
cycles = 0
idle = 2s

[drive:b]
checkpoint = off
device = $T/b.img
size = 64M
EOF
	} >"$CONF"
}

socket_answers() { python3 "$VL" wait "$SOCK" --timeout 0.5 >/dev/null 2>&1; }

# start_daemon: in the background, logging to $DLOG; waits for the socket.
start_daemon() {
	[ -x "$SSDTORTURED" ] || die "no daemon binary at $SSDTORTURED (make all)"
	echo "--- start $(date +%T.%N)" >>"$DLOG"
	SSDTORTURE_LOG=stderr "$SSDTORTURED" -c "$CONF" 2>>"$DLOG" &
	DAEMON_PID=$!
	local i=0
	while ! socket_answers; do
		if ! kill -0 "$DAEMON_PID" 2>/dev/null; then
			wait "$DAEMON_PID"
			local rc=$?
			DAEMON_PID=
			die "the daemon exited at start (status $rc)"
		fi
		i=$((i + 1))
		[ "$i" -lt 100 ] || die "the daemon does not answer on $SOCK"
	done
}

# stop_daemon: SIGTERM, then wait; must be gone within 5 s (6 with slack).
# Sets DAEMON_RC. Returns 1 (and records a failure) when it had to be killed.
DAEMON_RC=
stop_daemon() {
	local pid=$DAEMON_PID i=0
	DAEMON_RC=
	[ -n "$pid" ] || return 0
	kill -TERM "$pid" 2>/dev/null
	while kill -0 "$pid" 2>/dev/null && [ "$(ps -o stat= -p "$pid" |
	    cut -c1)" != Z ]; do
		i=$((i + 1))
		if [ "$i" -ge 60 ]; then
			fail "daemon pid $pid still running 6 s after SIGTERM"
			kill -KILL "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			DAEMON_PID=
			return 1
		fi
		sleep 0.1
	done
	wait "$pid" 2>/dev/null
	DAEMON_RC=$?
	DAEMON_PID=
	return 0
}

# bg COMMAND...: run in the background; killed (by pid) at exit. Sets BG_PID.
BG_PID=
bg() {
	"$@" &
	BG_PID=$!
	BG_PIDS="$BG_PIDS $BG_PID"
}

# at_exit COMMAND: run at exit, before $T is removed.
at_exit() { CLEANUP_HOOKS="$CLEANUP_HOOKS
$1"; }

_cleanup() {
	local p
	set +e
	for p in $BG_PIDS; do
		kill "$p" 2>/dev/null
	done
	if [ -n "$DAEMON_PID" ]; then
		kill -TERM "$DAEMON_PID" 2>/dev/null
		for _ in $(seq 60); do
			kill -0 "$DAEMON_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$DAEMON_PID" 2>/dev/null
		wait "$DAEMON_PID" 2>/dev/null
	fi
	for p in $BG_PIDS; do
		wait "$p" 2>/dev/null
	done
	eval "$CLEANUP_HOOKS"
	if [ -n "${CT_KEEP:-}" ]; then
		echo "  (kept $T)"
	else
		rm -rf "$T"
	fi
}
trap _cleanup EXIT
trap 'exit 130' INT TERM HUP

[ -x "$SSDCTL" ] || die "no ssdctl at $SSDCTL (make all)"
command -v socat >/dev/null || die "socat is not installed"
