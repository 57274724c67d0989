#!/bin/bash
# SMART as ssdtortured reads it equals what nvme-cli and smartctl (real
# clients none of us wrote) report for the same emulated drives; the
# drive's data units written follow what the daemon wrote; a baseline
# snapshot lands in smart.jsonl; status shows wear and temperature.
. "$(dirname "$0")/lib.sh"

S=$T/state
write_conf "$T/t.conf" "$S" <<EOC
[drive:nv]
checkpoint = off
device = /dev/nvme0n1
serial = SSDTNVME0001
span = 48M
block_size = 4k
order = random
queue_depth = 8
static_fraction = 0.5
trim = no
cycles = 1
smart_interval = 5s

[drive:sata]
checkpoint = off
device = /dev/sda
serial = SSDTSATA0001
span = 32M
block_size = 64k
queue_depth = 4
trim = no
cycles = 1
smart_interval = 5s
EOC
CTL="$ROOT/ctl/ssdctl -s $S.sock"

log "both drives run a cycle with SMART polled"
start_ssdt "$T/d.log" -c "$T/t.conf"
wait_state "$S/nv/state" "$SSDT_PID" 180 's["run"] == "finished"' ||
    fail "nv did not finish"
wait_state "$S/sata/state" "$SSDT_PID" 180 's["run"] == "finished"' ||
    fail "sata did not finish"
sleep 1		# the reading of the last phase change
$CTL --json smart nv >"$T/nv.json" 2>&1
assert_rc "ssdctl smart nv" 0 $? "$T/nv.json"
$CTL --json smart sata >"$T/sata.json" 2>&1
assert_rc "ssdctl smart sata" 0 $? "$T/sata.json"
nvme smart-log -o json /dev/nvme0 >"$T/ref-nv.json"
smartctl --json -a /dev/sda >"$T/ref-sata.json"

log "NVMe: the daemon's reading equals nvme smart-log"
py_check "$GUEST_DIR/smart_nvme_ref.py" "$T/nv.json" "$T/ref-nv.json" \
    "$(state_get "$S/nv/state" host_bytes_written)"

log "SATA: the daemon's reading equals smartctl"
py_check "$GUEST_DIR/smart_ata_ref.py" "$T/sata.json" "$T/ref-sata.json"

log "ssdctl smart says where each figure came from"
$CTL smart nv >"$T/nv.txt" 2>&1
assert_rc "ssdctl smart nv (text)" 0 $? "$T/nv.txt"
show_file "$T/nv.txt"
assert_contains "nv: percent used from the health log" \
    "$(grep 'percent used:' "$T/nv.txt")" "[NVMe SMART / Health log]"
assert_contains "nv: media errors from the health log" \
    "$(grep 'media errors:' "$T/nv.txt")" "[NVMe SMART / Health log]"
$CTL smart sata >"$T/sata.txt" 2>&1
assert_rc "ssdctl smart sata (text)" 0 $? "$T/sata.txt"
show_file "$T/sata.txt"
# QEMU's disk is not in smartctl's database: standard attributes only
assert_eq "sata: in smartctl's database" false \
    "$(python3 -c 'import json,sys; print(str(json.load(open(sys.argv[1]))["in_smartctl_database"]).lower())' "$T/ref-sata.json")"
assert_contains "sata: reallocated from attribute 5" \
    "$(grep 'reallocated:' "$T/sata.txt")" "[attribute 5 Reallocated_Sector_Ct]"
assert_contains "sata: device written unknown, and why" \
    "$(grep 'device written:' "$T/sata.txt")" "unknown (not in smartctl's database)"
assert_contains "sata: the JSON carries the sources" \
    "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["latest"]["sources"])' "$T/sata.json")" \
    "attribute 5 Reallocated_Sector_Ct"

log "snapshots, events and status"
assert_eq "smart.jsonl baseline lines (nv)" 1 \
    "$(grep -c '"why":"baseline"' "$S/nv/smart.jsonl")"
assert_eq "smart_baseline events (nv)" 1 \
    "$(ev_count "$S/nv/events.jsonl" 0 event=smart_baseline)"
assert_eq "smart_mismatch events (nv)" 0 \
    "$(ev_count "$S/nv/events.jsonl" 0 event=smart_mismatch)"
$CTL status >"$T/status.txt" 2>&1
show_file "$T/status.txt"
assert_contains "status shows NVMe wear" "$(grep '^nv ' "$T/status.txt")" " 0% "
assert_contains "status shows NVMe temperature" "$(grep '^nv ' "$T/status.txt")" " 50C "
$CTL --json status nv | python3 -c '
import json, sys
s = json.load(sys.stdin)["drives"][0]["smart"]
assert s is not None and s["temperature_c"] == 50 and s["critical_warning"] == 0, s
' >"$T/st.log" 2>&1
assert_rc "Status carries smart for nv" 0 $? "$T/st.log"

log "no OCP C0h log on QEMU's NVMe: its figures unknown, and why"
OCP_WHY="unknown (no OCP C0h log: the log page is not supported)"
$CTL --json status nv sata | python3 -c '
import json, sys
why = sys.argv[1]
d = {x["name"]: x["smart"] for x in json.load(sys.stdin)["drives"]}
nv, sata = d["nv"], d["sata"]
assert nv["ocp_source"] == why, nv
for k in ("ocp_erase_count_max", "ocp_erase_count_min", "ocp_throttle_events",
          "ocp_throttle_status", "ocp_media_bytes_read", "ocp_log_version"):
    assert k in nv and nv[k] is None, (k, nv)
assert not [k for k in sata if k.startswith("ocp_")], sata
' "$OCP_WHY" >"$T/ocp.log" 2>&1
assert_rc "Status: nv OCP figures null with ocp_source, none for sata" 0 $? "$T/ocp.log"
$CTL status nv >"$T/nv-status.txt" 2>&1
show_file "$T/nv-status.txt"
assert_contains "status nv: erase counts beside wear, unknown and why" \
    "$(grep 'wear:' "$T/nv-status.txt")" "0%; erase counts $OCP_WHY"
assert_contains "status nv: throttling beside temperature, unknown and why" \
    "$(grep 'temperature:' "$T/nv-status.txt")" "50C; throttling $OCP_WHY"
assert_contains "smart nv: erase count unknown and why" \
    "$(grep 'erase count (max):' "$T/nv.txt")" "$OCP_WHY"
assert_contains "smart nv: one line for the missing log" \
    "$(grep 'OCP C0h log:' "$T/nv.txt")" "$OCP_WHY"
assert_contains "smart nv: NAND written unknown, and why" \
    "$(grep 'NAND written:' "$T/nv.txt")" "$OCP_WHY"
assert_eq "smart.jsonl baseline: OCP figures null, and why" "None $OCP_WHY" \
    "$(grep '"why":"baseline"' "$S/nv/smart.jsonl" | python3 -c '
import json, sys
s = json.loads(sys.stdin.readline())["smart"]
print(s["ocp_erase_count_max"], s["sources"]["ocp_erase_count_max"])')"
kill -TERM "$SSDT_PID"
wait_pid "$SSDT_PID" 10
assert_rc "SIGTERM" 0 "$RC" "$T/d.log"
finish
