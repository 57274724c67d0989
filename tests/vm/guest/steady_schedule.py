"""steady_schedule.py SOCKET DRIVE DMNAME SLOW_TABLE FAST_TABLE SLOW_AT TIMEOUT

The schedule of t_steady.sh's device: asks the daemon for its status
(Varlink's Status call on SOCKET, straight from here: an `ssdctl` process
takes about a second to start under TCG and would keep one of the guest's
CPUs busy all through the measured run) until the drive's checkpoint is in
its step `degrade`; then SLOW_AT seconds later makes SLOW_TABLE the
device-mapper device DMNAME's (the device slows down); when the step is
`gc-idle` (the degradation run is over), makes FAST_TABLE its (the device
recovers). Each table is loaded into the device's inactive slot ahead of
its time, so that the change itself is a suspend and a resume. Prints one
line a change: `slow S` and `fast S`, S the seconds since the degradation
run was first seen (after the resume: the device is the new one from
then), `suspend S` the seconds at which the slowdown's suspend began, and
`late S` for the lag of the poll that first saw the run (the time of the
poll before it, the run unseen, to the one that saw it). Exits 1 when a
change is never made within TIMEOUT seconds.
"""
import json
import socket
import subprocess
import sys
import time

sock, drive, dm, slow_table, fast_table = sys.argv[1:6]
slow_at, timeout = float(sys.argv[6]), float(sys.argv[7])


def call(method, params):
    """One Varlink call: a JSON object ended by NUL, the reply the same."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(sock)
        s.sendall(json.dumps({"method": method,
                              "parameters": params}).encode() + b"\0")
        buf = b""
        while not buf.endswith(b"\0"):
            chunk = s.recv(65536)
            if not chunk:
                return None
            buf += chunk
    return json.loads(buf[:-1])


def step():
    try:
        r = call("io.ssdtorture.Manager.Status", {"drive": drive})
    except (OSError, ValueError):
        return None
    if r is None or "error" in r:
        return None
    for d in r.get("parameters", {}).get("drives", []):
        if d.get("name") == drive:
            return (d.get("checkpoint") or {}).get("step")
    return None


def dmsetup(*args):
    subprocess.run(["dmsetup"] + list(args) + ["--noudevsync"], check=True)


def flip():
    """The loaded table becomes the live one."""
    dmsetup("suspend", dm)
    dmsetup("resume", dm)


t_end = time.monotonic() + timeout
dmsetup("load", dm, "--table", slow_table)
t0 = prev = None
while t0 is None and time.monotonic() < t_end:
    now = time.monotonic()
    if step() == "degrade":
        t0 = now
        print("late %.2f" % (now - prev if prev else 0), flush=True)
        break
    prev = now
    time.sleep(0.05)
if t0 is None:
    sys.exit(1)
time.sleep(max(0, t0 + slow_at - time.monotonic()))
print("suspend %.2f" % (time.monotonic() - t0), flush=True)
flip()
print("slow %.2f" % (time.monotonic() - t0), flush=True)
dmsetup("load", dm, "--table", fast_table)
while time.monotonic() < t_end:
    s = step()
    if s not in ("degrade", None):
        flip()
        print("fast %.2f %s" % (time.monotonic() - t0, s), flush=True)
        sys.exit(0)
    time.sleep(0.1)
sys.exit(1)
