# lib.sh: what the known-answer tests share (sourced, bash): the
# integration tests' helpers (tests/integration/lib.sh: $T, the cleanup,
# the daemon, the checks) and a simulated drive.
#
#   sim_start NAME PROFILE [ARGS...]
#                 mount ssdsim with PROFILE (a file of sim/profiles/, or
#                 a path) at $T/NAME; SIM_FILE is the drive's file,
#                 SIM_CTL its control socket, SIM_TRUTH the model's record
#                 of what it did; ARGS go to `ssdsim run`
#   sim_power off|on, sim_smart: ssdsim's commands on that drive
#   seq_drive NAME PROFILE QD STATIC TRIM IDLE CYCLES: a drive of
#                 sequential 128 KiB writes on a simulated drive (below)
#   cache_two_passes PROFILE CAPACITY LABEL: two passes at QD1 and QD32,
#                 their cache against the model's (below)
#   cache_full90 PROFILE LABEL KEY=VALUE...: the same drive 90 % full, at
#                 QD1 and QD32 (below)
#   truth_q EXPR  a Python expression over the truth records (a list of
#                 dicts, `T`), printed
# shellcheck shell=bash disable=SC2034

KA_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export KA_DIR
# shellcheck source=tests/integration/lib.sh
. "$KA_DIR/../integration/lib.sh"
SSDSIM=${SSDSIM:-$ROOT/sim/ssdsim}
PROFILES=$ROOT/sim/profiles
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}

[ -x "$SSDSIM" ] || { echo "$TEST_NAME: $SSDSIM is missing (make -C $ROOT)"; exit 1; }
cp "$SSDSIM" "$T/ssdsim" || die "cannot copy $SSDSIM"
SSDSIM=$T/ssdsim

sim_start() {
	local name=$1 prof=$2 dir=$T/$1 i
	shift 2
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	case $prof in */*) ;; *) prof=$PROFILES/$prof.conf ;; esac
	# The drives' data on a tmpfs: the simulator reads what a write
	# replaces (for a power cut) and writes under its lock, and a
	# disk's file system under that (ext4 allocating a sparse file's
	# blocks) holds a write for milliseconds now and then: time the
	# model sees as the host's pause, not as its own figure.
	mountpoint -q "$T/data" || do_mount -t tmpfs -o size=8g,mode=0700 \
	    ssdt-known "$T/data"
	mkdir -p "$dir"
	SIM_FILE=$dir/drive SIM_CTL=$T/$name.sock SIM_TRUTH=$T/$name.truth
	echo "$dir" >>"$T/.mounts"
	# not a child of ours: the cleanup unmounts it, which ends it
	( "$SSDSIM" run --profile "$prof" --data "$T/data/$name.data" \
	    --control "$SIM_CTL" --truth "$SIM_TRUTH" "$@" "$dir" \
	    >"$T/$name.sim.log" 2>&1 & )
	for i in $(seq 1 200); do
		mountpoint -q "$dir" && [ -e "$SIM_FILE" ] && return 0
		sleep 0.05
	done
	show_file "$T/$name.sim.log"
	die "ssdsim did not mount $dir"
}

sim_power() { "$SSDSIM" power "$1" --control "$SIM_CTL"; }
sim_smart() { "$SSDSIM" smart --control "$SIM_CTL"; }

truth_q() {
	python3 - "$SIM_TRUTH" "$1" <<'PY'
import json, sys
T = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(eval(sys.argv[2]))
PY
}

# seq_drive NAME PROFILE QD STATIC TRIM IDLE CYCLES: mount PROFILE (a
# file) as drive NAME (sim_start) and print its section: 128 KiB
# sequential writes at queue depth QD, static_fraction STATIC, trim TRIM,
# idle IDLE, CYCLES cycles, no checkpoint, no SMART.
seq_drive() {
	sim_start "$1" "$2"
	cat <<EOC
[drive:$1]
device = $SIM_FILE
serial = none
block_size = 128k
queue_depth = $3
order = sequential
static_fraction = $4
trim = $5
idle = $6
cycles = $7
checkpoint = off
smart = off
EOC
}

# cache_two_passes PROFILE CAPACITY LABEL: PROFILE (of sim/profiles)
# scaled to CAPACITY, its model's rounds ending with each write or two
# (round_ms = 1: they say when each level filled); two passes of 128 KiB
# sequential writes, no TRIM between them, at QD1 (drive a) and at QD32
# (drive b) side by side; each pass's cache figures against the model's
# (tests/known/cache.py), the clean pass and the dirty one.
cache_two_passes() {
	local d
	cp "$PROFILES/$1.conf" "$T/p.conf"
	sed -i -e "s/^capacity = .*/capacity = $2/" \
	    -e 's/^\[ftl\]$/[ftl]\nround_ms = 1/' "$T/p.conf"
	ST=$T/state
	{
		seq_drive a "$T/p.conf" 1 0 no 0 2
		seq_drive b "$T/p.conf" 32 0 no 0 2
	} | write_conf "$T/a.conf" "$ST"
	SSDT_TIMEOUT=200 run_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
	assert_rc "two passes on two $3 drives" 0 "$RC" "$T/a.log"
	for d in a:1 b:32; do
		python3 - "$T/${d%:*}.truth" "$ST/${d%:*}/events.jsonl" \
		    "QD${d#*:}" >"$T/${d%:*}.check" <<'PY'
import os, sys
sys.path.insert(0, os.environ["KA_DIR"])
import cache, known
tr = known.Truth(sys.argv[1])
ev = known.events(sys.argv[2], tr)
qd = sys.argv[3]
c = known.Checks()
ps = cache.passes(tr, ev)
c.true("two write passes", len(ps) == 2, len(ps))
if len(ps) == 2:
    cache.check(c, tr, ps[0], qd + " pass 1 (clean)", ps[0].end)
    cache.check(c, tr, ps[1], qd + " pass 2 (dirty)", ps[1].end)
c.done()
PY
		show_file "$T/${d%:*}.check"
		assert_eq "the $3 drive's cache at QD${d#*:}" ok \
		    "$(tail -n 1 "$T/${d%:*}.check")"
	done
}

# cache_full90 PROFILE LABEL KEY=VALUE...: PROFILE (of sim/profiles, a
# cache that is a share of the FREE space) with each KEY of it set to
# VALUE (its capacity and speeds scaled: the test says why), its model's
# rounds ending with each write or two (round_ms = 1). static_fraction = 0.9, two cycles of 128 KiB sequential
# writes over the last tenth, TRIM and 3 s of rest between them (the
# rest folds the cache back), at QD1 (drive a) and at QD32 (drive b)
# side by side:
#  - the static fill (a clean pass over 90 % of the empty drive): the
#    estimate names the whole cache (the profile's share of the drive),
#    its levels;
#  - pass 1, right after the fill: the model's cache had nothing free as
#    it began (the fill left it full): no cache claimed;
#  - pass 2 (clean, the drive 90 % full): the model's cache the
#    profile's share of the tenth then free; the estimate names it whole.
# Each estimate within 5 % of the model's cache and levels, its speeds
# in and after the cache and in each level within 10 % of what the model
# did (tests/known/cache.py says how those are measured).
cache_full90() {
	local d share kv label=$2
	cp "$PROFILES/$1.conf" "$T/p.conf"
	shift 2
	for kv; do
		grep -q "^${kv%%=*} = " "$T/p.conf" || die "$kv: no such key"
		sed -i "s/^${kv%%=*} = .*/${kv%%=*} = ${kv#*=}/" "$T/p.conf"
	done
	sed -i 's/^\[ftl\]$/[ftl]\nround_ms = 1/' "$T/p.conf"
	share=$(sed -n 's/^free_share = //p' "$T/p.conf")
	[ -n "$share" ] || die "$1: no free_share (a cache of the free space)"
	ST=$T/state
	{
		seq_drive a "$T/p.conf" 1 0.9 yes 3s 2
		seq_drive b "$T/p.conf" 32 0.9 yes 3s 2
	} | write_conf "$T/a.conf" "$ST"
	SSDT_TIMEOUT=200 run_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
	assert_rc "the 90 %-full runs" 0 "$RC" "$T/a.log"
	for d in a:1 b:32; do
		python3 - "$T/${d%:*}.truth" "$ST/${d%:*}/events.jsonl" \
		    "QD${d#*:}" "$share" >"$T/${d%:*}.check" <<'PY'
import os, sys
sys.path.insert(0, os.environ["KA_DIR"])
import cache, known
tr = known.Truth(sys.argv[1])
ev = known.events(sys.argv[2], tr)
qd = sys.argv[3]
share = float(sys.argv[4])
c = known.Checks()
ps = cache.passes(tr, ev)
c.true("the static fill and two write passes", len(ps) == 3, len(ps))
if len(ps) == 3:
    cap = tr.ev("start")[0]["capacity"]
    mc, free = cache.model_cache(tr, ps[2])
    c.within("the model's free space as pass 2 began (a tenth)",
             mc["drive_free"] if mc else 0, cap / 10, 0.01)
    c.within("the model's cache then (%g of it)" % share, mc["bytes"] if mc
             else 0, mc["drive_free"] * share if mc else 1, 0.01)
    cache.check(c, tr, ps[0], qd + " static fill (clean, empty)", ps[0].end)
    cache.check(c, tr, ps[1], qd + " pass 1 (cache left full)", ps[1].end)
    cache.check(c, tr, ps[2], qd + " pass 2 (clean, 90 % full)", ps[2].end)
c.done()
PY
		show_file "$T/${d%:*}.check"
		assert_eq "the 90 %-full $label drive at QD${d#*:}" ok \
		    "$(tail -n 1 "$T/${d%:*}.check")"
	done
}
