#!/bin/sh
# tests/deps.sh [PACKAGE...]: install the Debian packages that building and
# testing need (or the ones named), when missing. As root this runs
# apt-get; otherwise it prints the exact command and stops.
set -eu

PKGS="build-essential pkg-config libsystemd-dev liburing-dev libinih-dev \
libblkid-dev libxxhash-dev libjson-c-dev libcmocka-dev libnvme-dev \
smartmontools nvme-cli librrd-dev rrdtool rrdcached prometheus fonts-dejavu-core gnuplot-nox fio e2fsprogs \
util-linux fdisk mandoc systemd socat clang libclang-rt-14-dev \
golang-go golang-github-varlink-go-dev varlink-go python3-fuse libfuse3-dev fuse3 \
chromium tidy python3-websocket \
dpkg-dev debhelper lintian python3-yaml"
[ $# -gt 0 ] && PKGS="$*"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "missing packages:$missing" >&2
	echo "run as root:  apt-get install -y$missing" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# the package lists may be current already: update only when needed
# shellcheck disable=SC2086
if ! apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1; then
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
fi
