#!/bin/bash
# t_limits: the bounds a client cannot get around, and that none of them
# stalls the daemon for others: message size (64 KiB without its NUL),
# half-sent messages (client_timeout), unread output (4 MiB), number of
# connections (max_connections). A prober thread calls Status from its own
# connection every 0.1 s throughout and every answer must come within 1 s.
# run: serial
# (tests/lib/jobs.sh; every Status answered within 1 s: with another
# test beside it on a loaded 2-core machine, one took 1.5 s)
. "$(dirname "$0")/lib.sh"

log "protocol limits"
write_conf "max_connections = 8"
start_daemon

pyrun "$CT_DIR/py/limits_protocol.py"

# ================================================= D: max_connections
stop_daemon
sed -i 's/^max_connections = 8$/max_connections = 4/' "$CONF"
start_daemon
pyrun "$CT_DIR/py/limits_slow_clients.py"

stop_daemon
assert_eq "daemon exit status" 0 "$DAEMON_RC"
finish
