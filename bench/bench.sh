#!/usr/bin/env bash
#
# bench.sh: ssdtortured against fio on the same fast target, plus the
# daemon's peak memory on a huge and a small target.
#
# Target: a loop device with direct I/O over a file in /dev/shm (tmpfs),
# filled once before anything is measured so that no run pays for tmpfs
# page allocation. Rows (each tool does the same I/O, each block once):
#   1  4 KiB random writes, QD32, over a 1 GiB span
#   2  4 KiB reads of that span, QD32: ours the verify pass of row 1's
#      run (read + check of every block, in block order, which is how
#      the engine verifies a random pass); fio the same reads
#   3  128 KiB sequential writes, QD8, over a 2 GiB span
#   4  128 KiB sequential reads of that span, QD8: ours the verify pass
#      of row 3's run; fio the same reads
# fio is the floor of the work: io_uring, O_DIRECT, fixed buffers and
# registered files (when this fio takes them), no verify option at all
# (its write buffers are barely filled, its reads checked against
# nothing). ssdtortured writes unique, incompressible blocks with
# verification headers and checks every block it reads. One --oneshot run
# per configuration (a fresh state dir every time, but for the drive's RRD
# archive, kept from the first run as on a host that has run before: a
# drive's first start makes its 19 MB archive before its I/O begins, and
# that page cache, new and dirty, slowed the 0.4 s write of row 3 by a
# third); rows 1 and 2 are the
# write and verify phases of the 4 KiB run, rows 3 and 4 those of the
# 128 KiB run, from the phase_end events.
#
# Every measurement is repeated N times (fio and ssdtortured interleaved,
# the order alternating) and the medians are reported: MB/s (1e6 bytes/s),
# IOPS, CPU seconds per GiB and the ssdtortured/fio throughput ratio
# (the goal is >= 1.0; below it is flagged "below goal"); then the same
# table in Markdown with the machine and the date.
#
# Memory: the daemon's peak RSS (VmHWM) after a few seconds on a 1 TiB
# sparse file and on a 1 GiB file, both on /var/tmp; the difference must
# stay below 1 MiB.
#
# Usage: bench/bench.sh [-r N] [--quick] [--json[=FILE]]
# Needs root, fio, python3, losetup, ~2 GiB free in /dev/shm and ~10 GB
# free in /var/tmp. Exits 0 whatever the figures, non-zero only when
# something fails to run. Everything it creates is removed on exit,
# Ctrl-C included.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DAEMON=$ROOT/daemon/ssdtortured
UTIL=$ROOT/bench/lib/bench_util.py

usage() {
	cat <<EOF
usage: $0 [-r N] [--quick] [--json[=FILE]]
  -r N          repetitions of every measurement (default 5); medians are
                reported
  --quick       smoke run: 1 repetition, 256 MiB / 512 MiB spans, 2 s RSS
                runs
  --json[=FILE] also write the results as JSON (default FILE:
                ./bench-results.json)
EOF
}

BENCH_NAME=bench
# shellcheck source=bench/lib/common.sh
. "$ROOT/bench/lib/common.sh"
bench_args 5 bench-results.json "$@"

if [ "$QUICK" = 1 ]; then
	SPAN4K=256M
	SPAN128=512M; SPAN128_B=$((512 << 20))
	RSS_SECS=2
else
	SPAN4K=1G
	SPAN128=2G;   SPAN128_B=$((2 << 30))
	RSS_SECS=5
fi
DEV_BYTES=$SPAN128_B

# --------------------------------------------------------------- plumbing
WORK=
IMG=
LOOP=
RSSDIR=
CHILD=
RSS_PID=


# shellcheck disable=SC2317  # called from the traps
cleanup() {
	trap '' INT TERM
	[ -n "$CHILD" ] && stop_pid "$CHILD"
	[ -n "$RSS_PID" ] && stop_pid "$RSS_PID"
	[ -n "$LOOP" ] && loop_detach "$LOOP"
	[ -n "$IMG" ] && rm -f "$IMG"
	[ -n "$RSSDIR" ] && rm -rf "$RSSDIR"
	[ -n "$WORK" ] && rm -rf "$WORK"
	LOOP=''; IMG=''; RSSDIR=''; WORK=''; CHILD=''; RSS_PID=''
}
bench_traps

# ------------------------------------------------------------ preflight
preflight

shm_need $((DEV_BYTES + (256 << 20)))
tmp_free=$(df -B1 --output=avail /var/tmp | tail -1)
[ "$tmp_free" -gt $((12 << 30)) ] ||
    msg "warning: /var/tmp has only $((tmp_free >> 30)) GiB free; the 1 TiB RSS run writes for ${RSS_SECS} s"

WORK=$(mktemp -d /tmp/ssdt-bench.XXXXXX) || die "mktemp"
RES=$WORK/results.tsv
: > "$RES"
IMG=$(mktemp /dev/shm/ssdt-bench.XXXXXX.img) || die "mktemp in /dev/shm"
truncate -s "$DEV_BYTES" "$IMG" || die "truncate $IMG"
LOOP=$(losetup -f --show --direct-io=on "$IMG") || die "losetup failed"
dio=$(cat "/sys/block/${LOOP#/dev/}/loop/dio" 2>/dev/null || echo "?")
[ "$dio" = 1 ] || msg "warning: $LOOP does not do direct I/O (dio=$dio)"
msg "target: $LOOP over $IMG ($((DEV_BYTES >> 20)) MiB, dio=$dio)"

msg "pre-filling $LOOP"
dd if=/dev/zero of="$LOOP" bs=1M count=$((DEV_BYTES >> 20)) oflag=direct \
    status=none || die "pre-fill of $LOOP failed"

machine_meta
meta reps "$REPS"
meta quick "$QUICK"
meta span1 "($SPAN4K span)"
meta span2 "($SPAN4K span)"
meta span3 "($SPAN128 span)"
meta span4 "($SPAN128 span)"
meta rss_secs "$RSS_SECS"

# ------------------------------------------------------------------ fio
# fio runs in $WORK, so that whatever it leaves behind is never in the
# caller's directory (often the checkout).
FIO=(env -C "$WORK" fio)
FIO_BASE=(--filename="$LOOP" --ioengine=io_uring --direct=1 --offset=0
    --output-format=json)
FIO_REG=(--fixedbufs --registerfiles)
if ! "${FIO[@]}" --name=probe "${FIO_BASE[@]}" "${FIO_REG[@]}" --rw=read \
    --bs=4k --size=1M --output="$WORK/probe.json" >"$WORK/probe.err" 2>&1; then
	msg "this fio refuses --fixedbufs/--registerfiles; running without them"
	FIO_REG=()
fi
meta fio_opts "--ioengine=io_uring --direct=1 ${FIO_REG[*]} (no verify)"

# fio_run ROW REP NAME RW BS QD SIZE DDIR [extra options]
fio_run() {
	local row=$1 rep=$2 name=$3 rw=$4 bs=$5 qd=$6 size=$7 ddir=$8
	shift 8
	local out=$WORK/fio-$row-$rep.json err=$WORK/fio-$row-$rep.err line
	run_child "$err" "${FIO[@]}" --name="$name" "${FIO_BASE[@]}" \
	    "${FIO_REG[@]}" --rw="$rw" --bs="$bs" --iodepth="$qd" --size="$size" "$@" \
	    --output="$out" ||
	    { cat "$err" >&2; die "fio row $row (run $rep) failed"; }
	line=$(python3 -B "$UTIL" fio "$row" "$rep" "$out" "$ddir") ||
	    die "fio row $row: unusable output"
	printf '%s\n' "$line" >> "$RES"
	printf '%s\n' "$line" | awk -F'\t' -v s="$size" '
	    $5 > 0 { printf "bench:   row %s fio          %8.1f MB/s %9.0f IOPS (%s)\n", $2, $7/1e6, $8, s }' >&2
	# a pass that moved less than its span did not do the row's work
	local moved want
	moved=$(printf '%s\n' "$line" | cut -f5)
	want=$(span_bytes "$size")
	[ "$moved" = "$want" ] ||
	    die "fio row $row moved $moved bytes, not $want"
}

# fio_4k REP, fio_128k REP: the rows of one ssdtortured configuration
fio_4k() {
	fio_run 1 "$1" row1 randwrite 4k 32 "$SPAN4K" write
	fio_run 2 "$1" row2 read 4k 32 "$SPAN4K" read
}
fio_128k() {
	fio_run 3 "$1" row3 write 128k 8 "$SPAN128" write
	fio_run 4 "$1" row4 read 128k 8 "$SPAN128" read
}

# ---------------------------------------------------------- ssdtortured
# The control socket goes in the work dir, so that a daemon of the system
# (default socket /run/ssdtorture/ssdtortured.sock) is never disturbed;
# a daemon too old for the key gets no such line.
SOCK_LINE="socket = $WORK/ctl.sock"
printf '[daemon]\n%s\n' "$SOCK_LINE" > "$WORK/probe.conf"
if "$DAEMON" -n -c "$WORK/probe.conf" 2>&1 | grep -q "unknown key 'socket'"; then
	SOCK_LINE=
fi

write_conf() {	# FILE STATE_DIR SPAN BS ORDER QD
	cat > "$1" <<EOF
[daemon]
state_dir = $2
$SOCK_LINE
[drive:bench]
checkpoint = off
device = $LOOP
serial = none
span = $3
block_size = $4
order = $5
queue_depth = $6
static_fraction = 0
cycles = 1
trim = no
EOF
}
write_conf "$WORK/4k.conf" "$WORK/state" "$SPAN4K" 4k random 32
write_conf "$WORK/128k.conf" "$WORK/state" "$SPAN128" 128k sequential 8

# A fresh state dir that holds the drive's archive of an earlier run.
keep_archive_only() {
	local rrd=$WORK/state/bench/bench.rrd
	if [ -f "$rrd" ]; then
		mv "$rrd" "$WORK/kept.rrd" || die "cannot keep the archive"
	fi
	rm -rf "$WORK/state"
	if [ -f "$WORK/kept.rrd" ]; then
		mkdir -p "$WORK/state/bench" &&
		    mv "$WORK/kept.rrd" "$WORK/state/bench/bench.rrd" ||
		    die "cannot put the archive back"
	fi
}

# ssdt_run CONFIG(4k|128k) REP: one --oneshot run; appends its rows
ssdt_run() {
	local cfg=$1 rep=$2 rc wait_s out=$WORK/ssdt-$1-$2.log
	local ev=$WORK/state/bench/events.jsonl line l
	for _ in 1 2 3; do
		keep_archive_only
		# the previous run's ring may still hold the device for a moment
		wait_s=$(python3 -B "$UTIL" excl-wait "$LOOP" 30) ||
		    die "$LOOP stays busy"
		run_child "$out" python3 -B "$UTIL" run "$WORK/rusage" -- \
		    "${AS_SERVICE[@]}" "$DAEMON" -c "$WORK/$cfg.conf" --oneshot ||
		    die "cannot run the daemon"
		read -r rc utime stime _ < "$WORK/rusage"
		[ "$rc" = 0 ] && break
		if grep -q 'signature' "$out"; then
			msg "the daemon refused a signature on $LOOP; wipefs -a"
			wipefs -a "$LOOP" >/dev/null
		elif grep -q 'exclusive open failed' "$out"; then
			msg "the daemon found $LOOP busy; retrying"
			sleep 1
		else
			break
		fi
	done
	if [ "$rc" != 0 ]; then
		cat "$out" >&2
		die "ssdtortured ($cfg config, run $rep) exited with status $rc"
	fi
	local first=1
	[ "$cfg" = 4k ] || first=3
	line=$(python3 -B "$UTIL" events "$first" "$rep" write "$ev") || die "events"
	l=$(python3 -B "$UTIL" events $((first + 1)) "$rep" verify "$ev") ||
	    die "events"
	printf '%s\n%s\n' "$line" "$l" >> "$RES"
	line=$(printf '%s\n%s' "$line" "$l")
	# whole-process CPU against the worker's, both phases of the run
	local wsum bytes
	wsum=$(python3 -B - "$ev" <<'EOF'
import json, sys
b = c = 0
for ln in open(sys.argv[1]):
    try:
        o = json.loads(ln)
    except ValueError:
        continue
    if o.get("event") == "phase_end" and o.get("what") in ("write", "verify"):
        b += o["bytes"]; c += o["cpu_seconds"]
print(b, c)
EOF
) || die "events"
	read -r bytes wcpu <<<"$wsum"
	printf 'proc\t%s\t%s\t%s\t%s\t%s\t%s\n' "$cfg" "$rep" "$bytes" \
	    "$(awk -v u="$utime" -v s="$stime" 'BEGIN { printf "%.6f", u + s }')" \
	    "$wcpu" "$wait_s" >> "$RES"
	printf '%s\n' "$line" | awk -F'\t' '
	    { printf "bench:   row %s ssdtortured  %8.1f MB/s %9.0f IOPS\n", $2, $7/1e6, $8 }' >&2
}

# ----------------------------------------------------------- the rounds
msg "warm-up: one run of the 128 KiB configuration makes the drive's archive"
rm -rf "$WORK/state"
python3 -B "$UTIL" excl-wait "$LOOP" 30 >/dev/null || die "$LOOP stays busy"
wipefs -a -q "$LOOP" 2>/dev/null
run_child "$WORK/warmup.log" "${AS_SERVICE[@]}" "$DAEMON" -c "$WORK/128k.conf" --oneshot ||
    { cat "$WORK/warmup.log" >&2; die "the warm-up run failed"; }
[ -f "$WORK/state/bench/bench.rrd" ] || die "the warm-up made no archive"
msg "$REPS repetition(s); spans $SPAN4K (4 KiB) and $SPAN128 (128 KiB)"
for rep in $(seq "$REPS"); do
	msg "repetition $rep/$REPS"
	if [ $((rep % 2)) = 1 ]; then
		fio_4k "$rep"
		ssdt_run 4k "$rep"
		ssdt_run 128k "$rep"
		fio_128k "$rep"
	else
		ssdt_run 4k "$rep"
		fio_4k "$rep"
		fio_128k "$rep"
		ssdt_run 128k "$rep"
	fi
done

# ----------------------------------------------------------------- RSS
RSSDIR=$(mktemp -d /var/tmp/ssdt-rss.XXXXXX) || die "mktemp in /var/tmp"

# rss_run SIZE: the daemon on a fresh sparse file of SIZE for RSS_SECS
rss_run() {
	local size=$1 conf=$RSSDIR/rss.conf hwm rss disk
	rm -rf "$RSSDIR/state" "$RSSDIR/big.img"
	cat > "$conf" <<EOF
[daemon]
state_dir = $RSSDIR/state
${SOCK_LINE:+socket = $RSSDIR/ctl.sock}
[drive:bench]
checkpoint = off
device = $RSSDIR/big.img
size = $size
block_size = 128k
order = sequential
queue_depth = 32
cycles = 0
EOF
	"${AS_SERVICE[@]}" "$DAEMON" -c "$conf" >"$RSSDIR/daemon-$size.log" 2>&1 &
	RSS_PID=$!
	sleep "$RSS_SECS"
	if ! kill -0 "$RSS_PID" 2>/dev/null; then
		cat "$RSSDIR/daemon-$size.log" >&2
		die "the daemon exited early on the $size file"
	fi
	hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$RSS_PID/status")
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$RSS_PID/status")
	disk=$(( $(stat -c %b "$RSSDIR/big.img") * 512 ))
	kill -TERM "$RSS_PID"
	for _ in $(seq 100); do
		kill -0 "$RSS_PID" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$RSS_PID" 2>/dev/null; then
		msg "warning: the daemon did not exit within 10 s of SIGTERM"
		stop_pid "$RSS_PID"
	fi
	wait "$RSS_PID" 2>/dev/null
	RSS_PID=
	[ -n "$hwm" ] || die "no VmHWM for the daemon"
	printf 'rss\t%s\t%s\t%s\t%s\n' "$size" "$hwm" "$rss" "$disk" >> "$RES"
	msg "  RSS on a $size file: VmHWM $hwm KiB"
	rm -rf "$RSSDIR/state" "$RSSDIR/big.img"
}
msg "peak RSS runs (${RSS_SECS} s each) in $RSSDIR"
rss_run 1T
rss_run 1G

# --------------------------------------------------------------- report
python3 -B "$UTIL" report "$RES" "$JSON_OUT" || die "report failed"
exit 0
