"""steady_schedule.py SSDCTL SOCKET DRIVE DMNAME SLOW_TABLE FAST_TABLE SLOW_AT TIMEOUT

The schedule of t_steady.sh's device: polls `ssdctl status` until the
drive's checkpoint is in its step `degrade`, then SLOW_AT seconds later
loads SLOW_TABLE into the device-mapper device DMNAME (the device slows
down); when the step is `gc-idle` (the degradation run is over), loads
FAST_TABLE (the device recovers). Prints one line a change: `slow S` and
`fast S`, S the seconds since the degradation run was first seen, and
`late S` for the lag of the poll that first saw it (the time of the poll
before it, the degradation run unseen, to the one that saw it). Exits 1
when a change is never made within TIMEOUT seconds.
"""
import json
import subprocess
import sys
import time

ctl, sock, drive, dm, slow_table, fast_table = sys.argv[1:7]
slow_at, timeout = float(sys.argv[7]), float(sys.argv[8])


def step():
    r = subprocess.run([ctl, "-s", sock, "--json", "status"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None
    for d in json.loads(r.stdout).get("drives", []):
        if d.get("name") == drive:
            return (d.get("checkpoint") or {}).get("step")
    return None


def swap(table):
    for args in (["load", dm, "--noudevsync", "--table", table],
                 ["suspend", dm, "--noudevsync"],
                 ["resume", dm, "--noudevsync"]):
        subprocess.run(["dmsetup"] + args, check=True)


t_end = time.monotonic() + timeout
t0 = prev = None
slowed = fast = False
while time.monotonic() < t_end and not fast:
    now = time.monotonic()
    s = step()
    if t0 is None:
        if s == "degrade":
            t0 = now
            print("late %.2f" % (now - prev if prev else 0), flush=True)
        prev = now
    elif not slowed and now - t0 >= slow_at:
        swap(slow_table)
        slowed = True
        print("slow %.2f" % (time.monotonic() - t0), flush=True)
    elif slowed and s not in ("degrade", None):
        swap(fast_table)
        fast = True
        print("fast %.2f %s" % (time.monotonic() - t0, s), flush=True)
    if not slowed and t0 is not None:
        time.sleep(min(0.05, max(0, t0 + slow_at - time.monotonic())))
    else:
        time.sleep(0.1)
sys.exit(0 if fast else 1)
