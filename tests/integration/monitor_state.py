"""monitor_state (tests/integration/lib.sh): sample a drive's state file every
50 ms until the daemon exits; complain about every counter that went
backwards, and about a position that went back within one phase of one
cycle (or a phase that went back within a running cycle).

argv: STATEFILE PID
Complaints on stdout, exit status 1 when any; the last line says how many
samples were taken.
"""
import os, sys, time
path, pid = sys.argv[1], int(sys.argv[2])
MONO = ["host_bytes_written", "host_bytes_read", "host_bytes_trimmed",
        "write_ops", "read_ops", "verify_passes", "cycles_done", "cycle",
        "errors.corrupt", "errors.misdirected", "errors.stale",
        "errors.foreign", "errors.unwritten", "errors.io_error",
        "errors.lost_flush", "errors.torn"]
ORDER = ["static", "write", "verify", "trim", "idle"]
def alive(p):
    try:
        with open("/proc/%d/stat" % p) as f:
            return f.read().rsplit(") ", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False
def load():
    s = {}
    with open(path) as f:
        for line in f.read().splitlines():
            k, _, v = line.partition(" ")
            s[k] = v
    return s if "instance" in s and "reason" in s else None
prev, n, bad = None, 0, 0
while True:
    running = alive(pid)
    try:
        s = load()
    except OSError:
        s = None
    if s is not None:
        n += 1
        if prev is not None:
            for k in MONO:
                if k in s and k in prev and int(s[k]) < int(prev[k]):
                    print("  %s went backwards: %s -> %s" % (k, prev[k], s[k])); bad += 1
            if s["cycle"] == prev["cycle"]:
                a, b = prev["phase"], s["phase"]
                if a in ORDER and b in ORDER and ORDER.index(b) < ORDER.index(a) \
                        and s.get("run") == "running":
                    print("  phase went back within cycle %s: %s -> %s" % (s["cycle"], a, b)); bad += 1
                if a == b and int(s["position"]) < int(prev["position"]):
                    print("  position went back in phase %s: %s -> %s" % (a, prev["position"], s["position"])); bad += 1
        prev = s
    if not running:
        break
    time.sleep(0.05)
print("samples %d" % n)
sys.exit(1 if bad else 0)
