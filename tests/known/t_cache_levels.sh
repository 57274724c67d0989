#!/bin/bash
# run: timed
# The SM2258XT-like drive (sim/profiles/sm2258xt.conf): a cache of a
# third of the free space in two levels (200 MB/s for its first half, 100
# for the rest), then direct writes to TLC at 26 MB/s, 8 once the drive is
# three quarters full. Two passes of 128 KiB sequential writes, no TRIM
# between them, at QD1 (drive a) and at QD32 (drive b) side by side:
#  - pass 1 (clean): the estimate names the whole cache, both levels,
#    within 5 % of the model's, and its speed in and after the cache
#    within 10 % of what the model did (tests/known/cache.py says how
#    those are measured); slc_levels has the two levels, each's bytes
#    within 5 % and speed within 10 % of the model's;
#  - pass 2 (dirty: the drive holds the first pass's data, so no free
#    space and no cache): no cache claimed, the pass's speed within 10 %.
# The drive is scaled to 128 MiB (from 480): the dirty pass at 8 MB/s
# takes 17 s instead of 63; the cache stays a third of the free space.
# round_ms = 1 makes the model's rounds end with each write or two, so
# that they say when each level filled.
. "$(dirname "$0")/lib.sh"
need_root

cp "$PROFILES/sm2258xt.conf" "$T/p.conf"
sed -i -e 's/^capacity = .*/capacity = 128M/' \
    -e 's/^\[ftl\]$/[ftl]\nround_ms = 1/' "$T/p.conf"
ST=$T/state
{
	for d in a:1 b:32; do
		sim_start "${d%:*}" "$T/p.conf"
		cat <<EOC
[drive:${d%:*}]
device = $SIM_FILE
serial = none
block_size = 128k
queue_depth = ${d#*:}
order = sequential
static_fraction = 0
trim = no
idle = 0
cycles = 2
checkpoint = off
smart = off
EOC
	done
} | write_conf "$T/a.conf" "$ST"
SSDT_TIMEOUT=200 run_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
assert_rc "two passes on two SM2258XT-like drives" 0 "$RC" "$T/a.log"
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
c.true("two write passes", len(ps) == 2, len(ps))
if len(ps) == 2:
    cache.check(c, tr, ps[0], qd + " pass 1 (clean)", ps[0].end)
    cache.check(c, tr, ps[1], qd + " pass 2 (dirty)", ps[1].end)
c.done()
PY
	show_file "$T/${d%:*}.check"
	assert_eq "the SM2258XT-like drive's cache at QD${d#*:}" ok \
	    "$(tail -n 1 "$T/${d%:*}.check")"
done
finish
