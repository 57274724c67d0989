#!/bin/bash
# run: timed
# SMART wear on the M550-like drive (sim/profiles/crucial-m550.conf),
# read through smart_command (ssdsim smart, by a wrapper that keeps a copy
# of every reading it hands the daemon, so that the model's own counters at
# the daemon's readings are known). Three cycles of 4 KiB random writes
# over the whole drive, no TRIM: the first fills it, the next two rewrite
# a full drive, so garbage collection relocates and the write
# amplification is well above 1. Checked:
#  - the write amplification the daemon reports (smart.jsonl snapshots,
#    since its SMART baseline) within 5 % of the model's NAND bytes over
#    its host bytes between the same two readings (exact byte counters of
#    the ssdsim object, not the 512,000-byte data units);
#  - the percentage used in each snapshot exactly the model's at that
#    reading (its average erase count over its rated P/E);
#  - the TBW at the end (the daemon's host_bytes_written) exactly the
#    model's host bytes written once the run is over.
# Shrunk (a copy in $T): 64 MiB, so a pass takes seconds; rated P/E 100,
# so that three passes move the percentage used (to about 10 %).
. "$(dirname "$0")/lib.sh"
need_root

sed -e 's/^capacity = .*/capacity = 64M/' -e 's/^rated_pe = .*/rated_pe = 100/' \
    "$PROFILES/crucial-m550.conf" >"$T/m550.conf"
sim_start a "$T/m550.conf"
mkdir -p "$T/readings"
cat >"$T/smart.sh" <<EOF
#!/bin/bash
# one file per reading, in order
n=\$(ls "$T/readings" | wc -l)
f=\$(printf '%s/readings/%06d.json' "$T" "\$n")
"$SSDSIM" smart --control "$SIM_CTL" >"\$f.tmp"
rc=\$?
mv "\$f.tmp" "\$f"
cat "\$f"
exit \$rc
EOF
chmod +x "$T/smart.sh"
ST=$T/state
write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
device = $SIM_FILE
serial = none
block_size = 4k
queue_depth = 4
order = random
static_fraction = 0
trim = no
idle = 0
cycles = 3
checkpoint = off
smart_command = $T/smart.sh
thermal_interval = 1s
snapshot_every = 20MB
EOF
SSDT_TIMEOUT=150 run_ssdt "$T/a.log" -c "$T/a.conf" --oneshot
assert_rc "three random-write cycles on the M550-like drive" 0 "$RC" "$T/a.log"
sim_smart >"$T/end.json" || die "ssdsim smart failed"
python3 - "$ST/a/smart.jsonl" "$T/readings" "$T/end.json" "$ST/a/state" \
    >"$T/a.check" <<'PY'
import glob, json, os, sys
sys.path.insert(0, os.environ["KA_DIR"])
import known
c = known.Checks()
snaps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
reads = [json.load(open(f)) for f in sorted(glob.glob(sys.argv[2] + "/*.json"))]

def model_at(s):
    """The reading (the model's counters) a daemon's snapshot came from."""
    m = [r for r in reads if r["ssdsim"]["nand_bytes_written"] ==
         s["smart"]["nand_bytes_written"] and
         r["nvme_smart_health_information_log"]["data_units_written"] *
         512000 == s["smart"]["device_bytes_written"]]
    return m[0] if m else None

base = [s for s in snaps if s["why"] == "baseline"]
c.true("one baseline snapshot", len(base) == 1, len(base))
b = model_at(base[0]) if base else None
c.true("the baseline is a reading of the model", b is not None)
miles = [s for s in snaps if s["why"] == "milestone" and s.get("waf")]
c.true("milestones with a write amplification", len(miles) >= 3, len(miles))
top = 0
for s in miles:
    m = model_at(s)
    if m is None or b is None:
        c.true("snapshot at %d bytes: a reading of the model" %
               s["host_bytes_written"], False)
        continue
    x, y = m["ssdsim"], b["ssdsim"]
    wa = (x["nand_bytes_written"] - y["nand_bytes_written"]) / \
         (x["host_bytes_written"] - y["host_bytes_written"])
    top = max(top, wa)
    c.within("waf at %d host bytes" % s["host_bytes_written"], s["waf"], wa, 0.05)
    pu = m["nvme_smart_health_information_log"]["percentage_used"]
    c.true("percentage used at %d host bytes: %s, the model's %d" %
           (s["host_bytes_written"], s["smart"]["percent_used"], pu),
           s["smart"]["percent_used"] == pu)
c.true("the model's write amplification well above 1 (%.2f)" % top, top > 1.5)
st = dict(l.split(None, 1) for l in open(sys.argv[4]).read().splitlines() if " " in l)
end = json.load(open(sys.argv[3]))["ssdsim"]
ours = int(st["host_bytes_written"])
c.true("TBW at the end: %d bytes, the model's %d" % (ours, end["host_bytes_written"]),
       ours == end["host_bytes_written"])
c.done()
PY
show_file "$T/a.check"
assert_eq "the M550-like drive's SMART wear" ok "$(tail -n 1 "$T/a.check")"
finish
