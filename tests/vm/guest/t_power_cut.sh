#!/bin/bash
# Power cuts on purpose, end to end on the emulated drives. The
# power_cut_command takes each device away and brings it back as the guest
# allows: the NVMe controller is removed from the PCI bus and found again
# by a rescan; the SATA disk's SCSI device is deleted and its host
# rescanned. Both come back under their names with their serials. One
# daemon, --oneshot, two cycles, power_cut_every = 1:
#   - two cuts per drive, the command run "off NAME SERIAL" then "on NAME
#     SERIAL"; each device really went (the daemon waited for it) and came
#     back; the runs end finished with nothing found
#   - each cut's verify: no flushed block lost, and the writes after the
#     last flush all kept (QEMU's drives keep what they acknowledged)
#   - NVMe: SMART's unsafe-shutdown count before and after each cut is a
#     number (the drive reports it), never lower after; SATA: null (this
#     drive reports none), not a guessed 0
. "$(dirname "$0")/lib.sh"

NV=/dev/nvme0n1
SD=/dev/sda
[ -b $NV ] && [ -b $SD ] || die "$NV or $SD missing"
PCI=$(basename "$(readlink -f /sys/class/nvme/nvme0/device)")
[ -e "/sys/bus/pci/devices/$PCI/remove" ] || die "no PCI function for nvme0 ($PCI)"
HOST=$(basename "$(readlink -f /sys/block/sda/device/../..)" | sed -n 's/^\(host[0-9]*\)$/\1/p')
[ -z "$HOST" ] && HOST=$(ls /sys/class/scsi_host | head -n 1)

CMD=$T/power
cat >"$CMD" <<EOF
#!/bin/sh
echo "\$1 \$2 \$3" >>"$T/cmd.log"
case "\$1 \$2" in
"off n") echo 1 >/sys/bus/pci/devices/$PCI/remove ;;
"on n")  echo 1 >/sys/bus/pci/rescan ;;
"off s") echo 1 >/sys/block/sda/device/delete ;;
"on s")  for h in /sys/class/scsi_host/host*; do echo "- - -" >\$h/scan; done ;;
*) exit 2 ;;
esac
EOF
chmod +x "$CMD"

ST=$T/state
write_conf "$T/c.conf" "$ST" <<EOC
[drive:n]
checkpoint = off
device = $NV
serial = SSDTNVME0001
span = 128M
block_size = 4k
order = random
queue_depth = 8
static_fraction = 0.25
trim = no
cycles = 2
power_cut_command = $CMD
power_cut_every = 1
power_cut_timeout = 60s

[drive:s]
checkpoint = off
device = $SD
serial = SSDTSATA0001
span = 64M
block_size = 4k
order = random
queue_depth = 8
static_fraction = 0.25
trim = no
cycles = 2
power_cut_command = $CMD
power_cut_every = 1
power_cut_timeout = 60s
EOC

log "two drives, two cycles, a power cut in each write pass"
run_ssdt "$T/d.log" -c "$T/c.conf" --oneshot
assert_rc "--oneshot with the cuts" 0 "$RC" "$T/d.log"
note "commands: $(paste -sd'|' "$T/cmd.log")"
for dr in n s; do
	S=$ST/$dr/state EV=$ST/$dr/events.jsonl
	ser=$([ $dr = n ] && echo SSDTNVME0001 || echo SSDTSATA0001)
	assert_eq "$dr: the commands" "off $dr $ser|on $dr $ser|off $dr $ser|on $dr $ser" \
	    "$(grep " $dr " "$T/cmd.log" | paste -sd'|')"
	assert_eq "$dr: run" finished "$(state_get "$S" run)"
	assert_eq "$dr: cycles_done" 2 "$(state_get "$S" cycles_done)"
	assert_eq "$dr: power.cuts" 2 "$(state_get "$S" power.cuts)"
	assert_eq "$dr: nothing found" 0 "$(errors_sum "$S")"
	mapfile -t CUTS < <(ev_query "$EV" 0 unflushed_blocks,gone_seconds,back_seconds,unsafe_shutdowns_before,unsafe_shutdowns_after event=power_cut)
	mapfile -t VER < <(ev_query "$EV" 0 lost_flush,unflushed_kept event=power_loss_verified)
	assert_eq "$dr: two power_cut events" 2 "${#CUTS[@]}"
	assert_eq "$dr: two verifies after them" 2 "${#VER[@]}"
	for i in 0 1; do
		read -r unfl gone back ub ua <<<"${CUTS[$i]:-- - - - -}"
		read -r lost kept <<<"${VER[$i]:-- -}"
		note "$dr: cut $((i + 1)): unflushed $unfl, kept $kept, gone after $gone s, back $back s after on, unsafe shutdowns $ub -> $ua"
		assert_eq "$dr: cut $((i + 1)): no flushed block lost" 0 "$lost"
		assert_eq "$dr: cut $((i + 1)): the unflushed writes kept" "$unfl" "$kept"
		if [ $dr = n ]; then
			case "$ub $ua" in
			*-*) fail "$dr: cut $((i + 1)): unsafe shutdowns unknown on NVMe: $ub $ua" ;;
			*) assert_ge "$dr: cut $((i + 1)): unsafe shutdowns not lower after" "$ua" "$ub" ;;
			esac
		else
			assert_eq "$dr: cut $((i + 1)): no unsafe-shutdown count from this drive" "- -" "$ub $ua"
		fi
	done
done
[ -b $NV ] && [ -b $SD ] && pass_check "both devices are back" || fail "a device is missing at the end"

finish
