#!/bin/bash
# SMART is read every thermal_interval while an NVMe drive writes, so that
# its temperature ramp is seen, and every smart_interval otherwise; a SATA
# drive keeps smart_interval while it writes (smartctl is heavier). With
# smart_interval = 1h and thermal_interval = 1s, new readings keep coming
# during the NVMe drive's write pass (more than its phase change alone
# makes), and during the SATA drive's none but the phase change's.
# Readings are placed in phases by the daemon's phase_start events
# (smart_cadence.py), not by the state file, whose phase lags.
# run: serial
# (tests/lib/jobs.sh; readings counted against the seconds a pass lasts)
. "$(dirname "$0")/lib.sh"

S=$T/state
write_conf "$T/t.conf" "$S" <<EOC
[drive:nv]
checkpoint = off
device = /dev/nvme0n1
serial = SSDTNVME0001
span = 256M
block_size = 4k
order = random
queue_depth = 4
static_fraction = 0.25
trim = no
cycles = 1
smart_interval = 1h
thermal_interval = 1s

[drive:sata]
checkpoint = off
device = /dev/sda
serial = SSDTSATA0001
span = 128M
block_size = 4k
order = random
queue_depth = 4
static_fraction = 0.25
trim = no
cycles = 1
smart_interval = 1h
thermal_interval = 1s
EOC

start_ssdt "$T/d.log" -c "$T/t.conf"
for _ in $(seq 1 100); do
	"$ROOT/ctl/ssdctl" -s "$S.sock" status >/dev/null 2>&1 && break
	sleep 0.1
done
python3 "$GUEST_DIR/smart_cadence.py" "$ROOT/ctl/ssdctl" "$S.sock" "$S" 240 \
    nv sata >"$T/cadence.txt" 2>&1
show_file "$T/cadence.txt"
stop_ssdt "$SSDT_PID" "$T/d.log"

# field PHASE NAME COLUMN (3: seconds in the phase, 4: readings in it)
field() { awk -v n="$1" -v p="$2" -v c="$3" '$1 == n && $2 == p { print $c }' "$T/cadence.txt"; }
secs=$(field nv write 3) n=$(field nv write 4)
log "nv: ${n:-?} readings in ${secs:-?} s of its write pass"
assert_ge "nv: its write pass lasted long enough to tell (s)" "${secs%.*}" 4
# one reading a second, of which the poll (an ssdctl call in a slow
# guest, every 0.3 s) sees only some: at least one in 4 s, and 3
assert_ge "nv: readings during its write pass" "${n:-0}" $(( ${secs%.*} / 4 ))
assert_ge "nv: readings during its write pass, at least" "${n:-0}" 3
secs=$(field sata write 3) n=$(field sata write 4)
log "sata: ${n:-?} readings in ${secs:-?} s of its write pass"
assert_ge "sata: its write pass lasted long enough to tell (s)" "${secs%.*}" 4
assert_le "sata: readings during its write pass (the phase change's)" "${n:-0}" 1
finish
