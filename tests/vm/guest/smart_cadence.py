"""t_thermal: how often the daemon reads each drive's SMART in each phase.
Polls `ssdctl --json smart NAME` (the latest reading's "time", epoch
seconds) every 0.3 s until every drive's run is over (its state file) or
the time is up, then places each reading in the phase that was running
when it was taken, by the daemon's own phase_start events (events.jsonl).
A reading's time has whole seconds: it belongs to the last phase that
started in or before its second (the reading a phase change makes is
taken after the change, so it falls in the new phase; a state file's
phase, which lags, could put it in the old one).

argv: SSDCTL SOCKET STATE_DIR TIMEOUT_S NAME...
Prints per drive: "NAME PHASE SECONDS READINGS" for each phase it ran,
in order (SECONDS: from its start to the next phase's, or to the end of
the poll; READINGS: distinct reading times that fall in it).
"""
import calendar, json, subprocess, sys, time

ctl, sock, state_dir, timeout = sys.argv[1:5]
names = sys.argv[5:]
readings = {n: set() for n in names}


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


def epoch(iso):
    """events.c's "2026-12-02T15:43:15.123Z" in epoch seconds"""
    sec, frac = iso.rstrip("Z").split(".")
    return calendar.timegm(time.strptime(sec, "%Y-%m-%dT%H:%M:%S")) + \
        float("0." + frac)


def phases(name):
    """[(phase, start)] from the drive's phase_start events, in order"""
    out = []
    with open("%s/%s/events.jsonl" % (state_dir, name)) as f:
        for ln in f:
            e = json.loads(ln)
            if e.get("event") == "phase_start":
                out.append((e["phase"], epoch(e["time"])))
    return out


end = time.monotonic() + float(timeout)
while time.monotonic() < end:
    done = 0
    for n in names:
        if state(n).get("run") in ("finished", "failed", "stopped"):
            done += 1
            continue
        t = reading_time(n)
        if t is not None:
            readings[n].add(t)
    if done == len(names):
        break
    time.sleep(0.3)
t_end = time.time()
for n in names:
    ph = phases(n)
    for i, (p, t0) in enumerate(ph):
        nxt = ph[i + 1][1] if i + 1 < len(ph) else None
        k = sum(1 for t in readings[n]
                if t >= int(t0) and (nxt is None or t < int(nxt)))
        print(n, p, "%.1f" % ((nxt or t_end) - t0), k)
