#!/bin/bash
# run: heavy timed
# The SM2258XT-like drive (sim/profiles/sm2258xt.conf), 90 % full: its
# cache is a third of the FREE space, in two levels. static_fraction =
# 0.9, two cycles of 128 KiB sequential writes over the last tenth, TRIM
# and 3 s of rest between them (the rest folds the cache back), at QD1
# (drive a) and at QD32 (drive b) side by side:
#  - the static fill (a clean pass over 90 % of the empty drive): the
#    estimate names the whole cache (a third of the drive), both levels;
#  - pass 1, right after the fill: the model's cache had nothing free as
#    it began (the fill left it full): no cache claimed;
#  - pass 2 (clean, the drive 90 % full): the model's cache a third of
#    the tenth then free; the estimate names it whole, both levels.
# Each estimate within 5 % of the model's cache and levels, its speeds
# in and after the cache and in each level within 10 % of what the model
# did (tests/known/cache.py says how those are measured).
# The drive is scaled to 640 MiB so that at QD32 the 90 %-full pass's
# first level (10.7 MiB) is well more than the 4 MiB in flight, and its
# direct writes sped up (26 and 8 MB/s to 50 and 25, still below 0.7
# times the second level's 100: the cache's end stays a drop) so that the
# static fill takes 11 s instead of 24. round_ms = 1 makes the model's
# rounds end with each write or two, so that they say when each level
# filled.
. "$(dirname "$0")/lib.sh"
need_root

cp "$PROFILES/sm2258xt.conf" "$T/p.conf"
sed -i -e 's/^capacity = .*/capacity = 640M/' \
    -e 's/^native_mbps = .*/native_mbps = 50/' \
    -e 's/^native_slow_mbps = .*/native_slow_mbps = 25/' \
    -e 's/^\[ftl\]$/[ftl]\nround_ms = 1/' "$T/p.conf"
ST=$T/state
{
	seq_drive a "$T/p.conf" 1 0.9 yes 3s 2
	seq_drive b "$T/p.conf" 32 0.9 yes 3s 2
} | write_conf "$T/a.conf" "$ST"
SSDT_TIMEOUT=200 run_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
assert_rc "the 90 %-full runs" 0 "$RC" "$T/a.log"
for d in a:1 b:32; do
	python3 - "$T/${d%:*}.truth" "$ST/${d%:*}/events.jsonl" "QD${d#*:}" \
	    >"$T/${d%:*}.check" <<'PY'
import os, sys
sys.path.insert(0, os.environ["KA_DIR"])
import cache, known
tr = known.Truth(sys.argv[1])
ev = known.events(sys.argv[2], tr)
qd = sys.argv[3]
c = known.Checks()
ps = cache.passes(tr, ev)
c.true("the static fill and two write passes", len(ps) == 3, len(ps))
if len(ps) == 3:
    cap = tr.ev("start")[0]["capacity"]
    mc, free = cache.model_cache(tr, ps[2])
    c.within("the model's free space as pass 2 began (a tenth)",
             mc["drive_free"] if mc else 0, cap / 10, 0.01)
    c.within("the model's cache then (a third of it)", mc["bytes"] if mc
             else 0, mc["drive_free"] / 3 if mc else 1, 0.01)
    cache.check(c, tr, ps[0], qd + " static fill (clean, empty)", ps[0].end)
    cache.check(c, tr, ps[1], qd + " pass 1 (cache left full)", ps[1].end)
    cache.check(c, tr, ps[2], qd + " pass 2 (clean, 90 % full)", ps[2].end)
c.done()
PY
	show_file "$T/${d%:*}.check"
	assert_eq "the 90 %-full SM2258XT-like drive at QD${d#*:}" ok \
	    "$(tail -n 1 "$T/${d%:*}.check")"
done
finish
