"""t_utf8: bytes that are not UTF-8 in a message, through a raw socket.
Each reply must be strict JSON (decoded strictly as UTF-8, no NaN); the
daemon answers such a message with InvalidParameter "message", as any
message that is not JSON, and keeps the connection (ssdtortured(8),
PROTOCOL). Run by pyrun (tests/control/lib.sh)."""
import json, os
from vl import *

S = os.environ["SOCK"]
M = IFACE + "."
BAD = {"error": SERVICE + ".InvalidParameter", "parameters": {"parameter": "message"}}


def no_constant(name):
    raise ValueError("not JSON: " + name)


def strict(data):
    """The reply as JSON, or raise: UTF-8 decoded strictly (overlongs,
    surrogates, beyond U+10FFFF all refused), no NaN or Infinity."""
    return json.loads(data.decode("utf-8", "strict"),
                      parse_constant=no_constant)


def exchange(conn, data, n=1):
    """Send one buffer, read n replies as raw bytes; None once closed."""
    conn.send_raw(data)
    out = []
    for _ in range(n):
        try:
            out.append(conn.recv_raw(5.0))
        except Closed:
            out.append(None)
            break
    return out


def judge(raw, what, expect=BAD):
    """A reply is strict JSON (or the connection closed), and it is the
    documented answer; returns the parsed reply or None."""
    if raw is None:
        check(False, "%s: connection kept (documented)" % what, "closed")
        return None
    try:
        r = strict(raw)
    except ValueError as e:
        check(False, "%s: the reply is strict JSON" % what,
              "%s: %r" % (e, raw[:200]))
        return None
    check(True, "%s: the reply is strict JSON" % what)
    if expect is not None:
        check(r == expect, "%s: answered %s" % (what, json.dumps(expect)), r)
    return r


def msg(method, params=None):
    """A message built from bytes, so that bad bytes go in as they are."""
    m = b'{"method":"' + method + b'"'
    if params is not None:
        m += b',"parameters":' + params
    return m + b"}\0"


other = Conn(S)                 # another client, connected throughout
check("error" not in other.call(SERVICE + ".GetInfo"), "another client: GetInfo")

cases = [
    (msg(M.encode() + b"Status", b'{"drive":"\xff\xfe"}'), "Status, drive \\xff\\xfe"),
    (msg(M.encode() + b"Start", b'{"drive":"\xff"}'), "Start, drive \\xff"),
    (msg(M.encode() + b"Events", b'{"drive":"a\xc3"}'), "Events, a drive cut inside a character"),
    (msg(M.encode() + b"Smart", b'{"drive":"\xc0\xaf"}'), "Smart, an overlong '/'"),
    (msg(M.encode() + b"Status", b'{"drive":"\xe0\x80\xaf"}'), "Status, a 3-byte overlong"),
    (msg(M.encode() + b"Status", b'{"drive":"\xed\xa0\x80"}'), "Status, a UTF-16 surrogate"),
    (msg(M.encode() + b"Status", b'{"drive":"\xf4\x90\x80\x80"}'), "Status, beyond U+10FFFF"),
    (msg(M.encode() + b"Status", b'{"drive":"\xf8\x88\x80\x80\x80"}'), "Status, a 5-byte form"),
    (msg(M.encode() + b"Status", b'{"drive":"\x80"}'), "Status, a lone continuation byte"),
    (msg(M.encode() + b"\xff"), "a method name with \\xff"),
    (msg(M.encode() + b"Stat\xfeus"), "a method name with \\xfe inside"),
    (msg(b"com.ex\xffample.Foo"), "an interface name with \\xff"),
    (msg(M.encode() + b"Status", b'{"dr\xffive":"a"}'), "bad bytes in a parameter's key"),
    (msg(M.encode() + b"Status", b'{"\xff":1}'), "a key that is only \\xff"),
    (b'{"method":"org.varlink.service.GetInfo","\xfe":1}\0', "bad bytes in an envelope key"),
    (msg(SERVICE.encode() + b".GetInterfaceDescription", b'{"interface":"x\xff"}'),
     "GetInterfaceDescription of \\xff"),
]
conn = Conn(S)                  # all on one connection: it must survive them
for data, what in cases:
    judge(exchange(conn, data)[0], what)

# pipelined: a valid call in the same write after the bad one, and before
r = exchange(conn, msg(M.encode() + b"Status", b'{"drive":"\xff\xfe"}') +
             msg(SERVICE.encode() + b".GetInfo"), 2)
judge(r[0], "pipelined: the bad call")
g = judge(r[1] if len(r) > 1 else None, "pipelined: the valid call after it", None)
check(g is not None and g.get("parameters", {}).get("product") == "ssdtortured",
      "pipelined: the valid call after the bad one is answered", g)
r = exchange(conn, msg(M.encode() + b"Status", b'{"drive":"a"}') +
             msg(M.encode() + b"\xff") + msg(M.encode() + b"Status", b'{"drive":"zz"}'), 3)
s = judge(r[0], "pipelined: Status(a) before a bad call", None)
check(s is not None and s["parameters"]["drives"][0]["name"] == "a",
      "pipelined: Status(a) before the bad call answered", s)
judge(r[1] if len(r) > 1 else None, "pipelined: a bad method between two calls")
judge(r[2] if len(r) > 2 else None, "pipelined: Status(zz) after it",
      {"error": M + "NoSuchDrive", "parameters": {"drive": "zz"}})

# Valid UTF-8 is JSON: taken, and echoed intact (not refused, not cut).
for text, what in [("\u00e9", "2-byte"), ("\u20ac", "3-byte"),
                   ("\U0001F4BE", "4-byte"), ("\U0010FFFF", "U+10FFFF"),
                   ("\uFFFD", "U+FFFD")]:
    judge(exchange(conn, msg(M.encode() + b"Status",
                             b'{"drive":"' + text.encode() + b'"}'))[0],
          "a %s character in a drive name" % what,
          {"error": M + "NoSuchDrive", "parameters": {"drive": text}})
# an escaped lone surrogate is JSON text but no character: whatever the
# parser makes of it, the reply must be UTF-8
judge(exchange(conn, msg(M.encode() + b"Status", b'{"drive":"\\udc00"}'))[0],
      "a drive name of an escaped lone surrogate", None)
# an unknown interface longer than any buffer, of 2-byte characters: named
# whole, never cut inside a character
iface = "\u00e9" * 300
judge(exchange(conn, msg(iface.encode() + b".Foo"))[0],
      "an unknown interface of 300 2-byte characters",
      {"error": SERVICE + ".InterfaceNotFound", "parameters": {"interface": iface}})
meth = M + "\u00e9" * 300
judge(exchange(conn, msg(meth.encode()))[0],
      "an unknown method of 300 2-byte characters",
      {"error": SERVICE + ".MethodNotFound", "parameters": {"method": meth}})

# The daemon's own strings that are not UTF-8: each byte as \xNN.
T = os.environ["T"]
dev = T + "/c\\xff.img"
st = judge(exchange(conn, msg(M.encode() + b"Status", b'{"drive":"c"}'))[0],
           "Status of a drive whose path is not UTF-8", None)
check(st is not None and st["parameters"]["drives"][0]["device"] == dev,
      "its device path with the byte written as \\xff", st)
st = judge(exchange(conn, msg(M.encode() + b"Status"))[0],
           "Status of all drives, one path not UTF-8", None)
check(st is not None and [d["device"] for d in st["parameters"]["drives"]
                          if d["name"] == "c"] == [dev],
      "all drives: c's path with \\xff", st)
ev = judge(exchange(conn, msg(M.encode() + b"Events", b'{"drive":"c","count":100}'))[0],
           "Events of that drive", None)
check(ev is not None and any(dev in e.get("message", "")
                             for e in ev["parameters"]["events"]),
      "an event names the path with \\xff", ev)
conf = open(os.environ["CONF"], "rb").read()
open(os.environ["CONF"], "wb").write(conf.replace(b"order = random", b"order = r\xffx"))
rl = judge(exchange(conn, msg(M.encode() + b"Reload"))[0],
           "ReloadFailed quoting a configuration line that is not UTF-8", None)
check(rl is not None and rl.get("error") == M + "ReloadFailed" and
      any("r\\xffx" in e for e in rl["parameters"]["errors"]),
      "ReloadFailed names the value with \\xff", rl)
open(os.environ["CONF"], "wb").write(conf)
check(conn.call(M + "Reload") == {"parameters": {}}, "Reload of the good configuration")

# the connection and the others go on
r = conn.call(M + "Status", {"drive": "a"})
check("error" not in r, "the same connection: Status(a) afterwards", r)
r = other.call(M + "Status", {"drive": "a"})
check("error" not in r, "the client connected throughout: Status(a)", r)
r = call(S, SERVICE + ".GetInfo")
check(r.get("parameters", {}).get("product") == "ssdtortured",
      "a new client: GetInfo", r)
os.kill(int(os.environ["DAEMON_PID"]), 0)
conn.close()
other.close()
done()
