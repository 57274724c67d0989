#!/bin/bash
# run: heavy
# ssdsim: the simulated drive as a file, against its own record of the
# truth (the intel-600p profile: a 16 MiB SLC cache at 200 MB/s, then
# folds that stall the writes, an 8 MiB volatile cache).
#   A: the file: the model's capacity, st_blksize 4096, nothing allocated;
#      a truncate to another size refused; the clock record first
#   B: a sequential pass of 1 MiB direct writes: the cache's speed, then
#      the knee where the model says its cache filled (truth cache_full),
#      then the stalls; the data reads back
#   C: trim reaches the model: right after the knee the writes are slow;
#      after a discard of the whole drive they run at the cache's speed
#      again, and the data file's blocks are punched; a discard of part of
#      a page leaves its bytes
#   D: fsync reaches the model, and a power cut loses exactly what the
#      truth's power_off lists (the write after the last fsync), and
#      nothing else: a lost MiB written over flushed data reads as that
#      data again, a lost MiB never written before as zeroes; the file is
#      gone while the power is off
#   E: SMART as smartctl's NVMe JSON: host bytes and commands as written
#   F: the control socket survives bad requests
#   G: ssdtortured on MOUNT/drive with direct I/O: a cycle with a power
#      cut run by `ssdsim off|on` as power_cut_command; no verify error,
#      what the cut lost is what the daemon's verify did not find kept
#   H: SIGTERM unmounts and exits
. "$(dirname "$0")/lib.sh"

SIM_SRC=${SSDSIM:-$ROOT/sim/ssdsim}
PROFILE=$ROOT/sim/profiles/intel-600p.conf
IO="python3 $IT_DIR/ssdsim_io.py"
MIB=1048576
[ -x "$SIM_SRC" ] || die "$SIM_SRC is missing (make -C $ROOT)"
[ -f "$PROFILE" ] || die "$PROFILE is missing"
[ -c /dev/fuse ] || skip "no /dev/fuse"
command -v fusermount3 >/dev/null || skip "fusermount3 missing (tests/deps.sh)"
cp "$SIM_SRC" "$T/ssdsim" || die "cannot copy $SIM_SRC"
SIM=$T/ssdsim
MNT=$T/mnt
CTL=$T/sim.sock
DRIVE=$MNT/drive
SIM_PID=

# never a stale mount: stop, unmount, kill, then lib.sh's cleanup
sim_cleanup() {
	if [ -n "$SIM_PID" ] && pid_alive "$SIM_PID"; then
		timeout 10 "$SIM" stop --control "$CTL" >/dev/null 2>&1
		for _ in $(seq 1 50); do
			pid_alive "$SIM_PID" || break
			sleep 0.1
		done
	fi
	mountpoint -q "$MNT" 2>/dev/null && fusermount3 -u "$MNT" 2>/dev/null
	mountpoint -q "$MNT" 2>/dev/null && fusermount3 -uz "$MNT" 2>/dev/null
	[ -n "$SIM_PID" ] && pid_alive "$SIM_PID" && kill -KILL "$SIM_PID"
	SIM_PID=
}
trap '_rc=$?; sim_cleanup; (exit $_rc); _cleanup' EXIT

# sim_start TAG [ARGS...]: run ssdsim in the foreground of a background
# job (its pid in SIM_PID), wait for the drive file
sim_start() {
	local tag=$1
	shift
	mkdir -p "$MNT"
	"$SIM" run --profile "$PROFILE" --data "$T/$tag.img" --control "$CTL" \
	    --truth "$T/$tag.truth" --foreground "$@" "$MNT" \
	    >"$T/$tag.sim.log" 2>&1 &
	SIM_PID=$!
	for _ in $(seq 1 100); do
		[ -e "$DRIVE" ] && return 0
		pid_alive "$SIM_PID" || break
		sleep 0.05
	done
	show_file "$T/$tag.sim.log"
	die "ssdsim did not mount $MNT"
}

# truth FILE EVENT FIELD: the field of the first such record
truth() {
	python3 - "$@" <<'EOF'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("event") == sys.argv[2]:
        print(r.get(sys.argv[3], "-")); break
else:
    print("-")
EOF
}

# smart FIELD.PATH: a field of `ssdsim smart`
smart() {
	"$SIM" smart --control "$CTL" | python3 -c '
import json, sys
v = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    v = v[k]
print(v)' "$1"
}

# mbps SECONDS_FILE FIRST LAST: MB/s over the MiB FIRST..LAST of a pass
mbps() {
	awk -v a="$2" -v b="$3" '$1 >= a && $1 <= b { s += $2; n++ }
	    END { printf "%.1f", n * 1.048576 / s }' "$1"
}

# median_mbps SECONDS_FILE FIRST LAST: MB/s of the median MiB of FIRST..LAST.
# The cache's speed is one constant of the model; a MiB the host's scheduler
# held up (a busy CI host runs two suites at once) is an outlier of the host,
# and the median leaves it out where the mean took it in
median_mbps() {
	awk -v a="$2" -v b="$3" '$1 >= a && $1 <= b { print $2 }' "$1" | sort -g |
	    awk '{ t[NR] = $1 } END { m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
	    printf "%.1f", 1.048576 / m }'
}

# ---------------------------------------------------------------- A
log "A: the drive file"
sim_start a --seed 7
TR=$T/a.truth
CAP=$(truth "$TR" start capacity)
SLC=$(truth "$TR" start slc_bytes)
SLC_MBPS=$(truth "$TR" start slc_mbps)
assert_eq "A: the first truth record" clock \
    "$(head -n 1 "$TR" | python3 -c 'import json,sys; print(json.load(sys.stdin)["event"])')"
assert_eq "A: size is the model's capacity" "$CAP" "$(stat -c %s "$DRIVE")"
assert_eq "A: st_blksize" 4096 "$(stat -c %o "$DRIVE")"
assert_eq "A: nothing allocated" 0 "$(stat -c %b "$DRIVE")"
if truncate -s 1M "$DRIVE" 2>/dev/null; then
	fail "A: a truncate to 1M was accepted"
else
	pass_check "A: truncate refused"
fi
assert_eq "A: size after the truncate" "$CAP" "$(stat -c %s "$DRIVE")"

# ---------------------------------------------------------------- B
log "B: the cache knee ($((SLC / MIB)) MiB at $SLC_MBPS MB/s)"
NB=$((SLC / MIB * 2))
$IO write "$DRIVE" 0 "$NB" 1 >"$T/b.times" || fail "B: the write pass"
in_cache=$(median_mbps "$T/b.times" 1 $((SLC / MIB / 2)))
post=$(mbps "$T/b.times" $((SLC / MIB + 2)) $((NB - 1)))
note "B: $in_cache MB/s in the cache, $post MB/s after it"
# QD1: the model's speed less the front-end's time per request
assert_within "B: speed in the cache" "$in_cache" "$SLC_MBPS" 15
assert_lt "B: after the cache, under half its speed" \
    "${post%.*}" $(( ${SLC_MBPS%.*} / 2 ))
# the knee: the first MiB at under a third of the cache's speed
knee=$(awk -v s="$in_cache" '$2 > 3 * 1.048576 / s { print $1; exit }' "$T/b.times")
full=$(truth "$TR" cache_full host_bytes)
note "B: first slow MiB $knee, the model's cache full at $full bytes"
assert_ge "B: the knee at the model's cache_full (MiB)" "$knee" $((full / MIB - 1))
assert_le "B: the knee at the model's cache_full (MiB)" "$knee" $((full / MIB + 1))
assert_eq "B: the data reads back" ok "$($IO check "$DRIVE" 0 "$NB" 1)"

# ---------------------------------------------------------------- C
log "C: trim reaches the model"
$IO write "$DRIVE" "$NB" 8 2 >"$T/c1.times" || fail "C: writes after the knee"
slow=$(mbps "$T/c1.times" "$NB" $((NB + 7)))
alloc0=$(stat -c %b "$DRIVE")
$IO trim "$DRIVE" 0 "$CAP" || fail "C: the discard"
$IO write "$DRIVE" 100 8 3 >"$T/c2.times" || fail "C: writes after the trim"
fast=$(median_mbps "$T/c2.times" 100 107)
note "C: $slow MB/s before the trim, $fast MB/s after"
assert_within "C: after the trim, the cache's speed" "$fast" "$SLC_MBPS" 15
assert_gt "C: after the trim, 3 times faster than before" "${fast%.*}" \
    $(( ${slow%.*} * 3 ))
assert_lt "C: the data file punched" "$(stat -c %b "$DRIVE")" "$alloc0"
assert_eq "C: a trimmed MiB reads as zeroes" 0 \
    "$($IO zeroes "$DRIVE" $((3 * MIB)) "$MIB")"
assert_eq "C: what was written after the trim reads back" ok \
    "$($IO check "$DRIVE" 100 8 3)"
# a discard of 8 KiB from 512 B into a page frees the one whole page in it
P0=$((107 * MIB))
$IO trim "$DRIVE" $((P0 + 512)) 8192 || fail "C: a partial discard"
assert_eq "C: the partial page before kept" 0 "$($IO same "$DRIVE" $((P0 + 512)) 3584 3)"
assert_eq "C: the whole page zeroed" 0 "$($IO zeroes "$DRIVE" $((P0 + 4096)) 4096)"
assert_eq "C: the partial page after kept" 0 "$($IO same "$DRIVE" $((P0 + 8192)) 512 3)"

# ---------------------------------------------------------------- D
log "D: fsync and a power cut"
$IO fsync "$DRIVE"
$IO write "$DRIVE" 200 2 4 fsync >/dev/null || fail "D: flushed writes"
$IO write "$DRIVE" 210 1 6 fsync >/dev/null || fail "D: A, flushed"
$IO write "$DRIVE" 210 2 5 >/dev/null || fail "D: B over A and beyond, unflushed"
off_reply=$("$SIM" power off --control "$CTL")
assert_rc "D: power off" 0 $?
check "D: the file is gone" test ! -e "$DRIVE"
if "$SIM" power off --control "$CTL" >/dev/null 2>&1; then
	fail "D: a second power off accepted"
else
	pass_check "D: a second power off refused"
fi
assert_eq "D: smart with the power off exits 2" 2 \
    "$("$SIM" smart --control "$CTL" >/dev/null 2>&1; echo $?)"
"$SIM" power on --control "$CTL" >/dev/null || fail "D: power on"
check "D: the file is back" test -e "$DRIVE"
# the truth's lost ranges: all inside the unflushed MiB, and zeroed there
read -r nlost lostb inside < <(python3 - "$TR" $((210 * MIB)) $((2 * MIB)) <<'EOF'
import json, sys
lo, n = int(sys.argv[2]), int(sys.argv[3])
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("event") == "power_off":
        ins = all(x["off"] >= lo and x["off"] + x["len"] <= lo + n for x in r["lost"])
        print(len(r["lost"]), sum(x["len"] for x in r["lost"]), int(ins))
        break
EOF
)
note "D: the cut lost $nlost range(s), $lostb bytes ($off_reply)"
assert_eq "D: lost bytes, reply and truth" "$lostb" \
    "$(printf '%s' "$off_reply" | python3 -c 'import json,sys; print(json.load(sys.stdin)["lost_bytes"])')"
assert_eq "D: every lost range in the unflushed write" 1 "$inside"
assert_eq "D: the whole unflushed 2 MiB lost (under the 8 MiB cache)" \
    $((2 * MIB)) "$lostb"
assert_eq "D: the lost MiB over A reads as A" ok "$($IO check "$DRIVE" 210 1 6)"
assert_eq "D: the lost MiB never written before reads as zeroes" 0 \
    "$($IO zeroes "$DRIVE" $((211 * MIB)) "$MIB")"
assert_eq "D: the flushed MiB kept" ok "$($IO check "$DRIVE" 200 2 4)"
assert_eq "D: the older data kept" ok "$($IO check "$DRIVE" 100 7 3)"

# ---------------------------------------------------------------- E
log "E: SMART"
WROTE_MIB=$((NB + 8 + 8 + 2 + 1 + 2))
"$SIM" smart --control "$CTL" >"$T/smart.json"
assert_rc "E: smart" 0 $?
assert_eq "E: device type" nvme "$(smart device.type)"
assert_eq "E: protocol" NVMe "$(smart device.protocol)"
assert_eq "E: capacity" "$CAP" "$(smart nvme_total_capacity)"
assert_eq "E: host bytes written" $((WROTE_MIB * MIB)) "$(smart ssdsim.host_bytes_written)"
assert_eq "E: data units written (512000 B, rounded up)" \
    $(( (WROTE_MIB * MIB + 511999) / 512000 )) \
    "$(smart nvme_smart_health_information_log.data_units_written)"
assert_eq "E: write commands (one a MiB)" "$WROTE_MIB" \
    "$(smart nvme_smart_health_information_log.host_writes)"
assert_eq "E: the cut counted unsafe" 1 \
    "$(smart nvme_smart_health_information_log.unsafe_shutdowns)"
assert_ge "E: NAND bytes written >= host's" "$(smart ssdsim.nand_bytes_written)" \
    $((WROTE_MIB * MIB))
assert_eq "E: smart_status" True "$(smart smart_status.passed)"

# ---------------------------------------------------------------- F
log "F: bad requests on the control socket"
for req in "" "power" "power sideways" "$(head -c 300 /dev/zero | tr '\0' x)" \
    "$(printf 'smart\001')"; do
	r=$(printf '%s\n' "$req" | timeout 5 socat - "UNIX-CONNECT:$CTL" 2>/dev/null)
	assert_contains "F: '${req:0:12}' refused" "$r" '"ok":false'
done
r=$(timeout 5 socat - "UNIX-CONNECT:$CTL" </dev/null 2>/dev/null)
assert_contains "F: no line at all" "$r" '"ok":false'
assert_contains "F: status afterwards" "$("$SIM" status --control "$CTL")" '"power":"on"'
"$SIM" stop --control "$CTL" >/dev/null || fail "F: stop"
for _ in $(seq 1 100); do pid_alive "$SIM_PID" || break; sleep 0.05; done
if pid_alive "$SIM_PID"; then fail "F: still running after stop"; else
	pass_check "F: stopped"; fi
check "F: unmounted" sh -c "! mountpoint -q '$MNT'"
SIM_PID=

# ---------------------------------------------------------------- G
log "G: ssdtortured on the simulated drive, a power cut in its cycle"
sim_start g --seed 11
write_conf "$T/g.conf" "$T/state" <<EOF
[drive:sim]
checkpoint = off
device = $DRIVE
block_size = 4k
order = sequential
queue_depth = 32
static_fraction = 0.25
trim = yes
idle = 0
cycles = 1
power_cut_command = $SIM
power_cut_every = 1
power_cut_timeout = 30s
EOF
SSDT_TIMEOUT=600 SSDSIM_CONTROL=$CTL run_ssdt "$T/g.log" -c "$T/g.conf" --oneshot
assert_rc "G: --oneshot" 0 "$RC" "$T/g.log"
S=$T/state/sim/state
EV=$T/state/sim/events.jsonl
assert_eq "G: run" finished "$(state_get "$S" run)"
assert_eq "G: power.cuts" 1 "$(state_get "$S" power.cuts)"
assert_no_errors "G" "$S"
read -r unfl < <(ev_query "$EV" 0 unflushed_blocks event=power_cut)
read -r kept < <(ev_query "$EV" 0 unflushed_kept event=power_loss_verified)
glost=$(truth "$T/g.truth" power_off lost_bytes)
note "G: unflushed $unfl blocks, kept $kept, the model lost $glost bytes"
assert_eq "G: what the verify did not find kept is what the model lost" \
    "$glost" $(( (unfl - kept) * 4096 ))
assert_eq "G: the cut seen by the drive" 1 \
    "$(smart nvme_smart_health_information_log.unsafe_shutdowns)"

# ---------------------------------------------------------------- H
log "H: SIGTERM"
kill -TERM "$SIM_PID"
for _ in $(seq 1 100); do pid_alive "$SIM_PID" || break; sleep 0.05; done
if pid_alive "$SIM_PID"; then fail "H: still running after SIGTERM"; else
	pass_check "H: exited"; fi
check "H: unmounted" sh -c "! mountpoint -q '$MNT'"
check "H: the control socket removed" test ! -e "$CTL"

finish
