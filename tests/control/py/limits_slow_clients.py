"""t_limits D: max_connections (4): four connections work, a fifth is closed;
the daemon serves the ones it took.
Run by pyrun (tests/control/lib.sh), which sets SOCK, T, CONF, DLOG,
DAEMON_PID and SSDCTL in the environment."""
import os, time
from vl import *

S = os.environ["SOCK"]
DLOG = os.environ["DLOG"]

def works(c):
    try:
        r = c.call(SERVICE + ".GetInfo", timeout=3)
        return r.get("parameters", {}).get("product") == "ssdtortured"
    except (Closed, Timeout, OSError):
        return False

def refused(c):
    """Accepted, then closed at once without any reply."""
    try:
        c.send(SERVICE + ".GetInfo")
    except (Closed, OSError):
        pass
    data = c.drain(2)
    return c.eof and data == b""

conns = [Conn(S) for _ in range(4)]
check(all(works(c) for c in conns), "4 connections (max_connections = 4) all work")
fifth = Conn(S)
check(refused(fifth), "the 5th connection is closed by the server, no reply")
fifth.close()
check("refusing more" in open(DLOG, errors="replace").read(),
      "the daemon logs that it refuses connections")
check(all(works(c) for c in conns), "the 4 connections still work")
conns[0].close()
# the server sees the close asynchronously: retry a moment
new = poll(lambda: (lambda c: c if works(c) else c.close())(Conn(S)), 3, 0.1)
check(new, "after closing one, a new connection works")
conns[0] = new
if new:
    extra = Conn(S)
    check(refused(extra), "with 4 again, one more is refused")
    extra.close()
for c in conns:
    if c:
        c.close()
fresh = poll(lambda: (lambda cs: cs if all(works(c) for c in cs)
                      else [c.close() for c in cs] and None)([Conn(S) for _ in range(4)]), 3, 0.2)
check(fresh, "after closing all, 4 new connections work")
for c in fresh or []:
    c.close()
done()
