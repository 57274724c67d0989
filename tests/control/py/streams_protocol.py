"""t_streams A-D: Events streams and the connection lifecycle (see
t_streams.sh).
Run by pyrun (tests/control/lib.sh), which sets SOCK, T, CONF, DLOG,
DAEMON_PID and SSDCTL in the environment."""
import json, os, socket, time
from vl import *

S = os.environ["SOCK"]
T = os.environ["T"]
DLOG = os.environ["DLOG"]
M = IFACE + "."
PID = int(os.environ["DAEMON_PID"])

def alive():
    try:
        os.kill(PID, 0)
    except OSError:
        return False
    r = call(S, SERVICE + ".GetInfo")
    return r.get("parameters", {}).get("product") == "ssdtortured"

def log_text():
    with open(DLOG, errors="replace") as f:
        return f.read()

def follow(drive, count=0):
    c = Conn(S)
    c.send(M + "Events", {"drive": drive, "count": count}, more=True)
    first = c.recv(10)
    check(first.get("continues") is True and "events" in first.get("parameters", {}),
          "Events %s with more: the backlog reply continues" % drive, first)
    return c

# ============================================= A: a follower that reads nothing more
a1 = follow("a")
a1.sock.shutdown(socket.SHUT_RD)
a1.send(M + "Stop", {"drive": "a"})     # pipelined behind its own stream
for cmd in ("Pause", "Resume", "Pause", "Resume"):
    call(S, M + cmd, {"drive": "a"})    # each logs an event pushed to a1
    time.sleep(0.2)
check(alive(), "A: a follower with its read side shut, its drive logging events: "
      "the daemon lives on and answers")
a2 = follow("a")
a2.sock.shutdown(socket.SHUT_RD)
call(S, M + "Stop", {"drive": "a"})
call(S, M + "Start", {"drive": "a"})
time.sleep(0.3)
check(alive(), "A: ... and after Stop and Start from another client")
check(poll(lambda: status(S, "a")["state"] == "running", 10),
      "A: drive a runs again", status(S, "a"))
a1.close(); a2.close()

# ============================================= B: calls behind a stream wait
b = follow("b", 1)
b.send(SERVICE + ".GetInfo")
b.send(M + "Status", {"drive": "b"})
call(S, M + "Pause", {"drive": "b"})
call(S, M + "Resume", {"drive": "b"})
def names(msgs):
    return [e.get("event") for g in msgs for e in g.get("parameters", {}).get("events", [])]

got = []
deadline = time.monotonic() + 10
while time.monotonic() < deadline and not {"paused", "running"} <= set(names(got)):
    try:
        got.append(b.recv(0.5))
    except Timeout:
        pass
check({"paused", "running"} <= set(names(got)),
      "B: the stream carries b's pause and resume", names(got))
check(all(g.get("continues") is True and "events" in g.get("parameters", {}) for g in got),
      "B: while the stream is open only its events come, not the replies to "
      "the calls sent behind it", [g for g in got if g.get("continues") is not True])

# ============================================= C: backlogs over the output bound
evlog = T + "/state/a/events.jsonl"
call(S, M + "Pause", {"drive": "a"})
pad = "x" * 600
n = 10000
with open(evlog, "a") as f:
    f.write("".join(json.dumps({"time": "2026-01-01T00:00:00Z", "drive": "a",
                                "event": "note", "seq": i, "pad": pad}) + "\n"
                    for i in range(n)))
t0 = time.monotonic()
with Conn(S) as c:
    c.send(M + "Events", {"drive": "a", "count": n})
    raw = c.recv_raw(30)
    r = json.loads(raw)
    ev = r.get("parameters", {}).get("events", [])
    check(len(raw) > 4 * 1024 * 1024, "C: the reply is over the 4 MiB bound (%d bytes)" % len(raw))
    check(len(ev) == n and ev[-1].get("seq") == n - 1 and "continues" not in r,
          "C: Events count %d: one whole reply with every event, in order" % n,
          (len(ev), ev[-1] if ev else None))
    check(c.call(SERVICE + ".GetInfo").get("parameters", {}).get("product") == "ssdtortured",
          "C: the same connection goes on answering")

# a slow reader: 256 KiB every 0.25 s; longer in all than client_timeout (2 s)
with Conn(S) as c:
    c.send(M + "Events", {"drive": "a", "count": n}, more=True)
    t0 = time.monotonic()
    while b"\0" not in c.buf and time.monotonic() - t0 < 120:
        r_, _, _ = select.select([c.sock], [], [], 5)
        if not r_:
            break
        try:
            data = c.sock.recv(262144)
        except BlockingIOError:
            continue
        if not data:
            break
        c.buf += data
        time.sleep(0.25)
    slow = time.monotonic() - t0
    try:
        r = c.recv(5)
    except (Closed, Timeout) as e:
        r = {"error": repr(e)}
    ev = r.get("parameters", {}).get("events", [])
    check(len(ev) == n and r.get("continues") is True,
          "C: a slow reader (%.1f s) gets the whole backlog, then the stream" % slow,
          (len(ev), r.get("error")))
    call(S, M + "Resume", {"drive": "a"})
    try:
        nxt = c.recv(5)
    except (Closed, Timeout) as e:
        nxt = {"error": repr(e)}
    check(nxt.get("continues") is True and names([nxt]) == ["running"],
          "C: ... and the next event streams after it", nxt)
check("does not read its replies" not in log_text(),
      "C: no reader of a long reply is called one that does not read")
check(alive(), "C: the daemon answers")

# ============================================= D: a reload removes a followed drive
conf = os.environ["CONF"]
with open(conf) as f:
    text = f.read()
with open(conf, "w") as f:
    f.write(text[:text.index("[drive:b]")])
r = call(S, M + "Reload")
check("error" not in r, "D: reload without drive b", r)
streamed = []
end = {}
while True:
    try:
        m = b.recv(5)
    except (Closed, Timeout) as e:
        end = {"error": repr(e)}
        break
    if m.get("continues") is not True:
        end = m
        break
    streamed.append(m)
check(all("events" in m.get("parameters", {}) for m in streamed),
      "D: before its end, the stream carries only b's events (%d)" % len(streamed))
check(end.get("error") == M + "NoSuchDrive" and end.get("parameters") == {"drive": "b"}
      and "continues" not in end,
      "D: the stream of the removed drive ends with NoSuchDrive", end)
try:
    info = b.recv(5)
    st = b.recv(5)
except (Closed, Timeout) as e:
    info, st = {"error": repr(e)}, {}
check(info.get("parameters", {}).get("product") == "ssdtortured",
      "D: then the GetInfo sent behind the stream is answered", info)
check(st.get("error") == M + "NoSuchDrive",
      "D: then the Status of b, in order (b is gone: NoSuchDrive)", st)
b.close()
check(alive(), "the daemon answers at the end")
done()
