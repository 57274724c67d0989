#!/usr/bin/env bash
#
# ckptfio.sh: the figures of a performance checkpoint against fio running
# the same workloads on the same device and region (issue 14: "right
# figures", within 10 %).
#
# Target: a loop device of 512-byte sectors with direct I/O over a file in
# /dev/shm (tmpfs), filled once before anything is measured (as
# bench/bench.sh sets it up). Rows, each a probe of daemon/engine/probes.h:
#   rand-read-4k-qd1  rand-write-4k-qd1  rand-read-4k-qd32
#   rand-write-4k-qd32  seq-read-128k-qd32  seq-write-128k-qd32
#   bs-sweep-rand-read-512 (QD4)  desktop (the mix: 4 workers at QD1)
# ssdtortured: one --oneshot run per repetition (a fresh state dir, one
# cycle over the span, then the checkpoint with these probes:
# checkpoint_probes), each probe ramped for RAMP s and measured for SECS s;
# its figures from checkpoints.jsonl. fio: each row in turn, with the
# options `ssdctl probes --fio` gives for the probe, on the checkpoint's
# region (--offset = the static area's bytes, --size = its region_bytes),
# io_uring, O_DIRECT, fixed buffers and registered files (when this fio
# takes them; the probe engine registers its buffers too), the same
# --ramp_time and --runtime, --group_reporting.
#
# The data: the options of `ssdctl probes --fio` give fio's rows that
# write --refill_buffers, new random data in every write, as the probes
# write unique, incompressible data; each such row also runs without it
# (fio-plain: fio's default, one buffer written again and again), which
# shows what generating the data costs a tool where the CPU sets the
# pace. The work is still not the same: the probe engine writes units
# with headers (offset, generation, checksum) in every 512 bytes it
# writes and checks every unit it reads, and counts any bad one as an
# error; fio checks nothing it reads (no verify option at all). Figures
# at or above fio's are the goal of the fast rows (4 KiB QD32); figures
# within 10 % of it, the goal of all.
#
# Every measurement is repeated N times, the order alternating (odd
# repetitions the daemon first, even ones fio first); printed per row:
# the medians of the IOPS and MB/s (1e6 bytes/s) of each tool, the median
# of the repetitions' ratios ssdtortured / fio (flagged when off by more
# than 10 %) and their range (on a host other work shares, the range says
# how far the medians can be trusted), the same against fio-plain, the
# probe's MB/s over the device's own count of the bytes it moved (the
# loop device's stat, below: a check of the probe's counting that does
# not depend on fio), the probe's I/Os over the requests the device
# completed (1.00 when each I/O reached it as one request of the row's
# size, above when the block layer merged them), and each tool's spread (its best repetition's IOPS
# over its worst: what the host does to one tool alone, the bound below
# which no ratio of the two can be told), then the same table in
# Markdown with the machine and the date. A probe that
# finds a bad unit fails the run.
#
# Usage: bench/ckptfio.sh [-r N] [--quick] [--batch] [--pin CPU] [--seconds S]
#                         [--rows A,B] [--fio-verify] [--fio-thread] [--poll]
#                         [--load N] [--json[=FILE]]
# Each ssdtortured runs in a session of its own, as systemd runs a service
# and as fio runs each job (AS_SERVICE, bench/lib/common.sh): with the
# scheduler's autogroups a session is one entity on the CPUs, and a
# daemon left in this script's session shared one with the other: under
# two other drives' load that alone made the 4 KiB rows 0.62-0.79 of fio.
# --load N measures both tools on a host that N other drives keep busy, as
# bench/scale.sh runs them: one more ssdtortured, of its own state dir and
# socket, writing and verifying N loop devices (256 MiB each over
# /dev/shm, 128 KiB sequential at QD8, cycles without end) from before the
# first row to after the last, so that every measurement of either tool
# has the same neighbours. A probe must still measure the drive, not the
# host: the ratios hold under load as they do without.
#
# Needs root, fio, python3, losetup, ~1.2 GiB free in /dev/shm (and
# 256 MiB per --load drive). Exits 0
# whatever the figures, non-zero only when something fails to run.
# Everything it creates is removed on exit, Ctrl-C included.

set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DAEMON=$ROOT/daemon/ssdtortured
SSDCTL=$ROOT/ctl/ssdctl

usage() {
	cat <<EOF
usage: $0 [-r N] [--quick] [--batch] [--pin CPU] [--seconds S] [--rows A,B]
       [--fio-verify] [--fio-thread] [--poll] [--json[=FILE]]
  -r N          repetitions of every measurement (default 3); medians are
                reported
  --quick       smoke run: 1 repetition, a 256 MiB span, probes of 2 s
  --batch       fio submits and reaps in batches as the probe engine does:
                at a queue depth of 8 or more, a quarter of it at a time
                (--iodepth_batch_submit, --iodepth_batch_complete_min)
  --pin CPU     both tools run on CPU alone (taskset), the kernel's unbound
                workers (the loop device's among them) on the other CPUs
                (/sys/devices/virtual/workqueue/cpumask, put back on exit)
  --seconds S   each probe and fio row measured for S seconds (default 5;
                2 with --quick): a longer window evens out short bursts of
                the host's other work
  --load N      N other drives of another ssdtortured write and verify
                throughout, under both tools (the load of bench/scale.sh)
  --json[=FILE] also write every run's figures as JSON (default FILE:
                ./ckptfio-results.json)
  --rows A,B    these rows: probe ids of \`ssdctl probes\` (default: the
                list below)
  --poll        the probes poll for their completions (probe_wait = poll;
                default sleep, as fio waits)
  --fio-verify  each row that only reads also run by fio reading and
                checking every block (--verify=crc32c, fio's fastest check,
                on data fio wrote first with its headers; the random rows
                without --norandommap, each block once a loop): the same
                work as the probe's, as tool fio-verify
  --fio-thread  fio runs its jobs as threads of one process (--thread), as
                the probe engine runs its workers: on a host where a
                switch between processes is dear (page-table isolation in
                a guest), a row of several workers (desktop) otherwise
                measures fio's process switches
EOF
}

BENCH_NAME=ckptfio
# shellcheck source=bench/lib/common.sh
. "$ROOT/bench/lib/common.sh"
BATCH=0 PIN='' SECS_SET='' ROWS_SET='' FIO_VERIFY=0 FIO_THREAD=0 WAIT=sleep
LOAD=0
args=()
while [ $# -gt 0 ]; do
	case $1 in
	--batch) BATCH=1 ;;
	--fio-verify) FIO_VERIFY=1 ;;
	--fio-thread) FIO_THREAD=1 ;;
	--poll) WAIT=poll ;;
	--rows) [ $# -ge 2 ] || { usage >&2; exit 2; }
	    ROWS_SET=$2; shift ;;
	--rows=*) ROWS_SET=${1#--rows=} ;;
	--pin) [ $# -ge 2 ] || { usage >&2; exit 2; }
	    PIN=$2; shift ;;
	--pin=*) PIN=${1#--pin=} ;;
	--load) [ $# -ge 2 ] || { usage >&2; exit 2; }
	    LOAD=$2; shift ;;
	--load=*) LOAD=${1#--load=} ;;
	--seconds) [ $# -ge 2 ] || { usage >&2; exit 2; }
	    SECS_SET=$2; shift ;;
	--seconds=*) SECS_SET=${1#--seconds=} ;;
	*) args+=("$1") ;;
	esac
	shift
done
bench_args 3 ckptfio-results.json "${args[@]}"
case $LOAD in
''|*[!0-9]*) die "--load needs a whole number of drives" ;;
esac
[ "$LOAD" -le 24 ] || die "--load: at most 24 drives"
case $PIN in
''|*[!0-9]*) [ -z "$PIN" ] || die "--pin needs a CPU number" ;;
*) [ "$PIN" -lt "$(nproc)" ] && [ "$(nproc)" -ge 2 ] ||
       die "--pin $PIN: needs another CPU beside it (this host has $(nproc))" ;;
esac

ROWS=(rand-read-4k-qd1 rand-write-4k-qd1 rand-read-4k-qd32 rand-write-4k-qd32
    seq-read-128k-qd32 seq-write-128k-qd32 bs-sweep-rand-read-512 desktop)
if [ -n "$ROWS_SET" ]; then
	ALL=" $("$SSDCTL" probes | awk '{ printf "%s ", $1 }') "
	for r in ${ROWS_SET//,/ }; do
		case $ALL in *" $r "*) ;; *) die "--rows: no probe $r (ssdctl probes)" ;; esac
	done
	read -r -a ROWS <<<"${ROWS_SET//,/ }"
fi
if [ "$QUICK" = 1 ]; then
	SPAN=256M REGION=128M SECS=2 RAMP=1
else
	SPAN=1G REGION=512M SECS=5 RAMP=1
fi
case $SECS_SET in
'') ;;
*[!0-9]*|0) die "--seconds needs a positive whole number" ;;
*) SECS=$SECS_SET ;;
esac
# Runs after the rows, not compared (last in the suite): see poll.py below.
TAIL=jesd219
BS=1M SF=0.25		# the cycle's blocks; the static area, a fraction
DEV_BYTES=$(span_bytes "$SPAN")
# the region: checkpoint_region bytes from the start of the dynamic area
# (phase_checkpoint.c), which begins after the static area's blocks
OFF=$(python3 -c 'import sys; n, bs, f = (int(sys.argv[1]), int(sys.argv[2]),
    float(sys.argv[3])); print(int(n // bs * f) * bs)' "$DEV_BYTES" \
    "$(span_bytes "$BS")" "$SF")

# --------------------------------------------------------------- plumbing
WORK=
IMG=
LOOP=
CHILD=
POLLER=
WQ_SAVED=
LOADPID=
LOAD_LOOPS=()
LOAD_IMGS=()

# shellcheck disable=SC2317  # called from the traps
cleanup() {
	trap '' INT TERM
	[ -n "$CHILD" ] && stop_pid "$CHILD"
	[ -n "$POLLER" ] && stop_pid "$POLLER"
	[ -n "$LOADPID" ] && stop_pid "$LOADPID"
	for l in "${LOAD_LOOPS[@]}"; do loop_detach "$l"; done
	[ ${#LOAD_IMGS[@]} = 0 ] || rm -f "${LOAD_IMGS[@]}"
	LOADPID=''; LOAD_LOOPS=(); LOAD_IMGS=()
	[ -n "$LOOP" ] && loop_detach "$LOOP"
	[ -n "$IMG" ] && rm -f "$IMG"
	[ -n "$WORK" ] && rm -rf "$WORK"
	[ -n "$WQ_SAVED" ] && { echo "$WQ_SAVED" >"$WQMASK" ||
	    msg "could not put back $WQMASK ($WQ_SAVED)"; }
	LOOP=''; IMG=''; WORK=''; CHILD=''; POLLER=''; WQ_SAVED=''
}
bench_traps

# ------------------------------------------------------------ preflight
preflight
make -s -C "$ROOT" ctl/ssdctl >&2 || die "the build of ssdctl failed"
shm_need $((DEV_BYTES + (256 << 20) + LOAD * (256 << 20)))

WORK=$(mktemp -d /tmp/ssdt-ckptfio.XXXXXX) || die "mktemp"
RES=$WORK/results.tsv
: > "$RES"
IMG=$(mktemp /dev/shm/ssdt-ckptfio.XXXXXX.img) || die "mktemp in /dev/shm"
truncate -s "$DEV_BYTES" "$IMG" || die "truncate $IMG"
LOOP=$(losetup -f --show --direct-io=on --sector-size 512 "$IMG") ||
    die "losetup failed"
dio=$(cat "/sys/block/${LOOP#/dev/}/loop/dio" 2>/dev/null || echo "?")
[ "$dio" = 1 ] || msg "warning: $LOOP does not do direct I/O (dio=$dio)"
[ "$(blockdev --getss "$LOOP")" = 512 ] || die "$LOOP: sectors not of 512 bytes"
msg "target: $LOOP over $IMG ($((DEV_BYTES >> 20)) MiB, 512 B sectors, dio=$dio)"
msg "pre-filling $LOOP"
dd if=/dev/zero of="$LOOP" bs=1M count=$((DEV_BYTES >> 20)) oflag=direct \
    status=none || die "pre-fill of $LOOP failed"

machine_meta
meta reps "$REPS"
meta window "ramp ${RAMP} s, measured ${SECS} s, probe_wait = $WAIT"
meta region "$REGION at byte $OFF of a $SPAN loop device (512 B sectors)"

# ------------------------------------------------------------------ fio
# --pin: each tool on one CPU, the kernel's unbound workers on the others
WQMASK=/sys/devices/virtual/workqueue/cpumask
WQ_SAVED=
TASKSET=()
if [ -n "$PIN" ]; then
	WQ_SAVED=$(cat "$WQMASK") || die "cannot read $WQMASK"
	printf '%x\n' $(( ((1 << $(nproc)) - 1) & ~(1 << PIN) )) >"$WQMASK" ||
	    die "cannot write $WQMASK"
	TASKSET=(taskset -c "$PIN")
	meta pin "tools on CPU $PIN, unbound kernel workers on mask $(cat "$WQMASK")"
fi
FIO=("${TASKSET[@]}" env -C "$WORK" fio)
FIO_REG=(--fixedbufs --registerfiles)
if ! "${FIO[@]}" --name=probe --filename="$LOOP" --ioengine=io_uring \
    --direct=1 "${FIO_REG[@]}" --rw=read --bs=4k --size=1M \
    --output="$WORK/probe.json" >"$WORK/probe.err" 2>&1; then
	msg "this fio refuses --fixedbufs/--registerfiles; running without them"
	FIO_REG=()
fi
[ "$FIO_THREAD" = 0 ] || FIO_REG+=(--thread)
meta fio_opts "--ioengine=io_uring --direct=1 ${FIO_REG[*]}$([ "$BATCH" = 1 ] && echo ", batches of QD/4 at QD >= 8") (no verify)"
FIOOPTS=$("$SSDCTL" probes --fio) || die "ssdctl probes --fio failed"

# fio_batch OPTS: with --batch, the batch options for a row's --iodepth:
# the probe engine waits for a quarter of what it has in flight at a time
# (BATCH_DIV in daemon/engine/engine_priv.h) once it has 8 or more, and submits
# what it has refilled in one call
fio_batch() {
	local qd
	[ "$BATCH" = 1 ] || return 0
	qd=$(sed -n 's/.*--iodepth=\([0-9]*\).*/\1/p' <<<"$1")
	[ "${qd:-1}" -ge 8 ] || return 0
	echo " --iodepth_batch_submit=$((qd / 4)) --iodepth_batch_complete_min=$((qd / 4))"
}

# fio_row REP ROW LEN [plain]: one row; appends "res ROW fio REP IOPS
# BYTES/S". With `plain`, a row that writes runs without --refill_buffers
# (fio's default data: one buffer written again and again), as tool
# fio-plain; a row that only reads has no such variant
fio_row() {
	local rep=$1 row=$2 len=$3 opts out line tool=fio
	opts=$(awk -v id="$row" '$1 == id { $1 = ""; print }' <<<"$FIOOPTS")
	[ -n "$opts" ] || die "ssdctl probes --fio has no $row"
	if [ "${4:-}" = plain ]; then
		case $opts in *--refill_buffers*) ;; *) return 0 ;; esac
		opts=${opts/ --refill_buffers/} tool=fio-plain
	fi
	out=$WORK/$tool-$row-$rep.json
	opts+=$(fio_batch "$opts")
	# shellcheck disable=SC2086  # the options are words
	run_child "$WORK/fio.err" "${FIO[@]}" --name="$row" --filename="$LOOP" \
	    --offset="$OFF" --size="$len" --ioengine=io_uring --direct=1 \
	    "${FIO_REG[@]}" --time_based --runtime="$SECS" \
	    --ramp_time="$RAMP" --group_reporting $opts \
	    --output-format=json --output="$out" ||
	    { cat "$WORK/fio.err" >&2; die "fio $row (run $rep) failed"; }
	line=$(python3 -B - "$out" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))
io = sum(j[d]["iops"] for j in f["jobs"] for d in ("read", "write"))
bw = sum(j[d]["bw_bytes"] for j in f["jobs"] for d in ("read", "write"))
print("%.3f\t%.1f" % (io, bw))
EOF
) || die "fio $row: unusable output"
	printf 'res\t%s\t%s\t%s\t%s\n' "$row" "$tool" "$rep" "$line" >> "$RES"
	printf '%s\n' "$line" | awk -F'\t' -v r="$row" -v t="$tool" '
	    { printf "ckptfio:   %-24s %-12s %9.0f IOPS %8.1f MB/s\n", r, t, $1, $2 / 1e6 }' >&2
}

# fio_verify_row REP ROW LEN: a row that only reads, run by fio reading
# and checking every block (tool fio-verify): the region written first
# with fio's verify headers (not measured), then --verify_only passes over
# it, as many as fill the measured window (the first pass tells how long
# one takes); appends "res ROW fio-verify REP IOPS BYTES/S"
fio_verify_row() {
	local rep=$1 row=$2 len=$3 opts wopts out line loops=1 ms
	opts=$(awk -v id="$row" '$1 == id { $1 = ""; print }' <<<"$FIOOPTS")
	case " $opts " in *" --rw=read "*|*" --rw=randread "*) ;; *) return 0 ;; esac
	opts=${opts/ --norandommap/}
	wopts=${opts/--rw=randread/--rw=randwrite}
	wopts=${wopts/--rw=read/--rw=write}
	out=$WORK/fio-verify-$row-$rep.json
	# shellcheck disable=SC2086  # the options are words
	run_child "$WORK/fio.err" "${FIO[@]}" --name="$row" --filename="$LOOP" \
	    --offset="$OFF" --size="$len" --ioengine=io_uring --direct=1 \
	    "${FIO_REG[@]}" $wopts --verify=crc32c --do_verify=0 \
	    --output-format=json --output="$out" ||
	    { cat "$WORK/fio.err" >&2; die "fio $row (verify fill) failed"; }
	while :; do
		# shellcheck disable=SC2086
		run_child "$WORK/fio.err" "${FIO[@]}" --name="$row" \
		    --filename="$LOOP" --offset="$OFF" --size="$len" \
		    --ioengine=io_uring --direct=1 "${FIO_REG[@]}" $wopts \
		    --verify=crc32c --verify_only=1 --loops="$loops" \
		    --group_reporting --output-format=json --output="$out" ||
		    { cat "$WORK/fio.err" >&2; die "fio $row (verify) failed"; }
		ms=$(python3 -B -c 'import json, sys
f = json.load(open(sys.argv[1]))
if any(j["error"] for j in f["jobs"]):
    sys.exit("fio reported a verify error")
print(max(j["read"]["runtime"] for j in f["jobs"]))' "$out") ||
		    die "fio $row (verify): a block failed its check"
		if [ "$loops" != 1 ] || [ "$ms" -ge $((SECS * 500)) ]; then
			break
		fi
		loops=$(( (SECS * 1000 + ms - 1) / (ms > 0 ? ms : 1) ))
	done
	line=$(python3 -B -c 'import json, sys
f = json.load(open(sys.argv[1]))
print("%.3f\t%.1f" % (sum(j["read"]["iops"] for j in f["jobs"]),
      sum(j["read"]["bw_bytes"] for j in f["jobs"])))' "$out") ||
	    die "fio $row (verify): unusable output"
	printf 'res\t%s\t%s\t%s\t%s\n' "$row" fio-verify "$rep" "$line" >> "$RES"
	printf '%s\n' "$line" | awk -F'\t' -v r="$row" '
	    { printf "ckptfio:   %-24s %-12s %9.0f IOPS %8.1f MB/s (%s pass(es))\n", r, "fio-verify", $1, $2 / 1e6, "'"$loops"'" }' >&2
}

# ---------------------------------------------------------- ssdtortured
cat > "$WORK/ckpt.conf" <<EOF
[daemon]
state_dir = $WORK/state
socket = $WORK/ctl.sock
[drive:bench]
device = $LOOP
serial = none
span = $SPAN
block_size = $BS
static_fraction = $SF
cycles = 1
trim = no
idle = 0
checkpoint_region = $REGION
probe_seconds = ${SECS}s
probe_ramp = ${RAMP}s
probe_wait = $WAIT
checkpoint_probes = $(IFS=,; echo "${ROWS[*]}"),$TAIL
EOF

# The loop device's own count of the bytes each probe moved: poll.py
# notes, every 5 ms, the time, the length of checkpoints.jsonl, the
# device's sectors read and written and the requests it completed
# (/sys/block/NAME/stat). The daemon
# appends a probe's line as soon as the probe has ended (its state file
# follows on the main loop's next tick, too late to time anything by), so
# the k-th time the file grows is the end of the k-th probe's window, a
# drain of its queue after it; the device's bytes over the `seconds`
# before it, per second, against the probe's. A probe runs after the
# rows ($TAIL) so that no row is the last: once the last line's growth
# went unseen (the poller stopped as the daemon exited), and a row's
# window must not depend on that.
cat > "$WORK/poll.py" <<'EOF'
import os, signal, sys, time
results, stat, out = sys.argv[1:4]
stop = []
signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
with open(out, "w") as f:
    while True:
        try:
            size = os.stat(results).st_size
        except OSError:
            size = 0
        v = open(stat).read().split()
        f.write("%.6f %d %d %d\n" % (time.monotonic(), size, int(v[2]) + int(v[6]),
                int(v[0]) + int(v[4])))
        if stop:
            break
        time.sleep(0.005)
EOF
# The poller runs real-time (it sleeps between samples): on a busy host
# a normal process can wait for a CPU for milliseconds.
RT=(chrt -f 1)
"${RT[@]}" true 2>/dev/null || { RT=(); msg "warning: chrt -f refused; the poller runs as a normal process"; }

# ssdt_rep REP: one --oneshot run; appends a res line per row. Sets LEN
# (the region's bytes, as the checkpoint recorded them).
ssdt_rep() {
	local rep=$1 rc out=$WORK/ssdt-$1.log ck=$WORK/state/bench/checkpoints.jsonl
	local poll=$WORK/poll-$1.txt
	for _ in 1 2 3; do
		rm -rf "$WORK/state"
		"${RT[@]}" python3 -B "$WORK/poll.py" "$ck" \
		    "/sys/block/${LOOP#/dev/}/stat" "$poll" &
		POLLER=$!
		run_child "$out" "${AS_SERVICE[@]}" "${TASKSET[@]}" "$DAEMON" \
		    -c "$WORK/ckpt.conf" --oneshot
		rc=$?
		stop_pid "$POLLER"
		POLLER=
		[ "$rc" = 0 ] && break
		if grep -q 'signature' "$out"; then
			msg "the daemon refused a signature on $LOOP; wipefs -a"
			wipefs -a -q "$LOOP"
		elif grep -q 'exclusive open failed' "$out"; then
			sleep 1
		else
			break
		fi
	done
	[ "$rc" = 0 ] || { cat "$out" >&2; die "ssdtortured (run $rep) exited $rc"; }
	python3 -B - "$ck" "$rep" "$poll" "${ROWS[@]}" >> "$RES" <<'EOF' ||
import json, sys
ck, rep, poll = sys.argv[1], sys.argv[2], sys.argv[3]
lines = [json.loads(ln) for ln in open(ck)]
# the device's bytes/s over each probe's window, in the lines' order
marks = [tuple(map(float, ln.split())) for ln in open(poll)]
ends = [i for i in range(1, len(marks)) if marks[i][1] > marks[i - 1][1]]
if len(ends) < len(lines) - 1:
    sys.exit("checkpoints.jsonl grew %d times, %d lines: %s" % (len(ends),
             len(lines), " ".join("%.3f:%d" % marks[k][:2] for k in [0] + ends)))
dev = []
for i, o in zip(ends, lines):
    t1 = marks[i][0]
    j = i
    while j > 0 and marks[j][0] > t1 - o.get("seconds", 0):
        j -= 1
    dt = t1 - marks[j][0]
    dev.append(((marks[i][2] - marks[j][2]) * 512 / dt,
                (marks[i][3] - marks[j][3]) / dt) if dt > 0 else (0, 0))
by = {o["probe"]: (o, d) for o, d in zip(lines, dev)}
for p in sys.argv[4:]:
    o, d = by.get(p, (None, (0, 0)))
    if o is None or "skipped" in o:
        sys.exit("%s: not measured (%s)" % (p, o and o.get("skipped")))
    if o["errors"]:
        sys.exit("%s: %d units found bad" % (p, o["errors"]))
    print("res\t%s\tssdtortured\t%s\t%.3f\t%.1f\t%.1f\t%.1f" % (p, rep,
          o["read_iops"] + o["write_iops"],
          o["read_bytes_per_sec"] + o["write_bytes_per_sec"], d[0], d[1]))
print("meta\tregion_bytes\t%d" % lines[-1]["region_bytes"])
EOF
	    die "ssdtortured (run $rep): $ck unusable"
	LEN=$(awk -F'\t' '$2 == "region_bytes" { v = $3 } END { print v }' "$RES")
	awk -F'\t' -v rep="$rep" '$1 == "res" && $3 == "ssdtortured" && $4 == rep {
	    printf "ckptfio:   %-24s ssdtortured  %9.0f IOPS %8.1f MB/s (the device: %.1f MB/s, %.0f requests/s)\n",
	    $2, $5, $6 / 1e6, $7 / 1e6, $8 }' "$RES" >&2
}

# fio_rep REP: every row by fio. The poller that counts the device's bytes
# for ssdtortured's probes runs here too, at the same real-time priority,
# so that both tools share the host with the same instrument.
fio_rep() {
	local row
	"${RT[@]}" python3 -B "$WORK/poll.py" "$WORK/no-results" \
	    "/sys/block/${LOOP#/dev/}/stat" "$WORK/poll-fio-$1.txt" &
	POLLER=$!
	for row in "${ROWS[@]}"; do
		fio_row "$1" "$row" "$LEN"
		fio_row "$1" "$row" "$LEN" plain
		[ "$FIO_VERIFY" = 0 ] || fio_verify_row "$1" "$row" "$LEN"
	done
	stop_pid "$POLLER"
	POLLER=
}

# ------------------------------------------------------------ the load
# load_start: LOAD drives of another daemon, all running before it returns
load_start() {
	local i img lp conf=$WORK/load.conf n
	mkdir -p "$WORK/load"
	printf '[daemon]\nstate_dir = %s\nsocket = %s\n' "$WORK/load" \
	    "$WORK/load.sock" > "$conf"
	for i in $(seq "$LOAD"); do
		img=$(mktemp /dev/shm/ssdt-ckptfio-load.XXXXXX.img) ||
		    die "mktemp in /dev/shm"
		LOAD_IMGS+=("$img")
		truncate -s 256M "$img" || die "truncate $img"
		lp=$(losetup -f --show --direct-io=on "$img") ||
		    die "losetup failed"
		LOAD_LOOPS+=("$lp")
		printf '[drive:load%d]\ncheckpoint = off\ndevice = %s\n' \
		    "$i" "$lp" >> "$conf"
		printf 'serial = none\nblock_size = 128k\norder = sequential\n' >> "$conf"
		printf 'queue_depth = 8\nstatic_fraction = 0\ntrim = no\n' >> "$conf"
	done
	"${AS_SERVICE[@]}" "$DAEMON" -c "$conf" >"$WORK/load.log" 2>&1 &
	LOADPID=$!
	for _ in $(seq 100); do
		n=$("$SSDCTL" -s "$WORK/load.sock" --json status 2>/dev/null |
		    python3 -B -c 'import json, sys
print(sum(1 for d in json.load(sys.stdin)["drives"] if d.get("state") == "running"))' \
		    2>/dev/null) || n=0
		[ "$n" = "$LOAD" ] && break
		kill -0 "$LOADPID" 2>/dev/null ||
		    { cat "$WORK/load.log" >&2; die "the load's daemon exited"; }
		sleep 0.2
	done
	[ "$n" = "$LOAD" ] || { cat "$WORK/load.log" >&2; die "the load's drives did not start"; }
	msg "load: $LOAD drives of another ssdtortured writing ($(echo "${LOAD_LOOPS[@]}"))"
}
if [ "$LOAD" -gt 0 ]; then
	load_start
	meta load "$LOAD other drives writing and verifying (128 KiB, QD8, another ssdtortured)"
fi

# ----------------------------------------------------------- the rounds
msg "$REPS repetition(s) of ${#ROWS[@]} rows, ramp ${RAMP} s, measured ${SECS} s"
# fio needs the region's length, which the first daemon run gives
LEN=
for rep in $(seq "$REPS"); do
	msg "repetition $rep/$REPS"
	if [ $((rep % 2)) = 1 ] || [ -z "$LEN" ]; then
		ssdt_rep "$rep"
		fio_rep "$rep"
	else
		fio_rep "$rep"
		ssdt_rep "$rep"
	fi
done

# --------------------------------------------------------------- report
python3 -B - "$RES" "${JSON_OUT:-}" "${ROWS[@]}" <<'EOF' || die "report failed"
import json, statistics, sys
res, meta = {}, {}
for ln in open(sys.argv[1]):
    f = ln.rstrip("\n").split("\t")
    if f[0] == "meta":
        meta[f[1]] = f[2]
    elif f[0] == "res":
        res.setdefault((f[1], f[2]), {})[int(f[3])] = tuple(map(float, f[4:]))
rows = sys.argv[3:]
med = statistics.median

def ratios(o, x, i=0):
    """the repetitions' ratios o / x of figure i, sorted"""
    return sorted(o[k][i] / x[k][i] for k in o if k in x and x[k][i] > 0)

def spread(o):
    """a tool's own IOPS, its largest over its smallest repetition: what
    the host's noise does to one tool alone"""
    v = [t[0] for t in o.values()]
    return max(v) / min(v) if min(v) > 0 else float("inf")

table, vtab = [], []
for r in rows:
    o, x = res[(r, "ssdtortured")], res[(r, "fio")]
    p = res.get((r, "fio-plain"), {})
    q, qp = ratios(o, x), ratios(o, p)
    qv = ratios(o, res.get((r, "fio-verify"), {}))
    vtab.append((r, "%.3f" % med(qv) if qv else "-",
                 "%.2f..%.2f" % (qv[0], qv[-1]) if qv else "-"))
    dv = sorted(v[1] / v[2] for v in o.values() if v[2] > 0)
    do = sorted(v[0] / v[3] for v in o.values() if len(v) > 3 and v[3] > 0)
    table.append((r, med(v[0] for v in o.values()), med(v[0] for v in x.values()),
                  med(q), "%.2f..%.2f" % (q[0], q[-1]),
                  med(v[1] for v in o.values()) / 1e6,
                  med(v[1] for v in x.values()) / 1e6, med(ratios(o, x, 1)),
                  "%.3f" % med(qp) if qp else "-",
                  "%.2f..%.2f" % (qp[0], qp[-1]) if qp else "-",
                  med(dv), "%.2f..%.2f" % (dv[0], dv[-1]),
                  "%.3f" % med(do) if do else "-", spread(o), spread(x)))
flag = lambda q: "" if abs(q - 1) <= 0.10 else "  off by more than 10 %"
head = ("probe", "ssdtortured IOPS", "fio IOPS", "ratio", "ratios",
        "ssdtortured MB/s", "fio MB/s", "ratio", "vs fio-plain", "ratios",
        "/device", "range", "ops/device", "spread ours", "spread fio")
print("%-24s %16s %10s %6s %11s %16s %9s %6s %12s %11s %7s %11s %10s %11s %10s" % head)
for t in table:
    print("%-24s %16.0f %10.0f %6.3f %11s %16.1f %9.1f %6.3f %12s %11s %7.3f %11s %10s %11.2f %10.2f%s" % (
          t + (flag(t[3]),)))
machine = "%s, %s cores, Linux %s, %s; %s" % (meta.get("cpu"), meta.get("nproc"),
          meta.get("kernel"), meta.get("fio_version"), meta.get("date"))
print()
print("Markdown (%s repetition(s): medians, and the range of the ratios; %s; "
      "%s; fio %s%s):" % (meta.get("reps"), meta.get("window"),
      meta.get("region"), meta.get("fio_opts"),
      "; " + meta["pin"] if "pin" in meta else ""))
print()
print("| " + " | ".join(head) + " |")
print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
for t in table:
    print("| `%s` | %.0f | %.0f | %.3f | %s | %.1f | %.1f | %.3f | %s | %s | %.3f | %s | %s | %.2f | %.2f |" % t)
if any(v[1] != "-" for v in vtab):
    print()
    print("Against fio reading and checking every block (--verify=crc32c):")
    print()
    print("| probe | ssdtortured / fio-verify | ratios |")
    print("|---|--:|--:|")
    for v in vtab:
        if v[1] != "-":
            print("| `%s` | %s | %s |" % v)
print()
print("Machine:", machine)
if sys.argv[2]:
    with open(sys.argv[2], "w") as f:
        json.dump({"meta": meta, "rows": [dict(zip(("probe", "ssdt_iops",
                   "fio_iops", "iops_ratio", "iops_ratios", "ssdt_mbps",
                   "fio_mbps", "mbps_ratio", "plain_iops_ratio",
                   "plain_iops_ratios", "vs_device", "vs_device_range",
                   "ops_vs_device", "ssdt_spread", "fio_spread"),
                   t)) for t in table],
                   "runs": [{"probe": k[0], "tool": k[1], "rep": rep,
                             "iops": v[0], "bytes_per_sec": v[1],
                             "device_bytes_per_sec": v[2] if len(v) > 2 else None}
                            for k, d in sorted(res.items())
                            for rep, v in sorted(d.items())]}, f, indent=1)
    print("JSON:", sys.argv[2])
EOF
exit 0
