#!/usr/bin/env bash
#
# scale.sh: ssdtortured on many drives at once, against fio on the same
# devices, and what the daemon does for a full host while its drives run.
#
# Targets: one loop device with direct I/O per drive, each over a file in
# /dev/shm (tmpfs), filled once before anything is measured.
#
# Aggregate rows, for 1, 8 and 24 drives: 128 KiB sequential writes at QD8,
# each device written once. fio: one job per device in one run (io_uring,
# O_DIRECT, fixed buffers and registered files when this fio takes them,
# no verify at all: the floor of the work; and fio-verify: --verify=crc32c,
# each job's blocks verifiable and read back and checked after its writes,
# timed by its write phase, the same work as the daemon's cycle).
# ssdtortured (verify headers in
# every block, as always): one drive
# section per device, one --oneshot cycle; the write phases' phase_end
# events give each drive's write time from its own start (MB/s: all bytes
# over the longest, as fio times its jobs and reports the longest) and the
# span from the first drive's start to the last one's end, reported beside.
# Its CPU: the whole process (wait4, exec to exit) per GiB it moved (write
# and verify), and its I/O workers' in the write phase per GiB written; fio's
# is its jobs' over their runtime. The state dir is on /var/tmp
# and holds the archives of an earlier run, as on a host that has run
# before: the first start's archive creation is the start-up row's.
#
# Running host, with 1 and with 24 drives running endlessly on a fresh
# state dir: start-up (exec to every drive running and every archive
# created, librrd without rrdcached); then a few hundred Status calls, each
# on a new connection as ssdctl makes them, 20 ms apart: p50, p99 and the
# slowest, and the p99 of each call less the time the client itself waited
# for a CPU during it (its schedstat run_delay: the daemon's part); the
# main loop's longest turn, which the daemon measures and says at exit;
# VmRSS; memory per drive = (VmRSS with 24 - with 1) / 23.
# Archive files are not in RSS.
#
# Every measurement is repeated N times (fio and ssdtortured interleaved,
# the order alternating); medians are reported, with the ratios
# (ssdtortured/fio, target >= 1.0, below 0.9 flagged DEFECT) and the goals
# of issue 13, then the same in Markdown with the machine and the date.
#
# Usage: bench/scale.sh [-r N] [--quick] [--json[=FILE]]
# SCALE_PHASES=FILE: each drive's phases (start-end, seconds from the
# first drive's write start) of every ssdtortured run appended to FILE.
# Needs root, fio, python3, losetup; 24 x 256 MiB (--quick: 24 x 64 MiB)
# plus 1 GiB free in /dev/shm and ~1 GB in /var/tmp. Exits 0 whatever the
# figures, non-zero only when something fails to run. Everything it creates
# is removed on exit, Ctrl-C included.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DAEMON=$ROOT/daemon/ssdtortured
UTIL=$ROOT/bench/lib/scale_util.py
BENCH_NAME=scale
# shellcheck source=bench/lib/common.sh
. "$ROOT/bench/lib/common.sh"

COUNTS="1 8 24"			# drives at once; the last is the full host
NMAX=${COUNTS##* }
usage() {
	cat <<EOF
usage: $0 [-r N] [--quick] [--json[=FILE]]
  -r N          repetitions of every measurement (default 3); medians are
                reported
  --quick       smoke run: 1 repetition, 64 MiB per drive, 100 status calls
  --json[=FILE] also write the results as JSON (default FILE:
                ./scale-results.json)
EOF
}

bench_args 3 scale-results.json "$@"
if [ "$QUICK" = 1 ]; then
	SIZE=64M; CALLS=100
else
	SIZE=256M; CALLS=300
fi
DEV_BYTES=$(span_bytes "$SIZE")

# --------------------------------------------------------------- plumbing
WORK=
STATE=
IMGS=()
LOOPS=()
CHILD=

# shellcheck disable=SC2317  # called from the traps
cleanup() {
	trap '' INT TERM
	[ -n "$CHILD" ] && stop_pid "$CHILD"
	local l
	for l in "${LOOPS[@]}"; do
		loop_detach "$l"
	done
	[ ${#IMGS[@]} -gt 0 ] && rm -f "${IMGS[@]}"
	[ -n "$STATE" ] && rm -rf "$STATE"
	[ -n "$WORK" ] && rm -rf "$WORK"
	LOOPS=(); IMGS=(); STATE=''; WORK=''; CHILD=''
}
bench_traps

# ------------------------------------------------------------ preflight
preflight

need=$((NMAX * DEV_BYTES + (1 << 30)))
shm_need "$need"

WORK=$(mktemp -d /tmp/ssdt-scale.XXXXXX) || die "mktemp"
STATE=$(mktemp -d /var/tmp/ssdt-scale.XXXXXX) || die "mktemp in /var/tmp"
RES=$WORK/results.tsv
: > "$RES"

# NMAX devices, filled once so that no run pays for tmpfs allocation
make_devices() {
	local i img loop
	for i in $(seq 0 $((NMAX - 1))); do
		img=$(mktemp "/dev/shm/ssdt-scale-$i.XXXXXX.img") ||
		    die "mktemp in /dev/shm"
		IMGS+=("$img")
		truncate -s "$DEV_BYTES" "$img" || die "truncate $img"
		loop=$(losetup -f --show --direct-io=on "$img") ||
		    die "losetup failed"
		LOOPS+=("$loop")
		[ "$(cat "/sys/block/${loop#/dev/}/loop/dio" 2>/dev/null)" = 1 ] ||
		    msg "warning: $loop does not do direct I/O"
		dd if=/dev/zero of="$loop" bs=1M count=$((DEV_BYTES >> 20)) \
		    oflag=direct status=none || die "pre-fill of $loop failed"
	done
	msg "targets: $NMAX loop devices of $SIZE over /dev/shm (${LOOPS[0]}...)"
}
make_devices

machine_meta
meta reps "$REPS"
meta quick "$QUICK"
meta size "$SIZE"

# ------------------------------------------------------------------ fio
# fio saves state files in the directory it runs in: that is $WORK.
FIO=(env -C "$WORK" fio)
FIO_GLOBAL=(--ioengine=io_uring --direct=1 --offset=0 --rw=write --bs=128k
    --iodepth=8 --size="$SIZE" --output-format=json)
FIO_REG=(--fixedbufs --registerfiles)
if ! "${FIO[@]}" --name=probe --filename="${LOOPS[0]}" --ioengine=io_uring \
    --direct=1 "${FIO_REG[@]}" --rw=read --bs=4k --size=1M \
    --output="$WORK/probe.json" >"$WORK/probe.err" 2>&1; then
	msg "this fio refuses --fixedbufs/--registerfiles; running without them"
	FIO_REG=()
fi
meta fio_opts "--ioengine=io_uring --direct=1 ${FIO_REG[*]} (no verify; fio-verify: --verify=crc32c --do_verify=1)"

# fio_run N REP [fio-verify]: one job per device on the first N devices;
# fio-verify: each job's blocks verifiable (crc32c), read back and checked
# after its writes, as the daemon's cycle does
fio_run() {
	local n=$1 rep=$2 tool=${3:-fio} out err jobs=() extra=() i line
	out=$WORK/$tool-$1-$2.json err=$WORK/$tool-$1-$2.err
	for i in $(seq 0 $((n - 1))); do
		jobs+=(--name="d$i" --filename="${LOOPS[$i]}")
	done
	[ "$tool" = fio-verify ] && extra=(--verify=crc32c --do_verify=1)
	run_child "$err" "${FIO[@]}" "${FIO_GLOBAL[@]}" "${FIO_REG[@]}" \
	    "${extra[@]}" "${jobs[@]}" --output="$out" ||
	    { cat "$err" >&2; die "$tool ($n drives, run $rep) failed"; }
	line=$(python3 -B "$UTIL" fio "$n" "$rep" "$out" "$tool") ||
	    die "$tool ($n drives): unusable output"
	[ "$(printf '%s\n' "$line" | cut -f5)" = $((n * DEV_BYTES)) ] ||
	    die "$tool ($n drives) did not write every device once"
	printf '%s\n' "$line" >> "$RES"
	report_line "$line"
}

report_line() {
	printf '%s\n' "$1" | awk -F'\t' '{ printf "scale:   %2d drives %-12s %8.1f MB/s %7.3f CPU s/GiB\n", $2, $3, $7/1e6, $8 }' >&2
}

# ---------------------------------------------------------- ssdtortured
# write_conf FILE N CYCLES: N drive sections on the first N devices
write_conf() {
	local i
	{
		printf '[daemon]\nstate_dir = %s\nsocket = %s\n' "$STATE/run" \
		    "$WORK/ctl.sock"
		for i in $(seq 0 $(($2 - 1))); do
			printf '[drive:d%d]\ncheckpoint = off\ndevice = %s\nserial = none\n' "$i" \
			    "${LOOPS[$i]}"
			printf 'block_size = 128k\norder = sequential\n'
			printf 'queue_depth = 8\nstatic_fraction = 0\n'
			printf 'cycles = %s\ntrim = no\n' "$3"
		done
	} > "$1"
}

# A fresh state dir for N drives, with the kept archives when asked; the
# devices free of the previous run's rings and of any signature.
fresh_state() {
	local n=$1 keep=$2 i
	rm -rf "$STATE/run"
	mkdir -p "$STATE/run"
	for i in $(seq 0 $((n - 1))); do
		python3 -B "$ROOT/bench/lib/bench_util.py" excl-wait \
		    "${LOOPS[$i]}" 30 >/dev/null || die "${LOOPS[$i]} stays busy"
		wipefs -a -q "${LOOPS[$i]}" || die "wipefs ${LOOPS[$i]}"
		[ "$keep" = 1 ] || continue
		mkdir -p "$STATE/run/d$i"
		ln "$STATE/rrd/d$i.rrd" "$STATE/run/d$i/d$i.rrd" ||
		    die "cannot link the archive of d$i"
	done
}

# ssdt_run N REP: one --oneshot cycle of N drives
ssdt_run() {
	local n=$1 rep=$2 log=$WORK/ssdt-$1-$2.log line
	write_conf "$WORK/run.conf" "$n" 1
	fresh_state "$n" 1
	run_child "$log" env SSDTORTURE_LOG=stderr python3 -B \
	    "$ROOT/bench/lib/bench_util.py" run "$WORK/rusage" -- \
	    "${AS_SERVICE[@]}" "$DAEMON" -c "$WORK/run.conf" --oneshot ||
	    die "cannot run the daemon"
	if ! line=$(python3 -B "$UTIL" daemon "$n" "$rep" "$WORK/rusage" \
	    "$STATE/run" $(seq -f 'd%g' 0 $((n - 1)))); then
		cat "$log" >&2
		die "ssdtortured ($n drives, run $rep) failed"
	fi
	printf '%s\n' "$line" >> "$RES"
	report_line "$line"
}

# live_run N REP: start-up, status latency and RSS of N drives running
live_run() {
	local n=$1 rep=$2 log=$WORK/live-$1-$2.log line i
	write_conf "$WORK/live.conf" "$n" 0
	fresh_state "$n" 0
	line=$(python3 -B "$UTIL" live "$n" "$rep" "$WORK/live.conf" \
	    "$WORK/ctl.sock" "$log" "$CALLS" -- "${AS_SERVICE[@]}" "$DAEMON") ||
	    { tail -20 "$log" >&2; die "the live run of $n drives failed"; }
	printf '%s\n' "$line" >> "$RES"
	printf '%s\n' "$line" | awk -F'\t' '{ printf "scale:   %2d drives running: started in %.2f s (archives %.2f s), status p50 %.1f ms p99 %.1f ms, VmRSS %d KiB\n", $2, $5, $6, $8, $9, $12 }' >&2
	# the archives of the full host serve the aggregate runs
	if [ "$n" = "$NMAX" ] && [ ! -d "$STATE/rrd" ]; then
		mkdir -p "$STATE/rrd"
		for i in $(seq 0 $((n - 1))); do
			mv "$STATE/run/d$i/d$i.rrd" "$STATE/rrd/" ||
			    die "no archive for d$i"
		done
	fi
}

# ----------------------------------------------------------- the rounds
msg "$REPS repetition(s); $SIZE per drive; drives at once: $COUNTS"
for rep in $(seq "$REPS"); do
	msg "repetition $rep/$REPS: running host (1 and $NMAX drives)"
	live_run 1 "$rep"
	live_run "$NMAX" "$rep"
done
for rep in $(seq "$REPS"); do
	msg "repetition $rep/$REPS: aggregate rows"
	for n in $COUNTS; do
		if [ $((rep % 2)) = 1 ]; then
			fio_run "$n" "$rep"; ssdt_run "$n" "$rep"
			fio_run "$n" "$rep" fio-verify
		else
			fio_run "$n" "$rep" fio-verify
			ssdt_run "$n" "$rep"; fio_run "$n" "$rep"
		fi
	done
done

# --------------------------------------------------------------- report
python3 -B "$UTIL" report "$RES" "$JSON_OUT" || die "report failed"
exit 0
