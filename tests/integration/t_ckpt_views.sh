#!/bin/bash
# The views of performance checkpoints on a synthetic results file
# (ckpt_synth.py): `ssdctl checkpoints --state-dir` (headings, a known
# cell, n/a for a skipped probe, the flag marks, the change computed here
# from the file), --json round trip, the graph in PNG and SVG, a damaged
# file (garbage, huge numbers, a 10 MB line: skipped with a warning, never
# a crash), `ssdctl probes`; then through a daemon: Checkpoints returns
# what the drive's file holds, and ssdctl shows the same table.
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "python3 missing"
command -v gnuplot >/dev/null || skip "gnuplot missing (apt-get install gnuplot-nox)"
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
[ -x "$CTL" ] || die "$CTL is missing (make -C $ROOT)"
export SSDTORTURE_SOCKET=$T/none.sock	# offline: no daemon asked
N=8

"$CTL" --json probes >"$T/probes.json" || die "ssdctl --json probes"
OFF=$T/offline
mkdir -p "$OFF/d"
python3 "$IT_DIR/ckpt_synth.py" "$T/probes.json" "$OFF/d/checkpoints.jsonl" $N ||
    die "ckpt_synth.py failed"

log "ssdctl probes"
out=$("$CTL" probes)
assert_match "probes: seq-read-128k-qd32, its family and title" \
    '^seq-read-128k-qd32 +seq +Sequential read, 128 KiB, QD32$' "$out"
assert_eq "probes: one line a probe" \
    "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$T/probes.json")" \
    "$(printf '%s\n' "$out" | wc -l)"
out=$("$CTL" probes --fio)
assert_match "probes --fio: the desktop mix's fio options" \
    '^desktop +--rw=randrw --rwmixread=75 --percentage_random=75 --bssplit=4k/55:64k/25:128k/20 .*--iodepth=1 --numjobs=4$' "$out"

log "the table, offline"
"$CTL" checkpoints d --state-dir "$OFF" >"$T/table.txt" 2>"$T/table.err"
assert_rc "checkpoints --state-dir" 0 $? "$T/table.err"
t=$(cat "$T/table.txt")
head1=$(head -1 "$T/table.txt")
assert_match "heading: the first checkpoint, then the latest five" \
    '^PROBE +UNIT +0\.00 GB +30\.0 TB +40\.0 TB +50\.0 TB +60\.0 TB +70\.0 TB +CHANGE$' "$head1"
assert_contains "footer: the hidden checkpoints" "$t" "checkpoints 2 to 3 not shown"
# the generator's known values: rand-read-4k-qd32 at checkpoint 1, 26000
# IOPS; rand-read-4k-qd1 (index 4), p99.9 120 us
assert_match "a known cell" '^rand-read-4k-qd32 +IOPS +26000 ' "$t"
assert_match "a skipped probe: n/a" '^bs-sweep-rand-read-512 +IOPS( +n/a){7}$' "$t"
# the change, computed here from the file's lines
change() {
	python3 - "$OFF/d/checkpoints.jsonl" "$1" "$2" <<'PY'
import json, sys
ls = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["probe"] == sys.argv[2]]
ls.sort(key=lambda l: l["checkpoint"])
k = {"iops": ("read_iops", "write_iops"),
     "mbps": ("read_bytes_per_sec", "write_bytes_per_sec")}.get(sys.argv[3])
if k:
    f = lambda l: l[k[0]] + l[k[1]]
else:
    f = lambda l: max(l[d]["p99.9"] for d in ("read_lat_us", "write_lat_us") if d in l)
print("%+.1f%%" % ((f(ls[-1]) / f(ls[0]) - 1) * 100))
PY
}
c=$(change rand-write-4k-qd32 iops)
assert_eq "the change of rand-write-4k-qd32 is -30.0%" "-30.0%" "$c"
assert_match "the throughput flag and the change" \
    "^rand-write-4k-qd32 +IOPS .* ${c//+/\\+}  !throughput$" "$t"
c=$(change seq-write-128k-qd32 mbps)
assert_match "an MB/s row and its change ($c)" \
    "^seq-write-128k-qd32 +MB/s .* ${c//+/\\+}$" "$t"
assert_match "the latency flag" '^rand-read-4k-qd1 +IOPS .*  !latency$' "$t"
"$CTL" checkpoints d --state-dir "$OFF" --latency >"$T/lat.txt" 2>&1
c=$(change rand-read-4k-qd1 p999)
assert_match "--latency: p99.9 and its change ($c)" \
    "^rand-read-4k-qd1 +us p99\.9 +120\.0 .* ${c//+/\\+}  !latency$" "$(cat "$T/lat.txt")"

log "--json: the lines, as the file holds them"
"$CTL" checkpoints d --state-dir "$OFF" --json >"$T/rt.json"
assert_rc "checkpoints --json" 0 $?
check "--json round trip" python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
b = [json.loads(l) for l in open(sys.argv[2])]
sys.exit(a != b)' "$T/rt.json" "$OFF/d/checkpoints.jsonl"

log "graph --what checkpoints"
for f in png svg; do
	rm -f "$T/g.$f"
	"$CTL" graph d --what checkpoints --state-dir "$OFF" -o "$T/g.$f" >"$T/g.err" 2>&1
	assert_rc "graph $f (default probes)" 0 $? "$T/g.err"
	assert_eq "graph $f: a valid image of the default size" "$f 1000 450" \
	    "$(python3 "$IT_DIR/imgsize.py" "$T/g.$f")"
done
"$CTL" graph d --what checkpoints --state-dir "$OFF" --probe desktop \
    --probe rand-write-4k-qd32 --figure p99.9 --width 640 --height 300 \
    -o "$T/p.svg" >"$T/g.err" 2>&1
assert_rc "graph with --probe and --figure" 0 $? "$T/g.err"
assert_eq "graph --width/--height" "svg 640 300" "$(python3 "$IT_DIR/imgsize.py" "$T/p.svg")"
assert_file_contains "the SVG names a chosen probe" "$T/p.svg" "rand-write-4k-qd32"
assert_file_contains "the SVG rings the flagged point" "$T/p.svg" "flagged"
"$CTL" graph d --what checkpoints --state-dir "$OFF" --probe no-such -o "$T/n.png" >"$T/g.err" 2>&1
assert_rc "graph of a probe without results" 1 $? "$T/g.err"
assert_file_contains "... says so" "$T/g.err" "no checkpoint results for probe 'no-such'"
"$CTL" graph d --what checkpoints --state-dir "$OFF" --figure fast -o "$T/n.png" >"$T/g.err" 2>&1
assert_rc "graph --figure of no figure: usage" 2 $? "$T/g.err"
PATH=/nonexistent "$CTL" graph d --what checkpoints --state-dir "$OFF" -o "$T/n.png" >"$T/g.err" 2>&1
assert_rc "graph without gnuplot" 1 $? "$T/g.err"
assert_file_contains "... says to install it" "$T/g.err" "gnuplot-nox"

log "a damaged results file"
BAD=$T/bad
mkdir -p "$BAD/d"
{
	head -3 "$OFF/d/checkpoints.jsonl"
	echo 'garbage {{{'
	echo '{"checkpoint": 99999999999999999999999999, "probe": "x"}'
	echo '{"checkpoint": 1, "probe": "rand-read-4k-qd1", "block_size": 4096, "read_iops": 1e308, "write_iops": 1e308, "read_lat_us": {"p99.9": -5}}'
	echo '[1, 2, 3]'
	python3 -c 'import sys; sys.stdout.write("{\"checkpoint\": 2, \"probe\": \"" + "x" * (10 << 20) + "\"}\n")'
	head -c 4096 /dev/urandom | tr -d '\n'; echo
	tail -1 "$OFF/d/checkpoints.jsonl"
} >"$BAD/d/checkpoints.jsonl"
"$CTL" checkpoints d --state-dir "$BAD" >"$T/bad.txt" 2>"$T/bad.err"
assert_rc "a damaged file: the good lines shown" 0 $? "$T/bad.err"
assert_file_contains "... the skipped lines told" "$T/bad.err" "5 lines skipped, the first (line 4)"
assert_match "... huge figures shown as ?" '^rand-read-4k-qd1 +IOPS +\? ' "$(cat "$T/bad.txt")"
"$CTL" checkpoints d --state-dir "$BAD" --json >"$T/bad.json" 2>/dev/null
assert_eq "... --json holds the 5 lines taken" 5 \
    "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$T/bad.json")"
"$CTL" graph d --what checkpoints --state-dir "$BAD" --probe rand-read-4k-qd1 -o "$T/bad.png" >"$T/g.err" 2>&1
rc=$?
check "... the graph draws or refuses, never crashes (rc $rc)" test "$rc" -le 1
# a probe id made to run commands in the plotting script: a title only
EVIL="x\`touch $T/pwned\`'\\\"; system(\\\"touch $T/pwned\\\") #"
mkdir -p "$BAD/e"
python3 - "$OFF/d/checkpoints.jsonl" "$EVIL" >"$BAD/e/checkpoints.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["probe"] == "rand-read-4k-qd1":
        o["probe"] = sys.argv[2]
    print(json.dumps(o))
PY
"$CTL" graph e --what checkpoints --state-dir "$BAD" --probe "$EVIL" \
    -o "$T/evil.svg" >"$T/evil.err" 2>&1
assert_rc "a hostile probe id: drawn" 0 $? "$T/evil.err"
check "... as a title, nothing run" test ! -e "$T/pwned"
assert_file_contains "... the title in the picture" "$T/evil.svg" "system("
"$CTL" checkpoints nosuch --state-dir "$BAD" >"$T/none.txt" 2>&1
assert_rc "a drive without results" 0 $? "$T/none.txt"
assert_file_contains "... says so" "$T/none.txt" "no performance checkpoint yet"

log "through the daemon"
ST=$T/state
write_conf "$T/c.conf" "$ST" <<EOF
[drive:d]
checkpoint = off
device = $T/d.img
size = 16M
block_size = 4k
trim = no
idle = 1h
EOF
start_ssdt "$T/run.log" -c "$T/c.conf"
ASSERT_LOG=$T/run.log
up() {
	local i
	for i in $(seq 1 200); do
		"$CTL" -s "$ST.sock" status d >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	return 1
}
up || die "the daemon did not answer"
"$CTL" -s "$ST.sock" --json checkpoints d >"$T/d0.json"
assert_eq "Checkpoints before any: []" "[]" "$(tr -d " \n" <"$T/d0.json")"
kill_and_reap TERM "$SSDT_PID"
assert_rc "daemon exits on SIGTERM" 0 "$RC"
cp "$OFF/d/checkpoints.jsonl" "$ST/d/checkpoints.jsonl"
# the daemon keeps of checkpoints.jsonl what its state records (a line
# written after the last saved state is a probe to run again): record it
sed -i "s/^checkpoint.results_bytes .*/checkpoint.results_bytes $(stat -c %s \
    "$ST/d/checkpoints.jsonl")/" "$ST/d/state"
start_ssdt "$T/run2.log" -c "$T/c.conf"
ASSERT_LOG=$T/run2.log
up || die "the daemon did not answer after its restart"
"$CTL" -s "$ST.sock" checkpoints d --json >"$T/d.json"
assert_rc "checkpoints --json through the daemon" 0 $?
check "Checkpoints returns what the file holds" python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
b = [json.loads(l) for l in open(sys.argv[2])]
sys.exit(a != b)' "$T/d.json" "$ST/d/checkpoints.jsonl"
"$CTL" -s "$ST.sock" checkpoints d >"$T/dt.txt" 2>&1
assert_rc "checkpoints through the daemon" 0 $? "$T/dt.txt"
check "the table through the daemon is the offline one" cmp -s "$T/dt.txt" "$T/table.txt"
"$CTL" -s "$ST.sock" graph d --what checkpoints -o "$T/dg.png" >"$T/g.err" 2>&1
assert_rc "graph through the daemon" 0 $? "$T/g.err"
assert_eq "... a valid PNG" "png 1000 450" "$(python3 "$IT_DIR/imgsize.py" "$T/dg.png")"
"$CTL" -s "$ST.sock" checkpoints nosuch >"$T/ns.txt" 2>&1
assert_rc "checkpoints of an unknown drive" 1 $? "$T/ns.txt"
assert_file_contains "... no such drive" "$T/ns.txt" "no such drive: nosuch"
"$CTL" -s "$ST.sock" checkpoint nosuch >"$T/ns.txt" 2>&1
assert_rc "checkpoint of an unknown drive" 1 $? "$T/ns.txt"
kill_and_reap TERM "$SSDT_PID"
assert_rc "daemon exits on SIGTERM" 0 "$RC"
finish
