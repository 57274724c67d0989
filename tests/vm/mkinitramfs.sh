#!/bin/bash
# Build the guest's initramfs (cpio.gz): busybox-static with its applet
# links, the kernel modules the rig needs (with their dependencies, in load
# order), and an /init that mounts the host root read-only over 9p at /mnt,
# gives it proc, sys, a devtmpfs and tmpfs /tmp /run, then chroots into it to
# run the guest test named on the kernel command line
# (ssdt.test=/abs/path/on/the/host), prints "SSDT-RESULT: PASS" or
# "SSDT-RESULT: FAIL rc=N" on the console and powers off.
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
overlay dm-mod dm-flakey dm-delay loop"

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

# crct10dif-pclmul fails under TCG (no PCLMUL): harmless, the generic one loads
for m in $(cat /modules.list); do
	insmod "/lib/modules/$m" 2>/dev/null
done

mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /mnt ||
    result "FAIL rc=97 (cannot mount the host root over 9p)"
R=/mnt
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
