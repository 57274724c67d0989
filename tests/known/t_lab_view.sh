#!/bin/bash
# run: heavy
# The lab-wide view (prometheus/, grafana/) against a live daemon: the
# alerting rules pass `promtool check rules` and `promtool test rules`
# (their series, firing and not firing, in prometheus/), and every metric
# family a rule or a query of the Grafana dashboard names is one the
# textfile of a running daemon exports (tests/known/lab_names.py): the
# daemon writes SMART (the 600p-like drive's, through smart_command), its
# thermal counters and a rated_tbw, as a lab's drives would have them.
# Heavy: its drive writes at full speed through FUSE, so it never runs
# beside a test that measures speeds (tests/lib/jobs.sh).
. "$(dirname "$0")/lib.sh"
need_root

PROMTOOL=$(command -v promtool) || die "promtool missing (tests/deps.sh)"
"$PROMTOOL" check rules "$ROOT/prometheus/ssdtorture.rules.yml" >"$T/check.out" 2>&1
assert_rc "promtool check rules" 0 $? "$T/check.out"
(cd "$ROOT/prometheus" && "$PROMTOOL" test rules ssdtorture.rules.test.yml) \
    >"$T/test.out" 2>&1
assert_rc "promtool test rules (every rule firing and not)" 0 $? "$T/test.out"

sim_start a intel-600p-demo
ST=$T/state
{
	printf 'prometheus_textfile = %s\n\n' "$T/m.prom"
	cat <<EOC
[drive:a]
device = $SIM_FILE
serial = none
block_size = 128k
queue_depth = 4
order = sequential
static_fraction = 0.25
idle = 1s
cycles = 0
rated_tbw = 1TB
smart_command = $SSDSIM smart --control $SIM_CTL
smart_interval = 5s
thermal_interval = 1s
checkpoint = off
EOC
} | write_conf "$T/a.conf" "$ST"
start_ssdt "$T/a.log" -c "$T/a.conf"
# the textfile, once it holds the figures that need two SMART readings
has_all() {
	grep -q '^ssdtorture_smart_write_amplification{' "$T/m.prom" 2>/dev/null &&
	    grep -q '^ssdtorture_smart_thermal_seconds_total{' "$T/m.prom"
}
for _ in $(seq 1 120); do
	has_all && break
	pid_alive "$SSDT_PID" || break
	sleep 0.5
done
has_all || { show_file "$T/a.log"; show_file "$T/m.prom"; }
assert_rc "a textfile with SMART's figures" 0 "$(has_all; echo $?)"
cp "$T/m.prom" "$T/live.prom" 2>/dev/null
kill_and_reap TERM "$SSDT_PID"
assert_rc "ssdtortured stopped" 0 "$RC" "$T/a.log"
python3 "$KA_DIR/lab_names.py" "$T/live.prom" \
    "$ROOT/prometheus/ssdtorture.rules.yml" "$ROOT/grafana/ssdtorture.json" \
    >"$T/names.out" 2>&1
rc=$?
show_file "$T/names.out"
assert_rc "every family the rules and the dashboard name is exported" 0 "$rc" \
    "$T/names.out"
finish
