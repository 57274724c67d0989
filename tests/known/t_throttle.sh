#!/bin/bash
# run: timed
# Thermal throttling on the Intel 600p-like drive
# (sim/profiles/intel-600p.conf: 70 C, reached in about 10 s of sustained
# sequential reading at QD32 128 KiB, then reads at 30 % of the speed). A
# full checkpoint's thermal runs (128 KiB sequential writes, then reads,
# at QD32), SMART read through smart_command (ssdsim smart, by a wrapper
# that keeps every reading the daemon gets and when it got it) every
# second, so that the daemon sees the NVMe thermal management counters.
# The writes heat the drive a little (their gusts average about 26 MB/s),
# the reads to its throttle. Checked on the thermal-read line:
#  - throttled, and seconds_to_throttle within 20 % of the model's onset:
#    its "throttle" record's time since the "reads" record that began the
#    run (the model's first read after the writes);
#  - throttled_bytes_per_sec within 10 % of what the model delivered while
#    throttled: its own host bytes read (the readings' exact counter)
#    between the first reading after the throttle record and the last one
#    before the run's end (its start plus the line's seconds), over the
#    time between those readings.
# The profile is shrunk to 128 MiB (a copy in $T) so that the fill and the
# checks of the area take seconds; the thermal figures are the profile's.
. "$(dirname "$0")/lib.sh"
need_root

P=$T/600p.conf
sed -e 's/^capacity = .*/capacity = 128M/' "$PROFILES/intel-600p.conf" >"$P"
sim_start a "$P"
mkdir -p "$T/readings"
# one reading a file, in order, with the wall clock (ns) before and after
cat >"$T/smart.sh" <<EOF2
#!/bin/bash
n=\$(ls "$T/readings" | grep -c json)
f=\$(printf '%s/readings/%06d' "$T" "\$n")
t0=\$(date +%s%N)
"$SSDSIM" smart --control "$SIM_CTL" >"\$f.tmp"
rc=\$?
t1=\$(date +%s%N)
echo "\$t0 \$t1" >"\$f.time"
mv "\$f.tmp" "\$f.json"
cat "\$f.json"
exit \$rc
EOF2
chmod +x "$T/smart.sh"
ST=$T/state
write_conf "$T/a.conf" "$ST" <<EOF2
[drive:a]
device = $SIM_FILE
serial = none
block_size = 128k
queue_depth = 32
static_fraction = 0
idle = 0
cycles = 1
smart_command = $T/smart.sh
thermal_interval = 1s
smart_interval = 5s
checkpoint = full
checkpoint_probes = seq-read-128k-qd32
probe_seconds = 1s
probe_ramp = 0s
full_checkpoint_tests = thermal
thermal_duration = 20s
EOF2
SSDT_TIMEOUT=200 run_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
assert_rc "a full checkpoint on the 600p-like drive" 0 "$RC" "$T/a.log"
python3 - "$SIM_TRUTH" "$ST/a/checkpoints.jsonl" "$T/readings" \
    >"$T/a.check" <<'PY'
import glob, json, os, sys
sys.path.insert(0, os.environ["KA_DIR"])
import known
tr = known.Truth(sys.argv[1])
L = {o["probe"]: o for o in map(json.loads, open(sys.argv[2]))}
c = known.Checks()
rd = L.get("thermal-read", {})
c.true("a thermal-read line", bool(rd))
c.true("throttled", rd.get("throttled") is True, rd.get("throttled"))
thr = tr.ev("throttle")
c.true("the model throttled", len(thr) > 0)
if thr and rd.get("throttled"):
    th = thr[0]["t_ns"]
    start = [r for r in tr.ev("reads", None, th)][-1]["t_ns"]
    c.within("seconds to throttle", rd.get("seconds_to_throttle", 0),
             (th - start) / 1e9, 0.20)
    end = start + rd["seconds"] * 1e9
    reads = []
    for f in sorted(glob.glob(sys.argv[3] + "/*.json")):
        a, b = map(int, open(f[:-5] + ".time").read().split())
        t = tr.mono((a + b) // 2)
        if th < t < end:
            reads.append((t, json.load(open(f))["ssdsim"]["host_bytes_read"]))
    c.true("readings while throttled (%d)" % len(reads), len(reads) >= 3)
    if len(reads) >= 3:
        (t0, b0), (t1, b1) = reads[0], reads[-1]
        c.within("throttled speed", rd.get("throttled_bytes_per_sec", 0),
                 (b1 - b0) * 1e9 / (t1 - t0), 0.10)
    print("  (unthrottled %s B/s, peak %s C)" % (
        rd.get("unthrottled_bytes_per_sec"), rd.get("peak_temperature_c")))
c.done()
PY
show_file "$T/a.check"
assert_eq "the 600p-like drive's throttling known answers" ok "$(tail -n 1 "$T/a.check")"
finish
