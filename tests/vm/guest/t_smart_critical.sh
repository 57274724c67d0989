#!/bin/bash
# vm-nvme-opts: ,smart_critical_warning=4
# The emulated NVMe controller reports "reliability degraded" (critical
# warning bit 2): the drive turns failed, with its TBW and the SMART
# reading in an event, while the SATA drive of the same daemon finishes.
. "$(dirname "$0")/lib.sh"

S=$T/state
write_conf "$T/t.conf" "$S" <<EOC
[drive:nv]
checkpoint = off
device = /dev/nvme0n1
serial = SSDTNVME0001
span = 32M
block_size = 4k
cycles = 1

[drive:sata]
checkpoint = off
device = /dev/sda
serial = SSDTSATA0001
span = 16M
block_size = 64k
trim = no
cycles = 1
EOC

log "a drive whose SMART says reliability degraded fails; the other goes on"
assert_eq "nvme-cli sees the warning" 4 "$(nvme_smart critical_warning)"
run_ssdt "$T/d.log" -c "$T/t.conf" --oneshot
assert_rc "--oneshot" 4 "$RC" "$T/d.log"
assert_eq "nv state" failed "$(state_get "$S/nv/state" run)"
assert_contains "nv reason" "$(state_get "$S/nv/state" reason)" \
    "reliability degraded"
assert_eq "smart_failed events" 1 \
    "$(ev_count "$S/nv/events.jsonl" 0 event=smart_failed)"
assert_eq "sata state" finished "$(state_get "$S/sata/state" run)"
assert_eq "sata cycles done" 1 "$(state_get "$S/sata/state" cycles_done)"
finish
