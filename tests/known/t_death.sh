#!/bin/bash
# run: timed
# The short-lived drive (sim/profiles/short-lived.conf) written to death:
# sequential 128 KiB write passes over the whole drive, each verified,
# until the drive fails. Checked against the model's truth records:
#  - each verify pass's bad blocks (its error map, `ssdctl errors --pass
#    N`) are exactly the daemon blocks that held a range the model had
#    made bad ("bad" records: off, len) and not rewritten by the time the
#    pass read it: here the ranges told during that cycle's write pass
#    (every pass rewrites every block, which heals the earlier ones, and
#    those the pass rewrote after the model told them);
#    every verify_error event names one of them, and no pass found a bad
#    block where the model had none;
#    (the ranges told in the write pass the drive failed in have no
#    verify pass after them);
#  - the drive ends failed as it turned read-only (a write refused), the
#    model read-only and then gone;
#  - the TBW at the failure within 1 % of the model's host bytes written
#    when it turned read-only and when it was gone.
# Shrunk (a copy in $T): 64 MiB so a pass takes under a second (the
# blocks still die at about 25 erases, so the drive lasts about as many
# passes), gone 2 s after read-only instead of 20. The daemon's own limits
# are lifted (max_bad_fraction = 0, max_new_bad_blocks = 1000000,
# on_io_error = continue) so that it runs until the drive itself ends;
# and SMART is off: the model raises NVMe's "reliability degraded" warning
# at its first media error, on which the daemon fails a drive at once.
. "$(dirname "$0")/lib.sh"
need_root

sed -e 's/^capacity = .*/capacity = 64M/' \
    -e 's/^gone_after_ms = .*/gone_after_ms = 2000/' \
    "$PROFILES/short-lived.conf" >"$T/short.conf"
sim_start a "$T/short.conf"
ST=$T/state
S=$ST/a/state
write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
device = $SIM_FILE
serial = none
block_size = 128k
queue_depth = 4
order = sequential
static_fraction = 0
trim = no
idle = 0
cycles = 0
checkpoint = off
on_io_error = continue
max_bad_fraction = 0
max_new_bad_blocks = 1000000
max_error_events = 100000
smart = off
EOF
start_ssdt "$T/a.log" -c "$T/a.conf"
wait_state "$S" "$SSDT_PID" 120 "s[\"run\"] in (\"failed\", \"finished\")" ||
	die "the drive never failed"
n=$(state_get "$S" errors.pass)
for i in $(seq 1 "$n"); do
	"$CTL" -s "$ST.sock" errors a --pass "$i" --json >"$T/errors.$i.json" ||
		die "ssdctl errors --pass $i failed"
done
kill_and_reap TERM "$SSDT_PID"
# the model tells "gone" when asked after its time: ask once it has passed
sleep 2.5
sim_smart >"$T/end.json" 2>&1
python3 - "$SIM_TRUTH" "$ST/a/events.jsonl" "$T" "$n" >"$T/a.check" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["KA_DIR"])
import known
tr = known.Truth(sys.argv[1])
ev = known.events(sys.argv[2], tr)
tdir, npass = sys.argv[3], int(sys.argv[4])
c = known.Checks()
BS = 128 * 1024

def blocks(off, n):
    return set(range(off // BS, (off + n + BS - 1) // BS))

# each cycle's write pass: from its start (the run's for cycle 1) to its
# verify pass's start
wstart = {e["cycle"]: e["_mono"] for e in ev if e.get("event") == "phase_start"
          and e.get("phase") == "write"}
wstart[1] = [e for e in ev if e.get("event") == "created"][0]["_mono"]
vstart = {e["cycle"]: e["_mono"] for e in ev if e.get("event") == "phase_start"
          and e.get("phase") == "verify"}
bad = tr.ev("bad")
c.true("the model made blocks bad", len(bad) > 0, len(bad))
told = 0
healed = []
SPAN = 64 << 20
for p in range(1, npass + 1):
    r = json.load(open("%s/errors.%d.json" % (tdir, p)))
    got = set()
    for x in r["extents"]:
        got |= blocks(x["offset"], x["blocks"] * BS)
    want = set()
    for b in tr.ev("bad", wstart[p], vstart[p]):
        told += 1
        # where the pass was writing (in order, at an even pace) as the
        # model told it: a range ahead of that is data of the pass before,
        # in a block that died when the next was opened, and this pass
        # rewrites (heals) it before its verify
        at = (b["t_ns"] - wstart[p]) / (vstart[p] - wstart[p]) * SPAN
        if b["off"] > at + SPAN // 10:
            healed.append(b)
            continue
        want |= blocks(b["off"], b["len"])
    c.true("verify pass %d: bad blocks %s, the model's %s" %
           (p, sorted(got), sorted(want)), got == want)
    ve = set()
    for e in ev:
        if e.get("event") == "verify_error" and e.get("phase") == "verify" \
                and e["cycle"] == p:
            ve |= blocks(e["offset"], e["blocks"] * BS)
    c.true("verify pass %d: verify_error events at the model's blocks" % p,
           ve == want, sorted(ve))
failed = [e for e in ev if e.get("event") == "failed"]
c.true("the drive failed once", len(failed) == 1, len(failed))
ro, gone = tr.ev("readonly"), tr.ev("gone")
c.true("the model: read-only, then gone", len(ro) == 1 and len(gone) == 1 and
       gone[0]["t_ns"] > ro[0]["t_ns"])
if failed and ro and gone:
    f = failed[0]
    c.true("failed as it turned read-only: " + f["reason"],
           "Read-only" in f["reason"] and f["_mono"] >= ro[0]["t_ns"] - 10**7)
    late = tr.ev("bad", wstart[npass + 1]) if npass + 1 in wstart else []
    c.true("every bad range checked by a verify pass but those of the last "
           "write pass (%d of %d, %d of them healed by the pass that told "
           "them)" % (told, len(bad), len(healed)), told + len(late) == len(bad))
    c.within("TBW at the failure against read-only", f["host_bytes_written"],
             ro[0]["host_written_bytes"], 0.01)
    c.within("TBW at the failure against gone", f["host_bytes_written"],
             gone[0]["host_written_bytes"], 0.01)
c.done()
PY
show_file "$T/a.check"
assert_eq "the short-lived drive's known answers" ok "$(tail -n 1 "$T/a.check")"
finish
