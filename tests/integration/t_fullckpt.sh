#!/bin/bash
# run: heavy
# Full checkpoints (checkpoint = full): the long tests at short durations,
# on a loop device that discards:
#  A. the whole sequence after the quick suite: the degradation run and its
#     recoveries, each with a line in checkpoints.jsonl and a per-second
#     series file, the clean and the dirty pass with their write-cache
#     figures; the area holds the cycle's data again (a --verify finds
#     nothing); status and ssdctl checkpoints show them;
#  B. a unit corrupted during the degradation run is found by the check
#     after it, at its exact offset;
#  C. kill -9 in the degradation run and again after the TRIM: --verify of
#     the half-tested drive finds nothing, the restart finishes;
#  D. a target that cannot discard (a file on FUSE): the TRIMs are said to
#     have failed, and the figures after them say they ran on an area not
#     discarded.
. "$(dirname "$0")/lib.sh"
need_root
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}

# conf FILE STATEDIR NAME DEV [DEGRADE [GC_IDLE [TESTS]]]: a drive with
# short long tests.
conf() {
	local f=$1 st=$2 name=$3 dev=$4 deg=${5:-4s} idle=${6:-1s} tests=${7:-all}
	write_conf "$f" "$st" <<EOF
[drive:$name]
device = $dev
serial = none
block_size = 64k
idle = 0
cycles = 1
checkpoint = full
checkpoint_probes = rand-read-4k-qd1
probe_seconds = 1s
probe_ramp = 0s
degrade_duration = $deg
gc_idle = $idle
recovery_duration = 2s
thermal_duration = 2s
full_checkpoint_tests = $tests
EOF
}

# loopdev IMG SIZE: a loop device over a new file (discard punches holes),
# buffered: the long tests write flat out for their seconds, and through
# the page cache they leave the host's disk to the test beside.
loopdev() {
	truncate -s "$2" "$1"
	new_loop "$1"
}

# ---------------------------------------------------------------- A
log "A: checkpoint = full, the long tests end to end"
loopdev "$T/a.img" 64M
ST=$T/state
conf "$T/a.conf" "$ST" a "$LOOPDEV"
SSDT_TIMEOUT=300 run_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
assert_rc "--oneshot with a full checkpoint" 0 "$RC" "$T/a.log"
S=$ST/a/state EV=$ST/a/events.jsonl CK=$ST/a/checkpoints.jsonl
python3 - "$CK" "$ST/a/series" >"$T/a.check" <<'EOF'
import json, os, sys
L = {o["probe"]: o for o in map(json.loads, open(sys.argv[1]))}
bad = []
for k in ("rand-read-4k-qd1", "degrade", "recover-idle", "recover-trim",
          "full90-rand-write-4k-qd32", "full90-seq-write-128k-qd32",
          "clean-pass", "dirty-pass"):
    if k not in L:
        bad.append("no line " + k)
for k in ("degrade", "recover-idle", "recover-trim"):
    o = L.get(k, {})
    if o.get("family") != "long" or o.get("rw") != "randwrite" or \
            o.get("block_size") != 4096 or o.get("queue_depth") != 32:
        bad.append("%s: workload %s" % (k, o))
    if not o.get("write_iops", 0) > 0 or o.get("errors") != 0:
        bad.append("%s: figures %s" % (k, o))
    want = 4 if k == "degrade" else 2
    if not want - 0.5 <= o.get("seconds", 0) <= want + 1:
        bad.append("%s: %s s" % (k, o.get("seconds")))
    s = json.load(open(os.path.join(sys.argv[2], o.get("series", "none"))))
    n = len(s["iops"])
    if s["step"] != k or not want - 2 <= n <= want + 1 or \
            len(s["bytes_per_sec"]) != n or len(s["p99_us"]) != n:
        bad.append("%s: series of %d s %s" % (k, n, s["step"]))
    if min(s["iops"]) <= 0 or any(abs(b - 4096 * i) > 0.01 * b + 50
                                  for i, b in zip(s["iops"], s["bytes_per_sec"])):
        bad.append("%s: series figures %s %s" % (k, s["iops"], s["bytes_per_sec"]))
o = L.get("degrade", {})
if "figures" not in o or o.get("steady", 0) is not None:
    bad.append("a run under a round has no SNIA figures, and says so: %s" % o)
for k in ("recover-idle", "recover-trim"):
    o = L.get(k, {})
    if not o.get("first_iops", 0) > 0 or not o.get("all_iops", 0) > 0 or \
            o.get("first_share") is not None:
        bad.append("%s: recovery figures %s" % (k, o))
if L.get("recover-idle", {}).get("idle_seconds") != 1:
    bad.append("idle_seconds")
for k in ("clean-pass", "dirty-pass"):
    o = L.get(k, {})
    if "slc_knee" not in o or not o.get("pass_bytes_per_sec", 0) > 0:
        bad.append("%s: no write-cache figures %s" % (k, o))
if L.get("clean-pass", {}).get("after_trim") is not True:
    bad.append("the clean pass follows a TRIM")
# the thermal runs: sequential 128 KiB writes then reads over the area, each
# second's speed; a loop device has no temperature nor thermal counters,
# so those are unknown (null), never 0
for k, rw in (("thermal-write", "write"), ("thermal-read", "read")):
    o = L.get(k, {})
    if o.get("rw") != rw or o.get("block_size") != 131072 or \
            not o.get(rw + "_bytes_per_sec", 0) > 0 or o.get("errors") != 0:
        bad.append("%s: %s" % (k, o))
    if o.get("thermal_counters") is not False or "throttled" not in o or \
            o["throttled"] is not None or o.get("peak_temperature_c", 0) is not None:
        bad.append("%s: thermal figures %s" % (k, o))
    s = json.load(open(os.path.join(sys.argv[2], o.get("series", "none"))))
    if not 1 <= len(s["bytes_per_sec"]) <= 3 or min(s["bytes_per_sec"]) <= 0 or \
            s.get("temperature_c") != [None] * len(s["bytes_per_sec"]):
        bad.append("%s: series %s" % (k, s))
# 90 % full: writes inside the last tenth of the span, the rest valid
for k, rw, bs in (("full90-rand-write-4k-qd32", "randwrite", 4096),
                  ("full90-seq-write-128k-qd32", "write", 131072)):
    o = L.get(k, {})
    if o.get("family") != "full90" or o.get("rw") != rw or \
            o.get("block_size") != bs or not o.get("write_iops", 0) > 0 or \
            o.get("errors") != 0 or o.get("region_bytes") != (64 * 2**20 // 65536) // 10 * 65536 or \
            o.get("region_offset") + o.get("region_bytes") != 64 * 2**20:
        bad.append("%s: %s" % (k, o))
# the reads of fresh and of aged data end the checkpoint, full or not
fr, ag = L.get("fresh-read", {}), L.get("aged-read", {})
if list(L)[-2:] != ["fresh-read", "aged-read"]:
    bad.append("the reads are not last: %s" % list(L)[-2:])
if fr.get("region_bytes") != ag.get("region_bytes") or \
        not fr.get("read_bytes_per_sec", 0) > 0 or not ag.get("read_bytes_per_sec", 0) > 0:
    bad.append("reads %s %s" % (fr, ag))
vs = ag.get("vs_fresh", {})
def near(a, b): return abs(a - b) <= 1e-4 * abs(b)  # figures of 6 digits
if not near(vs.get("throughput", 0), ag["read_bytes_per_sec"] / fr["read_bytes_per_sec"]) or \
        not near(vs.get("p99.9", 0), ag["read_lat_us"]["p99.9"] / fr["read_lat_us"]["p99.9"]):
    bad.append("aged against fresh: %s" % vs)
print("\n".join(bad) or "ok")
EOF
assert_eq "the long tests' lines and series" ok "$(cat "$T/a.check")"
assert_eq "one full checkpoint" 1 "$(state_get "$S" checkpoint.full_done)"
assert_eq "the area holds the cycle's data again" 0 \
    "$(state_get "$S" probe.length)"
assert_eq "... nothing discarded" 0 "$(state_get "$S" probe.trimmed)"
assert_eq "no verify error" 0 "$(ev_count "$EV" 0 event=verify_error)"
assert_gt "the long tests' writes count as probe bytes" \
    "$(state_get "$S" probe_bytes_written)" $((64 * 1024 * 1024))
run_ssdt "$T/a.verify" -c "$T/a.conf" --verify
assert_rc "--verify after the full checkpoint" 0 "$RC" "$T/a.verify"
assert_eq "--verify: nothing found" 0 "$(ev_count "$EV" 0 event=verify_error)"
"$CTL" checkpoints --state-dir "$ST" a >"$T/a.table" 2>&1
assert_rc "ssdctl checkpoints --state-dir" 0 $? "$T/a.table"
assert_file_contains "the table has the degradation run" "$T/a.table" degrade
assert_file_contains "... and the dirty pass" "$T/a.table" dirty-pass

# ---------------------------------------------------------------- B
log "B: units corrupted between the degradation run and its check"
# planted in the idle time before the recovery run, which rewrites some of
# them (on 384 MiB of area, 1 s of it leaves about half alone): those the check
# finds are planted ones, at their offsets, and it finds some
loopdev "$T/b.img" 512M
ST=$T/state_b
conf "$T/b.conf" "$ST" b "$LOOPDEV" 2s 4s degrade,recovery
sed -i 's/^recovery_duration = .*/recovery_duration = 1s/' "$T/b.conf"
S=$ST/b/state EV=$ST/b/events.jsonl
start_ssdt "$T/b.log" -c "$T/b.conf" --oneshot
# step STEP TIMEOUT_S: wait until the status says the checkpoint is in it
step() {
	local i
	for i in $(seq 1 $(($2 * 10))); do
		"$CTL" -s "$ST.sock" --json status b 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)["drives"][0]
sys.exit(d["checkpoint"]["step"] != sys.argv[1])' "$1" && return 0
		sleep 0.1
	done
	return 1
}
step gc-idle 120 || die "no idle time after the degradation run"
state_snap "$S" "$S.snap"
unit=$(state_get "$S.snap" probe.unit)
lo=$(state_get "$S.snap" probe.offset) len=$(state_get "$S.snap" probe.length)
: >"$T/planted"
for i in $(seq 1 20); do
	off=$(( lo + (RANDOM * 32768 + RANDOM) % (len / unit) * unit ))
	head -c "$unit" /dev/urandom | dd of="$LOOPDEV" bs="$unit" \
	    seek=$((off / unit)) count=1 oflag=direct conv=notrunc status=none
	echo "$off" >>"$T/planted"
done
wait_exit "$SSDT_PID" 120
assert_rc "the run ends: verify errors were found (exit 3)" 3 "$RC" "$T/b.log"
ev_query "$EV" 0 offset,class,phase,block_size event=verify_error >"$T/found"
assert_gt "the check found planted units" "$(wc -l <"$T/found")" 0
assert_eq "each a planted unit, corrupt, a unit long" "" "$(awk -v u="$unit" '
    NR == FNR { p[$1] = 1; next }
    !($1 in p) || $2 != "corrupt" || $3 != "checkpoint" || $4 != u' \
    "$T/planted" "$T/found")"

# ---------------------------------------------------------------- C
log "C: kill -9 in the degradation run, and after the TRIM"
loopdev "$T/c.img" 64M
ST=$T/state_c
conf "$T/c.conf" "$ST" c "$LOOPDEV" 3s 3s
S=$ST/c/state EV=$ST/c/events.jsonl CK=$ST/c/checkpoints.jsonl
for when in degrade trimmed; do
	start_ssdt "$T/c.$when.log" -c "$T/c.conf" --oneshot
	if [ "$when" = degrade ]; then
		cond='s["phase"] == "checkpoint" and s["probe.length"] > 32 * 2**20'
	else
		cond='s["probe.trimmed"] == 1'
	fi
	wait_state "$S" "$SSDT_PID" 120 "$cond" || die "never $when"
	sleep 1.5
	kill -9 "$SSDT_PID"
	wait_exit "$SSDT_PID" 10
	assert_eq "killed in the checkpoint ($when)" checkpoint \
	    "$(state_get "$S" phase)"
	run_ssdt "$T/c.$when.verify" -c "$T/c.conf" --verify
	assert_rc "--verify of a drive killed in the long tests ($when)" 0 \
	    "$RC" "$T/c.$when.verify"
	assert_eq "--verify: no false error ($when)" 0 \
	    "$(ev_count "$EV" 0 event=verify_error)"
done
run_ssdt "$T/c.run3" -c "$T/c.conf" --oneshot
assert_rc "the restart finishes" 0 "$RC" "$T/c.run3"
assert_eq "no verify error" 0 "$(ev_count "$EV" 0 event=verify_error)"
assert_eq "the full checkpoint done once" 1 \
    "$(state_get "$S" checkpoint.full_done)"
assert_eq "each long test recorded once" "1 1 1" "$(for k in degrade \
    recover-idle dirty-pass; do grep -c "\"probe\":\"$k\"" "$CK"; done | xargs)"

# ---------------------------------------------------------------- D
log "D: a target that cannot discard"
MNT=$T/fuse
truncate -s 32M "$T/d.back"
stallfs "$T/d.back" "$MNT" "$T/never"
ST=$T/state_d
conf "$T/d.conf" "$ST" d "$MNT/disk" 2s 0s trim,cache,full90
sed -i 's/^serial = none/size = 32M\ntrim = no/' "$T/d.conf"
S=$ST/d/state EV=$ST/d/events.jsonl CK=$ST/d/checkpoints.jsonl
run_ssdt "$T/d.log" -c "$T/d.conf" --oneshot
assert_rc "a full checkpoint on a target without discard" 0 "$RC" "$T/d.log"
assert_eq "each TRIM of the long tests said to have failed" \
    "trim full90-trim cache-trim" \
    "$(ev_query "$EV" 0 step event=trim_unsupported | xargs)"
assert_eq "the figures after them say so" "False False False" "$(python3 -c '
import json, sys
L = {o["probe"]: o for o in map(json.loads, open(sys.argv[1]))}
print(L["recover-trim"]["trimmed"], L["full90-rand-write-4k-qd32"]["trimmed"],
      L["clean-pass"]["after_trim"])' "$CK")"
assert_eq "no verify error" 0 "$(ev_count "$EV" 0 event=verify_error)"
finish
