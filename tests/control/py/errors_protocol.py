"""t_errors: every error a client can provoke, at protocol level, on one
connection that must survive them all.
Run by pyrun (tests/control/lib.sh), which sets SOCK, T, CONF, DLOG,
DAEMON_PID and SSDCTL in the environment."""
import json, os
from vl import *

S = os.environ["SOCK"]
M = IFACE + "."
conn = Conn(S)   # one connection for all: no error may cost it

def raw(data):
    conn.send_raw(data if data.endswith(b"\0") else data + b"\0")
    return conn.recv()

def req(method, params=None, **kw):
    conn.send(method, params, **kw)
    return conn.recv()

def expect(r, name, params, what):
    check(r.get("error") == name and r.get("parameters") == params
          and set(r) == {"error", "parameters"},
          "%s -> %s %s" % (what, name.rsplit(".", 1)[1], json.dumps(params)), r)

def invalid(r, param, what):
    expect(r, SERVICE + ".InvalidParameter", {"parameter": param}, what)

# ---- interface and method names
expect(req("com.example.Foo.Bar"), SERVICE + ".InterfaceNotFound",
       {"interface": "com.example.Foo"}, "unknown interface")
expect(req("io.ssdtorture.Other.Status"), SERVICE + ".InterfaceNotFound",
       {"interface": "io.ssdtorture.Other"}, "unknown interface, known method name")
expect(req(M + "Frobnicate"), SERVICE + ".MethodNotFound",
       {"method": M + "Frobnicate"}, "unknown method of the Manager")
expect(req(SERVICE + ".Nope"), SERVICE + ".MethodNotFound",
       {"method": SERVICE + ".Nope"}, "unknown method of org.varlink.service")
expect(req(M + "status"), SERVICE + ".MethodNotFound",
       {"method": M + "status"}, "method names are case-sensitive")
r = req("Status")
check(r.get("error") in (SERVICE + ".InterfaceNotFound", SERVICE + ".MethodNotFound",
                         SERVICE + ".InvalidParameter"),
      "a method name without an interface is an error", r)
expect(req(SERVICE + ".GetInterfaceDescription", {"interface": "com.example.Nope"}),
       SERVICE + ".InterfaceNotFound", {"interface": "com.example.Nope"},
       "GetInterfaceDescription of an unknown interface")
invalid(req(SERVICE + ".GetInterfaceDescription"), "interface",
        "GetInterfaceDescription without interface")
invalid(req(SERVICE + ".GetInterfaceDescription", {"interface": 5}), "interface",
        "GetInterfaceDescription with interface 5")

# ---- MethodNotImplemented: every declared method is implemented
idl = req(SERVICE + ".GetInterfaceDescription", {"interface": IFACE})["parameters"]["description"]
import re
for m in re.findall(r"^method (\w+)\(", idl, re.M):
    if m == "Reload":
        continue          # called for real below
    r = req(M + m, {"drive": "no-such-drive"})
    check(r.get("error") not in (SERVICE + ".MethodNotImplemented", SERVICE + ".MethodNotFound"),
          "declared method %s is implemented" % m, r)

# ---- envelope
invalid(raw(b'{"parameters":{}}'), "method", "no method")
invalid(raw(b'{"method":5}'), "method", "method is a number")
invalid(raw(b'{"method":null}'), "method", "method is null")
invalid(raw(b'{"method":["org.varlink.service.GetInfo"]}'), "method", "method is an array")
invalid(raw(b'{"method":"org.varlink.service.GetInfo","parameters":[]}'), "parameters",
        "parameters is an array")
invalid(raw(b'{"method":"org.varlink.service.GetInfo","parameters":"x"}'), "parameters",
        "parameters is a string")
invalid(raw(b'{"method":"org.varlink.service.GetInfo","parameters":7}'), "parameters",
        "parameters is a number")
invalid(raw(b'{"method":"org.varlink.service.GetInfo","more":"yes"}'), "more", "more is a string")
invalid(raw(b'{"method":"org.varlink.service.GetInfo","oneway":1}'), "oneway", "oneway is 1")

# ---- not one JSON object
for data, what in [
        (b'{"method":', "truncated JSON"),
        (b'[{"method":"org.varlink.service.GetInfo"}]', "a JSON array"),
        (b'[]', "an empty array"),
        (b'"org.varlink.service.GetInfo"', "a JSON string"),
        (b'42', "a number"),
        (b'null', "null"),
        (b'true', "true"),
        (b'', "an empty message"),
        (b'   ', "only whitespace"),
        (b'{"method":"org.varlink.service.GetInfo"} xyz', "trailing garbage"),
        (b'{"method":"org.varlink.service.GetInfo"}}', "a stray brace after the object"),
        (b'{"method":"org.varlink.service.GetInfo"}{"method":"org.varlink.service.GetInfo"}',
         "two objects in one message"),
        (b'{"method":"org.varlink.service.GetInfo"}[]', "an array after the object"),
        (b'\xff\xfe{}', "bytes that are not UTF-8 before the object"),
        (b'{"method":"org.varlink.service.GetInfo"', "an object that never closes"),
]:
    invalid(raw(data), "message", what)
# Not JSON, though a lenient parser takes them: each must be refused too.
# The first group is what json-c's JSON_TOKENER_STRICT refuses; the second
# needs more than that flag (json-c 0.16 strict mode still takes them).
def lenient(cases):
    took = []
    for data, what in cases:
        r = raw(data)
        if r != {"error": SERVICE + ".InvalidParameter", "parameters": {"parameter": "message"}}:
            took.append(what)
    return took

took = lenient([
    (b'{"method":"org.varlink.service.GetInfo",}', "trailing comma"),
    (b"{'method':'org.varlink.service.GetInfo'}", "single quotes"),
    (b'{"method":"org.varlink.service.GetInfo","x":01}', "a number with a leading zero"),
    (b'{"method":"org.varlink.service.GetInfo" /* c */}', "a comment"),
    (b'{"method":"org.varlink.service.GetInfo","x":[1,]}', "trailing comma in an array"),
])
check(not took, "strict JSON: lenient-parser extensions are refused (InvalidParameter message)",
      "accepted as valid: " + ", ".join(took))
took = lenient([
    (b'{"method":"org.varlink.service.GetInfo","x":NaN}', "NaN"),
    (b'{"method":"org.varlink.service.GetInfo","x":-Infinity}', "-Infinity"),
    (b'{"method":"org.varlink.service.GetInfo","x":"a\tb"}', "a raw control character in a string"),
])
check(not took, "strict JSON: NaN, Infinity and raw control characters in strings are refused",
      "accepted as valid: " + ", ".join(took))
# JSON allows whitespace around the value
r = raw(b' \n\t{"method":"org.varlink.service.GetInfo"} \n')
check("error" not in r and r["parameters"].get("product") == "ssdtortured",
      "whitespace around the object is accepted", r)

# ---- parameters of the methods
for m in ("Start", "Stop", "Pause", "Resume", "Verify", "Events"):
    invalid(req(M + m), "drive", "%s without parameters" % m)
    invalid(req(M + m, {}), "drive", "%s without drive" % m)
    invalid(req(M + m, {"drive": None}), "drive", "%s with drive null" % m)
    invalid(req(M + m, {"drive": 5}), "drive", "%s with drive as a number" % m)
    invalid(req(M + m, {"drive": ["a"]}), "drive", "%s with drive as an array" % m)
    invalid(req(M + m, {"drive": {"name": "a"}}), "drive", "%s with drive as an object" % m)
    invalid(req(M + m, {"drive": True}), "drive", "%s with drive true" % m)
    invalid(req(M + m, {"drive": ""}), "drive", "%s with an empty drive" % m)
    expect(req(M + m, {"drive": "zz"}), M + "NoSuchDrive", {"drive": "zz"},
           "%s of an unknown drive" % m)
invalid(req(M + "Status", {"drive": 5}), "drive", "Status with drive as a number")
invalid(req(M + "Status", {"drive": ""}), "drive", "Status with an empty drive")
invalid(req(M + "Status", {"drive": ["a"]}), "drive", "Status with drive as an array")
expect(req(M + "Status", {"drive": "zz"}), M + "NoSuchDrive", {"drive": "zz"},
       "Status of an unknown drive")
expect(req(M + "Status", {"drive": "A"}), M + "NoSuchDrive", {"drive": "A"},
       "drive names are case-sensitive")
r = req(M + "Status", {"drive": "a\u0000b"})
check(r.get("error") in (M + "NoSuchDrive", SERVICE + ".InvalidParameter"),
      "a drive name with an embedded NUL is not drive a", r)
r = req(M + "Pause", {"drive": "a\u0000x"})
check(r.get("error") in (M + "NoSuchDrive", SERVICE + ".InvalidParameter"),
      "Pause of 'a\\u0000x' does not pause drive a", r)
if status(S, "a")["state"] == "paused":
    req(M + "Resume", {"drive": "a"})
for count, what in [("5", "count as a string"), (-1, "count -1"), (10001, "count 10001"),
                    (1.5, "count 1.5"), (True, "count true"), ([3], "count as an array"),
                    (2 ** 63, "count 2^63"), (-(2 ** 63), "count -2^63")]:
    invalid(req(M + "Events", {"drive": "a", "count": count}), "count", "Events with " + what)
for count in (0, 1, 10000):
    r = req(M + "Events", {"drive": "a", "count": count})
    check("error" not in r and len(r["parameters"]["events"]) <= max(count, 0),
          "Events with count %d is accepted" % count, r if "error" in r else None)
r = req(M + "Events", {"drive": "a", "count": None})
check("error" not in r, "Events with count null: default", r)
# a parameter the method does not declare is named in InvalidParameter
# (as libvarlink's services answer), whatever its value
for meth, params, bad in ((M + "Status", {"drive": "a", "bogus": 1}, "bogus"),
                          (M + "Status", {"extra": None}, "extra"),
                          (M + "Events", {"drive": "a", "count": 1, "Drive": "a"}, "Drive"),
                          (M + "Reload", {"force": True}, "force"),
                          (SERVICE + ".GetInfo", {"x": 1}, "x"),
                          (SERVICE + ".GetInterfaceDescription",
                           {"interface": M[:-1], "description": ""}, "description")):
    r = req(meth, params)
    check(r.get("error") == SERVICE + ".InvalidParameter" and
          r.get("parameters", {}).get("parameter") == bad,
          "%s with an undeclared parameter: InvalidParameter %s" % (meth, bad), r)
r = req(M + "Status", {"drive": None})
check("error" not in r, "Status with its declared parameter null is answered", r)

# ---- InvalidState
def state_err(r, drive, state, what):
    p = r.get("parameters", {})
    check(r.get("error") == M + "InvalidState" and p.get("drive") == drive and
          p.get("state") == state and isinstance(p.get("message"), str) and p["message"],
          "%s -> InvalidState(%s, %s, message)" % (what, drive, state), r)

state_err(req(M + "Resume", {"drive": "a"}), "a", "running", "Resume of a running drive")
state_err(req(M + "Start", {"drive": "a"}), "a", "running", "Start of a running drive")
check(req(M + "Pause", {"drive": "a"}) == {"parameters": {}}, "Pause(a)")
state_err(req(M + "Pause", {"drive": "a"}), "a", "paused", "Pause of a paused drive")
state_err(req(M + "Start", {"drive": "a"}), "a", "paused", "Start of a paused drive")
check(req(M + "Stop", {"drive": "a"}) == {"parameters": {}}, "Stop of a paused drive")
state_err(req(M + "Stop", {"drive": "a"}), "a", "stopped", "Stop of a stopped drive")
state_err(req(M + "Pause", {"drive": "a"}), "a", "stopped", "Pause of a stopped drive")
state_err(req(M + "Resume", {"drive": "a"}), "a", "stopped", "Resume of a stopped drive")
check(req(M + "Start", {"drive": "a"}) == {"parameters": {}}, "Start(a)")
check(status(S, "a")["state"] == "running", "a runs again")

# ---- oneway: an error is a reply too, and a oneway call gets none
# (whatever does come is read and dropped, so each check stands alone)
conn.send(M + "Frobnicate", oneway=True)
got = conn.drain(0.7)
check(got == b"", "oneway call of an unknown method: no error reply", got.decode())
conn.send("com.example.Foo.Bar", oneway=True)
got = conn.drain(0.5)
check(got == b"", "oneway call of an unknown interface: no error reply", got.decode())
conn.send(M + "Pause", {"drive": 5}, oneway=True)
got = conn.drain(0.5)
check(got == b"", "oneway call with a bad parameter: no reply", got.decode())
conn.send(M + "Pause", {"drive": "zz"}, oneway=True)
got = conn.drain(0.5)
check(got == b"", "oneway call of an unknown drive: no reply", got.decode())

# ---- after all this, the same connection still works
r = req(SERVICE + ".GetInfo")
check(r.get("parameters", {}).get("product") == "ssdtortured",
      "the connection survived every error", r)
conn.close()
done()
