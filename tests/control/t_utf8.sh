#!/bin/bash
# t_utf8: messages that are not UTF-8 (RFC 8259: JSON text is UTF-8) get a
# reply that is itself strict JSON and never echo the client's bytes raw:
# bad bytes in a drive name, a method or interface name, a parameter's
# key, pipelined calls around them, and valid non-ASCII text still
# answered. The daemon keeps serving the same and other clients after.
# Strings of the daemon's own that are not UTF-8 (a device path, a line of
# the configuration in ReloadFailed) go out with such bytes as \xNN.
. "$(dirname "$0")/lib.sh"

log "messages that are not UTF-8"
write_conf
# a drive whose file name is not UTF-8: Linux paths are bytes
printf '\n[drive:c]\ncheckpoint = off\ndevice = %s/c\377.img\nsize = 16M\n' \
    "$T" >>"$CONF"
start_daemon

pyrun "$CT_DIR/py/utf8_protocol.py"

check "the daemon still answers" socket_answers
assert_eq "drive a still running" running "$(drive_field a state)"
stop_daemon
assert_eq "daemon exit status" 0 "$DAEMON_RC"
finish
