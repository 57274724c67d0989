"""t_methods: every method at protocol level (GetInfo, the interface
description, Status, the commands, Verify, Reload, oneway, pipelining).
Run by pyrun (tests/control/lib.sh), which sets SOCK, T, CONF, DLOG,
DAEMON_PID and SSDCTL in the environment."""
import json, os, re, time
from vl import *

S = os.environ["SOCK"]
T = os.environ["T"]
M = IFACE + "."

def ok_reply(r, what):
    return check("error" not in r and isinstance(r.get("parameters"), dict)
                 and not r.get("continues"), what + ": plain reply", r)

# ---- GetInfo
r = call(S, SERVICE + ".GetInfo")
ok_reply(r, "GetInfo")
p = r.get("parameters", {})
for k in ("vendor", "product", "version", "url"):
    check(isinstance(p.get(k), str) and p.get(k), "GetInfo %s is a non-empty string" % k, p)
check(p.get("vendor") == "ssdtorture" and p.get("product") == "ssdtortured",
      "GetInfo vendor/product", p)
check(re.fullmatch(r"\d+\.\d+\.\d+", p.get("version", "")), "GetInfo version looks like x.y.z", p)
ifs = p.get("interfaces")
check(isinstance(ifs, list) and all(isinstance(i, str) for i in ifs),
      "GetInfo interfaces is a list of strings", p)
check(set(ifs or []) == {SERVICE, IFACE}, "GetInfo lists both interfaces", ifs)

# ---- GetInterfaceDescription
r = call(S, SERVICE + ".GetInterfaceDescription", {"interface": IFACE})
ok_reply(r, "GetInterfaceDescription(Manager)")
idl = r.get("parameters", {}).get("description", "")
check(isinstance(idl, str) and "interface io.ssdtorture.Manager" in idl,
      "Manager IDL names its interface", idl[:200])
methods = ["Status", "Events", "Smart", "ErrorMap", "Checkpoints", "Snapshots", "Timelines", "Series", "Start", "Stop",
           "Pause", "Resume", "Verify", "Checkpoint", "PowerCut", "Reload"]
for m in methods:
    check(re.search(r"^method %s\(" % m, idl, re.M), "Manager IDL declares method %s" % m)
for e in ["NoSuchDrive", "InvalidState", "ReloadFailed", "MessageTooLarge"]:
    check(re.search(r"^error %s " % e, idl, re.M), "Manager IDL declares error %s" % e)
declared = re.findall(r"^method (\w+)\(", idl, re.M)
check(sorted(declared) == sorted(methods), "Manager IDL declares exactly the methods", declared)
# The fields of DriveStatus, as the IDL says (for the Status check below).
m = re.search(r"^type DriveStatus \((.*?)^\)", idl, re.M | re.S)
idl_fields = {}
if check(m, "Manager IDL has type DriveStatus"):
    for line in m.group(1).splitlines():
        f = re.match(r"\s*(\w+):\s*(\S+?),?$", line)
        if f:
            idl_fields[f.group(1)] = f.group(2)
r = call(S, SERVICE + ".GetInterfaceDescription", {"interface": SERVICE})
ok_reply(r, "GetInterfaceDescription(service)")
sidl = r.get("parameters", {}).get("description", "")
check("interface org.varlink.service" in sidl, "service IDL names its interface", sidl[:200])
for m_ in ("GetInfo", "GetInterfaceDescription"):
    check(re.search(r"^method %s\(" % m_, sidl, re.M), "service IDL declares %s" % m_)

# ---- Status
def is_int(v): return isinstance(v, int) and not isinstance(v, bool)
def is_num(v): return isinstance(v, (int, float)) and not isinstance(v, bool)
def is_str(v): return isinstance(v, str)
def is_bool(v): return isinstance(v, bool)
FIELDS = {
    "name": is_str, "device": is_str, "serial": is_str, "model": is_str,
    "state": lambda v: v in ("running", "paused", "stopped", "finished", "failed"),
    "reason": is_str, "refused": is_bool,
    "phase": lambda v: v in ("static", "write", "verify", "trim", "idle"),
    "phase_progress": lambda v: is_num(v) and 0 <= v <= 1,
    "eta_seconds": lambda v: is_int(v) and v >= 0,
    "verifying": is_bool,
    "cycle": lambda v: is_int(v) and v >= 0,
    "cycles_done": lambda v: is_int(v) and v >= 0,
    "capacity": is_int, "span_bytes": is_int,
    "host_bytes_written": lambda v: is_int(v) and v >= 0,
    "host_bytes_read": lambda v: is_int(v) and v >= 0,
    "write_bytes_per_sec": lambda v: is_num(v) and v >= 0,
    "read_bytes_per_sec": lambda v: is_num(v) and v >= 0,
    "errors": lambda v: isinstance(v, dict) and set(v) == {
        "corrupt", "misdirected", "stale", "foreign", "unwritten", "io_error",
        "lost_flush", "torn"} and all(is_int(x) and x >= 0 for x in v.values()),
    "errors_total": lambda v: is_int(v) and v >= 0,
    "power_losses": lambda v: is_int(v) and v >= 0,
    "unflushed_kept": lambda v: is_int(v) and v >= 0,
    "power_verify_owed": lambda v: isinstance(v, bool),
    "power_cuts": lambda v: is_int(v) and v >= 0,
    "power_cut": lambda v: v is None,
    "smart": lambda v: v is None,
    "records": lambda v: isinstance(v, dict) and v.get("current") is True
        and v.get("behind_seconds") == 0 and v.get("why") == ""
        and v.get("kept_lines") == 0,
}

def check_drive(d, name):
    check(isinstance(d, dict), "Status %s: a DriveStatus object" % name, d)
    for k, fn in FIELDS.items():
        check(k in d and fn(d[k]), "Status %s: field %s present, right type" % (name, k),
              {k: d.get(k, "<missing>")})
    for k in idl_fields:
        check(k in d, "Status %s: IDL field %s is in the reply" % (name, k))
    for k in d:
        check(k in idl_fields, "Status %s: reply field %s is declared in the IDL" % (name, k))
    if isinstance(d.get("errors"), dict) and is_int(d.get("errors_total")):
        check(sum(d["errors"].values()) == d["errors_total"],
              "Status %s: errors_total is the sum of the classes" % name, d)

r = call(S, M + "Status")
ok_reply(r, "Status()")
drives = r.get("parameters", {}).get("drives")
check(isinstance(drives, list) and [d.get("name") for d in drives] == ["a", "b"],
      "Status(): drives a and b, in configuration order", drives)
for d in drives or []:
    check_drive(d, "all/" + str(d.get("name")))
r = call(S, M + "Status", {})
check("error" not in r and len(r["parameters"]["drives"]) == 2,
      "Status with empty parameters: all drives", r)
r = call(S, M + "Status", {"drive": "a"})
ok_reply(r, "Status(a)")
one = r.get("parameters", {}).get("drives")
check(isinstance(one, list) and len(one) == 1, "Status(a): exactly one drive", one)
a = one[0]
check_drive(a, "a")
check(a.get("name") == "a" and a.get("device") == T + "/a.img", "Status(a): name and device", a)
check(a.get("capacity") == 256 << 20 and a.get("span_bytes") == 256 << 20,
      "Status(a): capacity and span 256 MiB", a)
check(a.get("serial") == "none", "Status(a): a file has serial 'none'", a)
b = status(S, "b")
check(b.get("capacity") == 64 << 20, "Status(b): capacity 64 MiB", b)
check(poll(lambda: status(S, "a")["host_bytes_written"] > 0, 15),
      "drive a writes (host_bytes_written grows)")
check(status(S, "a")["state"] == "running", "drive a is running")
# Events below needs a log of five and more: wait for them (on a busy
# host the first bytes come long before the fifth event)
def a_events():
    with open(T + "/state/a/events.jsonl") as f:
        return sum(1 for l in f if l.strip())
check(poll(lambda: a_events() >= 5, 30), "a's log holds 5 events", a_events())

# ---- Pause / Resume / Stop / Start
def cmd(m, drive):
    return call(S, M + m, {"drive": drive})

def expect_ok(m, drive):
    r = cmd(m, drive)
    check(r == {"parameters": {}}, "%s(%s) -> {}" % (m, drive), r)

expect_ok("Pause", "a")
st = status(S, "a")
check(st["state"] == "paused", "after Pause: a is paused", st["state"])
check(st["reason"] == "paused by operator", "after Pause: reason", st["reason"])
# the worker's job is stopped asynchronously; then the rates read 0
check(poll(lambda: (lambda x: x["write_bytes_per_sec"] == 0 and x["read_bytes_per_sec"] == 0)
           (status(S, "a")), 5, 0.05), "paused: no throughput reported", status(S, "a"))
r = cmd("Pause", "a")
check(is_error(r, "InvalidState"), "Pause of a paused drive -> InvalidState", r)
rp = r.get("parameters", {})
check(rp.get("drive") == "a" and rp.get("state") == "paused"
      and isinstance(rp.get("message"), str) and "pause" in rp.get("message", ""),
      "InvalidState(drive a, state paused, message)", rp)
check(status(S, "b")["state"] == "running", "b is untouched by a's pause")

# Events: with a paused, its log is still; last N is the file's last N.
# (A job that ended just as the pause came may still log its phase_end:
# wait until the log stops growing.)
def log_size():
    return os.path.getsize(T + "/state/a/events.jsonl")
def settled():
    s0 = log_size(); time.sleep(0.3); return log_size() == s0
poll(settled, 5, 0)
with open(T + "/state/a/events.jsonl") as f:
    lines = [json.loads(l) for l in f if l.strip()]
check(len(lines) >= 6, "a's event log has some events", len(lines))
for n in (1, 3, 5):
    r = call(S, M + "Events", {"drive": "a", "count": n})
    ev = r.get("parameters", {}).get("events")
    check("error" not in r and not r.get("continues"), "Events(a, %d): one plain reply" % n, r)
    check(isinstance(ev, list) and len(ev) == n, "Events(a, %d): %d events" % (n, n), ev)
    check(ev == lines[-n:], "Events(a, %d): the last %d of events.jsonl, in order" % (n, n),
          {"got": ev, "file": lines[-n:]})
r = call(S, M + "Events", {"drive": "a"})
ev = r["parameters"]["events"]
check(len(ev) == min(20, len(lines)), "Events(a): 20 by default", len(ev))
r = call(S, M + "Events", {"drive": "a", "count": 0})
check(r == {"parameters": {"events": []}}, "Events(a, 0): none", r)
r = call(S, M + "Events", {"drive": "a", "count": 10000})
ev = r["parameters"]["events"]
check(ev == lines, "Events(a, 10000): the whole log (it is shorter)", len(ev))
times = [e.get("time", "") for e in ev]
check(times == sorted(times) and all(re.fullmatch(
    r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", t) for t in times),
    "events are ISO timestamps, oldest first", times[-5:])
check(all(e.get("drive") == "a" and isinstance(e.get("event"), str)
          and isinstance(e.get("message"), str) for e in ev),
      "every event has drive, event, message", ev[:2])
check(ev and ev[0].get("event") == "created", "the first event is 'created'", ev[:1])
# the pause is the last event, but for the end of a job that finished just
# as it came (phase_end, cycle_end, phase_start of the next phase)
last = max([i for i, e in enumerate(ev) if e.get("event") == "paused"] or [-1])
check(last >= 0 and ev[last].get("state") == "paused" and
      all(e.get("event") in ("phase_end", "cycle_end", "phase_start") for e in ev[last + 1:]),
      "the pause is the last event (but for a job that just ended)",
      [e.get("event") for e in ev[-5:]])
rb = call(S, M + "Events", {"drive": "b", "count": 7})
evb = rb["parameters"]["events"]
check(len(evb) == 7 and all(e.get("drive") == "b" for e in evb),
      "Events(b, 7): 7 events of b", evb)
tb = [e["time"] for e in evb]
check(tb == sorted(tb), "Events(b): ordered by time", tb)

# Events with more: the tail, then each new event as a further reply.
with Conn(S) as c:
    c.send(M + "Events", {"drive": "a", "count": 2}, more=True)
    r = c.recv()
    check(r.get("continues") is True and len(r["parameters"]["events"]) == 2,
          "Events(more): first reply continues, with the tail", r)
    expect_ok("Resume", "a")
    r = c.recv(5)
    check(r.get("continues") is True and [e.get("event") for e in
          r["parameters"].get("events", [])] == ["running"],
          "Events(more): the resume arrives as one event, continues", r)
    check(r["parameters"]["events"][0].get("drive") == "a", "followed event is a's", r)
st = status(S, "a")
check(st["state"] == "running", "after Resume: running", st["state"])
check(st["reason"] == "", "after Resume: no reason", st["reason"])

expect_ok("Stop", "a")
st = status(S, "a")
check(st["state"] == "stopped" and st["reason"] == "stopped by operator",
      "after Stop: stopped", st)
r = cmd("Stop", "a")
check(is_error(r, "InvalidState") and r["parameters"].get("state") == "stopped",
      "Stop of a stopped drive -> InvalidState(state stopped)", r)
r = cmd("Resume", "a")
check(is_error(r, "InvalidState"), "Resume of a stopped drive -> InvalidState", r)
expect_ok("Start", "a")
check(status(S, "a")["state"] == "running", "after Start: running")
def io(d):
    x = status(S, d)
    return x["host_bytes_written"] + x["host_bytes_read"]
w0 = io("a")
check(poll(lambda: io("a") > w0, 30), "after Start: a does I/O again")
r = cmd("Start", "a")
check(is_error(r, "InvalidState") and r["parameters"].get("state") == "running",
      "Start of a running drive -> InvalidState(state running)", r)

# ---- Verify: an on-demand pass shows as verifying, and as a verify_now event.
# Asked while a is idle between cycles, so no job has to be stopped first
# (stopping a trim can take long where discard is slow).
check(poll(lambda: status(S, "a")["phase"] == "idle", 20, 0.05), "a reaches its idle phase")
n_before = len(call(S, M + "Events", {"drive": "a", "count": 10000})["parameters"]["events"])
expect_ok("Verify", "a")
seen = poll(lambda: status(S, "a")["verifying"]
            or any(e.get("event") == "verify_now" for e in
                   call(S, M + "Events", {"drive": "a", "count": 10000})
                   ["parameters"]["events"][n_before - 1:]), 10, 0.05)
check(seen, "after Verify: status shows verifying or a verify_now event appears")
ends = poll(lambda: [e for e in call(S, M + "Events", {"drive": "a", "count": 50})
                     ["parameters"]["events"] if e.get("event") == "phase_end"
                     and e.get("what") == "verify_now"] and
            not status(S, "a")["verifying"], 20, 0.1)
check(ends, "the verify pass ends (phase_end verify_now, verifying false)")
check(status(S, "a")["state"] == "running", "after the verify pass: still running")
check(status(S, "a")["errors_total"] == 0, "the verify pass found no errors")

# ---- Reload with an unchanged configuration
r = call(S, M + "Reload")
check(r == {"parameters": {}}, "Reload() -> {}", r)
r = call(S, M + "Reload", {})
check(r == {"parameters": {}}, "Reload({}) -> {}", r)
check([d["name"] for d in status(S)] == ["a", "b"], "after Reload: the same drives")
check(status(S, "a")["state"] == "running", "after Reload: a still running")

# ---- Reload adds and removes drives
T_ = os.environ["T"]
conf = os.environ["CONF"]
orig = open(conf).read()
open(conf, "a").write("\n[drive:c]\ndevice = %s/c.img\nsize = 16M\n" % T_)
r = call(S, M + "Reload")
check(r == {"parameters": {}}, "Reload with a drive added -> {}", r)
names = [d["name"] for d in status(S)]
check(names == ["a", "b", "c"], "after Reload: drive c is listed", names)
check(poll(lambda: status(S, "c")["state"] == "running", 5), "drive c runs")
check(len(call(S, M + "Events", {"drive": "c"})["parameters"]["events"]) >= 1,
      "drive c has events")
open(conf, "w").write(orig)
r = call(S, M + "Reload")
check(r == {"parameters": {}}, "Reload with the drive removed -> {}", r)
names = [d["name"] for d in status(S)]
check(names == ["a", "b"], "after Reload: drive c is gone", names)
r = call(S, M + "Status", {"drive": "c"})
check(is_error(r, "NoSuchDrive"), "Status(c) -> NoSuchDrive", r)
r = call(S, M + "Pause", {"drive": "c"})
check(is_error(r, "NoSuchDrive"), "Pause(c) -> NoSuchDrive", r)
check(status(S, "a")["state"] == "running" and status(S, "b")["state"] == "running",
      "a and b untouched by adding and removing c")

# ---- Checkpoints: the results of a drive (none on this short run), or
# NoSuchDrive; the drive is required.
r = call(S, M + "Checkpoints", {"drive": "a"})
check(r.get("parameters", {}).get("probes") == [] and "error" not in r,
      "Checkpoints(a) with no results yet -> probes []", r)
r = call(S, M + "Checkpoints", {"drive": "c"})
check(is_error(r, "NoSuchDrive"), "Checkpoints(c) -> NoSuchDrive", r)
r = call(S, M + "Checkpoints", {})
check(r.get("error") == SERVICE + ".InvalidParameter" and
      r.get("parameters", {}).get("parameter") == "drive",
      "Checkpoints() -> InvalidParameter(drive)", r)

# ---- Snapshots: every SMART snapshot line of smart.jsonl in file order,
# lines that are not snapshots skipped; none for a drive without them
# (a file target reads no SMART, so the test writes the file).
snap = {"time": 1796000000, "why": "baseline", "host_bytes_written": 0,
        "cycle": 0, "write_bytes_per_sec": 0.0, "waf": None,
        "smart": {"source": "nvme", "percent_used": 3}}
lines = [json.dumps(snap), "garbage{{", json.dumps({"time": 1, "smart": {}}),
         json.dumps(dict(snap, why="milestone", host_bytes_written=10 ** 12,
                         time=1796000100)), ""]
with open(os.path.join(T, "state", "a", "smart.jsonl"), "w") as f:
    f.write("\n".join(lines))
r = call(S, M + "Snapshots", {"drive": "a"})
sn = r.get("parameters", {}).get("snapshots")
check(isinstance(sn, list) and "error" not in r and
      [(o["why"], o["host_bytes_written"]) for o in sn] ==
      [("baseline", 0), ("milestone", 10 ** 12)] and sn[0]["waf"] is None,
      "Snapshots(a) -> the snapshot lines in file order, the others skipped", r)
r = call(S, M + "Snapshots", {"drive": "b"})
check(r.get("parameters", {}).get("snapshots") == [] and "error" not in r,
      "Snapshots(b) without any -> none", r)
r = call(S, M + "Snapshots", {"drive": "c"})
check(is_error(r, "NoSuchDrive"), "Snapshots(c) -> NoSuchDrive", r)
r = call(S, M + "Snapshots", {})
check(r.get("error") == SERVICE + ".InvalidParameter" and
      r.get("parameters", {}).get("parameter") == "drive",
      "Snapshots() -> InvalidParameter(drive)", r)

# ---- Timelines: the kept passes' figures without their times, or one
# pass whole (or none); NoSuchDrive; the drive is required, a pass is a
# number from 0.
r = call(S, M + "Timelines", {"drive": "a"})
tls = r.get("parameters", {}).get("timelines")
check(isinstance(tls, list) and "error" not in r and
      all(isinstance(t, dict) and "pass" in t and "t_us" not in t for t in tls),
      "Timelines(a) -> the kept passes' figures, without t_us", r)
for t in (tls or [])[:2]:
    r = call(S, M + "Timelines", {"drive": "a", "pass": t["pass"]})
    one = r.get("parameters", {}).get("timelines")
    check(isinstance(one, list) and len(one) == 1 and one[0]["pass"] == t["pass"] and
          isinstance(one[0].get("t_us"), list),
          "Timelines(a, pass %d) -> that pass whole" % t["pass"], r)
r = call(S, M + "Timelines", {"drive": "a", "pass": 999999})
check(r.get("parameters", {}).get("timelines") == [] and "error" not in r,
      "Timelines(a, pass 999999) -> none", r)
r = call(S, M + "Timelines", {"drive": "c"})
check(is_error(r, "NoSuchDrive"), "Timelines(c) -> NoSuchDrive", r)
for bad in ({}, {"drive": "a", "pass": -1}, {"drive": "a", "pass": "1"}):
    r = call(S, M + "Timelines", bad)
    want = "drive" if "drive" not in bad else "pass"
    check(r.get("error") == SERVICE + ".InvalidParameter" and
          r.get("parameters", {}).get("parameter") == want,
          "Timelines(%s) -> InvalidParameter(%s)" % (json.dumps(bad), want), r)

# ---- Series: a checkpoint's long-test series by step, the latest one
# without a number; files that are not the daemon's are not taken.
sd = os.path.join(T, "state", "a", "series")
os.makedirs(sd, exist_ok=True)
def put_series(name, ckpt, step, n, **extra):
    o = {"checkpoint": ckpt, "step": step, "interval_seconds": 1,
         "iops": [1000.0 + i for i in range(n)],
         "bytes_per_sec": [4096000.0] * n, "p99_us": [None] + [80.0] * (n - 1)}
    o.update(extra)
    with open(os.path.join(sd, name), "w") as f:
        json.dump(o, f)
put_series("ckpt-1-degrade.json", 1, "degrade", 5)
put_series("ckpt-2-degrade.json", 2, "degrade", 7)
put_series("ckpt-2-recover-idle.json", 2, "recover-idle", 3)
put_series("ckpt-2-recover-trim.json", 2, "recover-idle", 3)    # wrong step
put_series("ckpt-02-degrade.json", 2, "degrade", 3)             # not canonical
put_series("ckpt-3-Degrade.json", 3, "Degrade", 3)              # not a name
with open(os.path.join(sd, "ckpt-4-degrade.json"), "w") as f:    # damaged
    f.write("garbage{{{")
os.mkdir(os.path.join(sd, "ckpt-5-degrade.json"))                 # not a file
with open(os.path.join(sd, "ckpt-2-dirty.json"), "w") as f:
    f.write('{"checkpoint": 2, "step": "dirty", "iops": [NaN]')
put_series("ckpt-2-negative.json", 2, "negative", 3, iops=[1.0, -5.0, 2.0])
put_series("ckpt-2-short.json", 2, "short", 3, p99_us=[1.0])
# never waited on, followed or read without end: a FIFO, a link to a
# device, a file past the size taken
os.mkfifo(os.path.join(sd, "ckpt-2-fifo.json"))
os.symlink("/dev/zero", os.path.join(sd, "ckpt-2-link.json"))
with open(os.path.join(sd, "ckpt-2-huge.json"), "w") as f:
    f.truncate(9 * 1024 * 1024)
r = call(S, M + "Series", {"drive": "a"})
ser = r.get("parameters", {}).get("series")
check(isinstance(ser, list) and [(s["checkpoint"], s["step"], len(s["iops"]))
      for s in ser] == [(2, "degrade", 7), (2, "recover-idle", 3)],
      "Series(a) -> the latest checkpoint's sound series, by step (later "
      "damaged ones hide nothing)", r)
r = call(S, M + "Series", {"drive": "a", "checkpoint": 1})
ser = r.get("parameters", {}).get("series")
check(isinstance(ser, list) and [(s["checkpoint"], len(s["iops"])) for s in ser] == [(1, 5)]
      and ser[0]["p99_us"][0] is None,
      "Series(a, checkpoint 1) -> that checkpoint's", r)
r = call(S, M + "Series", {"drive": "a", "checkpoint": 99})
check(r.get("parameters", {}).get("series") == [] and "error" not in r,
      "Series(a, checkpoint 99) -> none", r)
r = call(S, M + "Series", {"drive": "b"})
check(r.get("parameters", {}).get("series") == [] and "error" not in r,
      "Series(b) without any -> none", r)
r = call(S, M + "Series", {"drive": "c"})
check(is_error(r, "NoSuchDrive"), "Series(c) -> NoSuchDrive", r)
for bad in ({}, {"drive": "a", "checkpoint": 0}, {"drive": "a", "checkpoint": "1"}):
    r = call(S, M + "Series", bad)
    want = "drive" if "drive" not in bad else "checkpoint"
    check(r.get("error") == SERVICE + ".InvalidParameter" and
          r.get("parameters", {}).get("parameter") == want,
          "Series(%s) -> InvalidParameter(%s)" % (json.dumps(bad), want), r)

# ---- oneway: no reply, and the connection goes on
with Conn(S) as c:
    c.send(SERVICE + ".GetInfo", oneway=True)
    check(c.nothing_within(0.7), "oneway GetInfo: no reply")
    r = c.call(M + "Status", {"drive": "b"})
    check(r.get("parameters", {}).get("drives", [{}])[0].get("name") == "b",
          "after a oneway call, the next call's reply comes (Status b)", r)
    c.send(M + "Pause", {"drive": "b"}, oneway=True)
    check(poll(lambda: status(S, "b")["state"] == "paused", 5, 0.05),
          "oneway Pause(b) is carried out")
    check(c.nothing_within(0.5), "oneway Pause: no reply")
    c.send(M + "Resume", {"drive": "b"}, oneway=True)
    r = c.call(SERVICE + ".GetInfo")
    check(r.get("parameters", {}).get("product") == "ssdtortured",
          "a call after two oneway calls is answered", r)
    check(status(S, "b")["state"] == "running", "oneway Resume(b) is carried out")
    check(c.nothing_within(0.3), "nothing more arrives")

# ---- pipelining and framing
with Conn(S) as c:
    c.send_raw(b'{"method":"io.ssdtorture.Manager.Status","parameters":{"drive":"b"}}\0'
               b'{"method":"org.varlink.service.GetInfo"}\0'
               b'{"method":"io.ssdtorture.Manager.Status","parameters":{"drive":"a"}}\0')
    r1, r2, r3 = c.recv(), c.recv(), c.recv()
    check(r1["parameters"]["drives"][0]["name"] == "b" and "vendor" in r2["parameters"]
          and r3["parameters"]["drives"][0]["name"] == "a",
          "three pipelined calls: three replies, in order", [r1, r2, r3])
    # one message in pieces, with pauses between them
    for part in (b'{"meth', b'od":"org.varlink.', b'service.GetInfo"}'):
        c.send_raw(part)
        time.sleep(0.2)
    check(c.nothing_within(0.2), "no reply before the NUL")
    c.send_raw(b"\0")
    r = c.recv()
    check(r.get("parameters", {}).get("product") == "ssdtortured",
          "a message sent in pieces is answered once complete", r)
    # more=true on a method that does not stream: one reply
    r = c.call(M + "Status", {"drive": "a"}, more=True)
    check("error" not in r and not r.get("continues"),
          "Status with more: one final reply", r)
    check(c.nothing_within(0.3), "Status with more: nothing after it")
done()
