#!/bin/sh
# Install the Debian packages the QEMU rig needs, when missing (as root).
# Quick and silent when everything is present.
set -eu

PKGS="qemu-system-x86 linux-image-amd64 busybox-static nvme-cli \
smartmontools dmsetup python3 kmod cpio gzip xz-utils zstd sg3-utils"

# shellcheck disable=SC2086
"$(dirname "$0")/../deps.sh" $PKGS

# a Debian kernel with modules must be there
ls /boot/vmlinuz-*-amd64 >/dev/null 2>&1 || {
	echo "vm setup: no /boot/vmlinuz-*-amd64 after installing linux-image-amd64" >&2
	exit 1
}
exit 0
