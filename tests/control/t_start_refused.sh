#!/bin/bash
# t_start_refused: ssdctl start on a refused drive runs the safety checks
# again; once the cause is gone the drive really runs (writes), whether its
# configuration starts it by itself (autostart) or not.
. "$(dirname "$0")/lib.sh"

log "start a drive that was refused"
write_conf
cat >>"$CONF" <<EOF

[drive:c]
checkpoint = off
device = $T/c.img
size = 64M
block_size = 128k

[drive:d]
checkpoint = off
device = $T/d.img
size = 64M
block_size = 128k
autostart = no
EOF
# files that already hold data the state directory does not own
for f in c d; do
	head -c 1M /dev/urandom >"$T/$f.img"
done
start_daemon

for f in c d; do
	assert_eq "$f: refused at start" true "$(drive_field $f refused)"
	"$SSDCTL" -s "$SOCK" start $f >"$T/out" 2>&1
	assert_rc "$f: start while the cause is still there" 1 $? "$(cat "$T/out")"
	assert_match "$f: the reason is given" "holds data" "$(cat "$T/out")"
	rm -f "$T/$f.img"
	"$SSDCTL" -s "$SOCK" start $f >"$T/out" 2>&1
	assert_rc "$f: start once the file is gone" 0 $? "$(cat "$T/out")"
	check "$f: running after the start" wait_state $f running 5
	check "$f: writes after the start" wait_for 10 written_past $f 0
done
stop_daemon
finish
