"""t_flush_replay: while the daemon runs, copy its state file and events each
time a new state file appears, and set a mark in the log-writes device
(dmsetup message lw 0 mark mN) first. A copy counts only if the state
file is the same inode before the mark and after the copy (the daemon did
not move on in between).

argv: PID STATEFILE EVENTS SNAPDIR
Copy N goes to SNAPDIR/N/lw/{state,events.jsonl}; SNAPDIR/good lists the
copies that count. Exit status non-zero when a mark cannot be set.
"""
import os, shutil, subprocess, sys, time
pid, state, events, snap = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
n, good, seen = 0, [], None
def alive():
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(") ", 1)[1][0] not in "ZX"
    except OSError:
        return False
while alive():
    try:
        before = os.stat(state).st_ino
    except OSError:
        before = None
    if before is None or before == seen:
        time.sleep(0.005)
        continue
    seen = before
    n += 1
    subprocess.run(["dmsetup", "message", "lw", "0", "mark", "m%d" % n],
                   check=True)
    d = os.path.join(snap, str(n), "lw")
    os.makedirs(d)
    shutil.copy(state, os.path.join(d, "state"))
    shutil.copy(events, os.path.join(d, "events.jsonl"))
    if os.stat(state).st_ino == before:
        good.append(n)
    else:
        shutil.rmtree(os.path.dirname(d))
with open(os.path.join(snap, "good"), "w") as f:
    f.writelines("%d\n" % g for g in good)
