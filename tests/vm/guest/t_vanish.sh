#!/bin/bash
# run: serial (a stop within 5 s)
# Drives that disappear under the daemon. One daemon (service mode, not
# --oneshot) runs three drives:
#   n  the NVMe namespace        removed with its controller (PCI remove)
#   s  the SATA disk             removed with its SCSI device (delete)
#   l  a loop device over a file in the guest's tmpfs: stays
# n is removed during a write pass, s during a verify pass. Each removed
# drive must turn failed with a "device vanished" or I/O error reason, while the daemon keeps running, answers on its socket, and the
# remaining drives keep writing; SIGTERM then stops it cleanly.
. "$(dirname "$0")/lib.sh"

NV=/dev/nvme0n1
SD=/dev/sda
[ -b $NV ] && [ -b $SD ] || die "$NV or $SD missing"
PCI=$(basename "$(readlink -f /sys/class/nvme/nvme0/device)")
[ -e "/sys/bus/pci/devices/$PCI/remove" ] || die "no PCI function for nvme0 ($PCI)"
truncate -s 96M /tmp/loop.img
LOOP=$(losetup -f --show /tmp/loop.img) || die "losetup failed"

ST=$T/state
SOCK=$ST.sock
write_conf "$T/v.conf" "$ST" <<EOC
[drive:n]
checkpoint = off
device = $NV
serial = SSDTNVME0001
span = 256M
block_size = 4k
order = random
queue_depth = 8
static_fraction = 0.25
trim = no
cycles = 2
on_io_error = stop

[drive:s]
checkpoint = off
device = $SD
serial = SSDTSATA0001
span = 128M
block_size = 4k
order = random
queue_depth = 8
static_fraction = 0.25
trim = no
cycles = 2
on_io_error = stop

[drive:l]
checkpoint = off
device = $LOOP
serial = none
block_size = 64k
order = random
queue_depth = 8
static_fraction = 0.25
trim = yes
cycles = 0
on_io_error = stop
EOC
SN=$ST/n/state SS=$ST/s/state SL=$ST/l/state

log "three drives: n = $NV (PCI $PCI), s = $SD, l = $LOOP on tmpfs"
start_ssdt "$T/d.log" -c "$T/v.conf"
P=$SSDT_PID

# removed LABEL STATEFILE EVENTS: the drive's failure after its removal
removed() {
	local l=$1 st=$2 ev=$3 reason
	if wait_state "$st" $P 60 's["run"] != "running"'; then
		pass_check "$l: no longer running after the removal"
	else
		fail "$l: still running 60 s after the removal"
		return
	fi
	show_state "$st"
	assert_eq "$l: run" failed "$(state_get "$st" run)"
	reason=$(state_get "$st" reason)
	case $reason in
	*vanished*) pass_check "$l: reason names the vanished device: $reason" ;;
	*"I/O error"*) pass_check "$l: reason is an I/O error: $reason"
		note "$l: the removal was reported as an I/O error, not as 'device vanished'" ;;
	*) fail "$l: reason: $reason" ;;
	esac
	assert_eq "$l: failed events" 1 "$(ev_count "$ev" 0 event=failed)"
	note "$l: io_error events by phase and errno: $(ev_query "$ev" 0 phase,errno,blocks \
	    event=verify_error class=io_error | awk '{ n[$1 " errno " $2] += $3 }
	    END { for (k in n) printf "%s: %d blocks; ", k, n[k] }')"
}

alive() {	# LABEL
	if kill -0 $P 2>/dev/null; then pass_check "$1: the daemon is still running"; else
		fail "$1: the daemon exited"; show_file "$T/d.log"; fi
	if [ -x "$SSDCTL" ]; then
		"$SSDCTL" -s "$SOCK" status >"$T/status" 2>&1
		assert_rc "$1: ssdctl status" 0 $? "$T/status"
		sed 's/^/     | /' "$T/status"
	fi
}


log "remove the NVMe controller while n writes"
if wait_state "$SN" $P 60 's["phase"] == "write" and s["position"] > 2000'; then
	note "n: $(state_get "$SN" phase) item $(state_get "$SN" position); s: $(state_get "$SS" phase); l: $(state_get "$SL" phase)"
	echo 1 >"/sys/bus/pci/devices/$PCI/remove" || fail "PCI remove of $PCI failed"
	note "removed PCI $PCI"
else
	fail "n never reached its write pass"
fi
removed n "$SN" "$ST/n/events.jsonl"
[ -e $NV ] && fail "$NV still exists" || pass_check "$NV is gone"
alive "after n vanished"
assert_eq "s: run" running "$(state_get "$SS" run)"
assert_eq "l: run" running "$(state_get "$SL" run)"
progress s "$SS" $P
progress l "$SL" $P

log "delete the SATA disk while s verifies (the read path)"
if wait_state "$SS" $P 90 's["phase"] == "verify" and s["position"] > 1000'; then
	note "s: $(state_get "$SS" phase) item $(state_get "$SS" position)"
else
	fail "s never reached a verify pass"
fi
echo 1 >/sys/block/sda/device/delete || fail "SCSI delete of sda failed"
removed s "$SS" "$ST/s/events.jsonl"
[ -e $SD ] && fail "$SD still exists" || pass_check "$SD is gone"
alive "after s vanished"
assert_eq "l: run" running "$(state_get "$SL" run)"
progress l "$SL" $P
assert_eq "s: phase at the failure" verify "$(state_get "$SS" phase)"

log "SIGTERM: the daemon stops within 5 s"
stop_ssdt $P "$T/d.log"
assert_eq "n after the stop" failed "$(state_get "$SN" run)"
assert_eq "s after the stop" failed "$(state_get "$SS" run)"
assert_eq "l: errors" 0 "$(errors_sum "$SL")"
grep -E 'failed|vanish' "$T/d.log" | head -n 6 | sed 's/^/     log: /'

finish
