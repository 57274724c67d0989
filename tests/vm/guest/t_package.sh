#!/bin/bash
# vm-mode: systemd
# The Debian package (tests/package/build.sh builds it on the host into
# build/deb/) with systemd as PID 1: dpkg -i installs it, the ssdtorture
# group made, the service and its socket neither enabled nor started; the
# conffile's scratch file drive moved onto a file system of its own (and
# its performance checkpoint turned off), the service started, ssdctl status
# (the packaged one, through the packaged socket) answers with the drive
# running; dpkg -i of the same package over it keeps the edited conffile
# and restarts the service on the new binary (another main PID);
# a remove with the service running stops it and its socket and
# keeps the records; apt-get purge leaves no file of the package, no
# configuration, no state directory and no unit behind.
# shellcheck source=tests/vm/guest/lib.sh disable=SC2317
. "$(dirname "$0")/lib.sh"

UNIT=ssdtortured
CONF=/etc/ssdtorture/ssdtortured.conf
STATE=/var/lib/ssdtorture
DISK=$STATE/disk
# shellcheck disable=SC2012
DEB=$(ls -1 "$ROOT"/build/deb/ssdtorture_*.deb 2>/dev/null | head -n 1)

# the packaged ssdctl sees drive scratch running
scratch_runs() {
	timeout 10 /usr/sbin/ssdctl --json status scratch 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
d = d["drives"][0] if "drives" in d else d
sys.exit(0 if d.get("name") == "scratch" and d.get("state") == "running" else 1)'
}

# what ssdctl and the unit's journal say, in $T/why (shown on a failure):
# asked only when the check fails (ssdctl, journalctl are seconds under TCG)
why() {
	{ timeout 10 /usr/sbin/ssdctl status; journalctl -b -u $UNIT \
	    --no-pager | tail -n 20; } >"$T/why" 2>&1
}

assert_eq "PID 1" systemd "$(cat /proc/1/comm)"
[ -n "$DEB" ] || die "no build/deb/ssdtorture_*.deb (tests/package/build.sh)"
note "package: $DEB"

# man-db's trigger would index every manual page again at each dpkg run
# (minutes under TCG): the guest's copy of the host root need not
rm -f /var/lib/man-db/auto-update
# a host built as a container image may have Docker's policy-rc.d, which
# forbids every maintainer script to start or stop a service: a Debian
# system as a lab installs it has none
rm -f /usr/sbin/policy-rc.d
# nor PackageKit (a desktop's): its apt hook would start packagekitd over
# D-Bus after the purge, seconds of the guest's CPU, beside the checks
rm -f /etc/apt/apt.conf.d/20packagekit
T0=$(date +%s)
took() { note "$1 after $(($(date +%s) - T0)) s"; }

# ------------------------------------------------------------ install
dpkg -i "$DEB" >"$T/install.out" 2>&1
assert_rc "dpkg -i $(basename "$DEB")" 0 $? "$T/install.out"
assert_eq "installed" "install ok installed" \
    "$(dpkg-query -W -f='${Status}' ssdtorture)"
took "installed"
dpkg -L ssdtorture | sort >"$T/files"
assert_contains "ssdtorture group (sysusers)" "$(getent group ssdtorture)" "ssdtorture:"
for u in $UNIT.service $UNIT.socket; do
	assert_eq "$u not enabled" disabled "$(systemctl is-enabled "$u" 2>&1)"
	assert_eq "$u not started" inactive "$(systemctl is-active "$u" 2>&1)"
done
assert_eq "the unit runs the packaged daemon" \
    "/usr/sbin/ssdtortured -c $CONF" \
    "$(systemctl show -p ExecStart --value $UNIT | sed -n 's/.*argv\[\]=\([^;]*\) ;.*/\1/p')"

# ------------------------------------------------------------ a file drive
# the drive's file needs O_DIRECT, which the guest's root (a tmpfs upper
# layer) refuses: ext4 on a loop device, inside the state directory so
# that the unit's ProtectSystem=strict lets the daemon write it
mkdir -p "$DISK"
truncate -s 160M /var/tmp/disk.img
LOOP=$(losetup -f --show /var/tmp/disk.img) &&
    mkfs.ext4 -q -F -E nodiscard "$LOOP" >"$T/mkfs.out" 2>&1 &&
    mount -t ext4 "$LOOP" "$DISK" >>"$T/mkfs.out" 2>&1
assert_rc "ext4 on $LOOP at $DISK" 0 $? "$T/mkfs.out"
# the conffile's own drive, as an admin would edit it; without the
# performance checkpoint that would follow its first cycle (minutes of
# probes at full speed, which under TCG take the guest's CPU from dpkg
# through the upgrade and the remove): the drive runs its cycles, 10 s idle
# between them
sed -i -e "s|^device = $STATE/scratch.img\$|device = $DISK/scratch.img|" \
    -e 's|^size = 1G$|size = 64M\ncheckpoint = off|' "$CONF"
assert_file_contains "the conffile edited" "$CONF" "device = $DISK/scratch.img"
assert_file_contains "  checkpoint off" "$CONF" "checkpoint = off"
cp "$CONF" "$T/conf.edited"
systemctl start $UNIT >"$T/start.out" 2>&1
rc=$?
journalctl -b -u $UNIT --no-pager | tail -n 20 >>"$T/start.out"
assert_rc "systemctl start $UNIT" 0 $rc "$T/start.out"
[ "$rc" -eq 0 ] || die "the service did not start"
wait_for 60 scratch_runs
rc=$?
[ "$rc" -eq 0 ] || why
assert_rc "ssdctl status: drive scratch running" 0 $rc "$T/why"
timeout 10 /usr/sbin/ssdctl status >"$T/status.out" 2>&1
assert_rc "ssdctl status (packaged, over the packaged socket)" 0 $? "$T/status.out"

took "running"
# ------------------------------------------------------------ upgrade over itself
pid0=$(systemctl show -p MainPID --value $UNIT)
dpkg -i "$DEB" >"$T/upgrade.out" 2>&1
assert_rc "dpkg -i over the installed package" 0 $? "$T/upgrade.out"
assert_eq "the service runs on after the upgrade" active \
    "$(systemctl is-active $UNIT)"
assert_ne "  restarted on the new binary (try-restart: another main PID)" \
    "$pid0" "$(systemctl show -p MainPID --value $UNIT)"
if cmp -s "$CONF" "$T/conf.edited"; then
	pass_check "the edited conffile kept"
else
	fail "the conffile changed by the upgrade: $(diff "$T/conf.edited" "$CONF" | head -5)"
fi
wait_for 60 scratch_runs
rc=$?
[ "$rc" -eq 0 ] || why
assert_rc "after the upgrade, ssdctl status: drive scratch running" 0 $rc \
    "$T/why"

took "upgraded"
# ------------------------------------------------------------ remove, purge
# a remove stops the service and its socket (prerm): nothing runs from a
# deleted binary; the records stay
dpkg -r ssdtorture >"$T/remove.out" 2>&1
assert_rc "dpkg -r ssdtorture, the service running" 0 $? "$T/remove.out"
for u in $UNIT.service $UNIT.socket; do
	assert_eq "$u stopped by the remove" inactive "$(systemctl is-active "$u" 2>&1)"
done
assert_eq "no ssdtortured process left" "" "$(pgrep -x ssdtortured)"
if [ -e "$STATE/scratch/state" ]; then pass_check "remove keeps the records"
else fail "remove took the records"; fi
took "removed"
umount "$DISK" && losetup -d "$LOOP"
# apt without the archive's package lists: what a purge does needs only
# dpkg's status, and the host's lists (19 MB, gzipped, and no binary cache
# in a container image: Dir::Cache::pkgcache "") took apt 6-7 s to parse
# under TCG, where a lab's apt reads its cache
mkdir -p "$T/lists/partial"
apt-get -o Dir::State::Lists="$T/lists" purge -y ssdtorture \
    >"$T/purge.out" 2>&1
assert_rc "apt-get purge -y ssdtorture" 0 $? "$T/purge.out"
took "purged"
assert_eq "not installed" "" "$(dpkg-query -W -f='${Status}' ssdtorture 2>/dev/null |
    grep -v 'not-installed')"
left=$(while read -r f; do
	[ -d "$f" ] && continue		# /lib, /usr: not the package's own
	if [ -e "$f" ] || [ -L "$f" ]; then echo "$f"; fi
done <"$T/files")
assert_eq "no file of the package left" "" "$left"
for p in /etc/ssdtorture "$STATE" /run/ssdtorture; do
	if [ -e "$p" ]; then fail "$p left after purge"; else pass_check "$p gone"; fi
done
systemctl daemon-reload
assert_eq "no $UNIT unit left" not-found \
    "$(systemctl show -p LoadState --value $UNIT.service)"
finish
