#!/bin/bash
# What power_cut_command prints goes to the journal bounded and escaped:
# a command that prints 200 KiB of random bytes, then a line with a tab and
# a control byte, at "off" and at "on". The daemon's log (its stderr, the
# journal under systemd) gets, per command, how many bytes it printed and
# its last lines, non-printable bytes as \xNN: no raw binary, a few KiB in
# all, and the command's last line there whole.
. "$(dirname "$0")/lib.sh"

cat >"$T/cut" <<EOF
#!/bin/sh
head -c 204800 /dev/urandom
printf '\nfirst line\n'
printf 'relay %s:\tdone\001\n' "\$1"
case \$1 in
off)	mv "$T/o.img" "$T/o.img.off" ;;
on)	mv "$T/o.img.off" "$T/o.img" ;;
esac
exit 0
EOF
chmod +x "$T/cut"

write_conf "$T/o.conf" "$T/state" <<EOF
[drive:o]
checkpoint = off
device = $T/o.img
size = 64M
block_size = 4k
trim = no
cycles = 1
power_cut_command = $T/cut
power_cut_every = 1
power_cut_timeout = 20s
EOF
S=$T/state/o/state
run_ssdt "$T/o.log" -c "$T/o.conf" --oneshot
assert_rc "--oneshot with a cut" 0 "$RC" "$T/o.log"
assert_eq "power.cuts" 1 "$(state_get "$S" power.cuts)"
size=$(stat -c %s "$T/o.log")
note "the daemon's log: $size bytes"
assert_le "the daemon's log stays small" "$size" 20000
assert_eq "no raw byte outside printable ASCII, tab and newline in the log" 0 \
    "$(LC_ALL=C grep -c '[^[:print:][:space:]]' "$T/o.log")"
for w in off on; do
	assert_match "$w: how much it printed" \
	    "power_cut_command $w printed 2048[0-9][0-9] bytes" "$(cat "$T/o.log")"
	assert_match "$w: its last line, escaped" \
	    "power_cut_command $w: relay $w:\\\\x09done\\\\x01\$" \
	    "$(grep "power_cut_command $w: relay" "$T/o.log")"
	assert_match "$w: the line before" "power_cut_command $w: first line" \
	    "$(cat "$T/o.log")"
done
rm -f "$T/o.img"
finish
