#!/bin/bash
# run: heavy timed
# The Intel 600p-like drive (sim/profiles/intel-600p.conf) at QD32 (t_gusts
# covers QD1): a fixed SLC cache of 16 MiB that, when full, folds a
# quarter of itself into TLC with the host's writes stalled, then takes
# writes at its speed again. Two passes of 128 KiB sequential writes
# without TRIM on two drives side by side: drive a with no rest between
# them, drive b with 3 s (the rest folds the cache back):
#  - pass 1 (clean), both drives; and drive b's pass 2 (dirty, the cache
#    empty again after the rest): the estimate within 5 % of the model's
#    cache, the speed in it and after it within 10 % of what the model
#    did (tests/known/cache.py), one level; the writing after it seen as
#    gusts, a stall for each of the model's folds (give or take one), the
#    median stall within 10 % of the model's;
#  - drive a's pass 2 (dirty, the cache full: at most a gust of it free):
#    no cache claimed, the pass's speed within 10 % of the model's.
# The drive is scaled to 256 MiB (from 512; the cache stays 16 MiB): a
# pass after the cache runs at about 25 MB/s, 10 s instead of 20.
# round_ms = 1 makes the model's rounds end with each write or two.
. "$(dirname "$0")/lib.sh"
need_root

cp "$PROFILES/intel-600p.conf" "$T/p.conf"
sed -i -e 's/^capacity = .*/capacity = 256M/' \
    -e 's/^\[ftl\]$/[ftl]\nround_ms = 1/' "$T/p.conf"
ST=$T/state
{
	seq_drive a "$T/p.conf" 32 0 no 0 2
	seq_drive b "$T/p.conf" 32 0 no 3s 2
} | write_conf "$T/a.conf" "$ST"
SSDT_TIMEOUT=200 run_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
assert_rc "two passes on two 600p-like drives" 0 "$RC" "$T/a.log"
for d in a b; do
	python3 - "$T/$d.truth" "$ST/$d/events.jsonl" "$d" >"$T/$d.check" <<'PY'
import os, sys
sys.path.insert(0, os.environ["KA_DIR"])
import cache, known
tr = known.Truth(sys.argv[1])
ev = known.events(sys.argv[2], tr)
d = sys.argv[3]
c = known.Checks()
ps = cache.passes(tr, ev)
c.true("two write passes", len(ps) == 2, len(ps))
if len(ps) == 2:
    cache.check(c, tr, ps[0], "QD32 pass 1 (clean)", ps[0].end)
    cache.check_gusts(c, tr, ps[0], "QD32 pass 1 (clean)", ps[0].end)
    if d == "a":
        cache.check(c, tr, ps[1], "QD32 pass 2 (dirty, no rest)", ps[1].end)
    else:
        mc, free = cache.model_cache(tr, ps[1])
        c.true("the model's cache was whole again after the rest",
               mc is not None and free == mc["bytes"], free)
        w = "QD32 pass 2 (dirty, after 3 s of rest)"
        cache.check(c, tr, ps[1], w, ps[1].end)
        cache.check_gusts(c, tr, ps[1], w, ps[1].end)
c.done()
PY
	show_file "$T/$d.check"
	assert_eq "the 600p-like drive $d at QD32" ok "$(tail -n 1 "$T/$d.check")"
done
finish
