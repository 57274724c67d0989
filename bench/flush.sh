#!/usr/bin/env bash
#
# flush.sh: what flushing once a second costs. On one target, repeated and
# interleaved: 128 KiB sequential writes at QD8 over SPAN by
#   fio             no flush (--fdatasync=0)
#   fio+flush       fdatasync after every N writes, N = one second of
#                   writes at fio's own rate (the daemon's cadence)
#   ssdtortured     its write pass (a flush a second and one at the end),
#                   from the phase_end event; its flush count from the
#                   state
# Reported: medians of MB/s, the ratios fio+flush/fio (what the drive pays
# for the flushes) and ssdtortured/fio (what we pay in all), and the
# daemon's flush count.
#
# --baseline DAEMON adds a row for another ssdtortured binary (for example
# one built from a commit before the flushes), run the same way.
#
# Target: a loop device over a file, direct I/O. --dir DIR puts the file
# on DIR's filesystem (default /var/tmp: a real disk, where a flush
# reaches a device cache; /dev/shm: the flush costs only our own path).
#
# Usage: bench/flush.sh [-r N] [--dir DIR] [--span SIZE] [--baseline DAEMON]
# (root, fio)
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DAEMON=$ROOT/daemon/ssdtortured
# shellcheck source=bench/lib/common.sh
. "$ROOT/bench/lib/common.sh"	# AS_SERVICE
REPS=3 DIR=/var/tmp SPAN=1G BASE=
while [ $# -gt 0 ]; do
	case $1 in
	-r) REPS=$2; shift ;;
	--dir) DIR=$2; shift ;;
	--span) SPAN=$2; shift ;;
	--baseline) BASE=$2; shift ;;
	*) echo "usage: $0 [-r N] [--dir DIR] [--span SIZE] [--baseline DAEMON]" >&2
	   exit 2 ;;
	esac
	shift
done
[ "$(id -u)" = 0 ] || { echo "flush.sh: needs root" >&2; exit 1; }
command -v fio >/dev/null || { echo "flush.sh: fio missing" >&2; exit 1; }
make -s -C "$ROOT" daemon/ssdtortured || exit 1

WORK=$(mktemp -d /tmp/ssdt-flush.XXXXXX) || exit 1
IMG=$(mktemp "$DIR/ssdt-flush.XXXXXX.img") || exit 1
LOOP=
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	rm -rf "$WORK" "$IMG"
}
trap cleanup EXIT
truncate -s "$SPAN" "$IMG"
LOOP=$(losetup -f --show --direct-io=on "$IMG") || exit 1
dd if=/dev/zero of="$LOOP" bs=1M oflag=direct status=none 2>/dev/null
echo "flush.sh: $LOOP over $IMG ($SPAN, $(df --output=fstype "$DIR" | tail -1)), $REPS reps" >&2

cat >"$WORK/c.conf" <<EOF
[daemon]
state_dir = $WORK/state
socket = $WORK/ctl.sock
[drive:f]
checkpoint = off
device = $LOOP
serial = none
block_size = 128k
order = sequential
queue_depth = 8
static_fraction = 0
cycles = 1
trim = no
EOF

fio_mbs() {	# EXTRA_ARGS...: MB/s of one fio run
	fio --name=w --filename="$LOOP" --ioengine=io_uring --direct=1 \
	    --rw=write --bs=128k --iodepth=8 --size="$SPAN" \
	    --output-format=json "$@" >"$WORK/fio.json" || exit 1
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]["write"]; print(j["bw_bytes"]/1e6)' "$WORK/fio.json"
}

ssdt_mbs() {	# DAEMON: MB/s of the write pass (its state stays for a look)
	rm -rf "$WORK/state"
	"${AS_SERVICE[@]}" "$1" -c "$WORK/c.conf" --oneshot >"$WORK/d.log" 2>&1 || {
		cat "$WORK/d.log" >&2; exit 1; }
	python3 - "$WORK/state/f/events.jsonl" <<'EOF'
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    if o.get("event") == "phase_end" and o.get("what") == "write":
        print(o["bytes_per_sec"] / 1e6)
EOF
}

: >"$WORK/res"
for r in $(seq 1 "$REPS"); do
	a=$(fio_mbs --fdatasync=0)
	n=$(awk -v m="$a" 'BEGIN { n = int(m * 1e6 / 131072); print n < 1 ? 1 : n }')
	b=$(fio_mbs --fdatasync="$n")
	c=$(ssdt_mbs "$DAEMON")
	FLUSHES=$(awk '$1 == "flushes" { print $2 }' "$WORK/state/f/state")
	d=0
	[ -n "$BASE" ] && d=$(ssdt_mbs "$BASE")
	echo "flush.sh: rep $r: fio $a MB/s, fio+flush (every $n writes) $b MB/s, ssdtortured $c MB/s ($FLUSHES flushes)${BASE:+, baseline $d MB/s}" >&2
	printf '%s %s %s %s %s\n' "$a" "$b" "$c" "$FLUSHES" "$d" >>"$WORK/res"
done
python3 - "$WORK/res" "$BASE" <<'EOF'
import statistics as st, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
fio, fiof, ssdt, fl, base = (st.median(c) for c in zip(*rows))
print("| | MB/s (median) | ratio to fio |")
print("|---|---|---|")
print("| fio, no flush | %.0f | 1.00 |" % fio)
print("| fio, fdatasync once a second | %.0f | %.2f |" % (fiof, fiof / fio))
print("| ssdtortured (%d flushes a pass) | %.0f | %.2f |" % (fl, ssdt, ssdt / fio))
if sys.argv[2]:
    print("| baseline %s | %.0f | %.2f |" % (sys.argv[2], base, base / fio))
EOF
