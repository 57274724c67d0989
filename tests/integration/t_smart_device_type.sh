#!/bin/bash
# smart_device_type: a drive behind a controller or bridge, read with
# smartctl -d TYPE. On a loop device (no SMART of its own) with a stand-in
# smartctl first in PATH: sntjmicron (a USB bridge to an NVMe drive) runs
# `smartctl --json -a -d sntjmicron DEVICE` (no ATA log), its NVMe output
# reaches Status and ssdctl smart says "read with smartctl -d sntjmicron";
# sat runs `smartctl --json -a -l devstat -d sat DEVICE`. A type that is
# not one (an option, a shell word, upper case) is refused by -n with the
# reason; without the key the loop device is not read at all.
. "$(dirname "$0")/lib.sh"
need_root

CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
ST=$T/state
mkdir -p "$T/bin"
: >"$T/argv"
{
	echo '#!/bin/bash'
	echo "printf '%s\\n' \"\$*\" >>'$T/argv'"
	echo "cat <<'JSON'"
	cat <<'JSON'
{"smartctl":{"version":[7,3],"exit_status":0},
 "device":{"name":"bridge","protocol":"NVMe"},
 "model_name":"BRIDGED NVME","serial_number":"B1","firmware_version":"F1",
 "nvme_smart_health_information_log":{"critical_warning":0,
  "temperature":38,"available_spare":100,"available_spare_threshold":10,
  "percentage_used":9,"data_units_written":100,"data_units_read":5,
  "media_errors":0,"unsafe_shutdowns":1,"power_cycles":3}}
JSON
	echo 'JSON'
} >"$T/bin/smartctl"
chmod +x "$T/bin/smartctl"
truncate -s 64M "$T/lo.img"
new_loop "$T/lo.img"

# conf TYPE: the drive's section with smart_device_type = TYPE (none: -)
conf() {
	{
		printf '[drive:a]\ncheckpoint = off\ndevice = %s\nserial = none\n' "$LOOPDEV"
		printf 'block_size = 64k\ncycles = 0\nidle = 1s\n'
		printf 'smart_interval = 5s\n'
		[ "$1" = - ] || printf 'smart_device_type = %s\n' "$1"
	} | write_conf "$T/c.conf" "$ST"
}
status_smart() {
	"$CTL" -s "$ST.sock" --json status a 2>/dev/null | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except ValueError:
    sys.exit(0)
d = d["drives"][0] if "drives" in d else d
print(json.dumps(d.get("smart"), sort_keys=True))'
}
# run_type TYPE SECONDS: the daemon with TYPE until a reading (or SECONDS)
run_type() {
	local i
	: >"$T/argv"
	conf "$1"
	PATH="$T/bin:$PATH" start_ssdt "$T/$1.log" -c "$T/c.conf"
	for i in $(seq 1 $(($2 * 10))); do
		status_smart | grep -q '"percent_used": 9' && break
		sleep 0.1
	done
}

run_type sntjmicron 20
assert_match "sntjmicron: the bridged drive's SMART in Status" \
    '"percent_used": 9' "$(status_smart)"
assert_eq "sntjmicron: smartctl's arguments (no ATA log)" \
    "--json -a -d sntjmicron $LOOPDEV" "$(head -n 1 "$T/argv")"
"$CTL" -s "$ST.sock" --json smart a >"$T/smart.json" 2>&1
assert_eq "ssdctl smart: read with smartctl -d sntjmicron" \
    "smartctl -d sntjmicron" "$(python3 -c 'import json,sys
print(json.load(open(sys.argv[1]))["latest"]["read_with"])' "$T/smart.json")"
kill_and_reap TERM "$SSDT_PID"
assert_rc "sntjmicron: stopped" 0 "$RC" "$T/sntjmicron.log"

run_type sat 20
assert_eq "sat: smartctl's arguments (with the device statistics)" \
    "--json -a -l devstat -d sat $LOOPDEV" "$(head -n 1 "$T/argv")"
kill_and_reap TERM "$SSDT_PID"

run_type - 4
assert_eq "no smart_device_type: a loop device is not read" 0 \
    "$(wc -l <"$T/argv")"
kill_and_reap TERM "$SSDT_PID"

for bad in "-d" "megaraid;reboot" "SAT" "a b" "sat,0,\$(id)"; do
	conf "$bad"
	run_ssdt "$T/n.log" -c "$T/c.conf" -n
	assert_rc "-n refuses smart_device_type = $bad" 1 "$RC" "$T/n.log"
	assert_file_contains "  with the reason" "$T/n.log" \
	    "expected a smartctl device type"
done
finish
