#!/bin/bash
# t_streams: Events streams and the connection lifecycle.
#  A. a follower that shut its read side, while its drive logs events
#     (from its own pipelined Stop, and from another client): the daemon
#     drops that client and lives on;
#  B. calls pipelined behind an open stream are answered only after it,
#     in order (Varlink clients match replies to calls by order);
#  C. Events with a backlog far over the 4 MiB output bound: the whole
#     reply arrives, to a fast reader and to a slow one that reads on,
#     with and without "more"; the daemon does not call them slow readers;
#  D. a stream whose drive a reload removes ends with NoSuchDrive, and the
#     calls behind it are answered then.
# run: timed
# (tests/lib/jobs.sh; the bound: the output stall timers of slow readers)
. "$(dirname "$0")/lib.sh"

log "Events streams and connection lifecycle"
write_conf
start_daemon
wait_state a running || die "drive a is not running"
wait_for 20 written_past b 0 || die "drive b does not write"

pyrun "$CT_DIR/py/streams_protocol.py"

stop_daemon
[ "$DAEMON_RC" = 0 ] && pass_check "daemon exit 0" || fail "daemon exit status $DAEMON_RC"
finish
