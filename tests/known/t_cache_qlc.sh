#!/bin/bash
# run: heavy timed
# The QLC variant (sim/profiles/sm2258xt-qlc.conf): a cache of a quarter
# of the free space (QLC in SLC mode) in two levels (200 MB/s for its
# first half, 100 for the rest), then direct writes to QLC at 40 MB/s, 24
# after 60 % of the drive. Two passes of 128 KiB sequential writes, no
# TRIM between them, at QD1 (drive a) and at QD32 (drive b) side by side:
#  - pass 1 (clean): the estimate names the whole cache, both levels,
#    within 5 % of the model's, and its speed in and after the cache
#    within 10 % of what the model did (tests/known/cache.py says how
#    those are measured); slc_levels has the two levels, each's bytes
#    within 5 % and speed within 10 % of the model's;
#  - pass 2 (dirty: the drive holds the first pass's data, so no free
#    space and no cache): no cache claimed, the pass's speed within 10 %.
# The drive is scaled to 256 MiB (from 1 GiB): the dirty pass at 24 MB/s
# takes 11 s instead of 45; the cache stays a quarter of the free space.
# (cache_two_passes, tests/known/lib.sh).
. "$(dirname "$0")/lib.sh"
need_root

cache_two_passes sm2258xt-qlc 256M QLC
finish
