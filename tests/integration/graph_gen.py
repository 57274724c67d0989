"""t_graph: a synthetic archive's update lines, one per second after START:
writes near 420 MB/s with a stall every 97 s, a read-only verify stretch,
latency spikes; SMART every 5 s (UNKNOWN between): wear, spare, a
temperature peak above 70 C, two media errors late, device/NAND writes,
WAF; a cache flush rate while writing; bad blocks found late; a power cut
halfway.

argv: START SECONDS
Prints "TIME:V:V:..." lines for rrdtool update (seeded: always the same).
"""
import math, random, sys
t0, n = int(sys.argv[1]), int(sys.argv[2])
random.seed(7)
hw = hr = 0.0
for i in range(1, n + 1):
    verify, stall = 0.66 * n <= i < 0.8 * n, i % 97 == 0
    w = 0 if verify or stall else max(0, 420e6 + random.gauss(0, 40e6) + 60e6 * math.sin(i / 40))
    r = 0 if stall else (max(0, 1.4e9 + random.gauss(0, 80e6)) if verify else 2e6)
    hw += w; hr += r
    lat = max(50, 900 + random.gauss(0, 120) + (25000 if stall else 0))
    v = ["%.6g" % x for x in (w, r, w / 4096, r / 4096, hw, hr, lat)]
    if i % 5 == 0:
        temp = 44 + 30 * math.exp(-((i - 0.55 * n) / (0.08 * n)) ** 2)
        v += ["%.6g" % x for x in (3 + (i > n / 2), 100 - (i > 0.7 * n), round(temp),
              2 if i > 0.85 * n else 0, hw * 1.001, hw * 1.35 + 1e9, 1.35 + 0.2 * i / n)]
    else:
        v += ["U"] * 7
    # a cache flush each second of writing (none while verifying)
    v += ["U" if verify else "%.6g" % max(100, 2500 + random.gauss(0, 300))]
    v += ["%d" % (3 * (i > 0.9 * n))]  # bad blocks found, cumulative
    v += ["%d" % (i > 0.5 * n)]  # power cuts, cumulative
    print("%d:%s" % (t0 + i, ":".join(v)))
