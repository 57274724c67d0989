#!/bin/bash
# run: timed
# The lying drive (sim/profiles/lying.conf) cut by ssdsim as the daemon's
# power_cut_command, in the write pass of each of three cycles. Checked
# against the model's power_off records:
#  - three cuts by the daemon, three power_off records of the model;
#  - after each cut, the lost_flush findings (verify_error class
#    lost_flush: byte offset and blocks) are exactly the 128 KiB blocks
#    holding the ranges that cut lost with flushed = true;
#  - the same drive with lie_flushed = 0 (honest): no lost_flush at all
#    across as many cuts, although the cuts lost unflushed writes over the
#    data of earlier cycles (what those blocks read back is that data).
# The daemon ends with exit status 3 (verify errors) on the lying drive,
# 0 on the honest one. Shrunk (a copy in $T): 64 MiB, so a pass takes under a second. The
# daemon's max_bad_fraction = 0: what the lying drive loses at a cut is
# more than 1 % of so small a drive, on which the daemon would fail it.
. "$(dirname "$0")/lib.sh"
need_root

# run_drive NAME LIE RC: three cycles, a cut in each, lie_flushed = LIE;
# the daemon's exit status RC (3: it found verify errors)
run_drive() {
	sed -e 's/^capacity = .*/capacity = 64M/' \
	    -e "s/^lie_flushed = .*/lie_flushed = $2/" \
	    "$PROFILES/lying.conf" >"$T/$1.conf"
	sim_start "$1" "$T/$1.conf"
	write_conf "$T/$1.d.conf" "$T/$1.st" <<EOF
[drive:$1]
device = $SIM_FILE
serial = none
block_size = 128k
queue_depth = 4
order = sequential
static_fraction = 0
trim = no
idle = 0
cycles = 3
checkpoint = off
smart = off
max_bad_fraction = 0
power_cut_command = $SSDSIM
power_cut_every = 1
power_cut_timeout = 20s
EOF
	SSDSIM_CONTROL=$SIM_CTL SSDT_TIMEOUT=80 run_ssdt "$T/$1.log" \
	    -c "$T/$1.d.conf" --oneshot
	assert_rc "$1: three cycles with a cut each" "$3" "$RC" "$T/$1.log"
}

# check NAME LIE: the findings of each cut against the model's
check() {
	python3 - "$SIM_TRUTH" "$T/$1.st/$1/events.jsonl" "$2" >"$T/$1.check" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["KA_DIR"])
import known
tr = known.Truth(sys.argv[1])
ev = known.events(sys.argv[2], tr)
lying = sys.argv[3] != "0"
c = known.Checks()
BS = 128 * 1024
offs = list(tr.ev("power_off"))
cuts = [e for e in ev if e.get("event") == "power_cut"]
c.true("three cuts, each a power_off of the model", len(cuts) == 3 and
       len(offs) == 3, "%d %d" % (len(cuts), len(offs)))
def blocks(x):
    return set(range(x["off"] // BS, (x["off"] + x["len"] + BS - 1) // BS))
# the findings of the verify after cut i: the events after its power_cut
got = [set() for _ in offs]
ncut = 0
for e in ev:
    if e.get("event") == "power_cut":
        ncut += 1
    elif e.get("event") == "verify_error" and e.get("class") == "lost_flush":
        if 0 < ncut <= len(got):
            got[ncut - 1] |= set(range(e["offset"] // BS,
                                       e["offset"] // BS + e["blocks"]))
        else:
            c.true("a lost_flush after a cut", False, e)
total = unfl_later = 0
for i, r in enumerate(offs):
    want = set()
    for x in r["lost"]:
        if x["flushed"]:
            want |= blocks(x)
        elif i > 0:
            unfl_later += x["len"]
    total += len(want)
    print("cut %d: the model lost %d flushed block(s), %d bytes in all; "
          "lost_flush at %d block(s)" % (i + 1, len(want), r["lost_bytes"],
                                         len(got[i])))
    c.true("cut %d: lost_flush blocks %s, the model's %s" %
           (i + 1, sorted(got[i]), sorted(want)), got[i] == want)
if lying:
    c.true("the model lost flushed writes", total > 0, total)
else:
    c.true("the honest model lost no flushed write", total == 0, total)
    c.true("its cuts after the first lost unflushed writes over earlier "
           "data", unfl_later > 0, unfl_later)
c.done()
PY
	show_file "$T/$1.check"
	assert_eq "$1: known answers" ok "$(tail -n 1 "$T/$1.check")"
}

run_drive lie 8 3
check lie 8
run_drive honest 0 0
check honest 0
finish
