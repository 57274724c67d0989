"""wait_state STATEFILE PID TIMEOUT_S PYEXPR (tests/lib/state.sh): poll a
drive's state file until the expression over `s` holds.
"""
import os, sys, time
path, pid, limit, expr = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
def alive(p):
    try:
        with open("/proc/%d/stat" % p) as f:
            st = f.read().rsplit(") ", 1)[1].split()[0]
        return st not in ("Z", "X")
    except OSError:
        return False
def load(p):
    s = {}
    with open(p) as f:
        txt = f.read()
    for line in txt.splitlines():
        k, _, v = line.partition(" ")
        s[k] = int(v) if v.isdigit() else v
    return s, txt
t0 = time.time()
while True:
    try:
        s, txt = load(path)
        if "instance" in s and eval(expr, {}, {"s": s}):
            with open(path + ".snap", "w") as f:
                f.write(txt)
            sys.exit(0)
    except (OSError, KeyError):
        pass
    if not alive(pid):
        print("  wait_state: process %d exited before: %s" % (pid, expr))
        sys.exit(1)
    if time.time() - t0 > limit:
        print("  wait_state: timeout (%.0f s) waiting for: %s" % (limit, expr))
        sys.exit(1)
    time.sleep(float(os.environ.get("SSDT_POLL_S", "0.005")))
