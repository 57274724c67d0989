#!/bin/bash
# A full run on a file target: 2 cycles, random order, trim on. Exact byte
# accounting, clean state, the phases in the event log (each event's
# monotonic_us in order, inside the run), the on-disk block headers, and
# the trimmed (hole-punched) dynamic area.
. "$(dirname "$0")/lib.sh"

SIZE=$((64 * 1024 * 1024)) BS=4096 FRAC=0.25
IMG=$T/a.img
ST=$T/state
layout $SIZE $BS $FRAC

write_conf "$T/c.conf" "$ST" <<EOF
[drive:a]
checkpoint = off
device = $IMG
size = 64M
block_size = 4k
order = random
queue_depth = 32
static_fraction = $FRAC
trim = yes
idle = 0
cycles = 2
EOF

log "64 MiB file, $NBLK blocks, static $SBLK, dynamic $DBLK"
mono_us() { python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000)'; }
M0=$(mono_us)
run_ssdt "$T/run.log" -c "$T/c.conf" --oneshot
assert_rc "--oneshot" 0 "$RC" "$T/run.log"
M1=$(mono_us)

S=$ST/a/state
EV=$ST/a/events.jsonl
[ -f "$S" ] || die "no state file $S"
[ -f "$EV" ] || die "no event log $EV"

assert_eq "run" finished "$(state_get "$S" run)"
# every event on the monotonic clock too, in order, inside the run
assert_eq "events' monotonic_us: present, in order, during the run" ok \
    "$(python3 - "$EV" "$M0" "$M1" <<'PY'
import json, sys
m = [json.loads(l).get("monotonic_us") for l in open(sys.argv[1])]
a, b = int(sys.argv[2]), int(sys.argv[3])
ok = m and all(isinstance(x, int) and a <= x <= b for x in m) and \
    m == sorted(m)
print("ok" if ok else "bad: %s not in [%d, %d]" % (m, a, b))
PY
)"
assert_eq "reason" "cycles reached" "$(state_get "$S" reason)"
assert_eq "cycles_done" 2 "$(state_get "$S" cycles_done)"
assert_eq "verify_passes" 2 "$(state_get "$S" verify_passes)"
assert_eq "blocks" "$NBLK" "$(state_get "$S" blocks)"
assert_eq "static_blocks" "$SBLK" "$(state_get "$S" static_blocks)"
assert_eq "block_size" $BS "$(state_get "$S" block_size)"
assert_eq "host_bytes_written == static + 2 * dynamic" \
    $((SBYTES + 2 * DBYTES)) "$(state_get "$S" host_bytes_written)"
assert_eq "host_bytes_read == 2 full verify passes" \
    $((2 * NBLK * BS)) "$(state_get "$S" host_bytes_read)"
assert_eq "host_bytes_trimmed == 2 * dynamic" \
    $((2 * DBYTES)) "$(state_get "$S" host_bytes_trimmed)"
assert_no_errors "" "$S"
assert_eq "events_bytes matches the log" "$(events_size "$EV")" \
    "$(state_get "$S" events_bytes)"

# the event log
if ev_valid "$EV"; then pass_check; else fail "malformed event lines"; fi
assert_eq "created events" 1 "$(ev_count "$EV" 0 event=created)"
assert_eq "phase_end static" 1 "$(ev_count "$EV" 0 event=phase_end what=static)"
assert_eq "phase_end write" 2 "$(ev_count "$EV" 0 event=phase_end what=write)"
assert_eq "phase_end verify" 2 "$(ev_count "$EV" 0 event=phase_end what=verify)"
assert_eq "phase_end trim" 2 "$(ev_count "$EV" 0 event=phase_end what=trim)"
assert_eq "cycle_end events" 2 "$(ev_count "$EV" 0 event=cycle_end)"
assert_eq "finished events" 1 "$(ev_count "$EV" 0 event=finished)"
assert_eq "verify_error events" 0 "$(ev_count "$EV" 0 event=verify_error)"
assert_eq "trim_unsupported events" 0 "$(ev_count "$EV" 0 event=trim_unsupported)"
assert_eq "phase_end static bytes" "$SBYTES" \
    "$(ev_query "$EV" 0 bytes event=phase_end what=static)"
assert_eq "phase_end write bytes" "$DBYTES $DBYTES" \
    "$(ev_query "$EV" 0 bytes event=phase_end what=write | xargs)"
assert_eq "phase_end verify bytes" "$((NBLK * BS)) $((NBLK * BS))" \
    "$(ev_query "$EV" 0 bytes event=phase_end what=verify | xargs)"
assert_eq "phase_end verify errors" "0 0" \
    "$(ev_query "$EV" 0 errors event=phase_end what=verify | xargs)"
# every phase_end carries its figures
miss=$(ev_query "$EV" 0 seconds,bytes_per_sec,iops,cpu_seconds event=phase_end |
    awk '{ for (i = 1; i <= NF; i++) if ($i == "-") { n++; break } } END { print n + 0 }')
assert_eq "phase_end events lacking figures" 0 "$miss"

# on disk: the static area holds generation-0 blocks of this instance
INST=$(hex16 "$(state_get "$S" instance)")
assert_eq "created event instance" "$INST" \
    "$(ev_query "$EV" 0 instance event=created)"
assert_eq "header of block 0" "SSDTRT1 1 $BS $INST 0 0" "$(blk_header "$IMG" $BS 0)"
last=$((SBLK - 1))
assert_eq "header of block $last" "SSDTRT1 1 $BS $INST $((last * BS)) 0" \
    "$(blk_header "$IMG" $BS $last)"
# the dynamic area was discarded (holes): what stays allocated is about
# the static area
alloc=$(alloc_bytes "$IMG")
assert_ge "allocated bytes" "$alloc" "$SBYTES"
assert_lt "allocated bytes after trim" "$alloc" $((SBYTES + DBYTES / 4))
assert_eq "file size" $SIZE "$(stat -c %s "$IMG")"

# a second --oneshot on the finished drive changes nothing and exits 0
before=$(cat "$S")
run_ssdt "$T/run2.log" -c "$T/c.conf" --oneshot
assert_rc "--oneshot on a finished drive" 0 "$RC" "$T/run2.log"
assert_eq "host_bytes_written after a no-op start" $((SBYTES + 2 * DBYTES)) \
    "$(state_get "$S" host_bytes_written)"
assert_eq "cycles_done after a no-op start" 2 "$(state_get "$S" cycles_done)"
[ -n "$before" ] || fail "empty state"

finish
