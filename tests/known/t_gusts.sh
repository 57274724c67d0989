#!/bin/bash
# run: heavy timed
# The Intel 600p-like drive (sim/profiles/intel-600p.conf): a fixed SLC
# cache that, when full, folds a quarter of itself into TLC with the
# host's writes stalled, then takes writes at its speed again. Two passes
# of 128 KiB sequential writes at QD1, no TRIM between them:
#  - pass 1 (clean): the cache estimate within 5 % of the model's cache,
#    the speed in it and after it within 10 % of what the model did (in:
#    the cache's bytes over the time from the pass's first write to the
#    one that filled it; after: each fold's freed bytes over the time to
#    the next fold, the median); the writing after it seen as gusts, with
#    as many stalls as the model folded in the pass (give or take one)
#    and their median within 10 % of the model's stall;
#  - pass 2 (dirty: the cache starts full): no cache is claimed, since
#    the model's cache had no more free than one gust at the pass's start.
. "$(dirname "$0")/lib.sh"
need_root

sim_start a intel-600p
ST=$T/state
write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
device = $SIM_FILE
serial = none
block_size = 128k
queue_depth = 1
order = sequential
static_fraction = 0
trim = no
idle = 0
cycles = 2
checkpoint = off
smart = off
EOF
SSDT_TIMEOUT=200 run_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
assert_rc "two passes on the 600p-like drive" 0 "$RC" "$T/a.log"
python3 - "$SIM_TRUTH" "$ST/a/events.jsonl" >"$T/a.check" <<'PY'
import statistics, sys
sys.path.insert(0, __import__("os").environ["KA_DIR"])
import known
tr = known.Truth(sys.argv[1])
ev = known.events(sys.argv[2], tr)
c = known.Checks()
ends = [e for e in ev if e.get("event") == "phase_end" and e.get("phase") == "write"]
# the first pass begins with the run ("created"), the others with phase_start
starts = [e for e in ev if e.get("event") == "created" or
          (e.get("event") == "phase_start" and e.get("phase") == "write")]
c.true("two write passes", len(ends) == 2 and len(starts) == 2, len(ends))
p1, p2 = ends[0], ends[1]
t1, t2 = starts[0]["_mono"], starts[1]["_mono"]
# pass 1: the cache the model decided at the first write
cache = tr.ev("cache", t1 - 10**9)[0]
full = tr.ev("cache_full", cache["t_ns"])[0]
c.true("pass 1: a knee", p1.get("slc_knee") is True, p1.get("slc_knee"))
c.within("pass 1: cache bytes", p1.get("slc_cache_bytes", 0), cache["bytes"], 0.05)
c.within("pass 1: speed in the cache", p1.get("in_cache_bytes_per_sec", 0),
         full["host_bytes"] * 1e9 / (full["t_ns"] - cache["t_ns"]), 0.10)
folds = tr.ev("fold", full["t_ns"], t2)
gusts = [f["freed_bytes"] * 1e9 / (g["t_ns"] - f["t_ns"])
         for f, g in zip(folds, folds[1:])]
c.within("pass 1: speed after the cache", p1.get("post_cache_bytes_per_sec", 0),
         statistics.median(gusts), 0.10)
c.true("pass 1: gusts after the cache", p1.get("post_cache_gusts") is True)
c.true("pass 1: a stall for each fold (%d)" % len(folds),
       abs(p1.get("post_cache_stalls", 0) - len(folds)) <= 1,
       p1.get("post_cache_stalls"))
c.within("pass 1: the median stall", p1.get("post_cache_stall_seconds", 0),
         statistics.median(f["stall_ns"] for f in folds) / 1e9, 0.10)
# pass 2: what the cache held as it began
last = tr.before(("cache", "fold", "idle_fold"), t2)
free = cache["bytes"] - last["cache_used" if "cache_used" in last else "used"]
gust = cache["bytes"] * cache["fold_share"]
c.true("pass 2: the model's cache had at most one gust free (%d bytes)" % free,
       free <= gust)
c.true("pass 2: no cache claimed", p2.get("slc_knee") is False, p2.get("slc_knee"))
c.done()
PY
show_file "$T/a.check"
assert_eq "the 600p-like drive's known answers" ok "$(tail -n 1 "$T/a.check")"
finish
