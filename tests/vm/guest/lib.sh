# lib.sh: helpers for the guest tests (sourced by bash, inside the VM, in the
# chroot of the host root). The checks are tests/lib/assert.sh's; here every
# check prints what it checks and its outcome (the console is all there is
# to read afterwards); a failed check is counted and the test goes on;
# `finish` ends the test with status 0 only when every check held.
# shellcheck shell=bash disable=SC2034

set -u
export LC_ALL=C
export SSDTORTURE_LOG=stderr
# no udev in the guest: libdevmapper makes the /dev/mapper nodes itself
export DM_DISABLE_UDEV=1

GUEST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$GUEST_DIR/../../.." && pwd)
# shellcheck source=tests/lib/state.sh
. "$ROOT/tests/lib/state.sh"
# TCG runs the guest slowly: poll its state files less often
export SSDT_POLL_S=0.02
ASSERT_VERBOSE=1
# shellcheck source=tests/lib/assert.sh
. "$ROOT/tests/lib/assert.sh"

[ "${SSDT_VM:-0}" = 1 ] || {
	echo "$TEST_NAME: runs inside the test VM only (tests/vm/boot.sh $0)" >&2
	exit 2
}

# ---------------------------------------------------------------- checks

# py_check SCRIPT ARGS...: a python3 script (a file beside the test, or
# /dev/stdin for a few lines) prints "ok MSG" or "bad MSG" lines, each one
# a check; a script that fails or prints nothing fails. (Read from a file,
# not a pipe: a loop in a pipe runs in a subshell and its failures would
# not count.)
py_check() {
	local out=$T/py_check.out rc kind msg n=0
	python3 "$@" >"$out" 2>&1
	rc=$?
	while read -r kind msg; do
		n=$((n + 1))
		case $kind in
		ok) pass_check "$msg" ;;
		bad) fail "$msg" ;;
		*) fail "python: $kind $msg" ;;
		esac
	done <"$out"
	[ "$rc" -eq 0 ] || fail "comparison script: exit $rc"
	[ "$n" -gt 0 ] || fail "comparison script printed nothing"
}

# wait_for SECONDS COMMAND...: poll every 0.5 s until COMMAND succeeds
wait_for() {
	local n=$(($1 * 2))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.5
		n=$((n - 1))
	done
	return 1
}

# ---------------------------------------------------------------- temp, daemon

T=$(mktemp -d /tmp/vmt.XXXXXX) || die "mktemp failed"
SSDT=$T/ssdtortured
SSDCTL=$T/ssdctl
# private copies: a rebuild on the host while the VM runs changes nothing
cp "$ROOT/daemon/ssdtortured" "$SSDT" || die "no $ROOT/daemon/ssdtortured (make -C $ROOT all)"
cp "$ROOT/ctl/ssdctl" "$SSDCTL" 2>/dev/null || true
: >"$T/.pids"

_cleanup() {
	local rc=$? p
	trap - EXIT
	while read -r p; do
		[ -n "$p" ] && [ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$SSDT" ] &&
		    kill -KILL "$p" 2>/dev/null
	done <"$T/.pids"
	exit "$rc"
}
trap _cleanup EXIT

# run_ssdt LOGFILE ARGS...: the daemon in the foreground; sets RC and ELAPSED
run_ssdt() {
	local logf=$1 t0
	shift
	t0=$(date +%s%N)
	timeout -k 5 "${SSDT_TIMEOUT:-240}" "$SSDT" "$@" >"$logf" 2>&1
	RC=$?
	ELAPSED=$(awk -v ns="$(($(date +%s%N) - t0))" 'BEGIN { printf "%.1f", ns / 1e9 }')
	note "ssdtortured $* -> exit $RC (${ELAPSED}s)"
	[ "$RC" -eq 124 ] && fail "ssdtortured $* timed out"
	return 0
}

# start_ssdt LOGFILE ARGS...: in the background; sets SSDT_PID
start_ssdt() {
	local logf=$1
	shift
	"$SSDT" "$@" >"$logf" 2>&1 &
	SSDT_PID=$!
	echo "$SSDT_PID" >>"$T/.pids"
	note "started ssdtortured $* (pid $SSDT_PID)"
}

# wait_pid PID TIMEOUT_S: wait for a background daemon; sets RC (255 after
# killing it when it does not exit in time)
wait_pid() {
	local i n
	n=$(($2 * 10))
	for ((i = 0; i < n; i++)); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$1" 2>/dev/null; then
		fail "pid $1 did not exit within $2 s"
		kill -KILL "$1" 2>/dev/null
		wait "$1" 2>/dev/null
		RC=255
		return 0
	fi
	wait "$1"
	RC=$?
	return 0
}

# stop_ssdt PID LOGFILE: SIGTERM; the daemon must exit 0 within 5 s
stop_ssdt() {
	local t0 ms
	kill -TERM "$1"
	t0=$(date +%s%N)
	wait_pid "$1" 10
	ms=$((($(date +%s%N) - t0) / 1000000))
	assert_rc "exit status after SIGTERM" 0 "$RC" "$2"
	assert_le "stopped within 5 s (ms)" "$ms" 5000
}

# errors_sum STATEFILE: corrupt + io_error + stale
errors_sum() {
	echo $(($(state_get "$1" errors.corrupt) + $(state_get "$1" errors.io_error) +
	    $(state_get "$1" errors.stale)))
}

# ---------------------------------------------------------------- state, events
# (state_get, wait_state, ev_query, ev_count, layout: tests/lib/state.sh)

# show_state STATEFILE: the interesting keys on one line
show_state() {
	local k out=""
	for k in run reason phase cycle cycles_done host_bytes_written host_bytes_read \
	    host_bytes_trimmed errors.corrupt errors.stale errors.io_error \
	    errors.unwritten errors.misdirected errors.foreign errors.lost_flush; do
		out="$out $k=$(state_get "$1" "$k" | tr ' ' '_')"
	done
	note "state:$out"
}

# progress LABEL STATEFILE PID: the drive still runs and its
# host_bytes_written still grows (within 30 s)
progress() {
	local h
	h=$(state_get "$2" host_bytes_written)
	if wait_state "$2" "$3" 30 "s['host_bytes_written'] > $h and s['run'] == 'running'"; then
		pass_check "$1: still writing ($h -> $(state_get "$2" host_bytes_written) bytes)"
	else
		fail "$1: stopped writing (host_bytes_written $h, run $(state_get "$2" run))"
	fi
}

# sum of "blocks" over the verify_error events of a class
ev_blocks() {
	ev_query "$1" 0 blocks event=verify_error "class=$2" | awk '{ s += $1 } END { print s + 0 }'
}

# write_conf FILE STATE_DIR, then the drive sections on stdin
write_conf() {
	{
		printf '[daemon]\nstate_dir = %s\nsocket = %s.sock\n' "$2" "$2"
		cat
	} >"$1"
}

# ---------------------------------------------------------------- devices

# sha256 of the first MiB of a device, read around the page cache
sha_mib() {
	dd if="$1" bs=1M count=1 iflag=direct status=none | sha256sum | cut -d' ' -f1
}

# nvme_smart FIELD [CTRL]: one field of the NVMe SMART log (as a number)
nvme_smart() {
	nvme smart-log -o json "${2:-/dev/nvme0}" | python3 -c '
import json, sys
print(int(json.load(sys.stdin)[sys.argv[1]]))' "$1"
}

# dm_create NAME TABLE: a device-mapper device, /dev/mapper/NAME
dm_create() {
	dmsetup create "$1" --noudevsync --table "$2" ||
	    die "dmsetup create $1 --table '$2' failed"
	[ -b "/dev/mapper/$1" ] || dmsetup mknodes "$1"
	[ -b "/dev/mapper/$1" ] || die "/dev/mapper/$1 missing after dmsetup create"
	note "dm $1: $2"
}

# dm_swap NAME TABLE: load a new table, suspend, resume
dm_swap() {
	dmsetup load "$1" --noudevsync --table "$2" &&
	    dmsetup suspend "$1" --noudevsync &&
	    dmsetup resume "$1" --noudevsync ||
	    die "swapping the table of $1 to '$2' failed"
	note "dm $1 now: $(dmsetup table "$1")"
}

# nullb_make NAME SIZE_MIB KEY=VALUE...: a null_blk device of SIZE_MIB,
# memory backed (a read returns what was written), of 4 KiB blocks unless
# a KEY=VALUE says otherwise, in queue mode 2 (multi-queue) with a queue
# of 64, no scheduler; the other configfs attributes as given (irqmode,
# completion_nsec, ...). Sets NBDEV.
nullb_make() {
	local nb=/sys/kernel/config/nullb/$1 size=$2 kv
	shift 2
	modprobe null_blk nr_devices=0 || die "modprobe null_blk"
	grep -q ' /sys/kernel/config ' /proc/mounts ||
	    mount -t configfs none /sys/kernel/config || die "configfs"
	mkdir "$nb" || die "no configfs directory for null_blk"
	for kv in size="$size" blocksize=4096 memory_backed=1 queue_mode=2 \
	    hw_queue_depth=64 "$@" power=1; do
		echo "${kv#*=}" >"$nb/${kv%%=*}" || die "null_blk: cannot set $kv"
	done
	# the disk is named after the configfs directory (6.0 on) or its index
	NBDEV=/dev/${nb##*/}
	[ -b "$NBDEV" ] || NBDEV=/dev/nullb$(cat "$nb/index")
	[ -b "$NBDEV" ] || die "no block device for $nb"
	echo none >"/sys/block/${NBDEV#/dev/}/queue/scheduler" 2>/dev/null
}

log "starting (kernel $(uname -r), daemon $(stat -c %y "$ROOT/daemon/ssdtortured" | cut -d. -f1))"
