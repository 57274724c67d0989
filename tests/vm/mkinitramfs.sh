#!/bin/bash
# Build the guest's initramfs (cpio.gz): busybox-static with its applet
# links, the kernel modules the rig needs (with their dependencies, in load
# order), and an /init that mounts the host root read-only over 9p at /mnt,
# gives it proc, sys, a devtmpfs and tmpfs /tmp /run, then chroots into it to
# run the guest test named on the kernel command line
# (ssdt.test=/abs/path/on/the/host), prints "SSDT-RESULT: PASS" or
# "SSDT-RESULT: FAIL rc=N" on the console and powers off.
# With ssdt.mode=systemd on the command line it instead overlays a tmpfs on
# the 9p root and switch_roots to systemd, whose oneshot ssdt-test.service
# runs the guest test, prints the same marker and powers off.
#
# The image is cached and rebuilt only when the kernel or this script
# changes. Prints the path of the image on stdout.
#   VM_CACHE   cache directory (default /var/tmp/ssdtorture-vm)
#   VM_KERNEL  kernel image (default: the newest /boot/vmlinuz-*-amd64)
set -euo pipefail

CACHE=${VM_CACHE:-/var/tmp/ssdtorture-vm}
SELF=$(readlink -f "$0")

kernel_image() {
	if [ -n "${VM_KERNEL:-}" ]; then
		echo "$VM_KERNEL"
		return
	fi
	# shellcheck disable=SC2012
	ls -1 /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -n 1
}
KIMG=$(kernel_image)
[ -n "$KIMG" ] && [ -f "$KIMG" ] || { echo "mkinitramfs: no kernel in /boot (run tests/vm/setup.sh)" >&2; exit 1; }
KVER=${KIMG##*/vmlinuz-}
[ -d "/lib/modules/$KVER" ] || { echo "mkinitramfs: /lib/modules/$KVER missing" >&2; exit 1; }
BUSYBOX=/bin/busybox
[ -x "$BUSYBOX" ] && "$BUSYBOX" --list >/dev/null 2>&1 ||
    { echo "mkinitramfs: $BUSYBOX missing (busybox-static)" >&2; exit 1; }
command -v file >/dev/null && file -L "$BUSYBOX" | grep -q 'dynamically linked' &&
    { echo "mkinitramfs: $BUSYBOX is dynamically linked; install busybox-static" >&2; exit 1; }

# Modules asked for; their dependencies come from modprobe --show-depends.
MODULES="virtio_pci 9pnet_virtio 9p nvme nvme-core ahci ata_piix sd_mod
overlay dm-mod dm-flakey dm-delay dm-log-writes loop"

mkdir -p "$CACHE"
KEY=$( {
	echo "$KVER"
	stat -c '%s %Y' "$KIMG" "/lib/modules/$KVER/modules.dep" "$BUSYBOX"
	sha256sum "$SELF"
} | sha256sum | cut -c1-16)
OUT=$CACHE/initramfs-$KVER-$KEY.cpio.gz
if [ -s "$OUT" ]; then
	echo "$OUT"
	exit 0
fi

STAGE=$(mktemp -d "$CACHE/stage.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
cd "$STAGE"
mkdir -p bin sbin usr/bin usr/sbin proc sys dev mnt tmp run etc lib/modules
cp "$BUSYBOX" bin/busybox
for a in $(bin/busybox --list); do
	[ "$a" = busybox ] || ln -sf busybox "bin/$a"
done
mknod -m 600 dev/console c 5 1
mknod -m 666 dev/null c 1 3

# modules, in load order, decompressed
: >modules.list
for m in $MODULES; do
	modprobe -S "$KVER" --show-depends "$m" 2>/dev/null |
	    awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r ko; do
	base=$(basename "$ko")
	case $base in
	*.ko.xz)  xz -dc "$ko" >"lib/modules/${base%.xz}"; base=${base%.xz} ;;
	*.ko.zst) zstd -qdc "$ko" >"lib/modules/${base%.zst}"; base=${base%.zst} ;;
	*.ko.gz)  gzip -dc "$ko" >"lib/modules/${base%.gz}"; base=${base%.gz} ;;
	*)        cp "$ko" "lib/modules/$base" ;;
	esac
	echo "$base" >>modules.list
done
for m in nvme.ko dm-flakey.ko 9pnet_virtio.ko virtio_pci.ko; do
	grep -qx "$m" modules.list || { echo "mkinitramfs: module $m not found for $KVER" >&2; exit 1; }
done

cat >init <<'INIT'
#!/bin/sh
# ssdtorture test VM init (busybox)
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1

arg() {	# value of ssdt.NAME= on the kernel command line
	for w in $(cat /proc/cmdline); do
		case $w in "ssdt.$1="*) echo "${w#*=}"; return ;; esac
	done
}
result() {
	echo "SSDT-RESULT: $*"
	sync
	poweroff -f
	sleep 10
}

# ssdt.mode=systemd: systemd as PID 1 on an overlay of the host root (9p,
# read-only, lower) and a tmpfs (upper); a oneshot unit, ssdt-test.service,
# runs the guest test, prints the result marker on the console and powers
# the guest off.
systemd_mode() {
	TEST=$(arg test)
	TMO=$(arg timeout)
	[ -n "$TMO" ] || TMO=600
	[ -n "$TEST" ] || result "FAIL rc=98 (no ssdt.test= on the kernel command line)"
	[ -f "$R${TEST#/run/host}" ] ||
	    result "FAIL rc=98 (no such guest script: $TEST)"
	[ -x "$R/lib/systemd/systemd" ] || result "FAIL rc=96 (no /lib/systemd/systemd on the host)"
	mkdir -p /upper /newroot
	mount -t tmpfs -o size=384m,mode=755 tmpfs /upper
	mkdir -p /upper/u /upper/w
	mount -t overlay overlay -o lowerdir=$R,upperdir=/upper/u,workdir=/upper/w /newroot ||
	    result "FAIL rc=96 (cannot mount the overlay root)"
	N=/newroot
	# systemd mounts its own /tmp and /run: a checkout there is reached
	# through a second view of the host root, at /ssdt-host
	if [ "${TEST#/run/host/}" != "$TEST" ]; then
		mkdir -p $N/ssdt-host
		mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose \
		    hostroot2 $N/ssdt-host ||
		    result "FAIL rc=97 (cannot mount the second view of the host root)"
		TEST=/ssdt-host${TEST#/run/host}
	fi
	: >$N/etc/machine-id
	# a VM, not the container the host root may come from (systemd would
	# skip udev and more)
	rm -f $N/.dockerenv
	echo "# ssdtorture test VM: nothing to mount" >$N/etc/fstab
	# the host's own services (databases, exporters, timers) stay off:
	# slow under TCG and nothing to do with the test
	for w in multi-user default getty sockets sysinit timers; do
		rm -f $N/etc/systemd/system/$w.target.wants/* 2>/dev/null
	done
	for u in serial-getty@.service getty@.service console-getty.service \
	    systemd-networkd-wait-online.service systemd-timesyncd.service \
	    apt-daily.timer apt-daily-upgrade.timer man-db.timer e2scrub_all.timer \
	    fstrim.timer logrotate.timer dpkg-db-backup.timer smartd.service \
	    smartmontools.service openipmi.service ipmievd.service \
	    postgresql.service prometheus.service prometheus-node-exporter.service \
	    rrdcached.service fio.service uuidd.service uuidd.socket; do
		rm -f $N/etc/systemd/system/$u
		ln -s /dev/null $N/etc/systemd/system/$u
	done
	mkdir -p $N/etc/systemd/system/multi-user.target.wants $N/usr/local/libexec
	cat >$N/etc/ssdt-vm.env <<EOF
SSDT_TEST=$TEST
SSDT_TIMEOUT=$TMO
EOF
	cat >$N/usr/local/libexec/ssdt-vm-run <<'EOF'
#!/bin/bash
# run by ssdt-test.service: the guest test, the result marker, poweroff
. /etc/ssdt-vm.env
up() { cut -d' ' -f1 /proc/uptime; }
echo "SSDT-JOBS: $(systemctl list-jobs --no-legend --no-pager | awk '{ printf "%s ", $2 }')"
echo "SSDT-START: $SSDT_TEST (systemd $(systemctl --version | head -n 1 | cut -d' ' -f2), kernel $(uname -r), uptime $(up)s)"
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root TERM=dumb LC_ALL=C SSDT_VM=1 SSDT_VM_MODE=systemd TMPDIR=/tmp \
    /usr/bin/timeout -k 5 "$SSDT_TIMEOUT" /bin/bash "$SSDT_TEST"
rc=$?
echo "SSDT-END: uptime $(up)s"
if [ $rc -eq 0 ]; then
	echo "SSDT-RESULT: PASS"
else
	[ $rc -eq 124 ] && echo "guest test timed out after ${SSDT_TIMEOUT}s"
	echo "---- last journal lines"
	journalctl -b --no-pager -n 40 -o short-monotonic 2>&1
	echo "SSDT-RESULT: FAIL rc=$rc"
fi
sync
systemctl --no-block poweroff
EOF
	chmod 755 $N/usr/local/libexec/ssdt-vm-run
	cat >$N/etc/systemd/system/ssdt-test.service <<'EOF'
[Unit]
Description=ssdtorture VM guest test
After=basic.target systemd-journald.service
OnFailure=poweroff.target

[Service]
Type=oneshot
ExecStart=/usr/local/libexec/ssdt-vm-run
StandardInput=null
StandardOutput=tty
StandardError=tty
TTYPath=/dev/console
TTYReset=no
TTYVHangup=no
TimeoutStartSec=infinity
EOF
	ln -s ../ssdt-test.service $N/etc/systemd/system/multi-user.target.wants/ssdt-test.service
	[ "$(arg klog)" = 1 ] || echo 1 >/proc/sys/kernel/printk
	echo "SSDT-BOOT: systemd mode, switch_root at uptime $(cut -d' ' -f1 /proc/uptime)s"
	mount -o move /dev $N/dev
	mount -o move /sys $N/sys
	mount -o move /proc $N/proc
	exec switch_root $N /lib/systemd/systemd systemd.unit=multi-user.target \
	    systemd.show_status=error systemd.default_timeout_start_sec=30
}

# crct10dif-pclmul fails under TCG (no PCLMUL): harmless, the generic one loads
for m in $(cat /modules.list); do
	insmod "/lib/modules/$m" 2>/dev/null
done

mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /mnt ||
    result "FAIL rc=97 (cannot mount the host root over 9p)"
R=/mnt
[ "$(arg mode)" = systemd ] && systemd_mode	# does not return
mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t devtmpfs devtmpfs $R/dev
mkdir -p $R/dev/pts $R/dev/shm
# what udev would make: /dev/fd (bash process substitution), std streams
ln -sf /proc/self/fd $R/dev/fd
ln -sf /proc/self/fd/0 $R/dev/stdin
ln -sf /proc/self/fd/1 $R/dev/stdout
ln -sf /proc/self/fd/2 $R/dev/stderr
mount -t devpts devpts $R/dev/pts 2>/dev/null
mount -t tmpfs -o size=64m tmpfs $R/dev/shm 2>/dev/null
mount -t tmpfs -o size=256m,mode=1777 tmpfs $R/tmp
mount -t tmpfs -o size=32m,mode=755 tmpfs $R/run
mount -t tmpfs -o size=64m,mode=1777 tmpfs $R/var/tmp 2>/dev/null
mkdir -p $R/run/lock $R/run/ssdtorture $R/run/host
# the host root once more (a second 9p device: a virtio channel takes one
# mount), where the guest's own /tmp, /run and /var/tmp do not hide it: a
# checkout under the host's /tmp is reached as /run/host/tmp/...
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose \
    hostroot2 $R/run/host 2>/dev/null
mount -t debugfs debugfs $R/sys/kernel/debug 2>/dev/null
[ -d /sys/kernel/config ] && mount -t configfs configfs $R/sys/kernel/config 2>/dev/null

TEST=$(arg test)
TMO=$(arg timeout)
KLOG=$(arg klog)
[ -n "$TMO" ] || TMO=600
[ -n "$TEST" ] || result "FAIL rc=98 (no ssdt.test= on the kernel command line)"
[ -f "$R$TEST" ] || result "FAIL rc=98 (no such guest script: $TEST)"
# kernel messages stay off the console unless asked (ssdt.klog=1);
# the test can read them with dmesg
[ "$KLOG" = 1 ] || echo 1 >/proc/sys/kernel/printk

echo "SSDT-START: $TEST (kernel $(uname -r), uptime $(cut -d' ' -f1 /proc/uptime)s)"
chroot $R /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root TERM=dumb LC_ALL=C SSDT_VM=1 TMPDIR=/tmp \
    /usr/bin/timeout -k 5 "$TMO" /bin/bash "$TEST"
rc=$?
echo "SSDT-END: uptime $(cut -d' ' -f1 /proc/uptime)s"
if [ $rc -eq 0 ]; then
	result "PASS"
else
	[ $rc -eq 124 ] && echo "guest test timed out after ${TMO}s"
	echo "---- last kernel messages"
	dmesg | tail -n 30
	result "FAIL rc=$rc"
fi
INIT
chmod 755 init

find . -print0 | cpio --null -o -H newc --quiet | gzip -1 >"$OUT.tmp.$$"
mv "$OUT.tmp.$$" "$OUT"
# old images of other keys
find "$CACHE" -maxdepth 1 -name 'initramfs-*.cpio.gz' ! -path "$OUT" -mmin +60 -delete
echo "$OUT"
