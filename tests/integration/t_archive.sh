#!/bin/bash
# RRD archives read back by the real rrdtool: the layout (step, sources,
# archives), values that match the daemon's own counters, updates that go
# on in the same file after a restart, a new host's archives made before
# READY=1 (and before the drives' I/O), a file of another layout left alone,
# and the same through a real rrdcached on a Unix socket and on 127.0.0.1,
# including rrdcached going away and coming back.
# run: timed
# (tests/lib/jobs.sh; the bound: the archive gap no longer than the
# downtime and a start, 12 s)
. "$(dirname "$0")/lib.sh"
command -v rrdtool >/dev/null || die "rrdtool missing (tests/deps.sh)"
command -v rrdcached >/dev/null || die "rrdcached missing (tests/deps.sh)"
# the rrdcached we start go with the test, whatever happens
trap '_rc=$?; [ -f "$T/.extra_pids" ] && xargs -r kill <"$T/.extra_pids" 2>/dev/null; (exit $_rc); _cleanup' EXIT

drive_conf() {	# NAME
	cat <<EOF2
[drive:$1]
checkpoint = off
device = $T/$1.img
size = 128M
block_size = 128k
order = random
queue_depth = 8
idle = 1s
cycles = 0
EOF2
}

# lastupdate FILE DS [rrdtool options]: the last value of a source
lastupdate() {
	local f=$1 ds=$2
	shift 2
	rrdtool lastupdate "$@" "$f" | awk -v ds="$ds" '
	    NR == 1 { for (i = 1; i <= NF; i++) if ($i == ds) col = i + 1 }
	    NR == 3 { print $col }'
}

# The sources of the layout, in order (common/rrd_layout.h): "NAME KIND".
LAYOUT=$ROOT/common/rrd_layout.h
sed -nE 's/.*X\(DS_[A-Z]+,[[:space:]]*"([a-z0-9_]+)",[[:space:]]*(RRD_[A-Z_]+)\).*/\1 \2/p' \
    "$LAYOUT" >"$T/sources"
NDS=$(wc -l <"$T/sources")
NFIRST=$(sed -nE 's/^#define RRD_NDS_FIRST[[:space:]]+([0-9]+).*/\1/p' "$LAYOUT")
[ "$NDS" -gt "$NFIRST" ] || die "cannot read the sources from $LAYOUT"

# first_layout FILE: an archive as the first layout made it (its first
# NFIRST sources, 1 s step, one archive), with 42 in write_bps 20 s ago.
first_layout() {
	local ds t0
	ds=$(head -n "$NFIRST" "$T/sources" | awk '{ printf "DS:%s:GAUGE:300:U:U ", $1 }')
	t0=$(($(date +%s) - 30))
	# shellcheck disable=SC2086
	rrdtool create "$1" --start "$t0" --step 1 $ds RRA:AVERAGE:0.5:1:7200 \
	    RRA:MAX:0.5:1:7200 || die "rrdtool create (first layout)"
	rrdtool update "$1" "$((t0 + 10)):42$(printf ':U%.0s' $(seq 2 "$NFIRST"))" \
	    || die "rrdtool update (first layout)"
}

log "files: layout and values"
ST=$T/state
RRD=$ST/a/a.rrd
{ drive_conf a; } | write_conf "$T/a.conf" "$ST"
start_ssdt "$T/a1.log" -c "$T/a.conf"
sleep 6
kill -TERM "$SSDT_PID"; wait_exit "$SSDT_PID" 10
assert_rc "first run exits" 0 "$RC" "$T/a1.log"
[ -f "$RRD" ] || die "no archive at $RRD"
rrdtool info "$RRD" >"$T/info" || die "rrdtool info failed"
assert_file_contains "step 1" "$T/info" "step = 1"
assert_eq "data sources" "$NDS" "$(grep -c '^ds\[.*\]\.index' "$T/info")"
i=0
while read -r name kind; do
	assert_file_contains "source $i: $name" "$T/info" "ds[$name].index = $i"
	i=$((i + 1))
done <"$T/sources"
assert_eq "archives" 12 "$(grep -c '^rra\[[0-9]*\]\.cf' "$T/info")"
for cf in AVERAGE MIN MAX; do
	assert_eq "$cf archives" 4 "$(grep -c "\.cf = \"$cf\"" "$T/info")"
done
assert_file_contains "2 h of seconds" "$T/info" "rra[0].rows = 7200"
H=$(state_get "$ST/a/state" host_bytes_written)
L=$(lastupdate "$RRD" host_written)
note "state host_bytes_written $H, archive host_written $L"
assert_gt "archive host_written" "${L%.*}" 0
assert_le "archive host_written <= the state's" "${L%.*}" "$H"
T1=$(rrdtool last "$RRD")
rrdtool fetch "$RRD" MAX -s $((T1 - 5)) -e "$T1" >"$T/fetch"
assert_eq "a second with writes in the last 5 s" 1 "$(awk 'NR > 2 && $2 + 0 > 0 { n = 1 } END { print n + 0 }' "$T/fetch")"
INODE=$(stat -c %i "$RRD")
F=$(lastupdate "$RRD" flush_lat_us)
note "flush latency of the last second: ${F:-none} us"
assert_gt "a cache flush timed in the last seconds of writing" \
    "$(awk 'NR > 2 && $NF !~ /nan/ { n++ } END { print n + 0 }' "$T/fetch")" 0

log "files: a new host's archives are made before READY=1 (and the drives' I/O)"
ST3=$T/state3
{ for n in n1 n2 n3; do drive_conf $n; done; } | write_conf "$T/n.conf" "$ST3"
python3 - "$T/notify.sock" "$ST3" n1 n2 n3 >"$T/notify.out" 2>&1 <<'EOF2' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
open(sys.argv[1] + ".up", "w").close()
s.settimeout(60)
while b"READY=1" not in s.recv(4096).split(b"\n"):
    pass
print("at READY=1, missing:", " ".join(n for n in sys.argv[3:] if not
      os.path.exists("%s/%s/%s.rrd" % (sys.argv[2], n, n))) or "none")
EOF2
LISTENER=$!
for _ in $(seq 1 200); do [ -f "$T/notify.sock.up" ] && break; sleep 0.05; done
export NOTIFY_SOCKET=$T/notify.sock
start_ssdt "$T/n.log" -c "$T/n.conf"
unset NOTIFY_SOCKET
wait "$LISTENER"
assert_file_contains "every archive there at READY=1" "$T/notify.out" \
    "at READY=1, missing: none"
kill -TERM "$SSDT_PID"; wait_exit "$SSDT_PID" 10
assert_rc "the three-drive run exits" 0 "$RC" "$T/n.log"

log "files: a restart goes on in the same file"
sleep 2
start_ssdt "$T/a2.log" -c "$T/a.conf"
sleep 4
kill -TERM "$SSDT_PID"; wait_exit "$SSDT_PID" 10
assert_eq "same file (inode)" "$INODE" "$(stat -c %i "$RRD")"
T2=$(rrdtool last "$RRD")
assert_gt "last update moved on" "$T2" "$T1"
L2=$(lastupdate "$RRD" host_written)
assert_ge "host_written never goes back" "${L2%.*}" "${L%.*}"
# unknown seconds only around the downtime (plus the 5 s heartbeat)
rrdtool fetch "$RRD" AVERAGE -s "$T1" -e "$T2" >"$T/gap"
GAP=$(awk 'NR > 2 && $6 ~ /nan/ { n++ } END { print n + 0 }' "$T/gap")
note "unknown seconds between the runs: $GAP"
assert_le "gap no longer than downtime + start" "$GAP" 12

log "files: another layout is an error, not a re-create"
mkdir -p "$ST/b"
rrdtool create "$ST/b/b.rrd" --step 10 DS:x:GAUGE:20:U:U RRA:AVERAGE:0.5:1:10
SUM=$(sha256sum <"$ST/b/b.rrd")
{ drive_conf a; drive_conf b; } | write_conf "$T/b.conf" "$ST"
start_ssdt "$T/b.log" -c "$T/b.conf"
sleep 4
kill -TERM "$SSDT_PID"; wait_exit "$SSDT_PID" 10
assert_file_contains "the log names the other layout" "$T/b.log" "another layout"
assert_eq "the file is left as it was" "$SUM" "$(sha256sum <"$ST/b/b.rrd")"

log "files: an archive of the first layout gets the new sources, its data kept"
mkdir -p "$ST/u"
first_layout "$ST/u/u.rrd"
{ drive_conf u; } | write_conf "$T/u.conf" "$ST"
start_ssdt "$T/u.log" -c "$T/u.conf"
sleep 4
kill -TERM "$SSDT_PID"; wait_exit "$SSDT_PID" 10
rrdtool info "$ST/u/u.rrd" >"$T/uinfo" || die "rrdtool info (upgraded)"
assert_eq "upgraded: data sources" "$NDS" "$(grep -c '^ds\[.*\]\.index' "$T/uinfo")"
assert_file_contains "upgraded: flush_lat_us at its place" "$T/uinfo" \
    "ds[flush_lat_us].index = $NFIRST"
assert_file_contains "upgraded: the log says so" "$T/u.log" "sources from 'flush_lat_us' on added"
rrdtool fetch "$ST/u/u.rrd" AVERAGE -s "$(($(date +%s) - 60))" -e now >"$T/ufetch"
assert_ge "upgraded: the value written before is still there" \
    "$(awk 'NR > 2 && $2 + 0 == 42 { n++ } END { print n + 0 }' "$T/ufetch")" 1
assert_gt "upgraded: updates go on (host_written)" \
    "$(lastupdate "$ST/u/u.rrd" host_written | cut -d. -f1)" 0
assert_not_contains "upgraded: not called another layout" "$(cat "$T/u.log")" "another layout"

# rrdcached_start LISTEN BASE DIR: an rrdcached, its pid on stdout once it
# is written. The daemon's parent returns before its child writes the pid
# file, so the file is waited for rather than read at once.
rrdcached_start() {
	local pid i
	rm -f "$3/pid"
	rrdcached -l "$1" -b "$2" -B -j "$3/j" -p "$3/pid" \
	    -w 3600 -f 7200 -z 1 -F >>"$3/rrdcached.log" 2>&1 || {
		cat "$3/rrdcached.log" >&2; return 1; }
	for i in $(seq 1 100); do
		pid=$(cat "$3/pid" 2>/dev/null)
		[ -n "$pid" ] && pid_alive "$pid" && break
		sleep 0.05
	done
	[ -n "$pid" ] || return 1
	echo "$pid" >>"$T/.extra_pids"
	echo "$pid"
}

# rrdcached_stop PID: TERM, then wait until it is gone (it flushes first)
rrdcached_stop() {
	local i
	kill "$1" || return 1
	for i in $(seq 1 200); do
		pid_alive "$1" || return 0
		sleep 0.05
	done
	return 1
}

# rrdcached_run LABEL LISTEN DAEMON_ADDR: one daemon run through rrdcached
rrdcached_run() {
	local label=$1 listen=$2 addr=$3 base=$T/$1/base host rc_pid f
	mkdir -p "$base" "$T/$1/j"
	host=$(hostname -s)
	mkdir -p "$base/$host"
	rc_pid=$(rrdcached_start "$listen" "$base" "$T/$1") ||
	    die "rrdcached did not start"
	if [ "$label" = unix ]; then
		{ printf 'rrdcached = %s\nrrdcached_dir = %s\n' "$addr" "$base"
		  drive_conf c$label; } | write_conf "$T/$label.conf" "$T/$label/state"
	else
		{ printf 'rrdcached = %s\n' "$addr"; drive_conf c$label; } |
		    write_conf "$T/$label.conf" "$T/$label/state"
	fi
	start_ssdt "$T/$label.log" -c "$T/$label.conf"
	sleep 4
	f=$host/c$label.rrd
	# a local rrdcached is given absolute paths; a remote one relative ones
	[ "$label" = unix ] && f=$base/$f
	rrdtool flushcached --daemon "$addr" "$f" || fail "$label: flushcached $f"
	[ -f "$base/$host/c$label.rrd" ] && pass_check ||
	    fail "$label: no $base/$host/c$label.rrd"
	L=$(lastupdate "$base/$host/c$label.rrd" host_written)
	assert_gt "$label: host_written read back through rrdcached" "${L%.*}" 0
	if [ "$label" = unix ]; then
		log "rrdcached goes away and comes back"
		rrdcached_stop "$rc_pid" || die "rrdcached did not stop"
		sleep 2
		pid_alive "$SSDT_PID" && pass_check || fail "daemon died with rrdcached"
		"${SSDCTL:-$ROOT/ctl/ssdctl}" -s "$T/$label/state.sock" status >/dev/null &&
		    pass_check || fail "daemon does not answer without rrdcached"
		rc_pid=$(rrdcached_start "$listen" "$base" "$T/$1") ||
		    die "rrdcached did not restart"
		sleep 4
		rrdtool flushcached --daemon "$addr" "$f"
		T3=$(rrdtool last "$base/$host/c$label.rrd")
		assert_ge "updates arrive again" "$T3" $(($(date +%s) - 3))
		assert_eq "unreachable logged once" 1 \
		    "$(grep -c 'unreachable' "$T/$label.log")"
	fi
	kill -TERM "$SSDT_PID"; wait_exit "$SSDT_PID" 10
	assert_rc "$label: daemon exits" 0 "$RC" "$T/$label.log"
	kill "$rc_pid" 2>/dev/null
}

log "rrdcached on a Unix socket"
rrdcached_run unix "unix:$T/rc.sock" "unix:$T/rc.sock"
log "rrdcached on 127.0.0.1"
PORT=$((42000 + RANDOM % 1000))
rrdcached_run tcp "127.0.0.1:$PORT" "127.0.0.1:$PORT"
finish
