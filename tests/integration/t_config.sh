#!/bin/bash
# The configuration: -n prints the plan of a valid file and "configuration
# OK", with every key the parser takes (ssdtortured --list-keys) and
# its value, defaults included, in the file's own syntax; an invalid file
# gets every error as FILE:LINE: message; SIGHUP with
# a broken file keeps the running configuration, with a good one applies
# it (a finished drive whose cycles were raised goes on).
. "$(dirname "$0")/lib.sh"

# "SECTION KEY RELOAD" for every key the parser accepts
KEYS=$("$SSDT" --list-keys)
[ "$(wc -l <<<"$KEYS")" -ge 20 ] || die "ssdtortured --list-keys lists no key table"
# the value -n shows for KEY in a block of its output: kv BLOCK KEY
kv() { sed -n "s/^  $2 *= //p" <<<"$1"; }
# a block of -n's output: the daemon's, or a drive's
daemon_block() { sed -n '/^daemon$/,/^drive /p' "$1"; }
drive_block() { sed -n "/^drive $2\$/,/^\(drive \|configuration OK\)/p" "$1"; }

# ---------------------------------------------------------------- valid, -n
log "-n on a valid configuration"
write_conf "$T/ok.conf" "$T/state_ok" <<EOF
# two drives
[drive:alpha]
device = $T/alpha.img
size = 64M
block_size = 4k
order = random
queue_depth = 16
static_fraction = 0.25
trim = no
idle = 30s
cycles = 3
stop_at_tbw = 1.5TB

[drive:beta]
device = $T/beta.img
size = 32M
block_size = 64k
EOF
run_ssdt "$T/ok.out" -c "$T/ok.conf" -n
assert_rc "-n exit status" 0 "$RC" "$T/ok.out"
OUT=$(cat "$T/ok.out")
assert_eq "last line" "configuration OK" "$(tail -n 1 "$T/ok.out")"
assert_contains "-n names drive alpha" "$OUT" "drive alpha"
assert_contains "-n names drive beta" "$OUT" "drive beta"
alpha=$(drive_block "$T/ok.out" alpha)
beta=$(drive_block "$T/ok.out" beta)
assert_eq "alpha: blocks" 16384 "$(awk '$1 == "blocks" { print $2 }' <<<"$alpha")"
assert_eq "alpha: static area" 4096 "$(awk '$1 == "static" && $2 == "area" { print $3 }' <<<"$alpha")"
assert_eq "alpha: dynamic area" 12288 "$(awk '$1 == "dynamic" && $2 == "area" { print $3 }' <<<"$alpha")"
assert_eq "alpha: order" random "$(kv "$alpha" order)"
assert_eq "alpha: queue_depth" 16 "$(kv "$alpha" queue_depth)"
assert_eq "alpha: cycles" 3 "$(kv "$alpha" cycles)"
assert_eq "beta: blocks (64k)" 512 "$(awk '$1 == "blocks" { print $2 }' <<<"$beta")"
assert_eq "beta: static area (default 0.25)" 128 "$(awk '$1 == "static" && $2 == "area" { print $3 }' <<<"$beta")"
assert_eq "beta: order (default)" sequential "$(kv "$beta" order)"
assert_eq "beta: queue_depth (default)" 32 "$(kv "$beta" queue_depth)"
assert_eq "beta: cycles (default: 0, forever)" 0 "$(kv "$beta" cycles)"

# every key the parser takes, once, with a value: defaults included
daemon=$(daemon_block "$T/ok.out")
while read -r sec key _; do
	case $sec in
	daemon) blocks=("$daemon") ;;
	*) blocks=("$alpha" "$beta") ;;
	esac
	for b in "${blocks[@]}"; do
		assert_eq "-n shows $sec key '$key' once ($(head -n 1 <<<"$b"))" 1 \
		    "$(grep -c "^  $key *= ." <<<"$b")"
	done
done <<<"$KEYS"

# the values are in the file's own syntax: the key lines of -n, made into
# a file again, read back the same (optional keys not set are left out)
{
	echo "[daemon]"
	grep '^  [a-z_]* *= ' <<<"$daemon" | grep -v '= (not set)$'
	for d in alpha beta; do
		echo "[drive:$d]"
		grep '^  [a-z_]* *= ' <<<"$(drive_block "$T/ok.out" $d)" |
		    grep -v '= (not set)$'
	done
} >"$T/again.conf"
run_ssdt "$T/again.out" -c "$T/again.conf" -n
assert_rc "-n on its own key lines" 0 "$RC" "$T/again.out"
assert_eq "the key lines read back the same" \
    "$(grep '^  [a-z_]* *= ' "$T/ok.out")" \
    "$(grep '^  [a-z_]* *= ' "$T/again.out")"

# ------------------------------------------------------------ every key, -n
# A file that sets every key the parser takes to something other than its
# default, spelt as -n spells it: -n must show each value as written.
log "-n shows every key as set"
write_conf "$T/full.conf" "$T/state_full" <<EOF
socket_group = root
admin_group = daemon
max_connections = 7
client_timeout = 45s
rrdcached = unix:$T/rrd.sock
rrdcached_dir = $T/rrd
prometheus_textfile = $T/ssdt.prom

[drive:full]
device = $T/full.img
size = 64M
serial = SER-123
span = 50%
prepare = trim
order = random
block_size = 8K
queue_depth = 4
static_fraction = 0.1
trim = no
idle = 1m30s
cycles = 5
stop_at_tbw = 1500GB
on_io_error = continue
on_lost_flush = fail
power_cut_command = $T/cut.sh
power_cut_every = 3
power_cut_timeout = 5m
autostart = no
smart = off
smart_interval = 2h
smart_command = /usr/sbin/smartctl -d sat --json -a /dev/sdz
smart_device_type = areca,3/1
thermal_interval = 1m30s
snapshot_every = 500GB
rated_tbw = 1200TB
stop_at_wear = 90
max_new_bad_blocks = 3
io_timeout = 1d1s
reservation = yes
max_error_events = 50
max_bad_fraction = 5%
timeline_every = 7
max_unrecorded = 2m30s
checkpoint = full
checkpoint_every = 2TB
checkpoint_region = 8G
probe_seconds = 1m30s
probe_ramp = 0s
probe_wait = poll
checkpoint_probes = rand, desktop
full_checkpoint_every = 50TB
full_checkpoint_tests = degrade,cache
degrade_duration = 1h30m
degrade_round = 30s
gc_idle = 0s
recovery_duration = 45s
thermal_duration = 5m
EOF
run_ssdt "$T/full.out" -c "$T/full.conf" -n
assert_rc "-n on a file with every key" 0 "$RC" "$T/full.out"
assert_eq "the file sets every key the parser takes" \
    "$(cut -d' ' -f2 <<<"$KEYS" | sort | xargs)" \
    "$(sed -n 's/^\([a-z_]*\) = .*/\1/p' "$T/full.conf" | sort | xargs)"
fdaemon=$(daemon_block "$T/full.out")
fdrive=$(drive_block "$T/full.out" full)
while read -r sec key _; do
	want=$(sed -n "s/^$key = //p" "$T/full.conf")
	if [ "$sec" = daemon ]; then b=$fdaemon; else b=$fdrive; fi
	assert_eq "-n: $sec key $key" "$want" "$(kv "$b" "$key")"
done <<<"$KEYS"
# -n touches nothing
if [ -e "$T/alpha.img" ]; then fail "-n created the target file"; else pass_check; fi
if [ -e "$T/state_ok" ]; then fail "-n created the state directory"; else pass_check; fi

# ---------------------------------------------------------------- errors
# Lines marked "!" must each be reported (and no other line).
log "-n on a configuration with many errors"
truncate -s 64M "$T/one.img"
LINES=(
	"!orphan = 1"
	"[daemon]"
	"!state_dir = relative/state"
	"!bogus_daemon_key = 1"
	""
	"[drive:one]"
	"device = $T/one.img"
	"!size = 64Q"
	"block_size = 4k"
	"!order = diagonal"
	"!queue_depth = 0"
	"!colour = blue"
	"!static_fraction = 2"
	"!trim = maybe"
	"!cycles = -1"
	"!stop_at_tbw = lots"
	"!on_io_error = explode"
	"!on_lost_flush = stop"
	"!power_cut_command = cut.sh"
	"!power_cut_every = never"
	"!power_cut_timeout = 0s"
	"!idle = soon"
	"!probe_wait = spin"
	"!prepare = erase"
	"!smart_device_type = -d"
	"!block_size = 8k"
	"!this line has no equals sign"
	"!autostart = perhaps"
	"; a comment"
	"!["
	"!"'[frobnicate]'
	"whatever = 1"
	"!"'[drive:bad name]'
	"!"'[drive:nodev]'
	"size = 64M"
	"block_size = 4k"
	"!"'[drive:odd]'
	"device = $T/odd.img"
	"size = 10000"
	"block_size = 4k"
	"!"'[drive:one]'
	"device = /dev/null"
)
: >"$T/bad.conf"
EXPECT=()
n=0
for l in "${LINES[@]}"; do
	n=$((n + 1))
	case $l in
	'!'*) EXPECT+=("$n"); l=${l#!} ;;
	esac
	printf '%s\n' "$l" >>"$T/bad.conf"
done
run_ssdt "$T/bad.out" -c "$T/bad.conf" -n
assert_rc "-n exit status" 1 "$RC" "$T/bad.out"
got=$(sed -n "s|^$T/bad.conf:\([0-9]*\): .*|\1|p" "$T/bad.out" | sort -n | uniq | xargs)
assert_eq "lines reported" "${EXPECT[*]}" "$got"
assert_not_contains "no 'configuration OK'" "$(cat "$T/bad.out")" "configuration OK"
# a few messages word for word
for pair in \
    "1|outside of any section" \
    "3|absolute path" \
    "4|unknown key 'bogus_daemon_key'" \
    "12|unknown key 'colour'" \
    "23|'spin': expected sleep or poll" \
    "24|'erase': expected none, trim, format or sanitize" \
    "25|'-d': expected a smartctl device type" \
    "26|duplicate key 'block_size'" \
    "31|unknown section [frobnicate]" \
    "34|'device' is required" \
    "37|not a multiple of block_size" \
    "41|already defined at line 6"; do
	ln=${pair%%|*} msg=${pair#*|}
	assert_contains "message of line $ln" \
	    "$(grep "^$T/bad.conf:$ln: " "$T/bad.out")" "$msg"
done
if grep -q '(null)' "$T/bad.out"; then
	fail "-n prints '(null)' for a drive without a device"
else pass_check; fi
# nothing but errors, the plan and the total on the output
total=$(grep -c "^$T/bad.conf:[0-9]*: " "$T/bad.out")
assert_ge "error lines" "$total" "${#EXPECT[@]}"

# without -n the daemon does not start, and writes nothing
run_ssdt "$T/bad.run" -c "$T/bad.conf" --oneshot
assert_rc "start with a broken configuration" 1 "$RC" "$T/bad.run"
assert_file_contains "start: says it does not start" "$T/bad.run" "not starting"
assert_eq "start: every error is printed" "${EXPECT[*]}" \
    "$(sed -n "s|^$T/bad.conf:\([0-9]*\): .*|\1|p" "$T/bad.run" | sort -n | uniq | xargs)"
if [ -e "$T/odd.img" ]; then fail "the broken configuration created a target"; else pass_check; fi
assert_eq "one.img untouched" 0 "$(alloc_bytes "$T/one.img")"

log "-n: power_cut_every without power_cut_command"
write_conf "$T/cutless.conf" "$T/state_cutless" <<EOF
[drive:cutless]
checkpoint = off
device = $T/cutless.img
size = 32M
power_cut_every = 2
EOF
run_ssdt "$T/cutless.out" -c "$T/cutless.conf" -n
assert_rc "-n: power_cut_every alone" 1 "$RC" "$T/cutless.out"
assert_file_contains "-n: ... says what it needs" "$T/cutless.out" \
    "power_cut_every needs power_cut_command"

log "-n: one rule for zero"
# 0 where the key gives it no meaning is refused, naming how to leave the
# key unset; where the key says what 0 means, it is taken
write_conf "$T/zero.conf" "$T/state_zero" <<EOF
[drive:zero]
checkpoint = off
device = $T/zero.img
size = 32M
stop_at_tbw = 0
rated_tbw = 0TB
snapshot_every = 0
stop_at_wear = 0
cycles = 0
max_bad_fraction = 0
EOF
run_ssdt "$T/zero.out" -c "$T/zero.conf" -n
assert_rc "-n: keys set to 0" 1 "$RC" "$T/zero.out"
for pair in "8|stop_at_tbw: '0': must be above 0; to leave it unset, leave the key out" \
    "9|rated_tbw: '0TB': must be above 0; to leave it unset, leave the key out" \
    "10|snapshot_every: '0': must be above 0; for the default (1TB), leave the key out" \
    "11|stop_at_wear: '0': must be above 0; to leave it unset, leave the key out"; do
	ln=${pair%%|*} msg=${pair#*|}
	assert_contains "zero: message of line $ln" \
	    "$(grep "^$T/zero.conf:$ln: " "$T/zero.out")" "$msg"
done
assert_eq "zero: only those four lines refused" "8 9 10 11" \
    "$(sed -n "s|^$T/zero.conf:\([0-9]*\): .*|\1|p" "$T/zero.out" | xargs)"

# ---------------------------------------------------------------- SIGHUP
log "SIGHUP: broken configuration kept out, raised cycles applied"
ST=$T/state_hup
S=$ST/h/state
EV=$ST/h/events.jsonl
hup_conf() {	# CYCLES BLOCK_SIZE [extra line]
	write_conf "$T/hup.conf" "$ST" <<EOF
[drive:h]
checkpoint = off
device = $T/h.img
size = 32M
block_size = $2
trim = no
cycles = $1
${3:-}
EOF
}
hup_conf 1 4k
start_ssdt "$T/hup.log" -c "$T/hup.conf"
wait_state "$S" "$SSDT_PID" 60 's["run"] == "finished" and s["cycles_done"] == 1' ||
    die "the drive did not finish its cycle"
wait_log "$T/hup.log" "started:" 10 "$SSDT_PID" || die "no 'started' line"

# a broken file: the daemon keeps running on the old one
hup_conf 1 4k "frobnicate = yes"
bad_line=$(grep -n '^frobnicate' "$T/hup.conf" | cut -d: -f1)
kill -HUP "$SSDT_PID"
wait_log "$T/hup.log" "running configuration is kept" 10 "$SSDT_PID" ||
    fail "no 'running configuration is kept' after a broken reload"
sleep 0.5
if pid_alive "$SSDT_PID"; then pass_check; else fail "the daemon died on a broken reload"; fi
assert_file_contains "the reload names the error" "$T/hup.log" \
    "$T/hup.conf:$bad_line: unknown key 'frobnicate'"
assert_eq "run after the broken reload" finished "$(state_get "$S" run)"

# a reload that changes the layout is refused for that drive
hup_conf 1 8k
kill -HUP "$SSDT_PID"
wait_log "$T/hup.log" "block_size cannot change" 10 "$SSDT_PID" ||
    fail "no complaint about a block_size change on reload"
sleep 0.2
if pid_alive "$SSDT_PID"; then pass_check; else fail "the daemon died on a layout reload"; fi

assert_eq "run after the layout reload" finished "$(state_get "$S" run)"

# a good file that raises cycles: the finished drive runs cycle 2
hup_conf 2 4k
kill -HUP "$SSDT_PID"
wait_state "$S" "$SSDT_PID" 60 's["cycles_done"] == 2 and s["run"] == "finished"' ||
    fail "the drive did not run cycle 2 after the reload"
assert_file_contains "the reload was applied" "$T/hup.log" "applied"
assert_eq "running event with the reload's reason" 1 \
    "$(ev_count "$EV" 0 event=running "reason=stop condition raised by reload")"
assert_eq "errors after cycle 2" "0 0 0 0 0 0 0" "$(for c in corrupt misdirected \
    stale foreign unwritten io_error lost_flush; do state_get "$S" errors.$c; done | xargs)"
assert_eq "block_size kept" 4096 "$(state_get "$S" block_size)"

kill -TERM "$SSDT_PID"
wait_exit "$SSDT_PID" 10
assert_rc "exit after SIGTERM" 0 "$RC" "$T/hup.log"

finish
