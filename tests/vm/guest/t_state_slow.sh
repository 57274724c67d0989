#!/bin/bash
# A slow state disk: state_dir on ext4 over a device-mapper `delay` target
# that holds every write and flush of /dev/sda for DELAY ms, so that each
# checkpoint takes several DELAYs (two rounds of fsyncs, each a journal
# commit of a few writes in a row: 6-7 s at 1 s, measured with the
# checkpoints waited for on the loop). The main loop does not wait for
# them: while a drive runs through its phases (each phase change's
# checkpoint on disk before its I/O begins, without the loop waiting),
#   - ssdctl status answers within 2 DELAYs, every time;
#   - the daemon's own longest main-loop turn (metrics textfile) stays
#     within 2 DELAYs: a single append can wait one DELAY in the kernel
#     (its page under writeback), a checkpoint waited for takes more;
#   - the records keep up: the drive is never paused for them, and the
#     phase figures count the drive's time, not the wait for its state.
# Still synchronous, and so kept out of this scenario by passes that
# outlast a checkpoint: the end of a verify pass waits for a sync of its
# error map in flight, and a run-state change or the shutdown checkpoint
# waits for its own (the stop is given a minute here).
. "$(dirname "$0")/lib.sh"

SD=/dev/sda
[ -b $SD ] || die "$SD missing"
NV=/dev/nvme0n1
[ -b $NV ] || die "$NV missing"
SECT=$((64 * 2048))	# 64 MiB
DELAY=${DELAY:-1000}	# ms every write and flush of the state disk waits
LIMIT=$((2 * DELAY))	# ms a status call or a loop turn may take at most

grep -qw ext4 /proc/filesystems || modprobe ext4 || die "modprobe ext4 failed"
dm_create st "0 $SECT delay $SD 0 0 $SD 0 $DELAY"
note "dm st: $(dmsetup table st)"
mkfs.ext4 -q -F -m 0 /dev/mapper/st || die "mkfs.ext4 (state) failed"
mkdir -p "$T/mnt" "$T/data"
mount /dev/mapper/st "$T/mnt" || die "mount (state) failed"
mkfs.ext4 -q -F $NV || die "mkfs.ext4 (data) failed"
mount $NV "$T/data" || die "mount (data) failed"

ST=$T/mnt/state
S=$ST/a/state
SOCK=$T/ctl.sock
PROM=$T/ssdtorture.prom	# on tmpfs: its own fsyncs are not this test's
cat >"$T/c.conf" <<EOC
[daemon]
state_dir = $ST
socket = $SOCK
prometheus_textfile = $PROM

[drive:a]
device = $T/data/a.img
size = 384M
block_size = 128k
queue_depth = 4
idle = 1s
cycles = 0
EOC

ctl() { "$SSDCTL" -s "$SOCK" "$@" 2>&1; }
# jst PYEXPR: an expression over drive a's `ssdctl --json status`
jst() {
	ctl --json status a | python3 -c '
import json, sys
d = json.load(sys.stdin)["drives"][0]
v = eval(sys.argv[1])
print(str(v).lower() if isinstance(v, bool) else v)' "$1" 2>/dev/null
}

start_ssdt "$T/run.log" -c "$T/c.conf"
P=$SSDT_PID
wait_state "$S" $P 180 's["cycles_done"] >= 1' ||
    { show_file "$T/run.log"; die "the drive never completed a cycle"; }
pass_check "a cycle done on the slow disk"

log "status calls while the checkpoints wait for the disk (DELAY $DELAY ms)"
worst=0
phases=""
for _ in $(seq 1 80); do
	t0=$(date +%s%N)
	out=$(ctl --json status a) || fail "ssdctl status failed"
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$ms" -gt "$worst" ] && worst=$ms
	ph=$(printf '%s' "$out" | python3 -c 'import json, sys; print(json.load(sys.stdin)["drives"][0]["phase"])')
	case " $phases " in *" $ph "*) ;; *) phases="$phases $ph" ;; esac
	sleep 0.2
done
note "80 calls, phases seen:$phases; the slowest took $worst ms"
assert_gt "phase changes while measuring" "$(echo $phases | wc -w)" 1
assert_lt "the slowest status call, ms" "$worst" "$LIMIT"
assert_eq "records current" true "$(jst "d['records']['current']")"
assert_eq "never paused for its records" running "$(jst "d['state']")"

log "the daemon's own measure of its main loop"
for _ in $(seq 1 200); do	# the textfile is rewritten every 15 s
	grep -qs '^ssdtorture_main_loop_longest_turn_seconds' "$PROM" && break
	sleep 0.1
done
longest=$(awk '$1 == "ssdtorture_main_loop_longest_turn_seconds" { printf "%d", $2 * 1000 }' "$PROM")
slow=$(awk '$1 == "ssdtorture_main_loop_slow_turns_total" { print $2 }' "$PROM")
note "longest turn ${longest:-?} ms, ${slow:-?} turns over 100 ms"
assert_lt "the longest turn of the main loop, ms" "${longest:-999999}" "$LIMIT"
grep -E 'done: ' "$T/run.log" | tail -n 4 | sed 's/^/   log: /'

kill -TERM $P
wait_pid $P 60
assert_rc "exit status after SIGTERM (its checkpoint on the slow disk)" 0 \
    "$RC" "$T/run.log"
grep 'main loop:' "$T/run.log" | sed 's/^/   log: /'
finish
