#!/bin/bash
# boot.sh GUEST_SCRIPT [QEMU OPTIONS...]
#
# Boot a throw-away QEMU guest that runs GUEST_SCRIPT (a path on this host:
# the guest sees the host root read-only over 9p and chroots into it) and
# powers off. The guest gets an emulated NVMe drive (serial SSDTNVME0001,
# /dev/nvme0n1) and an ide-hd disk on the q35 AHCI controller (serial
# SSDTSATA0001, /dev/sda), both sparse files in a temporary directory that is
# removed at the end. Extra arguments are passed to QEMU as they are (more
# drives, -qmp ...).
#
# Exit status 0 when the console shows "SSDT-RESULT: PASS", 1 otherwise
# (the tail of the console log is printed then).
#
#   VM_ACCEL      tcg (default) or kvm
#   VM_MEM        guest memory in MiB (1024)
#   VM_SMP        guest CPUs (2)
#   VM_TIMEOUT    seconds before QEMU is killed (600)
#   VM_NVME_SIZE  size of the NVMe backing file (512M)
#   VM_SATA_SIZE  size of the SATA backing file (256M)
#   VM_NVME_OPTS  extra ",key=value" properties of the nvme device
#   VM_LOG        keep the console log in this file
#   VM_VERBOSE    1: also copy the console to stdout while it runs
#   VM_KLOG       1: kernel messages on the console during the test
#   VM_QMP        path of a QMP socket to open (server, nowait)
#   VM_TMPDIR     where the temporary directory goes (/var/tmp)
#   VM_MODE       chroot (default: busybox /init chroots into the host root)
#                 or systemd (systemd as PID 1 on an overlay of the host
#                 root); default from a "# vm-mode: MODE" line in the script
set -u

VM_DIR=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 GUEST_SCRIPT [QEMU OPTIONS...]" >&2; exit 2; }
GUEST=$(readlink -f "$1")
shift
[ -f "$GUEST" ] || { echo "boot.sh: no such guest script: $GUEST" >&2; exit 2; }
# the guest mounts its own tmpfs over /tmp, /run and /var/tmp: a script
# (a checkout) there is reached through its second view of the host root
case $GUEST in
/tmp/*|/run/*|/var/tmp/*)
	GUEST=/run/host$GUEST ;;
/dev/*|/proc/*|/sys/*)
	echo "boot.sh: $GUEST cannot be seen from the guest" >&2
	exit 2 ;;
esac

ACCEL=${VM_ACCEL:-tcg}
TMO=${VM_TIMEOUT:-600}
# shellcheck disable=SC2012
KIMG=${VM_KERNEL:-$(ls -1 /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -n 1)}
[ -n "$KIMG" ] && [ -f "$KIMG" ] || { echo "boot.sh: no kernel (run tests/vm/setup.sh)" >&2; exit 1; }
export VM_KERNEL=$KIMG
INITRD=$("$VM_DIR/mkinitramfs.sh") || { echo "boot.sh: initramfs build failed" >&2; exit 1; }
command -v qemu-system-x86_64 >/dev/null ||
    { echo "boot.sh: qemu-system-x86_64 missing (run tests/vm/setup.sh)" >&2; exit 1; }

T=$(mktemp -d "${VM_TMPDIR:-/var/tmp}/ssdt-vm.XXXXXX") || exit 1
QPID=
cleanup() {
	[ -n "$QPID" ] && kill -TERM "$QPID" 2>/dev/null && wait "$QPID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

truncate -s "${VM_NVME_SIZE:-512M}" "$T/nvme.img"
truncate -s "${VM_SATA_SIZE:-256M}" "$T/sata.img"
LOG=$T/console.log

APPEND="console=ttyS0 quiet panic=-1 ssdt.test=$GUEST ssdt.timeout=$((TMO - 30))"
[ "${VM_KLOG:-0}" = 1 ] && APPEND="$APPEND ssdt.klog=1"
MODE=${VM_MODE:-$(sed -n 's/^# vm-mode: *//p' "$GUEST" | head -n 1)}
case ${MODE:-chroot} in
chroot) ;;
systemd) APPEND="$APPEND ssdt.mode=systemd" ;;
*) echo "boot.sh: unknown VM_MODE '$MODE' (chroot or systemd)" >&2; exit 2 ;;
esac
QMP=()
[ -n "${VM_QMP:-}" ] && QMP=(-qmp "unix:$VM_QMP,server=on,wait=off")

# shellcheck disable=SC2054
cmd=(qemu-system-x86_64 -accel "$ACCEL" -machine q35 -m "${VM_MEM:-1024}"
    -smp "${VM_SMP:-2}" -display none -nodefaults -no-reboot
    -serial stdio
    -kernel "$KIMG" -initrd "$INITRD" -append "$APPEND"
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap
    -virtfs local,path=/,mount_tag=hostroot2,security_model=none,readonly=on,multidevs=remap
    -drive "file=$T/nvme.img,if=none,id=nv0,format=raw"
    -device "nvme,id=nvme0,serial=SSDTNVME0001,drive=nv0${VM_NVME_OPTS:-}"
    -drive "file=$T/sata.img,if=none,id=sd0,format=raw"
    -device ide-hd,drive=sd0,bus=ide.0,serial=SSDTSATA0001
    "${QMP[@]}" "$@")

t0=$(date +%s%N)
if [ "${VM_VERBOSE:-0}" = 1 ]; then
	timeout -k 10 "$TMO" "${cmd[@]}" </dev/null 2>&1 | tee "$LOG"
	rc=${PIPESTATUS[0]}
else
	timeout -k 10 "$TMO" "${cmd[@]}" </dev/null >"$LOG" 2>&1 &
	QPID=$!
	wait "$QPID"
	rc=$?
	QPID=
fi
secs=$(awk -v ns="$(($(date +%s%N) - t0))" 'BEGIN { printf "%.1f", ns / 1e9 }')
[ -n "${VM_LOG:-}" ] && cp "$LOG" "$VM_LOG"

# the serial console ends lines with CR LF
if tr -d '\r' <"$LOG" | grep -qx 'SSDT-RESULT: PASS'; then
	echo "boot.sh: $(basename "$GUEST"): PASS (${secs}s)"
	exit 0
fi
why=$(tr -d '\r' <"$LOG" | grep -m1 '^SSDT-RESULT: ' || true)
[ -n "$why" ] || why="no result marker (qemu exit $rc$([ "$rc" = 124 ] && echo ": timed out after ${TMO}s"))"
if [ "${VM_VERBOSE:-0}" != 1 ]; then
	echo "---- last lines of the console log"
	tr -d '\r' <"$LOG" | tail -n "${VM_TAIL:-60}" | sed 's/^/  | /'
fi
echo "boot.sh: $(basename "$GUEST"): FAIL: $why (${secs}s)"
exit 1
