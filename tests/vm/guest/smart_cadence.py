"""t_thermal: how often the daemon reads each drive's SMART in each phase.
Polls `ssdctl --json smart NAME` (the latest reading's "time", epoch
seconds) and the drive's state file (its phase) every 0.3 s until every
drive's run is over or the time is up.

argv: SSDCTL SOCKET STATE_DIR TIMEOUT_S NAME...
Prints per drive: "NAME PHASE SECONDS_SEEN READINGS" for each phase seen
(READINGS: distinct reading times that appeared while in that phase).
"""
import json, subprocess, sys, time

ctl, sock, state_dir, timeout = sys.argv[1:5]
names = sys.argv[5:]
seen = {n: {} for n in names}      # name -> phase -> [first, last, set()]
last_time = {n: None for n in names}

def state(name):
    try:
        with open("%s/%s/state" % (state_dir, name)) as f:
            return dict(l.rstrip("\n").split(" ", 1) for l in f if " " in l)
    except (OSError, ValueError):
        return {}

def reading_time(name):
    r = subprocess.run([ctl, "-s", sock, "--json", "smart", name],
                       capture_output=True, text=True)
    try:
        return json.loads(r.stdout)["latest"]["time"]
    except (ValueError, KeyError, TypeError):
        return None

end = time.monotonic() + float(timeout)
while time.monotonic() < end:
    done = 0
    for n in names:
        s = state(n)
        if s.get("run") in ("finished", "failed", "stopped"):
            done += 1
            continue
        ph = s.get("phase", "?")
        t = reading_time(n)
        now = time.monotonic()
        rec = seen[n].setdefault(ph, [now, now, set()])
        rec[1] = now
        if t is not None and t != last_time[n]:
            rec[2].add(t)
            last_time[n] = t
    if done == len(names):
        break
    time.sleep(0.3)
for n in names:
    for ph, (a, b, ts) in seen[n].items():
        print(n, ph, "%.1f" % (b - a), len(ts))
