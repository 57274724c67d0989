#!/bin/bash
# smart_command on a file target (which has no SMART of its own): a script
# prints smartctl's NVMe JSON with a simulated drive's NAND counter; Status
# shows its figures and the write amplification they give, ssdctl smart
# says what read them. A command that fails, prints garbage or hangs past
# smartctl's deadline (60 s) is a smart_error event with the reason, the
# drive goes on writing, and the next good reading is taken.
. "$(dirname "$0")/lib.sh"

CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
ST=$T/state
S=$ST/a/state EV=$ST/a/events.jsonl
echo ok >"$T/mode"
: >"$T/calls"

# each call: 1000 more data units (512,000 bytes each) and twice that to
# NAND, so the write amplification between any two readings is 2
cat >"$T/smart.sh" <<EOF
#!/bin/bash
printf '%s\n' "\$*" >"$T/argv"
echo x >>"$T/calls"
n=\$(wc -l <"$T/calls")
# a bad mode is for one call: the next reading is good again
mode=\$(cat "$T/mode")
echo ok >"$T/mode"
case \$mode in
fail)	echo "no such bridge" >&2; exit 3 ;;
garbage) echo "SMART support is: Unavailable"; exit 0 ;;
hang)	exec sleep 600 ;;
esac
u=\$((n * 1000))
cat <<J
{"smartctl":{"version":[7,3],"exit_status":0},
 "device":{"name":"sim","protocol":"NVMe"},
 "model_name":"SIM 600P","serial_number":"S1","firmware_version":"F1",
 "nvme_smart_health_information_log":{"critical_warning":0,
  "temperature":41,"available_spare":100,"available_spare_threshold":10,
  "percentage_used":7,"data_units_written":\$u,"data_units_read":5,
  "media_errors":2,"unsafe_shutdowns":1,"power_cycles":3},
 "ssdsim_nand":{"host_bytes_written":\$((u * 512000)),
  "nand_bytes_written":\$((u * 1024000))}}
J
EOF
chmod +x "$T/smart.sh"

write_conf "$T/c.conf" "$ST" <<EOF
[drive:a]
checkpoint = off
device = $T/a.img
size = 64M
block_size = 64k
cycles = 0
idle = 1s
smart_interval = 5s
smart_command = $T/smart.sh --json -a 'two words' -d\\ sat
EOF
run_ssdt "$T/n.log" -c "$T/c.conf" -n
assert_rc "-n" 0 "$RC" "$T/n.log"
assert_eq "-n shows the command as written" \
    "$T/smart.sh --json -a 'two words' -d\\ sat" \
    "$(sed -n 's/^ *smart_command *= //p' "$T/n.log")"

start_ssdt "$T/d.log" -c "$T/c.conf"
ASSERT_LOG=$T/d.log

# status --json A: the drive's Status object, in one line
status() {
	"$CTL" -s "$ST.sock" --json status a | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d["drives"][0] if "drives" in d else d
print(json.dumps(d.get("smart"), sort_keys=True))'
}
# wait_readings N TIMEOUT: until the command was called N times
wait_calls() {
	local i
	for i in $(seq 1 $(($2 * 10))); do
		[ "$(wc -l <"$T/calls")" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
wait_waf() {
	local i
	for i in $(seq 1 $(($1 * 10))); do
		status | grep -q '"waf": 2.0' && return 0
		sleep 0.1
	done
	return 1
}

wait_waf 30 || fail "no write amplification in Status after 30 s: $(status)"
sm=$(status)
log "Status smart: $sm"
assert_match "Status: percent used" '"percent_used": 7' "$sm"
assert_match "Status: spare" '"available_spare": 100' "$sm"
assert_match "Status: temperature" '"temperature_c": 41' "$sm"
assert_match "Status: media errors" '"media_errors": 2' "$sm"
assert_match "Status: critical warning" '"critical_warning": 0' "$sm"
assert_eq "Status: NAND bytes written (ssdsim_nand) = 2 x device bytes" 0 \
    "$(python3 -c 'import json,sys; d = json.loads(sys.argv[1]); print(d["nand_bytes_written"] - 2 * d["device_bytes_written"])' "$sm")"
assert_match "Status: waf = NAND / host growth = 2" '"waf": 2.0' "$sm"
assert_match "Status: no reallocated count on NVMe" '"reallocated": null' "$sm"
assert_eq "the arguments, unquoted" "--json -a two words -d sat" "$(cat "$T/argv")"
"$CTL" -s "$ST.sock" --json smart a >"$T/smart.json" 2>&1
assert_rc "ssdctl smart" 0 $? "$T/smart.json"
assert_eq "ssdctl smart: read with the command" "smart_command $T/smart.sh" \
    "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["latest"]["read_with"])' "$T/smart.json")"
assert_eq "ssdctl smart: decoded as NVMe" nvme \
    "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["latest"]["source"])' "$T/smart.json")"
"$CTL" -s "$ST.sock" smart a >"$T/smart.txt" 2>&1
assert_file_contains "ssdctl smart: what read it" "$T/smart.txt" \
    "SIM 600P S1, firmware F1 (nvme, read with smart_command $T/smart.sh)"
assert_eq "the baseline event says what read it" 1 \
    "$(ev_query "$EV" 0 message event=smart_baseline | grep -c "(smart_command $T/smart.sh)")"

# bad_reading MODE TEXT TIMEOUT: a smart_error with TEXT, the drive goes on,
# then a good reading again
n_err=0
bad_reading() {
	local calls w0 i
	calls=$(wc -l <"$T/calls")
	w0=$(state_get "$S" host_bytes_written)
	echo "$1" >"$T/mode"
	n_err=$((n_err + 1))
	for i in $(seq 1 $(($3 * 10))); do
		[ "$(ev_count "$EV" 0 event=smart_error)" -ge "$n_err" ] && break
		sleep 0.1
	done
	assert_eq "$1: smart_error events" "$n_err" "$(ev_count "$EV" 0 event=smart_error)"
	assert_eq "$1: the reason" 1 "$(ev_query "$EV" 0 message event=smart_error |
	    tail -n 1 | grep -cF -- "$2")"
	assert_eq "$1: the drive runs" running "$(state_get "$S" run)"
	for i in $(seq 1 100); do
		[ "$(state_get "$S" host_bytes_written)" -gt "$w0" ] && break
		sleep 0.1
	done
	assert_gt "$1: the drive wrote on" "$(state_get "$S" host_bytes_written)" "$w0"
	wait_calls $((calls + 2)) 20 || fail "$1: no reading after it"
}
bad_reading fail "SMART read failed: smart_command $T/smart.sh: no output" 20
bad_reading garbage "SMART read failed: smart_command $T/smart.sh: smartctl output is not a JSON object" 20
bad_reading hang "SMART read failed: smart_command $T/smart.sh: timed out after 60 s" 90
wait_waf 20 || fail "no write amplification after the errors: $(status)"
kill_and_reap TERM "$SSDT_PID"
assert_eq "SIGTERM: exit 0" 0 "$RC"
finish
