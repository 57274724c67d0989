#!/bin/bash
# reservation = yes. The emulated NVMe (QEMU) has no reservations (ONCS
# bit 5 clear): the drive is refused with that reason, nothing written.
# A SCSI disk with persistent reservations, from the kernel's LIO target
# (fileio backstore, tcm_loop fabric) seen through two initiator ports,
# /dev/sdb (ours) and /dev/sdc (another host): the daemon on sdb holds a
# Write Exclusive reservation with its key while it runs, sdc's writes
# fail, no I/O error is counted, and SIGTERM releases and unregisters.
# Another host's reservation taken while a drive without one runs fails
# that drive with "reservation conflict", not I/O errors; a start with
# reservation = yes while that host holds it is refused.
. "$(dirname "$0")/lib.sh"
command -v sg_persist >/dev/null || die "sg_persist missing (sg3-utils)"

nv_conf() {	# FILE STATE_DIR
	write_conf "$1" "$2" <<EOC
[drive:nv]
checkpoint = off
device = /dev/nvme0n1
serial = SSDTNVME0001
span = 16M
block_size = 64k
cycles = 1
reservation = yes
EOC
}

log "the emulated NVMe namespace has no reservations: refused"
oncs=$(nvme id-ctrl /dev/nvme0 | awk '$1 == "oncs" { print $3 }')
assert_eq "ONCS bit 5 (reservations) of the emulated controller" 0 \
    $(((oncs >> 5) & 1))
sha0=$(sha_mib /dev/nvme0n1)
nv_conf "$T/nv.conf" "$T/nv"
run_ssdt "$T/nv.log" -c "$T/nv.conf" --oneshot
assert_rc "--oneshot with reservation = yes on NVMe" 4 "$RC" "$T/nv.log"
assert_contains "refused: no reservations" \
    "$(ev_query "$T/nv/nv/events.jsonl" 0 reason event=refused)" \
    "reservation = yes: the device does not support persistent reservations"
assert_eq "first MiB of the namespace unchanged" "$sha0" "$(sha_mib /dev/nvme0n1)"

log "a LIO disk with persistent reservations, through two ports"
C=/sys/kernel/config/target
for m in target_core_mod target_core_file tcm_loop; do
	modprobe "$m" || die "modprobe $m"
done
grep -q ' /sys/kernel/config ' /proc/mounts ||
    mount -t configfs none /sys/kernel/config || die "configfs"
# The kernel registers with APTPL (persist through power loss): LIO then
# writes the registrations to its dbroot's pr/ (by default /etc/target,
# read-only here). The configfs write checks the path in our root (the
# chroot); the file is written by a kernel worker, in the root of PID 1
# (the initramfs): the directory must be in both.
mkdir -p /tmp/lio-db/pr /proc/1/root/tmp/lio-db/pr
echo /tmp/lio-db >$C/dbroot || die "dbroot"
truncate -s 64M /var/tmp/lio.img
mkdir -p $C/core/fileio_0/lio
echo "fd_dev_name=/var/tmp/lio.img,fd_dev_size=$((64 << 20))" \
    >$C/core/fileio_0/lio/control
echo 1 >$C/core/fileio_0/lio/enable
for i in 1 2; do	# the nexus first: linking a LUN then adds the disk
	L=$C/loopback/naa.500140500000000$i/tpgt_1
	mkdir -p $L/lun/lun_0
	echo naa.50014050000000a$i >$L/nexus
	ln -s $C/core/fileio_0/lio $L/lun/lun_0/lio
done
for i in $(seq 1 100); do
	[ -b /dev/sdb ] && [ -b /dev/sdc ] && break
	sleep 0.1
done
[ -b /dev/sdb ] && [ -b /dev/sdc ] || die "no /dev/sdb and /dev/sdc"
assert_contains "sdc reports persistent reservations" \
    "$(sg_persist --in --report-capabilities /dev/sdc 2>&1)" \
    "Write Exclusive: 1"

scsi_conf() {	# FILE STATE_DIR RESERVATION
	write_conf "$1" "$2" <<EOC
[drive:lio]
checkpoint = off
device = /dev/sdb
serial = none
span = 16M
block_size = 64k
idle = 0
reservation = $3
EOC
}

log "the daemon on sdb holds a write exclusive reservation"
scsi_conf "$T/r.conf" "$T/r" yes
start_ssdt "$T/r.log" -c "$T/r.conf"
P=$SSDT_PID
wait_state "$T/r/lio/state" "$P" 60 's["host_bytes_written"] > 0' ||
    { cat "$T/r.log"; die "the daemon never wrote sdb"; }
key=$(sed -n 's/.*lio: reserved (write exclusive, key \(0x[0-9a-f]*\)).*/\1/p' \
    "$T/r.log")
assert_ne "the daemon logs its key" "" "$key"
rsv=$(sg_persist --in --read-reservation /dev/sdc 2>&1)
note "$rsv"
assert_contains "sdc sees the reservation's key" "$rsv" \
    "Key=$(printf '0x%x' "$key")"
assert_contains "... of type Write Exclusive" "$rsv" "type: Write Exclusive"
dd if=/dev/zero of=/dev/sdc bs=4k count=1 seek=8 oflag=direct \
    status=none 2>"$T/dd.err"
assert_ne "another port's write fails" 0 $?
note "dd: $(cat "$T/dd.err")"
sleep 1
assert_eq "the daemon counts no I/O error" 0 \
    "$(state_get "$T/r/lio/state" errors.io_error)"
assert_eq "the daemon runs on" running "$(state_get "$T/r/lio/state" run)"
stop_ssdt "$P" "$T/r.log"
assert_contains "SIGTERM released the reservation" \
    "$(sg_persist --in --read-reservation /dev/sdc 2>&1)" \
    "there is NO reservation held"
assert_contains "... and unregistered the key" \
    "$(sg_persist --in --read-keys /dev/sdc 2>&1)" \
    "there are NO registered reservation keys"

log "another host reserves while a drive without reservation runs"
scsi_conf "$T/r.conf" "$T/r" no
start_ssdt "$T/n.log" -c "$T/r.conf"
P=$SSDT_PID
w0=$(state_get "$T/r/lio/state" host_bytes_written)
wait_state "$T/r/lio/state" "$P" 60 "s['host_bytes_written'] > $w0" ||
    die "the daemon does not write sdb"
sg_persist --out --register --param-sark=0xbad0 /dev/sdc >/dev/null 2>&1 ||
    die "sg_persist register"
sg_persist --out --reserve --param-rk=0xbad0 --prout-type=1 /dev/sdc \
    >/dev/null 2>&1 || die "sg_persist reserve"
wait_state "$T/r/lio/state" "$P" 60 's["run"] == "failed"' ||
    fail "the drive did not fail"
assert_contains "failed with the reason" \
    "$(state_get "$T/r/lio/state" reason)" \
    "reservation conflict: another host holds the drive"
assert_eq "no I/O error counted" 0 "$(state_get "$T/r/lio/state" errors.io_error)"
stop_ssdt "$P" "$T/n.log"

log "reservation = yes while another host holds it: refused"
scsi_conf "$T/r.conf" "$T/r" yes
run_ssdt "$T/c.log" -c "$T/r.conf" --oneshot
assert_rc "--oneshot refused" 4 "$RC" "$T/c.log"
assert_contains "refused naming the conflict" "$(cat "$T/c.log")" \
    "reservation = yes: reserve failed: reservation conflict: another host holds the drive"
assert_contains "the other host's reservation stands" \
    "$(sg_persist --in --read-reservation /dev/sdc 2>&1)" "Key=0xbad0"
assert_contains "our key is unregistered again" \
    "$(sg_persist --in --read-keys /dev/sdc 2>&1)" \
    "1 registered reservation key"
finish
