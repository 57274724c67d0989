#!/bin/bash
# vm-mode: systemd
# run: serial (bounds of 90 and 180 s on a long guest)
# systemd as PID 1: systemd/ssdtortured.service and ssdtortured.socket as
# shipped (ExecStart pointed at the freshly built daemon), a file-target
# drive, the emulated NVMe drive and the SATA disk. Type=notify start
# (READY=1), STATUS= text, whole torture runs (write, verify, trim, SMART
# through libnvme and through smartctl) on the NVMe and SATA drives with
# every hardening option of the unit on, reload (SIGHUP),
# structured journal fields (DRIVE=), stop within TimeoutStopSec with the
# state saved, socket activation by ssdctl, the watchdog restarting a
# stopped (SIGSTOP) daemon, and a remote rrdcached (127.0.0.1) refused by
# RestrictAddressFamilies= until a drop-in allows IP.
# shellcheck source=tests/vm/guest/lib.sh disable=SC2317,SC2012
. "$(dirname "$0")/lib.sh"

UNIT=ssdtortured
SD=/etc/systemd/system
CONF=/etc/ssdtorture/ssdtortured.conf
STATE=/var/lib/ssdtorture/scratch/state
DAEMON=$ROOT/daemon/ssdtortured
CTL=$ROOT/ctl/ssdctl

now_ns() { date +%s%N; }
secs_since() { awk -v ns="$(($(now_ns) - $1))" 'BEGIN { printf "%.1f", ns / 1e9 }'; }
prop() { systemctl show -p "$2" --value "$1"; }
# journal of the unit since the test began (this boot only)
ujournal() { journalctl -b -u "$UNIT" --no-pager -o cat "$@" 2>/dev/null; }
status_has_drives() { prop "$UNIT" StatusText | grep -q 'drives:'; }
journal_has() { ujournal | grep -qF -- "$1"; }
drive_entries() { [ "$(journalctl -b -u "$UNIT" DRIVE=scratch --no-pager -o cat | wc -l)" -gt 0 ]; }
is_active() { [ "$(systemctl is-active "$1")" = active ]; }

assert_eq "PID 1" systemd "$(cat /proc/1/comm)"
note "system state: $(systemctl is-system-running 2>&1)"

# ------------------------------------------------------------ install
systemd-sysusers "$ROOT/systemd/ssdtorture.sysusers" ||
    groupadd -r ssdtorture
assert_contains "ssdtorture group (systemd-sysusers)" "$(getent group ssdtorture)" "ssdtorture:"

sed "s|^ExecStart=/usr/local/sbin/ssdtortured |ExecStart=$DAEMON |" \
    "$ROOT/systemd/ssdtortured.service" >"$SD/ssdtortured.service"
cp "$ROOT/systemd/ssdtortured.socket" "$SD/ssdtortured.socket"
assert_contains "ExecStart rewritten" "$(grep '^ExecStart=' "$SD/ssdtortured.service")" \
    "ExecStart=$DAEMON -c $CONF"
# the drive's file needs O_DIRECT, which the guest's root (an overlay with
# a tmpfs upper layer; tmpfs has no O_DIRECT before Linux 6.6) refuses with
# EINVAL: the state directory goes on ext4 on a loop device (which takes
# O_DIRECT whatever holds its backing file)
mkdir -p /var/lib/ssdtorture
truncate -s 160M /var/tmp/state.img
LOOP=$(losetup -f --show /var/tmp/state.img) &&
    mkfs.ext4 -q -F -E nodiscard "$LOOP" >"$T/mkfs.out" 2>&1 &&
    mount -t ext4 "$LOOP" /var/lib/ssdtorture >>"$T/mkfs.out" 2>&1
assert_rc "ext4 on $LOOP at /var/lib/ssdtorture" 0 $? "$T/mkfs.out"
mkdir -p /etc/ssdtorture
cat >"$CONF" <<'EOF'
[daemon]
state_dir = /var/lib/ssdtorture
socket = /run/ssdtorture/ssdtortured.sock
socket_group = ssdtorture

[drive:scratch]
checkpoint = off
device = /var/lib/ssdtorture/scratch.img
size = 64M
block_size = 128k
idle = 2s

[drive:bay0]
checkpoint = off
device = /dev/nvme0n1
serial = SSDTNVME0001
span = 48M
block_size = 128k
order = random
cycles = 2
smart_interval = 5s

[drive:sata0]
checkpoint = off
device = /dev/sda
serial = SSDTSATA0001
span = 32M
block_size = 64k
cycles = 2
smart_interval = 5s
EOF
"$DAEMON" -n -c "$CONF" >"$T/check.out" 2>&1
assert_rc "ssdtortured -n -c $CONF" 0 $? "$T/check.out"
systemctl daemon-reload
out=$(systemd-analyze verify "$SD/ssdtortured.service" "$SD/ssdtortured.socket" 2>&1)
[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/   analyze| /'

# ------------------------------------------------------------ start (Type=notify)
t0=$(now_ns)
timeout 90 systemctl start "$UNIT" >"$T/start.out" 2>&1
rc=$?
START_S=$(secs_since "$t0")
STARTED_NS=$t0
assert_rc "systemctl start $UNIT (${START_S}s)" 0 $rc "$T/start.out"
assert_eq "$UNIT ActiveState after start" active "$(prop $UNIT ActiveState)"
assert_eq "$UNIT SubState after start" running "$(prop $UNIT SubState)"
st=$(wait_for 10 status_has_drives; prop $UNIT StatusText)
assert_contains "StatusText: all three drives" "$st" "3 drives:"
assert_contains "StatusText: none refused or failed" "$st" " 0 failed;"
assert_eq "socket unit pulled in (Wants=)" active "$(systemctl is-active $UNIT.socket)"
assert_eq "socket path" socket "$(stat -c %F /run/ssdtorture/ssdtortured.sock 2>&1 | sed 's/^.*socket$/socket/')"
note "socket: $(stat -c '%A %U:%G' /run/ssdtorture/ssdtortured.sock 2>&1)"

# ------------------------------------------------------------ STATUS=
wait_for 10 status_has_drives
st=$(prop $UNIT StatusText)
assert_contains "StatusText (STATUS=)" "$st" "drives:"
# the line changes every second: its stable start only
assert_contains "systemctl status shows it" "$(systemctl status --no-pager -n 0 $UNIT 2>&1)" \
    "Status: \"${st%%:*}:"

# ------------------------------------------------------------ journal fields
if wait_for 20 drive_entries; then
	pass_check "journalctl -u $UNIT DRIVE=scratch: $(journalctl -b -u $UNIT DRIVE=scratch --no-pager -o cat | wc -l) entries"
	note "e.g. $(journalctl -b -u $UNIT DRIVE=scratch --no-pager -o cat | head -n 1)"
else
	fail "journalctl -u $UNIT DRIVE=scratch: no entries"
	ujournal -n 20 | sed 's/^/   journal| /'
fi
fields=$(journalctl -b -u $UNIT DRIVE=scratch --no-pager -o verbose -n 1 2>/dev/null |
    grep -oE '^ +[A-Z_]+=' | tr -d ' =' | tr '\n' ' ')
note "fields of one entry: $fields"
# a field is there with a value or not at all (an empty DRIVE= or OFFSET=
# on every line would make `journalctl DRIVE=` useless)
empty=$(journalctl -b -u $UNIT SYSLOG_IDENTIFIER=ssdtortured --no-pager -o json 2>/dev/null |
    python3 -c 'import json, sys
n = 0
for l in sys.stdin:
    e = json.loads(l)
    bad = [k for k in ("DRIVE", "SERIAL", "CLASS", "OFFSET", "TBW") if e.get(k) == ""]
    # a line about a drive carries its DRIVE= field
    msg = e.get("MESSAGE") or ""
    if isinstance(msg, str) and msg.split(": ", 1)[0] in ("scratch", "bay0", "sata0") and not e.get("DRIVE"):
        bad.append("no DRIVE")
    if bad:
        n += 1
        if n <= 3: print("%s in: %s" % (",".join(bad), e.get("MESSAGE")))
print(n)')
assert_eq "journal entries with an empty field, or about a drive without DRIVE=" 0 "$(printf '%s\n' "$empty" | tail -n 1)"
[ "$(printf '%s\n' "$empty" | tail -n 1)" = 0 ] || printf '%s\n' "$empty" | sed '$d; s/^/   /'

# ------------------------------------------------------------ NVMe under the hardening
NVSTATE=/var/lib/ssdtorture/bay0/state
pid=$(prop $UNIT MainPID)
sec=$(awk '$1 == "Seccomp:" || $1 == "NoNewPrivs:" || $1 == "CapBnd:" { printf "%s%s ", $1, $2 }' "/proc/$pid/status")
assert_contains "daemon runs under a seccomp filter" "$sec" "Seccomp:2"
assert_contains "daemon runs with NoNewPrivs" "$sec" "NoNewPrivs:1"
assert_eq "DevicePolicy" closed "$(prop $UNIT DevicePolicy)"
note "PID $pid: $sec; $(prop $UNIT CapabilityBoundingSet)"
note "devices allowed: $(prop $UNIT DeviceAllow | tr '\n' ',')"
run_finished() { [ "$(state_get "$1" run)" = finished ]; }
# drive_run_ok NAME DEVICE SPAN_MIB STATIC_MIB: a finished 2-cycle run
# with no error of any class, everything written, verified and trimmed
drive_run_ok() {
	local name=$1 st=/var/lib/ssdtorture/$1/state t0 k
	t0=$(now_ns)
	if wait_for 180 run_finished "$st"; then
		pass_check "$name ($2) finished 2 cycles under the hardened unit ($(secs_since "$t0")s)"
	else
		fail "$name not finished within 180 s: run=$(state_get "$st" run) reason=$(state_get "$st" reason)"
		ujournal | grep -F "$name" | tail -n 20 | sed 's/^/   journal| /'
	fi
	show_state "$st"
	assert_eq "$name cycles done" 2 "$(state_get "$st" cycles_done)"
	for k in corrupt stale io_error unwritten misdirected foreign lost_flush; do
		assert_eq "$name errors.$k" 0 "$(state_get "$st" errors.$k)"
	done
	# the static part once, the dynamic part every cycle
	assert_ge "$name host_bytes_written" "$(state_get "$st" host_bytes_written)" \
	    $((($4 + 2 * ($3 - $4)) * 1048576))
	assert_ge "$name host_bytes_read (verify)" "$(state_get "$st" host_bytes_read)" \
	    $((2 * $3 * 1048576))
	assert_gt "$name host_bytes_trimmed (discard)" "$(state_get "$st" host_bytes_trimmed)" 0
}
drive_run_ok bay0 /dev/nvme0n1 48 12
NVW=$(state_get "$NVSTATE" host_bytes_written)
"$CTL" --json smart bay0 >"$T/nv.json" 2>&1
assert_rc "ssdctl smart bay0 (libnvme under the hardening)" 0 $? "$T/nv.json"
nvme smart-log -o json /dev/nvme0 >"$T/ref-nv.json" 2>&1
py_check /dev/stdin "$T/nv.json" "$T/ref-nv.json" "${NVW:-0}" <<'PY'
import json, sys
ours = json.load(open(sys.argv[1]))["latest"]
ref = json.load(open(sys.argv[2]))
host = int(sys.argv[3])
def cmp(label, a, b):
    print(("ok" if a == b else "bad"), "SMART %s: ssdtortured %r, nvme-cli %r" % (label, a, b))
cmp("serial", ours["serial"], "SSDTNVME0001")
cmp("data units written", ours["data_units_written"], int(ref["data_units_written"]))
units = int(ref["data_units_written"])
ok = abs(units * 512000 - host) <= host / 1000 + 512000
print(("ok" if ok else "bad"), "data units written x 512000 = %d vs host_bytes_written %d" % (units * 512000, host))
PY
assert_contains "journal: bay0 finished" "$(journalctl -b -u $UNIT DRIVE=bay0 --no-pager -o cat)" "finished"
assert_contains "journal: SERIAL= on bay0 entries" \
    "$(journalctl -b -u $UNIT DRIVE=bay0 --no-pager -o verbose -n 1 2>/dev/null)" "SERIAL=SSDTNVME0001"
"$CTL" status bay0 2>&1 | head -n 30 | sed 's/^/   ssdctl| /'

# the SATA disk: SMART through smartctl, run by the daemon under the unit
drive_run_ok sata0 /dev/sda 32 8
"$CTL" --json smart sata0 >"$T/sata.json" 2>&1
assert_rc "ssdctl smart sata0 (smartctl under the hardening)" 0 $? "$T/sata.json"
smartctl --json -a /dev/sda >"$T/ref-sata.json" 2>&1
py_check /dev/stdin "$T/sata.json" "$T/ref-sata.json" <<'PY'
import json, sys
ours = json.load(open(sys.argv[1]))["latest"]
ref = json.load(open(sys.argv[2]))
def cmp(label, a, b):
    print(("ok" if a == b else "bad"), "SMART %s: ssdtortured %r, smartctl %r" % (label, a, b))
cmp("source", ours["source"], "ata")
cmp("serial", ours["serial"], ref["serial_number"])
cmp("model", ours["model"], ref["model_name"])
refattrs = {a["id"]: a for a in ref["ata_smart_attributes"]["table"]}
cmp("attribute ids", sorted(a["id"] for a in ours.get("attributes", [])), sorted(refattrs))
PY
assert_eq "journal: no smart_error for sata0" "" \
    "$(journalctl -b -u $UNIT DRIVE=sata0 --no-pager -o cat | grep -i 'smart.*fail\|smartctl:')"

# ------------------------------------------------------------ reload (SIGHUP)
pid0=$(prop $UNIT MainPID)
t0=$(now_ns)
timeout 60 systemctl reload $UNIT >"$T/reload.out" 2>&1
assert_rc "systemctl reload $UNIT ($(secs_since "$t0")s)" 0 $? "$T/reload.out"
if wait_for 10 journal_has "reload:"; then
	pass_check "journal shows: $(ujournal | grep -F 'reload:' | tail -n 1)"
else
	fail "no 'reload:' in the journal of $UNIT"
fi
assert_eq "same main PID after reload" "$pid0" "$(prop $UNIT MainPID)"
assert_eq "$UNIT active after reload" active "$(prop $UNIT ActiveState)"

# the shipped WatchdogSec=30s: the daemon alone keeps it fed for longer
# than one interval (and the drive writes on, so stop has work to save)
assert_eq "WatchdogUSec as shipped" 30s "$(prop $UNIT WatchdogUSec)"
while [ $(($(now_ns) - STARTED_NS)) -lt 36000000000 ]; do sleep 1; done
assert_eq "NRestarts after $(secs_since "$STARTED_NS")s at WatchdogSec=30s" 0 "$(prop $UNIT NRestarts)"
assert_eq "same main PID since start" "$pid" "$(prop $UNIT MainPID)"
assert_eq "no watchdog timeout in the journal" "" "$(ujournal | grep -F 'Watchdog timeout')"
note "status: $(prop $UNIT StatusText)"

# ------------------------------------------------------------ CLASS=, OFFSET=
# one byte of static block 5 of scratch changed behind the daemon's back:
# a verify finds it, and the journal entry carries the class, the offset
# and the TBW at which it was found
BLK=5
OFF=$((BLK * 131072))
PAGE=$(((OFF + 4096) / 4096))
dd if=/var/lib/ssdtorture/scratch.img of="$T/page" bs=4096 skip=$PAGE count=1 \
    iflag=direct status=none
printf '\x5a' | dd of="$T/page" bs=1 seek=100 conv=notrunc status=none
dd if="$T/page" of=/var/lib/ssdtorture/scratch.img bs=4096 seek=$PAGE count=1 \
    oflag=direct conv=notrunc status=none
assert_rc "one byte of scratch block $BLK changed" 0 $?
"$CTL" verify scratch >"$T/verify.out" 2>&1
assert_rc "ssdctl verify scratch" 0 $? "$T/verify.out"
corrupt_logged() {
	journalctl -b -u "$UNIT" CLASS=corrupt DRIVE=scratch --no-pager -o cat | grep -q .
}
if wait_for 60 corrupt_logged; then
	pass_check "journalctl -u $UNIT CLASS=corrupt DRIVE=scratch: $(journalctl -b -u $UNIT \
	    CLASS=corrupt DRIVE=scratch --no-pager -o cat | head -n 1)"
else
	fail "no CLASS=corrupt entry for scratch in the journal"
fi
ent=$(journalctl -b -u $UNIT CLASS=corrupt DRIVE=scratch --no-pager -o verbose -n 1)
assert_contains "the entry's OFFSET=" "$ent" "OFFSET=$OFF"
assert_contains "the entry has SERIAL= (none: a file target)" "$ent" "SERIAL=none"
tbw=$(printf '%s\n' "$ent" | sed -n 's/^ *TBW=//p')
assert_gt "the entry's TBW= (bytes)" "${tbw:-0}" 0
assert_eq "no entry at the next block's offset" 0 \
    "$(journalctl -b -u $UNIT CLASS=corrupt OFFSET=$((OFF + 131072)) --no-pager -o cat | wc -l)"

# ------------------------------------------------------------ stop
t0=$(now_ns)
timeout 60 systemctl stop $UNIT >"$T/stop.out" 2>&1
rc=$?
STOP_S=$(secs_since "$t0")
assert_rc "systemctl stop $UNIT" 0 $rc "$T/stop.out"
assert_lt "stop took (s*10) below TimeoutStopSec 10 s" "$(awk -v s="$STOP_S" 'BEGIN { printf "%d", s * 10 }')" 100
assert_eq "$UNIT Result after stop (not timeout/signal)" success "$(prop $UNIT Result)"
assert_eq "$UNIT inactive" inactive "$(systemctl is-active $UNIT)"
if [ -f "$STATE" ]; then
	pass_check "state file $STATE exists"
	show_state "$STATE"
else
	fail "no state file $STATE"
	ls -lR /var/lib/ssdtorture 2>&1 | sed 's/^/   | /'
fi

# ------------------------------------------------------------ socket activation
systemctl start $UNIT.socket
assert_eq "$UNIT.socket active" active "$(systemctl is-active $UNIT.socket)"
assert_eq "$UNIT inactive before ssdctl" inactive "$(systemctl is-active $UNIT)"
t0=$(now_ns)
timeout 90 "$CTL" status >"$T/ctl.out" 2>&1
rc=$?
CTL_S=$(secs_since "$t0")
assert_rc "ssdctl status through the socket (${CTL_S}s)" 0 $rc "$T/ctl.out"
sed 's/^/   ssdctl| /' "$T/ctl.out"
assert_contains "ssdctl status table" "$(cat "$T/ctl.out")" "scratch"
wait_for 10 is_active $UNIT
assert_eq "$UNIT started by the socket" active "$(systemctl is-active $UNIT)"
assert_contains "journal: TriggeredBy" "$(systemctl status --no-pager -n 0 $UNIT 2>&1)" "TriggeredBy:"

# ------------------------------------------------------------ watchdog
mkdir -p "$SD/$UNIT.service.d"
printf '[Service]\nWatchdogSec=5s\n' >"$SD/$UNIT.service.d/watchdog.conf"
systemctl daemon-reload
timeout 90 systemctl restart $UNIT >"$T/restart.out" 2>&1
assert_rc "systemctl restart $UNIT with WatchdogSec=5s" 0 $? "$T/restart.out"
assert_eq "WatchdogUSec" 5s "$(prop $UNIT WatchdogUSec)"
# the daemon alone must keep the watchdog fed
sleep 8
n0=$(prop $UNIT NRestarts)
assert_eq "$UNIT still active after 8 s at WatchdogSec=5s" active "$(prop $UNIT ActiveState)"
pid0=$(prop $UNIT MainPID)
note "NRestarts $n0, main PID $pid0; SIGSTOP"
t0=$(now_ns)
systemctl kill -s SIGSTOP $UNIT
restarted() {
	[ "$(prop "$UNIT" NRestarts)" -gt "$n0" ] && is_active "$UNIT" &&
	    [ "$(prop "$UNIT" MainPID)" != "$pid0" ]
}
if wait_for 90 restarted; then
	pass_check "restarted after the watchdog fired ($(secs_since "$t0")s): NRestarts $(prop $UNIT NRestarts), main PID $(prop $UNIT MainPID)"
else
	fail "not restarted within 90 s: NRestarts $(prop $UNIT NRestarts), state $(prop $UNIT ActiveState)/$(prop $UNIT SubState)"
fi
wd=$(ujournal | grep -iE 'watchdog|abort|core|signal' | tail -n 5)
assert_contains "journal: watchdog timeout" "$wd" "Watchdog timeout"
printf '%s\n' "$wd" | sed 's/^/   journal| /'
assert_contains "StatusText after restart" "$(wait_for 10 status_has_drives; prop $UNIT StatusText)" "drives:"

# ------------------------------------------------------------ remote rrdcached, metrics
# the unit allows AF_UNIX only and writes only under the state directory:
# with rrdcached = host:port and a prometheus_textfile elsewhere the daemon
# says so at start; a drop-in that allows IP and the metrics directory lets
# the archives through and the metrics file be written
RRDB=$T/rrdbase
HOSTDIR=$RRDB/$(hostname | cut -d. -f1)
mkdir -p "$HOSTDIR"
mkdir -p "$T/rrdjournal"
rrdcached -l 127.0.0.1:42217 -b "$RRDB" -B -p "$T/rrdcached.pid" \
    -j "$T/rrdjournal" -F >"$T/rrdcached.log" 2>&1
assert_rc "rrdcached on 127.0.0.1:42217" 0 $? "$T/rrdcached.log"
PROM=/var/lib/ssdt-prom/ssdtorture.prom
mkdir -p /var/lib/ssdt-prom
sed -i "s|^\\[daemon\\]\$|[daemon]\\nrrdcached = 127.0.0.1:42217\\nprometheus_textfile = $PROM|" "$CONF"
assert_contains "config names the metrics file" "$(grep '^prometheus_textfile' "$CONF")" "$PROM"
assert_contains "config names a remote rrdcached" "$(grep '^rrdcached' "$CONF")" "127.0.0.1:42217"
JCUR=$(journalctl -n 0 --show-cursor --no-pager 2>/dev/null | sed -n 's/^-- cursor: //p')
assert_ne "journal cursor" "" "$JCUR"
timeout 90 systemctl restart $UNIT >"$T/restart2.out" 2>&1
assert_rc "systemctl restart $UNIT (remote rrdcached, AF_UNIX only)" 0 $? "$T/restart2.out"
# journal_since CURSOR: the unit's messages after CURSOR
journal_since() { journalctl -u "$UNIT" --after-cursor="$1" --no-pager -o cat; }
ip_warned() { journal_since "$1" | grep -qF 'may not open AF_INET sockets'; }
if wait_for 10 ip_warned "$JCUR"; then
	pass_check "journal: $(journal_since "$JCUR" | grep -F 'may not open AF_INET' | head -n 1)"
else
	fail "no warning about AF_INET sockets in the journal"
fi
rofs_warned() { journal_since "$1" | grep -qF 'ReadWritePaths='; }
if wait_for 20 rofs_warned "$JCUR"; then
	pass_check "journal: $(journal_since "$JCUR" | grep -F 'ReadWritePaths=' | head -n 1)"
else
	fail "no warning about the read-only metrics directory in the journal"
fi
assert_eq "no archive sent while IP is forbidden" "" "$(ls "$HOSTDIR")"
assert_eq "no metrics file while its directory is read-only" "" "$(ls /var/lib/ssdt-prom)"
printf '[Service]\nRestrictAddressFamilies=AF_INET AF_INET6\nReadWritePaths=/var/lib/ssdt-prom\n' \
    >"$SD/$UNIT.service.d/remote-rrdcached.conf"
systemctl daemon-reload
assert_contains "RestrictAddressFamilies with the drop-in" "$(prop $UNIT RestrictAddressFamilies)" "AF_INET"
JCUR=$(journalctl -n 0 --show-cursor --no-pager 2>/dev/null | sed -n 's/^-- cursor: //p')
assert_ne "journal cursor" "" "$JCUR"
timeout 90 systemctl restart $UNIT >"$T/restart3.out" 2>&1
assert_rc "systemctl restart $UNIT (drop-in allows IP)" 0 $? "$T/restart3.out"
archive_made() { [ -s "$HOSTDIR/scratch.rrd" ] && [ -s "$HOSTDIR/bay0.rrd" ]; }
if wait_for 30 archive_made; then
	pass_check "archives through rrdcached on 127.0.0.1: $(ls "$HOSTDIR" | tr '\n' ' ')"
else
	fail "no archives under $HOSTDIR: $(ls -la "$HOSTDIR" 2>&1 | tr '\n' ' ')"
	ujournal | grep -F archive | tail -n 5 | sed 's/^/   journal| /'
fi
assert_contains "journal since the restart (drop-in)" "$(journal_since "$JCUR")" "resuming"
assert_eq "no AF_INET warning with the drop-in" "" \
    "$(journal_since "$JCUR" | grep -F 'may not open')"
prom_written() { grep -q '^ssdtorture_' "$PROM" 2>/dev/null; }
if wait_for 30 prom_written; then
	pass_check "metrics file written with ReadWritePaths=: $(grep -c '^ssdtorture_' "$PROM") samples"
else
	fail "no metrics in $PROM: $(ls -la /var/lib/ssdt-prom 2>&1 | tr '\n' ' ')"
fi
rrdtool flushcached --daemon 127.0.0.1:42217 "$(basename "$HOSTDIR")/scratch.rrd" >/dev/null 2>&1
lu=$(rrdtool lastupdate "$HOSTDIR/scratch.rrd" 2>/dev/null | awk 'NR == 3 { sub(":", "", $1); print $1 }')
assert_lt "scratch.rrd last update (s) within a minute" "$(($(date +%s) - ${lu:-0}))" 60
kill "$(cat "$T/rrdcached.pid")" 2>/dev/null

# ------------------------------------------------------------ journal of the run
timeout 30 systemctl stop $UNIT $UNIT.socket
note "---- journal of $UNIT (last 40 lines)"
journalctl -b -u $UNIT -u $UNIT.socket --no-pager -n 40 -o short-monotonic | sed 's/^/   | /'
note "timings: start ${START_S}s, stop ${STOP_S}s, socket activation ${CTL_S}s"
finish
