#!/bin/bash
# Never claim more than the drive promised. A dm-log-writes target under
# the drive logs every write and flush as the drive acknowledged them (a
# write enters the log with the flush that covers it). While a cycle runs,
# the state is copied every moment and a mark set in the log right after.
# Each copy is then checked against the drive as a power cut at its mark
# would leave it: the log replayed onto the zeroed drive up to the mark
# (what completed flushes covered) plus a random half of the writes the
# next flush would have covered (acknowledged, held in a volatile cache).
# `ssdtortured --verify` with that copy must find nothing. A replay that
# leaves out one write a flush covered (a drive that lies about FLUSH)
# must be found, at exactly that block.
. "$(dirname "$0")/lib.sh"

NV=/dev/nvme0n1
LW=$ROOT/tests/lib/logwrites.py
DATA_MB=80
SECT=$(blockdev --getsz $NV) || die "blockdev --getsz $NV"
DSECT=$((DATA_MB * 2048))
SPAN=$((64 * 1024 * 1024)) BS=4096 FRAC=0.25
layout $SPAN $BS $FRAC
ST=$T/state
S=$ST/lw/state
EV=$ST/lw/events.jsonl

log "data ${DATA_MB} MiB and log on $NV; log-writes over them"
dm_create lwdata "0 $DSECT linear $NV 0"
dm_create lwlog "0 $((SECT - DSECT)) linear $NV $DSECT"
dd if=/dev/zero of=/dev/mapper/lwlog bs=1M count=1 oflag=direct status=none
dm_create lw "0 $DSECT log-writes /dev/mapper/lwdata /dev/mapper/lwlog"

conf() {	# STATE_DIR
	write_conf "$T/lw.conf" "$1" <<EOC
[drive:lw]
device = /dev/mapper/lw
serial = none
span = 64M
block_size = 4k
order = random
queue_depth = 1
static_fraction = $FRAC
trim = no
cycles = 1
on_io_error = stop
EOC
}
conf "$ST"

# queue depth 1: a cycle long enough for many copies, however fast the host
log "one cycle; the state copied and a mark set every moment"
start_ssdt "$T/run.log" -c "$T/lw.conf" --oneshot
# A copy stands for a power cut at its mark only if it was the state on
# disk at that moment: the state file (replaced whole at each checkpoint)
# must be the same inode before the mark and after the copy; otherwise
# the copy is dropped (the daemon moved on between the two). The mark is
# set as soon as a new state appears, before the next flush completes as
# a rule: then a state that claimed more than the last flush covered
# would be caught. One Python loop, so that this is quick in a slow guest.
python3 - "$SSDT_PID" "$S" "$EV" "$T/snap" <<'EOF' || fail "the copying loop failed"
import os, shutil, subprocess, sys, time
pid, state, events, snap = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
n, good, seen = 0, [], None
def alive():
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(") ", 1)[1][0] not in "ZX"
    except OSError:
        return False
while alive():
    try:
        before = os.stat(state).st_ino
    except OSError:
        before = None
    if before is None or before == seen:
        time.sleep(0.005)
        continue
    seen = before
    n += 1
    subprocess.run(["dmsetup", "message", "lw", "0", "mark", "m%d" % n],
                   check=True)
    d = os.path.join(snap, str(n), "lw")
    os.makedirs(d)
    shutil.copy(state, os.path.join(d, "state"))
    shutil.copy(events, os.path.join(d, "events.jsonl"))
    if os.stat(state).st_ino == before:
        good.append(n)
    else:
        shutil.rmtree(os.path.dirname(d))
with open(os.path.join(snap, "good"), "w") as f:
    f.writelines("%d\n" % g for g in good)
EOF
wait_pid "$SSDT_PID" 5
assert_rc "the cycle" 0 "$RC" "$T/run.log"
assert_eq "cycle done" 1 "$(state_get "$S" cycles_done)"
note "$(wc -l <"$T/snap/good") state copies kept; flushes sent: $(state_get "$S" flushes)"
dmsetup remove --noudevsync lw || die "dmsetup remove lw"
python3 "$LW" /dev/mapper/lwlog list >"$T/marks" || die "cannot read the log"
note "marks in the log: $(wc -l <"$T/marks"), flushes logged: $(tail -n 1 "$T/marks" | awk '{ print $3 }')"
assert_ge "flushes in the log >= flushes the state counts" \
    "$(tail -n 1 "$T/marks" | awk '{ print $3 }')" "$(state_get "$S" flushes)"

# The copies to check: the last of each phase, and two in the middle of
# the write pass. Preferred are copies whose mark no flush preceded since
# the state was saved (the log's flush count at the mark equals the
# state's): there, a state that claimed more than the last completed
# flush covered would meet a replay without those writes.
python3 - "$T/snap" "$T/marks" >"$T/picks" <<'EOF'
import os, sys
root, marks = sys.argv[1], sys.argv[2]
good = [int(l) for l in open(os.path.join(root, "good"))]
flushes = {l.split()[0]: int(l.split()[2]) for l in open(marks)}
def load(i):
    s = {}
    for l in open(os.path.join(root, str(i), "lw", "state")):
        k, _, v = l.rstrip("\n").partition(" ")
        s[k] = v
    return s
def tight(i, s):
    return flushes["m%d" % i] == int(s.get("flushes", "0"))
last, writes = {}, []
for prefer in (False, True):	# a tight copy replaces a loose one
    for i in good:
        s = load(i)
        if prefer and not tight(i, s):
            continue
        last[s["phase"]] = i
        if prefer and s["phase"] == "write" and int(s["position"]) > 0:
            writes.append(i)
picks = set(last.values())
if writes:
    picks.update((writes[len(writes) // 3], writes[2 * len(writes) // 3]))
for i in sorted(picks):
    s = load(i)
    print(i, s["phase"], s["position"], s["run"],
          "tight" if tight(i, s) else "loose")
EOF
note "copies checked (copy phase position run tight|loose):"
sed 's/^/     /' "$T/picks"
assert_ge "tight copies taken in the middle of the write pass" \
    "$(awk '$2 == "write" && $3 > 0 && $5 == "tight"' "$T/picks" | wc -l)" 1

# all_errors STATE: blocks found bad, every class
all_errors() {
	awk '$1 ~ /^errors\.(corrupt|misdirected|stale|foreign|unwritten|io_error)$/ {
	    n += $2 } END { print n + 0 }' "$1"
}

# the drive as it was before the cycle, under the same name: a linear map
dm_create lw "0 $DSECT linear /dev/mapper/lwdata 0"
# verify_at COPY LABEL [--omit-in A B]: replay at the copy's mark, --verify
verify_at() {
	local c=$1 label=$2
	shift 2
	rm -rf "$T/v"
	cp -r "$T/snap/$c" "$T/v"
	conf "$T/v"
	python3 "$LW" /dev/mapper/lwlog replay /dev/mapper/lwdata "m$c" \
	    --seed "$c" --zero $((DSECT * 512)) "$@" >"$T/replay" ||
	    { fail "$label: replay failed"; return 1; }
	note "$label: $(tr '\n' ' ' <"$T/replay")"
	run_ssdt "$T/v.log" -c "$T/lw.conf" --verify
}

while read -r c phase pos run tight; do
	verify_at "$c" "copy $c ($phase, position $pos)"
	assert_rc "copy $c ($phase at $pos): --verify after the power cut" 0 "$RC" "$T/v.log"
	assert_eq "copy $c: nothing found" 0 "$(all_errors "$T/v/lw/state")"
done <"$T/picks"

log "a drive that loses a flushed write is caught, at that block"
c=$(awk '$2 == "write" && $3 > 0 { print $1; exit }' "$T/picks")
verify_at "$c" "copy $c, one flushed static write lost" --omit-in 0 "$SBYTES"
OFF=$(awk '$1 == "omitted" { print $2 }' "$T/replay")
assert_rc "--verify finds it" 3 "$RC" "$T/v.log"
assert_eq "blocks found bad" 1 "$(all_errors "$T/v/lw/state")"
assert_eq "the finding is at the lost block" "$OFF" \
    "$(ev_query "$T/v/lw/events.jsonl" 0 offset event=verify_error | tail -n 1)"
finish
