#!/bin/sh
# Install the Debian packages the QEMU rig needs, when missing (as root).
# Quick and silent when everything is present.
set -eu

PKGS="qemu-system-x86 linux-image-amd64 busybox-static nvme-cli \
smartmontools dmsetup python3 kmod cpio gzip xz-utils zstd"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "missing packages:$missing" >&2
		echo "run as root:  apt-get update && apt-get install -y$missing" >&2
		exit 1
	fi
	echo "vm setup: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	if ! apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1; then
		apt-get update -qq
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $missing
	fi
fi

# a Debian kernel with modules must be there
ls /boot/vmlinuz-*-amd64 >/dev/null 2>&1 || {
	echo "vm setup: no /boot/vmlinuz-*-amd64 after installing linux-image-amd64" >&2
	exit 1
}
exit 0
