#!/bin/bash
# run: heavy timed
# Drives whose passes show no write cache, at QD1 and at QD32 (128 KiB
# sequential writes):
#  - the Maxio-like drive without an SLC cache (sim/profiles/
#    maxio-noslc.conf: straight to TLC at 160 MB/s), two passes without
#    TRIM (clean, then dirty): no cache claimed on either;
#  - the Crucial M550-like drive (sim/profiles/crucial-m550.conf), its
#    first fill: constant speed (MLC, no SLC cache), no knee.
# On each, the pass's speed within 10 % of what the model did (its
# rounds: tests/known/cache.py). The drives keep their capacity; round_ms
# = 1 in the profiles' copies makes the model's rounds end with each
# write or two. The two pairs run one after the other, so that no more
# than two simulated drives move data at once.
. "$(dirname "$0")/lib.sh"
need_root

# run_pair PROFILE CYCLES NAME...: one daemon, a drive at QD1 and one at
# QD32 of PROFILE, CYCLES passes each without TRIM
run_pair() {
	local prof=$1 cycles=$2 a=$3 b=$4 d
	cp "$PROFILES/$prof.conf" "$T/$prof.conf"
	sed -i 's/^\[ftl\]$/[ftl]\nround_ms = 1/' "$T/$prof.conf"
	{
		seq_drive "$a" "$T/$prof.conf" 1 0 no 0 "$cycles"
		seq_drive "$b" "$T/$prof.conf" 32 0 no 0 "$cycles"
	} | write_conf "$T/$prof.run.conf" "$T/state.$prof"
	SSDT_TIMEOUT=120 run_ssdt "$T/$prof.log" -c "$T/$prof.run.conf" \
	    --oneshot
	assert_rc "$cycles pass(es) on two $prof drives" 0 "$RC" "$T/$prof.log"
}

# check NAME WHAT PASSES: each pass of drive NAME against the model
check() {
	python3 - "$T/$1.truth" "$T/state.$4/$1/events.jsonl" "$2" "$3" \
	    >"$T/$1.check" <<'PY'
import os, sys
sys.path.insert(0, os.environ["KA_DIR"])
import cache, known
tr = known.Truth(sys.argv[1])
ev = known.events(sys.argv[2], tr)
what, n = sys.argv[3], int(sys.argv[4])
c = known.Checks()
ps = cache.passes(tr, ev)
c.true("%d write pass(es)" % n, len(ps) == n, len(ps))
c.true("the model had no cache", not tr.ev("cache"))
for i, p in enumerate(ps):
    cache.check(c, tr, p, "%s pass %d" % (what, i + 1), p.end)
c.done()
PY
	show_file "$T/$1.check"
	assert_eq "$2" ok "$(tail -n 1 "$T/$1.check")"
}

run_pair maxio-noslc 2 ma mb
check ma "the Maxio-like drive at QD1" 2 maxio-noslc
check mb "the Maxio-like drive at QD32" 2 maxio-noslc
run_pair crucial-m550 1 ca cb
check ca "the M550-like drive's first fill at QD1" 1 crucial-m550
check cb "the M550-like drive's first fill at QD32" 1 crucial-m550
finish
