#!/bin/bash
# run: heavy
# Performance checkpoints on real targets, probes of a second or two:
#  A. the whole suite as the baseline after the first write and verify,
#     on a loop device of 4 KiB sectors: a line per probe, those that need
#     512-byte I/O passed over with the reason, figures that hang together,
#     the region holding the cycle's data again (a --verify finds nothing);
#  B. a milestone: the next checkpoint once checkpoint_every is passed,
#     compared with the baseline; a corruption planted in the region while
#     a probe reads it, found at its exact offset;
#  C. kill -9 in the middle of a checkpoint: --verify of the half-probed
#     drive finds nothing, the restart finishes it, no probe recorded twice
#     or half.
. "$(dirname "$0")/lib.sh"
need_root
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}

# CKPT_FEW=1 (the sanitizer stage of make check): part A runs a few probes
# of every kind it checks instead of the whole suite.
if [ -n "${CKPT_FEW:-}" ]; then
	PROBES="seq-read-128k-qd32 rand-read-4k-qd1 bs-sweep-seq-read-512 desktop jesd219"
	NPROBES=5
else
	PROBES=all
	NPROBES=$("$CTL" --json probes | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
fi

# lines FILE : the checks of checkpoints.jsonl every part shares; prints
# "N lines M skipped" and fails on a malformed or inconsistent line.
check_lines() {
	python3 - "$@" <<'EOF'
import json, sys
bad, n, skipped = [], 0, 0
seen = set()
for i, line in enumerate(open(sys.argv[1])):
    o = json.loads(line)            # a half line is an error here
    n += 1
    key = (o["checkpoint"], o["probe"])
    if key in seen:
        bad.append("line %d: probe %s of checkpoint %d twice" % (i + 1, *key[::-1]))
    seen.add(key)
    for k in ("host_bytes_written", "cycle", "rw", "queue_depth", "workers",
              "read_percent", "random_percent", "region_bytes", "unit"):
        if k not in o:
            bad.append("line %d: no %s" % (i + 1, k))
    if "skipped" in o:
        skipped += 1
        continue
    if o.get("family") == "aged":     # the reads of fresh and aged data
        if not o["read_bytes_per_sec"] > 0 or o["errors"] != 0 or \
                o["read_lat_us"]["p99.9"] <= 0:
            bad.append("line %d: %s figures" % (i + 1, o["probe"]))
        continue
    if o.get("wait") not in ("sleep", "poll"):  # a probe's (probe_wait)
        bad.append("line %d: wait %r" % (i + 1, o.get("wait")))
    if not 0.9 <= o["seconds"] <= 3.5:
        bad.append("line %d: window %.3f s" % (i + 1, o["seconds"]))
    for d, share in (("read", o["read_percent"]), ("write", 100 - o["read_percent"])):
        lat = o.get(d + "_lat_us")
        if share == 0:
            if lat is not None or o[d + "_iops"] != 0:
                bad.append("line %d: %s figures without %ss" % (i + 1, d, d))
            continue
        if lat is None or o[d + "_iops"] <= 0:
            bad.append("line %d: no %s figures" % (i + 1, d))
            continue
        order = [lat[k] for k in ("p50", "p90", "p99", "p99.9", "p99.99", "max")]
        if order != sorted(order) or order[0] <= 0:
            bad.append("line %d: %s percentiles out of order %s" % (i + 1, d, order))
        if "block_size" in o:
            bps = o[d + "_iops"] * o["block_size"]
            if abs(bps - o[d + "_bytes_per_sec"]) > 1e-3 * bps + 1:
                bad.append("line %d: %s bytes/s %s != iops x size %s" % (
                    i + 1, d, o[d + "_bytes_per_sec"], bps))
    if o["errors"] != 0 and "errors_ok" not in sys.argv:
        bad.append("line %d: %d errors" % (i + 1, o["errors"]))
for b in bad[:10]:
    print("BAD", b)
print(n, "lines", skipped, "skipped")
sys.exit(1 if bad else 0)
EOF
}

# ---------------------------------------------------------------- A
log "A: the whole suite, the baseline, on 4 KiB sectors"
truncate -s 256M "$T/a.img"
# Buffered, not --direct-io: the probes run flat out for their seconds, and
# through the page cache they leave the host's disk to the test beside
# (tests/lib/jobs.sh: t_power_cut beside this test and t_fullckpt took 126 s
# with their loop devices direct, 102 s buffered).
new_loop --sector-size 4096 "$T/a.img"
ST=$T/state
write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
device = $LOOPDEV
serial = none
block_size = 64k
idle = 0
cycles = 1
probe_seconds = 1s
probe_ramp = 0s
checkpoint_probes = $PROBES
EOF
SSDT_TIMEOUT=400 run_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
assert_rc "--oneshot with a checkpoint" 0 "$RC" "$T/a.log"
S=$ST/a/state EV=$ST/a/events.jsonl CK=$ST/a/checkpoints.jsonl
out=$(check_lines "$CK")
assert_rc "checkpoints.jsonl: every line whole and consistent" 0 $? "$out"
nprobes=$(grep '"checkpoint":1,' "$CK" | grep -vc '"family":"aged"')
assert_eq "a line for every probe of the suite (ssdctl probes)" "$NPROBES" "$nprobes"
assert_eq "then the reads of fresh and of aged data" "fresh-read aged-read" \
    "$(tail -2 "$CK" | python3 -c 'import json,sys; print(" ".join(json.loads(l)["probe"] for l in sys.stdin))')"
assert_match "aged data compared with fresh" '"vs_fresh":\{"throughput":[0-9.]+,"p99.9":[0-9.]+\}' \
    "$(tail -1 "$CK")"
assert_eq "no probe twice (one per id)" "$((nprobes + 2))" \
    "$(python3 -c 'import json,sys; print(len({json.loads(l)["probe"] for l in open(sys.argv[1])}))' "$CK")"
assert_match "the 512-byte probes passed over, with the reason" \
    '"probe":"bs-sweep-seq-read-512".*"skipped":"[^"]*512[^"]*4096' "$(cat "$CK")"
assert_match "JESD219's split has 512 B: passed over on 4 KiB sectors" \
    '"probe":"jesd219".*"skipped"' "$(cat "$CK")"
assert_match "4 KiB random read measured" \
    '"probe":"rand-read-4k-qd1".*"read_iops":[1-9]' "$(cat "$CK")"
assert_eq "the probes sleep for their completions by default" 0 \
    "$(grep -v '"skipped"\|"family":"aged"' "$CK" | grep -vc '"wait":"sleep"')"
assert_eq "checkpoint.done" 1 "$(state_get "$S" checkpoint.done)"
assert_eq "the region holds the cycle's data again" 0 \
    "$(state_get "$S" probe.length)"
assert_eq "the unit is the device's logical block" 4096 \
    "$(state_get "$S" probe.unit)"
assert_gt "probe bytes counted" "$(state_get "$S" probe_bytes_written)" 0
assert_ge "and in the TBW" "$(state_get "$S" host_bytes_written)" \
    $(( $(state_get "$S" probe_bytes_written) + 256 * 1024 * 1024 ))
assert_eq "checkpoint_start event" 1 "$(ev_count "$EV" 0 event=checkpoint_start)"
assert_eq "checkpoint_end event" 1 "$(ev_count "$EV" 0 event=checkpoint_end)"
assert_eq "one phase_end for the checkpoint" 1 \
    "$(ev_count "$EV" 0 event=phase_end what=checkpoint)"
assert_eq "results length recorded" "$(stat -c %s "$CK")" \
    "$(state_get "$S" checkpoint.results_bytes)"
assert_eq "no verify error" 0 "$(ev_count "$EV" 0 event=verify_error)"
run_ssdt "$T/a.verify" -c "$T/a.conf" --verify
assert_rc "--verify after the checkpoint" 0 "$RC" "$T/a.verify"
assert_eq "--verify: nothing found" 0 "$(ev_count "$EV" 0 event=verify_error)"

# ---------------------------------------------------------------- B
log "B: a milestone, and a corruption planted during a probe"
ST=$T/state_b
# a buffered loop device rather than a file, as in A; the planted unit goes
# through the same page cache as the probes' reads
truncate -s 128M "$T/b.img"
new_loop "$T/b.img"
write_conf "$T/b.conf" "$ST" <<EOF
[drive:b]
device = $LOOPDEV
serial = none
block_size = 64k
trim = no
idle = 0
cycles = 2
checkpoint_every = 150MB
checkpoint_probes = rand-read-4k-qd1, rand-read-4k-qd32
probe_seconds = 3s
probe_ramp = 0s
probe_wait = poll
EOF
S=$ST/b/state EV=$ST/b/events.jsonl CK=$ST/b/checkpoints.jsonl
start_ssdt "$T/b.log" -c "$T/b.conf" --oneshot
wait_state "$S" "$SSDT_PID" 120 \
    's["phase"] == "checkpoint" and s["checkpoint.done"] == 1 and s["checkpoint.step"] != 0' ||
    die "no second checkpoint in a probe step"
unit=$(state_get "$S.snap" probe.unit)
off=$(( $(state_get "$S.snap" probe.offset) + 7 * 1024 * 1024 + 3 * unit ))
head -c "$unit" /dev/urandom >"$T/garbage"
dd if="$T/garbage" of="$T/b.img" bs="$unit" seek=$((off / unit)) count=1 \
    conv=notrunc,fsync status=none
wait_exit "$SSDT_PID" 120
assert_rc "the run ends: verify errors were found (exit 3)" 3 "$RC" "$T/b.log"
out=$(check_lines "$CK" errors_ok)
assert_rc "checkpoints.jsonl consistent" 0 $? "$out"
assert_eq "probe_wait = poll: every probe polled" 0 \
    "$(grep -v '"skipped"\|"family":"aged"' "$CK" | grep -vc '"wait":"poll"')"
assert_eq "two checkpoints done" 2 "$(state_get "$S" checkpoint.done)"
python3 - "$CK" >"$T/b.cmp" <<'EOF'
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
base = {o["probe"]: o for o in L if o["checkpoint"] == 1}
for o in L:
    if o["checkpoint"] != 2 or o.get("family") == "aged":
        continue
    b = base[o["probe"]]
    want = (o["read_bytes_per_sec"] + o["write_bytes_per_sec"]) / \
        (b["read_bytes_per_sec"] + b["write_bytes_per_sec"])
    got = o["vs_baseline"]["throughput"]
    print(o["probe"], o["baseline"], "ok" if abs(got - want) < 1e-4 * want + 1e-9 else "BAD %s %s" % (got, want))
EOF
assert_eq "checkpoint 2 compared with checkpoint 1, ratios right" \
    "rand-read-4k-qd1 1 ok
rand-read-4k-qd32 1 ok" "$(cat "$T/b.cmp")"
found=$(ev_query "$EV" 0 offset,class,phase,block_size event=verify_error | sort -u)
assert_eq "the planted unit found at its offset, and nothing else" \
    "$off corrupt checkpoint $unit" "$found"
assert_eq "one event for the unit, however often the probes read it" 1 \
    "$(ev_count "$EV" 0 event=verify_error)"
assert_eq "counted once" 1 "$(state_get "$S" errors.corrupt)"
n0=$(ev_count "$EV" 0 event=verify_error)
run_ssdt "$T/b.verify" -c "$T/b.conf" --verify
assert_rc "--verify afterwards" 0 "$RC" "$T/b.verify"
assert_eq "the region rewritten: the cycles' data verifies" "$n0" \
    "$(ev_count "$EV" 0 event=verify_error)"

# ---------------------------------------------------------------- C
log "C: kill -9 in a checkpoint, --verify, restart"
ST=$T/state_c
write_conf "$T/c.conf" "$ST" <<EOF
[drive:c]
device = $T/c.img
size = 128M
block_size = 64k
idle = 0
cycles = 1
checkpoint_probes = rand-write-4k-qd32, desktop, rand-read-4k-qd4
probe_seconds = 2s
probe_ramp = 0s
EOF
S=$ST/c/state EV=$ST/c/events.jsonl CK=$ST/c/checkpoints.jsonl
start_ssdt "$T/c.log" -c "$T/c.conf" --oneshot
wait_state "$S" "$SSDT_PID" 120 \
    's["phase"] == "checkpoint" and s["checkpoint.step"] != 0' ||
    die "no probe step"
sleep 2.5
kill -9 "$SSDT_PID"
wait_exit "$SSDT_PID" 10
assert_eq "killed in the checkpoint" checkpoint "$(state_get "$S" phase)"
assert_gt "with the region's units expected" "$(state_get "$S" probe.length)" 0
run_ssdt "$T/c.verify" -c "$T/c.conf" --verify
assert_rc "--verify of a drive killed in a checkpoint" 0 "$RC" "$T/c.verify"
assert_eq "--verify: no false error" 0 "$(ev_count "$EV" 0 event=verify_error)"
run_ssdt "$T/c.run2" -c "$T/c.conf" --oneshot
assert_rc "the restart finishes" 0 "$RC" "$T/c.run2"
out=$(check_lines "$CK")
assert_rc "each probe recorded once, whole" 0 $? "$out"
assert_eq "three probes and two reads in checkpoint 1" 5 \
    "$(grep -c '"checkpoint":1,' "$CK")"
assert_eq "no verify error" 0 "$(ev_count "$EV" 0 event=verify_error)"
assert_eq "finished" finished "$(state_get "$S" run)"

# ---------------------------------------------------------------- D
log "D: ssdctl checkpoint asks for one; status shows it; the table"
ST=$T/state_d
write_conf "$T/d.conf" "$ST" <<EOF
[drive:d]
device = $T/d.img
size = 64M
block_size = 64k
trim = no
idle = 2s
cycles = 6
checkpoint_every = 1PB
checkpoint_probes = rand-read-4k-qd1
probe_seconds = 2s
probe_ramp = 0s

[drive:off]
checkpoint = off
device = $T/off.img
size = 16M
block_size = 64k
idle = 1h
EOF
S=$ST/d/state EV=$ST/d/events.jsonl
start_ssdt "$T/d.log" -c "$T/d.conf"
ASSERT_LOG=$T/d.log
wait_state "$S" "$SSDT_PID" 60 's["phase"] == "checkpoint"' ||
    die "no first checkpoint"
st=$("$CTL" -s "$ST.sock" --json status d)
assert_match "Status: phase checkpoint, its step and count" \
    '"phase": *"checkpoint"' "$st"
assert_match "Status: the checkpoint object (fill, probe, check, restore, two reads)" \
    '"steps": *6' "$st"
wait_state "$S" "$SSDT_PID" 60 's["checkpoint.done"] == 1 and s["phase"] != "checkpoint"' ||
    die "the first checkpoint did not end"
"$CTL" -s "$ST.sock" checkpoint d >"$T/ask.out" 2>&1
assert_rc "ssdctl checkpoint" 0 $? "$T/ask.out"
assert_match "Status: pending" '"pending": *true' \
    "$("$CTL" -s "$ST.sock" --json status d)"
wait_state "$S" "$SSDT_PID" 90 's["checkpoint.done"] == 2' ||
    fail "no checkpoint after the request"
assert_eq "the request is an event" 1 "$(ev_count "$EV" 0 event=checkpoint_asked)"
assert_eq "... and no more than one checkpoint came of it" 2 \
    "$(ev_count "$EV" 0 event=checkpoint_end)"
"$CTL" -s "$ST.sock" checkpoint off >"$T/off.out" 2>&1
assert_rc "ssdctl checkpoint of a drive with checkpoint = off" 1 $? "$T/off.out"
assert_file_contains "... says why" "$T/off.out" "checkpoint = off"
"$CTL" -s "$ST.sock" checkpoints d >"$T/table.out" 2>&1
assert_rc "ssdctl checkpoints" 0 $? "$T/table.out"
assert_file_contains "the table has the probe" "$T/table.out" rand-read-4k-qd1
kill_and_reap TERM "$SSDT_PID"
finish
