"""t_limits A-C, E: message size, half-sent messages, clients that never read,
while a prober calls Status every 0.1 s.
Run by pyrun (tests/control/lib.sh), which sets SOCK, T, CONF, DLOG,
DAEMON_PID and SSDCTL in the environment."""
import json, os, threading, time
from vl import *

S = os.environ["SOCK"]
T = os.environ["T"]
DLOG = os.environ["DLOG"]
PID = int(os.environ["DAEMON_PID"])
M = IFACE + "."
LIMIT = 65536
TOO_LARGE = {"error": M + "MessageTooLarge", "parameters": {"limit": LIMIT}}


class Prober(threading.Thread):
    """Status from another client every 0.1 s; records each latency."""

    def __init__(self):
        super().__init__(daemon=True)
        self.stop = threading.Event()
        self.lat = []
        self.failures = []

    def run(self):
        while not self.stop.is_set():
            t0 = time.monotonic()
            try:
                r = call(S, M + "Status", timeout=3)
                if "error" in r or len(r["parameters"]["drives"]) != 2:
                    self.failures.append(repr(r)[:200])
            except Exception as e:
                self.failures.append(repr(e))
            self.lat.append(time.monotonic() - t0)
            self.stop.wait(0.1)

    def finish(self, what, min_probes=3):
        poll(lambda: len(self.lat) >= min_probes, 5, 0.05)
        self.stop.set()
        self.join(5)
        worst = max(self.lat) if self.lat else None
        check(not self.failures, "%s: every Status of the prober answered" % what,
              self.failures[:3])
        check(len(self.lat) >= min_probes, "%s: the prober made %d+ calls" % (what, min_probes),
              len(self.lat))
        check(worst is not None and worst < 1.0,
              "%s: Status answered within 1 s throughout (worst %.3f s)" % (what, worst or -1))


def log_text():
    with open(DLOG, errors="replace") as f:
        return f.read()


def cpu_seconds():
    f = open("/proc/%d/stat" % PID).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def getinfo_ok(c):
    r = c.call(SERVICE + ".GetInfo", timeout=3)
    return r.get("parameters", {}).get("product") == "ssdtortured"


def getinfo():
    return call(S, SERVICE + ".GetInfo", timeout=3).get("parameters", {}).get("product") == "ssdtortured"


def send_tolerant(c, data, timeout=10):
    """Send; the server may close while we send. True if all went out."""
    try:
        c.send_raw(data, timeout)
        return True
    except (Closed, Timeout):
        return False


# ================================================= A: message size
pr = Prober(); pr.start()

# 70000 bytes without a NUL: MessageTooLarge, then the connection closes.
with Conn(S) as c:
    send_tolerant(c, b"x" * 70000)
    try:
        r = c.recv(3)
    except (Closed, Timeout) as e:
        r = repr(e)
    check(r == TOO_LARGE, "70000 bytes without NUL -> MessageTooLarge(limit 65536)", r)
    check(c.closed_within(3) is not None, "... and the server closes the connection")
check(getinfo(), "after an oversized message the daemon answers another client")

# The same with a JSON-looking prefix (a huge string value, never ended).
with Conn(S) as c:
    send_tolerant(c, b'{"method":"org.varlink.service.GetInfo","parameters":{"x":"'
                  + b"a" * 70000)
    try:
        r = c.recv(3)
    except (Closed, Timeout) as e:
        r = repr(e)
    check(r == TOO_LARGE, "a 70000-byte unfinished object -> MessageTooLarge", r)
    check(c.closed_within(3) is not None, "... and the connection closes")

# The limit is on the message without its NUL: 65536 bytes pass, 65537 do not.
head = b'{"method":"org.varlink.service.GetInfo"'
def padded(n):
    m = head + b" " * (n - len(head) - 1) + b"}"
    assert len(m) == n
    return m

with Conn(S) as c:
    c.send_raw(padded(LIMIT) + b"\0")
    r = c.recv(3)
    check(r.get("parameters", {}).get("product") == "ssdtortured",
          "a message of exactly 65536 bytes (+NUL) is accepted", r)
    check(getinfo_ok(c), "... and the connection stays usable")
    # the same, the NUL arriving on its own a moment later
    c.send_raw(padded(LIMIT))
    check(c.nothing_within(0.3), "65536 bytes, NUL not yet sent: no reply yet")
    c.send_raw(b"\0")
    r = c.recv(3)
    check(r.get("parameters", {}).get("product") == "ssdtortured",
          "65536 bytes, then the NUL separately: accepted", r)
    # behind a short message in the same write (the buffer is compacted)
    c.send_raw(head + b"}\0" + padded(LIMIT) + b"\0" + head + b"}\0")
    rs = [c.recv(3) for _ in range(3)]
    check(all(x.get("parameters", {}).get("product") == "ssdtortured" for x in rs),
          "short + 65536-byte + short message in one write: three replies", rs)

with Conn(S) as c:
    c.send_raw(padded(LIMIT + 1) + b"\0")
    try:
        r = c.recv(3)
    except (Closed, Timeout) as e:
        r = repr(e)
    check(r == TOO_LARGE, "a message of 65537 bytes (+NUL) -> MessageTooLarge", r)
    check(c.closed_within(3) is not None, "... and the connection closes")
check(getinfo(), "the daemon still answers")
pr.finish("message size")

# ================================================= B: half-sent message
pr = Prober(); pr.start()
idle = Conn(S)                      # connected, sends nothing at all
half = Conn(S)
half.send_raw(b'{"meth')
t0 = time.monotonic()
dt = half.closed_within(8)
check(dt is not None, "a half-sent message: the client is disconnected", dt)
if dt is not None:
    check(1.5 <= dt <= 4.5, "... after about client_timeout = 2 s (took %.2f s)" % dt, dt)
half.close()
check(getinfo_ok(idle), "an idle connection (nothing sent) is not dropped: it still works")
# completing a message within the timeout is fine, even slowly
with Conn(S) as c:
    c.send_raw(b'{"method":"org.varlink')
    time.sleep(1.0)
    c.send_raw(b'.service.GetInfo"}')
    time.sleep(0.8)
    c.send_raw(b"\0")
    try:
        r = c.recv(3)
    except (Closed, Timeout) as e:
        r = repr(e)
    check(isinstance(r, dict) and r.get("parameters", {}).get("product") == "ssdtortured",
          "a message completed within client_timeout is answered", r)
idle.close()
pr.finish("half-sent message", 10)

# ================================================= C: a client that never reads
evlog = T + "/state/b/events.jsonl"
# Big Events replies need a long log: b is busy, and pause/resume pairs
# add events whatever the drive does.
deadline = time.monotonic() + 30
while os.path.getsize(evlog) < 16384 and time.monotonic() < deadline:
    call(S, M + "Pause", {"drive": "b"})
    call(S, M + "Resume", {"drive": "b"})
check(os.path.getsize(evlog) >= 16384, "drive b has logged 16 kB of events (for big replies)",
      os.path.getsize(evlog))
reply = len(json.dumps(call(S, M + "Events", {"drive": "b", "count": 10000}),
                       separators=(",", ":")))
n = min(int(10 * 1024 * 1024 / max(reply, 1)) + 20, 5000)
msg = json.dumps({"method": M + "Events",
                  "parameters": {"drive": "b", "count": 10000}}).encode() + b"\0"
pr = Prober(); pr.start()
hog = Conn(S)
threading.Thread(target=send_tolerant, args=(hog, msg * n, 20), daemon=True).start()
warned = poll(lambda: "does not read its replies" in log_text(), 30, 0.1)
check(warned, "a client that reads nothing: the daemon logs it and disconnects "
      "(%d Events calls of ~%d bytes each)" % (n, reply))
got = hog.drain(5)
check(hog.eof, "... the connection is closed", len(got))
check(len(got) <= 5 * 1024 * 1024,
      "... before more than 4 MiB (+ socket buffers) reached it (%d bytes)" % len(got))
hog.close()
check(getinfo(), "after the slow reader the daemon answers")
pr.finish("unread output", 5)

# ================================================= E: a closing client that never reads
# The daemon answers an oversized message and closes once the answer is
# sent. If the client does not read, that answer stays queued: the daemon
# must wait quietly for it, not spin. Measured with both drives paused, so
# the daemon's own CPU use is ~0.
for d in ("a", "b"):
    call(S, M + "Pause", {"drive": d})
poll(lambda: all(x["state"] == "paused" and x["write_bytes_per_sec"] == 0 for x in status(S)), 5)
time.sleep(0.3)
c0 = cpu_seconds(); time.sleep(1.0); quiet = cpu_seconds() - c0
check(quiet < 0.2, "paused drives: the daemon is quiet (%.2f s CPU in 1 s)" % quiet)
spin = Conn(S)
# enough unread replies to fill the socket buffer, well below 4 MiB
per = len(json.dumps(call(S, M + "Events", {"drive": "b", "count": 10000}),
                     separators=(",", ":")))
k = max(1, int(1.5 * 1024 * 1024 / per))
spin.send_raw((msg * k), 10)
time.sleep(0.5)
send_tolerant(spin, b"x" * 70000, 3)
time.sleep(0.3)
c0 = cpu_seconds(); time.sleep(2.0); used = cpu_seconds() - c0
check(used < 0.5, "a closing client that does not read: the daemon does not spin "
      "(%.2f s CPU in 2 s)" % used)
check(getinfo(), "... and the daemon answers others")
spin.drain(5)
check(spin.eof, "once it reads, the closing client gets its replies and EOF")
spin.close()
for d in ("a", "b"):
    call(S, M + "Resume", {"drive": d})
check(all(x["state"] == "running" for x in status(S)), "drives resumed")
done()
