#!/bin/bash
# run: heavy timed
# The SM2258XT-like drive (sim/profiles/sm2258xt.conf), 90 % full: its
# cache is a third of the FREE space, in two levels (cache_full90,
# tests/known/lib.sh, says what is checked): the static fill names the
# whole cache (a third of the drive), pass 1 right after it no cache,
# pass 2 (clean, 90 % full) a third of the tenth then free, both levels.
# The drive is scaled to 640 MiB so that at QD32 the 90 %-full pass's
# first level (10.7 MiB) is well more than the 4 MiB in flight, and its
# direct writes sped up (26 and 8 MB/s to 50 and 25, still below 0.7
# times the second level's 100: the cache's end stays a drop) so that the
# static fill takes 11 s instead of 24.
. "$(dirname "$0")/lib.sh"
need_root

cache_full90 sm2258xt SM2258XT-like capacity=640M native_mbps=50 \
    native_slow_mbps=25
finish
