#!/bin/bash
# The records survive a full, then a read-only state directory: the drive
# pauses once its records lag by max_unrecorded (ssdctl status says why),
# resumes by itself once they are written again, and events.jsonl then
# holds every phase and cycle event in order, once; the state matches it
# and the archive exists.
. "$(dirname "$0")/lib.sh"
need_root
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 missing"
SSDCTL=${SSDCTL:-$ROOT/ctl/ssdctl}

# the state filesystem: small, no blocks reserved for root
truncate -s 40M "$T/fs.img"
mkfs.ext4 -q -m 0 -F "$T/fs.img" || die "mkfs.ext4 failed"
new_loop "$T/fs.img"
do_mount "$LOOPDEV" "$T/mnt"
ST=$T/mnt/state
S=$ST/a/state
EV=$ST/a/events.jsonl
SOCK=$T/ctl.sock
cat >"$T/c.conf" <<EOF
[daemon]
state_dir = $ST
socket = $SOCK

[drive:a]
checkpoint = off
device = $T/a.img
size = 16M
block_size = 64k
queue_depth = 4
idle = 1s
cycles = 0
max_unrecorded = 2s
EOF

ctl() { "$SSDCTL" -s "$SOCK" "$@" 2>&1; }

# json_get KEY... : a field of drive a in `ssdctl --json status a`
json_get() {
	ctl --json status a | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d.get("drives", [d])[0] if isinstance(d, dict) else d[0]
for k in sys.argv[1:]:
    d = d[k]
print(str(d).lower() if isinstance(d, bool) else d)' "$@" 2>/dev/null
}

# wait_status TIMEOUT_S PYEXPR : until the expression over `d` (drive a's
# status) holds.
wait_status() {
	local i
	for i in $(seq 1 $(($1 * 5))); do
		ctl --json status a | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d.get("drives", [d])[0] if isinstance(d, dict) else d[0]
sys.exit(0 if eval(sys.argv[1]) else 1)' "$2" 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

# paused_for LABEL WHY : the drive pauses, says why, and does no I/O
paused_for() {
	local h1 h2 out
	wait_status 20 "d['state'] == 'paused'" ||
	    { fail "$1: the drive did not pause"; show_file "$T/run.log"; return; }
	pass_check
	out=$(ctl status a)
	assert_contains "$1: ssdctl status reason" "$out" "state directory: $2"
	assert_contains "$1: ssdctl status records" "$out" "s behind,"
	assert_eq "$1: --json records.current" false "$(json_get records current)"
	assert_contains "$1: --json reason" "$(json_get reason)" "state directory: $2"
	h1=$(json_get host_bytes_written)
	sleep 1.5
	h2=$(json_get host_bytes_written)
	assert_eq "$1: no writes while paused" "$h1" "$h2"
	out=$(ctl resume a)
	assert_contains "$1: an operator's resume waits for the records" "$out" \
	    "records are not written"
}

# resumed LABEL : the drive runs again with its records current
resumed() {
	wait_status 20 "d['state'] == 'running' and d['records']['current']" ||
	    { fail "$1: the drive did not resume"; show_file "$T/run.log"; return; }
	pass_check
	assert_contains "$1: ssdctl status" "$(ctl status a)" "records:        current"
}

start_ssdt "$T/run.log" -c "$T/c.conf"
wait_state "$S" "$SSDT_PID" 30 's["cycles_done"] >= 2' ||
    die "the drive never completed two cycles"
assert_file_contains "start-up space check" "$T/run.log" "state directory $ST:"

log "the state filesystem fills up"
avail=$(df -B1 --output=avail "$T/mnt" | tail -n 1)
fallocate -l "$avail" "$T/mnt/filler" 2>/dev/null
dd if=/dev/zero of="$T/mnt/filler2" bs=4k status=none 2>/dev/null
paused_for full "No space left on device"
rm -f "$T/mnt/filler" "$T/mnt/filler2"
resumed full
c=$(state_get "$S" cycles_done)
wait_state "$S" "$SSDT_PID" 30 "s[\"cycles_done\"] >= $c + 2" ||
    fail "full: no cycles after the resume"

log "the state filesystem goes read-only"
# the daemon holds nothing open for writing between checkpoints
for i in $(seq 1 50); do
	mount -o remount,ro "$T/mnt" 2>/dev/null && break
	sleep 0.1
done
grep -q " $T/mnt ext4 ro" /proc/mounts || die "cannot remount read-only"
RO_T0=$(date +%s)
paused_for ro "Read-only file system"
sleep 4		# longer than the archive's heartbeat: a lost update is a hole
mount -o remount,rw "$T/mnt" || die "cannot remount read-write"
RO_T1=$(date +%s)
resumed ro
c=$(state_get "$S" cycles_done)
wait_state "$S" "$SSDT_PID" 30 "s[\"cycles_done\"] >= $c + 1" ||
    fail "ro: no cycles after the resume"

kill -TERM "$SSDT_PID"
wait_exit "$SSDT_PID" 10
assert_rc "daemon exit" 0 "$RC" "$T/run.log"

log "the records"
if ev_valid "$EV"; then pass_check; else fail "malformed event lines"; fi
assert_eq "events_bytes == log size" "$(events_size "$EV")" \
    "$(state_get "$S" events_bytes)"
# every phase and cycle event in order, none missing, none twice
"$ROOT/tests/lib/event_seq.py" "$EV" "$(state_get "$S" cycles_done)" >"$T/seq" 2>&1
if [ $? -eq 0 ]; then pass_check; note "$(cat "$T/seq")"; else
	fail "phase and cycle events: $(cat "$T/seq")"; fi
for why in "No space left on device" "Read-only file system"; do
	assert_eq "paused event: $why" 1 "$(ev_count "$EV" 0 event=paused \
	    "reason=state directory: $why")"
done
assert_eq "running events after the pauses" 2 "$(ev_count "$EV" 0 event=running)"
assert_file_contains "the pause is logged" "$T/run.log" \
    "the drive pauses until they are"
assert_file_contains "the resume is logged" "$T/run.log" \
    "records are written again; the drive resumes"
assert_file_contains "the kept events are written" "$T/run.log" \
    "takes events again"
if [ -f "$ST/a/a.rrd" ]; then pass_check; else fail "no archive"; fi
# the archive's updates while it was read-only were kept and written after
rrdtool fetch "$ST/a/a.rrd" AVERAGE -r 1 -s "$RO_T0" -e "$RO_T1" >"$T/ro.fetch" ||
    fail "rrdtool fetch"
col=$(awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "host_written") print i + 1 }' "$T/ro.fetch")
note "archive seconds while read-only: $(awk 'NR > 2' "$T/ro.fetch" | wc -l)"
assert_eq "no second of the archive lost while read-only" 0 \
    "$(awk -v c="$col" 'NR > 2 && $c ~ /nan/ { n++ } END { print n + 0 }' "$T/ro.fetch")"
assert_file_contains "the kept archive updates are logged" "$T/run.log" \
    "updates are kept and written when the disk takes them"
finish
