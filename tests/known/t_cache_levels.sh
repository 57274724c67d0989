#!/bin/bash
# run: heavy timed
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
# (cache_two_passes, tests/known/lib.sh).
. "$(dirname "$0")/lib.sh"
need_root

cache_two_passes sm2258xt 128M "SM2258XT-like"
finish
