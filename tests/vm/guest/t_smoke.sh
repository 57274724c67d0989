#!/bin/bash
# smoke: the guest sees its drives and the tools
set -u
uname -a
ls -l /dev/nvme* /dev/sd* 2>&1
cat /sys/block/nvme0n1/device/serial
lsmod | head -30
nvme smart-log -o json /dev/nvme0 | head -20
smartctl -i /dev/sda | head -20
dmsetup version
dd if=/dev/zero of=/dev/nvme0n1 bs=1M count=64 oflag=direct 2>&1 | tail -1
dd if=/dev/zero of=/dev/sda bs=1M count=32 oflag=direct 2>&1 | tail -1
dd if=/dev/nvme0n1 of=/dev/null bs=1M count=64 iflag=direct 2>&1 | tail -1
/work/main/daemon/ssdtortured --help 2>&1 | head -3
