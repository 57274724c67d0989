#!/bin/bash
# run: heavy timed
# The QLC variant (sim/profiles/sm2258xt-qlc.conf), 90 % full: its cache
# is a quarter of the FREE space (QLC in SLC mode), in two levels
# (cache_full90, tests/known/lib.sh, says what is checked): the static
# fill names the whole cache (a quarter of the drive), pass 1 right after
# it no cache, pass 2 (clean, 90 % full) a quarter of the tenth then
# free, both levels; at QD1 (drive a) and QD32 (drive b).
# Overrides, the shape kept (two levels, the second at half the first's
# speed; then direct writes to QLC at half the second level's speed, a
# clear drop below the 0.7 a knee needs; 0.6 times that after 60 % of
# the drive, the profile's ratio):
#  - capacity=640M (from 1G): pass 2's cache is 16 MiB, its first level
#    8 MiB, twice the 4 MiB in flight at QD32; 1 GiB takes 20 s more;
#  - mbps=120, level2_mbps=60 (from 200 and 100): at QD1 the host adds
#    0.1 to 5 ms (FUSE, ssdsim's threads, other tests on the CPUs) to a
#    128 KiB write the model takes 0.8 ms for at 200 MB/s; host pauses
#    that weigh as much as the fast writes between them end a level
#    early (slc.c weighs a stretch's steps by their time), the more often
#    the shorter each write is; 1.2 ms a write here;
#  - native_mbps=30, native_slow_mbps=18 (from 40 and 24): half the
#    second level's speed, and 0.6 of that; at 0.6 of the second level
#    (24) a QD1 run's second level ended early;
#  - age_read_factor=1 (from 3): the second verify pass reads the static
#    fill's data aged by then; three times slower it took 10 s more.
#    Reads are not what is checked here.
# Takes about 45 s (2 vCPUs).
. "$(dirname "$0")/lib.sh"
need_root

cache_full90 sm2258xt-qlc QLC capacity=640M mbps=120 level2_mbps=60 \
    native_mbps=30 native_slow_mbps=18 age_read_factor=1
finish
