# lib.sh: helpers shared by the integration tests (sourced, bash).
# shellcheck shell=bash disable=SC2034
#
# Sourcing this file creates a private temporary directory $T and installs
# a trap that, on any exit, kills the daemons started through it, unmounts
# what was mounted through it, detaches the loop devices it attached and
# removes $T. The checks are tests/lib/assert.sh's: failures are counted
# and the test goes on; call `finish` last.

set -u

IT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$IT_DIR/../.." && pwd)
# shellcheck source=tests/lib/state.sh
. "$ROOT/tests/lib/state.sh"
SSDT=${SSDT:-$ROOT/daemon/ssdtortured}
TEST_NAME=$(basename "$0" .sh)
export SSDTORTURE_LOG=stderr
export LC_ALL=C

# IT_VERBOSE (tests/integration/run.sh) prints every check that held too
ASSERT_VERBOSE=${IT_VERBOSE:-0}
# shellcheck source=tests/lib/assert.sh
. "$ROOT/tests/lib/assert.sh"

# ---------------------------------------------------------------- temp, cleanup

[ -x "$SSDT" ] || { echo "$TEST_NAME: $SSDT is missing (make -C $ROOT)"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/ssdt-it.$TEST_NAME.XXXXXX") ||
    { echo "$TEST_NAME: mktemp failed"; exit 1; }
# Run a private copy: a rebuild while the test runs must not pull the
# binary from under it.
cp "$SSDT" "$T/ssdtortured" ||
    { echo "$TEST_NAME: cannot copy $SSDT"; rm -rf "$T"; exit 1; }
SSDT=$T/ssdtortured
: >"$T/.pids"
: >"$T/.mounts"
: >"$T/.loops"

# _umount_ours LAZY : unmount what we mounted, newest first (LAZY=1: retry,
# then detach lazily what is still busy).
_umount_ours() {
	local m i
	[ -f "$T/.mounts" ] || return 0
	tac "$T/.mounts" | while read -r m; do
		[ -n "$m" ] || continue
		mountpoint -q "$m" 2>/dev/null || continue
		umount "$m" 2>/dev/null && continue
		[ "$1" = 1 ] || continue
		for i in 1 2 3 4 5; do
			sleep 0.2
			umount "$m" 2>/dev/null && continue 2
		done
		umount -l "$m" 2>/dev/null || echo "$TEST_NAME: cannot unmount $m" >&2
	done
}

_cleanup() {
	local rc=$? p l i
	trap - EXIT INT TERM HUP
	# daemons first: they hold the targets open. Only our own: a pid
	# that still runs our private copy of the binary.
	if [ -f "$T/.pids" ]; then
		while read -r p; do
			is_our_daemon "$p" && kill -KILL "$p" 2>/dev/null
		done <"$T/.pids"
		while read -r p; do
			[ -n "$p" ] || continue
			for i in $(seq 1 100); do
				pid_alive "$p" || break
				sleep 0.05
			done
		done <"$T/.pids"
		wait 2>/dev/null
	fi
	# mounts, newest first; one that a loop device of ours still holds
	# (a tmpfs under a backing file) goes after the loop devices
	_umount_ours 0
	# loop devices we attached (only those: still backed by a file in $T)
	if [ -f "$T/.loops" ]; then
		tac "$T/.loops" | while read -r l; do
			[ -n "$l" ] || continue
			for i in 1 2 3 4 5; do
				case $(losetup -n -O BACK-FILE "$l" 2>/dev/null) in
				"$T"/*) ;;
				*) break ;;
				esac
				losetup -d "$l" 2>/dev/null && break
				sleep 0.2
			done
		done
	fi
	_umount_ours 1
	# nothing of ours may stay mounted under $T before it is removed
	if grep -qF " $T" /proc/self/mountinfo 2>/dev/null; then
		echo "$TEST_NAME: $T still has mounts; left in place" >&2
	elif [ "${IT_KEEP:-0}" = all ] ||
	    { [ "${IT_KEEP:-0}" = 1 ] && [ "$rc" -ne 0 ]; }; then
		# debugging aid (1: a failed test's, all: every test's): keep
		# the logs and state, not the big images
		find "$T" -name '*.img' -size +1M -delete 2>/dev/null
		echo "$TEST_NAME: kept $T" >&2
	else
		rm -rf "$T"
	fi
	exit "$rc"
}
trap _cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
}

# ---------------------------------------------------------------- processes

# Is PID a live process running our private copy of the daemon?
is_our_daemon() {
	[ -n "$1" ] && pid_alive "$1" &&
	    [ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$SSDT" ]
}

# Is the process alive (and not a zombie)?
pid_alive() {
	# bash only: a test's function may shadow a command's name
	local st
	read -r st 2>/dev/null <"/proc/$1/stat" || return 1
	st=${st##*) }
	st=${st%% *}
	[ -n "$st" ] && [ "$st" != "Z" ] && [ "$st" != "X" ]
}

# run_ssdt LOGFILE ARGS... : run the daemon in the foreground (timeout
# 180 s); sets RC. stdout and stderr both go to LOGFILE.
run_ssdt() {
	local logf=$1
	shift
	# --foreground: stay in our process group, so that a signal to the
	# test's group (run.sh's timeout) reaches the daemon too
	timeout --foreground -k 10 "${SSDT_TIMEOUT:-180}" "$SSDT" "$@" >"$logf" 2>&1
	RC=$?
	[ "$RC" -eq 124 ] && fail "ssdtortured $* timed out"
	return 0
}

# start_ssdt LOGFILE ARGS... : in the background; sets SSDT_PID. The
# daemon runs under a subshell that waits for it, so that its death by a
# signal is a plain exit status here (no job notices from bash).
declare -A WRAP_OF
start_ssdt() {
	local logf=$1 i
	shift
	rm -f "$T/.lastpid"
	(
		"$SSDT" "$@" >"$logf" 2>&1 &
		echo $! >"$T/.lastpid.tmp"
		mv "$T/.lastpid.tmp" "$T/.lastpid"
		wait $!
	) 2>/dev/null &
	for i in $(seq 1 500); do
		[ -s "$T/.lastpid" ] && break
		sleep 0.01
	done
	SSDT_PID=$(cat "$T/.lastpid" 2>/dev/null) || die "cannot start $SSDT"
	WRAP_OF[$SSDT_PID]=$!
	echo "$SSDT_PID" >>"$T/.pids"
}

# wait_exit PID TIMEOUT_S : wait for a daemon started by start_ssdt; sets RC
# (255 after killing it when it does not exit in time) and ELAPSED
# (seconds, two decimals).
wait_exit() {
	local pid=$1 limit_ms t0 now w=${WRAP_OF[$1]:-$1}
	limit_ms=$(awk -v s="$2" 'BEGIN { printf "%d", s * 1000 }')
	t0=$(date +%s%3N)
	while pid_alive "$pid"; do
		now=$(date +%s%3N)
		if [ $((now - t0)) -gt "$limit_ms" ]; then
			fail "process $pid did not exit within $2 s"
			kill -KILL "$pid" 2>/dev/null
			wait "$w" 2>/dev/null
			RC=255
			ELAPSED=$2
			return 0
		fi
		sleep 0.02
	done
	now=$(date +%s%3N)
	wait "$w" 2>/dev/null
	RC=$?
	ELAPSED=$(awk -v ms="$((now - t0))" 'BEGIN { printf "%.2f", ms / 1000 }')
	return 0
}

# kill_and_reap SIGNAL PID : send a signal and reap the child; sets RC.
kill_and_reap() {
	kill "-$1" "$2" 2>/dev/null
	wait_exit "$2" 30
}

# wait_log LOGFILE STRING TIMEOUT_S PID : wait for a line in a log.
wait_log() {
	local i n
	n=$(awk -v s="$3" 'BEGIN { printf "%d", s * 20 }')
	for i in $(seq 1 "$n"); do
		grep -qF -- "$2" "$1" 2>/dev/null && return 0
		[ -n "${4:-}" ] && ! pid_alive "$4" && { grep -qF -- "$2" "$1"; return $?; }
		sleep 0.05
	done
	return 1
}

# ---------------------------------------------------------------- state
# (state_get, wait_state, ev_query, ev_count, layout: tests/lib/state.sh)

# state_snap STATEFILE DEST : copy the (atomically replaced) state file.
state_snap() {
	cp "$1" "$2" 2>/dev/null
}

# ---------------------------------------------------------------- events

# events_size FILE : bytes, to read only what a later run appends.
events_size() {
	if [ -f "$1" ]; then stat -c %s "$1"; else echo 0; fi
}

# events_mark EVENTS STATEFILE : where the next run's events will start.
# After a crash the log may go on past the last checkpoint; the next start
# cuts it back to the checkpoint's events_bytes.
events_mark() {
	local size eb
	size=$(events_size "$1")
	eb=$(state_get "$2" events_bytes)
	if [ -n "$eb" ] && [ "$eb" -lt "$size" ]; then echo "$eb"; else echo "$size"; fi
}

# count_class FILE CLASS [FROM_BYTE] : verify_error events of a class.
count_class() {
	ev_count "$1" "${3:-0}" event=verify_error "class=$2"
}

# The verify classes a run that was only killed or cut may never have:
# all but torn (a write the kill or the cut tore). block.c names them.
BAD_CLASSES="corrupt misdirected stale foreign unwritten io_error lost_flush"

# assert_no_findings LABEL EVENTS FROM_BYTE : no verify_error event of
# BAD_CLASSES in the events file past FROM_BYTE.
assert_no_findings() {
	local c
	for c in $BAD_CLASSES; do
		assert_eq "${1:+$1: }$c findings" 0 \
		    "$(count_class "$2" "$c" "$3")"
	done
}

# assert_no_errors LABEL STATEFILE : the state counts none of BAD_CLASSES.
assert_no_errors() {
	local c
	for c in $BAD_CLASSES; do
		assert_eq "${1:+$1: }errors.$c" 0 "$(state_get "$2" "errors.$c")"
	done
}

# tiny_drive_conf CONF STATE_DIR IMAGE : drive a on an 8 MiB image (on
# tmpfs) whose write, verify and trim passes take a few ms each, cycling
# until stopped: most moments are near a phase change.
tiny_drive_conf() {
	truncate -s 8M "$3"
	write_conf "$1" "$2" <<EOF
[drive:a]
checkpoint = off
smart = off
device = $3
serial = none
block_size = 64k
queue_depth = 8
order = random
static_fraction = 0.25
trim = yes
cycles = 0
EOF
}

# ev_valid FILE : every line parses and has time, drive, event, message.
ev_valid() {
	python3 - "$1" <<'EOF'
import json, sys
bad = 0
for n, raw in enumerate(open(sys.argv[1]), 1):
    try:
        e = json.loads(raw)
        assert all(k in e for k in ("time", "drive", "event", "message"))
    except Exception:
        print("  bad event line %d: %r" % (n, raw[:200])); bad += 1
sys.exit(1 if bad else 0)
EOF
}

# ---------------------------------------------------------------- targets

# new_loop [LOSETUP_OPTION...] FILE : attach a loop device; sets LOOPDEV
# (registered for cleanup).
new_loop() {
	LOOPDEV=$(losetup -f --show "$@") || die "losetup -f --show $* failed"
	echo "$LOOPDEV" >>"$T/.loops"
}

# do_mount [OPTIONS] DEV DIR : mount (registered for cleanup).
do_mount() {
	mkdir -p "${*: -1}"
	echo "${*: -1}" >>"$T/.mounts"
	mount "$@" || die "mount $* failed"
}

# stallfs BACKING DIR FLAG [SLOW_FROM RATE] : mount stallfs.py (its file
# DIR/disk over BACKING; registered for cleanup); skips the test when this
# host cannot mount FUSE.
stallfs() {
	local py=/usr/bin/python3
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	"$py" -c 'import fuse' 2>/dev/null ||
	    skip "python3-fuse missing (tests/deps.sh)"
	mkdir -p "$2"
	echo "$2" >>"$T/.mounts"
	# not a child of ours: the cleanup waits for its children before it
	# unmounts, and the server ends only when unmounted
	( "$py" "$IT_DIR/stallfs.py" "$@" >"$T/fs.log" 2>&1 & )
	for _ in $(seq 1 100); do
		mountpoint -q "$2" && [ -e "$2/disk" ] && break
		sleep 0.05
	done
	mountpoint -q "$2" || { show_file "$T/fs.log"; skip "cannot mount FUSE"; }
}

# Flush a loop device's and its backing file's caches, then hash the file.
hash_backing() {
	sync
	[ -n "${2:-}" ] && blockdev --flushbufs "$2" 2>/dev/null
	sha256sum <"$1" | cut -d' ' -f1
}

# Read one block of a file: read_block FILE BLOCK_SIZE INDEX DEST
read_block() {
	dd if="$1" of="$4" bs="$2" skip="$3" count=1 status=none
}

# Write one block into a file in place: write_block FILE BLOCK_SIZE INDEX SRC
write_block() {
	dd if="$4" of="$1" bs="$2" seek="$3" count=1 conv=notrunc,fsync status=none
}

# blk_header FILE BLOCK_SIZE INDEX : "magic version block_size instance_hex
# offset generation" of the header stored there.
blk_header() {
	python3 - "$@" <<'EOF'
import struct, sys
path, bs, idx = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "rb") as f:
    f.seek(idx * bs)
    h = f.read(64)
m, ver, bsz, inst, off, gen, t, res, ck = struct.unpack("<QIIQQQQQQ", h)
print("%s %d %d %016x %d %d" % (struct.pack("<Q", m).rstrip(b"\0").decode("latin1"),
      ver, bsz, inst, off, gen))
EOF
}

# hex16 DECIMAL : the instance id as the events print it.
hex16() {
	python3 -c 'import sys; print("%016x" % int(sys.argv[1]))' "$1"
}

# Allocated bytes of a (sparse) file.
alloc_bytes() {
	echo $(($(stat -c %b "$1") * $(stat -c %B "$1")))
}

# write_conf FILE STATE_DIR then drive sections from stdin. The control
# socket is private to the state directory (never the system's default).
write_conf() {
	{
		printf '[daemon]\nstate_dir = %s\nsocket = %s.sock\n' "$2" "$2"
		cat
	} >"$1"
}

# monitor_state STATEFILE PID : sample the state file every 50 ms until the
# process exits; print a complaint for every counter that went backwards
# (and for a position that went back within one phase of one cycle).
# Exit status 1 on any; the last line says how many samples were taken.
monitor_state() {
	python3 "$IT_DIR/monitor_state.py" "$@"
}
