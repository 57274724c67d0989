#!/bin/bash
# run: timed
# Aged-data reads on the Maxio-like drive (sim/profiles/maxio-noslc.conf:
# reads of data older than age_ms take age_read_factor times as long,
# the whole read: the model's start record says "read_slowdown":
# "whole_read"). A quick checkpoint ends with a read of fresh data (the
# dynamic area's start, which the checkpoint's fill and rewrite of its
# region wrote last) and one of aged data (the static area's start, which
# the static fill wrote first), each over the region (checkpoint_region),
# 128 KiB at QD32. Checked:
#  - that the model saw them so: no garbage collection ("gc" record)
#    before the aged read ended, so the static data stayed in the blocks
#    the static fill wrote; the static fill ended more than age_ms before
#    the aged read began; the fresh read ended less than age_ms after the
#    checkpoint began (its fill and rewrite of the region come after);
#  - the aged line's vs_fresh throughput within 10 % of the model's
#    factor: 1 / age_read_factor of its start record (the wear's share,
#    under 1 % on a drive written twice of 1000 rated cycles, aside).
# The profile is shrunk (a copy in $T): 512 MiB, as shipped, with age_ms
# 7 s instead of 30 s, so that the static data are aged at the checkpoint
# (about 10 s after the static fill) and the fresh data not (about 5 s).
. "$(dirname "$0")/lib.sh"
need_root

P=$T/maxio.conf
sed -e 's/^age_ms = .*/age_ms = 7000/' "$PROFILES/maxio-noslc.conf" >"$P"
sim_start a "$P"
ST=$T/state
write_conf "$T/a.conf" "$ST" <<EOF2
[drive:a]
device = $SIM_FILE
serial = none
block_size = 128k
queue_depth = 32
static_fraction = 0.25
idle = 0
cycles = 1
smart = off
checkpoint = quick
checkpoint_region = 128M
checkpoint_probes = seq-read-128k-qd32
probe_seconds = 1s
probe_ramp = 0s
EOF2
SSDT_TIMEOUT=200 run_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
assert_rc "a checkpoint on the Maxio-like drive" 0 "$RC" "$T/a.log"
python3 - "$SIM_TRUTH" "$ST/a/events.jsonl" "$ST/a/checkpoints.jsonl" \
    >"$T/a.check" <<'PY'
import json, sys
sys.path.insert(0, __import__("os").environ["KA_DIR"])
import known
tr = known.Truth(sys.argv[1])
ev = known.events(sys.argv[2], tr)
L = {o["probe"]: o for o in map(json.loads, open(sys.argv[3]))}
c = known.Checks()
start = tr.ev("start")[0]
age_ns = start["age_ms"] * 1e6
c.true("the model slows the whole read",
       start.get("read_slowdown") == "whole_read", start.get("read_slowdown"))
fresh, aged = L.get("fresh-read", {}), L.get("aged-read", {})
c.true("fresh-read and aged-read lines", bool(fresh) and bool(aged))
static_end = [e["_mono"] for e in ev if e.get("event") == "phase_end" and
              e.get("phase") == "static"]
ckpt = [e["_mono"] for e in ev if e.get("event") == "checkpoint_start"]
c.true("a static fill and a checkpoint", static_end and ckpt)
if fresh and aged and static_end and ckpt:
    # the lines' "time" is their end in whole seconds (wall clock): the
    # bounds below take the side that makes each claim hardest
    aged_begin = tr.mono(int((aged["time"] - aged["seconds"]) * 1e9))
    aged_end = tr.mono(int((aged["time"] + 1) * 1e9))
    fresh_end = tr.mono(int((fresh["time"] + 1) * 1e9))
    c.true("no relocation before the aged read ended",
           not tr.ev("gc", None, aged_end))
    c.true("aged data %.1f s old, over age_ms (%.1f s)" % (
           (aged_begin - static_end[0]) / 1e9, age_ns / 1e9),
           aged_begin - static_end[0] > age_ns)
    c.true("fresh data at most %.1f s old, under age_ms" % (
           (fresh_end - ckpt[0]) / 1e9), fresh_end - ckpt[0] < age_ns)
    vs = aged.get("vs_fresh") or {}
    c.within("aged throughput over fresh", vs.get("throughput", 0),
             1 / start["age_read_factor"], 0.10)
    print("  (p99.9 over fresh %s, the factor %s)" % (
          vs.get("p99.9"), start["age_read_factor"]))
c.done()
PY
show_file "$T/a.check"
assert_eq "the Maxio-like drive's aged-read known answers" ok "$(tail -n 1 "$T/a.check")"
finish
