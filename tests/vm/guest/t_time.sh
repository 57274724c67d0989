#!/bin/bash
t() { local t0=$(date +%s%N); "$@" >/dev/null 2>&1; echo "$(( ($(date +%s%N)-t0)/1000000 )) ms: $*"; }
t python3 -c 'print(1)'
t python3 -c 'print(1)'
t python3 -c 'import json; print(1)'
t nvme smart-log -o json /dev/nvme0
t nvme smart-log -o json /dev/nvme0
t dd if=/dev/nvme0n1 bs=1M count=1 iflag=direct
t sha256sum /etc/passwd
t awk 1 /etc/passwd
t /work/main/daemon/ssdtortured --help
t dmsetup version
t bash -c true
