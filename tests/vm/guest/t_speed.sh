#!/bin/bash
. "$(dirname "$0")/lib.sh"
truncate -s 128M /tmp/loop.img
L=$(losetup -f --show /tmp/loop.img); echo "loop $L"
for spec in "/dev/sda none 4k" "/dev/sda none 64k" "$L none 4k" "/dev/nvme0n1 SSDTNVME0001 4k"; do
set -- $spec
ser=$2; [ $1 = /dev/sda ] && ser=SSDTSATA0001
rm -rf $T/s
write_conf $T/c.conf $T/s <<EOC
[drive:x]
device = $1
serial = $ser
span = 32M
block_size = $3
order = random
queue_depth = 8
static_fraction = 0.5
trim = no
cycles = 1
EOC
run_ssdt $T/l.log -c $T/c.conf --oneshot
ev_query $T/s/x/events.jsonl what,bytes_per_sec event=phase_end
show_file $T/l.log 3
done
