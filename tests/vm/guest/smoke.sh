#!/bin/bash
# Not a test (run.sh runs guest/t_*.sh only): what the guest sees, for
# debugging the rig itself:  tests/vm/boot.sh tests/vm/guest/smoke.sh
set -u
uname -a
ls -l /dev/nvme* /dev/sd* 2>&1
echo "nvme serial: $(cat /sys/block/nvme0n1/device/serial)"
lsmod
nvme smart-log -o json /dev/nvme0 | head -20
smartctl -i /dev/sda | sed -n '4,12p'
dmsetup version
dd if=/dev/zero of=/dev/nvme0n1 bs=1M count=64 oflag=direct 2>&1 | tail -1
dd if=/dev/zero of=/dev/sda bs=1M count=32 oflag=direct 2>&1 | tail -1
dd if=/dev/nvme0n1 of=/dev/null bs=1M count=64 iflag=direct 2>&1 | tail -1
/work/main/daemon/ssdtortured --help 2>&1 | head -3
